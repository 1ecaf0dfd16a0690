@testable import ColourScience
import Imaging
import TestSupport
import XCTest

/// Scenes made in code whose subject is known: which colour is the accent, and which pixels are it.
enum Scene {
    /// A grey ground with a fine, deterministic texture (values 110–129), so nothing is perfectly flat.
    static func texturedGrey(width: Int, height: Int) -> RGBAImage {
        var image = TestImage.solid(.black, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = UInt8(110 + (x * 7 + y * 13) % 20)
                image[x, y] = RGBA(red: value, green: value, blue: value)
            }
        }
        return image
    }

    static func colour(_ l: Double, _ c: Double, _ h: Double) -> RGBA { LCh(l: l, c: c, h: h).lab.rgba }

    /// `image` with a filled rectangle.
    static func rectangle(_ image: inout RGBAImage, x: Range<Int>, y: Range<Int>, _ colour: RGBA) {
        for row in y { for column in x { image[column, row] = colour } }
    }
}

final class AccentFinderTests: XCTestCase {
    let analyser = ColourAnalyser()

    /// Every candidate colour of `image` with what was measured of it, before any model judges it.
    func measured(_ image: RGBAImage) -> [(accent: Accent, features: AccentFeatures)] {
        analyser.accentFinder.measure(LabRaster(image, longSide: analyser.rasterLongSide)).candidates
    }

    /// The measures of the candidate named `name`.
    func features(of name: ColourName, in image: RGBAImage) throws -> AccentFeatures {
        try XCTUnwrap(measured(image).first { $0.accent.name == name }?.features, "no \(name) candidate")
    }

