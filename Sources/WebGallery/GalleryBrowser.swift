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
                                      filters: filters)
            let matches = try catalogue.search(search)
            items = matches.map { GridItem(photo: $0.photo, match: $0) }
            switch query.sort {
            case .colour: break
            case .date: items = Self.newestFirst(items)
            case .inspiration: items = Self.byPotential(items.map(\.photo), matches: matches)
            }
        } else if query.sort == .inspiration {
            // Ranked as ids and scores, and only the page's photos read whole.
            let ranking = try InspirationService.ranking(in: catalogue, matching: filters)
            let entries = try InspirationService.entries(ranking, offset..<(offset + size), in: catalogue)
            var items = entries.map { GridItem(photo: $0.photo, inspiration: $0) }
            // A sort leaves no photo out: those with nothing to splash follow, newest first.
            let ranked = Set(ranking.map(\.photoID))
            let rest = try catalogue.photos(matching: filters).filter { !ranked.contains($0.id) }
            let restStart = max(0, offset - ranking.count)
            items += rest.dropFirst(restStart).prefix(size - items.count).map { GridItem(photo: $0) }
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
        items.sorted { first, second in
            switch (first.photo.facts.exif?.takenAt?.iso8601, second.photo.facts.exif?.takenAt?.iso8601) {
            case let (one?, two?) where one != two: return one > two
            case (.some, nil): return true
            case (nil, .some): return false
            default: return first.photo.id > second.photo.id
            }
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
