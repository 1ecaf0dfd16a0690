import Imaging
import TestSupport
import XCTest

final class RGBAImageTests: XCTestCase {
    let red = RGBA.red, green = RGBA.green, blue = RGBA.blue, white = RGBA.white

    func testSolidImageHasOneColourInEveryPixel() throws {
        let image = try RGBAImage(width: 3, height: 2, filledWith: RGBA(red: 10, green: 20, blue: 30, alpha: 40))
        XCTAssertEqual(image.pixels, Array(repeating: RGBA(red: 10, green: 20, blue: 30, alpha: 40), count: 6))
        XCTAssertEqual(image.bytes.count, 24)
        XCTAssertEqual(image.rowStride, 12)
    }

    func testTwoByTwoKeepsEachColourInItsCorner() {
        let image = TestImage.twoByTwo(red, green, blue, white)
        XCTAssertEqual(image[0, 0], red)
        XCTAssertEqual(image[1, 0], green)
        XCTAssertEqual(image[0, 1], blue)
        XCTAssertEqual(image[1, 1], white)
        XCTAssertEqual(image.rows, [[red, green], [blue, white]])
    }

    func testThreeByThreeHasOneCentrePixelOfTheSecondColour() {
        let image = TestImage.threeByThree(border: white, centre: red)
        XCTAssertEqual(image.pixels.filter { $0 == red }.count, 1)
        XCTAssertEqual(image.pixels.filter { $0 == white }.count, 8)
        XCTAssertEqual(image[1, 1], red)
    }

    func testSubscriptWritesOnePixel() {
        var image = TestImage.solid(white, width: 2, height: 2)
        image[1, 0] = blue
        XCTAssertEqual(image.rows, [[white, blue], [white, white]])
    }

    func testRejectsEmptySizes() {
        XCTAssertThrowsError(try RGBAImage(width: 0, height: 4, filledWith: red)) { error in
            XCTAssertEqual(error as? ImagingError, .invalidDimensions(width: 0, height: 4))
        }
        XCTAssertThrowsError(try RGBAImage(width: 2, height: -1, bytes: []))
        XCTAssertThrowsError(try RGBAImage(width: 0, height: 1) { _ in })
    }

