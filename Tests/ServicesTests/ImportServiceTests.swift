import Catalogue
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class ImportServiceTests: XCTestCase {
    let files = FakeFileSystem()
    let codec = FakePhotoCodec()
    let catalogue = FakeCatalogue()
    let clock = FakeClock()
    /// Shows how many files were examined at once.
    let jobRunner = OverlapProbe(meeting: 2)

    func service(jobRunner: (any JobRunner)? = nil) -> ImportService {
        ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                      catalogue: catalogue, clock: clock, jobRunner: jobRunner ?? self.jobRunner)
    }

    func testThumbnailsThatCannotBeKeptAreCountedAndThePhotosImported() async throws {
        // A full disk left 34 photos without thumbnails, and nothing said so.
        for name in ["a", "b", "c"] { files["/lib/\(name).jpg"] = FakePhoto.data(width: 400, height: 300, seed: name) }
        let cache = FakeThumbnailCache()
        cache.failing = true
        cache.failure = .diskFull(path: "/library/thumbnails.sqlite")
        let importing = ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(), catalogue: catalogue,
                                      clock: clock, jobRunner: jobRunner,
                                      thumbnails: ThumbnailStore(cache: cache, fileSystem: files, decoder: codec, encoder: RecordingEncoder()))
        let summary = try await importing.importPhotos(from: ["/lib"], options: ImportOptions(jobs: 2, batchSize: 2))
        XCTAssertEqual([summary.imported, summary.failed, summary.thumbnailsNotKept], [3, 0, 3])
        XCTAssertEqual(summary.thumbnailsNotKeptReason, CatalogueError.diskFull(path: "/library/thumbnails.sqlite").plainDescription)
    }

    func testEachNewPhotoGetsAThumbnailFromItsAnalysisDecodeKeptABatchAtATime() async throws {
        for name in ["a", "b", "c"] { files["/lib/\(name).jpg"] = FakePhoto.data(width: 4000, height: 3000, seed: name) }
        files["/lib/copy-of-a.jpg"] = files["/lib/a.jpg"]
        let cache = FakeThumbnailCache()
        let encoder = RecordingEncoder()
        let thumbnails = ThumbnailStore(cache: cache, fileSystem: files, decoder: codec, encoder: encoder)
        let importing = ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                      catalogue: catalogue, clock: clock, jobRunner: jobRunner, thumbnails: thumbnails)

        let summary = try await importing.importPhotos(from: ["/lib"], options: ImportOptions(jobs: 2, batchSize: 2))

        XCTAssertEqual(summary.imported, 3)
        XCTAssertEqual(Set(cache.jpegs.keys), Set(catalogue.allPhotos.map(\.facts.sha256)))
        XCTAssertEqual(codec.decodeCount, 3, "no decode of its own")
        XCTAssertEqual(encoder.encoded.map { "\($0.image.width)x\($0.image.height)" }, ["320x240", "320x240", "320x240"])
        XCTAssertEqual(cache.keepCalls, 2, "one write a batch")

        // A photo catalogued before colours were analysed gets its thumbnail when its file is read again.
        let old = FakePhoto.data(width: 4000, height: 3000, seed: "old")
        try catalogue.write { writer in
            _ = try writer.insertPhoto(path: "/elsewhere/old.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                       facts: PhotoFacts(sha256: CryptoHasher().sha256(old), format: .jpeg,
                                                         pixelSize: PixelSize(width: 4000, height: 3000), exif: nil),
                                       importedAt: Date())
        }
        files["/lib/old.jpg"] = old
        _ = try await importing.importPhotos(from: ["/lib"])
        XCTAssertNotNil(cache.jpegs[CryptoHasher().sha256(old)])

        cache.failing = true
        files["/lib/d.jpg"] = FakePhoto.data(width: 4000, height: 3000, seed: "d")
        let more = try await importing.importPhotos(from: ["/lib"])
        XCTAssertEqual(more.imported, 1, "a cache that cannot be written fails no photo")
        XCTAssertEqual(more.failures, [])
    }

    func testFailuresOfFilesGoneSinceLeaveTheListWhenTheirFolderIsImportedAgain() async throws {
        files["/lib/bad.jpg"] = FakePhoto.broken(reason: "corrupt")
        files["/lib/sub/worse.jpg"] = FakePhoto.broken(reason: "corrupt")
        files["/elsewhere/bad.jpg"] = FakePhoto.broken(reason: "corrupt")
        _ = try await importLibrary()
        _ = try await service().importPhotos(from: ["/elsewhere"])
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/elsewhere/bad.jpg", "/lib/bad.jpg", "/lib/sub/worse.jpg"])
        files["/lib/sub/worse.jpg"] = nil
        files["/elsewhere/bad.jpg"] = nil

        let again = try await importLibrary()

        XCTAssertEqual(again.failures.map(\.path), [], "a file still there and unchanged is no new failure")
        XCTAssertEqual(again.stillFailing.map(\.path), ["/lib/bad.jpg"])
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/elsewhere/bad.jpg", "/lib/bad.jpg"],
                       "a gone file's failure leaves; folders not imported keep theirs")
    }

    func testAnInterruptedImportKeepsWhatItReadAndTheSameImportGoesOn() async throws {
        for name in ["a", "b", "c", "d"] { files["/lib/\(name).jpg"] = FakePhoto.data(seed: name) }
        let stopped = try await service().importPhotos(from: ["/lib"], options: ImportOptions(jobs: 1),
                                                       interruption: CountdownInterruption(allowing: 2))
        XCTAssertTrue(stopped.interrupted)
        XCTAssertEqual(stopped.imported, 2)
        XCTAssertEqual(catalogue.allPhotos.map(\.path), ["/lib/a.jpg", "/lib/b.jpg"], "the first files, in walk order")
        files.resetReads()
        let resumed = try await service().importPhotos(from: ["/lib"], options: ImportOptions(jobs: 1))
        XCTAssertFalse(resumed.interrupted)
        XCTAssertEqual(resumed.imported, 2)
        XCTAssertEqual(resumed.unchanged, 2)
        XCTAssertEqual(files.readPaths, ["/lib/c.jpg", "/lib/d.jpg"], "what was imported is not read again")
    }

    func testAFileGoneBetweenTheWalkAndItsReadIsNoFailure() async throws {
        // Renamed or moved while the import ran: it failed with "no such file or directory", exit 1.
        for name in ["a", "b", "c"] { files["/lib/\(name).jpg"] = FakePhoto.data(seed: name) }
        files.expectedMissing = ["/lib/b.jpg"]
        files.beforeRead = { [files] path in
            if path == "/lib/b.jpg" { try? files.remove(path) }
        }
        let summary = try await importLibrary(jobs: 1)
        XCTAssertEqual([summary.imported, summary.vanished, summary.failed], [2, 1, 0])
        XCTAssertEqual(try catalogue.failures(), [])
    }

    func testAFolderThatStillCannotBeReadIsStillFailing() async throws {
        files.walkProblems = [WalkProblem(path: "/lib/locked", reason: "permission denied")]
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        let first = try await importLibrary()
        XCTAssertEqual(first.failures.map(\.path), ["/lib/locked"])
        let second = try await importLibrary()
        XCTAssertEqual(second.failures, [])
        XCTAssertEqual(second.stillFailing.map(\.path), ["/lib/locked"])
        // Its path names nothing `stat` finds (a name that is not UTF-8, a path past PATH_MAX), yet the walk
        // meets it: it stays listed, and the next import says it is still failing, not a new failure (exit 1, 0, 1, …).
        XCTAssertFalse(files.exists("/lib/locked"))
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/lib/locked"])
        let again = try await importLibrary()
        XCTAssertEqual([again.failures.count, again.stillFailing.count], [0, 1])
        files.walkProblems = [WalkProblem(path: "/lib/locked", reason: "input/output error")]
        let third = try await importLibrary()
        XCTAssertEqual(third.failures.map(\.reason), ["input/output error"], "another reason is a new failure")
    }

    func testAFileOrFolderThatCouldNotBeReadIsTriedAgainAndLeavesTheListOnceItIsRead() async throws {
        files["/lib/locked.jpg"] = FakePhoto.data(seed: "locked")
        files["/lib/unread/u.jpg"] = FakePhoto.data(seed: "u")
        files.unreadable = ["/lib/locked.jpg"]
        files.walkProblems = [WalkProblem(path: "/lib/unread", reason: "cannot read the folder: permission denied")]
        let first = try await importLibrary()
        XCTAssertEqual(first.failures.map(\.path).sorted(), ["/lib/locked.jpg", "/lib/unread"])
        XCTAssertEqual(first.failures.first { $0.path == "/lib/locked.jpg" }?.reason, "cannot read the file: permission denied")
        // Still unreadable: tried again, and still failing as before, no new failure.
        let reads = files.readPaths.count
        let still = try await importLibrary()
        XCTAssertEqual(still.failures, [])
        XCTAssertEqual(still.stillFailing.map(\.path).sorted(), ["/lib/locked.jpg", "/lib/unread"])
        XCTAssertEqual(files.readPaths.count, reads + 1, "the unreadable file is tried once more")

        // Its permissions mended, neither file nor folder changed.
        files.unreadable = []
        files.walkProblems = []
        let second = try await importLibrary()
        XCTAssertEqual(second.stillFailing, [])
        XCTAssertNotNil(photo(at: "/lib/locked.jpg"))
        XCTAssertEqual(try catalogue.failures(), [], "both leave the list")
    }

    /// A photo at `original` with a copy at /lib/copy/b.jpg (its duplicate path), imported.
    func photoWithACopy(at original: String) async throws -> CataloguedPhoto {
        files[original] = FakePhoto.data(seed: "same")
        files["/lib/copy/b.jpg"] = FakePhoto.data(seed: "same")
        _ = try await importLibrary()
        return try XCTUnwrap(catalogue.allPhotos.first { $0.path == original })
    }

    func testAPhotoWhoseFileIsGoneBecomesItsCopyFoundByTheImport() async throws {
        files["/lib/c.jpg"] = FakePhoto.data(seed: "c")
        let photo = try await photoWithACopy(at: "/lib/a.jpg")
        try files.remove("/lib/a.jpg")
        files.expectedMissing = ["/lib/a.jpg"]

        let again = try await importLibrary()

        XCTAssertEqual(again.moved, 1)
        XCTAssertEqual(again.unchanged, 1, "c.jpg; the copy counts as moved")
        XCTAssertEqual(try catalogue.photo(id: photo.id)?.path, "/lib/copy/b.jpg", "the copy is now the photo's file")
        XCTAssertEqual(try catalogue.photo(id: photo.id)?.duplicatePaths, [])
        let third = try await importLibrary()
        XCTAssertEqual(third.moved, 0)
    }

    func testAPhotoIsNotMovedToACopyEditedSince() async throws {
        let photo = try await photoWithACopy(at: "/lib/a.jpg")
        // The original gone and its copy edited since: the copy is new content, the photo stays missing where it was.
        try files.remove("/lib/a.jpg")
        files.expectedMissing = ["/lib/a.jpg"]
        files["/lib/copy/b.jpg"] = FakePhoto.data(width: 10, height: 10, seed: "edited copy")

        let again = try await importLibrary()

        XCTAssertEqual(again.moved, 0)
        XCTAssertEqual(try catalogue.photo(id: photo.id)?.path, "/lib/a.jpg", "not lost by taking the edited copy for its file")
        XCTAssertEqual(catalogue.allPhotos.first { $0.path == "/lib/copy/b.jpg" }?.facts.pixelSize, PixelSize(width: 10, height: 10))
    }

    func testAPhotoAManifestListsAtItsOwnPathIsStillAPhoto() async throws {
        let photo = try await photoWithACopy(at: "/lib/album/a.jpg")
        // An earlier showhide, exporting originals into their own folder, listed the photo's own file as kept.
        let listed = [ExportedFile(file: "a.jpg", photo: photo.id, originalPath: "/lib/album/a.jpg", variant: .original, parameters: nil,
                                   size: 1, width: 1, height: 1, sha256: "")]
        files["/lib/album/manifest.json"] = try JSONEncoder().encode(listed)
        let again = try await importLibrary()
        XCTAssertEqual([again.moved, again.showhidePictures], [0, 0], "the photo itself, not an export to leave out")
        XCTAssertEqual(try catalogue.photo(id: photo.id)?.path, "/lib/album/a.jpg", "not moved to its copy: its own file is there")
        // A new library imports it too: no export made it.
        let fresh = FakeCatalogue()
        let summary = try await ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                              catalogue: fresh, clock: clock, jobRunner: jobRunner).importPhotos(from: ["/lib/album"])
        XCTAssertEqual([summary.imported, summary.showhidePictures], [1, 0])
    }

    func testAKnownBadFileIsNotReadAgainUntilItChanges() async throws {
        files["/lib/bad.jpg"] = FakePhoto.broken(reason: "corrupt JPEG data: bad Huffman code")
        files["/lib/good.jpg"] = FakePhoto.data(seed: "good")
        let first = try await importLibrary()
        XCTAssertEqual(first.failures.map(\.reason), ["corrupt JPEG data: bad Huffman code"])
        let bad = try XCTUnwrap(files["/lib/bad.jpg"])
        XCTAssertEqual(try catalogue.failures().first?.stamp, FileStamp(size: Int64(bad.count), modifiedAtNanoseconds: 1_000_000_000),
                       "the file's stamp is recorded with its failure")
        let reads = files.readPaths.count

        let second = try await importLibrary()
        XCTAssertEqual(second.failures, [])
        XCTAssertEqual(second.stillFailing.map(\.path), ["/lib/bad.jpg"])
        XCTAssertEqual(second.stillFailing.map(\.reason), ["corrupt JPEG data: bad Huffman code"], "with the reason it failed for")
        XCTAssertEqual(second.unchanged, 1)
        XCTAssertEqual(files.readPaths.count, reads, "neither file is read again")

        // Changed (still broken, another way): read again, and a failure again.
        files["/lib/bad.jpg"] = FakePhoto.broken(reason: "premature end of data segment", seed: "other")
        files.setStamp(FileStamp(size: 1, modifiedAtNanoseconds: 2_000_000_000), for: "/lib/bad.jpg")
        let third = try await importLibrary()
        XCTAssertEqual(third.failures.map(\.reason), ["premature end of data segment"])
        XCTAssertEqual(third.stillFailing, [])
        // Mended: imported, and its failure forgotten.
        files["/lib/bad.jpg"] = FakePhoto.data(seed: "mended")
        files.setStamp(FileStamp(size: 2, modifiedAtNanoseconds: 3_000_000_000), for: "/lib/bad.jpg")
        let fourth = try await importLibrary()
        XCTAssertEqual(fourth.imported, 1)
        XCTAssertEqual(try catalogue.failures(), [])
    }

    func importLibrary(jobs: Int = 2, batchSize: Int = 256, largestFirstWindow: Int = 256,
                       progress: any ImportProgress = SilentProgress()) async throws -> ImportSummary {
        try await service().importPhotos(
            from: ["/lib"], options: ImportOptions(jobs: jobs, batchSize: batchSize, largestFirstWindow: largestFirstWindow),
            progress: progress)
    }

    func photo(at path: String) -> CataloguedPhoto? {
        catalogue.allPhotos.first { $0.path == path }
    }

    // MARK: New photos

    func testImportsNewPhotosWithTheirFacts() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(width: 4000, height: 3000, seed: "a", make: "Canon", takenAt: "2020:05:06 07:08:09")
        files["/lib/sub/b.JPG"] = FakePhoto.data(width: 600, height: 800, seed: "b", xmp: "<x:xmpmeta/>")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.found, 2)
        XCTAssertEqual(summary.imported, 2)
        XCTAssertEqual(summary.failed, 0)
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        XCTAssertEqual(a.facts.pixelSize, PixelSize(width: 4000, height: 3000))
        XCTAssertEqual(a.facts.format, .jpeg)
        XCTAssertEqual(a.facts.sha256, CryptoHasher().sha256(files["/lib/a.jpg"]!))
        XCTAssertEqual(a.facts.exif?.make, "Canon")
        XCTAssertEqual(a.facts.exif?.takenAt?.iso8601, "2020-05-06T07:08:09")
        XCTAssertEqual(a.importedAt, clock.now())
        XCTAssertEqual(a.stamp, FileStamp(size: Int64(files["/lib/a.jpg"]!.count), modifiedAtNanoseconds: 1_000_000_000))
        XCTAssertNil(photo(at: "/lib/sub/b.JPG")?.facts.exif)
        XCTAssertEqual(photo(at: "/lib/sub/b.JPG")?.facts.xmp, "<x:xmpmeta/>", "its XMP, kept")
        XCTAssertNil(a.facts.xmp)
        XCTAssertEqual(codec.decodeCount, 2, "one decode per photo")
    }

    func testTheLibraryFoldersOwnFilesAreNotImportedThoughTheFolderImportedHoldsIt() async throws {
        files["/photos/a.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "a")
        files["/photos/showhide/variants/ab/abc/show-1.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "show")
        files["/photos/showhide-old/b.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "b")
        files["/photos/showhide/thumbnails/ab.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "thumbnail")
        files["/photos/showhide/catalogue.sqlite"] = Data("SQLite format 3\0".utf8)
        files["/photos/showhide/thumbnails.sqlite-wal"] = Data([0])
        files["/photos/showhide/catalogue.sqlite.migration-lock"] = Data()
        files["/photos/showhide/serve-token"] = Data("secret".utf8)
        files["/photos/showhide/exports/gallery-1.zip"] = Data("PK".utf8)
        // The user's own photos kept in the library folder are theirs.
        files["/photos/showhide/mine/c.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "c")
        files["/photos/showhide/d.jpg"] = FakePhoto.data(width: 600, height: 400, seed: "d")
        let importing = ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                      catalogue: catalogue, clock: clock, jobRunner: jobRunner, libraryDirectory: "/photos/showhide")

        let summary = try await importing.importPhotos(from: ["/photos"])

        XCTAssertEqual(summary.found, 4, "a folder whose name only begins like the library's is not it")
        XCTAssertEqual(summary.imported, 4)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertEqual(summary.skipped, 0, "left out without a count")
        XCTAssertNotNil(photo(at: "/photos/showhide/mine/c.jpg"))
        XCTAssertNotNil(photo(at: "/photos/showhide/d.jpg"))
        XCTAssertNotNil(photo(at: "/photos/a.jpg"))
        XCTAssertNotNil(photo(at: "/photos/showhide-old/b.jpg"))
        XCTAssertNil(photo(at: "/photos/showhide/variants/ab/abc/show-1.jpg"))
    }

    func testColoursComeFromTheSameDecode() async throws {
        files["/lib/sea.jpg"] = FakePhoto.data(seed: "sea", colour: "#1F5AA6")
        files["/lib/fog.jpg"] = FakePhoto.data(seed: "fog", colour: "#808080")

        _ = try await importLibrary()

        let sea = try XCTUnwrap(photo(at: "/lib/sea.jpg")?.facts.colours)
        // A blue subject on a grey ground (FakePhoto.picture): grey dominates, blue stands out.
        XCTAssertEqual(sea.dominant?.name, .grey)
        XCTAssertEqual(sea.accent?.name, .blue)
        XCTAssertEqual(sea.nameWeights[.blue] ?? 0, 1.0 / 9, accuracy: 0.003, "the subject is a ninth of the frame")
        XCTAssertNil(photo(at: "/lib/fog.jpg")?.facts.colours?.accent)
        XCTAssertEqual(codec.decodeCount, 2)
    }

    func testPhotosCataloguedBeforeColoursAreAnalysedOnTheNextRun() async throws {
        let data = FakePhoto.data(seed: "old", colour: "#1F5AA6")
        files["/lib/old.jpg"] = data
        let stamp = FileStamp(size: Int64(data.count), modifiedAtNanoseconds: 1_000_000_000)
        try catalogue.write { writer in
            try writer.insertPhoto(path: "/lib/old.jpg", stamp: stamp, facts: PhotoFacts(
                sha256: CryptoHasher().sha256(data), format: .jpeg, pixelSize: PixelSize(width: 4000, height: 3000), exif: nil),
                importedAt: clock.now())
        }

        let summary = try await importLibrary()

        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(summary.imported, 0)
        XCTAssertEqual(catalogue.allPhotos.count, 1)
        XCTAssertEqual(photo(at: "/lib/old.jpg")?.facts.colours?.accent?.name, .blue)
        let again = try await importLibrary()
        XCTAssertEqual(again.unchanged, 1)
        XCTAssertEqual(codec.decodeCount, 1, "analysed once, then skipped")
    }

    func testEachFileIsReadOnce() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/b.png"] = FakePhoto.data(seed: "b")
        _ = try await importLibrary()
        XCTAssertEqual(files.readPaths.sorted(), ["/lib/a.jpg", "/lib/b.png"])
    }

    // MARK: Incremental

    func testASecondRunSkipsUnchangedFilesWithoutReadingThem() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/b.jpg"] = FakePhoto.data(seed: "b")
        _ = try await importLibrary()
        files.resetReads()

        let summary = try await importLibrary()

        XCTAssertEqual(summary.unchanged, 2)
        XCTAssertEqual(summary.imported, 0)
        XCTAssertEqual(files.readPaths, [], "unchanged files are not read")
        XCTAssertEqual(codec.decodeCount, 2, "nor decoded again")
        XCTAssertEqual(catalogue.allPhotos.count, 2)
    }

    func testOnlyNewFilesAreReadOnTheNextRun() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        _ = try await importLibrary()
        files.resetReads()
        files["/lib/new.jpg"] = FakePhoto.data(seed: "new")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(files.readPaths, ["/lib/new.jpg"])
    }

    func testATouchedFileWithTheSameContentIsUnchangedAndNotDecodedAgain() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        _ = try await importLibrary()
        let newStamp = FileStamp(size: Int64(files["/lib/a.jpg"]!.count), modifiedAtNanoseconds: 9_000_000_000)
        files.setStamp(newStamp, for: "/lib/a.jpg")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.unchanged, 1)
        XCTAssertEqual(codec.decodeCount, 1, "the hash is known: no second decode")
        XCTAssertEqual(photo(at: "/lib/a.jpg")?.stamp, newStamp)
        XCTAssertEqual(try catalogue.knownStamps()["/lib/a.jpg"], newStamp, "the next run skips it unread")
    }

    func testNewContentAtAKnownPathReplacesThePhotoAndItsVariantFilesGoWithIt() async throws {
        let importing = ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                      catalogue: catalogue, clock: clock, jobRunner: jobRunner, libraryDirectory: "/library")
        files["/lib/a.jpg"] = FakePhoto.data(seed: "old")
        files["/lib/b.jpg"] = FakePhoto.data(seed: "b")
        _ = try await importing.importPhotos(from: ["/lib"])
        let old = try XCTUnwrap(photo(at: "/lib/a.jpg")), b = try XCTUnwrap(photo(at: "/lib/b.jpg"))
        for (photo, name) in [(old, "a"), (b, "b")] {
            files["/library/variants/\(name)-show.jpg"] = Data([1])
            try catalogue.recordVariant(Variant(photoID: photo.id, kind: "show", parameters: "{}", path: "/library/variants/\(name)-show.jpg",
                                                fileSize: 1, pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: Date()))
        }
        files["/lib/a.jpg"] = FakePhoto.data(width: 10, height: 10, seed: "edited")

        let summary = try await importing.importPhotos(from: ["/lib"])

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.changed, 1)
        XCTAssertEqual(catalogue.allPhotos.count, 2)
        XCTAssertEqual(photo(at: "/lib/a.jpg")?.facts.pixelSize, PixelSize(width: 10, height: 10))
        XCTAssertNil(try catalogue.photo(id: old.id), "what the file held before is forgotten")
        XCTAssertFalse(files.exists("/library/variants/a-show.jpg"), "with its variant's file: no stray file is left")
        XCTAssertTrue(files.exists("/library/variants/b-show.jpg"))

        // Another photo's content saved under a catalogued name: a copy of b; the photo a.jpg held is forgotten likewise.
        let edited = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        files["/library/variants/edited-show.jpg"] = Data([1])
        try catalogue.recordVariant(Variant(photoID: edited.id, kind: "show", parameters: "{}", path: "/library/variants/edited-show.jpg",
                                            fileSize: 1, pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: Date()))
        files["/lib/a.jpg"] = files["/lib/b.jpg"]
        let copied = try await importing.importPhotos(from: ["/lib"])
        XCTAssertEqual([copied.imported, copied.duplicates, copied.changed], [0, 1, 1])
        XCTAssertNil(try catalogue.photo(id: edited.id))
        XCTAssertFalse(files.exists("/library/variants/edited-show.jpg"))
        XCTAssertEqual(try catalogue.photo(id: b.id)?.variants.map(\.path), ["/library/variants/b-show.jpg"])
    }

    func testAPhotoForgottenForItsFileEditedInPlaceTakesItsThumbnailAndEmptiedVariantFoldersWithIt() async throws {
        let cache = FakeThumbnailCache()
        let thumbnails = ThumbnailStore(cache: cache, fileSystem: files, decoder: codec, encoder: RecordingEncoder())
        let importing = ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                      catalogue: catalogue, clock: clock, jobRunner: jobRunner, thumbnails: thumbnails,
                                      libraryDirectory: "/library")
        files["/lib/a.jpg"] = FakePhoto.data(seed: "old")
        _ = try await importing.importPhotos(from: ["/lib"])
        let old = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        let folder = "/library/variants/\(old.facts.sha256.prefix(2))/\(old.facts.sha256)"
        for kind in ["show", "hide"] {
            files["\(folder)/\(kind)-1.jpg"] = Data([1])
            try catalogue.recordVariant(Variant(photoID: old.id, kind: kind, parameters: "{}", path: "\(folder)/\(kind)-1.jpg",
                                                fileSize: 1, pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: Date()))
        }
        files["/library/variants/\(old.facts.sha256.prefix(2))/other/show-1.jpg"] = Data([1])
        XCTAssertNotNil(cache.jpegs[old.facts.sha256])

        files["/lib/a.jpg"] = FakePhoto.data(width: 10, height: 10, seed: "edited")
        _ = try await importing.importPhotos(from: ["/lib"])

        let edited = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        XCTAssertEqual(Set(cache.jpegs.keys), [edited.facts.sha256], "the old content's thumbnail is gone; check would call it a stray")
        XCTAssertEqual(files.removedFolders, [folder], "its folder, emptied; not the bucket another photo's folder is in")

        // Two files' names swapped: the content forgotten for one path is catalogued again from the other in the
        // same import, and keeps the thumbnail just made.
        files["/lib/b.jpg"] = FakePhoto.data(seed: "b")
        _ = try await importing.importPhotos(from: ["/lib"])
        (files["/lib/a.jpg"], files["/lib/b.jpg"]) = (files["/lib/b.jpg"], files["/lib/a.jpg"])
        _ = try await importing.importPhotos(from: ["/lib"])
        XCTAssertEqual(Set(cache.jpegs.keys), Set(catalogue.allPhotos.map(\.facts.sha256)))
        XCTAssertEqual(catalogue.allPhotos.count, 2)
    }

    func testShowAndHidePicturesUnderNamesOfTheirOwnAreLeftOutByTheirContent() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        _ = try await importLibrary()
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        let hasher = CryptoHasher()
        // A show picture the library made, copied out of it by hand under another name.
        let show = FakePhoto.data(seed: "a show")
        try catalogue.recordVariant(Variant(photoID: a.id, kind: "show", parameters: "{}", path: "/library/variants/show.jpg", fileSize: 1,
                                            pixelSize: PixelSize(width: 1, height: 1), sha256: hasher.sha256(show), createdAt: Date()))
        files["/lib/from-the-library.jpg"] = show
        // A hide picture an export made smaller (its content no variant's), renamed in its folder and copied elsewhere.
        let hide = FakePhoto.data(seed: "a hide, smaller")
        let original = FakePhoto.data(seed: "an original made smaller")
        let listed = [
            ExportedFile(file: "a_hide.jpg", photo: a.id, originalPath: "/lib/a.jpg", variant: .hide, parameters: nil,
                         size: 1, width: 1, height: 1, sha256: hasher.sha256(hide)),
            ExportedFile(file: "a.jpg", photo: a.id, originalPath: "/lib/a.jpg", variant: .original, parameters: nil,
                         size: 1, width: 1, height: 1, sha256: hasher.sha256(original)),
        ]
        files["/lib/shared/manifest.json"] = try JSONEncoder().encode(listed)
        files["/lib/shared/renamed.jpg"] = hide
        files["/lib/elsewhere/copied.jpg"] = hide
        // An original renamed is a photo's content: imported (here it was made smaller, so it is a photo of its own).
        files["/lib/shared/renamed-original.jpg"] = original

        let summary = try await importLibrary()

        XCTAssertEqual(summary.showhidePictures, 3, "the library's show picture, and the export's hide picture twice")
        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.found, 3, "a.jpg, the original and the manifest; the pictures left out are not found")
        XCTAssertEqual(catalogue.allPhotos.map(\.path).sorted(), ["/lib/a.jpg", "/lib/shared/renamed-original.jpg"])

        // A photo's file saved over by its show picture: the photo it held is no longer there, nor its failure.
        files["/lib/shared/renamed-original.jpg"] = show
        let over = try await importLibrary()
        XCTAssertEqual([over.changed, over.imported], [1, 0])
        XCTAssertEqual(catalogue.allPhotos.map(\.path), ["/lib/a.jpg"])
        files["/lib/broken.jpg"] = FakePhoto.broken(reason: "corrupt")
        _ = try await importLibrary()
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/lib/broken.jpg"])
        files["/lib/broken.jpg"] = show
        _ = try await importLibrary()
        XCTAssertEqual(try catalogue.failures(), [], "a failure of the path is cleared")
    }

    func testTwoPhotosWhoseNamesAreSwappedKeepTheirIdsAndVariantsEachAtItsNewName() async throws {
        // Sizes of their own: a file's stamp is its size and time, and a rename keeps both.
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/b.jpg"] = FakePhoto.data(seed: "bb")
        files["/lib/c.jpg"] = FakePhoto.data(seed: "ccc")
        _ = try await importLibrary()
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg")), b = try XCTUnwrap(photo(at: "/lib/b.jpg")), c = try XCTUnwrap(photo(at: "/lib/c.jpg"))
        try catalogue.recordVariant(Variant(photoID: a.id, kind: "show", parameters: "{}", path: "/library/variants/a/show.jpg", fileSize: 1,
                                            pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: Date()))

        (files["/lib/a.jpg"], files["/lib/b.jpg"]) = (files["/lib/b.jpg"], files["/lib/a.jpg"])
        let swapped = try await importLibrary()

        XCTAssertEqual([swapped.moved, swapped.changed, swapped.imported, swapped.duplicates], [2, 0, 0, 0])
        XCTAssertEqual(photo(at: "/lib/b.jpg")?.id, a.id, "a's content is at b.jpg now")
        XCTAssertEqual(photo(at: "/lib/a.jpg")?.id, b.id)
        XCTAssertEqual(catalogue.variants.map(\.photoID), [a.id], "its show picture kept")
        XCTAssertEqual(catalogue.allPhotos.count, 3)

        // Renamed over another (c's content deleted) while a new photo takes the old name: the renamed photo keeps its
        // id, the one written over is forgotten, the new one is new.
        files["/lib/c.jpg"] = files["/lib/b.jpg"]
        files["/lib/b.jpg"] = FakePhoto.data(seed: "new one")
        let renamed = try await importLibrary()
        XCTAssertEqual([renamed.moved, renamed.changed, renamed.imported], [1, 1, 1])
        XCTAssertEqual(photo(at: "/lib/c.jpg")?.id, a.id)
        XCTAssertNil(catalogue.allPhotos.first { $0.id == c.id }, "c's content is nowhere: forgotten")
        XCTAssertEqual(catalogue.variants.map(\.photoID), [a.id])

        // A photo whose content went to a file that cannot be read: that file is a failure, the photo let go as before.
        files["/lib/a.jpg"] = files["/lib/c.jpg"]
        files["/lib/c.jpg"] = FakePhoto.data(seed: "another one")
        files.unreadable = ["/lib/a.jpg"]
        let failing = try await importLibrary()
        XCTAssertEqual(failing.failures.map(\.path), ["/lib/a.jpg"])
        XCTAssertNil(catalogue.allPhotos.first { $0.id == a.id })
        XCTAssertFalse(catalogue.allPhotos.contains { !$0.path.hasPrefix("/") }, "no photo left at a path no file has")
    }

    func testAPhotoWhoseFileNowHoldsAnotherAndWhoseCopyWasTouchedKeepsItsIdAtTheCopy() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/copy.jpg"] = files["/lib/a.jpg"]
        _ = try await importLibrary()
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        XCTAssertEqual(a.duplicatePaths, ["/lib/copy.jpg"])

        // Its own file now holds another photo; the copy, touched, still holds its content.
        files["/lib/a.jpg"] = FakePhoto.data(seed: "another photo")
        files.setStamp(FileStamp(size: 43, modifiedAtNanoseconds: 7), for: "/lib/copy.jpg")
        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(photo(at: "/lib/copy.jpg")?.id, a.id, "the copy is its file now")
        XCTAssertEqual(catalogue.allPhotos.count, 2)
        XCTAssertFalse(catalogue.allPhotos.contains { !$0.path.hasPrefix("/") }, "no photo left at a path no file has")
    }

    func testAPictureShowhideMarkedIsLeftOutWhereverItIsAndWhateverItsSize() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        // A show picture exported smaller and renamed, moved away from its manifest: no catalogue holds its
        // content, but its XMP says what made it. A photo with an editor's XMP is a photo.
        files["/lib/holiday/sunset-small.jpg"] = FakePhoto.data(width: 800, height: 600, seed: "a show, smaller",
                                                                xmp: ShowhidePictureMark.packet("show"))
        files["/lib/holiday/edited.jpg"] = FakePhoto.data(seed: "edited", xmp: #"<x:xmpmeta><rdf:Description xmp:CreatorTool="darktable"/></x:xmpmeta>"#)

        let summary = try await importLibrary()

        XCTAssertEqual([summary.showhidePictures, summary.imported, summary.found], [1, 2, 2])
        XCTAssertEqual(catalogue.allPhotos.map(\.path).sorted(), ["/lib/a.jpg", "/lib/holiday/edited.jpg"])
        XCTAssertEqual(Array(try catalogue.leftOutStamps().keys), ["/lib/holiday/sunset-small.jpg"], "noted, so not read again")
        XCTAssertEqual(try catalogue.failures(), [])
    }

    func testAPictureLeftOutByItsContentIsLeftOutUnreadWhileItIsUnchanged() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        _ = try await importLibrary()
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        let show = FakePhoto.data(seed: "a show")
        try catalogue.recordVariant(Variant(photoID: a.id, kind: "show", parameters: "{}", path: "/library/variants/show.jpg", fileSize: 1,
                                            pixelSize: PixelSize(width: 1, height: 1), sha256: CryptoHasher().sha256(show), createdAt: Date()))
        files["/lib/copy-1.jpg"] = show
        files["/lib/copy-2.jpg"] = show
        let first = try await importLibrary()
        XCTAssertEqual(first.showhidePictures, 2)
        XCTAssertEqual(Set(try catalogue.leftOutStamps().keys), ["/lib/copy-1.jpg", "/lib/copy-2.jpg"])

        files.resetReads()
        let again = try await importLibrary()
        XCTAssertEqual([again.showhidePictures, again.found, again.unchanged], [2, 1, 1], "left out, not found, as before")
        XCTAssertEqual(files.readPaths, [], "and not read again")

        // One becomes a photo of its own, the other is deleted: neither is noted as left out any more.
        files["/lib/copy-1.jpg"] = FakePhoto.data(seed: "a photo now")
        files["/lib/copy-2.jpg"] = nil
        let changed = try await importLibrary()
        XCTAssertEqual([changed.showhidePictures, changed.imported], [0, 1])
        XCTAssertEqual(try catalogue.leftOutStamps(), [:])
    }

    func testPicturesAShowhideExportWroteAmongThePhotosAreLeftOut() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        _ = try await importLibrary()
        let a = try XCTUnwrap(photo(at: "/lib/a.jpg"))
        // An export into a folder under the photos: a show picture, a copy of the original, and the manifest listing them.
        files["/lib/shared/a_show.jpg"] = FakePhoto.data(seed: "a show")
        files["/lib/shared/a.jpg"] = files["/lib/a.jpg"]
        files["/lib/shared/mine.jpg"] = FakePhoto.data(seed: "put there by hand")
        let listed = ["a_show.jpg", "a.jpg"].map {
            ExportedFile(file: $0, photo: a.id, originalPath: "/lib/a.jpg", variant: .show, parameters: nil, size: 1, width: 1, height: 1, sha256: "")
        }
        // An entry for a file deleted since is not counted.
        let deleted = ExportedFile(file: "deleted_show.jpg", photo: a.id, originalPath: "/lib/a.jpg", variant: .show, parameters: nil,
                                   size: 1, width: 1, height: 1, sha256: "")
        files["/lib/shared/manifest.json"] = try JSONEncoder().encode(listed + [deleted])
        // A manifest of a few megabytes (a large export's) is read as any other.
        files.setStamp(FileStamp(size: 5 << 20, modifiedAtNanoseconds: 1), for: "/lib/shared/manifest.json")
        // A manifest.json that is no export's leaves its folder's photos to be imported.
        files["/lib/other/manifest.json"] = Data("{\"name\": \"a web app\"}".utf8)
        files["/lib/other/b.jpg"] = FakePhoto.data(seed: "b")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.showhidePictures, 2)
        XCTAssertEqual(summary.imported, 2, "the photo put there by hand and b")
        XCTAssertEqual(summary.duplicates, 0, "the original's copy in the export is no duplicate to note")
        XCTAssertEqual(catalogue.allPhotos.map(\.path).sorted(), ["/lib/a.jpg", "/lib/other/b.jpg", "/lib/shared/mine.jpg"])

        // A manifest.json larger than any export writes is another program's, not read: its folder is imported.
        files["/lib/huge/manifest.json"] = try JSONEncoder().encode([ExportedFile(file: "c.jpg", photo: a.id, originalPath: "/lib/a.jpg",
                                                                                  variant: .show, parameters: nil, size: 1, width: 1,
                                                                                  height: 1, sha256: "")])
        files.setStamp(FileStamp(size: 600 << 20, modifiedAtNanoseconds: 1), for: "/lib/huge/manifest.json")
        files["/lib/huge/c.jpg"] = FakePhoto.data(seed: "c")
        let huge = try await importLibrary()
        XCTAssertEqual([huge.imported, huge.showhidePictures], [1, 2], "c.jpg imported; the export's two still left out")
    }

    func testThePicturesOfAnInspirationPageAmongThePhotosAreLeftOut() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        // A page `inspire --html` wrote, with its pictures (the original made smaller: no duplicate).
        files["/lib/ideas.html"] = Data("<!doctype html><html><head><meta name=\"generator\" content=\"showhide inspire\">".utf8)
        files["/lib/ideas_files/1-show.jpg"] = FakePhoto.data(seed: "a show")
        files["/lib/ideas_files/1-original.jpg"] = FakePhoto.data(width: 32, height: 24, seed: "a smaller")
        // Another program's page with a folder of that name: its photos are the user's.
        files["/lib/notes.html"] = Data("<html><head><title>Holiday</title>".utf8)
        files["/lib/notes_files/beach.jpg"] = FakePhoto.data(seed: "beach")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.showhidePictures, 2)
        XCTAssertEqual(catalogue.allPhotos.map(\.path).sorted(), ["/lib/a.jpg", "/lib/notes_files/beach.jpg"])
    }

    // MARK: Moves and duplicates

    func testAMovedFileKeepsItsPhotoAndChangesItsPath() async throws {
        let data = FakePhoto.data(seed: "trip")
        files["/lib/a.jpg"] = data
        _ = try await importLibrary()
        let id = try XCTUnwrap(photo(at: "/lib/a.jpg")?.id)
        files["/lib/a.jpg"] = nil
        files["/lib/2024/renamed.jpg"] = data

        let summary = try await importLibrary()

        XCTAssertEqual(summary.moved, 1)
        XCTAssertEqual(summary.imported, 0)
        XCTAssertEqual(catalogue.allPhotos.map(\.path), ["/lib/2024/renamed.jpg"])
        XCTAssertEqual(catalogue.allPhotos.first?.id, id)
        XCTAssertEqual(codec.decodeCount, 1, "a known hash is not decoded again")
    }

    func testANewLibraryLooksUpNoContentAndAKnownOneLooksUpEachNewFile() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/b.jpg"] = FakePhoto.data(seed: "b")
        files["/lib/copy/b.jpg"] = FakePhoto.data(seed: "b")

        let first = try await importLibrary(jobs: 1, batchSize: 1)

        XCTAssertEqual(catalogue.contentLookups, 0, "nothing is known yet")
        XCTAssertEqual([first.imported, first.duplicates], [2, 1], "the copy is still a duplicate")
        XCTAssertEqual(photo(at: "/lib/b.jpg")?.duplicatePaths, ["/lib/copy/b.jpg"])
        XCTAssertEqual(codec.decodeCount, 2, "content met earlier in the import is not decoded again")

        files["/lib/2025/a.jpg"] = files["/lib/a.jpg"]
        files["/lib/a.jpg"] = nil
        files["/lib/c.jpg"] = FakePhoto.data(seed: "c")
        let decodedBefore = codec.decodeCount

        let second = try await importLibrary()

        XCTAssertEqual(catalogue.contentLookups, 2, "the moved file and the new one")
        XCTAssertEqual([second.moved, second.imported], [1, 1])
        XCTAssertEqual(codec.decodeCount, decodedBefore + 1, "only the new content is decoded")
    }

    func testTheSameContentAtTwoPathsIsOnePhotoWithTheDuplicateNoted() async throws {
        let data = FakePhoto.data(seed: "same")
        files["/lib/a.jpg"] = data
        files["/lib/copy/a.jpg"] = data

        let summary = try await importLibrary(jobs: 1)

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.duplicates, 1)
        XCTAssertEqual(catalogue.allPhotos.count, 1)
        XCTAssertEqual(catalogue.allPhotos.first?.path, "/lib/a.jpg")
        XCTAssertEqual(catalogue.allPhotos.first?.duplicatePaths, ["/lib/copy/a.jpg"])

        let again = try await importLibrary()
        XCTAssertEqual(again.unchanged, 2, "both paths are known")
    }

    func testWhenTheOriginalGoesItsDuplicateTakesOver() async throws {
        let data = FakePhoto.data(seed: "same")
        files["/lib/a.jpg"] = data
        files["/lib/b.jpg"] = data
        _ = try await importLibrary(jobs: 1)
        files["/lib/a.jpg"] = FakePhoto.data(seed: "different now")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(catalogue.allPhotos.count, 2)
        XCTAssertEqual(photo(at: "/lib/b.jpg")?.duplicatePaths, [])
    }

    func testACopyExaminedFirstLeavesTheEarlierFileItsOwnExaminationAndTheOriginalsPlace() async throws {
        /// Each job runs on a thread of its own, and the read of the earlier file (in walk order) waits
        /// until another job has finished: the later copy is met first whichever job the task group
        /// starts first. The wait yields the thread a bounded number of times, with no clock: were the
        /// service to run the two jobs one after the other, the test would fail on the order, not hang.
        final class ThreadPerJob: JobRunner, @unchecked Sendable {
            private let lock = NSLock()
            private var finished = 0
            var anyFinished: Bool { lock.withLock { finished > 0 } }
            func run<Output: Sendable>(_ job: @escaping @Sendable () -> Output) async -> Output {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        let output = job()
                        self.lock.withLock { self.finished += 1 }
                        continuation.resume(returning: output)
                    }
                }
            }
        }
        let runner = ThreadPerJob()
        files.beforeRead = { path in
            guard path == "/lib/a.jpg" else { return }
            var turns = 0
            while !runner.anyFinished, turns < 10_000_000 {
                turns += 1
                sched_yield()
            }
        }
        let data = FakePhoto.data(seed: "same")
        files["/lib/a.jpg"] = data
        files["/lib/b.jpg"] = data
        let summary = try await service(jobRunner: runner).importPhotos(from: ["/lib"], options: ImportOptions(jobs: 2))

        XCTAssertEqual(files.readPaths, ["/lib/b.jpg", "/lib/a.jpg"], "the later copy was met first, as the test means")
        XCTAssertEqual([summary.imported, summary.duplicates], [1, 1])
        XCTAssertEqual(catalogue.allPhotos.first?.path, "/lib/a.jpg", "the first in walk order is the original")
        XCTAssertEqual(catalogue.allPhotos.first?.duplicatePaths, ["/lib/b.jpg"])
        XCTAssertEqual(files.readPaths.sorted(), ["/lib/a.jpg", "/lib/b.jpg"], "each read once: none examined again while written")
    }

    func testTwoCopiesOfABrokenFileBothFail() async throws {
        let broken = FakePhoto.broken(reason: "corrupt JPEG data: the file ends too early")
        files["/lib/cut.jpg"] = broken
        files["/lib/copy/cut.jpg"] = broken

        // One job: the copy, first in walk order, fails; the other is met as known content and examined again.
        let summary = try await importLibrary(jobs: 1)

        XCTAssertEqual(summary.imported, 0)
        XCTAssertEqual(summary.failures.map(\.path).sorted(), ["/lib/copy/cut.jpg", "/lib/cut.jpg"])
        XCTAssertEqual(Set(summary.failures.map(\.reason)).count, 1, "the same reason for both")
    }

    // MARK: Failures and other files

    func testBrokenFilesAreRecordedWithTheirReasonAndTheRestIsImported() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/cut.jpg"] = FakePhoto.broken(reason: "corrupt JPEG data: the file ends too early")
        files["/lib/empty.png"] = Data()
        files["/lib/text.jpg"] = Data("hello".utf8)

        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.failures.map(\.path).sorted(), ["/lib/cut.jpg", "/lib/empty.png", "/lib/text.jpg"])
        let reasons = Dictionary(uniqueKeysWithValues: try catalogue.failures().map { ($0.path, $0.reason) })
        XCTAssertEqual(reasons["/lib/cut.jpg"], "corrupt JPEG data: the file ends too early")
        XCTAssertEqual(reasons["/lib/empty.png"], "the file is empty")
        XCTAssertEqual(reasons["/lib/text.jpg"], "named like a photo, but not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
    }

    func testOtherFilesAreSkippedSilentlyAndCounted() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/notes.txt"] = Data("shopping list".utf8)
        files["/lib/movie.mov"] = Data([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70])

        let summary = try await importLibrary()

        XCTAssertEqual(summary.skipped, 2)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertEqual(summary.imported, 1)
    }

    func testALargeFileIsJudgedByItsFirstBytesBeforeItIsReadWhole() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/movie.mov"] = Data([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x71, 0x74, 0x20, 0x20])
        files["/lib/big.jpg"] = Data("not a jpeg at all".utf8)
        let gigabytes = FileStamp(size: 3 << 30, modifiedAtNanoseconds: 1)
        files.setStamp(gigabytes, for: "/lib/movie.mov")
        files.setStamp(gigabytes, for: "/lib/big.jpg")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertEqual(summary.failures.map(\.path), ["/lib/big.jpg"])
        XCTAssertEqual(files.headReads.sorted(), ["/lib/big.jpg", "/lib/movie.mov"])
        XCTAssertEqual(files.readPaths, ["/lib/a.jpg"], "a video of gigabytes is not read whole to be skipped")
    }

    func testPhotosInFormatsNotReadYetAreNamedApartFromOtherFiles() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/phone/IMG_0001.CR3"] = Data([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 0])
        files["/lib/phone/IMG_0002.ORF"] = Data([0x49, 0x49, 0x52, 0x4F, 8, 0, 0, 0])
        files["/lib/raw/DSC_0001.NEF"] = Data([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        files["/lib/notes.txt"] = Data("shopping list".utf8)

        let summary = try await importLibrary()

        XCTAssertEqual(summary.unsupported, [
            UnsupportedFile(path: "/lib/phone/IMG_0001.CR3", format: "camera raw (CR3)"),
            UnsupportedFile(path: "/lib/phone/IMG_0002.ORF", format: "camera raw (ORF)"),
            UnsupportedFile(path: "/lib/raw/DSC_0001.NEF", format: "camera raw (NEF)"),
        ])
        XCTAssertEqual(summary.skipped, 1, "only the text file is not a photo")
        XCTAssertEqual(summary.failed, 0, "a photo in another format is not a broken photo")
        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(try catalogue.failures(), [])
        XCTAssertEqual(try catalogue.knownStamps().count, 1, "read again by the next import, when a decoder may exist")
    }

    func testAPNGNamedJPGIsImportedByItsContent() async throws {
        files["/lib/photo.png.jpg"] = FakePhoto.data(seed: "x")
        let summary = try await importLibrary()
        XCTAssertEqual(summary.imported, 1)
    }

    func testAFixedFileLeavesTheFailureList() async throws {
        files["/lib/a.jpg"] = FakePhoto.broken(reason: "bad")
        _ = try await importLibrary()
        XCTAssertEqual(try catalogue.failures().count, 1)
        files["/lib/a.jpg"] = FakePhoto.data(seed: "repaired")

        let summary = try await importLibrary()

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(try catalogue.failures(), [])
    }

    func testUnreadableFilesAndWalkProblemsAreFailures() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files.walkProblems = [WalkProblem(path: "/lib/loop", reason: "symbolic link loop: this folder contains itself")]
        let summary = try await importLibrary()
        XCTAssertEqual(summary.failures.map(\.reason), ["symbolic link loop: this folder contains itself"])
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/lib/loop"])
    }

    // MARK: Interruption, concurrency, progress

    func testAnInterruptedImportKeepsWhatItWroteAndTheNextRunFinishes() async throws {
        for index in 0..<10 { files["/lib/\(index).jpg"] = FakePhoto.data(seed: "\(index)") }
        catalogue.failingWrite = 3

        do {
            _ = try await importLibrary(jobs: 1, batchSize: 3)
            XCTFail("the third write was to fail")
        } catch is FakeCatalogue.InjectedFailure {}

        XCTAssertEqual(catalogue.allPhotos.count, 6, "two batches of three were committed")
        catalogue.failingWrite = nil
        files.resetReads()

        let summary = try await importLibrary(jobs: 1, batchSize: 3)

        XCTAssertEqual(summary.unchanged, 6)
        XCTAssertEqual(summary.imported, 4)
        XCTAssertEqual(files.readPaths.count, 4, "only what was not committed is read again")
        XCTAssertEqual(Set(catalogue.allPhotos.map(\.path)), Set((0..<10).map { "/lib/\($0).jpg" }))
    }

    func testFilesAreExaminedInParallel() async throws {
        for index in 0..<6 { files["/lib/\(index).jpg"] = FakePhoto.data(seed: "\(index)") }

        let summary = try await importLibrary(jobs: 2)

        XCTAssertEqual(summary.imported, 6)
        XCTAssertEqual(jobRunner.maximumInFlight, 2)
    }

    func testOneJobExaminesOneFileAtATimeAndGivesTheSameCatalogue() async throws {
        for index in 0..<8 { files["/lib/\(index).jpg"] = FakePhoto.data(seed: "\(index % 6)") }

        let summary = try await importLibrary(jobs: 1, batchSize: 2)

        XCTAssertEqual(jobRunner.maximumInFlight, 1, "each file waited for another to start, and none did")
        XCTAssertEqual(summary.imported, 6)
        XCTAssertEqual(summary.duplicates, 2)
        XCTAssertEqual(catalogue.writes, 4)
    }

    func testLargerFilesAreExaminedFirstWithinEachWindowAndWrittenInWalkOrder() async throws {
        // Sizes in walk order: a 10, b 30, c 20, d 20, e 50, f 5.
        for (name, size) in [("a", 10), ("b", 30), ("c", 20), ("d", 20), ("e", 50), ("f", 5)] {
            files["/lib/\(name).jpg"] = FakePhoto.data(seed: name)
            files.setStamp(FileStamp(size: Int64(size), modifiedAtNanoseconds: 1), for: "/lib/\(name).jpg")
        }

        let summary = try await importLibrary(jobs: 1, batchSize: 2, largestFirstWindow: 4)

        XCTAssertEqual(files.readPaths, ["b", "c", "d", "a", "e", "f"].map { "/lib/\($0).jpg" },
                       "the first four largest first (equal sizes in walk order), then the last two")
        XCTAssertEqual(summary.imported, 6)
        XCTAssertEqual(catalogue.allPhotos.map(\.path), ["a", "b", "c", "d", "e", "f"].map { "/lib/\($0).jpg" },
                       "ids follow walk order")
    }

    func testProgressIsReportedUpToTheTotal() async throws {
        for index in 0..<3 { files["/lib/\(index).jpg"] = FakePhoto.data(seed: "\(index)") }
        let progress = SpyProgress()

        _ = try await importLibrary(progress: progress)

        XCTAssertEqual(progress.updates.first?.completed, 0)
        XCTAssertEqual(progress.updates.last?.completed, 3)
        XCTAssertTrue(progress.updates.allSatisfy { $0.total == 3 })
        XCTAssertTrue(progress.finished)
    }

    func testTheSummaryTimesTheWholeImport() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        let progress = SpyProgress { [clock] in clock.advance(by: 0.5) }
        let summary = try await importLibrary(progress: progress)
        XCTAssertEqual(summary.seconds, 1.0, accuracy: 1e-9) // two updates of half a second each
    }

    func testOptionsAreKeptSensible() {
        XCTAssertEqual(ImportOptions(jobs: 0, batchSize: 0).jobs, 1)
        XCTAssertEqual(ImportOptions(jobs: 0, batchSize: 0).batchSize, 1)
        XCTAssertEqual(ImportOptions(largestFirstWindow: 0).largestFirstWindow, 1)
        XCTAssertGreaterThanOrEqual(ImportOptions().jobs, 1)
    }
}

/// Records progress reports; runs `onUpdate` at each.
final class SpyProgress: ImportProgress, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(completed: Int, total: Int)] = []
    private var done = false
    private let onUpdate: () -> Void

    init(onUpdate: @escaping () -> Void = {}) {
        self.onUpdate = onUpdate
    }

    func update(completed: Int, total: Int) {
        lock.withLock { recorded.append((completed, total)) }
        onUpdate()
    }

    func finish() { lock.withLock { done = true } }

    var updates: [(completed: Int, total: Int)] { lock.withLock { recorded } }
    var finished: Bool { lock.withLock { done } }
}
