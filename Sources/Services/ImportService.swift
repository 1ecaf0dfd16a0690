import Catalogue
import ColourScience
import Foundation
import Imaging

/// How an import runs.
public struct ImportOptions: Sendable {
    /// Files examined at once.
    public var jobs: Int
    /// Results written per transaction. Small, so that writing goes on while files are examined
    /// and little is left to write after the last one (commits are cheap: see SQLiteCatalogue).
    public var batchSize: Int
    /// Files are examined largest first within each run of this many in walk order, so that no
    /// large file is left to one core at the end while the others wait. Results are still
    /// written in walk order, so a run's results wait for its first file: a run much longer than
    /// a batch would leave them all to write after the last examination.
    public var largestFirstWindow: Int

    /// - Parameter jobs: files examined at once; the product gives its cores' count (`AppEnvironment`).
    public init(jobs: Int = 1, batchSize: Int = 32,
                largestFirstWindow: Int = 64) {
        self.jobs = max(1, jobs)
        self.batchSize = max(1, batchSize)
        self.largestFirstWindow = max(1, largestFirstWindow)
    }
}

/// What an import did.
public struct ImportSummary: Equatable, Sendable {
    /// Regular files found under the given paths.
    public var found = 0
    /// New photos (new content) added to the catalogue.
    public var imported = 0
    /// Files already catalogued as they are: skipped unread, or read and found the same.
    public var unchanged = 0
    /// Catalogued photos found at a new path whose old path is gone.
    public var moved = 0
    /// Catalogued files whose content changed in place (edited, rotated, replaced): the new content is
    /// catalogued anew (counted in `imported` or `duplicates` too), and the old, when no copy of it
    /// is left, is forgotten with its variants, whose files are deleted.
    public var changed = 0
    /// Files whose content is already catalogued under another path that still exists.
    public var duplicates = 0
    /// Files that are not photos (by content and name), skipped.
    public var skipped = 0
    /// Pictures showhide wrote among the photos, left out (not counted in `found`): an export's (its
    /// `manifest.json` lists them, by name or, for show and hide pictures, by content), an inspiration
    /// page's (in the page's `_files` folder), and any file whose content is a variant's (a show or hide
    /// picture copied or renamed). Show and hide pictures would come back as photos, originals as
    /// duplicates or, made smaller, as photos.
    public var showhidePictures = 0
    /// Photos in a format showhide does not read yet (HEIC, WebP, TIFF, camera raw), skipped.
    public var unsupported: [UnsupportedFile] = []
    /// Files and folders that could not be imported, with reasons.
    public var failures: [ImportFailure] = []
    /// Files that failed before and have not changed since (not read again), and folders that still
    /// cannot be read for the same reason: known, not new failures.
    public var stillFailing: [ImportFailure] = []
    /// Wall time of the whole import, in seconds.
    public var seconds: Double = 0
    /// Stopped by an interruption before every file was examined: what was examined is written, and
    /// the same import goes on from there.
    public var interrupted = false
    /// Files the walk found that were gone when they were read (moved or deleted while the import ran):
    /// no failure, for there is nothing there to fail; the next import finds them where they went.
    public var vanished = 0
    /// Thumbnails made but not kept, and why (a full disk): a cache the web gallery fills on first sight.
    public var thumbnailsNotKept = 0
    public var thumbnailsNotKeptReason: String?

    public var failed: Int { failures.count }

    public init() {}
}

/// A photo file in a format showhide recognises but does not read yet.
public struct UnsupportedFile: Equatable, Sendable {
    public var path: String
    /// The format's name for people: "camera raw (NEF)", "camera raw (CR3)".
    public var format: String

    public init(path: String, format: String) {
        self.path = path
        self.format = format
    }
}

/// Told how far an import has come.
public protocol ImportProgress: Sendable {
    func update(completed: Int, total: Int)
    func finish()
}

/// Reports nothing.
public struct SilentProgress: ImportProgress {
    public init() {}
    public func update(completed: Int, total: Int) {}
    public func finish() {}
}

