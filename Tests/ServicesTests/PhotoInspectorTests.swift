import Catalogue
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class PhotoInspectorTests: XCTestCase {
    let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
    let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9])
    let decoded = DecodedImage(format: .jpeg, originalSize: PixelSize(width: 4000, height: 3000),
                               image: TestImage.solid(.red, width: 256, height: 192))

    struct Broken: Error, LocalizedError {
        var errorDescription: String? { "corrupt JPEG data: bad Huffman code" }
    }

    func makeInspector(files: [String: Data], decoder: StubDecoder, exif: StubExifReader) -> PhotoInspector {
        PhotoInspector(fileSystem: FakeFileSystem(files: files), decoder: decoder, exifReader: exif)
    }

    func testReadsOnceDecodesOnceAtAnalysisSizeAndReadsEXIF() throws {
        let decoder = StubDecoder(), exifReader = StubExifReader()
        decoder.stub(jpegBytes, with: .success(decoded))
        let exif = ExifMetadata(make: "Canon", orientation: .right)
        exifReader.stub(jpegBytes, with: .success(exif))
        let files = FakeFileSystem(files: ["/p/a.jpg": jpegBytes])
        let inspector = PhotoInspector(fileSystem: files, decoder: decoder, exifReader: exifReader)

        let inspection = try inspector.inspect(path: "/p/a.jpg")

        XCTAssertEqual(inspection, PhotoInspection(path: "/p/a.jpg", format: .jpeg, fileSize: 7,
                                                   pixelSize: PixelSize(width: 4000, height: 3000), exif: exif,
                                                   analysisImage: decoded.image))
        XCTAssertEqual(inspection.uprightSize, PixelSize(width: 3000, height: 4000))
        XCTAssertEqual(files.readPaths, ["/p/a.jpg"])
        XCTAssertEqual(decoder.calls.count, 1)
        XCTAssertEqual(decoder.calls.first?.options.minimumLongSide, PhotoInspector.analysisLongSide)
        XCTAssertEqual(decoder.calls.first?.options.appliesOrientation, true, "analysed upright, whatever the stored orientation")
        XCTAssertEqual(decoder.calls.first?.options.maximumPixelCount, DecodeOptions.defaultMaximumPixelCount)
    }

    func testUprightSizeIsTheStoredSizeWithoutASidewaysOrientation() throws {
        let decoder = StubDecoder(), exifReader = StubExifReader()
        decoder.stub(jpegBytes, with: .success(decoded))
        exifReader.stub(jpegBytes, with: .success(nil))
        let inspection = try makeInspector(files: ["a.jpg": jpegBytes], decoder: decoder, exif: exifReader).inspect(path: "a.jpg")
        XCTAssertNil(inspection.exif)
        XCTAssertEqual(inspection.uprightSize, PixelSize(width: 4000, height: 3000))
    }

    func testAMissingFileIsUnreadableAndNamed() {
        let files = FakeFileSystem()
        files.expectedMissing = ["/gone.jpg"]
        let inspector = PhotoInspector(fileSystem: files, decoder: StubDecoder(), exifReader: StubExifReader())
        XCTAssertThrowsError(try inspector.inspect(path: "/gone.jpg")) { error in
            XCTAssertEqual(error as? PhotoError, .unreadable(path: "/gone.jpg", reason: "no such file: /gone.jpg"))
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "/gone.jpg: cannot read the file: no such file: /gone.jpg")
        }
        // A name that was not UTF-8 comes with U+FFFD, and names no file: said so, not "no such file".
        files.expectedMissing = ["/bad\u{FFFD}name.jpg"]
        XCTAssertThrowsError(try inspector.inspect(path: "/bad\u{FFFD}name.jpg")) { error in
            XCTAssertEqual(error as? PhotoError, .unreadable(path: "/bad\u{FFFD}name.jpg", reason: "the name is not valid UTF-8 (shown with "
                + "\u{FFFD} for the bytes that are not), so it cannot be opened by it: rename the file"))
        }
    }

    func testAnEmptyFileIsSaidToBeEmptyWithoutDecoding() {
        let inspector = makeInspector(files: ["e.jpg": Data()], decoder: StubDecoder(), exif: StubExifReader())
        XCTAssertThrowsError(try inspector.inspect(path: "e.jpg")) { error in
            XCTAssertEqual(error as? PhotoError, .undecodable(path: "e.jpg", reason: "the file is empty"))
        }
    }

    func testAFileOfAnotherKindIsNotAPhotoWithoutDecoding() {
        let inspector = makeInspector(files: ["notes.jpg": Data("hello".utf8)], decoder: StubDecoder(), exif: StubExifReader())
        XCTAssertThrowsError(try inspector.inspect(path: "notes.jpg")) { error in
            XCTAssertEqual(error as? PhotoError, .notAPhoto(path: "notes.jpg"))
            XCTAssertEqual((error as? PhotoError)?.reason, "not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
        }
    }

    func testADecoderFailureIsReportedWithTheFileAndTheDecodersWords() {
        let decoder = StubDecoder()
        decoder.stub(pngBytes, with: .failure(Broken()))
        let inspector = makeInspector(files: ["x.png": pngBytes], decoder: decoder, exif: StubExifReader())
        XCTAssertThrowsError(try inspector.inspect(path: "x.png")) { error in
            XCTAssertEqual(error as? PhotoError, .undecodable(path: "x.png", reason: "corrupt JPEG data: bad Huffman code"))
            XCTAssertEqual((error as? PhotoError)?.path, "x.png")
        }
    }

    func testAnEXIFFailureDoesNotLoseThePhoto() throws {
        let decoder = StubDecoder(), exifReader = StubExifReader()
        decoder.stub(jpegBytes, with: .success(decoded))
        exifReader.stub(jpegBytes, with: .failure(Broken()))
        let inspection = try makeInspector(files: ["a.jpg": jpegBytes], decoder: decoder, exif: exifReader).inspect(path: "a.jpg")
        XCTAssertNil(inspection.exif)
        XCTAssertEqual(inspection.format, .jpeg)
    }

    func testThePixelLimitIsPassedToTheDecoder() throws {
        let decoder = StubDecoder(), exifReader = StubExifReader()
        decoder.stub(jpegBytes, with: .success(decoded))
        exifReader.stub(jpegBytes, with: .success(nil))
        let inspector = PhotoInspector(fileSystem: FakeFileSystem(files: ["a.jpg": jpegBytes]), decoder: decoder,
                                       exifReader: exifReader, maximumPixelCount: 1234)
        _ = try inspector.inspect(path: "a.jpg")
        XCTAssertEqual(decoder.calls.first?.options.maximumPixelCount, 1234)
    }

    func testErrorsWithoutADescriptionAreStillDescribed() {
        struct Plain: Error {}
        let decoder = StubDecoder()
        decoder.stub(jpegBytes, with: .failure(Plain()))
        let inspector = makeInspector(files: ["a.jpg": jpegBytes], decoder: decoder, exif: StubExifReader())
        XCTAssertThrowsError(try inspector.inspect(path: "a.jpg")) { error in
            XCTAssertEqual((error as? PhotoError)?.reason, "Plain()")
        }
    }

    func testTheLocalFileSystemReadsRealFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-\(UUID().uuidString)")
        try Data("abc".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try LocalFileSystem().contents(of: url.path), Data("abc".utf8))
        XCTAssertThrowsError(try LocalFileSystem().contents(of: url.path + "-missing"))
    }

    func testAFolderIsSaidToBeOneWithTheCommandThatImportsIt() throws {
        let inspector = PhotoInspector(fileSystem: LocalFileSystem(), decoder: FakePhotoCodec(), exifReader: StubExifReader())
        let folder = FileManager.default.temporaryDirectory.path
        XCTAssertThrowsError(try inspector.inspect(path: folder)) { error in
            XCTAssertEqual(error as? PhotoError,
                           .unreadable(path: folder, reason: "it is a folder: inspect reads photo files, and showhide gallery import imports a folder"))
        }
    }
}
