import ArgumentParser
import Catalogue
import Foundation
import Services

/// `showhide gallery remove (ID... | --missing)`
struct RemoveCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Forget photos: the ones named, or those whose files are gone (--missing).",
        discussion: """
        The catalogue's rows go (EXIF, colours, duplicates, variant records) in one transaction, then the \
        photos' variant files. The photo files themselves are never touched. With --missing, a photo whose \
        file is gone but which has a duplicate on disk moves to that duplicate instead, and duplicate paths \
        whose files are gone are forgotten. Exit status 2 for an unknown id.
        """
    )

    @Argument(help: "Ids of the photos to forget (as `gallery list` shows them).")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Forget every photo and duplicate path whose file is gone.")
    var missing = false

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if ids.isEmpty && !missing { throw ValidationError("Name the photos to remove, or use --missing.") }
        if !ids.isEmpty && missing { throw ValidationError("Give ids or --missing, not both.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let service = environment.removalService(catalogue: catalogue)
        let summary = missing
            ? try service.removeMissing()
            : try service.remove(try ids.map { try environment.photo(id: $0, in: catalogue) })
        try RemovePresenter(console: environment.console).present(summary, asJSON: json)
    }
}
