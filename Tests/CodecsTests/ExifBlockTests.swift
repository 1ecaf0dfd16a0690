@testable import Codecs
import Imaging
import TestSupport
import XCTest

final class ExifBlockTests: XCTestCase {
    func testTheLocatorFindsTheBlockTheEncoderWrote() throws {
        let block = ExifFixture.camera().encoded()
        let jpeg = try Fixture.jpeg(TestImage.solid(.blue), exif: block)
        XCTAssertEqual(ExifLocator.exifBlock(in: jpeg), block)
    }

    func testTheLocatorStopsAtTheScanAndAtDamage() throws {
        XCTAssertNil(ExifLocator.exifBlock(in: try Fixture.jpeg(TestImage.solid(.blue))))
        XCTAssertNil(ExifLocator.exifBlock(in: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45])), "length past the end")
        XCTAssertNil(ExifLocator.exifBlock(in: Data([0xFF, 0xD8, 0x00, 0x00, 0x00, 0x00])), "not a marker")
        XCTAssertNil(ExifLocator.exifBlock(in: Data("plain text".utf8)))
    }

    func testResettingOrientationChangesOnlyThatValue() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            let block = ExifFixture.camera(byteOrder: order).encoded()
            XCTAssertEqual(ExifBlock.orientation(block), .right)
            let reset = ExifBlock.resettingOrientation(block)
            XCTAssertEqual(ExifBlock.orientation(reset), .up)
            XCTAssertEqual(reset.count, block.count)
            XCTAssertEqual(zip(reset, block).filter { $0 != $1 }.count, 1, "one byte differs")
            let exif = try XCTUnwrap(LibExifReader().readExifBlock(reset))
            XCTAssertEqual(exif.model, "FX-100")
            XCTAssertEqual(exif.orientation, .up)
        }
    }

    func testABlockTooLargeForAJPEGSegmentLosesItsLongValuesNotTheCamerasNames() throws {
        // A HEIF's EXIF item or a TIFF's directories may hold more than a JPEG's APP1 segment takes: every
        // variant of such a photo failed ("the EXIF block is 72290 bytes, more than a JPEG segment can hold").
        for order in [ExifFixture.ByteOrder.little, .big] {
            var fixture = ExifFixture.camera(byteOrder: order)
            fixture.exif.append(fixture.undefined(0x927C, [UInt8](repeating: 7, count: 70_000))) // a maker note of 70 kB
            let block = fixture.encoded()
            XCTAssertGreaterThan(block.count, LibExifReader.largestSegmentBlock)
            let shrunk = try XCTUnwrap(LibExifReader.shrinking(block))
            XCTAssertLessThanOrEqual(shrunk.count, LibExifReader.largestSegmentBlock)
            let exif = try XCTUnwrap(LibExifReader().readExifBlock(shrunk))
            XCTAssertEqual(exif.model, "FX-100")
            XCTAssertEqual(exif.make, "Fixture Optics")
            XCTAssertNil(exif.allTags["MakerNote"])
            // The photo's own block (a PNG's eXIf chunk holds any size), through the reader's one door for variants.
            let png = try Fixture.png(TestImage.solid(.blue, width: 4, height: 4)).insertingPNGExif(block.dropFirst(ExifLocator.exifHeader.count))
            XCTAssertGreaterThan(try XCTUnwrap(ExifLocator.exifBlock(in: png)).count, LibExifReader.largestSegmentBlock, "the photo's own block")
            let upright = try XCTUnwrap(LibExifReader().uprightExifBlock(from: png))
            XCTAssertLessThanOrEqual(upright.count, LibExifReader.largestSegmentBlock)
            XCTAssertEqual(LibExifReader().readExifBlock(upright)?.orientation, .up)
            XCTAssertNoThrow(try JPEGCodec().encode(TestImage.solid(.blue, width: 4, height: 4), quality: 90, exif: upright))
        }
        let small = ExifFixture.camera().encoded()
        XCTAssertEqual(LibExifReader().uprightExifBlock(from: try Fixture.jpeg(TestImage.solid(.blue), exif: small)),
                       ExifBlock.resettingOrientation(small), "a block that fits is written as it is")
    }

    func testABlockWithoutOrientationOrTooDamagedIsUnchanged() {
        var fixture = ExifFixture()
        fixture.ifd0 = [fixture.ascii(0x010F, "Make")]
        let block = fixture.encoded()
        XCTAssertEqual(ExifBlock.resettingOrientation(block), block)
        XCTAssertNil(ExifBlock.orientation(block))
        let damaged = Data(ExifLocator.exifHeader + [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0])
        XCTAssertEqual(ExifBlock.resettingOrientation(damaged), damaged)
        XCTAssertNil(ExifBlock.orientation(Data(ExifLocator.exifHeader + [0x51, 0x51, 0, 0, 0, 0, 0, 0])))
        XCTAssertNil(ExifBlock.orientation(Data([1, 2, 3])))
    }

    func testDecodingUprightTurnsThePixelsByTheFilesOrientation() throws {
        // Left half red, right half blue, stored 32×16 and marked "rotate 90° clockwise".
        let stored = TestImage.from(rows: (0..<16).map { _ in (0..<32).map { $0 < 16 ? RGBA.red : RGBA.blue } })
        let jpeg = try Fixture.jpeg(stored, exif: ExifFixture.camera().encoded())
        let upright = try ImageCodec().decode(jpeg, options: DecodeOptions(appliesOrientation: true))
        XCTAssertEqual(upright.appliedOrientation, .right)
        XCTAssertEqual(upright.image.width, 16)
        XCTAssertEqual(upright.image.height, 32)
        XCTAssertEqual(upright.originalSize, PixelSize(width: 32, height: 16))
        assertColour(upright.image[8, 4], .red, tolerance: 4, "the left half turns to the top")
        assertColour(upright.image[8, 28], .blue, tolerance: 4, "the right half turns to the bottom")
        let asStored = try ImageCodec().decode(jpeg, options: .fullSize)
        XCTAssertEqual(asStored.appliedOrientation, .up)
        XCTAssertEqual(asStored.image.width, 32)
    }

    func testEveryOrientationWrittenInAFileIsApplied() throws {
        let stored = TestImage.distinctPixels(width: 6, height: 4)
        for orientation in Orientation.allCases {
            var fixture = ExifFixture()
            fixture.ifd0 = [fixture.short(0x0112, UInt16(orientation.rawValue))]
            let png = try Fixture.png(stored).insertingPNGExif(fixture.encoded().dropFirst(6))
            let upright = try ImageCodec().decode(png, options: DecodeOptions(appliesOrientation: true))
            assertImagesEqual(upright.image, stored.applying(orientation), "orientation \(orientation.rawValue)")
        }
    }
}
