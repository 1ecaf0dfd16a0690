import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging

/// `showhide gallery search --colour red|#1f5aa6|rgb(…)`
struct SearchCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find photos by colour: a colour name, #RRGGBB, #RGB or rgb(r,g,b).",
        discussion: """
        A name (black, white, grey or gray, red, orange, yellow, green, blue, purple, pink, brown) ranks photos \
        by how much of their palette that name covers. A colour ranks them by how much of their palette lies \
        within --within ΔE00 of it, closer counting more. --accent matches only each photo's accent colour.
        """
    )

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "The colour to look for: a name, #RRGGBB, #RGB or rgb(r,g,b).", valueName: "colour"), transform: ColourArgument.parse)
    var colour: ColourArgument

    @Flag(name: .long, help: "Match only the accent colour, the one a person would single out.")
    var accent = false

    @Option(name: .long, parsing: .unconditional, help: "For a colour: the largest CIEDE2000 difference that matches.")
    var within: Double = ColourSearch.defaultWithin

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The least share of the photo the colour must cover.", valueName: "percent"))
    var minCoverage: Double = 0

    @OptionGroup var filters: PhotoFilterOptions

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var library: LibraryOptions

    /// Results shown when --limit is not given.
    static let defaultLimit = 20

    var target: ColourTarget { colour.target }

    func validate() throws {
        guard within > 0, within <= 100 else { throw ValidationError("--within takes a ΔE00 above 0 and at most 100.") }
        guard (0...100).contains(minCoverage) else { throw ValidationError("--min-coverage takes a percentage from 0 to 100.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let search = ColourSearch(target: target, accentOnly: accent, within: within, minimumCoverage: minCoverage / 100,
                                  filters: filters.query(in: environment, defaultLimit: Self.defaultLimit))
        try SearchPresenter(console: environment.console).present(try catalogue.search(search), asJSON: json)
    }
}
