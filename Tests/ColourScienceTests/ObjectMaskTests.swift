@testable import ColourScience
import Imaging
import TestSupport
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
        // Worked out by hand from the definition: kept cells 255, others ⌊255 × kept / cells⌋ of the
        // window (9 inside the grid, 6 on an edge, 4 in a corner).
        let expected: [Int] = [
            0, 42, 85, 85, 42, 0, 0,
            0, 56, 255, 255, 56, 0, 0,
            0, 56, 255, 255, 56, 0, 0,
            0, 28, 56, 56, 28, 28, 42,
            0, 0, 0, 0, 0, 42, 255,
        ]
        for index in expected.indices {
            XCTAssertEqual(Int(softened[index]), expected[index], "(\(index % width), \(index / width))")
        }
        XCTAssertEqual(Int(softened[0]), 0, "far from the region")
        XCTAssertEqual(Int(softened[1 * width + 1]), 255 * 2 / 9, "beside its edge, two of nine")
        XCTAssertEqual(Int(softened[3 * width + 6]), 255 / 6, "on the frame's edge, one of the six cells of its window")
    }

    /// An edge between an orange object (left) and a browner ground of its hue (right), on a raster of
    /// the mask's size; with `grain`, both carry a grain of lightness as strong as the edge (wood, a
    /// petal's veins): a pseudo-random 0–40 added to each pixel.
    func edgeScene(grain: Bool) -> (raster: LabRaster, kept: [Bool], onEdge: [Bool]) {
        let width = 256, height = 128
        var image = TestImage.solid(.black, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let stripe = grain ? Double((x &* 73_856_093 ^ y &* 19_349_663) % 1_000) / 1_000 * 40 : 0
                image[x, y] = (x < 128 ? LCh(l: 50 + stripe, c: 60, h: 55) : LCh(l: 36 + stripe, c: 36, h: 62)).lab.rgba
            }
        }
        let kept = (0..<width * height).map { $0 % width < 128 }
        let onEdge = (0..<width * height).map { [127, 128].contains($0 % width) }
        return (LabRaster(image, longSide: 256), kept, onEdge)
    }

    func testInFocusIsWithinReachOfAStepAcrossAndDownAndNowhereElse() {
        // A grey ramp (a level every other column: steps far under the limit) with one dark pixel at
        // (20, 10): it steps against its four neighbours, so they and it are on a step, and in focus is
        // the square reaching 3 pixels beyond them.
        var image = TestImage.solid(.black, width: 40, height: 24)
        for y in 0..<24 { for x in 0..<40 { image[x, y] = RGBA(red: UInt8(100 + x / 2), green: UInt8(100 + x / 2), blue: UInt8(100 + x / 2)) } }
        image[20, 10] = RGBA(red: 50, green: 50, blue: 50)
        let near = ObjectMask.nearSteps(LabRaster(image, longSide: 256), step: 8, reach: 3)
        for y in 0..<24 {
            for x in 0..<40 {
                let (dx, dy) = (abs(x - 20), abs(y - 10))
                XCTAssertEqual(near[y * 40 + x], dx <= 4 && dy <= 4 && !(dx == 4 && dy == 4), "(\(x), \(y))")
            }
        }
    }

    /// On a flat grey, a blurred ground of the object's colour (a soft blob whose steps are all under ΔE 8,
    /// the steepest ΔE 7.5), an object of the colour with a sharp edge (a disc) and one whose edge is faint
    /// (ΔE 9.4: a square on a patch of a hue just outside the tolerance). Only the photo's steps tell the
    /// blob from the objects: its colour is theirs.
    func testABlurredGroundOfTheColourSeedsNothingWhileAnObjectWithAFaintEdgeIsKept() {
        let width = 256, height = 128
        let colour = LCh(l: 50, c: 40, h: 30), grey = LCh(l: 60, c: 0, h: 0), ground = LCh(l: 50, c: 40, h: 43)
        func distance(_ x: Int, _ y: Int, from centre: (x: Double, y: Double)) -> Double {
            ((Double(x) - centre.x) * (Double(x) - centre.x) + (Double(y) - centre.y) * (Double(y) - centre.y)).squareRoot()
        }
        let blob = (x: 40.0, y: 64.0), disc = (x: 120.0, y: 64.0)
        let faint = (x: 196..<220, y: 52..<76)
        var image = TestImage.solid(.black, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                // The blob: wholly the colour within 12 pixels of its centre, mixed into the grey over 6 more.
                let share = min(1, max(0, (18 - distance(x, y, from: blob)) / 6))
                let (from, to) = (grey.lab, colour.lab)
                var lab = Lab(l: from.l + (to.l - from.l) * share, a: from.a + (to.a - from.a) * share, b: from.b + (to.b - from.b) * share)
                if distance(x, y, from: disc) <= 14 { lab = colour.lab }
                if (176..<240).contains(x) && (32..<96).contains(y) { lab = (faint.x.contains(x) && faint.y.contains(y) ? colour : ground).lab }
                image[x, y] = lab.rgba
            }
        }
        // The scene as described: the blob's steps (4-neighbours, on the raster) and the faint edge's.
        let raster = LabRaster(image, longSide: 256)
        func step(_ first: Int, _ second: Int) -> Float {
            let dl = raster.l[first] - raster.l[second], da = raster.a[first] - raster.a[second], db = raster.b[first] - raster.b[second]
            return (dl * dl + da * da + db * db).squareRoot()
        }
        var steepest: Float = 0
        for y in 0..<height - 1 {
            for x in 0..<80 { steepest = max(steepest, step(y * width + x, y * width + x + 1), step(y * width + x, (y + 1) * width + x)) }
        }
        XCTAssertEqual(Double(steepest), 7.5, accuracy: 0.3, "the blob's steepest step")
        XCTAssertEqual(Double(step(64 * width + 195, 64 * width + 196)), 9.4, accuracy: 0.5, "the faint edge")
        let mask = ObjectMask(image, parameters: SplashParameters(hue: 30, method: .object))
        func weights(_ inside: (Int, Int) -> Bool) -> [Int] {
            (0..<width * height).filter { inside($0 % width, $0 / width) }.map { Int(mask.weights[$0]) }
        }
        XCTAssertEqual(weights { distance($0, $1, from: blob) < 18 }.max(), 0, "the blurred ground stays grey")
        XCTAssertGreaterThan(weights { distance($0, $1, from: disc) <= 12 }.min()!, 240, "the sharp object is kept")
        XCTAssertGreaterThan(weights { faint.x.contains($0) && faint.y.contains($1) }.min()!, 200, "the object with a faint edge is kept")
    }

    /// Growth into shade on a strip (columns, left to right): a darker, duller ground of a like hue across an edge (0–31),
    /// an orange darkening and turning towards red as it goes left in smooth steps (32–159), its lit end
    /// kept (128–159), a lemon beside it, lighter (160–191), and grey beyond (192–255); under the
    /// orange, its last two rows, a darker and duller wall of its hue. Only the orange's shaded part is
    /// grown into, but for its column beside the edge, which the 3 × 3 mean the steps are read on
    /// blends with the ground (the margins take it).
    func testGrowthIntoShadeTakesSmoothDarkerStepsOnlyAndStopsAtAnEdgeALighterColourAndADullWall() {
        let width = 256, height = 8
        var image = TestImage.solid(.black, width: width, height: height)
        for x in 0..<width {
            let colour: LCh
            switch x {
            // Darker, duller and within the window: only the step (ΔE76 about 11) keeps growth out.
            case ..<32: colour = LCh(l: 20, c: 45, h: 46)
            case ..<160:
                let lit = Double(x - 32) / 127
                colour = LCh(l: 30 + 40 * lit, c: 50 + 15 * lit, h: 45 + 27 * lit)
            case ..<192: colour = LCh(l: 86, c: 65, h: 95)
            default: colour = LCh(l: 55, c: 0, h: 0)
            }
            for y in 0..<height { image[x, y] = ((32..<160).contains(x) && y >= 6 ? LCh(l: 25, c: 12, h: 60) : colour).lab.rgba }
        }
        let raster = LabRaster(image, longSide: 256)
        let distances = ObjectMask.hueDistances(raster, parameters: SplashParameters(hue: 72, method: .object))
        var kept = (0..<raster.count).map { (128..<160).contains($0 % width) && $0 / width < 6 }
        var growable = kept
        ObjectMask.growIntoShade(&kept, growable: &growable, raster: raster, averaged: raster.averaged(), distances: distances,
                                 window: 30, chroma: 30, saturation: 0.6)
        for index in 0..<raster.count {
            let x = index % width, y = index / width
            XCTAssertEqual(kept[index], (33..<160).contains(x) && y < 6, "(\(x), \(y))")
            XCTAssertEqual(growable[index], kept[index], "(\(x), \(y)): grown pixels are growable")
        }
    }

    /// A red object (columns 0–5, kept as grown) with a dull margin beyond it of a hue 25° off (in the
    /// margins' wider window, not in growth's), 6 columns of it and then grey; in rows 6–11 a grey column (7)
    /// interrupts it. The margin is kept two raster pixels out from the object, a shaded edge or a fold, and
    /// only through pixels of the margin: the dull ground of the hue lying on beyond is not the object.
    func testTheDullMarginTakesAShadedEdgeBesideTheObjectButNotTheDullGroundBeyondIt() {
        let width = 16, height = 12
        var image = TestImage.solid(.black, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let colour = x < 6 ? LCh(l: 50, c: 55, h: 30)
                    : x < 12 && !(y >= 6 && x == 7) ? LCh(l: 45, c: 20, h: 55) : LCh(l: 50, c: 0, h: 0)
                image[x, y] = colour.lab.rgba
            }
        }
        let raster = LabRaster(image, longSide: 256)
        let parameters = SplashParameters(hue: 30, method: .object)
        // The margins' window, as the mask takes it: the tolerance, the object's growth and half the feather.
        let window = Float(parameters.tolerance + SplashParameters.objectGrowth + parameters.feather / 2)
        let grown = (0..<raster.count).map { $0 % width < 6 }
        let kept = ObjectMask.withDullMargins(grown, distances: ObjectMask.hueDistances(raster, parameters: parameters),
                                              window: window, width: width, height: height)
        for index in kept.indices {
            let x = index % width, y = index / width
            XCTAssertEqual(kept[index], x < 8 && !(y >= 6 && x == 7), "(\(x), \(y))")
        }
    }

    /// A strip of 256 columns, 8 rows, of `colour(x, y)`, grown into shade from its columns `lit` towards
    /// hue `hue`: the share of each column's pixels grown into.
    private func shadeGrownShares(lit: Range<Int>, hue: Double, colour: (Int, Int) -> LCh) -> [Double] {
        let width = 256, height = 8
        var image = TestImage.solid(.black, width: width, height: height)
        for x in 0..<width { for y in 0..<height { image[x, y] = colour(x, y).lab.rgba } }
        let raster = LabRaster(image, longSide: 256)
        let distances = ObjectMask.hueDistances(raster, parameters: SplashParameters(hue: hue, method: .object))
        var kept = (0..<raster.count).map { lit.contains($0 % width) }
        var growable = kept
        ObjectMask.growIntoShade(&kept, growable: &growable, raster: raster, averaged: raster.averaged(), distances: distances,
                                 window: 30, chroma: 30, saturation: 0.6)
        return (0..<width).map { x in Double((0..<height).filter { kept[$0 * width + x] }.count) / Double(height) }
    }

    private func mean(_ shares: ArraySlice<Double>) -> Double { shares.reduce(0, +) / Double(shares.count) }

    /// A pitted, grainy orange (lightness ±4 from pixel to pixel) darkening and dulling to the left (C*
    /// 65 → 20, under the chroma growth asks): the pixels' own steps rise and fall by more than the
    /// slack at every pixel, the 3 × 3 mean's hardly. Growth crosses the whole shaded side: 91% of its
    /// pixels and 94% of its darkest end, where, by the pixels' own steps and growth's chroma, it took
    /// 54% and none (a pixel here and there above the way's darkest is left, for the margins and the cut).
    func testGrowthIntoShadeCrossesAPittedGrainySurface() {
        let shares = shadeGrownShares(lit: 192..<256, hue: 72) { x, y in
            let pit = Double((x &* 7_919 ^ y &* 104_729) % 9) - 4
            let lit = Double(min(x, 192)) / 192
            return LCh(l: 30 + 40 * lit + pit, c: 20 + 45 * lit, h: 50 + 22 * lit)
        }
        XCTAssertGreaterThan(mean(shares[0..<192]), 0.85, "the shaded side")
        XCTAssertGreaterThan(mean(shares[0..<16]), 0.85, "its darkest end")
    }

    /// A red darkening to the left into a shadow (L* 50 → 30 over columns 191–128), then lightening again
    /// as slowly into a lighter surface of like hue (L* 30 → 45 over 127–64), as a hat's brim into the
    /// hair beside it: no step rises by the slack, but the way does. Growth stops within the slack's
    /// rise past the darkest column, not at the lighter surface's end.
    func testGrowthIntoShadeDoesNotClimbBackOutOfTheShadowInSmallRises() {
        let shares = shadeGrownShares(lit: 192..<256, hue: 40) { x, _ in
            let lightness = x >= 128 ? 30 + 20 * Double(x - 128) / 64 : 30 + 15 * Double(128 - x) / 64
            return LCh(l: x < 64 ? 60 : lightness, c: 40, h: 40)
        }
        XCTAssertGreaterThan(mean(shares[128..<192]), 0.95, "the shadow")
        XCTAssertEqual(shares[0..<110].max(), 0, "the lighter surface")
    }

    /// Two strips grown into shade from their lit columns 192–255 (`shadeGrownShares`). The first darkens
    /// steadily to the left (L* 70 → 30) and dulls (C* 50 → 30), but wobbles on its way as grain does after
    /// averaging: every 8 columns three columns 2 lighter, about 1.4 over the darkest pixel before them on
    /// the averaged raster. The second darkens to L* 30 at column 128, then lightens slowly to the left (a
    /// quarter of a unit a column) into a lighter surface of its hue: a red hat's shadow beside its wearer's
    /// hair. Growth takes the wobbles for noise and crosses the whole shaded side; out of the shadow it
    /// climbs only as far as a rise as small (1.5), never to one of twice that (3).
    func testGrowthIntoShadeTakesWobblesAsSmallAsNoiseButClimbsOutOfAShadowNoFurther() {
        let wobbly = shadeGrownShares(lit: 192..<256, hue: 40) { x, _ in
            let wobble = x < 192 && (2...4).contains(x % 8) ? 2.0 : 0
            return LCh(l: 30 + 40 * Double(min(x, 192)) / 192 + wobble, c: 30 + 20 * Double(min(x, 192)) / 192, h: 40)
        }
        XCTAssertEqual(wobbly[0..<192].min(), 1, "the whole shaded side: \(wobbly)")
        let climb = shadeGrownShares(lit: 192..<256, hue: 40) { x, _ in
            let lightness = x >= 128 ? 30 + 20 * Double(x - 128) / 64 : 30 + 15 * Double(128 - x) / 64
            return LCh(l: x < 64 ? 60 : lightness, c: 40, h: 40)
        }
        // L* 31.5 at column 121.6, 33 at column 115.2.
        XCTAssertEqual(climb[122..<192].min(), 1, "up to a rise of 1.5 out of the shadow: \(climb)")
        XCTAssertEqual(climb[0..<116].max(), 0, "not as far as a rise of 3: \(climb)")
    }

    func testAnEdgeStandsOutOfAFlatGroundButNotOfAGrainAsStrongAsItself() {
        func meanDistinctness(grain: Bool) -> Double {
            let scene = edgeScene(grain: grain)
            let distinct = ObjectMask.edgeDistinctness(scene.raster, at: scene.onEdge)
            let values = distinct.indices.filter { scene.onEdge[$0] }.map { distinct[$0] }
            XCTAssertTrue(distinct.indices.allSatisfy { scene.onEdge[$0] || distinct[$0] == 0 }, "only the kept map's edge is measured")
            return values.reduce(0, +) / Double(values.count)
        }
        XCTAssertGreaterThan(meanDistinctness(grain: false), 0.9, "on flat ground the edge is the only change")
        // Measured 1.0 and 0.42: grain alone now and then stands out along the edge, by chance.
        XCTAssertLessThan(meanDistinctness(grain: true), 0.5, "among a grain as strong, the edge mostly does not stand out")
    }

    func testTheKeptMapFadesAtAnEdgeTheGrainHidesAndStaysSharpWhereItStandsOut() {
        for grain in [false, true] {
            let scene = edgeScene(grain: grain)
            let softened = ObjectMask.softened(scene.kept, width: 256, height: 128)
            let faded = ObjectMask.faded(softened, kept: scene.kept, raster: scene.raster)
            // Two pixels into the ground: grey beside a sharp edge, partly kept in a fade.
            let beyond = Int(faded.weights[64 * 256 + 130])
            if grain {
                XCTAssertGreaterThan(beyond, 25, "the fade reaches into the ground where the grain hides the edge")
            } else {
                XCTAssertEqual(beyond, 0, "a sharp edge of the photo keeps the kept map's edge sharp")
            }
        }
    }

    /// A raster of the mask's size whose colour is `colour(x)` in every row, and a kept map of the
    /// columns left of `cut`.
    func columnScene(cut: Int, _ colour: (Int) -> LCh) -> (raster: LabRaster, kept: [Bool]) {
        let width = 256, height = 96
        var image = TestImage.solid(.black, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = colour(x).lab.rgba }
        }
        return (LabRaster(image, longSide: 256), (0..<width * height).map { $0 % width < cut })
    }

    /// The weights along the middle row.
    func middleRow(_ weights: [UInt8]) -> [Int] { (0..<256).map { Int(weights[48 * 256 + $0]) } }

    /// The middle row of `fade` carried on over `scene` from its region's columns left of `sources` (from the
    /// whole region when nil) for a splash of `parameters`.
    func carried(_ fade: ObjectMask.Fade, over scene: (raster: LabRaster, kept: [Bool]), sources: Int? = nil,
                 parameters: SplashParameters) -> [Int] {
        let from = sources.map { end in scene.kept.indices.map { $0 % scene.raster.width < end } } ?? scene.kept
        return middleRow(ObjectMask.carriedOn(fade, from: from, kept: scene.kept, raster: scene.raster, averaged: scene.raster.averaged(),
                                              shadeDistances: ObjectMask.hueDistances(scene.raster, parameters: parameters.inShade),
                                              parameters: parameters))
    }

    /// The middle row of `scene`'s kept map softened and faded, and then carried on as `carried` does.
    func fadedAndCarried(_ scene: (raster: LabRaster, kept: [Bool]), sources: Int? = nil,
                         parameters: SplashParameters) -> (before: [Int], carried: [Int]) {
        let softened = ObjectMask.softened(scene.kept, width: scene.raster.width, height: scene.raster.height)
        let faded = ObjectMask.faded(softened, kept: scene.kept, raster: scene.raster)
        return (middleRow(faded.weights), carried(faded, over: scene, sources: sources, parameters: parameters))
    }

    func testARegionCutInASmoothGlowCarriesOnAndFadesAsItsColourDoes() {
        // Hue 50° on the left to 110° on the right (about 0.2 ΔE a pixel), the region cut at column 48; the
        // splash keeps hue 60 ± 12, fading over 10 more: as far as column 93 the colour is wholly its own.
        let scene = columnScene(cut: 48) { LCh(l: 60, c: 40, h: 50 + 60 * Double($0) / 255) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (before, carried) = fadedAndCarried(scene, parameters: parameters)
        XCTAssertEqual(before[60], 0, "the fade alone ends the region a few pixels beyond the cut")
        XCTAssertGreaterThan(carried[60], 100, "carried on, the region goes on where the colour does")
        XCTAssertGreaterThan(carried[90], 60, "as far as the colour is wholly its own")
        XCTAssertEqual(carried[150], 0, "beyond the window's feather nothing is kept")
        XCTAssertTrue(zip(carried, carried.dropFirst()).allSatisfy { $0 >= $1 }, "it only fades: \(carried)")
        XCTAssertLessThanOrEqual(zip(carried, carried.dropFirst()).map { $0 - $1 }.max()!, zip(before, before.dropFirst()).map { $0 - $1 }.max()!,
                                 "no steeper anywhere than the fade it goes on from")
        XCTAssertEqual(Array(carried[0..<48]), Array(before[0..<48]), "the region, all of it sources, keeps its own weights")
    }

    func testWhereThePhotoDrawsNoLineTheCarryingAndNotTheFadeEndsTheRegion() {
        // The glow above, the object's own colour (the sources) left of column 40 and the cut's region
        // going on to column 48 (a shaded side the cut kept): the photo draws no line where the cut ends,
        // so the fade there is only the cut's end, and the carrying decides instead, from the sources.
        let scene = columnScene(cut: 48) { LCh(l: 60, c: 40, h: 50 + 60 * Double($0) / 255) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (before, carried) = fadedAndCarried(scene, sources: 40, parameters: parameters)
        XCTAssertLessThan(before[47], 160, "the fade alone ramps down to the cut")
        XCTAssertGreaterThan(carried[47], 220, "carried, the region goes on to the cut nearly whole: \(carried)")
        // From where the fade began to where the hue leaves the splash's tolerance, a ramp as gentle as the glow.
        XCTAssertLessThanOrEqual(zip(carried[44..<90], carried[45..<91]).map { $0 - $1 }.max()!, 4, "\(carried)")
        XCTAssertLessThan(zip(carried, carried.dropFirst()).map { $0 - $1 }.max()!, zip(before, before.dropFirst()).map { $0 - $1 }.max()!,
                          "less steep anywhere than the fade was")
        XCTAssertTrue(zip(carried, carried.dropFirst()).allSatisfy { $0 >= $1 }, "it only fades: \(carried)")
    }

    func testAKeptPixelPassesTheCarryingOnAtNoMoreThanItsWeightWhereTheFadeFollowedAnEdge() {
        // The glow, the region cut at column 48, its sources left of column 40, and its last four columns
        // faded as a fade does (227, 198, 170, 142): with the fade marked as following an edge of the photo
        // they stay so, and so does what lies beyond; marked as no edge, the carrying raises them.
        let scene = columnScene(cut: 48) { LCh(l: 60, c: 40, h: 50 + 60 * Double($0) / 255) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let ramp: [UInt8] = [227, 198, 170, 142]
        let weights = (0..<scene.kept.count).map { index -> UInt8 in
            let column = index % 256
            return column < 44 ? 255 : column < 48 ? ramp[column - 44] : 0
        }
        func carried(edge: Float) -> [Int] {
            self.carried(ObjectMask.Fade(weights: weights, edge: [Float](repeating: edge, count: weights.count)), over: scene,
                         sources: 40, parameters: parameters)
        }
        let alongAnEdge = carried(edge: 1), noEdge = carried(edge: 0)
        XCTAssertEqual(Array(alongAnEdge[44..<48]), [227, 198, 170, 142], "held at the fade's weights")
        XCTAssertLessThanOrEqual(alongAnEdge[48], 142, "nothing beyond brighter than the region's edge: \(alongAnEdge)")
        XCTAssertGreaterThan(noEdge[47], 220, "raised to the carried weight: \(noEdge)")
        XCTAssertGreaterThan(noEdge[48], 200, "and on beyond it: \(noEdge)")
    }

    func testARegionCarriesOnIntoItsShadeWithTheChromaGateHalved() {
        // Hue 60° throughout, chroma falling smoothly from 40 at the cut (column 48) to 0 at column 148: a
        // fruit's side turning into shade. Beyond the cut each pixel weighs with the splash's chroma gate
        // halved (6 opening over 10), as the splash allows inside a region, not as a hue splash does (12
        // over 10, where C* 15 is a fifth of a colour): the shade fades as its colour does, and grey stays grey.
        let scene = columnScene(cut: 48) { LCh(l: 60, c: max(0, 40 - 0.4 * Double($0 - 48)), h: 60) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (_, carried) = fadedAndCarried(scene, parameters: parameters)
        XCTAssertGreaterThan(carried[110], 40, "C* 15: wholly the colour inside a region (a hue splash's weight let on 13): \(carried)")
        XCTAssertGreaterThan(carried[122], 10, "C* 10.4, under the splash's gate and over its half: \(carried)")
        XCTAssertEqual(carried[136], 0, "C* 4.8, under the halved gate: grey")
    }

    func testARegionCarriesOnAcrossAGrainySmoothSurfaceAsFarAsAcrossASmoothOne() {
        // The glow above with a grain of L* ±4 from column to column: each pixel's own step across, or
        // diagonally, is 8 (every way on from the cut costs as an edge would); the 3 × 3 mean's is 2.67,
        // barely over the smooth allowance of 2 a pixel straight across and under it diagonally (2√2).
        let scene = columnScene(cut: 48) { x in LCh(l: 60, c: 40, h: 50 + 60 * Double(x) / 255) }
        let grainy = columnScene(cut: 48) { x in LCh(l: 60 + (x % 2 == 0 ? 4 : -4), c: 40, h: 50 + 60 * Double(x) / 255) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let smooth = fadedAndCarried(scene, parameters: parameters).carried
        let (_, carried) = fadedAndCarried(grainy, parameters: parameters)
        XCTAssertGreaterThan(carried[60], 100, "\(carried)")
        XCTAssertGreaterThan(carried[90], 40, "nearly as far as the colour is wholly its own: \(carried)")
        XCTAssertLessThanOrEqual(abs(carried[75] - smooth[75]), smooth[75] / 5, "nearly as far as on the smooth surface: \(smooth)")
    }

    func testARegionDoesNotCarryOnAcrossAModerateEdge() {
        // A step of ΔE 12 across one column beyond the cut: less than the pixels' own edge limit, so it is
        // read on the averaged raster (three steps of 4), and still holds back more than 60% of the colour
        // (31% of a whole weight goes on; by the pixels' own step, 16%).
        let scene = columnScene(cut: 48) { LCh(l: $0 < 52 ? 55 : 67, c: 40, h: 60) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (before, carried) = fadedAndCarried(scene, parameters: parameters)
        XCTAssertLessThanOrEqual(carried[56], 102, "\(carried)")
        XCTAssertLessThanOrEqual(carried[100], 90, "the ground further off: \(carried)")
        XCTAssertEqual(before[60], 0)
    }

    func testARegionDoesNotCarryOnAcrossAnEdgeOfThePhoto() {
        // The same hue on both sides of column 48, 30 lighter beyond it: an edge, the ground beside an object.
        let scene = columnScene(cut: 48) { LCh(l: $0 < 48 ? 45 : 75, c: 40, h: 60) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (before, carried) = fadedAndCarried(scene, parameters: parameters)
        // Across a change of ΔE 30 the edge's weight falls to about e^-3.4 (3%, 8.5 of 255), and from there only fades.
        XCTAssertTrue((48..<256).allSatisfy { carried[$0] <= max(before[$0], 10) }, "\(carried)")
        XCTAssertLessThanOrEqual(carried[100], 4, "the ground further off stays all but grey")
    }

    func testAPaleRimTheCutKeptWithTheObjectCarriesNothingOn() {
        // A vivid object (columns under 40), then a smooth pale ground of its hue (C* 16: partly its
        // colour), of which the cut kept a rim of 8 columns: a sky beside a blue jacket.
        let scene = columnScene(cut: 48) { LCh(l: $0 < 40 ? 45 : 78, c: $0 < 40 ? 55 : 16, h: 250) }
        let parameters = SplashParameters(hue: 250, method: .object)
        let (before, carried) = fadedAndCarried(scene, parameters: parameters)
        XCTAssertEqual(Array(carried[60...]), Array(before[60...]), "the pale ground is not tinted from the rim")
    }

    func testNothingBeyondARegionIsBrighterThanItsEdge() {
        // Chroma falling smoothly from C* 30 (column 0) to 17 (column 60) and on: clearly the colour
        // (the sources) as far as column 43, kept as far as 47, where the fade has softened the edge.
        let scene = columnScene(cut: 48) { LCh(l: 60, c: max(8, 30 - 0.22 * Double($0)), h: 60) }
        let parameters = SplashParameters(hue: 60, method: .object)
        let (before, carried) = fadedAndCarried(scene, parameters: parameters)
        XCTAssertLessThan(carried[47], 255, "the fade softened the kept edge: \(carried)")
        XCTAssertLessThanOrEqual(carried[48...].max()!, carried[47], "no brighter ring beyond the cut: \(carried)")
    }

    /// The kept map of `scene` (255 kept, 0 not), eased, along the middle row.
    func easedRow(_ scene: (raster: LabRaster, kept: [Bool])) -> [Int] {
        // The raster of a photo seen at 800 px: a line read across 4 raster pixels, its parallels 4 off.
        middleRow(ObjectMask.eased(scene.kept.map { $0 ? 255 : 0 }, raster: scene.raster,
                                   reach: ObjectMask.LineReach(rasterSide: 256, pictureSide: 800)))
    }

    /// The largest change between neighbours along a row.
    func steepest(_ row: [Int]) -> Int { zip(row, row.dropFirst()).map { abs($0 - $1) }.max()! }

    func testWhereThePhotoIsSmoothTheKeptMapsStepBecomesARampCentredOnIt() {
        // One colour everywhere; the kept map ends at column 128, along a straight column.
        let row = easedRow(columnScene(cut: 128) { _ in LCh(l: 60, c: 40, h: 60) })
        XCTAssertTrue(zip(row, row.dropFirst()).allSatisfy { $0 >= $1 }, "it only falls: \(row)")
        // 255 over 12 pixels: at most 21.25 a pixel, and a unit of rounding.
        XCTAssertLessThanOrEqual(steepest(row), 22, "\(row)")
        XCTAssertEqual(row[112], 255, "deep inside the region it is whole")
        XCTAssertEqual(row[144], 0, "far beyond it nothing is kept")
        XCTAssertEqual(Double(row[127] + row[128]) / 2, 127.5, accuracy: 12, "the ramp is centred on the step: \(row)")
    }

    func testWhereThePhotoDrawsAnEdgeTheKeptMapsStepStaysSharp() {
        // 30 lighter beyond column 128: the kept map ends on the photo's edge.
        let scene = columnScene(cut: 128) { LCh(l: $0 < 128 ? 45 : 75, c: 40, h: 60) }
        XCTAssertEqual(easedRow(scene), middleRow(scene.kept.map { $0 ? 255 : 0 }))
    }

    func testALineIsReadOverAsMuchOfThePictureWhateverThePhotosSize() {
        // 12 and 14 px of the picture as it is seen: at 800 px, or a smaller photo's own size.
        for (raster, picture, span, offset) in [(256, 4000, 4, 4), (256, 512, 6, 7), (200, 200, 12, 14)] {
            let reach = ObjectMask.LineReach(rasterSide: raster, pictureSide: picture)
            XCTAssertEqual([reach.span, reach.offset], [span, offset], "a raster of \(raster) px of a \(picture) px photo")
        }
    }

    func testALineAmongAsStrongParallelOnesIsNoEdgeToStopAt() {
        // Stripes four columns wide, ΔE 10 apart (a facade's window frames, a fence), the parallel lines read
        // 4 columns off: the kept map ends on one stripe's edge like any other, so it fades there; a lone
        // edge as strong would keep it sharp.
        let stripes = easedRow(columnScene(cut: 128) { LCh(l: $0 / 4 % 2 == 0 ? 50 : 60, c: 20, h: 60) })
        XCTAssertLessThanOrEqual(steepest(stripes), 22, "\(stripes)")
        let lone = easedRow(columnScene(cut: 128) { LCh(l: $0 < 128 ? 60 : 50, c: 20, h: 60) })
        // ΔE 10 stands out by 8: a step of 255 / 12 + 8 × 255 / 10 allowed.
        XCTAssertGreaterThan(steepest(lone), 200, "\(lone)")
    }

    func testAPieceTheFrameCutsIsDroppedOnlyWhenUnderATenthOfTheLargestAndAwayFromTheRest() {
        // 40 × 30: the subject, 100 pixels in the middle; a piece of 15 pixels (15%) at the top left
        // corner and one of 6 (6%) at the bottom right, both beyond reach (3 pixels) of the subject.
        let width = 40, height = 30
        var kept = [Bool](repeating: false, count: width * height)
        func fill(_ xs: Range<Int>, _ ys: Range<Int>) { for y in ys { for x in xs { kept[y * width + x] = true } } }
        fill(15..<25, 10..<20)
        fill(0..<5, 0..<3)
        fill(37..<40, 28..<30)
        let result = ObjectMask.withoutPiecesTheFrameCuts(kept, width: width, height: height)
        XCTAssertTrue(result[15 * width + 20], "the subject stays")
        XCTAssertTrue(result[1 * width + 2], "a piece of 15% stays")
        XCTAssertFalse(result[29 * width + 38], "a piece of 6% goes")
    }

    /// A pixel's weight in an object splash, from the region weight read back at its place and its
    /// colour's code: grey (no weight of its own, allowed inside a region), a dull shade of the hue (half
    /// its weight) and another colour (a blue stud on red armour). Deep inside a region, from three
    /// quarters of its weight on, every colour but another is kept as wholly as the region; towards its
    /// edge, up to a quarter, each pixel's own colour decides (grey stays grey); between, a blend that
    /// never keeps grey more than the region.
    func testDeepInsideARegionEveryColourIsKeptAndTowardsItsEdgeEachPixelsOwnColourDecides() {
        func weight(region: Int, code: UInt8) -> Int { Int(Splash.regionTable[region << 8 | Int(code)]) }
        let grey = Splash.weightCodes, shade = Splash.weightCodes + (255 - Splash.weightCodes) / 2, other: UInt8 = 0
        let shadeWeight = Splash.decoded(shade).weight
        XCTAssertEqual(Splash.decoded(grey).weight, 0)
        XCTAssertEqual(Splash.decoded(other).allowed, 0)
        var previous = 0
        for region in 0...255 {
            XCTAssertEqual(weight(region: region, code: other), 0, "another colour, region \(region)")
            let greyWeight = weight(region: region, code: grey)
            XCTAssertLessThanOrEqual(greyWeight, region, "region \(region)")
            XCTAssertGreaterThanOrEqual(greyWeight, previous, "grey is kept more the deeper inside, region \(region)")
            previous = greyWeight
            if region >= 192 {
                XCTAssertEqual(greyWeight, region, "deep inside, grey is the object: region \(region)")
                XCTAssertEqual(weight(region: region, code: shade), region, "deep inside, the shade is the object: region \(region)")
            }
            if region <= 64 {
                XCTAssertEqual(greyWeight, 0, "at the edge, grey stays grey: region \(region)")
                XCTAssertEqual(weight(region: region, code: shade), shadeWeight * region / 255, accuracy: 1,
                               "at the edge, the shade by its own weight: region \(region)")
            }
        }
    }

    func testTheRegionMapIsReadBackBilinearlyDownAsWellAsAcross() {
        // A red disc on grey at twice the raster's size: each picture row lies between two raster rows.
        var image = Scene.texturedGrey(width: 512, height: 384)
        for y in 0..<384 {
            for x in 0..<512 where (x - 256) * (x - 256) + (y - 192) * (y - 192) <= 90 * 90 { image[x, y] = Scene.colour(50, 65, 30) }
        }
        let mask = ObjectMask(image, parameters: SplashParameters(hue: 30, method: .object))
        XCTAssertEqual(mask.width, 256)
        let columns = mask.columns(width: 512)
        var row = [UInt8](repeating: 0, count: 512)
        func weight(_ x: Int, _ y: Int) -> Double { Double(mask.weights[min(y, mask.height - 1) * mask.width + min(x, mask.width - 1)]) }
        var worst = (difference: 0.0, x: 0, y: 0)
        for y in 0..<384 {
            row.withUnsafeMutableBufferPointer { mask.fill($0, row: y, height: 384, columns: columns) }
            let down = max(0, (Double(y) + 0.5) / 2 - 0.5), top = Int(down), dy = down - Double(top)
            for x in 0..<512 {
                let across = max(0, (Double(x) + 0.5) / 2 - 0.5), left = Int(across), dx = across - Double(left)
                let expected = (weight(left, top) * (1 - dx) + weight(left + 1, top) * dx) * (1 - dy)
                    + (weight(left, top + 1) * (1 - dx) + weight(left + 1, top + 1) * dx) * dy
                if abs(Double(row[x]) - expected) > worst.difference { worst = (abs(Double(row[x]) - expected), x, y) }
            }
        }
        XCTAssertLessThanOrEqual(worst.difference, 1, "at (\(worst.x), \(worst.y))")
    }

    func testAnObjectOfSixteenPixelsIsNoSpeck() {
        // 4 × 4 pixels of a 256 × 192 frame (the raster is the picture): 0.03%, over the 0.02% of a speck.
        var image = Scene.texturedGrey(width: 256, height: 192)
        Scene.rectangle(&image, x: 120..<124, y: 90..<94, Scene.colour(50, 60, 25))
        let mask = ObjectMask(image, parameters: SplashParameters(hue: 25, method: .object))
        XCTAssertEqual(mask.width, 256)
        XCTAssertGreaterThan(mask.weights[91 * 256 + 121], 64, "the object's inside is kept (a speck's would be 0)")
    }
}
