import ColourScience
import Foundation
import Imaging

public typealias PhotoID = Int64

/// What a file looked like when it was catalogued: enough to skip it unread next time.
public struct FileStamp: Hashable, Sendable {
    public var size: Int64
    /// Modification time in nanoseconds since 1970, exact so that equality means "unchanged".
    public var modifiedAtNanoseconds: Int64

    public init(size: Int64, modifiedAtNanoseconds: Int64) {
        self.size = size
        self.modifiedAtNanoseconds = modifiedAtNanoseconds
    }
}

/// What importing learned of one file's content.
public struct PhotoFacts: Equatable, Sendable {
    /// SHA-256 of the file's bytes, lower-case hex.
    public var sha256: String
    public var format: ImageFormat
    /// The stored size, before EXIF orientation.
    public var pixelSize: PixelSize
    public var exif: ExifMetadata?
    /// Palette, dominant colour and accent; nil when the photo has not been analysed.
    public var colours: ColourAnalysis?
    /// The photo's XMP packet, as found on import. Stored then, but read back only by `photo(id:)`.
    public var xmp: String?

    public init(sha256: String, format: ImageFormat, pixelSize: PixelSize, exif: ExifMetadata?, colours: ColourAnalysis? = nil,
                xmp: String? = nil) {
        self.sha256 = sha256
        self.format = format
        self.pixelSize = pixelSize
        self.exif = exif
        self.colours = colours
        self.xmp = xmp
    }
}

/// A photo as the catalogue holds it.
public struct CataloguedPhoto: Equatable, Sendable, Identifiable {
    public var id: PhotoID
    public var path: String
    public var stamp: FileStamp
    public var facts: PhotoFacts
    public var importedAt: Date
    /// Other paths where the same content was found.
    public var duplicatePaths: [String]
    /// The processed show and hide variants made so far (filled by `photo(id:)`).
    public var variants: [Variant]

    public init(id: PhotoID, path: String, stamp: FileStamp, facts: PhotoFacts, importedAt: Date,
                duplicatePaths: [String] = [], variants: [Variant] = []) {
        self.id = id
        self.path = path
        self.stamp = stamp
        self.facts = facts
        self.importedAt = importedAt
        self.duplicatePaths = duplicatePaths
        self.variants = variants
    }
}

/// A photo found by its content, and where the catalogue last saw it.
public struct PhotoLocation: Equatable, Sendable {
    public var id: PhotoID
    public var path: String

    public init(id: PhotoID, path: String) {
        self.id = id
        self.path = path
    }
}

/// A file or folder that could not be imported, and why.
public struct ImportFailure: Equatable, Sendable {
    public var path: String
    public var reason: String
    public var failedAt: Date
    /// The file's size and modification time when it failed; nil for a folder that could not be
    /// read, and for failures recorded before the catalogue kept them.
    public var stamp: FileStamp?

    public init(path: String, reason: String, failedAt: Date, stamp: FileStamp? = nil) {
        self.path = path
        self.reason = reason
        self.failedAt = failedAt
        self.stamp = stamp
    }
}

/// The order of a photo listing.
public enum PhotoSort: String, CaseIterable, Sendable {
    /// By date taken, oldest first; photos without a date last.
    case taken
    /// By import time, oldest first.
    case imported
    /// By file name, then path.
    case name
    /// By date taken, newest first; photos without a date after them, the last imported first.
    case newest
}

/// Which photos a listing shows.
public struct PhotoQuery: Equatable, Sendable {
    /// Taken on or after this day, "YYYY-MM-DD".
    public var takenSince: String?
    /// Taken on or before this day, "YYYY-MM-DD".
    public var takenUntil: String?
    /// Case-insensitive text that the make or model contains.
    public var camera: String?
    /// Only photos at these paths or in these folders, at any depth (absolute, standardised paths);
    /// none: every photo.
    public var paths: [String]
    /// Only photos not analysed yet, or analysed by earlier rules than `ColourAnalysis.rulesVersion`.
    public var needingAnalysis: Bool
    public var limit: Int?
    /// Photos skipped before the first one given (a page of a listing); only with a limit.
    public var offset: Int
    public var sort: PhotoSort

    public init(takenSince: String? = nil, takenUntil: String? = nil, camera: String? = nil, paths: [String] = [],
                needingAnalysis: Bool = false, limit: Int? = nil, offset: Int = 0, sort: PhotoSort = .taken) {
        self.takenSince = takenSince
        self.takenUntil = takenUntil
        self.camera = camera
        self.paths = paths
        self.needingAnalysis = needingAnalysis
        self.limit = limit
        self.offset = offset
        self.sort = sort
    }
}

/// What to look for when searching by colour.
public enum ColourTarget: Equatable, Sendable {
    /// A basic colour term: photos ranked by how much of their palette it names.
    case name(ColourName)
    /// A colour: photos ranked by how much of their palette lies within a ΔE00 of it, closer counting more.
    case colour(Lab)

    /// What a user typed: a colour name ("red", "gray"), "#RRGGBB" or "rgb(r,g,b)"; nil for anything else.
    public init?(parsing text: String) {
        if let name = ColourName(parsing: text) {
            self = .name(name)
        } else if let rgba = RGBA(parsing: text) {
            self = .colour(Lab(rgba))
        } else {
            return nil
        }
    }

