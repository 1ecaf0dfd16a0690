import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

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