    func testOneSmallRedObjectOnATexturedGreyGroundIsTheAccent() throws {
        // 0.2% of a 200×150 frame: 60 pixels.
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 120..<130, y: 40..<46, Scene.colour(50, 70, 35))
        let accent = try XCTUnwrap(analyser.analyse(image).accent)
        XCTAssertEqual(accent.name, .red)
        XCTAssertEqual(accent.coverage, 60.0 / 30_000, accuracy: 0.000_5)
        XCTAssertEqual(accent.regions, 1)
    }

    func testASmallRedObjectOutranksALargeGreenField() throws {
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 0..<200, y: 45..<150, Scene.colour(55, 45, 135))   // 70% green field
        Scene.rectangle(&image, x: 90..<100, y: 80..<90, Scene.colour(50, 70, 35))     // a red object in it
        let colours = analyser.analyse(image)
        XCTAssertEqual(colours.accent?.name, .red)
        XCTAssertEqual(colours.candidates.map(\.name), [.red, .green], "the field is a candidate, ranked below")
        XCTAssertGreaterThan(colours.candidates[0].saliency, 2 * colours.candidates[1].saliency)
    }

    // The hand-made saliency (vividness × contrast × size × figure × focus) is one of the accent model's
    // features: each of its terms is held by a scene of its own.

    func testASkyAlongTheFramesEdgeIsGroundInTheSaliencyFeature() throws {
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 0..<200, y: 0..<30, Scene.colour(60, 55, 260))       // a blue sky, 20%
        Scene.rectangle(&image, x: 85..<115, y: 85..<105, Scene.colour(50, 38, 40))     // a dull red subject, 2%
        let sky = try features(of: .blue, in: image), subject = try features(of: .red, in: image)
        XCTAssertGreaterThan(sky.edgeShare, 0.3, "the sky holds the frame's top edge")
        XCTAssertEqual(subject.edgeShare, 0)
        XCTAssertLessThan(sky.saliency, 0.75 * subject.saliency, "ground, not figure")
    }

    func testAColourFillingMostOfTheFrameIsGroundEvenAwayFromItsEdgesInTheSaliencyFeature() throws {
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 12..<188, y: 10..<140, Scene.colour(55, 60, 140))    // a green field, 76%, inside the frame
        Scene.rectangle(&image, x: 95..<105, y: 70..<78, Scene.colour(50, 40, 35))      // a duller red object in it
        let field = try features(of: .green, in: image), subject = try features(of: .red, in: image)
        XCTAssertGreaterThan(field.coverage, 0.7)
        XCTAssertLessThan(field.saliency, 0.5 * subject.saliency, "the field is ground however vivid")
        XCTAssertEqual(field.relativeCoverage, 1)
        XCTAssertLessThan(subject.relativeCoverage, 0.01)
    }

    func testASubjectThatStandsOutOfItsSurroundingsOutranksOneThatMeltsIntoThem() throws {
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 20..<80, y: 45..<105, Scene.colour(55, 12, 250))     // a blue-grey wall
        Scene.rectangle(&image, x: 40..<60, y: 65..<85, Scene.colour(55, 50, 250))      // a vivid blue object on it
        Scene.rectangle(&image, x: 120..<180, y: 45..<105, Scene.colour(12, 0, 0))      // a black wall
        Scene.rectangle(&image, x: 141..<159, y: 66..<84, Scene.colour(55, 36, 35))     // a duller red object on it
        let colours = analyser.analyse(image)
        XCTAssertEqual(colours.accent?.name, .red)
        XCTAssertEqual(colours.candidates.map(\.name), [.red, .blue])
        XCTAssertLessThan(colours.candidates[1].contrast, 20, "ΔE00 between the blue and its wall")
        XCTAssertGreaterThan(colours.candidates[0].contrast, 30, "ΔE00 between the red and its wall")
    }

    func testALitSubjectOutranksAMoreChromaticOneSunkInShadowInTheSaliencyFeature() throws {
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 30..<50, y: 65..<85, Scene.colour(22, 45, 35))       // a dark red
        Scene.rectangle(&image, x: 140..<160, y: 65..<85, Scene.colour(60, 38, 140))    // a lit green
        let dark = try features(of: .red, in: image), lit = try features(of: .green, in: image)
        XCTAssertGreaterThan(dark.chroma, lit.chroma)
        XCTAssertGreaterThan(lit.saliency, dark.saliency)
        XCTAssertEqual(dark.relativeChroma, 1)
        XCTAssertLessThan(lit.relativeChroma, 1)
    }

    func testAFrameOfOneColourHasNoAccentThatStandsOut() throws {
        let door = TestImage.solid(Scene.colour(45, 60, 35), width: 120, height: 90)
        let colours = analyser.analyse(door)
        XCTAssertNil(colours.accent, "a red door filling the frame has nothing to single out")
        let candidate = try XCTUnwrap(colours.candidates.first)
        XCTAssertEqual(candidate.name, .red)
        XCTAssertEqual(candidate.coverage, 1, accuracy: 1e-9)
        XCTAssertGreaterThan(candidate.coverage, AccentFinder.largestShare, "it leaves nothing to turn grey")
    }

    func testASplashOfTheAccentTargetsItsSubjectNotAStreakOfTheSameFamily() throws {
        // A compact orange subject (hue 55°, 400 pixels), and out-of-focus light behind it whose hue runs
        // on from it to 85° while its colour fades: one hue family. The light is larger than the subject
        // each time, but drawn out along a streak (750 pixels), or cut by the frame's edge (600).
        let streak = (x: 20..<170, y: 20..<25), cutByTheFrame = (x: 0..<30, y: 0..<20)
        for (name, light) in [("a streak", streak), ("a patch the frame cuts", cutByTheFrame)] {
            var image = Scene.texturedGrey(width: 200, height: 150)
            Scene.rectangle(&image, x: 90..<110, y: 80..<100, Scene.colour(60, 55, 55))
            for x in light.x {
                let along = Double(x - light.x.lowerBound) / Double(light.x.count - 1)
                Scene.rectangle(&image, x: x..<x + 1, y: light.y, Scene.colour(72, 50 - 14 * along, 58 + 27 * along))
            }
            let candidates = measured(image)
            XCTAssertEqual(candidates.count, 1, "\(name): the subject and the light are one family")
            let accent = try XCTUnwrap(candidates.first?.accent, name)
            XCTAssertGreaterThan(accent.coverage, 1.5 * 400.0 / 30_000, "\(name): the light is counted in the accent's share")
            XCTAssertEqual(accent.hue, 55, accuracy: 2, "\(name): a splash targets the subject's hue")
            XCTAssertGreaterThan(Hue.distance(accent.lab.lch.h, 55), 4, "\(name): the family's colour lies between the two")
            for orientation in Orientation.allCases {
                let turned = try XCTUnwrap(measured(image.applying(orientation)).first?.accent, "\(name), \(orientation)")
                XCTAssertEqual(turned.hue, accent.hue, accuracy: 1e-6, "\(name), \(orientation)")
            }
        }
    }

    func testTheSamePixelsInEveryOrientationGiveTheSameAccent() throws {
        var image = Scene.texturedGrey(width: 120, height: 90)
        Scene.rectangle(&image, x: 10..<30, y: 60..<75, Scene.colour(60, 65, 250))
        Scene.rectangle(&image, x: 80..<84, y: 10..<40, Scene.colour(70, 40, 140))
        let upright = analyser.analyse(image)
        let accent = try XCTUnwrap(upright.accent)
        for orientation in Orientation.allCases {
            let turned = try XCTUnwrap(analyser.analyse(image.applying(orientation)).accent, "\(orientation)")
            XCTAssertEqual(turned.name, accent.name, "\(orientation)")
            XCTAssertEqual(turned.coverage, accent.coverage, accuracy: 1e-9, "\(orientation)")
            XCTAssertEqual(turned.saliency, accent.saliency, accuracy: 1e-6, "\(orientation)")
            XCTAssertEqual(turned.lab.hex, accent.lab.hex, "\(orientation)")
        }
    }

    func testAColourChartIsABusySceneWithNothingWorthSplashing() {
        // 24 patches of 6 hues × 4 lightnesses, as on a colour checker, on a dark ground.
        var chart = TestImage.solid(RGBA(red: 30, green: 30, blue: 30), width: 240, height: 160)
        for row in 0..<4 {
            for column in 0..<6 {
                let colour = Scene.colour(35 + Double(row) * 15, 55, Double(column) * 60 + 20)
                Scene.rectangle(&chart, x: (column * 40 + 4)..<(column * 40 + 36), y: (row * 40 + 4)..<(row * 40 + 36), colour)
            }
        }
        let colours = analyser.analyse(chart)
        XCTAssertGreaterThanOrEqual(colours.hueFamilies, 5)
        let potential = SplashPotential(colours, pixelSize: PixelSize(width: 2400, height: 1600))
        XCTAssertLessThan(potential?.calm ?? 0, 0.1, "a chart is a busy scene")
        XCTAssertLessThan(potential?.score ?? 0, 5, "a chart is no splash picture")
    }

    func testAFlatFilledColourHasNoTextureAndAShadedOneHas() throws {
        var flat = TestImage.solid(.white, width: 120, height: 90)
        Scene.rectangle(&flat, x: 40..<70, y: 30..<55, Scene.colour(50, 70, 35))
        var shaded = Scene.texturedGrey(width: 120, height: 90)
        for y in 30..<55 { for x in 40..<70 { shaded[x, y] = Scene.colour(40 + Double(x - 40) * 0.7, 70, 35) } }
        XCTAssertLessThan(try XCTUnwrap(analyser.analyse(flat).accent).texture, 0.05)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(analyser.analyse(shaded).accent).texture, 0.3)
    }

    func testSpecksOfAColourAreNoRegion() {
        // Single pixels of red scattered over grey: noise, not a subject. Under 128 pixels on the long
        // side the raster is the image itself, so the specks reach the region rule undiluted.
        var image = Scene.texturedGrey(width: 120, height: 90)
        for index in 0..<40 { image[(index * 37) % 120, (index * 53) % 90] = Scene.colour(50, 70, 35) }
        XCTAssertNil(analyser.analyse(image).accent)
    }

    func testDilationMarksEveryPixelWithinTheRadiusAsASquareSearchWould() {
        var state: UInt32 = 11
        let width = 23, height = 17
        for radius in [1, 2, 3] {
            let mask = (0..<(width * height)).map { _ -> Bool in
                state = state &* 1_664_525 &+ 1_013_904_223
                return state >> 28 == 0
            }
            let dilated = AccentFinder.dilated(mask, width: width, height: height, radius: radius)
            for y in 0..<height {
                for x in 0..<width {
                    var near = false
                    for ny in max(0, y - radius)...min(height - 1, y + radius) {
                        for nx in max(0, x - radius)...min(width - 1, x + radius) where mask[ny * width + nx] { near = true }
                    }
                    XCTAssertEqual(dilated[y * width + x], near, "(\(x), \(y)) radius \(radius)")
                }
            }
        }
    }

    func testTheAccentOfAFamilyIsItsVividCoreNotTheDullerShadesAroundIt() throws {
        // A vivid red shutter (144 pixels, C* 80) on a reddish wall of its hue (C* 40): one hue family,
        // whose core is its pixels near its most vivid 3%, the shutter alone.
        var image = Scene.texturedGrey(width: 120, height: 90)
        Scene.rectangle(&image, x: 30..<90, y: 15..<75, Scene.colour(55, 40, 35))
        Scene.rectangle(&image, x: 54..<66, y: 39..<51, Scene.colour(50, 80, 35))
        let candidates = measured(image)
        XCTAssertEqual(candidates.count, 1, "the shutter and the wall are one family")
        XCTAssertEqual(try XCTUnwrap(candidates.first).accent.coverage, 144.0 / 10_800, accuracy: 1e-9)
    }

    func testAColourOverThreeQuartersOfTheFrameIsNoAccentHoweverLikely() {
        XCTAssertTrue(AccentFinder.isAccent(probability: 0.99, coverage: 0.74, threshold: 0.5, scene: .ordinary))
        XCTAssertFalse(AccentFinder.isAccent(probability: 0.99, coverage: 0.77, threshold: 0.5, scene: .ordinary))
    }

    func testTwoEqualRegionsOfOneFamilyGiveTheSplashTheLowerHueWhicheverTheScanMeetsFirst() throws {
        // Two squares of 4 × 4 pixels (as compact as a disc, so each as prominent as its 16 pixels),
        // neither at the frame's edge, of hues 6° apart: one family.
        let lower = Scene.colour(50, 70, 30), higher = Scene.colour(55, 55, 36)
        for lowerOnTheLeft in [true, false] {
            var image = Scene.texturedGrey(width: 120, height: 90)
            Scene.rectangle(&image, x: 20..<24, y: 40..<44, lowerOnTheLeft ? lower : higher)
            Scene.rectangle(&image, x: 85..<89, y: 40..<44, lowerOnTheLeft ? higher : lower)
            let candidates = measured(image)
            XCTAssertEqual(candidates.count, 1, "one family")
            let accent = try XCTUnwrap(candidates.first?.accent)
            XCTAssertEqual(accent.hue, Lab(lower).lch.h, accuracy: 0.5, "lower on the left: \(lowerOnTheLeft)")
        }
    }

    func testASquareOverThreeTenthsOfEachSideIsSevenTenthsCompact() throws {
        // A square's pixels spread over 0.3 of each axis, against a uniform spread over the whole frame.
        var image = Scene.texturedGrey(width: 120, height: 90)
        Scene.rectangle(&image, x: 42..<78, y: 32..<59, Scene.colour(50, 70, 35))
        XCTAssertEqual(try features(of: .red, in: image).compactness, 0.7, accuracy: 0.01)
    }

    func testAColourFillingTheFrameHoldsAllOfItsEdge() throws {
        let door = TestImage.solid(Scene.colour(45, 60, 35), width: 120, height: 90)
        XCTAssertEqual(try features(of: .red, in: door).edgeShare, 1, accuracy: 1e-12)
    }

    func testContrastIsMeasuredAgainstTheRingOfTwoPixelsAroundTheColour() throws {
        // A red square in a black frame two pixels wide, on white: the ring is the black frame alone.
        var image = TestImage.solid(.white, width: 120, height: 90)
        Scene.rectangle(&image, x: 48..<72, y: 33..<57, .black)
        let red = Scene.colour(50, 70, 35)
        Scene.rectangle(&image, x: 50..<70, y: 35..<55, red)
        let contrast = try features(of: .red, in: image).contrast
        XCTAssertEqual(contrast, deltaE2000(Lab(red), Lab(.black)), accuracy: 0.05)
    }

    func testTheAccentsRegionsAreThoseMakingUpMostOfItNotEveryFragment() throws {
        // Two red squares of 100 pixels and a fragment of 30: the squares make up 87% of the colour.
        var image = Scene.texturedGrey(width: 120, height: 90)
        let red = Scene.colour(50, 70, 35)
        Scene.rectangle(&image, x: 20..<30, y: 40..<50, red)
        Scene.rectangle(&image, x: 55..<65, y: 40..<50, red)
        Scene.rectangle(&image, x: 90..<96, y: 40..<45, red)
        let features = try features(of: .red, in: image)
        XCTAssertEqual(features.pieces, 3)
        XCTAssertEqual(features.regions, 2)
    }
}
