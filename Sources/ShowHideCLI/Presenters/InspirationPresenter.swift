import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The inspiration list in the terminal (rank, score, reason, palette swatches) or as JSON.
struct InspirationPresenter {
    let console: Console

    /// - Parameter colour: the colour the list was asked for, as the user wrote it (nil: any).
    func present(_ entries: [InspirationEntry], asJSON: Bool, colour: String? = nil) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(entries.map(InspirationEntryJSON.init)))
            return
        }
        guard !entries.isEmpty else {
            // A photo with an accent can still be no splash (a busy scene, a colour filling the frame): it scores 0.
            console.warn(colour.map { "No photo with a \($0) accent would make a striking splash." }
                         ?? "No photo has an accent colour that would make a striking splash.")
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
