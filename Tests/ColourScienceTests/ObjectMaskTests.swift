@testable import ColourScience
import XCTest

/// The object mask's parts that the splash's own tests (`ObjectSplashTests`) see only through the
/// pictures they make.
final class ObjectMaskTests: XCTestCase {
    /// The region map's soft edge: a kept raster pixel is wholly kept; any other gets the share of its
    /// 3 × 3 window (the cells of it inside the grid) that is kept, as the definition says.
    func testTheRegionMapFadesOverOnePixelBesideAKeptRegion() {
        let width = 7, height = 5
        let kept = (0..<width * height).map { index in
            let x = index % width, y = index / width
            return (x >= 2 && x <= 3 && y >= 1 && y <= 2) || (x == 6 && y == 4)
        }
        let softened = ObjectMask.softened(kept, width: width, height: height)
        // Worked out by hand from the definition: kept cells 255, others ⌊255 × kept / cells⌋ of the
        // window (9 inside the grid, 6 on an edge, 4 in a corner).
        let expected: [Int] = [
            0, 42, 85, 85, 42, 0, 0,
            0, 56, 255, 255, 56, 0, 0,
            0, 56, 255, 255, 56, 0, 0,
            0, 28, 56, 56, 28, 28, 42,
            0, 0, 0, 0, 0, 42, 255,
        ]
        for index in expected.indices {
            XCTAssertEqual(Int(softened[index]), expected[index], "(\(index % width), \(index / width))")
        }
        XCTAssertEqual(Int(softened[0]), 0, "far from the region")
        XCTAssertEqual(Int(softened[1 * width + 1]), 255 * 2 / 9, "beside its edge, two of nine")
        XCTAssertEqual(Int(softened[3 * width + 6]), 255 / 6, "on the frame's edge, one of the six cells of its window")
    }
}
