import Imaging
import TestSupport
import XCTest

final class OrientationTests: XCTestCase {
    // Six distinct colours in a 3×2 image:  a b c / d e f
    let a = RGBA(red: 1, green: 0, blue: 0), b = RGBA(red: 2, green: 0, blue: 0), c = RGBA(red: 3, green: 0, blue: 0)
    let d = RGBA(red: 4, green: 0, blue: 0), e = RGBA(red: 5, green: 0, blue: 0), f = RGBA(red: 6, green: 0, blue: 0)

    var stored: RGBAImage { TestImage.from(rows: [[a, b, c], [d, e, f]]) }

    func testEachOfTheEightOrientationsTurnsThePixelsAsEXIFDefines() {
        let expected: [Orientation: [[RGBA]]] = [
            .up: [[a, b, c], [d, e, f]],
            .upMirrored: [[c, b, a], [f, e, d]],
            .down: [[f, e, d], [c, b, a]],
            .downMirrored: [[d, e, f], [a, b, c]],
            .leftMirrored: [[a, d], [b, e], [c, f]],
            .right: [[d, a], [e, b], [f, c]],
            .rightMirrored: [[f, c], [e, b], [d, a]],
            .left: [[c, f], [b, e], [a, d]],
        ]
        for orientation in Orientation.allCases {
            let turned = stored.applying(orientation)
            XCTAssertEqual(turned.rows, expected[orientation], "orientation \(orientation.rawValue)")
        }
    }

    func testAnImageLargerThanATileIsTurnedPixelByPixel() {
        // 70 × 45: tiles of the turn that end inside the image on both sides.
        let image = TestImage.distinctPixels(width: 70, height: 45)
        let (w, h) = (image.width, image.height)
        // Where each orientation's pixel (x, y) comes from, as EXIF defines it.
        let source: [Orientation: (Int, Int) -> (Int, Int)] = [
            .up: { ($0, $1) }, .upMirrored: { (w - 1 - $0, $1) }, .down: { (w - 1 - $0, h - 1 - $1) },
            .downMirrored: { ($0, h - 1 - $1) }, .leftMirrored: { ($1, $0) }, .right: { ($1, h - 1 - $0) },
            .rightMirrored: { (w - 1 - $1, h - 1 - $0) }, .left: { (w - 1 - $1, $0) },
        ]
        for orientation in Orientation.allCases {
            let turned = image.applying(orientation)
            for y in 0..<turned.height {
                for x in 0..<turned.width {
                    let (sx, sy) = source[orientation]!(x, y)
                    XCTAssertEqual(turned[x, y], image[sx, sy], "orientation \(orientation.rawValue) at (\(x), \(y))")
                }
            }
        }
    }

    func testOrientationsFiveToEightSwapWidthAndHeight() {
        for orientation in Orientation.allCases {
            let turned = stored.applying(orientation)
            XCTAssertEqual(orientation.swapsDimensions, orientation.rawValue >= 5)
            XCTAssertEqual(turned.width, orientation.swapsDimensions ? 2 : 3)
            XCTAssertEqual(turned.height, orientation.swapsDimensions ? 3 : 2)
        }
    }

    func testTurningFourTimesRightReturnsTheOriginal() {
        let image = TestImage.distinctPixels(width: 5, height: 3)
        let turned = image.applying(.right).applying(.right).applying(.right).applying(.right)
        assertImagesEqual(turned, image)
    }

    func testMirroringTwiceReturnsTheOriginal() {
        let image = TestImage.distinctPixels(width: 4, height: 7)
        assertImagesEqual(image.applying(.upMirrored).applying(.upMirrored), image)
        assertImagesEqual(image.applying(.leftMirrored).applying(.leftMirrored), image)
    }
}
