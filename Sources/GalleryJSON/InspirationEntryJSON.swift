import Catalogue
import ColourScience
import Foundation
import Services

/// One photo of the inspiration list, in JSON: rank, score and its terms, reason, photo (`inspire --json`, `/api/inspire`).
public struct InspirationEntryJSON: Encodable {
    public var rank: Int
    public var score: Double
    public var terms: Terms
    public var reason: String
    public var photo: PhotoJSON

    public struct Terms: Encodable {
        public var vividness: Double
        public var size: Double
        public var focus: Double
        public var contrast: Double
        public var calm: Double
        public var photographic: Double
        public var standout: Double
        public var change: Double
        public var resolution: Double
    }

    public init(_ entry: InspirationEntry) {
        let potential = entry.potential
        rank = entry.rank
        score = potential.score
        terms = Terms(vividness: PhotoJSON.rounded(potential.vividness), size: PhotoJSON.rounded(potential.size),
                      focus: PhotoJSON.rounded(potential.focus), contrast: PhotoJSON.rounded(potential.contrast),
                      calm: PhotoJSON.rounded(potential.calm), photographic: PhotoJSON.rounded(potential.photographic),
                      standout: PhotoJSON.rounded(potential.standout), change: PhotoJSON.rounded(potential.change),
                      resolution: PhotoJSON.rounded(potential.resolution))
        reason = potential.reason
        photo = PhotoJSON(entry.photo)
    }
}
