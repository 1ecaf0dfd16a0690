import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging

/// Search results: why each photo matched, as a table or JSON.
struct SearchPresenter {
    let console: Console

    /// - Parameter gone: the photos whose file is not at its path, marked.
    func present(_ matches: [ColourMatch], asJSON: Bool, gone: Set<PhotoID> = []) throws {
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
                PhotoPresenter.fileName(match.photo, gone: gone),
                ColourText.percent(match.coverage),
                match.deltaE.map { String(format: "%.1f", $0) } ?? "-",
                match.matchedLab.hex + " " + match.matchedName.rawValue,
                (swatch.isEmpty ? "" : swatch + " ") + colourText.summary(match.photo.facts.colours),
            ])
        }
        console.print(table)
        PhotoPresenter.sayGone(gone, console: console)
    }
}
