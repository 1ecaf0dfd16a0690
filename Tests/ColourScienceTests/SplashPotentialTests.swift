import ColourScience
import Imaging
import XCTest

final class SplashPotentialTests: XCTestCase {
    let red = LCh(l: 50, c: 75, h: 35)

    /// An analysis whose accent is `colour` with the given traits.
    func analysis(_ colour: LCh, coverage: Double, contrast: Double = 50, regions: Int = 1, compactness: Double = 0.9,
                  hueFamilies: Int = 2, texture: Double = 2) -> ColourAnalysis {
        let accent = Accent(lab: colour.lab, hue: colour.h, coverage: coverage, name: ColourName.nearest(to: colour.lab),
                            saliency: 0.5, contrast: contrast, regions: regions, compactness: compactness, texture: texture)
        return ColourAnalysis(palette: [], accent: accent, hueFamilies: hueFamilies)
    }

    func testOneCompactVividSubjectInACalmSceneScoresHighAndSaysWhy() throws {
        let bus = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06)))
        XCTAssertGreaterThan(bus.score, 80)
        XCTAssertEqual(bus.reason, "one compact vivid red subject (6% of the frame), strong contrast, calm scene")
        XCTAssertEqual(bus.score, (100 * bus.vividness * bus.size * bus.focus * bus.contrast * bus.calm * bus.photographic * 10)
            .rounded() / 10)
    }

    func testAFlatColourAProgramFilledIsNoPhotograph() throws {
        let square = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, texture: 0)))
        let lit = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, texture: 0.5)))
        XCTAssertEqual(square.score, 0)
        XCTAssertTrue(square.reason.hasSuffix("a flat colour, as drawn by a program"), square.reason)
        XCTAssertEqual(lit.photographic, 1)
        XCTAssertFalse(lit.reason.contains("flat"), lit.reason)
    }

    func testAPhotoWithoutAStandoutAccentHasNothingToSplash() {
        XCTAssertNil(SplashPotential(ColourAnalysis(palette: [], accent: nil)))
    }

    func testABusySceneOfManyHuesScoresFarLess() throws {
        let calm = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, hueFamilies: 3)))
        let chart = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, hueFamilies: 6)))
        XCTAssertEqual(calm.calm, 1)
        XCTAssertLessThan(chart.calm, 0.01)
        XCTAssertLessThan(chart.score, 1)
        XCTAssertTrue(chart.reason.hasSuffix("busy scene of many colours"), chart.reason)
    }

    func testTheSizeTermWantsAModestShareOfTheFrame() throws {
        let speck = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.001)))
        let modest = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.08)))
        let most = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.6)))
        XCTAssertEqual(speck.size, 0)
        XCTAssertEqual(modest.size, 1)
        XCTAssertEqual(most.size, 0)
        XCTAssertTrue(speck.reason.contains("too small"), speck.reason)
        XCTAssertTrue(most.reason.contains("too large"), most.reason)
    }

    func testScatteredPiecesLittleContrastAndSoftColourEachScoreLess() throws {
        let best = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06))).score
        let scattered = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, regions: 9, compactness: 0.1)))
        let flat = try XCTUnwrap(SplashPotential(analysis(red, coverage: 0.06, contrast: 12)))
        let soft = try XCTUnwrap(SplashPotential(analysis(LCh(l: 50, c: 32, h: 35), coverage: 0.06)))
        XCTAssertLessThan(scattered.score, best / 2)
        XCTAssertTrue(scattered.reason.hasPrefix("many scattered"), scattered.reason)
        XCTAssertLessThan(flat.score, best / 4)
        XCTAssertTrue(flat.reason.contains("little contrast"), flat.reason)
        XCTAssertLessThan(soft.score, best / 4)
        XCTAssertTrue(soft.reason.contains(" soft "), soft.reason)
    }
}
