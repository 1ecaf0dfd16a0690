import Catalogue
import Foundation

/// What `gallery check` found: the database's own check, photos whose files are gone or changed
/// since import, variant rows whose files are gone, and files under `variants/` no row records.
public struct CheckReport: Sendable {
    public struct PhotoProblem: Equatable, Sendable {
        public var id: PhotoID
        public var path: String
        /// For a photo whose file is gone: its duplicate paths that are still there.
        public var copies: [String]

        public init(id: PhotoID, path: String, copies: [String] = []) {
            self.id = id
            self.path = path
            self.copies = copies
        }
    }

    /// SQLite's integrity check: "ok", or what is wrong.
    public var integrity = "ok"
    public var photos = 0
    public var missingPhotos: [PhotoProblem] = []
    public var changedPhotos: [PhotoProblem] = []
    public var variantsWithoutFiles: [Variant] = []
    /// Of those, the paths recorded in another library folder than this one (a library restored from a
    /// backup or copied): a file there is that library's, and this one has none.
    public var recordedElsewhere: Set<String> = []
    /// Variants whose files moved with the library folder (recorded under its old place, found under the
    /// new one); a repair records their new place.
    public var movedVariants: [Variant] = []
    public var strayVariantFiles: [String] = []
    /// Files under `variants/` that no row records yet, written in the last minutes: most likely a
    /// showhide making variants right now, which writes a file and then records it. Not strays, and
    /// never removed.
    public var recentUnrecordedFiles: [String] = []
    /// Photos whose files are there but whose thumbnails are not (catalogued before thumbnails, or removed).
    public var missingThumbnails: [PhotoProblem] = []
    /// Thumbnails of no catalogued content, by SHA-256; and files of the folder of thumbnails an earlier
    /// showhide kept (`thumbnails/`), by path.
    public var strayThumbnails: [String] = []
    /// Why the thumbnail cache cannot be read, when it cannot: every thumbnail is then missing.
    public var unreadableThumbnails: String?
    /// Whether that is because its file is damaged, which a repair makes anew; a cache that is busy, on a
    /// full disk or not this user's to read is left as it is.
    public var thumbnailsDamaged = false
    /// With repair: what was removed (variant rows without files, stray files) and made.
    public var removedVariantRows = 0
    public var movedVariantRows = 0
    public var removedStrayFiles = 0
    public var madeThumbnails = 0
    public var removedStrayThumbnails = 0
    /// With repair and forgetting: photos forgotten, or moved to a living duplicate, because their files were gone.
    public var forgotten = RemovalSummary()

    public init() {}

    /// SQLite found nothing wrong with the catalogue's file.
    public var isSound: Bool { integrity == "ok" }

    /// Nothing wrong is left (after a repair, what it could not repair). Thumbnails are a cache: one
    /// missing or stray is reported, and wrong with nothing.
    public var isClean: Bool {
        integrity == "ok" && missingPhotos.isEmpty && changedPhotos.isEmpty
            && variantsWithoutFiles.count == removedVariantRows && strayVariantFiles.count == removedStrayFiles
            && movedVariants.count == movedVariantRows
    }
}

/// Verifies the catalogue against the disk and changes nothing unless asked to repair. A repair only
/// removes what is certainly dead: variant rows whose files are gone and files under `variants/` that
/// no row records; a variant whose file moved with the library folder is neither, and a repair records
/// its new place. Photos whose files are missing or changed are reported, never removed: the drive
/// may be unmounted, and `gallery import` analyses changed files again. Thumbnails are a cache: a
/// repair makes the missing ones and removes those of no catalogued content.
public struct CatalogueCheck: Sendable {
    private let fileSystem: any FileSystem
    private let catalogue: any PhotoCatalogue
    private let libraryDirectory: String
    private let variantsDirectory: String
    private let thumbnails: ThumbnailStore
    private let oldThumbnailsDirectory: String
    private let clock: any WallClock

    /// How recent a file no row records may be and still be one being made rather than a stray.
    public static let recentFileAge: TimeInterval = 10 * 60

    public init(fileSystem: any FileSystem, catalogue: any PhotoCatalogue, libraryDirectory: String, thumbnails: ThumbnailStore,
                clock: any WallClock) {
        self.fileSystem = fileSystem
        self.clock = clock
        self.catalogue = catalogue
        self.thumbnails = thumbnails
        self.libraryDirectory = libraryDirectory
        variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
        oldThumbnailsDirectory = LibraryFolder.path(LibraryFolder.oldThumbnails, inLibrary: libraryDirectory)
    }

