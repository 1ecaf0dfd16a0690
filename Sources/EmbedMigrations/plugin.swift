import Foundation
import PackagePlugin

/// Embeds Migrations/*.sql into the target as generated Swift; re-runs only when a .sql file changes
/// or one is added.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let migrations = context.package.directoryURL.appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(at: migrations, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding the migrations",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path, migrations.path],
                // The folder too: adding a migration changes it, and the embedder lists it again
                // even when SwiftPM does not plan the build anew (it does not watch this folder).
                inputFiles: files + [migrations],
                outputFiles: [output]
            ),
        ]
    }
}
