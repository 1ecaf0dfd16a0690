import Catalogue
import ColourScience
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

final class ProcessingServiceTests: XCTestCase {
    let files = FakeFileSystem()
    let codec = FakePhotoCodec()
    let encoder = RecordingEncoder()
    let catalogue = FakeCatalogue()
    let clock = FakeClock()
    /// Shows how many photos were processed at once.
    let jobRunner = OverlapProbe(meeting: 2)

    func service() -> ProcessingService {
        ProcessingService(fileSystem: files, decoder: codec, encoder: encoder, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                          catalogue: catalogue, clock: clock, jobRunner: jobRunner, libraryDirectory: "/library")
    }

    /// Imports fake photos through the import service, so they carry real colour analyses.
    func importPhotos(_ photos: [String: Data]) async throws -> [CataloguedPhoto] {
        for (path, data) in photos { files[path] = data }
        _ = try await ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                    catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner()).importPhotos(from: ["/photos"])
        return catalogue.allPhotos
    }

    func testMakesAShowAndAHideVariantFromTheAccentAndRecordsThem() async throws {
        let photos = try await importPhotos(["/photos/red.jpg": FakePhoto.data(width: 40, height: 30, seed: "r", colour: "#D01020")])

        let summary = try await service().process(photos)

        XCTAssertEqual(summary.made.map(\.kind), ["hide", "show"])
        XCTAssertEqual(summary.unchanged, 0)
        let show = try XCTUnwrap(summary.made.first { $0.kind == "show" })
        XCTAssertEqual(show.pixelSize, PixelSize(width: 40, height: 30), "full resolution")
        let sha = photos[0].facts.sha256
        XCTAssertTrue(show.path.hasPrefix("/library/variants/\(sha.prefix(2))/\(sha)/show-"), show.path)
        XCTAssertTrue(show.path.hasSuffix(".jpg"))
        let written = try XCTUnwrap(files[show.path], "the file is in place")
        XCTAssertEqual(show.sha256, CryptoHasher().sha256(written))
        XCTAssertEqual(show.fileSize, Int64(written.count))
        XCTAssertEqual(catalogue.variants.count, 2)
        XCTAssertTrue(show.parameters.contains("\"quality\":90"), show.parameters)
        // The red photo's show keeps red; its hide is grey.
        XCTAssertEqual(encoder.encoded.map(\.format), [.jpeg, .jpeg])
        XCTAssertEqual(encoder.encoded.map(\.options.quality), [90, 90])
        let images = encoder.encoded.map { $0.image[20, 15] }
        XCTAssertTrue(images.contains(RGBA(red: 0xD0, green: 0x10, blue: 0x20)), "\(images)")
        XCTAssertTrue(images.contains { $0.red == $0.green && $0.green == $0.blue }, "\(images)")
        // Each is marked as the picture it is, so that no copy of it is ever imported as a photo.
        for encoded in encoder.encoded {
            let kept = encoded.image[20, 15] == RGBA(red: 0xD0, green: 0x10, blue: 0x20)
            XCTAssertEqual(encoded.options.xmp, ShowhidePictureMark.packet(kept ? "show" : "hide"))
        }
    }

    func testAHEIFPhotosVariantsAreJPEGsWithItsUprightEXIF() async throws {
        let photos = try await importPhotos(["/photos/phone.heic": FakePhoto.data(width: 40, height: 30, seed: "h", colour: "#D01020",
                                                                                  format: .heif)])

        let summary = try await service().process(photos)

        XCTAssertEqual(summary.made.map(\.kind), ["hide", "show"])
        XCTAssertTrue(summary.made.allSatisfy { $0.path.hasSuffix(".jpg") }, "\(summary.made.map(\.path))")
        XCTAssertEqual(encoder.encoded.map(\.format), [.jpeg, .jpeg])
        XCTAssertEqual(encoder.encoded.map(\.options.quality), [90, 90])
        XCTAssertTrue(summary.made.allSatisfy { $0.parameters.contains("\"quality\":90") })
    }

    func testAWebPPhotosVariantsAreWebPsWithItsUprightEXIFAndATIFFsAreJPEGs() async throws {
        let photos = try await importPhotos([
            "/photos/sticker.webp": FakePhoto.data(width: 40, height: 30, seed: "w", colour: "#D01020", format: .webp),
            "/photos/scan.tif": FakePhoto.data(width: 40, height: 30, seed: "t", colour: "#1F5AA6", format: .tiff),
        ])
        let processing = ProcessingService(fileSystem: files, decoder: codec, encoder: encoder, exifReader: GPSExifReader(),
                                           hasher: CryptoHasher(), catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(),
                                           libraryDirectory: "/library")

        let summary = try await processing.process(photos)

        let formats = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0.facts.format) })
        XCTAssertEqual(Set(summary.made.map { "\(formats[$0.photoID]!.rawValue) → \(($0.path as NSString).pathExtension)" }),
                       ["webp → webp", "tiff → jpg"])
        XCTAssertEqual(summary.made.count, 4)
        XCTAssertEqual(encoder.encoded.map(\.format).sorted { $0.rawValue < $1.rawValue }, [.jpeg, .jpeg, .webp, .webp])
        XCTAssertEqual(encoder.encoded.map(\.options.exif), [Data]((0..<4).map { _ in Data("block with gps".utf8) }),
                       "both carry the photo's EXIF, turned upright")
    }

    func testTheSamePhotoWithTheSameParametersIsNotProcessedAgain() async throws {
        let photos = try await importPhotos(["/photos/a.jpg": FakePhoto.data(width: 8, height: 8, seed: "a", colour: "#1F5AA6")])
        _ = try await service().process(photos)
        let decodes = codec.decodeCount

        let again = try await service().process(photos)

        XCTAssertEqual(again.made, [])
        XCTAssertEqual(again.unchanged, 2)
        XCTAssertEqual(codec.decodeCount, decodes, "nothing decoded")
    }

    func testNewParametersMakeNewVariantsAndKeepTheOldOnes() async throws {
        let photos = try await importPhotos(["/photos/a.jpg": FakePhoto.data(width: 8, height: 8, seed: "a", colour: "#1F5AA6")])
        _ = try await service().process(photos)

        let wider = try await service().process(photos, options: ProcessingOptions(tolerance: 30))

        XCTAssertEqual(wider.made.count, 2)
        XCTAssertEqual(catalogue.variants.count, 4)
        XCTAssertEqual(Set(catalogue.variants.map(\.path)).count, 4, "each parameter set has its own files")
    }

    func testAMissingVariantFileIsMadeAgain() async throws {
        let photos = try await importPhotos(["/photos/a.jpg": FakePhoto.data(width: 8, height: 8, seed: "a", colour: "#1F5AA6")])
        let first = try await service().process(photos)
        files[first.made[0].path] = nil

        let again = try await service().process(photos)

        XCTAssertEqual(again.made.map(\.kind), [first.made[0].kind])
        XCTAssertEqual(again.unchanged, 1)
    }

    func testAPhotoWithoutAnAccentIsSkippedUnlessATargetIsGiven() async throws {
        let photos = try await importPhotos(["/photos/fog.jpg": FakePhoto.data(width: 8, height: 8, seed: "f", colour: "#808080")])

        let summary = try await service().process(photos)
        XCTAssertEqual(summary.made, [])
        XCTAssertEqual(summary.skipped.map(\.reason), ["no accent colour (no colour stands out)"])

        let given = try await service().process(photos, options: ProcessingOptions(target: .hue(30), kinds: [.show]))
        XCTAssertEqual(given.made.map(\.kind), ["show"])
        XCTAssertTrue(given.made[0].parameters.contains("\"hue\":30"))
    }

    func testAPhotoThatChangedOrVanishedFailsAndTheOthersAreProcessed() async throws {
        let photos = try await importPhotos([
            "/photos/a.jpg": FakePhoto.data(width: 8, height: 8, seed: "a", colour: "#D01020"),
            "/photos/b.jpg": FakePhoto.data(width: 8, height: 8, seed: "b", colour: "#D01020"),
            "/photos/c.jpg": FakePhoto.data(width: 8, height: 8, seed: "c", colour: "#D01020"),
        ])
        files["/photos/a.jpg"] = FakePhoto.data(width: 8, height: 8, seed: "edited", colour: "#D01020")
        files["/photos/b.jpg"] = nil
        files.expectedMissing = ["/photos/b.jpg"]

        let summary = try await service().process(photos)

        XCTAssertEqual(summary.failures.map(\.path), ["/photos/a.jpg", "/photos/b.jpg"])
        XCTAssertEqual(summary.failures[0].reason, "the file has changed since it was imported: import it again first")
        XCTAssertEqual(summary.failures[1].reason, "the file is gone: import its new place, or forget it with showhide gallery remove 2")
        XCTAssertEqual(Set(summary.made.map(\.photoID)), [photos[2].id])
    }

    func testAPhotoRemovedWhileItIsProcessedLeavesNoVariantBehind() async throws {
        let photos = try await importPhotos(["/photos/red.jpg": FakePhoto.data(width: 40, height: 30, seed: "r", colour: "#D01020")])
        try catalogue.write { try $0.removePhoto(photos[0].id) }  // `gallery remove` in another shell

        let summary = try await service().process(photos)

        XCTAssertEqual(summary.made.count, 0)
        XCTAssertEqual(summary.failures.count, 0, "not a failure of the photo's")
        XCTAssertEqual(summary.skipped.map(\.reason), ["removed from the catalogue while it was processed"])
        XCTAssertEqual(files.walk(["/library"]).files.map(\.path), [], "no stray variant file")
        let sha256 = photos[0].facts.sha256
        XCTAssertEqual(files.removedFolders, ["/library/variants/\(sha256.prefix(2))/\(sha256)", "/library/variants/\(sha256.prefix(2))"],
                       "nor the folders it was written in")
    }

    func testAVariantFileCutShortIsMadeAgain() async throws {
        // A power cut after the rename, before the disk had the bytes, leaves an empty file under the name.
        let photos = try await importPhotos(["/photos/red.jpg": FakePhoto.data(width: 40, height: 30, seed: "r", colour: "#D01020")])
        let first = try await service().process(photos)
        let show = try XCTUnwrap(first.made.first { $0.kind == "show" })
        let whole = try XCTUnwrap(files[show.path])
        files[show.path] = Data()
        let again = try await service().process(photos)
        XCTAssertEqual(again.made.map(\.path), [show.path])
        XCTAssertEqual(again.unchanged, 1, "the hide variant, whole, stays")
        XCTAssertEqual(files[show.path], whole)
    }

    func testVariantsAnotherRunMadeMeanwhileAreNotCountedTwice() async throws {
        let photos = try await importPhotos(["/photos/red.jpg": FakePhoto.data(width: 40, height: 30, seed: "r", colour: "#D01020")])
        let first = try await service().process(photos)
        XCTAssertEqual(first.made.count, 2)
        // Two runs at once: both find no row; the other records the same files while this one reads the photo.
        for variant in first.made { try catalogue.write { try $0.removeVariant(atPath: variant.path) } }
        let catalogue = self.catalogue
        files.beforeRead = { path in
            guard path == "/photos/red.jpg" else { return }
            for variant in first.made { try? catalogue.recordVariant(variant) }
        }

        let second = try await service().process(photos)

        XCTAssertEqual(second.made.count, 0, "the other run counted them")
        XCTAssertEqual(second.unchanged, 2)
        XCTAssertEqual(catalogue.variants.count, 2)

        // A row whose file was lost is made again, and counted.
        files.beforeRead = nil
        try files.remove(first.made[0].path)
        let third = try await service().process(photos)
        XCTAssertEqual(third.made.map(\.path), [first.made[0].path])

        // Lost again, and made again by two runs at once: the other one counts it.
        try files.remove(first.made[0].path)
        let remade = third.made[0]
        files.beforeRead = { path in
            guard path == "/photos/red.jpg" else { return }
            var other = remade
            other.createdAt = remade.createdAt.addingTimeInterval(1)
            try? catalogue.recordVariant(other)
        }
        let fourth = try await service().process(photos)
        XCTAssertEqual([fourth.made.count, fourth.unchanged], [0, 2])
    }

    func testLeftoverTemporaryFilesOfThePhotosProcessedAreRemovedWhenNoProcessIsWritingThem() async throws {
        let photos = try await importPhotos(["/photos/red.jpg": FakePhoto.data(width: 8, height: 8, seed: "red", colour: "#D01020")])
        let folder = VariantSpec.folder(ofContent: photos[0].facts.sha256, inVariants: "/library/variants")
        let abandoned = folder + "/show-1.jpg.1234" + partialFileSuffix, beingWritten = folder + "/hide-1.jpg.5678" + partialFileSuffix
        let otherPhotos = "/library/variants/ab/abc/show-1.jpg.1234" + partialFileSuffix
        for path in [abandoned, beingWritten, otherPhotos] { files[path] = Data("half".utf8) }
        files["/library/variants/ab/abc/show-1.jpg"] = Data("whole".utf8)
        files.beingWritten = [beingWritten]

        _ = try await service().process(photos)
        XCTAssertNil(files[abandoned], "a crash's leftover")
        XCTAssertNotNil(files[beingWritten], "another process's, being written: not to be taken from under it")
        XCTAssertNotNil(files[otherPhotos], "another photo's folder is not walked: check --repair removes it")
        XCTAssertNotNil(files["/library/variants/ab/abc/show-1.jpg"])
    }

    func testNoPhotoIsStartedOnceAVariantCannotBeWrittenForWantOfRoom() async throws {
        // Before, each photo failed in turn, one line each, and a full disk was one failure among many.
        var photos: [String: Data] = [:]
        for index in 0..<4 { photos["/photos/\(index).jpg"] = FakePhoto.data(width: 8, height: 8, seed: "\(index)", colour: "#D01020") }
        let catalogued = try await importPhotos(photos)
        files.writeFailure = FileWriteError("cannot write /library/variants/x.jpg", reason: "no space left on device")
        let summary = try await service().process(catalogued, options: ProcessingOptions(jobs: 1))
        // The next photo is started as the first one's result comes in (import writes its batch meanwhile):
        // it fails too, and none after it is started.
        XCTAssertEqual(summary.failures.map(\.reason), Array(repeating: "cannot write /library/variants/x.jpg: no space left on device", count: 2))
        XCTAssertEqual(summary.stoppedForRoom, "cannot write /library/variants/x.jpg: no space left on device")
        XCTAssertEqual([summary.photosDone, summary.made.count], [2, 0])
        XCTAssertFalse(summary.interrupted, "stopped by the disk, not by the user")

        files.writeFailure = FileWriteError("cannot write /library/variants/x.jpg", reason: "input/output error")
        let other = try await service().process(catalogued, options: ProcessingOptions(jobs: 1))
        XCTAssertEqual([other.failures.count, other.photosDone], [4, 4], "another reason fails each photo alone")
        XCTAssertNil(other.stoppedForRoom)
    }

    func testPhotosAreProcessedInParallelAndProgressReachesTheEnd() async throws {
        var photos: [String: Data] = [:]
        for index in 0..<4 { photos["/photos/\(index).jpg"] = FakePhoto.data(width: 8, height: 8, seed: "\(index)", colour: "#D01020") }
        let catalogued = try await importPhotos(photos)
        let progress = SpyProgress()

        let summary = try await service().process(catalogued, options: ProcessingOptions(jobs: 2), progress: progress)

        XCTAssertEqual(jobRunner.maximumInFlight, 2)
        XCTAssertEqual(summary.made.count, 8)
        XCTAssertEqual(progress.updates.last?.completed, 4)
        XCTAssertTrue(progress.finished)
    }

    func testOneJobProcessesOnePhotoAtATime() async throws {
        var photos: [String: Data] = [:]
        for index in 0..<3 { photos["/photos/\(index).jpg"] = FakePhoto.data(width: 8, height: 8, seed: "\(index)", colour: "#D01020") }
        let catalogued = try await importPhotos(photos)

        let summary = try await service().process(catalogued, options: ProcessingOptions(jobs: 1))

        XCTAssertEqual(summary.made.count, 6)
        XCTAssertEqual(jobRunner.maximumInFlight, 1)
    }
}
