import ColourScience
import Imaging
import TestSupport
import XCTest

final class ObjectSplashTests: XCTestCase {
    /// A disc whose hue drifts from 20° on its left to 45° on its right and whose lightness falls
    /// towards its lower edge (a lit fruit), on a textured grey ground; and the disc's mask.
    func drifting(width: Int = 240, height: Int = 160) -> (image: RGBAImage, mask: [Bool]) {
        var image = Scene.texturedGrey(width: width, height: height)
        var mask = [Bool](repeating: false, count: width * height)
        let centre = (x: 120.0, y: 80.0), radius = 50.0
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - centre.x, dy = Double(y) - centre.y
                guard dx * dx + dy * dy <= radius * radius else { continue }
                let hue = 20 + 25 * (dx + radius) / (2 * radius)
                let lightness = 62 - 22 * (dy + radius) / (2 * radius)
                image[x, y] = Scene.colour(lightness, 60 - 15 * (dy + radius) / (2 * radius), hue)
                mask[y * width + x] = true
            }
        }
        return (image, mask)
    }

    /// Share of each pixel's chroma the show variant kept, 0–1 (pixels of chroma under 10 left out).
    func keptShares(_ show: RGBAImage, _ original: RGBAImage) -> [Double?] {
        zip(show.pixels, original.pixels).map { shown, pixel in
            let chroma = Lab(pixel).lch.c
            return chroma < 10 ? nil : min(1, Lab(shown).lch.c / chroma)
        }
    }

    /// The mean kept share over the pixels (x, y) for which `inside` holds, those of chroma under 10
    /// left out.
    func meanKept(_ kept: [Double?], width: Int, where inside: (_ x: Int, _ y: Int) -> Bool) -> Double {
        let shares = kept.indices.compactMap { inside($0 % width, $0 / width) ? kept[$0] : nil }
        return shares.reduce(0, +) / Double(shares.count)
    }

    /// Soft IoU of the kept shares with a mask.
    func softIoU(_ kept: [Double?], _ mask: [Bool]) -> Double {
        var intersection = 0.0, union = 0.0
        for (share, inside) in zip(kept, mask) {
            guard let share else { continue }
            intersection += min(share, inside ? 1 : 0)
            union += max(share, inside ? 1 : 0)
        }
        return intersection / union
    }

    func testAStripThinnerThanTheMasksBlocksIsSplashed() throws {
        // 3000 × 2 and 1 × 3000: the mask's raster blocks (12 pixels) are longer than the strip is
        // wide; its red half keeps its colour and its blue half turns grey.
        for (width, height) in [(3000, 2), (1, 3000)] {
            let image = TestImage.halves(.red, .blue, width: width, height: height)
            let show = Splash(parameters: SplashParameters(hue: Lab(.red).lch.h, method: .object), image: image).apply(.show, to: image)
            let kept = keptShares(show, image)
            XCTAssertEqual(try XCTUnwrap(kept.first ?? nil), 1, accuracy: 1e-6, "\(width) × \(height): red kept")
            XCTAssertEqual(try XCTUnwrap(kept.last ?? nil), 0, accuracy: 1e-6, "\(width) × \(height): blue grey")
        }
    }

    func testAnObjectWhoseHueDriftsWithTheLightIsKeptWhole() {
        let (image, mask) = drifting()
        let parameters = SplashParameters(hue: 20, method: .object)
        let object = Splash(parameters: parameters, image: image).apply(.show, to: image)
        let hue = Splash(parameters: SplashParameters(hue: 20)).apply(.show, to: image)
        let objectIoU = softIoU(keptShares(object, image), mask)
        XCTAssertGreaterThanOrEqual(objectIoU, 0.9)
        XCTAssertLessThan(softIoU(keptShares(hue, image), mask), objectIoU - 0.2, "hue alone greys the far side of the object")
    }

    func testLightOfAnotherHueThatATwigOfTheObjectsColourCrossesStaysGrey() {
        // An orange fruit (hue 55°) on a textured grey ground; a lit twig (hue 62°) from it up to a
        // band of yellow out-of-focus light (hue 80°, within the splash's wider window but not its
        // hue window) that it crosses.
        var image = Scene.texturedGrey(width: 240, height: 160)
        var fruit = [Bool](repeating: false, count: 240 * 160), light = fruit
        for y in 0..<160 {
            for x in 0..<240 {
                let dx = Double(x - 80), dy = Double(y - 100)
                if dx * dx + dy * dy <= 900 {
                    image[x, y] = Scene.colour(60 - 10 * dy / 30, 55, 55)
                    fruit[y * 240 + x] = true
                } else if (20..<36).contains(y) {
                    image[x, y] = Scene.colour(75, 45, 80)
                    // The light away from the twig, beyond any margin of it.
                    if abs(x - 80) > 12 { light[y * 240 + x] = true }
                }
            }
        }
        Scene.rectangle(&image, x: 78..<82, y: 10..<72, Scene.colour(58, 45, 62))
        let show = Splash(parameters: SplashParameters(hue: 55, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: 240) { fruit[$1 * 240 + $0] }, 0.9, "the fruit is kept")
        XCTAssertLessThan(meanKept(kept, width: 240) { light[$1 * 240 + $0] }, 0.05, "the light the twig crosses is grey")
    }

    func testASmallPatchOfTheColourThatTheFrameCutsStaysGreyButOneWithinTheFrameIsKept() {
        // The disc (7,850 pixels), and two patches of its colour, 400 pixels each (5% of it): one cut
        // by the frame's left edge, one wholly within the frame.
        var (image, _) = drifting()
        let colour = Scene.colour(55, 60, 30)
        Scene.rectangle(&image, x: 0..<20, y: 20..<40, colour)
        Scene.rectangle(&image, x: 195..<215, y: 135..<155, colour)
        let show = Splash(parameters: SplashParameters(hue: 30, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        func meanKept(x: Range<Int>, y: Range<Int>) -> Double {
            self.meanKept(kept, width: image.width) { x.contains($0) && y.contains($1) }
        }
        XCTAssertLessThan(meanKept(x: 0..<20, y: 20..<40), 0.05, "the patch the frame cuts is grey")
        XCTAssertGreaterThan(meanKept(x: 197..<213, y: 137..<153), 0.9, "the patch within the frame is kept")
        XCTAssertGreaterThan(meanKept(x: 100..<140, y: 60..<100), 0.95, "the disc is kept")
    }

    func testASmallPatchOfTheColourThatTheFrameCutsBesideTheObjectIsKeptAsPartOfIt() {
        // The disc (radius 50 about (120, 80)), and a patch of its colour, 400 pixels (5% of it), cut by
        // the frame's bottom edge 10 pixels below the disc: a petal the frame crops, not light at the edge.
        var (image, _) = drifting()
        Scene.rectangle(&image, x: 110..<130, y: 140..<160, Scene.colour(55, 60, 30))
        let show = Splash(parameters: SplashParameters(hue: 30, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: image.width) { (112..<128).contains($0) && (142..<160).contains($1) }, 0.9,
                             "the patch beside the disc is kept")
        XCTAssertGreaterThan(meanKept(kept, width: image.width) { (100..<140).contains($0) && (60..<100).contains($1) }, 0.95,
                             "the disc is kept")
    }

    /// Red armour (hue 25°) on a textured grey ground with six studs of `stud`, 4×4 pixels each: the
    /// picture and the studs' top left corners.
    func armour(studs stud: RGBA) -> (image: RGBAImage, studs: [(x: Int, y: Int)]) {
        var image = Scene.texturedGrey(width: 240, height: 160)
        Scene.rectangle(&image, x: 60..<180, y: 40..<120, Scene.colour(45, 60, 25))
        let studs = [(80, 55), (120, 55), (160, 55), (80, 100), (120, 100), (160, 100)]
        for (x, y) in studs { Scene.rectangle(&image, x: x..<(x + 4), y: y..<(y + 4), stud) }
        return (image, studs)
    }

    /// The mean kept share over each stud of `studs`.
    func keptOnStuds(_ kept: [Double?], _ studs: [(x: Int, y: Int)]) -> [Double] {
        studs.map { stud in meanKept(kept, width: 240) { (stud.x..<(stud.x + 4)).contains($0) && (stud.y..<(stud.y + 4)).contains($1) } }
    }

    func testAVividSpotOfAnotherColourInsideTheObjectIsGreyButItsDarkSeamsAreKept() {
        // Blue studs (hue 270°) and dark seams of the armour's own colour (C* 14) across it.
        var (image, studs) = armour(studs: Scene.colour(45, 45, 270))
        Scene.rectangle(&image, x: 60..<180, y: 79..<81, Scene.colour(18, 14, 25))
        let show = Splash(parameters: SplashParameters(hue: 25, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        for (stud, share) in zip(studs, keptOnStuds(kept, studs)) { XCTAssertLessThan(share, 0.05, "the stud at \(stud) is grey") }
        XCTAssertGreaterThan(meanKept(kept, width: 240) { (70..<170).contains($0) && (79..<81).contains($1) }, 0.9, "the seam is kept")
        XCTAssertEqual(show[100, 70], image[100, 70], "the armour keeps its colour")
    }

    func testTheObjectsSideInDeepShadeIsKeptButADullWallOfItsHueIsNot() {
        // A vivid orange box (hue 50°, L* 65, C* 60) whose lower half is in deep shade (L* 22, C* 20:
        // as saturated, a third as chromatic), standing on a dull wall of its hue (L* 60, C* 20).
        var image = TestImage.solid(.black, width: 240, height: 160)
        for y in 0..<160 {
            for x in 0..<240 { image[x, y] = Scene.colour(60 + Double((x * 7 + y * 13) % 5), 20, 50) }
        }
        Scene.rectangle(&image, x: 70..<170, y: 30..<80, Scene.colour(65, 60, 50))
        Scene.rectangle(&image, x: 70..<170, y: 80..<130, Scene.colour(22, 20, 50))
        let show = Splash(parameters: SplashParameters(hue: 50, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: 240) { (72..<168).contains($0) && (82..<128).contains($1) }, 0.9, "the shaded side is kept")
        XCTAssertLessThan(meanKept(kept, width: 240) { !(60..<180).contains($0) || !(20..<140).contains($1) }, 0.05, "the wall is grey")
    }

    /// An orange lit from the right whose shaded side turns towards red as it darkens (hue 72° lit,
    /// 45° in shadow: beyond the hue window), with a lemon (hue 95°, lighter) touching its lit side,
    /// on a pale ground: the whole orange is kept, the lemon is not.
    func testAnOrangesShadedSideTurnedTowardsRedIsKeptAndTheLemonBesideItIsNot() {
        var image = TestImage.solid(.black, width: 240, height: 160)
        for y in 0..<160 {
            for x in 0..<240 { image[x, y] = Scene.colour(92 + Double((x * 7 + y * 13) % 3), 2, 90) }
        }
        func inside(_ x: Int, _ y: Int, _ cx: Double, _ radius: Double) -> Bool {
            let dx = Double(x) - cx, dy = Double(y) - 80
            return dx * dx + dy * dy <= radius * radius
        }
        for y in 0..<160 {
            for x in 0..<240 {
                if inside(x, y, 185, 35) { image[x, y] = Scene.colour(86, 65, 95) }
                if inside(x, y, 100, 50) {
                    let lit = (Double(x) - 50) / 100
                    image[x, y] = Scene.colour(28 + 44 * lit, 50 + 15 * lit, 45 + 27 * lit)
                }
            }
        }
        let show = Splash(parameters: SplashParameters(hue: 72, method: .object), image: image).apply(.show, to: image)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: 240) { x, y in inside(x, y, 100, 46) && x < 83 }, 0.8, "the shaded third is kept")
        XCTAssertGreaterThan(meanKept(kept, width: 240) { x, y in inside(x, y, 100, 46) && x >= 117 }, 0.9, "the lit third is kept")
        XCTAssertLessThan(meanKept(kept, width: 240) { x, y in inside(x, y, 185, 31) && !inside(x, y, 100, 54) }, 0.1, "the lemon is grey")
    }

    func testTheObjectModeTableWeighsAColourInAWiderWindowAndWithAHalfGate() {
        // Where a region fades out, each pixel's own colour decides how much of it is kept: in object
        // mode by a window 18° wider and a chroma gate half as high as hue mode's, so that an object's
        // shaded, duller edge stays with it.
        var image = TestImage.solid(.black, width: 60, height: 40)
        Scene.rectangle(&image, x: 20..<40, y: 10..<30, Scene.colour(60, 50, 50))
        let object = Splash(parameters: SplashParameters(hue: 50, method: .object), image: image)
        let byHue = Splash(parameters: SplashParameters(hue: 50))
        let dull = Scene.colour(40, 9, 50)       // under hue mode's gate of 12, over half of it
        let drifted = Scene.colour(60, 50, 80)   // 30° away: past hue mode's 12° and feather of 10°
        XCTAssertEqual(byHue.keepWeight(dull), 0)
        XCTAssertEqual(byHue.keepWeight(drifted), 0)
        XCTAssertGreaterThan(object.keepWeight(dull), 0.1)
        XCTAssertGreaterThan(object.keepWeight(drifted), 0.9)
        XCTAssertEqual(object.keepWeight(Scene.colour(60, 50, 140)), 0, "90° away is another colour")
    }

    func testSameHueSpecksAwayFromTheObjectStayGrey() throws {
        var (image, _) = drifting()
        // Specks of the object's own colour, 2×2 pixels, far from it.
        let specks = [(10, 10), (220, 20), (15, 140), (200, 150), (60, 30)]
        for (x, y) in specks { Scene.rectangle(&image, x: x..<(x + 2), y: y..<(y + 2), Scene.colour(55, 60, 25)) }
        let show = Splash(parameters: SplashParameters(hue: 25, method: .object), image: image).apply(.show, to: image)
        let hueShow = Splash(parameters: SplashParameters(hue: 25)).apply(.show, to: image)
        for (x, y) in specks {
            let speck = show[x, y]
            XCTAssertTrue(speck.red == speck.green && speck.green == speck.blue, "speck at (\(x), \(y)) is \(speck)")
            let byHue = hueShow[x, y]
            XCTAssertFalse(byHue.red == byHue.green && byHue.green == byHue.blue, "by hue alone the speck keeps its colour")
        }
        XCTAssertEqual(show[120, 80], image[120, 80], "the object itself keeps its colour")
    }

    func testAnObjectsDullRimIsKeptButADullPatchElsewhereIsNot() {
        // A vivid red square with a rim two pixels wide of the same hue at a third of its chroma
        // (too dull to grow into), and a patch of that dull red far from it.
        var image = Scene.texturedGrey(width: 120, height: 80)
        let dull = Scene.colour(50, 20, 30)
        Scene.rectangle(&image, x: 28..<52, y: 28..<52, dull)
        Scene.rectangle(&image, x: 30..<50, y: 30..<50, Scene.colour(50, 60, 30))
        Scene.rectangle(&image, x: 90..<100, y: 50..<60, dull)
        let show = Splash(parameters: SplashParameters(hue: 30, method: .object), image: image).apply(.show, to: image)
        for (x, y) in [(28, 40), (29, 29), (51, 45)] {
            XCTAssertEqual(show[x, y], image[x, y], "the rim at (\(x), \(y)) keeps its colour")
        }
        let patch = show[95, 55]
        XCTAssertTrue(patch.red == patch.green && patch.green == patch.blue, "the patch far away is grey: \(patch)")
    }

    func testTheDullGroundAroundAnObjectIsNotKeptWithIt() {
        // A vivid orange disc on a dull ground of its own hue (C* 22: within the hue window, over the
        // chroma gate, too dull to grow into), darker, with a little texture.
        var image = TestImage.solid(.black, width: 240, height: 160)
        var disc = [Bool](repeating: false, count: 240 * 160)
        for y in 0..<160 {
            for x in 0..<240 {
                let dx = Double(x - 120), dy = Double(y - 80), inside = dx * dx + dy * dy <= 50 * 50
                image[x, y] = inside ? Scene.colour(68, 60, 60) : Scene.colour(40 + Double((x * 7 + y * 13) % 5), 22, 60)
                disc[y * 240 + x] = inside
            }
        }
        let show = Splash(parameters: SplashParameters(hue: 60, method: .object), image: image).apply(.show, to: image)
        XCTAssertGreaterThanOrEqual(softIoU(keptShares(show, image), disc), 0.95)
        for (x, y) in [(120 + 54, 80), (120, 80 - 54), (120 - 55, 80)] {
            let ground = show[x, y]
            XCTAssertTrue(ground.red == ground.green && ground.green == ground.blue, "the ground at (\(x), \(y)) is grey: \(ground)")
        }
        XCTAssertEqual(show[120 + 47, 80], image[120 + 47, 80], "the disc's edge keeps its colour")
    }

    /// A smooth dark ground with a blob of olive yellow fading into it with no edge (a ground of the
    /// subject's hue out of focus) and, when `sharpDisc`, a sharp-edged cream-yellow disc (the subject in
    /// focus, smooth inside): the scene's show picture in object mode.
    func focusScene(sharpDisc: Bool) -> (image: RGBAImage, show: RGBAImage) {
        var image = TestImage.solid(.black, width: 240, height: 160)
        for y in 0..<160 {
            for x in 0..<240 {
                let blob = exp(-pow(distance(x, y, from: blobCentre), 2) / (2 * 25 * 25))
                image[x, y] = sharpDisc && distance(x, y, from: discCentre) <= 40 ? Scene.colour(80, 35, 95)
                    : Scene.colour(45 + 5 * blob, 34 * blob, 95)
            }
        }
        return (image, Splash(parameters: SplashParameters(hue: 95, method: .object), image: image).apply(.show, to: image))
    }
    let discCentre = (x: 70.0, y: 80.0), blobCentre = (x: 170.0, y: 80.0)
    func distance(_ x: Int, _ y: Int, from centre: (x: Double, y: Double)) -> Double {
        hypot(Double(x) - centre.x, Double(y) - centre.y)
    }

    func testAGroundOfTheSubjectsColourOutOfFocusStaysGreyAndTheSubjectsSmoothInsideIsKept() {
        let (image, show) = focusScene(sharpDisc: true)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: 240) { self.distance($0, $1, from: self.discCentre) < 36 }, 0.95,
                             "the disc, inside as well as along its edge")
        XCTAssertLessThan(meanKept(kept, width: 240) { self.distance($0, $1, from: self.blobCentre) < 25 }, 0.05, "the blurred blob")
    }

    func testAColourWithNoEdgeAnywhereIsStillKept() {
        // A clear sky has no step anywhere: there is nothing sharper for it to give way to.
        let (image, show) = focusScene(sharpDisc: false)
        let kept = keptShares(show, image)
        XCTAssertGreaterThan(meanKept(kept, width: 240) { self.distance($0, $1, from: self.blobCentre) < 20 }, 0.9)
    }

    func testShowAndHideStillAddUpToTheOriginalAndKeepEveryPixelsLightness() {
        let (image, _) = drifting(width: 120, height: 80)
        let splash = Splash(parameters: SplashParameters(hue: 30, method: .object), image: image)
        let show = splash.apply(.show, to: image), hide = splash.apply(.hide, to: image)
        for index in 0..<image.pixelCount {
            let x = index % image.width, y = index / image.width
            let original = image[x, y], shown = show[x, y], hidden = hide[x, y]
            let grey = Int(Splash.grey(original))
            // show + hide − grey = original, each channel within rounding (±2 levels).
            XCTAssertLessThanOrEqual(abs(Int(shown.red) + Int(hidden.red) - grey - Int(original.red)), 2, "(\(x), \(y))")
            XCTAssertLessThanOrEqual(abs(Int(shown.green) + Int(hidden.green) - grey - Int(original.green)), 2, "(\(x), \(y))")
            XCTAssertLessThanOrEqual(abs(Int(shown.blue) + Int(hidden.blue) - grey - Int(original.blue)), 2, "(\(x), \(y))")
            XCTAssertEqual(Lab(shown).l, Lab(original).l, accuracy: 3, "(\(x), \(y))")
        }
    }

    func testRowsForAnEncoderAreTheObjectVariantsRows() {
        let (image, _) = drifting(width: 60, height: 40)
        let splash = Splash(parameters: SplashParameters(hue: 30, method: .object), image: image)
        let whole = splash.apply(.show, to: image)
        var bytes = [UInt8](repeating: 0, count: image.bytes.count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            splash.rows(.show, of: image).fill(0..<image.height, buffer.baseAddress!, image.rowStride)
        }
        XCTAssertEqual(bytes, whole.bytes)
    }

    func testASpotEightyDegreesOfHueFromTheObjectIsMostlyGreyInsideIt() {
        // Olive studs (hue 105°): 80° of hue away, three quarters of the way from the object's own
        // colours (60°) to another colour (90°).
        let (image, studs) = armour(studs: Scene.colour(45, 45, 105))
        let show = Splash(parameters: SplashParameters(hue: 25, method: .object), image: image).apply(.show, to: image)
        for (stud, share) in zip(studs, keptOnStuds(keptShares(show, image), studs)) { XCTAssertLessThan(share, 0.4, "the stud at \(stud) is mostly grey") }
    }

    func testAnObjectTwoThirdsAsChromaticAsTheMostVividSeedsItsOwnRegion() {
        // A vivid red square (C* 70) and, far from it, a duller one of its hue (C* 46): over 60% as
        // chromatic as the most vivid tenth, so clear enough to be the colour.
        var image = Scene.texturedGrey(width: 240, height: 160)
        Scene.rectangle(&image, x: 30..<70, y: 50..<90, Scene.colour(50, 70, 25))
        Scene.rectangle(&image, x: 170..<190, y: 60..<80, Scene.colour(50, 46, 25))
        let show = Splash(parameters: SplashParameters(hue: 25, method: .object), image: image).apply(.show, to: image)
        XCTAssertEqual(show[180, 70], image[180, 70], "the duller square keeps its colour")
        XCTAssertEqual(show[50, 70], image[50, 70], "the vivid square keeps its colour")
    }
}
