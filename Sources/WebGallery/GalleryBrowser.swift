import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// One photo in the grid, with why it is there: the colour it matched, or its splash potential.
public struct GridItem: Sendable {
    public var photo: CataloguedPhoto
    public var match: ColourMatch?
    public var inspiration: InspirationEntry?
}

/// One page of the grid.
public struct GridPage: Sendable {
    public var items: [GridItem]
    public var hasNextPage: Bool
}

/// The grid's photos from the catalogue: filtered, sorted and cut into pages as a `GridQuery` asks.
public struct GalleryBrowser: Sendable {
    let catalogue: any PhotoCatalogue

    public init(catalogue: any PhotoCatalogue) {
        self.catalogue = catalogue
    }

    /// The page of photos `query` asks for.
    /// - Throws: `CatalogueError`.
    public func page(_ query: GridQuery) throws -> GridPage {
        let size = GridQuery.pageSize
        let offset = (query.page - 1) * size
        var filters = query.photoQuery
        var items: [GridItem]
        if let colour = query.colour {
            // Ranked by closeness, the search stops once the page (and one more, to know that a next page
            // exists) is filled; by date or potential, every match is needed first.
            filters.limit = query.sort == .colour ? offset + size + 1 : nil
            let search = ColourSearch(target: colour, accentOnly: query.accentOnly, minimumCoverage: query.minimumCoverage / 100,
                                      maximumCoverage: query.largestCoverage / 100, filters: filters)
            let matches = try catalogue.search(search)
            items = matches.map { GridItem(photo: $0.photo, match: $0) }
            switch query.sort {
            case .colour: break
            case .date: items = Self.newestFirst(items)
            case .inspiration: items = Self.byPotential(items.map(\.photo), matches: matches)
            }
        } else if query.sort == .inspiration {
            // Ranked as ids and scores in one pass, and only the page's photos read whole. A sort leaves no
            // photo out: those with nothing to splash follow, newest first.
            var rest: [(id: PhotoID, taken: String?)] = []
            let ranking = try InspirationService.ranking(in: catalogue, matching: filters) { rest.append(($0.id, $0.facts.exif?.takenAt?.iso8601)) }
            let entries = try InspirationService.entries(ranking, offset..<(offset + size), in: catalogue)
            var items = entries.map { GridItem(photo: $0.photo, inspiration: $0) }
            let restStart = max(0, offset - ranking.count)
            for other in Self.newestFirst(rest).dropFirst(restStart).prefix(size - items.count) {
                if let photo = try catalogue.photo(id: other.id) { items.append(GridItem(photo: photo)) }
            }
            return GridPage(items: items, hasNextPage: ranking.count + rest.count > offset + size)
        } else {
            filters.limit = size + 1
            filters.offset = offset
            let photos = try catalogue.photos(matching: filters)
            return GridPage(items: photos.prefix(size).map { GridItem(photo: $0) }, hasNextPage: photos.count > size)
        }
        let page = items.dropFirst(offset)
        return GridPage(items: Array(page.prefix(size)), hasNextPage: page.count > size)
    }

    /// The listing's `.newest` order: by date taken, newest first; the undated after, the last imported first.
    static func newestFirst(_ items: [GridItem]) -> [GridItem] {
        items.sorted { isNewer(($0.photo.id, $0.photo.facts.exif?.takenAt?.iso8601), than: ($1.photo.id, $1.photo.facts.exif?.takenAt?.iso8601)) }
    }

    /// Photos as ids and dates taken (ISO 8601) in the `.newest` order.
    static func newestFirst(_ photos: [(id: PhotoID, taken: String?)]) -> [(id: PhotoID, taken: String?)] {
        photos.sorted { isNewer($0, than: $1) }
    }

    /// The `.newest` order of two photos, as ids and dates taken.
    static func isNewer(_ first: (id: PhotoID, taken: String?), than second: (id: PhotoID, taken: String?)) -> Bool {
        switch (first.taken, second.taken) {
        case let (one?, two?) where one != two: return one > two
        case (.some, nil): return true
        case (nil, .some): return false
        default: return first.id > second.id
        }
    }

    static func byPotential(_ photos: [CataloguedPhoto], matches: [ColourMatch]) -> [GridItem] {
        let matchByID = Dictionary(matches.map { ($0.photo.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ranked = InspirationService.rank(photos, colour: nil)
        let rankedIDs = Set(ranked.map(\.photo.id))
        // A sort leaves no photo out: those with nothing to splash follow, in the order of the matches.
        return ranked.map { GridItem(photo: $0.photo, match: matchByID[$0.photo.id], inspiration: $0) }
            + photos.filter { !rankedIDs.contains($0.id) }.map { GridItem(photo: $0, match: matchByID[$0.id]) }
    }
}
