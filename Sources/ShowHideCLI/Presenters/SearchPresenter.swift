import Catalogue
import ColourScience
import Foundation
import Imaging

/// Search results: why each photo matched, as a table or JSON.
struct SearchPresenter {
    let console: Console

    struct MatchJSON: Encodable {
        var hex: String
        var name: String
        var coverage: Double
        var deltaE: Double?
        var score: Double
    }

    struct ResultJSON: Encodable {
        var photo: PhotoJSON
        var match: MatchJSON

        enum CodingKeys: String, CodingKey { case match }

        /// The photo's keys, plus "match".
        func encode(to encoder: any Encoder) throws {
            try photo.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(match, forKey: .match)
        }
    }

    func present(_ matches: [ColourMatch], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(matches.map {
                ResultJSON(photo: PhotoJSON($0.photo), match: MatchJSON(
                    hex: $0.matchedLab.hex, name: $0.matchedName.rawValue, coverage: PhotoJSON.rounded($0.coverage),
                    deltaE: $0.deltaE.map { PhotoJSON.rounded($0, 2) }, score: PhotoJSON.rounded($0.score)))
            }))
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
