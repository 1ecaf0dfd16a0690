import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// `showhide inspire [--limit N] [--colour C] [--since/--until] [--json] [--html FILE]`
struct InspireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspire",
        abstract: "The photos that would make the most striking show and hide pictures, and why.",
        discussion: """
        Photos are ranked by splash potential: one vivid accent colour covering a modest part of the frame \
        against a rest that does not compete (--json gives each term of the score). --html writes a web page with \
        each photo, its show and hide variants (made when missing), palette, reason and camera facts.
        """
    )

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "Only photos whose accent is this colour: a name, #RRGGBB or rgb(r,g,b).", valueName: "colour"), transform: ColourArgument.parse)
    var colour: ColourArgument?

    @OptionGroup var filters: PhotoFilterOptions

    @OptionGroup var splash: SplashOptions

    @Flag(name: .long, help: "Print JSON, with the score and its terms.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write a web page here (pictures in a folder beside it).", valueName: "file"))
    var html: String?

    @OptionGroup var library: LibraryOptions

    static let defaultLimit = 20

    var target: ColourTarget? { colour?.target }

    func validate() throws {
        if json && html != nil { throw ValidationError("Give --json or --html, not both.") }
        _ = try splash.target(given: target.map { .colour($0.lab) })
    }

    func run() async throws {
        try await run(in: .live())
    }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        var query = filters.query(sort: .imported)
        query.limit = nil
        let entries = InspirationService.rank(try catalogue.photos(matching: query), colour: target,
                                              limit: filters.limit ?? Self.defaultLimit)
        guard let html else {
            try InspirationPresenter(console: environment.console).present(entries, asJSON: json)
            return
        }
        let page = environment.absolutePath(html)
        let directory = (page as NSString).deletingLastPathComponent
        let folder = ((page as NSString).lastPathComponent as NSString).deletingPathExtension + "_files"
        let service = InspirationService(
            fileSystem: environment.fileSystem, decoder: environment.decoder, encoder: environment.encoder, catalogue: catalogue,
            variantMaker: environment.processingService(catalogue: catalogue, libraryDirectory: library.directory(in: environment)))
        let pictures = try await service.pictures(for: entries, pageDirectory: directory, folder: folder,
                                                  processing: splash.processing(target: try splash.target(given: target.map { .colour($0.lab) }),
                                                                                jobs: environment.processorCount))
        let text = InspirationPage.render(entries, pictures: pictures, generated: environment.clock.now())
        try environment.fileSystem.writeAtomically(Data(text.utf8), to: page)
        environment.console.print("wrote \(page): \(counted(entries.count, "photo")), pictures in \(folder)/")
    }
}

/// The inspiration list in the terminal (rank, score, reason, palette swatches) or as JSON.
struct InspirationPresenter {
    let console: Console

    struct EntryJSON: Encodable {
        var rank: Int
        var score: Double
        var terms: Terms
        var reason: String
        var photo: PhotoJSON

        struct Terms: Encodable {
            var vividness: Double
            var size: Double
            var focus: Double
            var contrast: Double
            var calm: Double
            var photographic: Double
            var standout: Double
            var change: Double
            var resolution: Double
        }
    }

    func present(_ entries: [InspirationEntry], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(entries.map { entry in
                let potential = entry.potential
                return EntryJSON(rank: entry.rank, score: potential.score,
                                 terms: .init(vividness: PhotoJSON.rounded(potential.vividness), size: PhotoJSON.rounded(potential.size),
                                              focus: PhotoJSON.rounded(potential.focus),
                                              contrast: PhotoJSON.rounded(potential.contrast), calm: PhotoJSON.rounded(potential.calm),
                                              photographic: PhotoJSON.rounded(potential.photographic),
                                              standout: PhotoJSON.rounded(potential.standout), change: PhotoJSON.rounded(potential.change),
                                              resolution: PhotoJSON.rounded(potential.resolution)),
                                 reason: potential.reason, photo: PhotoJSON(entry.photo))
            }))
            return
        }
        guard !entries.isEmpty else {
            console.warn("No photo has an accent colour to splash.")
            return
        }
        var table = TextTable(headers: ["#", "ID", "FILE", "SCORE", "WHY", "COLOURS"], fits: [.keep, .keep, .elide, .keep, .wrap, .wrap])
        for entry in entries {
            table.append([String(entry.rank), String(entry.photo.id), (entry.photo.path as NSString).lastPathComponent,
                          String(format: "%.1f", entry.potential.score), entry.potential.reason,
                          ColourText(console: console).summary(entry.photo.facts.colours)])
        }
        console.print(table)
    }
}
