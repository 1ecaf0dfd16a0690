import ArgumentParser
import Catalogue
import Foundation
import Services

/// `showhide gallery remove (ID... | --in PATH... | --missing)`
struct RemoveCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Forget photos: the ones named, those of a scope (--in PATH…), or those whose files are gone (--missing).",
        discussion: """
        The catalogue's rows go (EXIF, colours, duplicates, variant records) in one transaction, then the \
        photos' variant files. The photo files themselves are never touched. With --missing, a photo whose \
        file is gone but which has a duplicate on disk moves to that duplicate instead, and duplicate paths \
        whose files are gone are forgotten. Exit status 2 for an unknown id.
        """
    )

    @Argument(help: "Ids of the photos to forget (as `gallery list` shows them).")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Forget every photo and duplicate path whose file is gone (of the scope, when one is given).")
    var missing = false

    @OptionGroup var scope: ScopeOptions

    @Flag(name: .long, help: "Say what would be forgotten, and change nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if ids.isEmpty && !missing && scope.isEmpty {
            throw ValidationError("Name the photos to remove: their ids, a scope (--in, --since, --until, --camera), or --missing.")
        }
        if !ids.isEmpty && missing { throw ValidationError("Give ids or --missing, not both.") }
        if !ids.isEmpty && !scope.isEmpty { throw ValidationError("Give ids or a scope (--in, --since, --until, --camera), not both.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let service = environment.removalService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        let query = scope.query(in: environment, sort: .imported)
        let summary: RemovalSummary
        if missing {
            summary = try service.removeMissing(in: query, dryRun: dryRun)
        } else if ids.isEmpty {
            let photos = try catalogue.photos(matching: query).compactMap { try catalogue.photo(id: $0.id) }
            scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue)
            // A folder's paths are forgotten; its photos' copies elsewhere stay photos.
            summary = query.paths.isEmpty ? try service.remove(photos, dryRun: dryRun) : try service.remove(photos, within: query.paths, dryRun: dryRun)
        } else {
            summary = try service.remove(try ids.map { try environment.photo(id: $0, in: catalogue) }, dryRun: dryRun)
        }
        try RemovePresenter(console: environment.console).present(summary, asJSON: json)
    }
}
