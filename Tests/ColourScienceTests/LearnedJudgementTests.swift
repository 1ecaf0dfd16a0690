@testable import ColourScience
import Imaging
import TestSupport
import XCTest

/// The directions the learned judgements must hold (issue #32), each on a scene made in code: whatever
/// the weights `scripts/fit-eye` fits, a person's reading of these scenes must not change.
final class LearnedJudgementTests: XCTestCase {
    let analyser = ColourAnalyser()

    /// The 24 patches of a colour checker (sRGB, row by row).
    static let checker: [RGBA] = [
        (115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
        (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (224, 163, 46),
        (56, 61, 150), (70, 148, 73), (175, 54, 60), (231, 199, 31), (187, 86, 149), (8, 133, 161),
        (243, 243, 242), (200, 200, 200), (160, 160, 160), (122, 122, 121), (85, 85, 85), (52, 52, 52),
    ].map { RGBA(red: $0.0, green: $0.1, blue: $0.2) }

    /// A colour checker turned by `angle` degrees and foreshortened (its far side 80% as wide), on a
    /// textured wooden brown, filling about half of a 480 × 360 frame.
    static func chart(angle: Double) -> RGBAImage {
        var image = TestImage.solid(.black, width: 480, height: 360)
        let cosine = cos(angle * .pi / 180), sine = sin(angle * .pi / 180)
        for y in 0..<360 {
            for x in 0..<480 {
                // The pixel in the chart's own frame: centred, turned back, the foreshortening undone.
                let dx = Double(x) - 240, dy = Double(y) - 180
                var u = cosine * dx + sine * dy, v = -sine * dx + cosine * dy
                let scale = 0.8 + 0.2 * (v + 110) / 220
                u /= scale
                let grain = UInt8((x * 7 + y * 3) % 9)
                var colour = RGBA(red: 120 + grain, green: 84 + grain, blue: 52)
                if abs(u) < 165 && abs(v) < 110 {
                    colour = RGBA(red: 25, green: 25, blue: 25)
                    // 6 × 4 patches of 50 × 50 with 5-pixel gaps.
                    let column = Int((u + 165) / 55), row = Int((v + 110) / 55)
                    let inU = (u + 165).truncatingRemainder(dividingBy: 55), inV = (v + 110).truncatingRemainder(dividingBy: 55)
                    if column < 6 && row < 4 && inU > 5 && inV > 5 { colour = checker[row * 6 + column] }
                }
                image[x, y] = colour
            }
        }
        return image
    }

    func testASmallVividObjectOnADullGroundIsTheAccent() throws {
        var image = Scene.texturedGrey(width: 240, height: 180)
        Scene.rectangle(&image, x: 0..<240, y: 0..<180, Scene.colour(55, 8, 90))       // a dull, slightly warm ground
        for y in stride(from: 0, to: 180, by: 3) { Scene.rectangle(&image, x: 0..<240, y: y..<y + 1, Scene.colour(50, 8, 90)) }
        Scene.rectangle(&image, x: 150..<166, y: 60..<74, Scene.colour(50, 70, 30))     // a small vivid red object, 0.5%
        let colours = analyser.analyse(image)
        XCTAssertEqual(colours.accent?.name, .red)
        XCTAssertEqual(colours.scene, .ordinary)
    }

    func testAFrameFillingColourIsNone() throws {
        for (lightness, chroma, hue) in [(45.0, 60.0, 35.0), (60, 50, 140), (50, 45, 260), (54, 104, 40)] {
            let colour = Scene.colour(lightness, chroma, hue)
            var image = TestImage.solid(colour, width: 160, height: 120)
            // A little shading, as in a photograph of a wall: its left side in shadow.
            Scene.rectangle(&image, x: 0..<30, y: 0..<120, Scene.colour(lightness - 8, chroma * 0.9, hue))
            let colours = analyser.analyse(image)
            XCTAssertNil(colours.accent, "\(colour): a colour filling the frame has nothing to single out")
            XCTAssertFalse(colours.candidates.isEmpty)
        }
    }

    func testA24PatchChartAtAnAngleIsAColourTarget() throws {
        for angle in [0.0, 18, -25] {
            let colours = analyser.analyse(Self.chart(angle: angle))
            XCTAssertEqual(colours.scene, .colourTarget, "turned \(angle)°")
            XCTAssertNil(colours.accent, "turned \(angle)°: a chart has nothing to splash")
            XCTAssertNil(SplashPotential(colours, pixelSize: PixelSize(width: 480, height: 360)), "nor a place in the inspiration list")
        }
    }

    func testATenColourBusySceneIsBusy() throws {
        // Some 150 round things of ten hues strewn over a dark ground, as on a market stall or a toy shelf,
        // each lit from the upper left (lightness falling 40 across it) with a grain of its own.
        var image = TestImage.solid(RGBA(red: 40, green: 38, blue: 36), width: 480, height: 360)
        var generator = SeededGenerator(state: 32)
        for index in 0..<150 {
            let hue = Double(index % 10) * 36 + 10
            let centre = (x: Int.random(in: 0..<480, using: &generator), y: Int.random(in: 0..<360, using: &generator))
            let radius = Int.random(in: 10..<22, using: &generator)
            for y in max(0, centre.y - radius)..<min(360, centre.y + radius) {
                for x in max(0, centre.x - radius)..<min(480, centre.x + radius) {
                    let distance = Double((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)).squareRoot()
                    guard distance < Double(radius) else { continue }
                    let across = Double(x - centre.x + y - centre.y) / Double(2 * radius)
                    image[x, y] = Scene.colour(55 - 40 * across + Double((x * 7 + y * 13) % 7) - 3, 55, hue)
                }
            }
        }
        let colours = analyser.analyse(image)
        XCTAssertEqual(colours.scene, .busy)
        XCTAssertNil(colours.accent, "many colours, none the subject")
    }

    func testAnOrangeObjectInShadowIsNamedOrange() throws {
        // The same orange lit (#FE851D), in half shade (#BE641A) and in deep shade (#924B0F): the light
        // falls to a half and to 0.29 of itself, lightness and chroma fall with it, the hue stays.
        for (lightness, chroma) in [(68.0, 80.0), (52, 62), (40, 52)] {
            XCTAssertEqual(ColourName.nearest(to: LCh(l: lightness, c: chroma, h: 60).lab), .orange, "L* \(lightness), C* \(chroma)")
        }
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 35, c: 25, h: 60).lab), .brown, "brown is dark and dull")
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 45, c: 70, h: 35).lab), .red)
        // In a scene: an orange fruit in shade on a grey table is orange.
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 80..<110, y: 60..<90, Scene.colour(42, 56, 62))
        XCTAssertEqual(analyser.analyse(image).accent?.name, .orange)
    }

    func testAYellowInShadowIsNamedYellowAndAYellowGreenGreen() throws {
        // A yellow lit (sRGB's primary, h 103°) and in shade, olive (#67690E, a rapeseed field under cloud):
        // lightness and chroma fall, the hue stays, and the nearest reference alone calls the olive green.
        let olive = LCh(l: 43, c: 47, h: 104.5).lab
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 97, c: 97, h: 103).lab), .yellow)
        XCTAssertEqual(ColourName.nearest(to: olive), .yellow)
        var byReference = LearnedWeights.nameBoundaries
        byReference.yellowGreenHue = nil
        XCTAssertEqual(ColourName.nearest(to: olive, boundaries: byReference), .green, "the hue limit, not the references, makes it yellow")
        // Yellow-green (#9ACD32, h 120°) and a leaf's green (h 125°) are green, lit or in shade.
        for lightness in [76.0, 45] {
            XCTAssertEqual(ColourName.nearest(to: LCh(l: lightness, c: lightness, h: 120).lab), .green, "L* \(lightness)")
            XCTAssertEqual(ColourName.nearest(to: LCh(l: lightness, c: lightness * 0.8, h: 125).lab), .green, "L* \(lightness)")
        }
        // In a scene: an olive object on a grey table is yellow.
        var image = Scene.texturedGrey(width: 200, height: 150)
        Scene.rectangle(&image, x: 80..<110, y: 60..<90, Scene.colour(43, 47, 104.5))
        XCTAssertEqual(analyser.analyse(image).accent?.name, .yellow)
    }

    func testWarmDullnessSinglesOutSkinAndWoodAndCountsAgainstACandidate() throws {
        let position = try XCTUnwrap(AccentFeatures.names.firstIndex(of: "warm dullness"))
        func warmDullness(hue: Double, chroma: Double) -> Double {
            let features = AccentFeatures(chroma: chroma, lightness: 60, hue: hue, coverage: 0.05, contrast: 20, compactness: 0.5,
                                          edgeShare: 0, texture: 1, regions: 1, pieces: 1, saliency: 0.5, hueFamilies: 2)
            return features.vector[position]
        }
        XCTAssertGreaterThan(warmDullness(hue: 55, chroma: 20), 0.5, "skin")
        XCTAssertGreaterThan(warmDullness(hue: 55, chroma: 20), 2 * warmDullness(hue: 55, chroma: 40), "duller is more so")
        XCTAssertEqual(warmDullness(hue: 55, chroma: 60), 0, "a vivid orange is not dull")
        XCTAssertLessThan(warmDullness(hue: 240, chroma: 20), 0.01, "a dull blue is not warm")
        let index = try XCTUnwrap(LearnedWeights.accent.features.firstIndex(of: "warm dullness"))
        XCTAssertLessThan(LearnedWeights.accent.weights[index], 0, "the fit counts it against being the accent")
    }

    func testTheLearnedModelsMatchTheirFeatures() {
        for (model, names) in [(LearnedWeights.accent, AccentFeatures.names), (LearnedWeights.colourTarget, SceneFeatures.names),
                               (LearnedWeights.busyScene, SceneFeatures.names), (LearnedWeights.inspiration, SplashPotential.featureNames)] {
            XCTAssertEqual(model.features, names, "fit the models again (scripts/fit-eye)")
            XCTAssertEqual(model.means.count, names.count)
            XCTAssertEqual(model.scales.count, names.count)
            XCTAssertEqual(model.weights.count, names.count)
        }
    }

    func testAModelIsALogisticRegressionOverStandardisedFeatures() {
        let model = LogisticModel(features: ["a", "b"], means: [1, 10], scales: [2, 5], weights: [0.5, -1], bias: 0.25, threshold: 0.5)
        // (3 − 1) / 2 × 0.5 − (20 − 10) / 5 + 0.25 = 0.5 − 2 + 0.25.
        XCTAssertEqual(model.logit([3, 20]), -1.25, accuracy: 1e-12)
        XCTAssertEqual(model.probability([3, 20]), 1 / (1 + exp(1.25)), accuracy: 1e-12)
    }
}
