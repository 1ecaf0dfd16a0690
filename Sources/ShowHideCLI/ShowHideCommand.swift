import ArgumentParser

/// `showhide`: the root command.
@available(macOS 10.15, *)
public struct ShowHideCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "showhide",
        abstract: "A photo gallery manager that finds each photo's colours and makes show and hide variants.",
        discussion: """
        Exit statuses: 0 success; 1 some files could not be read or processed (they are listed); \
        2 not found; 64 wrong arguments; 69 the catalogue could not be opened; 73 an export could not be \
        written. See Docs/Usage.md.
        """,
        version: "0.1.0",
        subcommands: [GalleryCommand.self, ExportCommand.self, InspireCommand.self, InspectCommand.self]
    )

    public init() {}
}

extension ShowHideCommand {
    /// Parses the process's arguments and runs the chosen command. Named apart from `main()`
    /// because top-level code would otherwise pick ParsableCommand's synchronous overload.
    public static func run() async {
        await (main as () async -> Void)()
    }
}
