import Catalogue
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

final class CatalogueCheckTests: XCTestCase {
    let files = FakeFileSystem()
    let codec = FakePhotoCodec()
    let catalogue = FakeCatalogue()
    let clock = FakeClock()
    let cache = FakeThumbnailCache()
    lazy var thumbnails = ThumbnailStore(cache: cache, fileSystem: files, decoder: codec, encoder: RecordingEncoder())

    /// Three red photos imported and processed (two variants each).
    func library() async throws -> [CataloguedPhoto] {
        for name in ["a", "b", "c"] {
            files["/photos/\(name).jpg"] = FakePhoto.data(width: 8, height: 6, seed: name, colour: "#D01020")
        }
        _ = try await ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                    catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner())
            .importPhotos(from: ["/photos"])
        let photos = catalogue.allPhotos
        for photo in photos { _ = try thumbnails.thumbnail(of: photo) }
        _ = try await ProcessingService(fileSystem: files, decoder: codec, encoder: RecordingEncoder(), exifReader: FakeExifReader(),
                                        hasher: CryptoHasher(), catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(), libraryDirectory: "/library")
            .process(photos)
        return photos
    }

    func check() -> CatalogueCheck {
        CatalogueCheck(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library", thumbnails: thumbnails, clock: clock)
    }

    func testAHealthyCatalogueIsClean() async throws {
        _ = try await library()
        let report = try check().run(repair: false)
        XCTAssertEqual(report.photos, 3)
        XCTAssertEqual(report.integrity, "ok")
        XCTAssertTrue(report.isClean)
        XCTAssertEqual(report.strayVariantFiles, [])
        XCTAssertEqual(report.missingThumbnails, [])
        XCTAssertEqual(report.strayThumbnails, [])
    }

    func testMissingAndStrayThumbnailsAreReportedAndARepairMendsThem() async throws {
        let photos = try await library()
        try cache.forget([photos[1].facts.sha256])
        let stray = String(repeating: "f", count: 64)
        try cache.keep([stray: Data("old".utf8)])
        // A file of the folder an earlier showhide kept thumbnails in.
        let oldFile = "/library/thumbnails/ab/" + String(repeating: "a", count: 64) + ".jpg"
        files[oldFile] = Data("old".utf8)

        let report = try check().run(repair: false)
        XCTAssertEqual(report.missingThumbnails, [.init(id: photos[1].id, path: photos[1].path)])
        XCTAssertEqual(report.strayThumbnails, [stray, oldFile])
        XCTAssertTrue(report.isClean, "a thumbnail is a cache: nothing is wrong without it")
        XCTAssertNil(cache.jpegs[photos[1].facts.sha256], "nothing made without --repair")
        XCTAssertNotNil(cache.jpegs[stray], "nothing removed without --repair")

        let repaired = try check().run(repair: true)
        XCTAssertEqual(repaired.madeThumbnails, 1)
        XCTAssertEqual(repaired.removedStrayThumbnails, 2)
        XCTAssertTrue(repaired.isClean)
        XCTAssertNotNil(cache.jpegs[photos[1].facts.sha256])
        XCTAssertNil(cache.jpegs[stray])
        XCTAssertNil(files[oldFile])
        let again = try check().run(repair: false)
        XCTAssertEqual(again.missingThumbnails, [])
        XCTAssertEqual(again.strayThumbnails, [])
    }

    func testACacheThatCannotBeReadHasEveryThumbnailMissingAndLosesNothingElse() async throws {
        _ = try await library()
        cache.failing = true
        let report = try check().run(repair: false)
        XCTAssertEqual(report.missingThumbnails.count, 3)
        XCTAssertEqual(report.unreadableThumbnails, "/library/thumbnails.sqlite is damaged")
        XCTAssertTrue(report.isClean)
        XCTAssertTrue(cache.failing, "nothing remade without --repair")

        let repaired = try check().run(repair: true)
        XCTAssertEqual(repaired.madeThumbnails, 3, "the cache made anew, and filled")
        XCTAssertEqual(cache.jpegs.count, 3)
        let again = try check().run(repair: false)
        XCTAssertNil(again.unreadableThumbnails)
        XCTAssertEqual(again.missingThumbnails, [])
    }

    func testACacheThatIsBusyOrOnAFullDiskIsNotMadeAnewByARepair() async throws {
        // Reset, it lost every thumbnail a running gallery or import had open, for a moment's lock.
        _ = try await library()
        cache.failing = true
        for failure in [CatalogueError.busy(path: "/library/thumbnails.sqlite"), .diskFull(path: "/library/thumbnails.sqlite")] {
            cache.failure = failure
            let report = try check().run(repair: true)
            XCTAssertEqual(report.unreadableThumbnails, failure.plainDescription)
            XCTAssertFalse(report.thumbnailsDamaged)
            XCTAssertEqual([cache.resets, report.madeThumbnails], [0, 0], "\(failure)")
            XCTAssertTrue(cache.failing)
        }
        cache.failure = .damaged(path: "/library/thumbnails.sqlite")
        XCTAssertTrue(try check().run(repair: false).thumbnailsDamaged)
    }

    func testFindsEveryKindOfProblemAndChangesNothingUnlessAskedToRepair() async throws {
        let photos = try await library()
        try files.remove("/photos/a.jpg")
        files.setStamp(FileStamp(size: 99, modifiedAtNanoseconds: 5), for: "/photos/b.jpg")
        let lost = try XCTUnwrap(catalogue.variants.first { $0.photoID == photos[2].id })
        try files.remove(lost.path)
        files["/library/variants/ab/stray.jpg"] = Data("stray".utf8)
        let writes = files.writtenPaths.count

        let report = try check().run(repair: false)

        XCTAssertEqual(report.missingPhotos, [.init(id: photos[0].id, path: "/photos/a.jpg")])
        XCTAssertEqual(report.changedPhotos, [.init(id: photos[1].id, path: "/photos/b.jpg")])
        XCTAssertEqual(report.variantsWithoutFiles.map(\.path), [lost.path])
        XCTAssertEqual(report.recordedElsewhere, [], "this library's own row, its file gone")
        XCTAssertEqual(report.strayVariantFiles, ["/library/variants/ab/stray.jpg"])
        XCTAssertTrue(report.isSound)
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(catalogue.variants.count, 6, "nothing removed without --repair")
        XCTAssertNotNil(files["/library/variants/ab/stray.jpg"])
        XCTAssertEqual(files.writtenPaths.count, writes)

        let repaired = try check().run(repair: true)
        XCTAssertEqual(repaired.removedVariantRows, 1)
        XCTAssertEqual(repaired.removedStrayFiles, 1)
        XCTAssertEqual(catalogue.variants.count, 5)
        XCTAssertNil(files["/library/variants/ab/stray.jpg"])
        XCTAssertEqual(files.removedFolders, ["/library/variants/ab"], "the folder it leaves empty")
        XCTAssertEqual(catalogue.allPhotos.count, 3, "photos are never removed: the drive may be unmounted")
        XCTAssertFalse(repaired.isClean, "the missing and changed photos are still there to be dealt with")
    }

    /// The library folder moved: every variant file from `/library` to `/moved`, the rows still naming the old place.
    func moveLibrary() throws {
        for file in files.walk(["/library/variants"]).files {
            files["/moved" + file.path.dropFirst("/library".count)] = files[file.path]
            try files.remove(file.path)
        }
    }

    func testAFileWrittenInTheLastMinutesIsOneBeingMadeAndARepairLeavesIt() async throws {
        _ = try await library()
        // A running `process` writes a variant's file, then records it: between the two it is no stray.
        files["/library/variants/ab/being-made.jpg"] = Data("new".utf8)
        // Nine minutes ago: a large photo's variants take a while, and the check leaves what is under ten minutes old.
        let written = Int64((clock.now().timeIntervalSince1970 - 9 * 60) * 1e9)
        files.setStamp(FileStamp(size: 3, modifiedAtNanoseconds: written), for: "/library/variants/ab/being-made.jpg")
        files["/library/variants/ab/old.jpg"] = Data("old".utf8)
        let tooOld = Int64((clock.now().timeIntervalSince1970 - 10 * 60 - 1) * 1e9)
        files.setStamp(FileStamp(size: 3, modifiedAtNanoseconds: tooOld), for: "/library/variants/ab/old.jpg")

        let repaired = try check().run(repair: true)

        XCTAssertEqual(repaired.strayVariantFiles, ["/library/variants/ab/old.jpg"])
        XCTAssertEqual(repaired.recentUnrecordedFiles, ["/library/variants/ab/being-made.jpg"])
        XCTAssertEqual(repaired.removedStrayFiles, 1)
        XCTAssertNotNil(files["/library/variants/ab/being-made.jpg"], "not taken from under the process making it")
        XCTAssertNil(files["/library/variants/ab/old.jpg"])
        XCTAssertTrue(repaired.isClean)
    }

    func testARepairOfPartOfTheLibraryTakesNoOtherPhotosFilesForStrays() async throws {
        let photos = try await library()
        let others = catalogue.variants.filter { $0.photoID != photos[0].id }.map(\.path)
        try files.remove("/photos/b.jpg")
        files["/photos/b copy.jpg"] = Data("gone too".utf8)
        try catalogue.write { try $0.addDuplicatePath("/photos/b copy.jpg", of: photos[1].id, stamp: FileStamp(size: 8, modifiedAtNanoseconds: 1),
                                                      notedAt: Date()) }
        try catalogue.write { try $0.addDuplicatePath("/photos/b gone.jpg", of: photos[1].id, stamp: FileStamp(size: 8, modifiedAtNanoseconds: 1),
                                                      notedAt: Date()) }

        let repaired = try check().run(repair: true, scope: PhotoQuery(paths: ["/photos/a.jpg"], sort: .imported))

        XCTAssertEqual(repaired.photos, 1)
        XCTAssertEqual(repaired.strayVariantFiles, [], "the other photos' variants are out of the scope, not strays")
        XCTAssertEqual(repaired.removedStrayFiles, 0)
        XCTAssertEqual(others.count, 4)
        for path in others { XCTAssertNotNil(files[path], path) }
        // The whole library: photo b is missing, with the one copy of it still there.
        let whole = try check().run(repair: false)
        XCTAssertEqual(whole.missingPhotos, [.init(id: photos[1].id, path: "/photos/b.jpg", copies: ["/photos/b copy.jpg"])])
    }

    func testVariantsThatMovedWithTheLibraryAreNeitherMissingNorStrayAndARepairRecordsTheirPlace() async throws {
        _ = try await library()
        try moveLibrary()
        let check = CatalogueCheck(fileSystem: files, catalogue: catalogue, libraryDirectory: "/moved", thumbnails: thumbnails, clock: clock)

        let report = try check.run(repair: false)
        XCTAssertEqual(report.movedVariants.count, 6)
        XCTAssertEqual(report.variantsWithoutFiles, [])
        XCTAssertEqual(report.strayVariantFiles, [], "the moved files are the rows' own")
        XCTAssertFalse(report.isClean)
        XCTAssertTrue(catalogue.variants.allSatisfy { $0.path.hasPrefix("/library/") }, "nothing changed without --repair")

        let repaired = try check.run(repair: true)
        XCTAssertEqual(repaired.movedVariantRows, 6)
        XCTAssertEqual(repaired.removedVariantRows + repaired.removedStrayFiles, 0)
        XCTAssertTrue(repaired.isClean)
        XCTAssertEqual(catalogue.variants.count, 6)
        XCTAssertTrue(catalogue.variants.allSatisfy { $0.path.hasPrefix("/moved/variants/") && files[$0.path] != nil })
        XCTAssertTrue(try check.run(repair: false).isClean)
    }

    func testACopiedLibrarysVariantsAreItsOwnNotStrayWhileTheOriginalStillHoldsItsFiles() async throws {
        // Copied, not moved: the rows name the original library's files, which are still there. A repair of
        // the copy must not take its own files for strays and delete them.
        _ = try await library()
        for file in files.walk(["/library/variants"]).files { files["/copy" + file.path.dropFirst("/library".count)] = files[file.path] }
        let check = CatalogueCheck(fileSystem: files, catalogue: catalogue, libraryDirectory: "/copy", thumbnails: thumbnails, clock: clock)
        let repaired = try check.run(repair: true)
        XCTAssertEqual(repaired.strayVariantFiles, [])
        XCTAssertEqual(repaired.movedVariantRows, 6)
        XCTAssertEqual(files.walk(["/copy/variants"]).files.count, 6)
        XCTAssertTrue(catalogue.variants.allSatisfy { $0.path.hasPrefix("/copy/variants/") })
        XCTAssertEqual(files.walk(["/library/variants"]).files.count, 6, "the original library's files are not touched")
    }

    func testProcessingFindsVariantsThatMovedWithTheLibraryAndMakesNoneAgain() async throws {
        let photos = try await library()
        try moveLibrary()
        let decodes = codec.decodeCount
        let summary = try await ProcessingService(fileSystem: files, decoder: codec, encoder: RecordingEncoder(), exifReader: FakeExifReader(),
                                                  hasher: CryptoHasher(), catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(),
                                                  libraryDirectory: "/moved").process(photos)
        XCTAssertEqual(summary.made.count, 0)
        XCTAssertEqual(summary.unchanged, 6)
        XCTAssertEqual(codec.decodeCount, decodes, "nothing decoded: nothing made again")
        XCTAssertTrue(catalogue.variants.allSatisfy { $0.path.hasPrefix("/moved/variants/") })
    }

    func testARestoredLibrarysVariantsHaveNoFileThoughTheOriginalsAreThereAndARepairLeavesThemAlone() async throws {
        _ = try await library()
        let original = files.walk(["/library/variants"]).files.map(\.path)
        let check = CatalogueCheck(fileSystem: files, catalogue: catalogue, libraryDirectory: "/restored", thumbnails: thumbnails, clock: clock)

        let report = try check.run(repair: false)
        XCTAssertEqual(report.variantsWithoutFiles.count, 6, "the original library's files are not this one's")
        XCTAssertEqual(report.recordedElsewhere, Set(report.variantsWithoutFiles.map(\.path)), "each recorded in the original's folder")
        XCTAssertEqual(report.movedVariants, [])
        let repaired = try check.run(repair: true)
        XCTAssertEqual(repaired.removedVariantRows, 6)
        XCTAssertEqual(files.walk(["/library/variants"]).files.map(\.path), original, "the original library's files are not touched")
    }

    func testProcessingARestoredLibraryMakesItsVariantsInItsOwnFolder() async throws {
        let photos = try await library()
        let original = files.walk(["/library/variants"]).files.map(\.path)
        let summary = try await ProcessingService(fileSystem: files, decoder: codec, encoder: RecordingEncoder(), exifReader: FakeExifReader(),
                                                  hasher: CryptoHasher(), catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(),
                                                  libraryDirectory: "/restored").process(photos)
        XCTAssertEqual(summary.made.count, 6, "the original library's files are not this one's")
        XCTAssertEqual(summary.unchanged, 0)
        XCTAssertTrue(catalogue.variants.allSatisfy { $0.path.hasPrefix("/restored/variants/") && files[$0.path] != nil })
        XCTAssertEqual(files.walk(["/library/variants"]).files.map(\.path), original)
    }

    func testRemovingOrPruningInACopiedLibraryDeletesOnlyItsOwnFiles() async throws {
        let photos = try await library()
        for file in files.walk(["/library/variants"]).files { files["/copy" + file.path.dropFirst("/library".count)] = files[file.path] }
        let original = files.walk(["/library/variants"]).files.map(\.path)

        let first = try XCTUnwrap(try catalogue.photo(id: photos[0].id))
        let removal = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/copy").remove([first])
        XCTAssertEqual(removal.variantFilesDeleted, 2)
        XCTAssertEqual(files.walk(["/copy/variants"]).files.count, 4)
        XCTAssertEqual(files.walk(["/library/variants"]).files.map(\.path), original, "the original library's files are not touched")

        // An older parameter set of photo 2, recorded at the original's place and copied: pruning deletes the copy's.
        let old = try XCTUnwrap(catalogue.variants.first { $0.photoID == photos[1].id })
        var older = old
        older.parameters = "{}"
        older.createdAt = old.createdAt.addingTimeInterval(-60)
        older.path = (old.path as NSString).deletingLastPathComponent + "/show-older.jpg"
        files[older.path] = Data([1])
        files["/copy" + older.path.dropFirst("/library".count)] = Data([1])
        try catalogue.recordVariant(older)
        let pruned = try VariantPruning(fileSystem: files, catalogue: catalogue, libraryDirectory: "/copy").prune(photos: nil)
        XCTAssertEqual(pruned.removed.map(\.path), [older.path])
        XCTAssertNil(files["/copy" + older.path.dropFirst("/library".count)])
        XCTAssertNotNil(files[older.path], "the original library's file is not touched")
    }

    func testARowNamingAFileOutsideTheVariantsFolderHasNoFileHereAndItsFileIsNeverDeleted() async throws {
        let photos = try await library()
        let first = try XCTUnwrap(try catalogue.photo(id: photos[0].id))
        var outside = try XCTUnwrap(first.variants.first)
        outside.path = "/photos/a-show.jpg"
        outside.parameters = "{}"
        files[outside.path] = Data([1])
        try catalogue.recordVariant(outside)
        XCTAssertTrue(try check().run(repair: false).variantsWithoutFiles.contains(outside))
        _ = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library")
            .remove([try XCTUnwrap(try catalogue.photo(id: first.id))])
        XCTAssertNotNil(files[outside.path], "not this library's file to delete")
    }

    func testAMovedVariantIsFoundUnderTheLibrarysVariantsByItsLastThreeParts() {
        let sha = String(repeating: "ab", count: 32)
        XCTAssertEqual(VariantSpec.relocated("/old/lib/variants/ab/\(sha)/show-1.jpg", inVariants: "/new/variants"),
                       "/new/variants/ab/\(sha)/show-1.jpg")
        XCTAssertNil(VariantSpec.relocated("/new/variants/ab/\(sha)/show-1.jpg", inVariants: "/new/variants"), "already there")
        XCTAssertNil(VariantSpec.relocated("/photos/trip/ab/img.jpg", inVariants: "/new/variants"), "no variant's path")
        XCTAssertNil(VariantSpec.relocated("ab/\(sha)", inVariants: "/new/variants"))
        // A hostile row cannot lead out of the variants folder, to have a file read or deleted there.
        XCTAssertNil(VariantSpec.relocated("/x/../..x/passwd", inVariants: "/new/variants"), "not hex folders")
        XCTAssertNil(VariantSpec.file(recordedAt: "/new/variants/ab/../../../etc/passwd", inVariants: "/new/variants"))
        XCTAssertNil(VariantSpec.file(recordedAt: "/new/variants/../photo.jpg", inVariants: "/new/variants"))
        XCTAssertEqual(VariantSpec.file(recordedAt: "/new/variants/7-show.jpg", inVariants: "/new/variants"), "/new/variants/7-show.jpg")
    }

    func testADamagedCatalogueIsReportedAndNeitherWalkedNorRepaired() async throws {
        _ = try await library()
        try files.remove("/photos/a.jpg")
        files["/library/variants/ab/stray.jpg"] = Data("stray".utf8)
        catalogue.integrity = "row 3 missing from index photo_path"

        let report = try check().run(repair: true, forgetMissing: true)

        XCTAssertEqual(report.integrity, "row 3 missing from index photo_path")
        XCTAssertFalse(report.isSound)
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(report.photos, 0, "the photo rows were not read")
        XCTAssertEqual(report.missingPhotos, [])
        XCTAssertEqual(catalogue.allPhotos.count, 3, "nothing forgotten")
        XCTAssertNotNil(files["/library/variants/ab/stray.jpg"], "nothing removed")
    }
}
