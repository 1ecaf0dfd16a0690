import Catalogue
import ColourScience
import Foundation
import Imaging

/// One photo of the inspiration list.
public struct InspirationEntry: Sendable {
    public var rank: Int
    public var photo: CataloguedPhoto
    public var potential: SplashPotential

    public init(rank: Int, photo: CataloguedPhoto, potential: SplashPotential) {
        self.rank = rank
        self.photo = photo
        self.potential = potential
    }
}

/// What `showhide inspire --html PAGE` writes: the page, and its pictures in the folder `PAGE_files`.
public enum InspirationPageFiles {
    /// What marks a page as one of these: the generator, or the title of a page from before it was named.
    public static let marks = ["<meta name=\"generator\" content=\"showhide inspire\">", "<title>Inspiration · showhide</title>"]
    /// How many bytes of a page hold its mark.
    public static let headLength = 4_096

    /// The folder of a page's pictures.
    public static func picturesFolder(of page: String) -> String {
        ((page as NSString).deletingPathExtension as String) + "_files"
    }

    /// Whether `head` (a file's first `headLength` bytes) is the beginning of such a page.
    public static func isPage(head: Data) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        return marks.contains(where: text.contains)
    }
}

/// A photo's place in the inspiration list, without the photo: what ranking a whole catalogue keeps.
public struct InspirationRank: Sendable {
    public var photoID: PhotoID
    public var potential: SplashPotential
}

/// The thumbnails of one entry, as paths relative to the page that shows them.
public struct InspirationImages: Equatable, Sendable {
    public var original: String
    public var show: String?
    public var hide: String?

    public init(original: String, show: String? = nil, hide: String? = nil) {
        self.original = original
        self.show = show
        self.hide = hide
    }
}

/// The inspiration list: catalogue photos ranked by how striking their show variant would be, and
/// the pictures for its web page.
public struct InspirationService: Sendable {
    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let encoder: any ImageEncoding
    private let catalogue: any PhotoCatalogue
    private let variantMaker: any VariantMaking
    /// The library's own variants folder: a variant is read from there only (`variantFile(recordedAt:inVariants:)`).
    private let variantsDirectory: String

    /// Thumbnails are at most this many pixels on the long side: a page of hundreds stays light.
    public static let thumbnailSize = 512

    public init(fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding,
                catalogue: any PhotoCatalogue, variantMaker: any VariantMaking, libraryDirectory: String) {
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.catalogue = catalogue
        self.variantMaker = variantMaker
        self.variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
    }

    /// Every photo of `query` with an accent, ranked as `rank` ranks them, read from the catalogue
    /// `chunk` photos at a time and kept as ids and scores only: a catalogue of 100,000 photos held
    /// whole took 470 MB to rank (Docs/Performance.md).
    /// - Throws: the catalogue's errors.
    /// - Parameter unranked: told of each photo of the query that has nothing to splash, as the pass meets it.
    public static func ranking(in catalogue: any PhotoCatalogue, matching query: PhotoQuery, colour: ColourTarget? = nil,
                               chunk: Int = 5_000, unranked: (CataloguedPhoto) -> Void = { _ in }) throws -> [InspirationRank] {
        var query = query
        // In id order, a chunk at a time; the ranking sorts them all at the end.
        query.sort = .imported
        query.limit = chunk
        query.offset = 0
        var ranks: [InspirationRank] = []
        while true {
            let photos = try catalogue.photos(matching: query)
            for photo in photos {
                if let potential = potential(of: photo, colour: colour) {
                    ranks.append(InspirationRank(photoID: photo.id, potential: potential))
                } else {
                    unranked(photo)
                }
            }
            guard photos.count == chunk else { break }
            query.offset += chunk
        }
        return ranks.sorted { ranksBefore(($0.potential, $0.photoID), ($1.potential, $1.photoID)) }
    }

    /// The entries of ranks `range` of a ranking, their photos read by id (one gone since is left out).
    public static func entries(_ ranking: [InspirationRank], _ range: Range<Int>, in catalogue: any PhotoCatalogue) throws -> [InspirationEntry] {
        try ranking.indices.clamped(to: range).compactMap { index in
            try catalogue.photo(id: ranking[index].photoID).map { InspirationEntry(rank: index + 1, photo: $0, potential: ranking[index].potential) }
        }
    }

