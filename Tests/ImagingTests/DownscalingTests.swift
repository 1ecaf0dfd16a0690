import Imaging
import TestSupport
import XCTest

final class DownscalingTests: XCTestCase {
    let red = RGBA.red, white = RGBA.white

    /// Each pixel of `image` as a `factor` × `factor` block.
    func enlarged(_ image: RGBAImage, by factor: Int) -> RGBAImage {
        TestImage.from(rows: (0..<image.height * factor).map { y in
            (0..<image.width * factor).map { x in image[x / factor, y / factor] }
        })
    }

    func testAThreeByThreeTwoColourImageKeepsItsColoursInTheirPlaces() {
        let image = TestImage.threeByThree(border: white, centre: red)
        let scaled = enlarged(image, by: 5).downscaled(toLongSide: 3)
        assertImagesEqual(scaled, image)
    }

    func testPartlyCoveredPixelsCountByTheirShare() {
        // Three columns into two: each output covers one column whole and half of the middle one.
        let image = TestImage.from(rows: [[RGBA(red: 0, green: 0, blue: 0), RGBA(red: 90, green: 90, blue: 90), RGBA(red: 180, green: 180, blue: 180)]])
        let scaled = image.downscaled(toLongSide: 2)
        XCTAssertEqual(scaled.width, 2)
        XCTAssertEqual(scaled.height, 1)
        XCTAssertEqual(scaled[0, 0], RGBA(red: 30, green: 30, blue: 30))
        XCTAssertEqual(scaled[1, 0], RGBA(red: 150, green: 150, blue: 150))
    }

    func testTheAspectIsKeptAndSmallImagesAreLeftAlone() {
        let image = TestImage.gradient(width: 400, height: 100)
        let scaled = image.downscaled(toLongSide: 100)
        XCTAssertEqual(PixelSize(width: scaled.width, height: scaled.height), PixelSize(width: 100, height: 25))
        let tall = TestImage.gradient(width: 30, height: 90).downscaled(toLongSide: 45)
        XCTAssertEqual(PixelSize(width: tall.width, height: tall.height), PixelSize(width: 15, height: 45))
        XCTAssertEqual(image.downscaled(toLongSide: 400), image)
        XCTAssertEqual(image.downscaled(toLongSide: 1000), image, "never enlarged")
    }

    func testFineDetailAveragesInsteadOfAliasing() {
        // A one-pixel checkerboard of black and white: nearest-neighbour would give black or white.
        let checker = TestImage.from(rows: (0..<8).map { y in (0..<8).map { x in (x + y) % 2 == 0 ? RGBA.black : white } })
        let scaled = checker.downscaled(toLongSide: 2)
        for pixel in scaled.pixels { XCTAssertEqual(Int(pixel.red), 128, accuracy: 1) }
    }

    func testTransparentPixelsLendNoColour() {
        let image = TestImage.from(rows: [[RGBA(red: 255, green: 0, blue: 0, alpha: 255), RGBA(red: 0, green: 0, blue: 255, alpha: 0)]])
        let scaled = image.downscaled(toLongSide: 1)
        XCTAssertEqual(scaled[0, 0], RGBA(red: 255, green: 0, blue: 0, alpha: 128))
    }

    func testTheQuickThumbnailScaleIsTheBoxFilterToWithinRounding() throws {
        for (width, height, long) in [(500, 375, 320), (384, 256, 320), (640, 480, 320), (1000, 37, 333), (7, 5, 3)] {
            let image = TestImage.distinctPixels(width: width, height: height)
            let quick = image.quicklyDownscaled(toLongSide: long), exact = image.downscaled(toLongSide: long)
            assertImagesEqual(quick, exact, tolerance: 1, "\(width)×\(height) → \(long)")
        }
        let small = TestImage.gradient(width: 200, height: 100)
        XCTAssertEqual(small.quicklyDownscaled(toLongSide: 320), small, "a smaller image is left alone")
        var clear = TestImage.solid(RGBA(red: 255, green: 0, blue: 0, alpha: 0), width: 40, height: 40)
        clear[0, 0] = RGBA(red: 0, green: 0, blue: 255)
        XCTAssertEqual(clear.quicklyDownscaled(toLongSide: 20), clear.downscaled(toLongSide: 20), "transparency takes the exact path")
    }

    func testAPictureOfOneColourMadeSmallerQuicklyKeepsThatColourExactly() {
        for (width, height, long) in [(7, 5, 3), (10, 4, 3), (999, 10, 100), (300, 200, 120)] {
            for value in [1, 77, 128, 200, 254, 255] {
                let colour = RGBA(red: UInt8(value), green: UInt8(255 - value), blue: UInt8(value / 2))
                let scaled = TestImage.solid(colour, width: width, height: height).quicklyDownscaled(toLongSide: long)
                XCTAssertEqual(Set(scaled.pixels), [colour], "\(width)×\(height) → \(long), \(colour)")
            }
        }
    }
}