    /// The colour itself: a name's focal colour.
    public var lab: Lab {
        switch self {
        case let .name(name): return name.focalLab
        case let .colour(lab): return lab
        }
    }
}

extension ColourTarget {
    /// Why `text` is not a colour, in words a person can act on, for every place that takes one (the
    /// command line's `--colour`, the web gallery's `colour=`): the name likely meant, or the names
    /// there are; what an `rgb()` or a `#` form needs.
    public static func whyNot(_ text: String) -> String {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let quoted = "'\(text.prefix(40))'"
        if typed.hasPrefix("rgb(") || typed.hasPrefix("rgb ") {
            return "\(quoted) is not a colour: rgb(r,g,b) takes three whole numbers from 0 to 255, such as rgb(31,90,166)."
        }
        if typed.count == 3 && typed.allSatisfy(\.isHexDigit) {
            return "\(quoted) is not a colour: three hex digits need their # (#\(typed)), as a word could be meant."
        }
        if typed.hasPrefix("#") || (typed.count >= 3 && typed.allSatisfy(\.isHexDigit)) {
            return "\(quoted) is not a colour: #RRGGBB takes six hex digits (#1F5AA6), #RGB three (#F00)."
        }
        let names = ColourName.allCases.map(\.rawValue)
        if let nearest = likeliestName(typed, among: names) {
            return "\(quoted) is not a colour: did you mean \(nearest)? The names are \(names.joined(separator: ", ")) (or gray); "
                + "or give #RRGGBB, #RGB or rgb(r,g,b)."
        }
        return "\(quoted) is not a colour: give a name (\(names.joined(separator: ", ")); or gray), #RRGGBB, #RGB or rgb(r,g,b)."
    }
}

/// How many letters must be inserted, deleted or changed to make `a` into `b` (Levenshtein): how
/// near a mistyped name is to one that exists.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}

/// The name of `names` a person most likely meant by `typed` (case aside): the nearest by edits, when
/// at most 2 edits and fewer than half its letters away; nil when none is that near.
public func likeliestName(_ typed: String, among names: [String]) -> String? {
    let typed = typed.lowercased()
    guard let best = names.map({ ($0, editDistance(typed, $0)) }).min(by: { $0.1 < $1.1 }),
          best.1 <= min(2, max(1, typed.count / 2)) else { return nil }
    return best.0
}

/// A search by colour, with the listing's filters.
public struct ColourSearch: Equatable, Sendable {
    public var target: ColourTarget
    /// Match only the accent colour, not the whole palette.
    public var accentOnly: Bool
    /// For `.colour`: the largest ΔE00 that counts as a match.
    public var within: Double
    /// The least share of the photo (0–1) the matching colour must cover.
    public var minimumCoverage: Double
    /// The largest share of the photo (0–1) the matching colour may cover: "orange as a small accent".
    public var maximumCoverage: Double
    /// Dates, camera and limit, as in listings (the sort is by match).
    public var filters: PhotoQuery

    public static let defaultWithin = 6.0

    public init(target: ColourTarget, accentOnly: Bool = false, within: Double = ColourSearch.defaultWithin,
                minimumCoverage: Double = 0, maximumCoverage: Double = 1, filters: PhotoQuery = PhotoQuery()) {
        self.target = target
        self.accentOnly = accentOnly
        self.within = within
        self.minimumCoverage = minimumCoverage
        self.maximumCoverage = maximumCoverage
        self.filters = filters
    }

    /// Whether the share a match covers narrows the search.
    public var filtersByCoverage: Bool { minimumCoverage > 0 || maximumCoverage < 1 }
}

/// One photo found by colour, and why.
public struct ColourMatch: Equatable, Sendable {
    public var photo: CataloguedPhoto
    /// What the ranking sorts by, highest first.
    public var score: Double
    /// The photo's colour that matched best.
    public var matchedLab: Lab
    public var matchedName: ColourName
    /// Share of the photo (0–1) covered by the matching colours.
    public var coverage: Double
    /// ΔE00 between the target and the best match; nil for a search by name.
    public var deltaE: Double?

    public init(photo: CataloguedPhoto, score: Double, matchedLab: Lab, matchedName: ColourName, coverage: Double, deltaE: Double?) {
        self.photo = photo
        self.score = score
        self.matchedLab = matchedLab
        self.matchedName = matchedName
        self.coverage = coverage
        self.deltaE = deltaE
    }
}

/// A processed variant of a photo: its kind, the parameters that made it, and its file.
public struct Variant: Equatable, Sendable {
    public var photoID: PhotoID
    /// "show" or "hide".
    public var kind: String
    /// The canonical JSON of the parameters that made it: equal text, equal variant.
    public var parameters: String
    public var path: String
    public var fileSize: Int64
    public var pixelSize: PixelSize
    public var sha256: String
    public var createdAt: Date

    public init(photoID: PhotoID, kind: String, parameters: String, path: String, fileSize: Int64,
                pixelSize: PixelSize, sha256: String, createdAt: Date) {
        self.photoID = photoID
        self.kind = kind
        self.parameters = parameters
        self.path = path
        self.fileSize = fileSize
        self.pixelSize = pixelSize
        self.sha256 = sha256
        self.createdAt = createdAt
    }
}
