import Catalogue
import ColourScience
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

/// A destination that records what it is handed, in memory.
final class SpyDestination: ExportDestination {
    let location = "/spy"
    var files: [String: Data] = [:]
    var order: [String] = []
    var finished = false
    var abandoned = false
    var failOn: String?
    /// More names whose writing fails, as on a full disk.
    var failing: Set<String> = []
    var onWrite: ((String) -> Void)?

    func contains(_ name: String) -> Bool { files[name] != nil }
    func existing(_ name: String) throws -> Data? { files[name] }
    func size(of name: String) -> Int? { files[name]?.count }
    func write(_ data: Data, as name: String) throws {
        if name == failOn || failing.contains(name) { throw ExportError.cannotWrite(name, "no space left on device") }
        onWrite?(name)
        files[name] = data
        order.append(name)
    }
    func finish() throws { finished = true }
    func abandon() { abandoned = true }
    var keepsAPart = true
    /// Called inside the manifest's lock, before the manifest is read again: another export finishing meanwhile.
    var whileLocked: (() -> Void)?
    func whileLockingManifest(_ body: () throws -> Void) throws {
        whileLocked?()
        try body()
    }
}

/// Variant making that must not happen.
struct UnexpectedVariantMaker: VariantMaking {
    func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress,
                 interruption: any Interruption) async throws -> ProcessingSummary {
        XCTFail("unexpected processing of \(photos.count) photos")
        return ProcessingSummary()
    }
}

/// Makes no variant and reports every photo as failed: the export's own failures.
struct FailingVariantMaker: VariantMaking {
    func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress,
                 interruption: any Interruption) async throws -> ProcessingSummary {
        var summary = ProcessingSummary()
        summary.failures = photos.map { ($0.id, $0.path, "cannot decode") }
        return summary
    }
}

/// EXIF with a GPS position, and a block whose GPS removal is visible.
struct GPSExifReader: ExifReading {
    func readExif(from data: Data) throws -> ExifMetadata? { ExifMetadata(gps: GPSPosition(latitude: 60, longitude: 24)) }
    func uprightExifBlock(from data: Data) -> Data? { Data("block with gps".utf8) }
    func xmpPacket(from data: Data) -> String? { nil }
    func removingGPS(from block: Data) -> Data? { Data("block without gps".utf8) }
    /// In place when `inPlace`: the file with "gps" replaced by "---" (same length).
    var inPlace = false
    func removingGPS(fromJPEG data: Data) -> Data? {
        inPlace ? Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "gps", with: "---").utf8) : nil
    }
}

final class ExportServiceTests: XCTestCase {
    let files = FakeFileSystem()
    let codec = FakePhotoCodec()
    let encoder = RecordingEncoder()
    let catalogue = FakeCatalogue()
    let clock = FakeClock()

    func processing(library: String = "/library") -> ProcessingService {
        ProcessingService(fileSystem: files, decoder: codec, encoder: encoder, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                          catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(), libraryDirectory: library)
    }

    func service(exifReader: any ExifReading = FakeExifReader(), maker: (any VariantMaking)? = nil, library: String = "/library") -> ExportService {
        ExportService(fileSystem: files, decoder: codec, encoder: encoder, exifReader: exifReader, hasher: CryptoHasher(),
                      catalogue: catalogue, clock: clock, variantMaker: maker ?? processing(library: library), libraryDirectory: library)
    }

