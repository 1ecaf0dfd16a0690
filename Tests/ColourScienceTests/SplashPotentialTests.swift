import ColourScience
import Imaging
import XCTest

final class SplashPotentialTests: XCTestCase {
    let red = LCh(l: 50, c: 75, h: 35)
    let photoSize = PixelSize(width: 1600, height: 1200)

    /// An analysis whose accent is `colour` with the given traits, in a scene whose other colours are
    /// a green of C* `otherChroma` over 40% of the frame and greys.
    func analysis(_ colour: LCh, coverage: Double, contrast: Double = 50, regions: Int = 1, compactness: Double = 0.9,
                  hueFamilies: Int = 2, texture: Double = 2, saliency: Double = 1, otherChroma: Double = 40) -> ColourAnalysis {
        let accent = Accent(lab: colour.lab, hue: colour.h, coverage: coverage, name: ColourName.nearest(to: colour.lab),
                            saliency: saliency, contrast: contrast, regions: regions, compactness: compactness, texture: texture)
        let palette = [PaletteEntry(lab: LCh(l: 50, c: otherChroma, h: 140).lab, weight: 0.4, name: .green),
                       PaletteEntry(lab: LCh(l: 60, c: 2, h: 90).lab, weight: 0.6 - coverage, name: .grey),
                       PaletteEntry(lab: colour.lab, weight: coverage, name: ColourName.nearest(to: colour.lab))]
        return ColourAnalysis(palette: palette, accent: accent, hueFamilies: hueFamilies)
    }

    func potential(_ analysis: ColourAnalysis, pixelSize: PixelSize? = nil) throws -> SplashPotential {
        try XCTUnwrap(SplashPotential(analysis, pixelSize: pixelSize ?? photoSize))
    }

    func testOneCompactVividSubjectInACalmSceneScoresHighAndSaysWhy() throws {
        let bus = try potential(analysis(red, coverage: 0.06))
        XCTAssertGreaterThan(bus.score, 50, "likelier worth a splash than not")
        XCTAssertEqual(bus.reason, "one compact vivid red subject (6% of the frame), strong contrast, calm scene")
        XCTAssertEqual(bus.features, [bus.vividness, bus.size, bus.focus, bus.contrast, bus.calm, bus.standout, bus.change].map { log($0 + 0.01) })
        let probability = LearnedWeights.inspiration.probability(bus.features)
        XCTAssertEqual(bus.score, (1000 * probability * bus.photographic * bus.resolution).rounded() / 10)
    }

    func testNoTermThatFallsRaisesTheScore() throws {
        // The inspiration model's weights are fitted at 0 or more: a term that falls lowers the score or
        // leaves it, never raises it.
        XCTAssertTrue(LearnedWeights.inspiration.weights.allSatisfy { $0 >= 0 }, "\(LearnedWeights.inspiration.weights)")
        let bus = try potential(analysis(red, coverage: 0.06))
        for index in bus.features.indices {
            var lower = bus.features
            lower[index] -= 1
            XCTAssertLessThanOrEqual(LearnedWeights.inspiration.probability(lower), LearnedWeights.inspiration.probability(bus.features),
                                     SplashPotential.featureNames[index])
        }
    }

    func testAnAccentThatHardlyStandsOutOfItsSceneScoresLess() throws {
        let sky = try potential(analysis(red, coverage: 0.06, saliency: 0.2))
        let bus = try potential(analysis(red, coverage: 0.06))
        XCTAssertEqual(sky.standout, 0.2)
        XCTAssertLessThan(sky.score, bus.score - 5)
    }

    func testAShowPictureThatWouldLookLikeTheOriginalScoresFarLess() throws {
        // The rest of the scene is grey already: the show picture takes nothing away.
        let greyStreet = try potential(analysis(red, coverage: 0.06, otherChroma: 0))
        let someColour = try potential(analysis(red, coverage: 0.06, otherChroma: 20))
        let park = try potential(analysis(red, coverage: 0.06))
        XCTAssertEqual(greyStreet.change, 0.3)
        // By the fitted weight of `change`: 4.9 points less on the fit of rules version 6, over 5 on version 5's.
        XCTAssertLessThan(greyStreet.score, park.score - 4)
        XCTAssertTrue(greyStreet.reason.hasSuffix("little other colour for the show picture to take away"), greyStreet.reason)
        XCTAssertGreaterThan(someColour.change, 0.6)
        XCTAssertLessThan(someColour.change, 1)
        XCTAssertFalse(someColour.reason.contains("little other colour"), someColour.reason)
        XCTAssertEqual(park.change, 1)
    }

    /// An analysis whose accent is the red (6% of the frame) and whose rest is `rest`, named `name`.
    func redAccent(amid rest: LCh, named name: ColourName, hueFamilies: Int) -> ColourAnalysis {
        let accent = Accent(lab: red.lab, hue: red.h, coverage: 0.06, name: .red, contrast: 50, compactness: 0.9, texture: 2)
        return ColourAnalysis(palette: [PaletteEntry(lab: rest.lab, weight: 0.94, name: name), PaletteEntry(lab: red.lab, weight: 0.06, name: .red)],
                              accent: accent, hueFamilies: hueFamilies)
    }

