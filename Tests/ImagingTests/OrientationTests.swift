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
