import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// `showhide gallery process (ID... | --in PATH... | --all) …`
struct ProcessCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Make the show and hide variants of photos: only their accent colour kept, or only it turned grey.",
        discussion: """
        Variants are written under the library folder (variants/…) at full resolution, upright, and recorded in \
        the catalogue. The same photo with the same parameters is not processed twice; other parameters make \
        other variants, and the earlier ones are kept.
        """
    )

    @Argument(help: "Ids of the photos to process (as `gallery list` shows them).")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Process every photo (those of the scope, when one is given).")
    var all = false

    @OptionGroup var filters: PhotoFilterOptions

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "Keep this colour instead of each photo's accent: a name, #RRGGBB, #RGB or rgb(r,g,b).", valueName: "colour"),
        transform: ColourArgument.parse)
    var colour: ColourArgument?

    @Option(name: .long, parsing: .unconditional, help: "Keep this CIELAB hue angle (degrees) instead of each photo's accent.")
    var hue: Double?

    @OptionGroup var splash: SplashOptions

    @Option(name: .long, parsing: .unconditional, help: "JPEG quality of JPEG variants, 1–100.")
    var quality = 90

    @OptionGroup var jobs: JobsOptions

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    /// The colour or hue asked for; nil when none was (or it is not a colour).
    var given: SplashTarget? {
        if let hue { return .hue(hue) }
        return colour.map { .colour($0.target.lab) }
    }

    /// What the variants keep: the colour or hue asked for, else each photo's accent (or its
    /// candidate of `--accent-rank`); nil when the options contradict each other.
    var target: SplashTarget? { try? splash.target(given: given) }

    func validate() throws {
        if ids.isEmpty && !all && filters.scope.isEmpty {
            throw ValidationError("Name the photos to process: their ids, a scope (--in, --since, --until, --camera), or --all.")
        }
        if !ids.isEmpty && all { throw ValidationError("Give ids or --all, not both.") }
        if !ids.isEmpty && !filters.scope.isEmpty { throw ValidationError("Give ids or a scope (--in, --since, --until, --camera), not both.") }
        try SplashOptions.requireAngle(hue)
        if !ids.isEmpty && filters.limit != nil { throw ValidationError("--limit caps a scope or --all; with ids, name fewer.") }
        if colour != nil && hue != nil { throw ValidationError("Give --colour or --hue, not both.") }
        _ = try splash.target(given: given)
        try SplashOptions.requireHue(given, typed: colour?.text)
        if !(1...100).contains(quality) { throw ValidationError("--quality takes 1 to 100.") }
    }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        try library.refuseReadOnly(catalogue, in: environment)
        var photos: [CataloguedPhoto] = []
        if ids.isEmpty {
            photos = try catalogue.photos(matching: filters.query(in: environment, sort: .imported))
            filters.scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue)
        } else {
            photos = try ids.map { try environment.photo(id: $0, in: catalogue) }
        }
        let service = environment.processingService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        let options = splash.processing(target: try splash.target(given: given), quality: quality,
                                        jobs: jobs.count(in: environment))
        let summary = try await service.process(photos, options: options, progress: environment.progress(),
                                                interruption: environment.listenForInterruption())
        try ProcessPresenter(console: environment.console).present(summary, photos: photos.count, asJSON: json)
        if summary.interrupted { throw ExitStatus.interrupted }
        // The library's disk is full: a resource the whole command needs (as for the catalogue's).
        if summary.stoppedForRoom != nil { throw ExitStatus.unavailable }
        if !summary.failures.isEmpty { throw ExitStatus.someFilesFailed }
    }
}