    func testColoursOfTheAccentsOwnHueAreNotWhatTheShowPictureTakesAway() throws {
        // A red scene around a red accent: the rest keeps its hue, nothing of another hue is taken.
        XCTAssertEqual(try potential(redAccent(amid: LCh(l: 40, c: 40, h: 45), named: .red, hueFamilies: 1)).change, 0.3)
    }

    func testAThumbnailIsTooSmallAPicture() throws {
        let thumbnail = try potential(analysis(red, coverage: 0.06), pixelSize: PixelSize(width: 100, height: 75))
        let small = try potential(analysis(red, coverage: 0.06), pixelSize: PixelSize(width: 480, height: 360))
        let full = try potential(analysis(red, coverage: 0.06), pixelSize: PixelSize(width: 640, height: 480))
        XCTAssertEqual(thumbnail.resolution, 0)
        XCTAssertEqual(thumbnail.score, 0)
        XCTAssertTrue(thumbnail.reason.hasSuffix("too small a picture (100 × 75)"), thumbnail.reason)
        XCTAssertGreaterThan(small.resolution, 0.5)
        XCTAssertLessThan(small.resolution, 1)
        XCTAssertEqual(full.resolution, 1)
    }

    func testAFlatColourAProgramFilledIsNoPhotograph() throws {
        let square = try potential(analysis(red, coverage: 0.06, texture: 0))
        let lit = try potential(analysis(red, coverage: 0.06, texture: 0.5))
        XCTAssertEqual(square.score, 0)
        XCTAssertTrue(square.reason.hasSuffix("a flat colour, as drawn by a program"), square.reason)
        XCTAssertEqual(lit.photographic, 1)
        XCTAssertFalse(lit.reason.contains("flat"), lit.reason)
    }

    func testAPhotoWithoutAStandoutAccentHasNothingToSplash() {
        XCTAssertNil(SplashPotential(ColourAnalysis(palette: [], accent: nil), pixelSize: photoSize))
    }

    func testABusySceneOfManyHuesScoresLess() throws {
        let calm = try potential(analysis(red, coverage: 0.06, hueFamilies: 3))
        let chart = try potential(analysis(red, coverage: 0.06, hueFamilies: 6))
        XCTAssertEqual(calm.calm, 1)
        XCTAssertLessThan(chart.calm, 0.01)
        // The fit learns it from the busy scenes and charts the scene models catch, priced by their most
        // salient colour: without them, no training photo with an accent has many hues, and calm weighs 0.
        XCTAssertLessThan(chart.score, calm.score)
        XCTAssertTrue(chart.reason.hasSuffix("busy scene of many colours"), chart.reason)
    }

    func testTheSizeTermWantsAModestShareOfTheFrame() throws {
        let speck = try potential(analysis(red, coverage: 0.001))
        let modest = try potential(analysis(red, coverage: 0.08))
        let most = try potential(analysis(red, coverage: 0.6))
        XCTAssertEqual(speck.size, 0)
        XCTAssertEqual(modest.size, 1)
        XCTAssertEqual(most.size, 0)
        XCTAssertTrue(speck.reason.contains("too small"), speck.reason)
        XCTAssertTrue(most.reason.contains("too large"), most.reason)
    }

    func testSoftColourScoresLessAndScatteredPiecesAndLittleContrastNoMore() throws {
        let best = try potential(analysis(red, coverage: 0.06)).score
        let scattered = try potential(analysis(red, coverage: 0.06, regions: 9, compactness: 0.1))
        let flat = try potential(analysis(red, coverage: 0.06, contrast: 12))
        let soft = try potential(analysis(LCh(l: 50, c: 32, h: 35), coverage: 0.06))
        XCTAssertLessThanOrEqual(scattered.score, best)
        XCTAssertTrue(scattered.reason.hasPrefix("many scattered"), scattered.reason)
        XCTAssertLessThanOrEqual(flat.score, best)
        XCTAssertTrue(flat.reason.contains("little contrast"), flat.reason)
        XCTAssertLessThan(soft.score, best)
        XCTAssertTrue(soft.reason.contains(" soft "), soft.reason)
    }

    func testAColourFortyDegreesOfHueFromTheAccentIsWhatTheShowPictureTakesAway() throws {
        // An orange scene around a red accent (hue 35°): 40° from it, another hue, which the show picture greys.
        XCTAssertEqual(try potential(redAccent(amid: LCh(l: 60, c: 40, h: 75), named: .orange, hueFamilies: 2)).change, 1)
    }

    func testASubjectOfFocusThreeQuartersOrMoreIsCalledCompact() throws {
        // One region of compactness 0.55: focus 0.5 + 0.5 × 0.55 = 0.775.
        let bus = try potential(analysis(red, coverage: 0.06, compactness: 0.55))
        XCTAssertEqual(bus.focus, 0.775, accuracy: 1e-12)
        XCTAssertTrue(bus.reason.hasPrefix("one compact vivid red subject"), bus.reason)
    }

    func testAPictureOfThreeHundredthsOfAMegapixelHasNoResolution() throws {
        XCTAssertEqual(try potential(analysis(red, coverage: 0.06), pixelSize: PixelSize(width: 200, height: 150)).resolution, 0)
    }
}
