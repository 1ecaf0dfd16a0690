import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Services

/// `showhide gallery analyse [ID... | --in PATH...] [--all]`
struct AnalyseCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyse",
        abstract: "Find photos' colours again: those analysed by earlier rules, or the ones named.",
        discussion: """
        When showhide's colour rules change, the catalogue keeps what the earlier rules found until the photos \
        are analysed again: by the next import of their folder, or by this command. Without ids it analyses \
        the photos that need it (of the scope, when one is given); only their palette, accent and candidates change — EXIF, paths and variants stay. \
        Exit status 1 when some photos could not be read (they are listed).
        """,
        aliases: ["analyze"]
    )

    @Argument(help: "Ids of the photos to analyse (as `gallery list` shows them).")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Analyse every photo (of the scope, when one is given), not only those analysed by earlier rules.")
    var all = false

    @OptionGroup var scope: ScopeOptions

    @OptionGroup var jobs: JobsOptions

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if !ids.isEmpty && all { throw ValidationError("Give ids or --all, not both.") }
        if !ids.isEmpty && !scope.isEmpty { throw ValidationError("Give ids or a scope (--in, --since, --until, --camera), not both.") }
    }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        var query = scope.query(in: environment, sort: .imported)
        query.needingAnalysis = !all
        let photos = ids.isEmpty ? try catalogue.photos(matching: query) : try ids.map { try environment.photo(id: $0, in: catalogue) }
        let service = environment.analysisService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        var summary = try await service.analyse(photos, jobs: jobs.count(in: environment), progress: environment.progress(),
                                                interruption: environment.listenForInterruption())
        if ids.isEmpty && !all && !summary.interrupted {
            // Photos catalogued before thumbnails existed get theirs here, as the gallery would on first sight.
            query.needingAnalysis = false
            summary.thumbnailsMade = try await service.makeMissingThumbnails(of: try catalogue.photos(matching: query),
                                                                             jobs: jobs.count(in: environment))
        }
        // A scope that holds no photo at all is said as such, not as photos up to date.
        var scopeIsEmpty = false
        if ids.isEmpty && photos.isEmpty && !scope.isEmpty {
            var any = query
            any.needingAnalysis = false
            any.limit = 1
            scopeIsEmpty = try catalogue.photos(matching: any).isEmpty
        }
        if ids.isEmpty { scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue) }
        try AnalysePresenter(console: environment.console).present(summary, asJSON: json, scopeIsEmpty: scopeIsEmpty)
        if summary.interrupted { throw ExitStatus.interrupted }
        if !summary.failures.isEmpty { throw ExitStatus.someFilesFailed }
    }
}
