import Fixtures
import Imaging
import XCTest
@testable import ColourScience

final class LabRasterTests: XCTestCase {
    /// Within 0.01 of each other in L*, a* and b*.
    private func assertLab(_ raster: LabRaster, _ index: Int, equals expected: Lab, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(raster.l[index]), expected.l, accuracy: 0.01, "L*", file: file, line: line)
        XCTAssertEqual(Double(raster.a[index]), expected.a, accuracy: 0.01, "a*", file: file, line: line)
        XCTAssertEqual(Double(raster.b[index]), expected.b, accuracy: 0.01, "b*", file: file, line: line)
    }

    /// The blocks among `indices` whose L*, a* or b* differ at all between two rasters.
    private static func blocksOfOtherColours(_ first: LabRaster, _ second: LabRaster, among indices: Range<Int>) -> [Int] {
        indices.filter { index in
            let lightness = first.l[index] == second.l[index]
            return !(lightness && first.a[index] == second.a[index] && first.b[index] == second.b[index])
        }
    }

    func testAnOpaqueBlockIsTheMeanOfItsPixels() {
        let grey = RGBA(red: 128, green: 128, blue: 128)  // the mean of black's and white's values, 127.5
        let raster = LabRaster(TestImage.twoByTwo(.white, .black, .black, .white), longSide: 1)
        XCTAssertEqual([raster.width, raster.height], [1, 1])
        XCTAssertEqual(raster.opaque, [true])
        XCTAssertEqual(Double(raster.l[0]), Lab(grey).l, accuracy: 0.3)
        XCTAssertEqual(Double(raster.chroma(0)), 0, accuracy: 0.01)
    }

    func testTransparentPixelsOfABlockAddNothingToItsColour() {
        // Two opaque reds and two blues of no opacity: the block is red, not purple, and opaque
        // enough (half its alpha) to have a colour.
        let clear = RGBA(red: 0, green: 0, blue: 255, alpha: 0)
        let raster = LabRaster(TestImage.twoByTwo(.red, clear, clear, .red), longSide: 1)
        XCTAssertEqual(raster.opaque, [true])
        assertLab(raster, 0, equals: Lab(.red))
    }

    func testATranslucentPixelCountsByItsAlpha() {
        // Red at full alpha and blue at a third of it, side by side in each row of the block.
        let blue = RGBA(red: 0, green: 0, blue: 255, alpha: 85)
        let raster = LabRaster(TestImage.twoByTwo(.red, blue, .red, blue), longSide: 1)
        let mixed = LabRaster(TestImage.twoByTwo(.red, .red, .red, RGBA(red: 0, green: 0, blue: 255)), longSide: 1)
        assertLab(raster, 0, equals: Lab(l: Double(mixed.l[0]), a: Double(mixed.a[0]), b: Double(mixed.b[0])))
    }

    func testAStripOfSeveralBlocksKeepsEachBlocksOwnColour() {
        // 12 × 2 at a long side of 6: six blocks of 2 × 2 across one row of blocks, each of its own colour.
        let colours: [RGBA] = [.red, .green, .blue, .white, .black, RGBA(red: 255, green: 165, blue: 0)]
        let image = TestImage.from(rows: [colours.flatMap { [$0, $0] }, colours.flatMap { [$0, $0] }])
        let raster = LabRaster(image, longSide: 6)
        XCTAssertEqual([raster.width, raster.height], [6, 1])
        for (index, colour) in colours.enumerated() { assertLab(raster, index, equals: Lab(colour)) }
        let tall = LabRaster(TestImage.from(colours: colours.flatMap { [$0, $0] }, width: 1), longSide: 6)
        XCTAssertEqual([tall.width, tall.height], [1, 6])
        for (index, colour) in colours.enumerated() { assertLab(tall, index, equals: Lab(colour)) }
    }

    func testABlockMostlyTransparentHasNoColour() {
        let clear = RGBA(red: 255, green: 0, blue: 0, alpha: 0)
        let raster = LabRaster(TestImage.twoByTwo(.red, clear, clear, clear), longSide: 1)
        XCTAssertEqual(raster.opaque, [false])
    }

    func testAPictureNarrowerThanABlockIsOneBlockOfItsOwnSize() {
        // 4 × 1 at a long side of 1: a block of four columns and the one row there is.
        let raster = LabRaster(TestImage.from(rows: [[.red, .red, .red, RGBA(red: 0, green: 0, blue: 255)]]), longSide: 1)
        let mixed = LabRaster(TestImage.twoByTwo(.red, .red, .red, RGBA(red: 0, green: 0, blue: 255)), longSide: 1)
        XCTAssertEqual([raster.width, raster.height], [1, 1])
        XCTAssertEqual(raster.opaque, [true])
        assertLab(raster, 0, equals: Lab(l: Double(mixed.l[0]), a: Double(mixed.a[0]), b: Double(mixed.b[0])))
    }

    func testABlockTooLargeForItsSumsIsMadeFromTheDownscaledPicture() {
        // 70,000 × 1 white at a long side of 1: one block of 70,000 pixels, whose red × 255 would pass
        // 2³² and wrap.
        let raster = LabRaster(TestImage.solid(.white, width: 70_000, height: 1), longSide: 1)
        XCTAssertEqual([raster.width, raster.height], [1, 1])
        XCTAssertEqual(raster.opaque, [true])
        assertLab(raster, 0, equals: Lab(.white))
    }

    func testOnlyTheBlocksTheRasterCoversAreRead() {
        // A 3 × 3 picture at factor 2 is one block of its top-left 2 × 2; a transparent pixel in the
        // last row or column is outside it and changes nothing (nor sends the blocks to be summed again).
        var image = TestImage.solid(.red, width: 3, height: 3)
        let opaque = LabRaster(image, longSide: 2)
        image[2, 2] = RGBA(red: 0, green: 0, blue: 255, alpha: 0)
        let withClearCorner = LabRaster(image, longSide: 2)
        XCTAssertEqual([withClearCorner.width, withClearCorner.height], [1, 1])
        XCTAssertEqual(withClearCorner.opaque, [true])
        XCTAssertEqual(withClearCorner.l, opaque.l)
        XCTAssertEqual(withClearCorner.a, opaque.a)
        XCTAssertEqual(withClearCorner.b, opaque.b)
    }

    func testOpaqueBlocksReadFromTheTableOfSumsHaveTheColoursOfBlocksInterpolatedOneByOne() {
        // 256 × 256 pixels of seeded noise at a long side of 64: 4,096 blocks of 4 × 4, opaque, so a
        // channel's linear light is read from a table of its 4,081 possible sums. One pixel of the last
        // block made half translucent sends every block through the interpolation of its mean instead;
        // every other block must come out the same to the bit.
        var generator = SeededGenerator(state: 41)
        var image = TestImage.from(colours: (0..<(256 * 256)).map { _ in
            RGBA(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                 blue: .random(in: 0...255, using: &generator))
        }, width: 256)
        XCTAssertTrue(LabRaster.tabulatesSums(pixelsPerBlock: 16, count: 64 * 64), "the first raster reads the table")
        let tabulated = LabRaster(image, longSide: 64)
        image[255, 255] = RGBA(red: image[255, 255].red, green: image[255, 255].green, blue: image[255, 255].blue, alpha: 128)
        let interpolated = LabRaster(image, longSide: 64)
        XCTAssertEqual([tabulated.width, tabulated.height], [64, 64])
        let differing = Self.blocksOfOtherColours(tabulated, interpolated, among: 0..<(64 * 64 - 1))
        XCTAssertEqual(differing.count, 0, "blocks of another colour, the first at \(differing.first ?? -1)")
        XCTAssertNotEqual(tabulated.l.last, interpolated.l.last, "the translucent pixel counts less in its block")
        XCTAssertEqual(Set(tabulated.a).count, 64 * 64, "noise: every block its own colour")
    }

    func testOpaqueBlocksSummedFourPixelsAtATimeHaveTheColoursOfBlocksSummedPixelByPixel() {
        // Seeded noise in blocks 11 and 12 pixels wide (groups of four, and three pixels left over, or
        // none): opaque, each block's row is added four pixels a load; one pixel of the last block made
        // translucent sends every block to be summed pixel by pixel, weighed by alpha. Both rasters are
        // too small for the table of sums, so every other block must come out the same to the bit.
        for blockSide in [11, 12] {
            var generator = SeededGenerator(state: UInt64(blockSide))
            let width = blockSide * 20, height = blockSide * 3
            var image = TestImage.from(colours: (0..<(width * height)).map { _ in
                RGBA(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                     blue: .random(in: 0...255, using: &generator))
            }, width: width)
            XCTAssertFalse(LabRaster.tabulatesSums(pixelsPerBlock: blockSide * blockSide, count: 60))
            let quads = LabRaster(image, longSide: 20)
            let last = (x: width - 1, y: height - 1)
            image[last.x, last.y] = RGBA(red: image[last.x, last.y].red, green: image[last.x, last.y].green,
                                         blue: image[last.x, last.y].blue, alpha: 254)
            let byPixel = LabRaster(image, longSide: 20)
            XCTAssertEqual([quads.width, quads.height], [20, 3])
            let differing = Self.blocksOfOtherColours(quads, byPixel, among: 0..<(20 * 3 - 1))
            XCTAssertEqual(differing, [Int](), "blocks \(blockSide) wide")
            XCTAssertEqual(Set(quads.a).count, 60, "noise: every block its own colour")
        }
    }

    func testABlockRowTooWideForSixteenBitLanesIsStillItsMean() {
        // 2,000 × 2 white at a long side of 1: one block whose rows of 500 groups of four would pass
        // 65,535 in 16-bit lanes and wrap.
        let raster = LabRaster(TestImage.solid(.white, width: 2_000, height: 2), longSide: 1)
        XCTAssertEqual([raster.width, raster.height], [1, 1])
        assertLab(raster, 0, equals: Lab(.white))
    }

    func testTheBoxMeanAveragesEachPixelsThreeByThreeWithinTheGrid() {
        // 0 1 2 3 / 4 5 6 7 / 8 9 10 11
        let mean = LabRaster.boxMean((0..<12).map(Float.init), width: 4, height: 3)
        XCTAssertEqual(mean[0], (0 + 1 + 4 + 5) / 4, "a corner: four pixels")
        XCTAssertEqual(mean[5], (0 + 1 + 2 + 4 + 5 + 6 + 8 + 9 + 10) / 9, "inside: nine")
        XCTAssertEqual(mean[7], (2 + 3 + 6 + 7 + 10 + 11) / 6, "an edge: six")
    }

    func testTheAveragedRasterIsEachChannelsBoxMeanWithTheSameOpacity() {
        let raster = LabRaster(TestImage.distinctPixels(width: 5, height: 4), longSide: 5)
        let averaged = raster.averaged()
        XCTAssertEqual([averaged.width, averaged.height], [5, 4])
        XCTAssertEqual(averaged.l, LabRaster.boxMean(raster.l, width: 5, height: 4))
        XCTAssertEqual(averaged.a, LabRaster.boxMean(raster.a, width: 5, height: 4))
        XCTAssertEqual(averaged.b, LabRaster.boxMean(raster.b, width: 5, height: 4))
        XCTAssertEqual(averaged.opaque, raster.opaque)
    }
}