    /// The first `count` entries of a ranking whose photo `isThere` (its file on disk: a splash needs it),
    /// numbered from 1 as they are listed, and how many were passed over; a photo gone since is left out.
    /// After `mostPassedOver` passed over (a drive not mounted), it looks no further down the ranking.
    public static func entries(_ ranking: [InspirationRank], first count: Int, in catalogue: any PhotoCatalogue,
                               passingOverAtMost most: Int = mostPassedOver,
                               where isThere: (CataloguedPhoto) -> Bool) throws -> (entries: [InspirationEntry], passedOver: Int) {
        var entries: [InspirationEntry] = [], passedOver = 0
        for rank in ranking where entries.count < count && passedOver < most {
            guard let photo = try catalogue.photo(id: rank.photoID) else { continue }
            guard isThere(photo) else {
                passedOver += 1
                continue
            }
            entries.append(InspirationEntry(rank: entries.count + 1, photo: photo, potential: rank.potential))
        }
        return (entries, passedOver)
    }

    /// How many photos whose file is gone `entries(_:first:in:where:)` passes over before it stops: each costs
    /// a read of the photo and a look at its file, and a library on a drive not mounted has only such photos.
    public static let mostPassedOver = 1_000

    /// Photos with an accent, best first (ties by id), optionally only those whose accent is `colour`:
    /// the name, or within ΔE00 12 of a colour.
    public static func rank(_ photos: [CataloguedPhoto], colour: ColourTarget? = nil, limit: Int? = nil) -> [InspirationEntry] {
        let scored = photos.compactMap { photo in potential(of: photo, colour: colour).map { (photo, $0) } }
            .sorted { ranksBefore(($0.1, $0.0.id), ($1.1, $1.0.id)) }
        return scored.prefix(limit ?? scored.count).enumerated().map { InspirationEntry(rank: $0.offset + 1, photo: $0.element.0,
                                                                                        potential: $0.element.1) }
    }

    /// A photo's splash potential when it has an accent worth a splash (and of `colour`, when given).
    static func potential(of photo: CataloguedPhoto, colour: ColourTarget?) -> SplashPotential? {
        guard let colours = photo.facts.colours, let accent = colours.accent,
              let potential = SplashPotential(colours, pixelSize: photo.facts.pixelSize), potential.score > 0 else { return nil }
        switch colour {
        case nil: return potential
        case let .name(name)?: return accent.name == name ? potential : nil
        case let .colour(lab)?: return deltaE2000(lab, accent.lab) <= 12 ? potential : nil
        }
    }

    /// The inspiration order: the higher score first, then the lower id.
    static func ranksBefore(_ first: (SplashPotential, PhotoID), _ second: (SplashPotential, PhotoID)) -> Bool {
        first.0.score != second.0.score ? first.0.score > second.0.score : first.1 < second.1
    }

    /// Entries of one scene: shots taken within `sameSceneSeconds` of each other by one camera, whose
    /// accents are of one colour (CIE76 ΔE under `sameSceneColour`). Groups keep the ranking: each is led
    /// by its best entry, and the lists follow their leaders' ranks. Photos without a date stand alone.
    public static func groupingNearDuplicates(_ entries: [InspirationEntry]) -> [[InspirationEntry]] {
        var groups: [[InspirationEntry]] = []
        for entry in entries {
            if let index = groups.firstIndex(where: { group in group.contains { sameScene($0.photo, entry.photo) } }) {
                groups[index].append(entry)
            } else {
                groups.append([entry])
            }
        }
        return groups
    }

    /// Consecutive shots: at most this many seconds apart.
    public static let sameSceneSeconds = 120
    /// …of accents at most this far apart (CIE76 ΔE).
    public static let sameSceneColour = 10.0

    static func sameScene(_ first: CataloguedPhoto, _ second: CataloguedPhoto) -> Bool {
        guard let one = first.facts.exif, let two = second.facts.exif, let taken = one.takenAt, let other = two.takenAt,
              one.make == two.make, one.model == two.model,
              let accent = first.facts.colours?.accent, let otherAccent = second.facts.colours?.accent,
              accent.lab.distance(to: otherAccent.lab) < sameSceneColour else { return false }
        func seconds(_ date: ExifDateTime) -> Int {
            ((days(year: date.year, month: date.month, day: date.day) * 24 + date.hour) * 3600) + date.minute * 60 + date.second
        }
        return abs(seconds(taken) - seconds(other)) <= sameSceneSeconds
    }

