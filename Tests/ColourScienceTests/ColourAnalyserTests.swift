@testable import ColourScience
import Imaging
import TestSupport
import XCTest

final class ColourAnalyserTests: XCTestCase {
    let analyser = ColourAnalyser()
    let grey = RGBA(red: 128, green: 128, blue: 128)
    let busRed = RGBA(red: 204, green: 20, blue: 30)

    func testOneColourIsDominantWithAllTheWeight() {
        for colour in [RGBA.red, .white, .black, grey, RGBA(red: 30, green: 90, blue: 160)] {
            let analysis = analyser.analyse(TestImage.solid(colour, width: 50, height: 40))
            XCTAssertEqual(analysis.palette.count, 1, "\(colour)")
            let dominant = try! XCTUnwrap(analysis.dominant)
            XCTAssertEqual(dominant.weight, 1, accuracy: 1e-12)
            XCTAssertLessThan(deltaE2000(dominant.lab, Lab(colour)), 2, "\(colour)")
        }
    }

    func testTwoByTwoFourColoursGiveFourEntriesOfAQuarter() {
        let analysis = analyser.analyse(TestImage.twoByTwo(.red, .green, .blue, .white))
        XCTAssertEqual(analysis.palette.count, 4)
        for entry in analysis.palette {
            XCTAssertEqual(entry.weight, 0.25, accuracy: 1e-12)
        }
        XCTAssertEqual(Set(analysis.palette.map(\.name)), [.red, .green, .blue, .white])
        for colour in [RGBA.red, .green, .blue, .white] {
            XCTAssertTrue(analysis.palette.contains { deltaE2000($0.lab, Lab(colour)) < 1 }, "\(colour)")
        }
    }

    func testThreeByThreeTwoColoursGiveFiveNinthsAndFourNinths() {
        let analysis = analyser.analyse(TestImage.checkerboard(.blue, .white))
        XCTAssertEqual(analysis.palette.map(\.name), [.blue, .white])
        XCTAssertEqual(analysis.palette[0].weight, 5.0 / 9, accuracy: 1e-12)
        XCTAssertEqual(analysis.palette[1].weight, 4.0 / 9, accuracy: 1e-12)
    }

    func testASmallSaturatedObjectInAGreySceneIsTheAccentWhileGreyIsDominant() {
        var image = TestImage.solid(grey, width: 100, height: 100)
        for y in 40..<50 { for x in 60..<75 { image[x, y] = busRed } } // 1.5% of the frame
        let analysis = analyser.analyse(image)
        XCTAssertEqual(analysis.dominant?.name, .grey)
        let accent = try! XCTUnwrap(analysis.accent)
        XCTAssertEqual(accent.name, .red)
        XCTAssertLessThan(deltaE2000(accent.lab, Lab(busRed)), 2)
        XCTAssertEqual(accent.coverage, 0.015, accuracy: 0.003)
        XCTAssertEqual(accent.hue, Lab(busRed).lch.h, accuracy: 1)
    }

    func testAPureGreyImageHasNoAccent() {
        XCTAssertNil(analyser.analyse(TestImage.solid(grey, width: 20, height: 20)).accent)
        XCTAssertNil(analyser.analyse(TestImage.twoByTwo(.black, .white, grey, RGBA(red: 60, green: 60, blue: 62))).accent)
    }

    func testGreyNeverCountsAsRed() {
        // Warm greys with a trace of red have a hue angle near red's but no chroma to speak of.
        let warmGrey = RGBA(red: 140, green: 128, blue: 128)
        var image = TestImage.solid(warmGrey, width: 40, height: 40)
        for x in 0..<8 { image[x, 0] = RGBA(red: 30, green: 60, blue: 200) } // 0.5%
        XCTAssertEqual(analyser.analyse(image).accent?.name, .blue)
    }

    func testHuesEitherSideOfZeroAreOneAccent() {
        // Two magenta-reds, one just below 360° and one just above 0°, are gathered into one accent.
        let below = LCh(l: 50, c: 60, h: 356).lab.rgba, above = LCh(l: 50, c: 60, h: 4).lab.rgba
        var image = TestImage.solid(grey, width: 20, height: 10)
        for x in 0..<4 { image[x, 0] = below; image[x, 1] = above }
        let accent = try! XCTUnwrap(analyser.analyse(image).accent)
        XCTAssertEqual(accent.coverage, 8.0 / 200, accuracy: 1e-9)
        XCTAssertLessThan(Hue.distance(accent.hue, 0), 3, "between the two, across 0°")
    }

    func testAVividSmallColourOutranksALargeDullOne() {
        let olive = RGBA(red: 110, green: 120, blue: 80)
        var image = TestImage.solid(olive, width: 100, height: 100)
        for y in 45..<50 { for x in 40..<60 { image[x, y] = RGBA(red: 250, green: 200, blue: 0) } }
        let colours = analyser.analyse(image)
        XCTAssertEqual(colours.accent?.name, .yellow)
        XCTAssertEqual(colours.candidates.first?.name, .yellow)
    }

