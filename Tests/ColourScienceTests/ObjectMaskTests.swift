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
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0, cells = 0
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) {
                        cells += 1
                        sum += kept[ny * width + nx] ? 1 : 0
                    }
                }
                let expected = kept[y * width + x] ? 255 : sum * 255 / cells
                XCTAssertEqual(Int(softened[y * width + x]), expected, "(\(x), \(y))")
            }
        }
        XCTAssertEqual(Int(softened[0]), 0, "far from the region")
        XCTAssertEqual(Int(softened[1 * width + 1]), 255 * 2 / 9, "beside its edge, two of nine")
        XCTAssertEqual(Int(softened[3 * width + 6]), 255 / 6, "on the frame's edge, one of the six cells of its window")
    }
}