    /// With `forgetMissing` (and `repair`), photos whose files are gone are forgotten first, as
    /// `gallery remove --missing` does, and the check reports what is left. With a `scope`, only its
    /// photos and their variants are checked; stray files, which belong to no photo, are looked for
    /// only without one.
    public func run(repair: Bool, forgetMissing: Bool = false, scope: PhotoQuery? = nil) throws -> CheckReport {
        var report = CheckReport()
        report.integrity = try catalogue.integrityCheck()
        // A damaged catalogue is reported, not walked or repaired: what it says about files may be wrong.
        guard report.isSound else { return report }
        let query = scope ?? PhotoQuery(sort: .imported)
        if repair && forgetMissing {
            report.forgotten = try RemovalService(fileSystem: fileSystem, catalogue: catalogue, libraryDirectory: libraryDirectory,
                                                  thumbnails: thumbnails.cache).removeMissing(in: query)
        }
        let photos = try catalogue.photos(matching: query)
        report.photos = photos.count
        // A cache that cannot be read has none: its thumbnails are made again on first sight.
        var keptThumbnails: Set<String> = []
        do {
            keptThumbnails = try thumbnails.cache.keptSHA256s()
        } catch {
            // (CatalogueError's own words for a damaged file are the catalogue's: a backup to restore.)
            if case let CatalogueError.damaged(path) = error {
                report.unreadableThumbnails = "\(path) is damaged"
                report.thumbnailsDamaged = true
            } else {
                report.unreadableThumbnails = error.plainDescription
            }
        }
        for photo in photos {
            guard let stamp = fileSystem.stamp(of: photo.path) else {
                // Its copies are read only here: a file gone is rare, and the listing does not carry them.
                let copies = try catalogue.photo(id: photo.id)?.duplicatePaths.filter(fileSystem.exists) ?? []
                report.missingPhotos.append(.init(id: photo.id, path: photo.path, copies: copies))
                continue
            }
            if stamp != photo.stamp { report.changedPhotos.append(.init(id: photo.id, path: photo.path)) }
            if !keptThumbnails.contains(photo.facts.sha256) { report.missingThumbnails.append(.init(id: photo.id, path: photo.path)) }
        }
        let variants = try catalogue.allVariants()
        let inScope = Set(photos.map(\.id))
        var moves: [(variant: Variant, to: String)] = []
        // The files the rows name in this library's variants folder: any other file there is a stray.
        var recorded: Set<String> = []
        // A row naming another place than this library's variants folder: the folder was moved, renamed,
        // copied or restored from a backup. Its file is the one in this library's folder, if there; the
        // old place may still hold another library's.
        for variant in variants where scope == nil || inScope.contains(variant.photoID) {
            let file = VariantSpec.file(recordedAt: variant.path, inVariants: variantsDirectory)
            guard let file, fileSystem.exists(file) else {
                report.variantsWithoutFiles.append(variant)
                if file != variant.path { report.recordedElsewhere.insert(variant.path) }
                continue
            }
            recorded.insert(file)
            if file != variant.path {
                moves.append((variant, file))
            }
        }
        report.movedVariants = moves.map(\.variant)
        if scope == nil {
            // A file written since shortly before the check began may be one a running `process` has yet to
            // record: a repair that removed it lost the variant, and its row then named no file.
            let recentSince = Int64((clock.now().timeIntervalSince1970 - Self.recentFileAge) * 1e9)
            let unrecorded = fileSystem.walk([variantsDirectory]).files.filter { !recorded.contains($0.path) }
            report.strayVariantFiles = unrecorded.filter { $0.stamp.modifiedAtNanoseconds < recentSince }.map(\.path).sorted()
            report.recentUnrecordedFiles = unrecorded.filter { $0.stamp.modifiedAtNanoseconds >= recentSince }.map(\.path).sorted()
            report.strayThumbnails = keptThumbnails.subtracting(photos.map(\.facts.sha256)).sorted()
                + fileSystem.walk([oldThumbnailsDirectory]).files.map(\.path).sorted()
        }
        if repair {
            for variant in report.variantsWithoutFiles {
                try catalogue.removeVariant(atPath: variant.path)
                report.removedVariantRows += 1
            }
            for (variant, to) in moves {
                var moved = variant
                moved.path = to
                try catalogue.recordVariant(moved)
                report.movedVariantRows += 1
            }
            for path in report.strayVariantFiles {
                try fileSystem.remove(path)
                report.removedStrayFiles += 1
            }
            fileSystem.removeFoldersLeftEmpty(by: report.strayVariantFiles, inVariants: variantsDirectory)
            // Only a damaged file is made anew: a busy one is another process's to use (a running serve).
            if report.thumbnailsDamaged { try thumbnails.cache.reset() }
            // A cache that cannot be read now takes no thumbnail either: none is made, each a decode for nothing.
            let cacheUsable = report.unreadableThumbnails == nil || report.thumbnailsDamaged
            let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for problem in report.missingThumbnails where cacheUsable {
                // One that cannot be made (a file that no longer decodes) stays reported.
                guard let photo = byID[problem.id], (try? thumbnails.thumbnail(of: photo)) != nil,
                      (try? thumbnails.cache.jpeg(forSHA256: photo.facts.sha256)) != nil else { continue }
                report.madeThumbnails += 1
            }
            // Paths are the old folder's files; the rest are contents in the cache.
            let strayContents = Set(report.strayThumbnails.filter { !$0.hasPrefix("/") })
            if !strayContents.isEmpty { try thumbnails.cache.forget(strayContents) }
            for path in report.strayThumbnails where path.hasPrefix("/") { try fileSystem.remove(path) }
            report.removedStrayThumbnails = report.strayThumbnails.count
        }
        return report
    }
}
