import Foundation
import PackagePlugin

/// Embeds Migrations/*.sql and Migrations/thumbnails/*.sql into the target as generated Swift;
/// re-runs only when a .sql file changes or one is added.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let migrations = context.package.directoryURL.appending(path: "Migrations")
        let thumbnails = migrations.appending(path: "thumbnails")
        let files = try [migrations, thumbnails].flatMap { folder in
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding the migrations",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path, migrations.path],
                // The folder too: adding a migration changes it, and the embedder lists it again
                // even when SwiftPM does not plan the build anew (it does not watch this folder).
                inputFiles: files + [migrations, thumbnails],
                outputFiles: [output]
            ),
        ]
    }
}
