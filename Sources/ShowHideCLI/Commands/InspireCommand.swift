import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// `showhide inspire [--limit N] [--colour C] [--since/--until] [--json] [--html FILE [--gallery URL]]`
struct InspireCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspire",
        abstract: "The photos that would make the most striking show and hide pictures, and why.",
        discussion: """
        Photos are ranked by splash potential: one vivid accent colour covering a modest part of the frame \
        against a rest that does not compete (--json gives each term of the score). --html writes a web page with \
        each photo, its show and hide variants (made when missing), palette, reason and camera facts; each photo \
        links to its original file and to its page in the web gallery (showhide serve).
        """
    )

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "Only photos whose accent is this colour: a name, #RRGGBB, #RGB or rgb(r,g,b).", valueName: "colour"), transform: ColourArgument.parse)
    var colour: ColourArgument?

    @OptionGroup var filters: PhotoFilterOptions

    @OptionGroup var splash: SplashOptions

    @Flag(name: .long, help: "Print JSON, with the score and its terms.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write a web page here, FILE.html (pictures in a folder beside it); only a page written before is replaced.", valueName: "file"))
    var html: String?

    @Option(name: .long, help: ArgumentHelp(
        "The web gallery's address the page links each photo to (default: showhide serve's, http://127.0.0.1:8080/).",
        valueName: "url"))
    var gallery: String?

    @OptionGroup var library: LibraryOptions

    static let defaultLimit = 20

    var target: ColourTarget? { colour?.target }

    func validate() throws {
        if json && html != nil { throw ValidationError("Give --json or --html, not both.") }
        if let html, !["html", "htm"].contains((html as NSString).pathExtension.lowercased()) {
            throw ValidationError("--html names the web page to write: give a file name ending in .html, not '\(html)'.")
        }
        if let gallery {
            guard html != nil else { throw ValidationError("--gallery is for the page of --html.") }
            guard let url = URL(string: gallery), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
                throw ValidationError("--gallery takes the gallery's address, such as http://127.0.0.1:8080/.")
            }
        }
        _ = try splash.target(given: target.map { .colour($0.lab) })
    }

    /// How many photos were left out for their files being gone, and where to look.
    static func goneWarning(_ gone: Int) -> String {
        "showhide: left out \(counted(gone, "photo")) whose file is gone "
            + (gone >= InspirationService.mostPassedOver ? "and looked no further (a drive not mounted?) " : "")
            + PhotoPresenter.goneFilesHint
    }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        var query = filters.query(in: environment, sort: .imported)
        query.limit = nil
        let ranking = try InspirationService.ranking(in: catalogue, matching: query, colour: target)
        // A photo whose file is gone can be splashed no more: the next one takes its place.
        let (entries, gone) = try InspirationService.entries(ranking, first: filters.limit ?? Self.defaultLimit, in: catalogue) {
            environment.fileSystem.exists($0.path)
        }
        filters.scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue)
        if gone > 0 { environment.console.warn(Self.goneWarning(gone)) }
        guard let html else {
            try InspirationPresenter(console: environment.console).present(entries, asJSON: json, colour: colour?.text)
            return
        }
        let page = environment.absolutePath(html)
        let directory = (page as NSString).deletingLastPathComponent
        let picturesFolder = InspirationPageFiles.picturesFolder(of: page)
        let folder = (picturesFolder as NSString).lastPathComponent
        try InspirationPage.checkPlace(page: page, picturesFolder: picturesFolder, fileSystem: environment.fileSystem)
        // In the library's variants/ folder, the next `gallery check --repair` would delete the page as stray files.
        if let reason = environment.protectedFiles(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
            .libraryReason(against: page) {
            throw ProtectedFileError(path: page, reason: reason)
        }
        if catalogue.isReadOnly {
            environment.console.warn("showhide: the catalogue is read-only, so no variant can be made for the page: "
                                     + "it shows the show and hide pictures made already")
        }
        let service = environment.inspirationService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        let pictures = try await service.pictures(for: entries, pageDirectory: directory, folder: folder,
                                                  processing: splash.processing(target: try splash.target(given: target.map { .colour($0.lab) }),
                                                                                jobs: environment.processorCount),
                                                  makingMissing: !catalogue.isReadOnly)
        let text = InspirationPage.render(entries, pictures: pictures, generated: environment.clock.now(),
                                          gallery: gallery ?? InspirationPage.defaultGallery)
        try environment.fileSystem.writeAtomically(Data(text.utf8), to: page)
        environment.console.print("wrote \(page): \(counted(entries.count, "photo")), pictures in \(folder)/")
    }
}
