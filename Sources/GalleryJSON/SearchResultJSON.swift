import Catalogue
import ColourScience
import Foundation

/// One photo found by colour, in JSON: the photo's keys, plus "match" (`gallery search --json`, `/api/photos?colour=`).
public struct SearchResultJSON: Encodable {
    public var photo: PhotoJSON
    public var match: MatchJSON

    public struct MatchJSON: Encodable {
        public var hex: String
        public var name: String
        public var coverage: Double
        public var deltaE: Double?
        public var score: Double
    }

    public init(_ match: ColourMatch) {
        photo = PhotoJSON(match.photo)
        self.match = MatchJSON(hex: match.matchedLab.hex, name: match.matchedName.rawValue, coverage: PhotoJSON.rounded(match.coverage),
                               deltaE: match.deltaE.map { PhotoJSON.rounded($0, 2) }, score: PhotoJSON.rounded(match.score))
    }

    enum CodingKeys: String, CodingKey { case match }

    public func encode(to encoder: any Encoder) throws {
        try photo.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(match, forKey: .match)
    }
}