    func importPhotos(_ photos: [String: Data]) async throws -> [CataloguedPhoto] {
        for (path, data) in photos { files[path] = data }
        _ = try await ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                    catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner()).importPhotos(from: ["/photos"])
        return catalogue.allPhotos
    }

    func twoPhotos() async throws -> [CataloguedPhoto] {
        try await importPhotos([
            "/photos/bus.jpg": FakePhoto.data(width: 40, height: 30, seed: "bus", make: "Canon", takenAt: "2021:06:01 10:20:30", colour: "#D01020"),
            "/photos/fog.jpg": FakePhoto.data(width: 40, height: 30, seed: "fog", colour: "#808080"),
        ])
    }

    func testAnInterruptedExportKeepsAFoldersFilesWithTheirManifestAndTakesAnArchiveAway() async throws {
        let photos = try await twoPhotos()
        let options = ExportOptions(variants: [.original])
        // Ctrl-C once the first photo is written: the second is not started.
        let folder = try await service(maker: UnexpectedVariantMaker()).export(photos, options: options,
                                                                               to: FolderDestination(directory: "/out", fileSystem: files),
                                                                               interruption: CountdownInterruption(allowing: 1))
        XCTAssertTrue(folder.interrupted)
        XCTAssertEqual(folder.written.count, 1)
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), folder.written.map(\.file), "the manifest lists what was written")

        let archive = SpyDestination()
        archive.keepsAPart = false
        let cut = try await service(maker: UnexpectedVariantMaker()).export(photos, options: options, to: archive,
                                                                            interruption: CountdownInterruption(allowing: 1))
        XCTAssertTrue(cut.interrupted)
        XCTAssertTrue(archive.abandoned)
        XCTAssertFalse(archive.finished, "an archive cut short is taken away")

        let whole = try await service(maker: UnexpectedVariantMaker()).export(photos, options: options, to: SpyDestination())
        XCTAssertFalse(whole.interrupted)
    }

    func testExportsShowVariantsNamedFromTheTemplateWithAManifest() async throws {
        let photos = try await twoPhotos()
        let destination = FolderDestination(directory: "/out", fileSystem: files)

        let summary = try await service().export(photos, options: ExportOptions(), to: destination)

        XCTAssertEqual(summary.madeVariants, 1, "only the show variant was asked for")
        XCTAssertEqual(summary.written.map(\.file), ["2021-06-01_bus_show.jpg"])
        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        XCTAssertEqual(summary.withoutAccent, [fog.id], "a grey photo has no show variant")
        let show = try XCTUnwrap(catalogue.variants.first { $0.kind == "show" })
        XCTAssertEqual(files["/out/2021-06-01_bus_show.jpg"], files[show.path], "the variant, copied as it is")
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest, summary.files)
        XCTAssertEqual(manifest.first?.sha256, CryptoHasher().sha256(try XCTUnwrap(files[show.path])))
        XCTAssertEqual(manifest.first?.originalPath, "/photos/bus.jpg")
        XCTAssertEqual(manifest.first?.parameters?["tolerance"], 12)
        XCTAssertEqual(manifest.first.map { PixelSize(width: $0.width, height: $0.height) }, PixelSize(width: 40, height: 30))
        XCTAssertNil(files["/out/manifest.csv"])
    }

    func testAllVariantsAndTheOriginalsWithACSVManifest() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()
        let template = try FileNameTemplate("{camera}/{id}-{variant}-{colour}.{ext}")

        let summary = try await service().export(photos, options: ExportOptions(variants: ExportVariant.allCases, template: template,
                                                                                csvManifest: true), to: destination)

        XCTAssertEqual(destination.order, ["Canon/1-show-red.jpg", "Canon/1-hide-red.jpg", "Canon/1-original-red.jpg",
                                           "unknown-camera/2-original-no-accent.jpg", "manifest.json", "manifest.csv"])
        XCTAssertEqual(destination.files["Canon/1-original-red.jpg"], files["/photos/bus.jpg"])
        XCTAssertEqual(summary.madeVariants, 2)
        XCTAssertTrue(destination.finished)
        let csv = String(decoding: try XCTUnwrap(destination.files["manifest.csv"]), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(csv.first, "file,photo,original_path,variant,parameters,method,size,width,height,sha256,kept")
        XCTAssertEqual(csv.count, 5)
        XCTAssertTrue(csv[3].hasPrefix("Canon/1-original-red.jpg,1,/photos/bus.jpg,original,,,"), String(csv[3]))
        // How each show and hide file was made is in the manifest: the object mode, which is the default.
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(destination.files["manifest.json"]))
        XCTAssertEqual(manifest.filter { $0.variant != .original }.map(\.method), ["object", "object"])
        XCTAssertEqual(manifest.filter { $0.variant == .original }.map(\.method), [nil, nil])
        // …and a hue-mode export says hue.
        let hue = SpyDestination()
        _ = try await service().export(photos, options: ExportOptions(variants: [.show], processing: ProcessingOptions(method: .hue)), to: hue)
        let hueManifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(hue.files["manifest.json"]))
        XCTAssertEqual(hueManifest.map(\.method), ["hue"])
    }

    func testManifestCSVQuotesWhatNeedsIt() {
        let file = ExportedFile(file: "a.jpg", photo: 3, originalPath: "/p/a, \"b\".jpg", variant: .show, parameters: ["hue": 20, "feather": 10],
                                method: "hue", size: 5, width: 2, height: 1, sha256: "ab")
        XCTAssertEqual(String(decoding: ExportService.manifestCSV([file]), as: UTF8.self),
                       "file,photo,original_path,variant,parameters,method,size,width,height,sha256,kept\n"
                       + "a.jpg,3,\"/p/a, \"\"b\"\".jpg\",show,feather=10.0;hue=20.0,hue,5,2,1,ab,false\n")
    }

    func testNamesNeverCollideAndExistingFilesAreNotReplacedBySurprise() async throws {
        let photos = try await importPhotos([
            "/photos/a/x.jpg": FakePhoto.data(width: 8, height: 8, seed: "1", colour: "#D01020"),
            "/photos/b/x.jpg": FakePhoto.data(width: 8, height: 8, seed: "2", colour: "#D01020"),
        ])
        files["/out/undated_x_original.jpg"] = Data("already here".utf8)
        let original = ExportOptions(variants: [.original])

        let unique = try await service().export(photos, options: original, to: FolderDestination(directory: "/out", fileSystem: files))
        XCTAssertEqual(unique.written.map(\.file), ["undated_x_original_2.jpg", "undated_x_original_3.jpg"])
        XCTAssertEqual(files["/out/undated_x_original.jpg"], Data("already here".utf8))

        var overwrite = original
        overwrite.onConflict = .overwrite
        let replaced = try await service().export(photos, options: overwrite, to: FolderDestination(directory: "/out", fileSystem: files))
        XCTAssertEqual(replaced.written.map(\.file), ["undated_x_original.jpg", "undated_x_original_2.jpg"],
                       "two photos of one export never share a name")
        XCTAssertEqual(files["/out/undated_x_original.jpg"], files["/photos/a/x.jpg"])
    }

    func testResumingWithSkipWritesOnlyWhatIsMissing() async throws {
        let photos = try await twoPhotos()
        let options = ExportOptions(variants: [.original])
        _ = try await service().export(photos, options: options, to: FolderDestination(directory: "/out", fileSystem: files))
        try files.remove("/out/undated_fog_original.jpg")
        let writes = files.writtenPaths.count

        var resume = options
        resume.onConflict = .skip
        let summary = try await service().export(photos, options: resume, to: FolderDestination(directory: "/out", fileSystem: files))

        XCTAssertEqual(summary.written.map(\.file), ["undated_fog_original.jpg"])
        XCTAssertEqual(summary.kept.map(\.file), ["2021-06-01_bus_original.jpg"])
        XCTAssertEqual(Array(files.writtenPaths.dropFirst(writes)), ["/out/undated_fog_original.jpg", "/out/manifest.json"])
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), ["2021-06-01_bus_original.jpg", "undated_fog_original.jpg"], "the manifest lists both")
        XCTAssertEqual(manifest[0].sha256, CryptoHasher().sha256(try XCTUnwrap(files["/photos/bus.jpg"])))
    }

    func testAFileKeptBySkipIsListedAsTheEarlierExportWroteItThoughThePhotoChangedSince() async throws {
        let photos = try await twoPhotos()
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })
        _ = try await service().export([bus], options: ExportOptions(variants: [.original]),
                                       to: FolderDestination(directory: "/out", fileSystem: files))
        let first = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        // The photo edited since (catalogued anew: another id, other pixels) and exported again with skip.
        var edited = bus
        edited.id = 99
        edited.facts.pixelSize = PixelSize(width: 7, height: 9)
        var skip = ExportOptions(variants: [.original])
        skip.onConflict = .skip

        let summary = try await service().export([edited], options: skip, to: FolderDestination(directory: "/out", fileSystem: files))

        var listed = first
        listed[0].kept = true
        XCTAssertEqual(summary.kept, listed, "the file on disk is the earlier one: its photo, its size, its pixels")
        XCTAssertEqual(try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"])), listed)
    }

    func testASecondExportIntoTheFolderMergesTheManifestsAndWritesNothingTwice() async throws {
        let photos = try await twoPhotos()
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })
        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        let csv = ExportOptions(variants: [.original], csvManifest: true)
        _ = try await service().export([bus], options: csv, to: FolderDestination(directory: "/out", fileSystem: files))

        // Another photo into the same folder, without asking for the CSV: both manifests list both files.
        let second = try await service().export([fog], options: ExportOptions(variants: [.original]),
                                                to: FolderDestination(directory: "/out", fileSystem: files))
        XCTAssertEqual(second.written.map(\.file), ["undated_fog_original.jpg"])
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), ["2021-06-01_bus_original.jpg", "undated_fog_original.jpg"])
        XCTAssertEqual(manifest.map(\.kept), [true, false], "the earlier file is listed as already there")
        let lines = String(decoding: try XCTUnwrap(files["/out/manifest.csv"]), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.dropFirst().map { String($0.split(separator: ",")[0]) }, manifest.map(\.file), "the CSV agrees")

        // The same export again: the same bytes are there under the same names; nothing is written but the manifest.
        let writes = files.writtenPaths.count
        let again = try await service().export(photos, options: ExportOptions(variants: [.original]),
                                               to: FolderDestination(directory: "/out", fileSystem: files))
        XCTAssertEqual(again.written.map(\.file), [])
        XCTAssertEqual(again.kept.map(\.file), ["2021-06-01_bus_original.jpg", "undated_fog_original.jpg"])
        XCTAssertEqual(Array(files.writtenPaths.dropFirst(writes)), ["/out/manifest.json", "/out/manifest.csv"])
        XCTAssertNil(files["/out/undated_fog_original_2.jpg"])

        // A file whose name now holds other bytes, and one the folder no longer holds, leave the manifest.
        files["/out/undated_fog_original.jpg"] = Data("junk".utf8)
        _ = try await service().export([bus], options: ExportOptions(variants: [.original]),
                                       to: FolderDestination(directory: "/out", fileSystem: files))
        let replaced = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(replaced.map(\.file), ["2021-06-01_bus_original.jpg"])
        files["/out/undated_fog_original.jpg"] = files["/photos/fog.jpg"]
        try files.remove("/out/2021-06-01_bus_original.jpg")
        _ = try await service().export([fog], options: ExportOptions(variants: [.original]),
                                       to: FolderDestination(directory: "/out", fileSystem: files))
        let left = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(left.map(\.file), ["undated_fog_original.jpg"])
    }

    func testTwoExportsIntoOneFolderAtOnceBothStayListed() async throws {
        // Each read the manifest at its start and wrote it at its end: the last to end wrote over the other's
        // list (its files then imported as photos), and the JSON and the CSV could each name another export.
        let photos = try await twoPhotos()
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })
        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        // What the other export, into the same folder with --manifest csv, left when it ended meanwhile.
        let others = Data("another export's picture".utf8)
        let listed = ExportedFile(file: "undated_fog_original.jpg", photo: fog.id, originalPath: fog.path, variant: .original, parameters: nil,
                                  size: others.count, width: 40, height: 30, sha256: CryptoHasher().sha256(others))
        let manifestJSON = try ExportService.manifestJSON([listed]), manifestCSV = ExportService.manifestCSV([listed])
        files.whileLocked = { [files] folder in
            guard folder == "/out" else { return }
            files["/out/undated_fog_original.jpg"] = others
            files["/out/manifest.json"] = manifestJSON
            files["/out/manifest.csv"] = manifestCSV
        }
        _ = try await service().export([bus], options: ExportOptions(variants: [.original]), to: FolderDestination(directory: "/out", fileSystem: files))
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), ["undated_fog_original.jpg", "2021-06-01_bus_original.jpg"])
        let lines = String(decoding: try XCTUnwrap(files["/out/manifest.csv"]), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.dropFirst().map { String($0.split(separator: ",")[0]) }, manifest.map(\.file), "the CSV the other asked for agrees")
    }

    func testOtherBytesUnderTheNameGoToTheNextFreeNameOnceAndAreFoundThereAgain() async throws {
        let photos = try await twoPhotos()
        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        files["/out/undated_fog_original.jpg"] = Data("someone else's picture".utf8)
        let options = ExportOptions(variants: [.original])
        for _ in 0..<2 {
            _ = try await service().export([fog], options: options, to: FolderDestination(directory: "/out", fileSystem: files))
        }
        XCTAssertEqual(files["/out/undated_fog_original.jpg"], Data("someone else's picture".utf8))
        XCTAssertEqual(files["/out/undated_fog_original_2.jpg"], files["/photos/fog.jpg"])
        XCTAssertNil(files["/out/undated_fog_original_3.jpg"], "the second run found its bytes under _2")
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), ["undated_fog_original_2.jpg"])
    }

    func testAManifestThatCannotBeReadStopsTheExportBeforeAnythingIsWritten() async throws {
        let photos = try await twoPhotos()
        files["/out/manifest.json"] = Data("{ not a list".utf8)
        let writes = files.writtenPaths.count
        do {
            // Show variants to make: the manifest is read before any is made.
            _ = try await service(maker: UnexpectedVariantMaker()).export(photos, options: ExportOptions(variants: [.show, .original]),
                                                                         to: FolderDestination(directory: "/out", fileSystem: files))
            XCTFail("the export went on")
        } catch let error as ExportError {
            XCTAssertEqual(error, .unreadableManifest("/out/manifest.json", "its JSON is not a list of exported files"))
            XCTAssertTrue(error.plainDescription.contains("move it away, or export to another folder; nothing was written"))
        }
        XCTAssertEqual(files.writtenPaths.count, writes)
        XCTAssertEqual(files["/out/manifest.json"], Data("{ not a list".utf8))
    }

    func testTheEstimateCountsFilesAndScalesBytesByPixels() async throws {
        let photos = try await twoPhotos()
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })
        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        let exporter = service(maker: UnexpectedVariantMaker())
        // Originals as they are: their own bytes.
        XCTAssertEqual(exporter.estimate(photos, options: ExportOptions(variants: [.original])),
                       ExportEstimate(photos: 2, files: 2, bytes: bus.stamp.size + fog.stamp.size))
        // Show variants not made yet weigh about their originals; the grey photo has none.
        XCTAssertEqual(exporter.estimate(photos, options: ExportOptions(variants: [.show])),
                       ExportEstimate(photos: 1, files: 1, bytes: bus.stamp.size, withoutAccent: 1, variantsToMake: 1))
        // Half the long side: a quarter of the pixels, about a quarter of the bytes.
        let half = exporter.estimate([bus], options: ExportOptions(variants: [.original], maximumLongSide: 20))
        XCTAssertEqual(half.bytes, Int64((Double(bus.stamp.size) / 4).rounded()))
        // Another format: what that format makes of the pixels (40 × 30), not the JPEG's bytes.
        XCTAssertEqual(exporter.estimate([bus], options: ExportOptions(variants: [.original], format: .png)).bytes, 1200)
        XCTAssertEqual(exporter.estimate([bus], options: ExportOptions(variants: [.original], format: .webp, quality: 80)).bytes, 120)
    }

    /// A copy of the catalogue in another library folder (or a backup restored there) names the first
    /// library's variant files: they are that library's, so here the variant is still to make, is made in
    /// this library's own folder, and that is what is exported.
    func testAVariantRecordedInAnotherLibrarysFolderIsMadeHereAndNeverReadThere() async throws {
        let photos = try await twoPhotos()
        _ = try await service().export(photos, options: ExportOptions(), to: FolderDestination(directory: "/first", fileSystem: files))
        let original = try XCTUnwrap(catalogue.variants.first { $0.kind == "show" }).path
        XCTAssertTrue(original.hasPrefix("/library/variants/"), original)
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })

        let copy = service(maker: UnexpectedVariantMaker(), library: "/copy")
        XCTAssertEqual(copy.estimate([bus], options: ExportOptions()).variantsToMake, 1, "no file of it in this library")
        files.resetReads()
        let summary = try await service(library: "/copy").export([bus], options: ExportOptions(),
                                                                to: FolderDestination(directory: "/second", fileSystem: files))
        XCTAssertEqual(summary.madeVariants, 1)
        XCTAssertFalse(files.readPaths.contains(original), "the first library's file is not read")
        let made = try XCTUnwrap(catalogue.variants.first { $0.kind == "show" }).path
        XCTAssertTrue(made.hasPrefix("/copy/variants/"), made)
        XCTAssertEqual(files["/second/2021-06-01_bus_show.jpg"], files[made])
    }

    func testFormatAndMaximumSizeReencodeAtTheQuality() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()

        let summary = try await service().export(photos, options: ExportOptions(variants: [.original], format: .png, quality: 70,
                                                                                maximumLongSide: 10), to: destination)

        XCTAssertEqual(summary.written.map(\.file), ["2021-06-01_bus_original.png", "undated_fog_original.png"])
        XCTAssertEqual(encoder.encoded.map(\.format), [.png, .png])
        XCTAssertEqual(encoder.encoded.map { PixelSize(width: $0.image.width, height: $0.image.height) },
                       [PixelSize(width: 10, height: 8), PixelSize(width: 10, height: 8)], "long side 10, aspect kept")
        XCTAssertEqual(summary.written.map(\.width), [10, 10])
        XCTAssertEqual(encoder.encoded.first?.options.quality, 70)
        XCTAssertNil(encoder.encoded.first?.options.exif, "PNGs carry no EXIF block")
    }

    func testAShowOrHidePictureEncodedAgainKeepsShowhidesMarkAndAnOriginalHasNone() async throws {
        let photos = try await twoPhotos()
        let maker = ProcessingService(fileSystem: files, decoder: codec, encoder: FakePhotoEncoder(), exifReader: FakeExifReader(),
                                      hasher: CryptoHasher(), catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(),
                                      libraryDirectory: "/library")

        let summary = try await service(maker: maker).export(Array(photos.prefix(1)), options: ExportOptions(variants: [.show, .hide, .original],
                                                                                                             maximumLongSide: 10),
                                                             to: SpyDestination())

        XCTAssertEqual(summary.written.map(\.variant), [.show, .hide, .original])
        XCTAssertEqual(encoder.encoded.map(\.options.xmp), [ShowhidePictureMark.packet("show"), ShowhidePictureMark.packet("hide"), nil],
                       "made smaller, a show or hide picture still says what made it; a photo made smaller is a photo")
    }

    func testStrippingGPSChangesOnlyTheEXIFWhenNothingElseChanges() async throws {
        let photos = try await twoPhotos()
        files["/photos/bus.jpg"] = Data("jpeg with gps and pixels".utf8)
        let destination = SpyDestination()
        var reader = GPSExifReader()
        reader.inPlace = true

        _ = try await service(exifReader: reader).export(
            Array(photos.prefix(1)), options: ExportOptions(variants: [.original], stripGPS: true), to: destination)

        XCTAssertEqual(destination.files["2021-06-01_bus_original.jpg"], Data("jpeg with --- and pixels".utf8))
        XCTAssertEqual(encoder.encoded.count, 0, "not decoded and encoded again")
    }

    func testStrippingGPSRewritesTheEXIFOfJPEGsThatHaveIt() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()

        _ = try await service(exifReader: GPSExifReader()).export(
            Array(photos.prefix(1)), options: ExportOptions(variants: [.original], stripGPS: true), to: destination)
        XCTAssertEqual(encoder.encoded.first?.options.exif, Data("block without gps".utf8))

        let kept = SpyDestination()
        _ = try await service(exifReader: GPSExifReader()).export(Array(photos.prefix(1)), options: ExportOptions(variants: [.original]), to: kept)
        XCTAssertEqual(kept.files["2021-06-01_bus_original.jpg"], files["/photos/bus.jpg"], "without --strip-gps the file is copied")
        XCTAssertEqual(encoder.encoded.count, 1)
    }

    func testAWebPWithAPositionLosesItWhenAskedThoughNothingElseChanges() async throws {
        let photos = try await importPhotos(["/photos/sticker.webp": FakePhoto.data(width: 40, height: 30, seed: "webp", format: .webp)])
        let destination = SpyDestination()

        _ = try await service(exifReader: GPSExifReader()).export(photos, options: ExportOptions(variants: [.original], stripGPS: true),
                                                                  to: destination)

        XCTAssertEqual(encoder.encoded.map(\.format), [.webp], "encoded again: a WebP's block is not rewritten in place")
        XCTAssertEqual(encoder.encoded.first?.options.exif, Data("block without gps".utf8))
        XCTAssertNotEqual(destination.files["undated_sticker_original.webp"], files["/photos/sticker.webp"], "not the file with its position")
    }

    func testAHEIFOriginalIsCopiedAsItIsOrWrittenAsAJPEGWhenItMustChange() async throws {
        let photos = try await importPhotos(["/photos/phone.heic": FakePhoto.data(width: 40, height: 30, seed: "phone", takenAt: "2024:05:06 07:08:09",
                                                                                   format: .heif)])
        XCTAssertEqual(photos.map(\.facts.format), [.heif])
        let copied = SpyDestination()
        _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: copied)
        XCTAssertEqual(copied.files["2024-05-06_phone_original.heic"], files["/photos/phone.heic"], "unchanged: copied as it is")
        XCTAssertEqual(encoder.encoded.count, 0)
        let avif = try await importPhotos(["/photos/sticker.AVIF": FakePhoto.data(width: 40, height: 30, seed: "avif", format: .heif)])
        let copiedAVIF = SpyDestination()
        _ = try await service().export(avif.filter { $0.path.hasSuffix(".AVIF") }, options: ExportOptions(variants: [.original]), to: copiedAVIF)
        XCTAssertEqual(copiedAVIF.files.keys.filter { $0 != "manifest.json" }, ["undated_sticker_original.avif"], "an AVIF keeps its extension")

        let withoutGPS = SpyDestination()
        _ = try await service(exifReader: GPSExifReader()).export(photos, options: ExportOptions(variants: [.original], stripGPS: true),
                                                                  to: withoutGPS)
        XCTAssertEqual(withoutGPS.files.keys.filter { $0 != "manifest.json" }, ["2024-05-06_phone_original.jpg"], "showhide does not write HEIF")
        XCTAssertEqual(encoder.encoded.map(\.format), [.jpeg])
        XCTAssertEqual(encoder.encoded.first?.options.exif, Data("block without gps".utf8))

        let smaller = SpyDestination()
        _ = try await service().export(photos, options: ExportOptions(variants: [.original], maximumLongSide: 20), to: smaller)
        XCTAssertEqual(smaller.files.keys.filter { $0 != "manifest.json" }, ["2024-05-06_phone_original.jpg"])
    }

    func testATIFFOriginalKeepsItsExtensionOrBecomesAJPEGAndAnyPhotoCanBeWrittenAsWebP() async throws {
        let photos = try await importPhotos(["/photos/scan.TIFF": FakePhoto.data(width: 40, height: 30, seed: "scan", format: .tiff)])
        let copied = SpyDestination()
        _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: copied)
        XCTAssertEqual(copied.files["undated_scan_original.tiff"], files["/photos/scan.TIFF"], "unchanged: copied as it is")
        XCTAssertEqual(encoder.encoded.count, 0)

        let smaller = SpyDestination()
        _ = try await service().export(photos, options: ExportOptions(variants: [.original], maximumLongSide: 20), to: smaller)
        XCTAssertEqual(smaller.files.keys.filter { $0 != "manifest.json" }, ["undated_scan_original.jpg"], "showhide does not write TIFF")

        let webp = SpyDestination()
        _ = try await service(exifReader: GPSExifReader()).export(photos, options: ExportOptions(variants: [.original], format: .webp,
                                                                                                 quality: 70, stripGPS: true), to: webp)
        XCTAssertEqual(webp.files.keys.filter { $0 != "manifest.json" }, ["undated_scan_original.webp"])
        XCTAssertEqual(encoder.encoded.last?.format, .webp)
        XCTAssertEqual(encoder.encoded.last?.options, EncodeOptions(quality: 70, exif: Data("block without gps".utf8)))
    }

    func testADryRunWritesAndMakesNothing() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()

        let summary = try await service(maker: UnexpectedVariantMaker()).export(
            photos, options: ExportOptions(variants: [.show, .original], dryRun: true), to: destination)

        XCTAssertEqual(summary.planned.map(\.file), ["2021-06-01_bus_show.jpg", "2021-06-01_bus_original.jpg", "undated_fog_original.jpg"])
        XCTAssertEqual(summary.planned.map(\.needsMaking), [true, false, false])
        XCTAssertEqual(destination.files, [:])
        XCTAssertFalse(destination.finished)
        XCTAssertTrue(destination.abandoned, "an archive started for the names is taken away")
        XCTAssertEqual(files.writtenPaths, [])
    }

    func testADryRunIntoAFolderThatHoldsANameShowsTheNameUniqueWouldTake() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()
        destination.files["undated_fog_original.jpg"] = Data("an earlier picture".utf8)
        var options = ExportOptions(variants: [.original], dryRun: true)
        options.onConflict = .unique

        let summary = try await service(maker: UnexpectedVariantMaker()).export(photos, options: options, to: destination)

        XCTAssertEqual(summary.planned.map(\.file), ["2021-06-01_bus_original.jpg", "undated_fog_original_2.jpg"])
    }

    func testAPhotoThatFailsIsReportedAndTheOthersAreExported() async throws {
        let photos = try await twoPhotos()
        try files.remove("/photos/bus.jpg")
        files.expectedMissing = ["/photos/bus.jpg"]
        let destination = SpyDestination()

        let summary = try await service().export(photos, options: ExportOptions(variants: [.original]), to: destination)

        XCTAssertEqual(summary.failures.map(\.path), ["/photos/bus.jpg"])
        XCTAssertEqual(summary.written.map(\.file), ["undated_fog_original.jpg"])
        XCTAssertTrue(destination.finished)
        XCTAssertFalse(summary.madeNothing)
    }

    /// Every photo failed: no zip or folder holding an empty manifest is made. Into a folder an earlier
    /// export filled, its manifest is written again, listing what it did.
    func testAnExportWhosePhotosAllFailMakesNoDestination() async throws {
        let photos = try await twoPhotos()
        let bus = try XCTUnwrap(photos.first { $0.path.hasSuffix("bus.jpg") })
        try files.remove("/photos/bus.jpg")
        files.expectedMissing = ["/photos/bus.jpg"]
        let destination = SpyDestination()

        let summary = try await service().export([bus], options: ExportOptions(variants: [.original]), to: destination)

        XCTAssertEqual(summary.failures.map(\.path), ["/photos/bus.jpg"])
        XCTAssertTrue(summary.madeNothing)
        XCTAssertTrue(destination.abandoned)
        XCTAssertFalse(destination.finished)
        XCTAssertEqual(destination.files, [:], "no manifest of nothing")

        let fog = try XCTUnwrap(photos.first { $0.path.hasSuffix("fog.jpg") })
        _ = try await service().export([fog], options: ExportOptions(variants: [.original]), to: FolderDestination(directory: "/out", fileSystem: files))
        let again = try await service().export([bus], options: ExportOptions(variants: [.original]),
                                               to: FolderDestination(directory: "/out", fileSystem: files))
        XCTAssertFalse(again.madeNothing, "the folder holds an earlier export")
        let manifest = try JSONDecoder().decode([ExportedFile].self, from: try XCTUnwrap(files["/out/manifest.json"]))
        XCTAssertEqual(manifest.map(\.file), ["undated_fog_original.jpg"], "the earlier export's file still listed")
    }

    func testProgressCountsOnlyThePhotosTheExportGoesOnWith() async throws {
        let photos = try await twoPhotos()
        let progress = SpyProgress()

        let summary = try await service(maker: FailingVariantMaker()).export(
            photos, options: ExportOptions(variants: [.show, .original]), to: SpyDestination(), progress: progress)

        XCTAssertEqual(summary.failures.count, 2)
        XCTAssertEqual(progress.updates.map(\.total), [0], "photos whose variants failed are not counted, or the bar never ends")
        XCTAssertTrue(progress.finished)
    }

    func testADestinationThatCannotBeWrittenStopsTheExportAndIsAbandoned() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()
        destination.failOn = "undated_fog_original.jpg"
        destination.keepsAPart = false  // an archive: written whole or not at all

        do {
            _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: destination)
            XCTFail("the export should stop")
        } catch {
            XCTAssertEqual(error as? ExportError, .cannotWrite("undated_fog_original.jpg", "no space left on device"))
        }
        XCTAssertTrue(destination.abandoned)
        XCTAssertFalse(destination.finished)
    }

    func testAFolderFilledUpPartWayKeepsWhatWasWrittenListedAndSaysHowToGoOn() async throws {
        let photos = try await twoPhotos()
        let destination = SpyDestination()
        destination.failOn = "undated_fog_original.jpg"

        do {
            _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: destination)
            XCTFail("the export should stop")
        } catch {
            XCTAssertEqual(error as? ExportError, .stoppedPartWay("undated_fog_original.jpg", "no space left on device", kept: 1, listed: true))
            XCTAssertEqual(error.localizedDescription, "cannot write undated_fog_original.jpg: no space left on device. The export stopped there: the file "
                           + "written before it is kept and listed in its manifest; make room, then run the same command with "
                           + "--on-conflict skip to go on")
        }
        XCTAssertEqual(destination.order, ["2021-06-01_bus_original.jpg", ExportService.manifestName])
        XCTAssertFalse(destination.abandoned)
        let listed = try XCTUnwrap(ExportService.manifestFiles(try XCTUnwrap(destination.files[ExportService.manifestName])))
        XCTAssertEqual(listed.map(\.file), ["2021-06-01_bus_original.jpg"])
        XCTAssertFalse(destination.finished)

        // With a CSV manifest, it too; and a reason other than room: no room to make.
        let named = SpyDestination()
        named.failing = ["undated_fog_original.jpg"]
        named.failOn = nil
        do {
            _ = try await service().export(photos, options: ExportOptions(variants: [.original], csvManifest: true), to: named)
            XCTFail("the export should stop")
        } catch {
            XCTAssertNotNil(named.files[ExportService.csvManifestName], "the CSV manifest in step with the JSON one")
            XCTAssertTrue(error.localizedDescription.hasSuffix("is kept and listed in its manifest; make room, then run the same command "
                                                              + "with --on-conflict skip to go on"), "disk full: \(error.localizedDescription)")
        }
        XCTAssertEqual(ExportError.stoppedPartWay("/o/a?.jpg", "invalid argument", kept: 2, listed: true).localizedDescription,
                       "cannot write /o/a?.jpg: invalid argument. The export stopped there: the 2 files written before it are kept and listed "
                       + "in its manifest; once that is mended, run the same command with --on-conflict skip to go on")
        XCTAssertTrue(ExportError.isFull("No space left on device") && ExportError.isFull("Disk quota exceeded"))

        // No room even for the manifest: said so.
        let full = SpyDestination()
        full.failing = ["undated_fog_original.jpg", ExportService.manifestName]
        do {
            _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: full)
            XCTFail("the export should stop")
        } catch {
            XCTAssertEqual(error as? ExportError, .stoppedPartWay("undated_fog_original.jpg", "no space left on device", kept: 1, listed: false))
        }
    }

    func testFilesAreHandedOverOneAtATime() async throws {
        // Each file is read, then written, before the next is read: the export never holds two files.
        let photos = try await importPhotos((0..<5).reduce(into: [:]) { result, index in
            result["/photos/\(index).jpg"] = FakePhoto.data(width: 8, height: 8, seed: "\(index)", colour: "#808080")
        })
        files.resetReads()
        let destination = SpyDestination()
        var readsAtEachWrite: [Int] = []
        destination.onWrite = { [files] _ in readsAtEachWrite.append(files.readPaths.count) }

        _ = try await service().export(photos, options: ExportOptions(variants: [.original]), to: destination)

        XCTAssertEqual(readsAtEachWrite, [1, 2, 3, 4, 5, 5], "five photos, one read before each write; then the manifest")
    }
}