    func testTheSameImageAlwaysGetsTheSamePalette() {
        let image = TestImage.gradient(width: 300, height: 200)
        let first = analyser.analyse(image)
        for _ in 0..<3 { XCTAssertEqual(analyser.analyse(image), first) }
        XCTAssertLessThanOrEqual(first.palette.count, 8)
        XCTAssertEqual(first.palette.map(\.weight), first.palette.map(\.weight).sorted(by: >))
    }

    func testLargeImagesAreSampledOnAGrid() {
        var image = TestImage.solid(.white, width: 1024, height: 512)
        for y in 0..<512 { for x in 0..<512 { image[x, y] = .black } }
        let analysis = analyser.analyse(image)
        XCTAssertEqual(analysis.palette.count, 2)
        XCTAssertEqual(analysis.palette[0].weight, 0.5, accuracy: 0.01)
    }

    func testAStripThinnerThanASampleStepHasItsColours() {
        // 3000 × 2: a sample every 12 pixels along, and the strip shorter than a step across.
        let orange = RGBA(red: 255, green: 165, blue: 0)
        let palette = analyser.analyse(TestImage.solid(orange, width: 3000, height: 2)).palette
        XCTAssertEqual(palette.map(\.hex), [orange.hex])
        XCTAssertEqual(palette.map(\.weight), [1])
        let tall = analyser.analyse(TestImage.solid(orange, width: 1, height: 5000)).palette
        XCTAssertEqual(tall.map(\.hex), [orange.hex])
    }

    func testTransparentPixelsAreIgnoredAndAFullyTransparentImageHasNoColours() {
        var image = TestImage.solid(RGBA(red: 0, green: 0, blue: 0, alpha: 0), width: 4, height: 4)
        XCTAssertEqual(analyser.analyse(image), ColourAnalysis(palette: [], accent: nil))
        image[0, 0] = .red
        XCTAssertEqual(analyser.analyse(image).palette.map(\.weight), [1])
    }

    func testNameWeightsAddUpThePalette() {
        let analysis = analyser.analyse(TestImage.from(rows: [[.red, .red, RGBA(red: 200, green: 0, blue: 10), .blue]]))
        let weights = analysis.nameWeights
        XCTAssertEqual(weights[.red] ?? 0, 0.75, accuracy: 1e-9)
        XCTAssertEqual(weights[.blue] ?? 0, 0.25, accuracy: 1e-9)
    }

    func testAPaleColourWeighsLessTowardsItsNameThanItCovers() {
        let dusk = LCh(l: 63, c: 23, h: 330).lab.rgba, pink = LCh(l: 55, c: 60, h: 350).lab.rgba
        let weights = analyser.analyse(TestImage.from(rows: [[dusk, dusk, dusk, pink]])).nameWeights
        // The vivid quarter wholly; the pale three quarters about 0.3 each (their bin's mean colour).
        XCTAssertEqual(weights[.pink] ?? 0, 0.25 + 0.75 * 0.3, accuracy: 0.03)
        XCTAssertEqual(weights.values.reduce(0, +), 1, accuracy: 1e-9, "the rest is the neutral name's")
    }

    func testEachPointGoesToItsNearestCentreAndOneHalfWayToTheFirstOfTheTwo() {
        // Five centres on the L* axis, 10 apart; points half-way between each pair, on the last centre
        // and next to the first. A tie goes to the lower centre, odd or even.
        let centres = (0..<5).map { Lab(l: Double($0) * 10, a: 0, b: 0) }
        let points = [5.0, 15, 25, 35, 40, 1].map { ColourAnalyser.Point(lab: Lab(l: $0, a: 0, b: 0), weight: 1) }
        let clusters = ColourAnalyser().assign(points, to: centres)
        XCTAssertEqual(clusters.map(\.weight), [2, 1, 1, 1, 1])
        XCTAssertEqual(clusters.map(\.lab.l), [3, 15, 25, 35, 40])
    }

    func testTheMedianSplitIsTheOneASortWouldGive() {
        // Random boxes with many ties: the same two halves as sorting along the axis and cutting where
        // the running weight reaches half.
        var state: UInt64 = 99
        func next(_ range: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % range
        }
        for round in 0..<200 {
            let count = 2 + next(60)
            let box = (0..<count).map { _ in
                ColourAnalyser.Point(lab: Lab(l: Double(next(5)), a: Double(next(300)) / 7, b: 0), weight: Double(1 + next(9)))
            }
            let axis = round % 2
            let keys = box.map { ColourAnalyser.coordinate($0.lab, axis) }
            let order = box.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            let half = box.reduce(0) { $0 + $1.weight } / 2
            var running = 0.0, cut = 1
            for (position, index) in order.enumerated() {
                running += box[index].weight
                if running >= half { cut = min(max(position + 1, 1), count - 1); break }
            }
            let (left, right) = ColourAnalyser.splitAtWeightedMedian(box, axis: axis)
            func sortedWeights(_ points: [ColourAnalyser.Point]) -> [Double] {
                points.map { ColourAnalyser.coordinate($0.lab, axis) * 1000 + $0.weight }.sorted()
            }
            XCTAssertEqual(sortedWeights(left), sortedWeights(order[..<cut].map { box[$0] }), "round \(round)")
            XCTAssertEqual(sortedWeights(right), sortedWeights(order[cut...].map { box[$0] }), "round \(round)")
        }
    }
}
