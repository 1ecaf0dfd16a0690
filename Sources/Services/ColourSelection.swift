import Catalogue

/// The photos an export by colour takes (`export --colour red`): those whose accent the colour is,
/// ranked by the accent's coverage, then — unless only accents are asked for — those it covers at least
/// a share of, ranked as `gallery search` ranks them; each photo once, the first `filters.limit`.
public struct ColourSelection: Sendable {
    /// The share of the frame a colour covers, by default, to take a photo whose accent it is not.
    public static let defaultMinimumCoverage = 0.10

    public var target: ColourTarget
    /// Only photos whose accent the colour is.
    public var accentOnly: Bool
    public var within: Double
    /// The least share of the frame: of the accent when `accentOnly`, else of the colour in the other photos.
    public var minimumCoverage: Double?
    /// The largest share of the frame the accent may cover ("as a small accent").
    public var largestCoverage: Double
    public var filters: PhotoQuery

    public init(target: ColourTarget, accentOnly: Bool, within: Double = ColourSearch.defaultWithin, minimumCoverage: Double? = nil,
                largestCoverage: Double = 1, filters: PhotoQuery = PhotoQuery()) {
        self.target = target
        self.accentOnly = accentOnly
        self.within = within
        self.minimumCoverage = minimumCoverage
        self.largestCoverage = largestCoverage
        self.filters = filters
    }

    /// - Throws: `CatalogueError`.
    public func photos(in catalogue: any PhotoCatalogue) throws -> [CataloguedPhoto] {
        var query = filters
        let limit = query.limit
        query.limit = nil
        var matches = try catalogue.search(ColourSearch(target: target, accentOnly: true, within: within,
                                                        minimumCoverage: accentOnly ? (minimumCoverage ?? 0) : 0,
                                                        maximumCoverage: largestCoverage, filters: query))
        if !accentOnly {
            var seen = Set(matches.map(\.photo.id))
            for match in try catalogue.search(ColourSearch(target: target, within: within,
                                                           minimumCoverage: minimumCoverage ?? Self.defaultMinimumCoverage, filters: query))
            where seen.insert(match.photo.id).inserted {
                matches.append(match)
            }
        }
        return Array(matches.prefix(limit ?? matches.count)).map(\.photo)
    }
}
