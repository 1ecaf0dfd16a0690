import Foundation
import PackagePlugin

/// Writes the commit the build comes from into the target (`--version`). A prebuild command runs
/// at every build, as the commit changes without any source file changing; the file is rewritten
/// only when its text changes, so an unchanged commit recompiles nothing.
@main
struct EmbedBuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let script = """
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit with local changes"
            fi
            mkdir -p "$2"
            text="/// The commit this build comes from (written by the EmbedBuildInfo plugin).
            let buildCommit = \\"$commit\\""
            [ "$(cat "$2/BuildInfo.swift" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2/BuildInfo.swift"
            """
        return [
            .prebuildCommand(
                displayName: "Embedding the commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, folder.path],
                outputFilesDirectory: folder
            ),
        ]
    }
}