    /// Days from 1 January 1970 to this day of the proleptic Gregorian calendar (the civil-days count of
    /// Hinnant's algorithm): shots a minute apart across the end of a month or a year are a minute apart.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    /// Makes the show and hide variants the entries lack, then a thumbnail of each entry's original,
    /// show and hide in `folder` (under the page's directory), named by photo id. Returns each entry's
    /// thumbnails as paths relative to the page.
    /// - Parameter makingMissing: false for a catalogue that may only be read: only variants made already are shown.
    public func pictures(for entries: [InspirationEntry], pageDirectory: String, folder: String,
                         processing: ProcessingOptions = ProcessingOptions(),
                         makingMissing: Bool = true) async throws -> [PhotoID: InspirationImages] {
        if makingMissing { _ = try await variantMaker.process(entries.map(\.photo), options: processing, progress: SilentProgress()) }
        var result: [PhotoID: InspirationImages] = [:]
        for entry in entries {
            let photo = entry.photo
            guard let original = thumbnail(of: photo.path, as: "\(photo.id)-original.jpg", pageDirectory, folder) else { continue }
            var images = InspirationImages(original: original)
            for kind in SplashMode.allCases {
                guard let spec = VariantSpec.spec(for: photo, kind: kind, options: processing),
                      let variant = (try? catalogue.variant(spec)) ?? nil,
                      let file = fileSystem.variantFile(recordedAt: variant.path, inVariants: variantsDirectory),
                      let path = thumbnail(of: file, as: "\(photo.id)-\(kind.rawValue).jpg", pageDirectory, folder,
                                           mark: ShowhidePictureMark.packet(kind.rawValue)) else { continue }
                if kind == .show { images.show = path } else { images.hide = path }
            }
            result[photo.id] = images
        }
        removeEarlierPictures(keeping: result, in: (pageDirectory as NSString).appendingPathComponent(folder))
        return result
    }

    /// The pictures an earlier page wrote into `directory` that this one does not show (`<id>-original.jpg`,
    /// `-show`, `-hide`; any other file there is left): a page of 3 photos written over one of 12 left 36.
    private func removeEarlierPictures(keeping pictures: [PhotoID: InspirationImages], in directory: String) {
        let kept = Set(pictures.values.flatMap { [$0.original, $0.show, $0.hide].compactMap { $0 } }
            .map { (directory as NSString).appendingPathComponent(($0 as NSString).lastPathComponent) })
        for file in fileSystem.walk([directory]).files where !kept.contains(file.path) && Self.isPagePicture(file.path, in: directory) {
            try? fileSystem.remove(file.path)
        }
    }

    /// Whether `path` is named as a page's picture is, directly in `directory`.
    static func isPagePicture(_ path: String, in directory: String) -> Bool {
        guard (path as NSString).deletingLastPathComponent == directory else { return false }
        let name = (path as NSString).lastPathComponent
        guard let dash = name.firstIndex(of: "-"), Int64(name[..<dash]) != nil else { return false }
        return ["-original.jpg", "-show.jpg", "-hide.jpg"].contains(String(name[dash...]))
    }

    /// A JPEG of at most `thumbnailSize` pixels, upright, written under the page's folder; nil when
    /// the source cannot be read (the page shows the entry without it).
    private func thumbnail(of path: String, as name: String, _ pageDirectory: String, _ folder: String, mark: String? = nil) -> String? {
        guard let data = try? fileSystem.contents(of: path),
              let decoded = try? decoder.decode(data, options: DecodeOptions(minimumLongSide: Self.thumbnailSize, appliesOrientation: true))
        else { return nil }
        let image = decoded.image.downscaled(toLongSide: Self.thumbnailSize)
        guard let jpeg = try? encoder.encode(image, as: .jpeg, options: EncodeOptions(quality: 82, xmp: mark)) else { return nil }
        let relative = folder + "/" + name
        guard (try? fileSystem.writeAtomically(jpeg, to: (pageDirectory as NSString).appendingPathComponent(relative))) != nil else {
            return nil
        }
        return relative
    }
}
