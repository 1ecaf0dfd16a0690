import Catalogue
import ColourScience
import Foundation

/// Why a subject could not be chosen, in words.
public enum SubjectChoiceError: Error, Equatable, LocalizedError {
    case noPhoto(PhotoID)
    case notAnalysed(PhotoID)
    case noCandidate(PhotoID, rank: Int, candidates: Int)

    public var errorDescription: String? {
        switch self {
        case let .noPhoto(id): return "There is no photo \(id) in the catalogue."
        case let .notAnalysed(id): return "Photo \(id)'s colours are not analysed yet: `showhide gallery analyse` finds them."
        case let .noCandidate(id, rank, candidates):
            return "Photo \(id) has \(candidates) accent candidate\(candidates == 1 ? "" : "s"), not a candidate \(rank)."
        }
    }
}

/// A person's choice of a photo's subject among its accent candidates: stored in the catalogue, it is
/// the photo's accent for processing, export and inspiration until it is given back to the eye.
public struct SubjectChoice: Sendable {
    private let catalogue: any PhotoCatalogue
    private let clock: any WallClock

    public init(catalogue: any PhotoCatalogue, clock: any WallClock) {
        self.catalogue = catalogue
        self.clock = clock
    }

    /// Makes candidate `rank` (1-based, as pages and `gallery show` list them) the photo's subject;
    /// nil gives the choice back to the eye.
    /// - Returns: the photo as it now is.
    /// - Throws: `SubjectChoiceError`, or the catalogue's errors (`CatalogueError.readOnly` among them).
    public func choose(candidate rank: Int?, of id: PhotoID) throws -> CataloguedPhoto {
        guard let photo = try catalogue.photo(id: id) else { throw SubjectChoiceError.noPhoto(id) }
        var subject: Accent?
        if let rank {
            guard let colours = photo.facts.colours else { throw SubjectChoiceError.notAnalysed(id) }
            guard colours.candidates.indices.contains(rank - 1) else {
                throw SubjectChoiceError.noCandidate(id, rank: rank, candidates: colours.candidates.count)
            }
            subject = colours.candidates[rank - 1]
        }
        let now = clock.now()
        try catalogue.write { try $0.chooseSubject(subject, of: id, at: now) }
        guard let chosen = try catalogue.photo(id: id) else { throw SubjectChoiceError.noPhoto(id) }
        return chosen
    }
}
