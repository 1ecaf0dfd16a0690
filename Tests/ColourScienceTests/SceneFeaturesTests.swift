import Fixtures
import Imaging
import XCTest
@testable import ColourScience

final class SceneFeaturesTests: XCTestCase {
    /// A raster of `image` at its own size (one pixel a block).
    private func raster(_ image: RGBAImage) -> LabRaster { LabRaster(image, longSide: max(image.width, image.height)) }

    func testEdgeDensityIsTheShareOfNeighboursSideBySideOrOneAboveTheOtherThatDifferByFifteen() {
        // 4 × 3: 3 × 3 pairs side by side and 4 × 2 one above the other, 17 in all.
        let red = RGBA(red: 200, green: 30, blue: 30), blue = RGBA(red: 30, green: 60, blue: 200)
        let leftAndRight = TestImage.from(rows: Array(repeating: [red, red, blue, blue], count: 3))
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(leftAndRight)), 3.0 / 17, accuracy: 1e-12, "one pair a row")
        let topAndBottom = TestImage.from(rows: [[red, red, red, red], [blue, blue, blue, blue], [blue, blue, blue, blue]])
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(topAndBottom)), 4.0 / 17, accuracy: 1e-12, "one pair a column")
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(TestImage.solid(red, width: 4, height: 3))), 0)
        // A step of less than ΔE76 15 is no edge: two greys 10 L* apart.
        let grey = Lab(l: 50, a: 0, b: 0).rgba, lighter = Lab(l: 60, a: 0, b: 0).rgba
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(TestImage.from(rows: [[grey, lighter], [grey, lighter]]))), 0)
    }

    func testARowOrAColumnOfPixelsHasOnlyTheEdgesAlongIt() {
        let colours: [RGBA] = [.red, .red, .blue, .blue, .red]
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(TestImage.from(rows: [colours]))), 2.0 / 4, accuracy: 1e-12)
        XCTAssertEqual(SceneFeatures.edgeDensity(raster(TestImage.from(colours: colours, width: 1))), 2.0 / 4, accuracy: 1e-12)
    }

    func testACellOfThreeVividHuesIsMixedAndAHueInFourCellsIsSpread() {
        // 24 × 8: the 8 × 8 grid's cells are 3 pixels wide and 1 tall. Cell 0 holds sectors 0, 1 and 2 (45°
        // each, nine 5° bins); sector 0 is also in cells 1, 2 and 3, at C* 25 (vivid), and sector 3 in
        // cells 4–7 at C* 24 (not).
        let width = 24, height = 8
        var bins = [Int](repeating: -1, count: width * height), chromas = [Float](repeating: 0, count: width * height)
        for (pixel, bin) in [(0, 0), (1, 9), (2, 18), (3, 0), (6, 0), (9, 0)] { (bins[pixel], chromas[pixel]) = (bin, 25) }
        for pixel in [12, 15, 18, 21] { (bins[pixel], chromas[pixel]) = (27, 24) }
        let raster = raster(TestImage.solid(.white, width: width, height: height))
        let (mixed, spread) = SceneFeatures.cellMixing(raster, hueBins: bins, chromas: chromas)
        XCTAssertEqual(mixed, 1.0 / 64, accuracy: 1e-12)
        XCTAssertEqual(spread, 1)
    }

    func testTwoGreysSixteenApartInLightnessAreAnEdgeAndFourteenApartAreNot() {
        let grey = Lab(l: 50, a: 0, b: 0).rgba
        for (step, isEdge) in [(16.0, true), (14.0, false)] {
            let other = Lab(l: 50 + step, a: 0, b: 0).rgba
            XCTAssertEqual(SceneFeatures.edgeDensity(raster(TestImage.from(rows: [[grey, other]]))), isEdge ? 1 : 0, "ΔE76 \(step)")
        }
    }

    func testACellOfTwoVividHuesIsNotMixed() {
        // 24 × 8: cell 0 holds sectors 0 and 1 only, each at C* 25.
        let width = 24, height = 8
        var bins = [Int](repeating: -1, count: width * height), chromas = [Float](repeating: 0, count: width * height)
        for (pixel, bin) in [(0, 0), (1, 9)] { (bins[pixel], chromas[pixel]) = (bin, 25) }
        let (mixed, _) = SceneFeatures.cellMixing(raster(TestImage.solid(.white, width: width, height: height)), hueBins: bins, chromas: chromas)
        XCTAssertEqual(mixed, 0)
    }

    /// Flat 6 × 6 patches of distinct colours, 2 pixels apart, on a dark ground of 48 × 40, at `cells` of a grid.
    private func patches(at cells: [(column: Int, row: Int)]) -> RGBAImage {
        var image = TestImage.solid(RGBA(red: 30, green: 30, blue: 30), width: 48, height: 40)
        for (index, cell) in cells.enumerated() {
            let colour = LCh(l: 60, c: 50, h: Double(index) * 40).lab.rgba
            for y in 0..<6 { for x in 0..<6 { image[4 + cell.column * 8 + x, 4 + cell.row * 8 + y] = colour } }
        }
        return image
    }

    func testTwoPatchesSideBySideAreNoLatticeAndAGridOfNineIs() {
        XCTAssertEqual(SceneFeatures.latticePatches(raster(patches(at: [(0, 0), (1, 0)]))), 0, "each has one neighbour")
        let grid = (0..<3).flatMap { row in (0..<3).map { (column: $0, row: row) } }
        XCTAssertEqual(SceneFeatures.latticePatches(raster(patches(at: grid))), 9, "each has two neighbours or more")
    }
}
