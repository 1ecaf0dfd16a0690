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
}