    func testRejectsABufferOfTheWrongSize() {
        XCTAssertThrowsError(try RGBAImage(width: 2, height: 2, bytes: [UInt8](repeating: 0, count: 15))) { error in
            XCTAssertEqual(error as? ImagingError, .bufferSizeMismatch(expected: 16, actual: 15))
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "an image buffer needs 16 bytes but has 15")
        }
    }

    func testOpacityIsTrueOnlyWhenEveryAlphaIsFull() {
        XCTAssertTrue(TestImage.solid(red).isOpaque)
        var image = TestImage.solid(red)
        image[3, 3] = RGBA(red: 255, green: 0, blue: 0, alpha: 254)
        XCTAssertFalse(image.isOpaque)
        // Every pixel of an image whose size is no multiple of eight, the last ones (read one by one) too.
        let solid = TestImage.solid(red, width: 7, height: 3)
        XCTAssertTrue(solid.isOpaque)
        for y in 0..<3 {
            for x in 0..<7 {
                var seeThrough = solid
                seeThrough[x, y] = RGBA(red: 255, green: 0, blue: 0, alpha: 0)
                XCTAssertFalse(seeThrough.isOpaque, "(\(x), \(y))")
            }
        }
    }

    func testInitializingClosureFillsTheBuffer() throws {
        let image = try RGBAImage(width: 1, height: 2) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index) }
        }
        XCTAssertEqual(image.pixels, [RGBA(red: 0, green: 1, blue: 2, alpha: 3), RGBA(red: 4, green: 5, blue: 6, alpha: 7)])
        // Memory of the same size, written and freed just before, so that an uncleared buffer would
        // likely be this one, with its bytes.
        do {
            let dirty = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4_096)
            dirty.initialize(repeating: 0xAB)
            dirty.deallocate()
        }
        let half = try RGBAImage(width: 32, height: 32) { buffer in
            for index in 0..<2_048 { buffer[index] = 9 }
        }
        XCTAssertEqual(Set(half.bytes[..<2_048]), [9])
        XCTAssertEqual(Set(half.bytes[2_048...]), [0], "what the closure leaves is cleared")
    }

    func testAClosureThatWritesEveryByteMakesTheImageItWrote() throws {
        let image = try RGBAImage.writingEveryByte(width: 2, height: 1) { buffer in
            XCTAssertEqual(buffer.count, 8)
            for index in buffer.indices { buffer[index] = UInt8(200 - index) }
        }
        XCTAssertEqual(image.pixels, [RGBA(red: 200, green: 199, blue: 198, alpha: 197), RGBA(red: 196, green: 195, blue: 194, alpha: 193)])
        XCTAssertThrowsError(try RGBAImage.writingEveryByte(width: 3, height: 0) { _ in }) { error in
            XCTAssertEqual(error as? ImagingError, .invalidDimensions(width: 3, height: 0))
        }
        struct Damaged: Error {}
        XCTAssertThrowsError(try RGBAImage.writingEveryByte(width: 1, height: 1) { _ in throw Damaged() }) { error in
            XCTAssertTrue(error is Damaged, "the closure's error is passed on")
        }
    }

    func testPixelSizeDescribesItself() {
        XCTAssertEqual(PixelSize(width: 640, height: 480).description, "640×480")
        XCTAssertEqual(PixelSize(width: 640, height: 480).pixelCount, 307_200)
        XCTAssertEqual(RGBA.red.description, "RGBA(255, 0, 0, 255)")
    }

    // MARK: The comparison helper itself

    func testComparisonFindsTheFirstDifferingPixelBeyondTolerance() {
        let expected = TestImage.solid(RGBA(red: 100, green: 100, blue: 100), width: 3, height: 3)
        var actual = expected
        actual[2, 0] = RGBA(red: 103, green: 100, blue: 100)
        actual[1, 2] = RGBA(red: 100, green: 90, blue: 100)
        XCTAssertNil(firstDifference(actual, expected, tolerance: 10))
        let loose = firstDifference(actual, expected, tolerance: 3)
        XCTAssertEqual(loose?.x, 1)
        XCTAssertEqual(loose?.y, 2)
        let strict = firstDifference(actual, expected, tolerance: 0)
        XCTAssertEqual(strict?.x, 2)
        XCTAssertEqual(strict?.y, 0)
        XCTAssertEqual(strict?.actual, RGBA(red: 103, green: 100, blue: 100))
    }

    func testFromColoursLaysOutRowByRow() {
        let image = TestImage.from(colours: [red, green, blue, white, red, green], width: 3)
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.rows, [[red, green, blue], [white, red, green]])
    }

    func testAPixelOfAlpha254AmongTheLastPixelsIsNotOpaque() {
        // 7 × 3: the last five pixels are read one by one, past the groups of eight.
        for x in 2..<7 {
            var image = TestImage.solid(red, width: 7, height: 3)
            image[x, 2] = RGBA(red: 255, green: 0, blue: 0, alpha: 254)
            XCTAssertFalse(image.isOpaque, "(\(x), 2)")
        }
    }

    func testASizeMadeSmallerRoundsItsShortSideToTheNearestPixel() {
        // 665 × 0.3 = 199.5 pixels: 200, across as down; 664 × 0.3 = 199.2: 199.
        XCTAssertEqual(PixelSize(width: 1000, height: 665).fitting(longSide: 300), PixelSize(width: 300, height: 200))
        XCTAssertEqual(PixelSize(width: 665, height: 1000).fitting(longSide: 300), PixelSize(width: 200, height: 300))
        XCTAssertEqual(PixelSize(width: 664, height: 1000).fitting(longSide: 300), PixelSize(width: 199, height: 300))
    }
}
