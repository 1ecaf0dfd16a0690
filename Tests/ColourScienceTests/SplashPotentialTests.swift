import ColourScience
import Imaging
import XCTest

final class SplashPotentialTests: XCTestCase {
    func entry(_ lch: LCh, _ weight: Double) -> PaletteEntry {
        PaletteEntry(lab: lch.lab, weight: weight, name: ColourName.nearest(to: lch.lab))
    }

    func analysis(_ palette: [PaletteEntry], accent: (LCh, Double)?) -> ColourAnalysis {
        ColourAnalysis(palette: palette, accent: accent.map { Accent(lab: $0.0.lab, hue: $0.0.h, coverage: $0.1, name: ColourName.nearest(to: $0.0.lab)) })
    }

    let grey = LCh(l: 55, c: 2, h: 0), red = LCh(l: 50, c: 75, h: 35), green = LCh(l: 55, c: 60, h: 140)
    let blue = LCh(l: 45, c: 60, h: 280), yellow = LCh(l: 85, c: 80, h: 95)

    func testASmallVividAccentInAGreySceneBeatsAnAllGreenPhotoAndAGreyOneHasNone() throws {
        let bus = try XCTUnwrap(SplashPotential(analysis([entry(grey, 0.94), entry(red, 0.06)], accent: (red, 0.06))))
        let lawn = try XCTUnwrap(SplashPotential(analysis([entry(green, 1)], accent: (green, 1))))
        XCTAssertGreaterThan(bus.score, 80)
        XCTAssertLessThan(lawn.score, 5)
        XCTAssertGreaterThan(bus.score, lawn.score)
        XCTAssertNil(SplashPotential(analysis([entry(grey, 1)], accent: nil)), "nothing to splash")
        XCTAssertEqual(bus.reason, "small vivid red accent (6% of frame) against a grey scene")
        XCTAssertEqual(bus.calm, 1, accuracy: 1e-9)
        XCTAssertEqual(bus.score, (100 * bus.vividness * bus.size * bus.calm * 10).rounded() / 10)
    }

    func testOtherStrongColoursCompeteWithTheAccent() throws {
        let market = try XCTUnwrap(SplashPotential(analysis([entry(blue, 0.4), entry(yellow, 0.35), entry(red, 0.08), entry(grey, 0.17)],
                                                            accent: (red, 0.08))))
        let street = try XCTUnwrap(SplashPotential(analysis([entry(grey, 0.92), entry(red, 0.08)], accent: (red, 0.08))))
        XCTAssertLessThan(market.calm, 0.3)
        XCTAssertLessThan(market.score, street.score / 3)
        XCTAssertEqual(market.reason, "small vivid red accent (8% of frame) among other strong colours")
        let sky = try XCTUnwrap(SplashPotential(analysis([entry(LCh(l: 60, c: 20, h: 250), 0.9), entry(red, 0.1)], accent: (red, 0.1))))
        XCTAssertEqual(sky.reason, "medium vivid red accent (10% of frame) against a mostly blue scene")
    }

    func testTheSizeTermPeaksAtAModestShare() throws {
        func size(_ coverage: Double) throws -> Double {
            try XCTUnwrap(SplashPotential(analysis([entry(grey, 1 - coverage), entry(red, coverage)], accent: (red, coverage)))).size
        }
        XCTAssertEqual(try size(0.08), 1, accuracy: 1e-9)
        XCTAssertEqual(try size(0.04), try size(0.16), accuracy: 0.02)
        XCTAssertGreaterThan(try size(0.08), try size(0.3))
        XCTAssertGreaterThan(try size(0.3), try size(0.6))
        XCTAssertLessThan(try size(0.005), 0.05, "a speck is not an accent")
        let speck = try XCTUnwrap(SplashPotential(analysis([entry(grey, 0.995), entry(red, 0.005)], accent: (red, 0.005))))
        XCTAssertTrue(speck.reason.contains("(0.5% of frame)"), speck.reason)
    }

    func testASofterAccentScoresLess() throws {
        let soft = LCh(l: 50, c: 35, h: 35)
        let pastel = try XCTUnwrap(SplashPotential(analysis([entry(grey, 0.9), entry(soft, 0.1)], accent: (soft, 0.1))))
        let vivid = try XCTUnwrap(SplashPotential(analysis([entry(grey, 0.9), entry(red, 0.1)], accent: (red, 0.1))))
        XCTAssertLessThan(pastel.vividness, vivid.vividness)
        XCTAssertTrue(pastel.reason.hasPrefix("medium soft"), pastel.reason)
        XCTAssertLessThan(pastel.score, vivid.score)
    }
}
