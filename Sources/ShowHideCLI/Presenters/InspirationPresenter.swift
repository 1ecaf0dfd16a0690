import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The inspiration list in the terminal (rank, score, reason, palette swatches) or as JSON.
struct InspirationPresenter {
    let console: Console

    func present(_ entries: [InspirationEntry], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(entries.map(InspirationEntryJSON.init)))
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