/// Imports photo files into the catalogue: walks the folders, skips what is unchanged, examines
/// the rest on several cores (one read and one scaled decode each), and writes the results in
/// batched transactions, so an interrupted import keeps all it had written.
public struct ImportService: Sendable {
    /// File name endings of photos: such a file that turns out to be in no format showhide reads is a failure,
    /// where any other file that is not a photo is skipped silently.
    public static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "heic", "heif", "hif", "avif", "webp", "tif", "tiff",
    ]

    private let fileSystem: any FileSystem
    private let inspector: PhotoInspector
    private let hasher: any ContentHashing
    private let catalogue: any PhotoCatalogue
    private let clock: any WallClock
    private let analyser: ColourAnalyser
    private let jobRunner: any JobRunner
    private let thumbnails: ThumbnailStore?
    private let libraryDirectory: String?

    /// - Parameters:
    ///   - thumbnails: where each new photo's thumbnail is kept, made from the decode that analyses
    ///     it; nil: none are made.
    ///   - libraryDirectory: the library folder, whose files (the catalogue, the variants made) are
    ///     showhide's own and never imported, though a folder imported holds it.
    public init(
        fileSystem: any FileSystem, decoder: any ImageDecoding, exifReader: any ExifReading,
        hasher: any ContentHashing, catalogue: any PhotoCatalogue, clock: any WallClock,
        jobRunner: any JobRunner, analyser: ColourAnalyser = ColourAnalyser(),
        maximumPixelCount: Int = DecodeOptions.defaultMaximumPixelCount, thumbnails: ThumbnailStore? = nil,
        libraryDirectory: String? = nil
    ) {
        self.jobRunner = jobRunner
        self.thumbnails = thumbnails
        self.libraryDirectory = libraryDirectory.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.analyser = analyser
        self.fileSystem = fileSystem
        self.inspector = PhotoInspector(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader,
                                        maximumPixelCount: maximumPixelCount)
        self.hasher = hasher
        self.catalogue = catalogue
        self.clock = clock
    }

    /// What examining one file found, before the catalogue decides what it means.
    enum Examination: Sendable {
        case notAPhoto
        /// Gone between the walk and the read.
        case vanished
        /// A photo in a format not read yet ("HEIC").
        case unsupported(format: String)
        case failed(String)
        /// The content is catalogued already: no need to decode it again.
        case knownContent(sha256: String)
        /// A picture showhide made (a variant's content, or a show or hide picture an export's manifest
        /// lists) under a name of its own: left out as the pictures found by their paths are.
        case showhidePicture
        /// A photo's facts, and its thumbnail when one was made.
        case photo(PhotoFacts, thumbnail: Data?)
    }

    /// Forgets the files earlier imports left out by their content that are gone from under `roots`.
    private func forgetLeftOutFilesGone(_ leftOut: [String: FileStamp], found: [FoundFile], roots: [String]) throws {
        guard !leftOut.isEmpty else { return }
        let foundPaths = Set(found.map(\.path))
        let gone = leftOut.keys.filter { path in
            !foundPaths.contains(path) && roots.contains { Services.path(path, isWithin: $0) } && !fileSystem.exists(path)
        }
        guard !gone.isEmpty else { return }
        try catalogue.write { writer in for path in gone { try writer.clearLeftOut(atPath: path) } }
    }

    /// Photos whose own file under `roots` is gone while this walk found a copy of them already catalogued
    /// (a duplicate path, unchanged): the copy becomes the photo's file, as `gallery remove --missing` would
    /// make it, so that the photo can be processed and exported again. Returns how many.
    private func followCopies(known: [String: FileStamp], found: [FoundFile], roots: [String]) throws -> Int {
        let foundStamps = Dictionary(found.map { ($0.path, $0.stamp) }, uniquingKeysWith: { first, _ in first })
        let gone = Set(known.keys.filter { known in
            foundStamps[known] == nil && roots.contains { path(known, isWithin: $0) } && !fileSystem.exists(known)
        })
        guard !gone.isEmpty else { return 0 }
        var photos: Set<PhotoID> = []
        try catalogue.write { writer in for path in gone { try writer.photoID(atPath: path).map { photos.insert($0) } } }
        var followed = 0
        for id in photos.sorted() {
            // A copy found as it was noted (its stamp unchanged).
            guard let photo = try catalogue.photo(id: id), gone.contains(photo.path),
                  let (copy, stamp) = photo.duplicatePaths.lazy.compactMap({ path in
                      foundStamps[path].flatMap { $0 == known[path] ? (path, $0) : nil }
                  }).first else { continue }
            try catalogue.write { writer in
                try writer.detachPath(copy)
                try writer.movePhoto(id, to: copy, stamp: stamp)
            }
            followed += 1
        }
        return followed
    }

    /// The files among `found` that showhide wrote: those an export's `manifest.json` lists, in the
    /// manifest's folder, and those in the pictures folder of an inspiration page (`inspire --html`);
    /// and the content of the show and hide pictures the manifests list, for those renamed since.
    /// A manifest that cannot be read as one leaves its folder's files to be imported; one larger than
    /// an export of a million files would write is not read (a file of another program), nor is a web
    /// page without a pictures folder of its name.
    private func showhidePictures(among found: [FoundFile]) -> (paths: Set<String>, contents: Set<String>) {
        // Told by the end of each path alone: a re-scan of 100,000 files pays nothing more where there is none.
        let manifests = found.filter { $0.path.hasSuffix("/" + ExportService.manifestName) && $0.stamp.size <= 512 << 20 }
        let pages = found.filter { file in
            let end = file.path.suffix(5).lowercased()
            return end == ".html" || end.hasSuffix(".htm")
        }
        guard !manifests.isEmpty || !pages.isEmpty else { return ([], []) }
        let paths = Set(found.map(\.path))
        var pictures: Set<String> = []
        var contents: Set<String> = []
        for manifest in manifests {
            guard let data = try? fileSystem.contents(of: manifest.path), let files = ExportService.manifestFiles(data) else { continue }
            let folder = (manifest.path as NSString).deletingLastPathComponent
            // An original listed at its own path is the photo itself, which no export made (an earlier
            // showhide listed a photo exported into its own folder as kept).
            for file in files {
                let path = (folder as NSString).appendingPathComponent(file.file)
                if paths.contains(path) && !(file.variant == .original && file.originalPath == path) { pictures.insert(path) }
            }
            // An original's content is a photo's: renamed, it is a duplicate.
            contents.formUnion(files.filter { $0.variant != .original }.map(\.sha256))
        }
        // The folders files were found in, asked only where a web page is among them.
        let folders = pages.isEmpty ? [] : Set(paths.compactMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } })
        for page in pages {
            let folder = InspirationPageFiles.picturesFolder(of: page.path)
            guard folders.contains(folder), let head = try? fileSystem.head(of: page.path, count: InspirationPageFiles.headLength),
                  InspirationPageFiles.isPage(head: head) else { continue }
            pictures.formUnion(paths.filter { $0.hasPrefix(folder + "/") })
        }
        return (pictures, contents)
    }

    /// How a file that could not be read fails; what stopped it may be mended without changing the file.
    static let unreadableReason = "cannot read the file: "

    /// Whether `path` is one of the library's own files (`LibraryFolder.isOwn`). Other files in the library
    /// folder are the user's photos, and imported.
    func isLibrarysOwn(_ path: String) -> Bool {
        libraryDirectory.map { LibraryFolder.isOwn(path, inLibrary: $0) } ?? false
    }

    /// Imports every photo under `roots`: files already catalogued with the same stamp are skipped
    /// unread, the rest are read once, hashed, and (new content) decoded once at analysis size, on
    /// `options.jobs` cores; results are written in batched transactions in walk order.
    /// - Parameters:
    ///   - roots: absolute paths of folders (walked recursively) or files.
    ///   - options: how many files are examined at once and how many are written per transaction.
    ///   - progress: told after each file.
    ///   - interruption: once requested, no file is started; those examined in order are written.
    /// - Returns: what was imported, unchanged, moved, a duplicate, skipped, unsupported or failed.
    /// - Throws: the catalogue's errors (`CatalogueError`); a file that cannot be read or decoded is a
    ///   failure in the summary (and in the catalogue's failure list), not an error.
    public func importPhotos(from roots: [String], options: ImportOptions = ImportOptions(),
                             progress: any ImportProgress = SilentProgress(),
                             interruption: any Interruption = NoInterruption()) async throws -> ImportSummary {
        let start = clock.now()
        var summary = ImportSummary()
        var walk = fileSystem.walk(roots)
        // Variants imported as photos would be made variants of in their turn, at each import.
        walk.files.removeAll { isLibrarysOwn($0.path) }
        // Likewise the pictures an export or an inspiration page wrote into a folder among the photos.
        let showhides = showhidePictures(among: walk.files)
        walk.files.removeAll { showhides.paths.contains($0.path) }
        // And those an earlier import left out by their content, unread while unchanged.
        let leftOutBefore = try catalogue.leftOutStamps()
        let walked = walk.files.count
        if !leftOutBefore.isEmpty { walk.files.removeAll { leftOutBefore[$0.path] == $0.stamp } }
        summary.showhidePictures = showhides.paths.count + walked - walk.files.count
        try forgetLeftOutFilesGone(leftOutBefore, found: walk.files, roots: roots)
        summary.found = walk.files.count
        let known = try catalogue.knownStamps()
        let recordedFailures = try catalogue.failures()
        let failedBefore = Dictionary(recordedFailures.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        // A file that failed and has not changed since would fail the same way: it is not read again. One
        // that could not be read is, as what stopped it (its permissions, the disk) may have changed.
        summary.stillFailing = walk.files.compactMap { file in
            failedBefore[file.path].flatMap { $0.stamp == file.stamp && !$0.reason.hasPrefix(Self.unreadableReason) ? $0 : nil }
        }
        let stillFailingPaths = Set(summary.stillFailing.map(\.path))
        let pending = walk.files.filter { known[$0.path] != $0.stamp && !stillFailingPaths.contains($0.path) }
        summary.unchanged = walk.files.count - pending.count - stillFailingPaths.count
        let followed = try followCopies(known: known, found: walk.files, roots: roots)
        summary.moved += followed
        summary.unchanged -= followed

        // Failures recorded under these folders whose files are gone since, and folders this walk read:
        // nothing is left to fail. What the walk found or stumbled on again is there, though its path may
        // name nothing to `stat` (a name that is not UTF-8, a path past PATH_MAX, a folder that may be
        // listed but not entered).
        let walkedPaths = Set(walk.files.map(\.path) + walk.problems.map(\.path))
        let stale = recordedFailures.filter { failed in
            roots.contains { path(failed.path, isWithin: $0) } && !walkedPaths.contains(failed.path)
                && (failed.stamp == nil || !fileSystem.exists(failed.path))
        }.map(\.path)
        if !stale.isEmpty { try catalogue.write { writer in try stale.forEach(writer.clearFailure) } }

        // A folder that still cannot be read for the reason recorded is still failing; otherwise a new failure.
        var newProblems: [ImportFailure] = []
        for problem in walk.problems {
            if let known = failedBefore[problem.path], known.reason == problem.reason {
                summary.stillFailing.append(known)
            } else {
                newProblems.append(ImportFailure(path: problem.path, reason: problem.reason, failedAt: start))
            }
        }
        if !newProblems.isEmpty {
            try catalogue.write { writer in try newProblems.forEach(writer.recordFailure) }
            summary.failures += newProblems
        }

        progress.update(completed: 0, total: pending.count)
        // Results are written in walk order, whatever order they finish in, so that ids and
        // "which path is the original" do not depend on timing.
        var finished: [Int: Examination] = [:]
        var nextToWrite = 0
        var batch: [(FoundFile, Examination)] = []
        let order = Self.examinationOrder(of: pending, window: options.largestFirstWindow)
        // A catalogue that knows no photo completely (a new library) knows no file's content either:
        // it is not asked for each file, a read transaction that was 1% of a new library's import.
        let check = KnownContentCheck(seen: SeenContent(), asksCatalogue: !known.isEmpty, showhideContents: showhides.contents)
        try await jobRunner.forEach(order, jobs: options.jobs, interruption: interruption,
                                    job: { [pending] index in self.examine(pending[index], position: index, check: check) }) { index, examination in
            finished[index] = examination
            while let ready = finished.removeValue(forKey: nextToWrite) {
                batch.append((pending[nextToWrite], ready))
                nextToWrite += 1
            }
            if batch.count >= options.batchSize {
                try record(batch, into: &summary, failedBefore: failedBefore, leftOutBefore: leftOutBefore)
                batch.removeAll(keepingCapacity: true)
            }
            progress.update(completed: nextToWrite + finished.count, total: pending.count)
        }
        try record(batch, into: &summary, failedBefore: failedBefore, leftOutBefore: leftOutBefore)
        // Files examined after one still out when the import was stopped are not written: the next
        // import examines them again, in order.
        summary.interrupted = nextToWrite < pending.count
        progress.finish()
        summary.seconds = clock.now().timeIntervalSince(start)
        return summary
    }

    /// Indices into `files` in the order to examine them: walk order cut into runs of `window`,
    /// each run largest first (files of the same size in walk order).
    static func examinationOrder(of files: [FoundFile], window: Int) -> [Int] {
        stride(from: 0, to: files.count, by: window).flatMap { start in
            (start..<min(start + window, files.count)).sorted { (files[$0].stamp.size, $1) > (files[$1].stamp.size, $0) }
        }
    }

    /// Reads a file once and learns everything the catalogue needs from that one read.
    /// - Parameter position: the file's place in walk order among those this import examines.
    func examine(_ file: FoundFile, position: Int, check: KnownContentCheck) -> Examination {
        let fileExtension = (file.path as NSString).pathExtension
        // A large file (a video, a disk image) is judged by its first bytes before it is read whole.
        if file.stamp.size > Self.largestReadBeforeSniffing {
            do {
                let head = try fileSystem.head(of: file.path, count: Self.sniffedBytes)
                if let other = kindOtherThanPhoto(head, fileExtension: fileExtension) { return other }
            } catch {
                return fileSystem.exists(file.path) ? .failed(Self.unreadableReason + error.plainDescription) : .vanished
            }
        }
        let data: Data
        do {
            data = try fileSystem.contents(of: file.path)
        } catch {
            return fileSystem.exists(file.path) ? .failed(Self.unreadableReason + error.plainDescription) : .vanished
        }
        if let other = kindOtherThanPhoto(data, fileExtension: fileExtension) { return other }
        let sha256 = hasher.sha256(data)
        // One look at the catalogue tells a picture showhide made from a photo it has.
        let catalogued = check.asksCatalogue ? (try? catalogue.content(withSHA256: sha256)) ?? nil : nil
        // Before the content met: every copy of such a picture is one, where a copy of a photo is placed as the first.
        if check.showhideContents.contains(sha256) || catalogued == .variant { return .showhidePicture }
        // Content an earlier file (in walk order) has is placed when written, not analysed again: that
        // file is written first (were it to fail, this one is examined in full then).
        if check.seen?.meet(sha256, at: position) == true || catalogued == .photo { return .knownContent(sha256: sha256) }
        do {
            let inspection = try inspector.inspect(data, path: file.path)
            // A picture showhide made, under a name and in a size of its own: known by its mark.
            if ShowhidePictureMark.marks(inspection.xmp) { return .showhidePicture }
            // Colours and the thumbnail come from the same scaled decode that checked the file; a
            // thumbnail that cannot be made is no failure (the gallery makes it on first sight).
            return .photo(PhotoFacts(sha256: sha256, format: inspection.format, pixelSize: inspection.pixelSize,
                                     exif: inspection.exif, colours: analyser.analyse(inspection.analysisImage), xmp: inspection.xmp),
                          thumbnail: try? thumbnails?.jpeg(from: inspection.analysisImage))
        } catch {
            return .failed(error.reason)
        }
    }

    /// Files larger than this are judged by their first bytes before they are read whole.
    static let largestReadBeforeSniffing: Int64 = 16 << 20
    static let sniffedBytes = max(UnsupportedPhotoFormat.signatureLength, ImageFormat.signatureLength)

    /// What a file starting with `head` is when it is no photo showhide reads: a camera raw format,
    /// not a photo at all, or a failure when it is named like one; nil for a photo.
    private func kindOtherThanPhoto(_ head: Data, fileExtension: String) -> Examination? {
        // Camera raw files first: many start as TIFF does.
        if let format = UnsupportedPhotoFormat.sniff(head.prefix(UnsupportedPhotoFormat.signatureLength), fileExtension: fileExtension) {
            return .unsupported(format: format)
        }
        guard ImageFormat.sniff(head.prefix(ImageFormat.signatureLength)) == nil else { return nil }
        guard Self.photoExtensions.contains(fileExtension.lowercased()) else { return .notAPhoto }
        return .failed(head.isEmpty ? "the file is empty" : "named like a photo, but not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
    }

    /// Writes one batch in one transaction, deciding for each file whether it is new, moved,
    /// a duplicate, or the same as before.
    /// - Parameters:
    ///   - failedBefore: the failures recorded before this import, by path.
    ///   - leftOutBefore: the files earlier imports left out by their content, by path.
    private func record(_ batch: [(FoundFile, Examination)], into summary: inout ImportSummary,
                        failedBefore: [String: ImportFailure], leftOutBefore: [String: FileStamp]) throws {
        guard !batch.isEmpty else { return }
        let now = clock.now()
        var outcome = ImportSummary()
        var newThumbnails: [String: Data] = [:]
        // The variants of photos forgotten because their file now holds other content: deleted once that is written.
        var forgottenVariants: [String] = []
        // The contents those photos held, whose thumbnails go with them.
        var forgottenContents: Set<String> = []
        func forget(_ detached: DetachedPath) {
            forgottenVariants += detached.forgottenVariants
            if let content = detached.forgottenContent { forgottenContents.insert(content) }
        }
        /// The path now holds new content: its failure, and the photo it held, are let go.
        func release(_ file: FoundFile, _ writer: any CatalogueWriting) throws {
            try writer.clearFailure(atPath: file.path)
            let detached = try writer.detachPath(file.path)
            if detached.held { outcome.changed += 1 }
            forget(detached)
        }
        try catalogue.write { writer in
            let waiting = try Self.parkPhotosMovingAway(in: batch, writer: writer)
            for (file, examination) in batch {
                var examination = examination
                // Left out before, changed since: whatever it is now is decided below.
                if leftOutBefore[file.path] != nil { try writer.clearLeftOut(atPath: file.path) }
                if case let .knownContent(sha256) = examination, try writer.photo(withSHA256: sha256) == nil {
                    // Known when examined, gone since (its path now holds other content): examine in full.
                    examination = examine(file, position: 0, check: .none)
                }
                switch examination {
                case .notAPhoto:
                    outcome.skipped += 1
                case .vanished:
                    outcome.vanished += 1
                case .showhidePicture:
                    // Saved over a photo's file (its show picture under its name): that photo is no longer there.
                    try release(file, writer)
                    try writer.recordLeftOut(path: file.path, stamp: file.stamp)
                    outcome.showhidePictures += 1
                case let .unsupported(format):
                    outcome.unsupported.append(UnsupportedFile(path: file.path, format: format))
                case let .failed(reason):
                    let failure = ImportFailure(path: file.path, reason: reason, failedAt: now, stamp: file.stamp)
                    try writer.recordFailure(failure)
                    // Read again (it could not be read before) and failing as it did: no new failure.
                    if let known = failedBefore[file.path], known.reason == reason {
                        outcome.stillFailing.append(known)
                    } else {
                        outcome.failures.append(failure)
                    }
                case let .knownContent(sha256):
                    forget(try placeKnownContent(sha256, file: file, writer: writer, now: now, summary: &outcome))
                case let .photo(facts, thumbnail):
                    if let existing = try writer.photo(withSHA256: facts.sha256) {
                        // Known content examined in full: a photo catalogued before colours were analysed.
                        if let colours = facts.colours { try writer.setColours(colours, of: existing.id) }
                        newThumbnails[facts.sha256] = thumbnail
                        forget(try placeKnownContent(facts.sha256, file: file, writer: writer, now: now, summary: &outcome))
                    } else {
                        try release(file, writer)
                        try writer.insertPhoto(path: file.path, stamp: file.stamp, facts: facts, importedAt: now)
                        outcome.imported += 1
                        newThumbnails[facts.sha256] = thumbnail
                    }
                }
            }
            // A waiting photo is placed where its content is, a file of this batch, unless that file was its own
            // duplicate already: then it is let go from the path no file has, onto the duplicate.
            for id in waiting where try writer.photoID(atPath: Self.waitingPath(id)) == id {
                forget(try writer.detachPath(Self.waitingPath(id)))
                outcome.changed += 1
            }
        }
        // After the photos are in: a cache the gallery can fill again, so one that cannot be written is no failure.
        // Forgotten first: a content catalogued again in this batch (two files' names swapped) keeps its new thumbnail.
        try? thumbnails?.cache.forget(forgottenContents)
        do {
            try thumbnails?.cache.keep(newThumbnails)
        } catch {
            summary.thumbnailsNotKept += newThumbnails.count
            summary.thumbnailsNotKeptReason = error.plainDescription
        }
        // Only this library's files: a copied library's rows may still name the original's. One that cannot be
        // deleted is a stray file, which `gallery check --repair` takes away.
        if let libraryDirectory {
            let variants = VariantSpec.directory(inLibrary: libraryDirectory)
            _ = fileSystem.removeVariantFiles(forgottenVariants.compactMap { VariantSpec.file(recordedAt: $0, inVariants: variants) }, inVariants: variants)
        }
        summary.imported += outcome.imported
        summary.unchanged += outcome.unchanged
        summary.moved += outcome.moved
        summary.changed += outcome.changed
        summary.duplicates += outcome.duplicates
        summary.skipped += outcome.skipped
        summary.vanished += outcome.vanished
        summary.showhidePictures += outcome.showhidePictures
        // Found by the walk, told apart only by their content: left out, as those told by their path are.
        summary.found -= outcome.showhidePictures
        summary.unsupported += outcome.unsupported
        summary.failures += outcome.failures
        summary.stillFailing += outcome.stillFailing
    }

    /// Where a photo waits, within one batch's transaction, for the file its content moved to: no file's path.
    static func waitingPath(_ id: PhotoID) -> String { "waiting for its file:\(id)" }

    /// The photos whose own files now hold another content found in this batch while another of its files
    /// holds theirs (two names swapped, a file renamed over another), moved to `waitingPath`: their files are
    /// then free for the content they hold now, and each photo is placed, as a photo whose file is gone,
    /// where its content is, keeping its id. Only content the catalogue knew is looked up: nothing for a new library.
    /// - Returns: the photos moved so.
    static func parkPhotosMovingAway(in batch: [(FoundFile, Examination)], writer: any CatalogueWriting) throws -> [PhotoID] {
        var contentNow: [String: String] = [:]
        for (file, examination) in batch {
            switch examination {
            case let .knownContent(sha256): contentNow[file.path] = sha256
            case let .photo(facts, _): contentNow[file.path] = facts.sha256
            default: break
            }
        }
        var moving: Set<PhotoID> = []
        for (file, examination) in batch {
            guard case let .knownContent(sha256) = examination, let location = try writer.photo(withSHA256: sha256),
                  location.path != file.path, let other = contentNow[location.path], other != sha256 else { continue }
            moving.insert(location.id)
        }
        let waiting = moving.sorted()
        for id in waiting { try writer.movePhoto(id, to: waitingPath(id), stamp: FileStamp(size: 0, modifiedAtNanoseconds: 0)) }
        return waiting
    }

    /// A file whose content the catalogue has: the same file touched, a moved file, or a duplicate.
    /// - Returns: what forgetting the path's earlier photo took with it, when the path held another content.
    private func placeKnownContent(_ sha256: String, file: FoundFile, writer: any CatalogueWriting,
                                   now: Date, summary: inout ImportSummary) throws -> DetachedPath {
        guard let existing = try writer.photo(withSHA256: sha256) else { return DetachedPath(held: false) }
        try writer.clearFailure(atPath: file.path)
        let catalogued = try writer.photoID(atPath: file.path)
        if catalogued == existing.id {
            try writer.updateStamp(ofPath: file.path, to: file.stamp)
            summary.unchanged += 1
            return DetachedPath(held: false)
        }
        let detached = try writer.detachPath(file.path)
        if detached.held { summary.changed += 1 }
        // Its file gone, or waiting for this one (`parkPhotosMovingAway`): the photo moves here.
        if !fileSystem.exists(existing.path) {
            try writer.movePhoto(existing.id, to: file.path, stamp: file.stamp)
            summary.moved += 1
        } else {
            try writer.addDuplicatePath(file.path, of: existing.id, stamp: file.stamp, notedAt: now)
            summary.duplicates += 1
        }
        return detached
    }
}

/// How an examination learns that a file's content is known already, and need not be analysed.
struct KnownContentCheck: Sendable {
    /// The content of the files this import examined before (nil: not looked at).
    var seen: SeenContent?
    /// Whether the catalogue is asked.
    var asksCatalogue: Bool
    /// The content of show and hide pictures export manifests list, whatever their files are named now.
    var showhideContents: Set<String> = []

    /// Every file examined in full.
    static let none = KnownContentCheck(seen: nil, asksCatalogue: false)
}

/// The content of the files one import has examined, shared by its jobs.
final class SeenContent: @unchecked Sendable {
    private let lock = NSLock()
    /// Each content's first file in walk order met so far.
    private var firstPositions: [String: Int] = [:]

    /// Whether a file earlier in walk order than `position` has this content. Only such a file is
    /// written before this one: when a later copy is met first (jobs run side by side), the earlier
    /// one is still examined in full here, in its job, rather than again when it is written.
    func meet(_ sha256: String, at position: Int) -> Bool {
        lock.withLock {
            if let first = firstPositions[sha256], first < position { return true }
            firstPositions[sha256] = position
            return false
        }
    }
}
