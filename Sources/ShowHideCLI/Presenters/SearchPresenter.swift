import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging

/// Search results: why each photo matched, as a table or JSON.
struct SearchPresenter {
    let console: Console

    func present(_ matches: [ColourMatch], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(matches.map(SearchResultJSON.init)))
            return
        }
        guard !matches.isEmpty else {
            console.warn("No photo matches that colour.")
            return
        }
        let colourText = ColourText(console: console)
        var table = TextTable(headers: ["ID", "FILE", "SHARE", "ΔE00", "MATCH", "COLOURS"], fits: [.keep, .elide, .keep, .keep, .elide, .wrap])
        for match in matches {
            let swatch = colourText.swatch(match.matchedLab.hex)
            table.append([
                String(match.photo.id),
                (match.photo.path as NSString).lastPathComponent,
                ColourText.percent(match.coverage),
                match.deltaE.map { String(format: "%.1f", $0) } ?? "-",
                match.matchedLab.hex + " " + match.matchedName.rawValue,
                (swatch.isEmpty ? "" : swatch + " ") + colourText.summary(match.photo.facts.colours),
            ])
        }
        console.print(table)
    }
}
