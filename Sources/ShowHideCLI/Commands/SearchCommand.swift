import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging

/// `showhide gallery search red`, `… "orange as a small accent"`, `… --colour #1f5aa6`
struct SearchCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find photos by colour: a colour name, #RRGGBB, #RGB or rgb(r,g,b).",
        discussion: """
        A name (black, white, grey or gray, red, orange, yellow, green, blue, purple, pink, brown) ranks photos \
        by how much of their palette that name covers. A colour ranks them by their best palette entry within \
        --within ΔE00 of it: its share of the photo × (1 − its ΔE00 / --within), so nearer and larger first. \
        --accent matches only each photo's accent colour. The colour may be said as words: "orange as the \
        accent" is --accent, "orange as a small accent" also --max-coverage 10. At most 20 photos unless \
        --limit says otherwise.
        """
    )

    @Argument(help: ArgumentHelp("The colour to look for, as words: orange, #1f5aa6, \"orange as a small accent\".",
                                 valueName: "colour"))
    var words: [String] = []

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "The colour to look for: a name, #RRGGBB, #RGB or rgb(r,g,b), or as words.", valueName: "colour"), transform: ColourArgument.phrase)
    var colourOption: ColourPhrase?

    @Flag(name: .long, help: "Match only the accent colour, the one a person would single out.")
    var accent = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "For a #RRGGBB or rgb() colour: the largest CIEDE2000 difference that matches (default \(ColourArgument.defaultWithinText)).",
        valueName: "ΔE00"))
    var within: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The least share of the photo the colour must cover.", valueName: "percent"))
    var minCoverage: Double = 0

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "The largest share of the photo the colour may cover: with --accent, a small accent.", valueName: "percent"))
    var maxCoverage: Double = 100

    @OptionGroup var filters: PhotoFilterOptions

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var library: LibraryOptions

    /// Results shown when --limit is not given.
    static let defaultLimit = 20

    /// The colour asked for, as words or after --colour (validate() has checked that there is one).
    var colour: ColourPhrase { colourOption ?? ColourPhrase(parsing: words.joined(separator: " "))! }

    var target: ColourTarget { colour.target }

    /// Only accents: --accent, or said so.
    var accentOnly: Bool { accent || colour.accentOnly }

    /// The largest share, in percent: --max-coverage, and a tenth when the accent is said to be small.
    var largestCoverage: Double { min(maxCoverage, colour.largestCoverage) }

    func validate() throws {
        switch (words.isEmpty, colourOption) {
        case (true, nil):
            throw ValidationError("Give a colour to look for: showhide gallery search orange, \"orange as a small accent\" or --colour #1f5aa6.")
        case (false, .some):
            throw ValidationError("Give the colour once: as words (\(words.joined(separator: " "))) or after --colour, not both.")
        case (false, nil):
            _ = try ColourArgument.phrase(words.joined(separator: " "))
        case (true, .some):
            break
        }
        try ColourArgument.validate(within: within, target: target, typed: colour.colourText)
        guard (0...100).contains(minCoverage) else { throw ValidationError("--min-coverage takes a percentage from 0 to 100.") }
        guard (0...100).contains(maxCoverage) else { throw ValidationError("--max-coverage takes a percentage from 0 to 100.") }
        guard minCoverage <= largestCoverage else {
            let largest = largestCoverage < maxCoverage ? "a small accent's \(ColourArgument.percent(largestCoverage))"
                : "--max-coverage \(ColourArgument.percent(maxCoverage))"
            throw ValidationError("--min-coverage \(ColourArgument.percent(minCoverage)) is above \(largest): no share is both.")
        }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let search = ColourSearch(target: target, accentOnly: accentOnly, within: within ?? ColourSearch.defaultWithin,
                                  minimumCoverage: minCoverage / 100, maximumCoverage: largestCoverage / 100,
                                  filters: filters.query(in: environment, defaultLimit: Self.defaultLimit))
        let matches = try catalogue.search(search)
        filters.scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue)
        try SearchPresenter(console: environment.console).present(matches, asJSON: json, gone: json ? [] : environment.gone(matches.map(\.photo)))
    }
}
