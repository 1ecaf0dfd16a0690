import Foundation
import Imaging

/// Where an object splash keeps colour: the regions of a photo that are objects of the target
/// colour, found on a small CIELAB raster and read back at full size by bilinear interpolation.
///
/// Seeds are pixels where the colour is clear (within the tolerance, chroma well above the gate) and
/// in focus (near a step of the photo: a blurred ground of the colour seeds nothing, and growth does
/// not cross it; `focusStep`); seed regions smaller than a speck are dropped; the rest grow into
/// 8-connected pixels of the hue window (tolerance and half its feather) that are at least half as
/// chromatic, or nearly as saturated (the object in shade) — hysteresis, as an edge detector links
/// strong and weak edges — and on into the object's shade where shade has turned its hue
/// (`growIntoShade`).
/// Their dull margins reach a few pixels into the wider window (tolerance +
/// `SplashParameters.objectGrowth`). The grown regions, with their margins, are then the first guess
/// of an object cut (`ObjectCut`, two rounds, the object's colours learnt first mostly from the seeds),
/// which adds the object's parts of other colours (a shaded side, a dark border) and takes away the ground
/// the margins and growth took; small pieces the frame's edge cuts away from the rest are dropped. At
/// full size, deep inside a region every pixel keeps its colour unless it is a vivid colour of another
/// hue (a blue stud on red armour); towards its edge each pixel's own colour decides again how much of it
/// is kept (the splash's table), so the edge follows the photo, soft where the photo is soft, and grey
/// pixels beside an object stay grey: no halo.
/// Wherever the region map still steps where the photo draws no line of its own, the step is eased into
/// a ramp (`eased`): no straight seam the photo does not have.
struct ObjectMask: Sendable {
    /// Raster size.
    let width: Int
    let height: Int
    /// 0–255 per raster pixel: how much of it belongs to a kept region.
    let weights: [UInt8]

    /// Long side of the raster: fine enough for objects of a few thousandths of the frame, small enough
    /// that finding them costs a fraction of decoding the photo. At 320 px the development set's masks
    /// scored the same (Docs/Quality.md) and cost 14% more.
    static let longSide = 256
    /// How many raster pixels beyond the grown regions their dull margins reach (shaded edges and
    /// folds, duller than growth allows): under 1% of the long side.
    static let marginSteps = 2
    /// A piece of the object cut by the frame's edge and smaller than this share of its largest piece
    /// is dropped.
    static let framedPieceShare = 0.1
    /// Growth reaches a pixel this saturated, against the most saturated tenth within the tolerance,
    /// however dark: the object in shade.
    static let shadedSaturationShare = 0.7
    /// The focus gate: seeds and growth only within `focusReach` raster pixels of a step of at least
    /// `focusStep` (CIE76, between 4-neighbours), where the photo is in focus, so a blurred ground of
    /// the object's colour (a butterfly's olive background) neither seeds nor carries growth; the
    /// object cut then fills the object's smooth inside from its colours. Chosen on the eleven masks
    /// (7 to 10 alike; Docs/Quality.md, fourteenth and twenty-seventh sessions).
    static let focusStep: Float = 8
    static let focusReach = 3
    /// …unless fewer than this share of the seeds lie in focus: a colour with no edge anywhere (a clear
    /// sky) has nothing sharper to give way to, and would be greyed but for a box at its horizon.
    static let inFocusSeedShare = 0.1

    /// Each raster pixel's hue distance (degrees) from the target, 360 where it has no colour (under
    /// the chroma gate, or transparent): worked out once, for growth and for carrying a region on.
    static func hueDistances(_ raster: LabRaster, parameters: SplashParameters) -> [Float] {
        let gate = Float(parameters.minimumChroma)
        return (0..<raster.count).map { index in
            raster.opaque[index] && raster.chroma(index) >= gate ? Float(Hue.distance(Double(raster.hue(index)), parameters.hue)) : 360
        }
    }

    /// Which raster pixels lie within `reach` pixels (across and down, a square) of a step of at least
    /// `step` (CIE76) between 4-neighbours: where the photo is in focus.
    static func nearSteps(_ raster: LabRaster, step: Float, reach: Int) -> [Bool] {
        let width = raster.width, height = raster.height, count = raster.count, squared = step * step
        var onStep = [Bool](repeating: false, count: count)
        raster.l.withUnsafeBufferPointer { l in
        raster.a.withUnsafeBufferPointer { a in
        raster.b.withUnsafeBufferPointer { b in
        onStep.withUnsafeMutableBufferPointer { onStep in
            @inline(__always) func mark(_ first: Int, _ second: Int) {
                let dl = l[first] - l[second], da = a[first] - a[second], db = b[first] - b[second]
                if dl * dl + da * da + db * db >= squared { onStep[first] = true; onStep[second] = true }
            }
            for y in 0..<height {
                let row = y * width
                for x in 0..<(width - 1) { mark(row + x, row + x + 1) }
                if y + 1 < height { for x in 0..<width { mark(row + x, row + x + width) } }
            }
        }}}}
        return ObjectCut.within(steps: reach, of: onStep, width: width, height: height)
    }

    /// Chroma over lightness: what stays of a surface's colour in its shade.
    static func saturation(_ raster: LabRaster, _ index: Int) -> Float {
        raster.chroma(index) / max(raster.l[index], 1)
    }

    init(_ image: RGBAImage, parameters: SplashParameters, longSide: Int = ObjectMask.longSide) {
        let raster = LabRaster(image, longSide: longSide)
        width = raster.width
        height = raster.height
        let count = raster.count
        let gate = Float(parameters.minimumChroma)
        let window = Float(parameters.tolerance + SplashParameters.objectGrowth + parameters.feather / 2)
        // Worked out once down to the halved gate (for carrying the colour into shade); growth reads them
        // over the splash's own gate only.
        let shadeDistances = Self.hueDistances(raster, parameters: parameters.inShade)
        let distances = (0..<count).map { raster.chroma($0) >= gate ? shadeDistances[$0] : 360 }
        var inTolerance: [Float] = [], saturations: [Float] = []
        for index in 0..<count where distances[index] <= Float(parameters.tolerance) {
            inTolerance.append(raster.chroma(index))
            saturations.append(Self.saturation(raster, index))
        }
        // Seeds are where the colour is clear: within the tolerance and at least 60% as chromatic as
        // its most vivid tenth there, so a dull same-hue background seeds nothing. Growth reaches
        // connected pixels at least half as chromatic: the object's shaded side, not the wall behind it.
        // It stays within the hue window: grown through the wider one, a twig lit orange joined the
        // yellow out-of-focus light it crosses, and the cut then kept the light as part of the object.
        let growthWindow = Float(parameters.tolerance + parameters.feather / 2)
        let vivid = inTolerance.isEmpty ? gate : inTolerance.select(rank: inTolerance.count * 9 / 10)
        let seedChroma = max(Float(parameters.minimumChroma + parameters.chromaFeather), 0.6 * vivid)
        let growChroma = max(gate, 0.5 * vivid)
        var seeds = [Bool](repeating: false, count: count)
        var growable = seeds
        // Shade lowers chroma and lightness together, so the object's shaded side keeps its saturation
        // (chroma over lightness) where a dull wall of the same hue does not: growth also reaches
        // pixels at least `shadedSaturationShare` as saturated as the most saturated tenth.
        let growSaturation = saturations.isEmpty ? Float.infinity
            : Float(Self.shadedSaturationShare) * saturations.select(rank: saturations.count * 9 / 10)
        for index in 0..<count where distances[index] <= window {
            let chroma = raster.chroma(index)
            if (chroma >= growChroma || Self.saturation(raster, index) >= growSaturation) && distances[index] <= growthWindow {
                growable[index] = true
            }
            if distances[index] <= Float(parameters.tolerance) && chroma >= seedChroma { seeds[index] = true }
        }
        let inFocus = Self.nearSteps(raster, step: Self.focusStep, reach: Self.focusReach)
        var seedCount = 0, inFocusSeeds = 0
        for index in 0..<count where seeds[index] {
            seedCount += 1
            if inFocus[index] { inFocusSeeds += 1 }
        }
        if Double(inFocusSeeds) >= Self.inFocusSeedShare * Double(seedCount) {
            for index in 0..<count where !inFocus[index] {
                seeds[index] = false
                growable[index] = false
            }
        }
        // Seeds are growable too (within the window, and more chromatic), so growing from them keeps
        // exactly the growable regions that hold a seed region; seed regions under 0.02% of the frame
        // (or 3 raster pixels) are specks and seed nothing.
        let seedRegions = Regions(width: width, height: height, member: seeds)
        let grown = Regions(width: width, height: height, member: growable)
        let speck = max(3, count / 5_000)
        // The seeds that seed: where the colour is clear, in a region larger than a speck. The object cut
        // learns the object's colours first mostly from them.
        let clearSeeds = seedRegions.labels.map { $0 >= 0 && seedRegions.sizes[Int($0)] >= speck }
        var seeded = [Bool](repeating: false, count: grown.sizes.count)
        for index in 0..<count where clearSeeds[index] { seeded[Int(grown.labels[index])] = true }
        var kept = grown.labels.map { $0 >= 0 && seeded[Int($0)] }
        // Growth into shade and carrying a region on read the photo's change on it: grain is no change.
        let averaged = raster.averaged()
        Self.growIntoShade(&kept, growable: &growable, raster: raster, averaged: averaged, distances: distances,
                           window: Float(parameters.tolerance + SplashParameters.objectGrowth), chroma: growChroma, saturation: growSaturation)
        // The object's dull margins: pixels in the window with colour (over the gate), a few steps out.
        kept = Self.withDullMargins(kept, distances: distances, window: window, width: width, height: height)
        kept = ObjectCut.refine(kept, seeds: clearSeeds, raster: raster, image: image)
        kept = Self.withoutPiecesTheFrameCuts(kept, width: width, height: height)
        let fade = Self.faded(Self.softened(kept, width: width, height: height), kept: kept, raster: raster)
        // It carries on only from the object's own colour (what growth could reach), not from a ring
        // of the ground the cut kept with it.
        let carried = Self.carriedOn(fade, from: zip(kept, growable).map { $0 && $1 }, kept: kept, raster: raster, averaged: averaged,
                                     shadeDistances: shadeDistances, parameters: parameters)
        weights = Self.eased(carried, raster: raster,
                             reach: LineReach(rasterSide: max(raster.width, raster.height), pictureSide: max(image.width, image.height)))
    }

    /// `kept` with the object's dull margins: the pixels whose hue distance (`distances`, 360 for grey) is
    /// within `window`, up to `marginSteps` steps out, each step to an 8-neighbour and through margin
    /// pixels only.
    static func withDullMargins(_ kept: [Bool], distances: [Float], window: Float, width: Int, height: Int) -> [Bool] {
        var kept = kept
        var frontier = kept.indices.filter { kept[$0] }
        for _ in 0..<marginSteps {
            var next: [Int] = []
            for index in frontier {
                forEachNeighbour(of: index, width: width, height: height) { neighbour in
                    if !kept[neighbour] && distances[neighbour] <= window {
                        kept[neighbour] = true
                        next.append(neighbour)
                    }
                }
            }
            frontier = next
        }
        return kept
    }

    /// The largest change (CIE76 ΔE) between neighbouring pixels of the raster averaged over 3 × 3 that
    /// growth into shade takes as one step: the light turning on a fruit's side, not an edge (an edge of
    /// ΔE 10 across one pixel is a step of a third of it once averaged).
    static let shadeStep: Float = 3
    /// …and the largest change between the neighbouring pixels themselves: more is an edge, however
    /// the averaging hides it, where a peel's pits and grain stay under it (for carrying a region on
    /// too, `carriedOn`).
    static let shadeEdge: Float = 20
    /// How much lighter or more chromatic than the darkest, dullest pixel on its way from the lit side a
    /// pixel of shade may be (the averaged raster's noise): over the whole way, not a step, so that many
    /// small rises cannot climb from a red hat's shadow into the lighter hair beside it.
    static let shadeSlack: Float = 2
    /// Growth into shade reaches pixels this share as chromatic and as saturated as growth asks: shade
    /// takes chroma as well as light (the dark side of an orange in a photo is half as saturated as its lit side).
    static let shadeShare: Float = 0.5

    /// The object's shaded side, beyond growth: from the kept regions on into pixels of the wider
    /// `window` that are `shadeShare` as chromatic and as saturated as growth asks, one smooth step at a
    /// time, each no lighter and no more chromatic than every pixel before it on the way (within
    /// `shadeSlack`). Shade darkens a surface, dulls it and can turn its hue: an orange's peel in shadow
    /// lies 20–30° towards red, and the cut took it for ground and ended down a straight line through the
    /// fruit. Steps are read on the raster averaged over 3 × 3, so that a peel's pits and a photo's grain
    /// do not stop the way, as they did, halfway to the dark side (a sharp edge of up to ΔE 9 averages
    /// into steps of 3, so `shadeEdge` holds the pixels themselves apart). A pixel's way is the first
    /// found, depth first: another way to it, darker still, is not looked for. A lemon beside the orange is lighter,
    /// a ground across an edge is a step too far, a duller wall of the hue is not saturated enough: none
    /// of them is reached. Grown pixels are growable, so that the region carries on from them.
    static func growIntoShade(_ kept: inout [Bool], growable: inout [Bool], raster: LabRaster, averaged: LabRaster, distances: [Float],
                              window: Float, chroma: Float, saturation: Float) {
        let width = raster.width, height = raster.height
        let chroma = chroma * shadeShare, saturation = saturation * shadeShare
        // Where shade could be at all, in one pass: where there is none, growth ends here.
        var candidate = [Bool](repeating: false, count: kept.count)
        var any = false
        for index in kept.indices where !kept[index] && distances[index] <= window && raster.chroma(index) >= chroma
            && Self.saturation(raster, index) >= saturation {
            candidate[index] = true
            any = true
        }
        guard any else { return }
        let (l, a, b) = (averaged.l, averaged.a, averaged.b)
        // The darkest lightness and dullest chroma on each pixel's way from the kept pixel it began at.
        var darkestOnWay = l
        var dullestOnWay = (0..<kept.count).map(averaged.chroma)
        var frontier = kept.indices.filter { index in
            var beside = false
            if kept[index] { forEachNeighbour(of: index, width: width, height: height) { if candidate[$0] { beside = true } } }
            return beside
        }
        while let index = frontier.popLast() {
            forEachNeighbour(of: index, width: width, height: height) { neighbour in
                guard candidate[neighbour], !kept[neighbour], l[neighbour] <= darkestOnWay[index] + shadeSlack,
                      dullestOnWay[neighbour] <= dullestOnWay[index] + shadeSlack
                else { return }
                let dl = l[index] - l[neighbour], da = a[index] - a[neighbour], db = b[index] - b[neighbour]
                guard dl * dl + da * da + db * db <= shadeStep * shadeStep else { return }
                // Averaged, an edge's two sides can meet at a corner of its staircase: across it, the
                // pixels themselves differ.
                let rawL = raster.l[index] - raster.l[neighbour], rawA = raster.a[index] - raster.a[neighbour]
                let rawB = raster.b[index] - raster.b[neighbour]
                guard rawL * rawL + rawA * rawA + rawB * rawB <= shadeEdge * shadeEdge else { return }
                kept[neighbour] = true
                growable[neighbour] = true
                darkestOnWay[neighbour] = min(darkestOnWay[neighbour], darkestOnWay[index])
                dullestOnWay[neighbour] = min(dullestOnWay[neighbour], dullestOnWay[index])
                frontier.append(neighbour)
            }
        }
    }


    /// Below this change between neighbouring raster pixels (CIE76 ΔE a pixel, about 3 px of an 800 px
    /// picture) the photo is smooth: a glow, a sky, the light turning on a fruit's side.
    static let smoothChange: Float = 2
    /// What carrying a region on costs, in steps of 1/e of its weight: a raster pixel of smooth photo
    /// `1 / smoothReach`, and `changePerFold` ΔE of change beyond the smooth one. Across an edge of
    /// ΔE 30 within a pixel all but a fraction of a percent of the region's weight is gone (the step
    /// itself e⁻³·⁵, the averaged steps beside it as much again), and the rest fades as it goes; across
    /// an edge under `shadeEdge`, read on the averaged raster as three smaller steps, less (beyond one of
    /// ΔE 12, 31% of a whole weight goes on, where the pixels' own step let 16%); through a smooth glow it carries on for tens of pixels.
    static let smoothReach: Float = 64
    static let changePerFold: Float = 8
    /// A pixel carries its region on only where its own colour is clearly the colour (its weight by hue
    /// and chroma alone at least this): not from a pale rim the cut kept with the object.
    static let clearColour: Float = 0.9

    /// `fade`'s weights carried on from the pixels `sources` (kept, of the object's own colour) where the
    /// photo is smooth, each pixel weighted by its own colour (by hue and chroma alone, in the splash's
    /// hue window with its chroma gate halved: shade dulls a colour). An object cut ends somewhere even where the photo has no
    /// edge (a glow, the shaded side of a fruit), and a minimum cut ends there along the shortest line it
    /// can; beyond that end the colour now goes on as far as it and the photo's smoothness go, so the
    /// picture shows a fade, not the cut's line. Where the photo draws an edge the region all
    /// but ends as before: the carrying costs the change met on the way (on the raster averaged over
    /// 3 × 3, so that grain is no change), a geodesic distance from the region's edge, approximated by
    /// two forward and backward sweeps over 8 neighbours (a path with more turns than they follow is
    /// costed higher than it is, so the colour carries less, never more).
    /// A kept pixel passes the carrying on at no more than its weight where the fade followed an edge of
    /// the photo; where the fade was only the map's own end (the photo smooth or textured there), the
    /// carrying decides instead, and may raise it: the shaded side of a fruit fades as its colour does,
    /// not down the fade of a cut that ended in it. Sources keep their own weight (raising them too
    /// gave the boxes of two cuts sharp edges, Docs/Quality.md).
    /// `shadeDistances` are `hueDistances` for `parameters.inShade`.
    static func carriedOn(_ fade: Fade, from sources: [Bool], kept: [Bool], raster: LabRaster, averaged: LabRaster,
                          shadeDistances: [Float], parameters: SplashParameters) -> [UInt8] {
        let width = raster.width, height = raster.height, count = raster.count
        let weights = fade.weights
        // A source must be clearly the colour by the splash's own parameters; a pixel the carrying reaches
        // is weighed with the chroma gate halved, as the splash allows inside a region: shade dulls a colour.
        let inShade = parameters.inShade
        func weight(_ parameters: SplashParameters, _ index: Int) -> Double {
            shadeDistances[index] >= 360 ? 0
                : parameters.keepWeight(hueDistance: Double(shadeDistances[index]), chroma: Double(raster.chroma(index)))
        }
        let fixed = (0..<count).map { sources[$0] && weight(parameters, $0) >= Double(clearColour) }
        let own = (0..<count).map { Float(weight(inShade, $0)) }
        // A source starts from its own weight, not lifted: lifting sources too gave two more show pictures seams.
        var cost = (0..<count).map { fixed[$0] ? -log(Float(max(weights[$0], 1)) / 255) : Float.infinity }
        guard cost.contains(where: \.isFinite) else { return weights }
        let open = (0..<count).map { !fixed[$0] && own[$0] > 0 }
        // In steps of 1/e from a whole weight, the most a kept pixel passes on: its weight where the fade
        // followed an edge of the photo, more as far as it did not. Beyond a region the weight goes on
        // from its edge's, so an edge the fade softened along the photo's stays soft and nothing beyond
        // it is brighter than it.
        let floor = (0..<count).map { index -> Float in
            guard kept[index] else { return 0 }
            let edge = fade.edge[index], weight = Float(max(weights[index], 1)) / 255
            return -log(edge * weight + (1 - edge))
        }
        let diagonal = Float(2).squareRoot()
        // The neighbours a forward sweep has already visited; a backward sweep visits the mirror ones.
        let earlier: [(dx: Int, dy: Int, length: Float)] = [(-1, 0, 1), (-1, -1, diagonal), (0, -1, 1), (1, -1, diagonal)]
        // The change met is read on the raster averaged over 3 × 3, as growth into shade reads its steps: a
        // peel's pits or a fabric's grain is no change of the photo, and stopped the colour within a few
        // pixels of a cut that ended in the smooth shade of a fruit. A step of the pixels themselves of
        // `shadeEdge` or more is an edge and is costed as it is, not averaged (which would spread it into
        // cheaper steps); the averaged steps beside it are costed as well.
        let l = raster.l, a = raster.a, b = raster.b
        let meanL = averaged.l, meanA = averaged.a, meanB = averaged.b
        cost.withUnsafeMutableBufferPointer { cost in
            func relax(_ x: Int, _ y: Int, sign: Int) {
                let index = y * width + x
                guard open[index] else { return }
                for neighbour in earlier {
                    let nx = x + sign * neighbour.dx, ny = y + sign * neighbour.dy
                    guard nx >= 0, nx < width, ny >= 0, ny < height else { continue }
                    let other = ny * width + nx
                    guard cost[other] < cost[index] else { continue }
                    let dl = l[index] - l[other], da = a[index] - a[other], db = b[index] - b[other]
                    var step = (dl * dl + da * da + db * db).squareRoot()
                    if step < shadeEdge {
                        let ml = meanL[index] - meanL[other], ma = meanA[index] - meanA[other], mb = meanB[index] - meanB[other]
                        step = (ml * ml + ma * ma + mb * mb).squareRoot()
                    }
                    let change = max(0, step - smoothChange * neighbour.length)
                    cost[index] = max(floor[index], min(cost[index], cost[other] + change / changePerFold + neighbour.length / smoothReach))
                }
            }
            for _ in 0..<2 {
                for y in 0..<height {
                    for x in 0..<width { relax(x, y, sign: 1) }
                }
                for y in stride(from: height - 1, through: 0, by: -1) {
                    for x in stride(from: width - 1, through: 0, by: -1) { relax(x, y, sign: -1) }
                }
            }
        }
        return (0..<count).map { index in
            !cost[index].isFinite ? weights[index] : max(weights[index], UInt8((255 * exp(-cost[index]) * own[index]).rounded()))
        }
    }

    /// Over how many raster pixels the kept map may go from none to whole where the photo draws no line
    /// (about 40 px of an 800 px picture; chosen on `colour-dev` and `tune` by the seam count, Docs/Quality.md)…
    static let smoothRamp: Float = 12
    /// …and how far the photo's change across a line must stand out (CIE76 ΔE) for the kept map to step
    /// from none to whole across it: an edge.
    static let edgeStep: Float = 10
    /// The photo's change across a line is read between pixels `lineSpan` apart, and stands out by as
    /// much as it exceeds `textureRatio` times the change across the parallel lines `textureOffset` to
    /// either side plus `textureSlack`: a window frame among a facade's frames, or a picket in a fence,
    /// draws no line of its own. Spans and offsets are pixels of the picture as it is seen, at 800 px on
    /// the long side or its own size when smaller (the seam measure's): on a smaller photo a raster pixel
    /// is less of the picture, so a line is read over more of them.
    static let lineSpan = 12.0
    static let textureOffset = 14.0
    static let textureRatio: Float = 1.3
    static let textureSlack: Float = 2

    /// How far apart a line's sides are read, and its parallel lines, in pixels of a raster whose long
    /// side is `rasterSide`, of a photo whose long side is `pictureSide`.
    struct LineReach {
        let span: Int
        let offset: Int

        init(rasterSide: Int, pictureSide: Int) {
            let perPixel = Double(rasterSide) / Double(max(1, min(800, pictureSide)))
            span = max(2, Int((lineSpan * perPixel).rounded()))
            offset = max(2, Int((textureOffset * perPixel).rounded()))
        }
    }

    /// A rectangle of a raster, both corners included.
    typealias Area = (left: Int, top: Int, right: Int, bottom: Int)

    /// `area` grown by `margin` pixels each way, within a raster `width` × `height`.
    static func grown(_ area: Area, by margin: Int, width: Int, height: Int) -> Area {
        (max(0, area.left - margin), max(0, area.top - margin), min(width - 1, area.right + margin), min(height - 1, area.bottom + margin))
    }

    /// How far the photo's change across the line after each pixel of `area` stands out of its parallel
    /// lines (0 outside it): `horizontal`, the line between a pixel and its right neighbour, else between
    /// it and the one below.
    static func lineExcess(_ raster: LabRaster, horizontal: Bool, in area: Area, reach: LineReach) -> [Float] {
        let width = raster.width, height = raster.height
        let lines = horizontal ? width : height, step = horizontal ? 1 : width
        let before = (reach.span - 1) / 2, after = reach.span - before, textureOffset = reach.offset
        var across = [Float](repeating: 0, count: raster.count), excess = across
        // The parallel lines' changes are read `textureOffset` lines off.
        let read = grown(area, by: textureOffset, width: width, height: height)
        // Row by row in both directions, so that the inner loop reads the raster in order.
        raster.l.withUnsafeBufferPointer { l in
            raster.a.withUnsafeBufferPointer { a in
                raster.b.withUnsafeBufferPointer { b in
                    across.withUnsafeMutableBufferPointer { across in
                        for y in read.top...read.bottom {
                            for x in read.left...read.right {
                                let index = y * width + x, line = horizontal ? x : y
                                let first = index + (max(0, line - before) - line) * step
                                let second = index + (min(lines - 1, line + after) - line) * step
                                let dl = l[first] - l[second], da = a[first] - a[second], db = b[first] - b[second]
                                across[index] = (dl * dl + da * da + db * db).squareRoot()
                            }
                        }
                    }
                }
            }
        }
        across.withUnsafeBufferPointer { across in
            excess.withUnsafeMutableBufferPointer { excess in
                for y in area.top...area.bottom {
                    for x in area.left...area.right {
                        let index = y * width + x, line = horizontal ? x : y
                        var parallel: Float = 0, parallels: Float = 0
                        if line >= textureOffset {
                            parallel += across[index - textureOffset * step]
                            parallels += 1
                        }
                        if line + textureOffset < lines {
                            parallel += across[index + textureOffset * step]
                            parallels += 1
                        }
                        excess[index] = max(0, across[index] - textureRatio * (parallels > 0 ? parallel / parallels : 0) - textureSlack)
                    }
                }
            }
        }
        return excess
    }

    /// `excess` (of `lineExcess`) at each line of `area`, the most of the lines up to `edgeGap` off it.
    static func nearby(_ excess: [Float], width: Int, height: Int, horizontal: Bool, in area: Area) -> [Float] {
        let lines = horizontal ? width : height, step = horizontal ? 1 : width
        var output = [Float](repeating: 0, count: excess.count)
        excess.withUnsafeBufferPointer { excess in
            output.withUnsafeMutableBufferPointer { output in
                for y in area.top...area.bottom {
                    for x in area.left...area.right {
                        let index = y * width + x, line = horizontal ? x : y
                        var most: Float = 0
                        var other = index + (max(0, line - edgeGap) - line) * step
                        let last = index + (min(lines - 1, line + edgeGap) - line) * step
                        while other <= last {
                            most = max(most, excess[other])
                            other += step
                        }
                        output[index] = most
                    }
                }
            }
        }
        return output
    }

    /// `weights` with every step the photo does not draw spread into a ramp: between two neighbouring
    /// raster pixels the kept map may change by no more than `1 / smoothRamp` a pixel where the photo
    /// draws no line, and by as much more as the photo's line there stands out (wholly at `edgeStep`).
    /// A kept map ends where a cut, a reach, a hue window or a carried fade ends it, often along a row
    /// or a column; where the photo has no line there of its own, smooth or only textured, the end is now
    /// a fade centred on it: the ramps the limit gives when lowered from above and raised from below (two
    /// forward and backward sweeps over 8 neighbours each), averaged. Where the photo draws an edge the
    /// kept map's step stays as sharp as before.
    static func eased(_ weights: [UInt8], raster: LabRaster, reach: LineReach) -> [UInt8] {
        let width = raster.width, height = raster.height
        let perLength = 255 / smoothRamp, perExcess = 255 / edgeStep, diagonal = perLength * Float(2).squareRoot()
        // Only pixels within a ramp's length of a step can change.
        var left = width, right = -1, top = height, bottom = -1
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x, weight = weights[index]
                if (x + 1 < width && weights[index + 1] != weight) || (y + 1 < height && weights[index + width] != weight) {
                    left = min(left, x); right = max(right, x + 1); top = min(top, y); bottom = max(bottom, y + 1)
                }
            }
        }
        guard right >= 0 else { return weights }
        (left, top, right, bottom) = grown((left, top, right, bottom), by: Int(smoothRamp.rounded(.up)) + 1, width: width, height: height)
        // What the kept map may change by across each line: lowered, by the line's own excess, so that it
        // gives way up to the photo's line itself; raised, by the most of the lines up to `edgeGap` off:
        // raised, the kept map spreads outward, and it does not where the photo's line is a pixel or two
        // off its step (a cut that kept a thin ring of the ground with the object), lest the ground
        // beside the object take its colour. The sweeps read the lines after their pixels' neighbours.
        let swept = grown((left, top, right, bottom), by: 1, width: width, height: height)
        let read = grown(swept, by: edgeGap, width: width, height: height)
        let rows = lineExcess(raster, horizontal: true, in: read, reach: reach)
        let columns = lineExcess(raster, horizontal: false, in: read, reach: reach)
        let rowsNearby = nearby(rows, width: width, height: height, horizontal: true, in: swept)
        let columnsNearby = nearby(columns, width: width, height: height, horizontal: false, in: swept)
        let count = raster.count
        // What the kept map may change by, beyond its length's share, across the line after each pixel:
        // lowered along the row, lowered down the column, raised along the row, raised down the column.
        // One vector a pixel, and the map's two bounds side by side: the sweeps read them together.
        let limits = (0..<count).map { perExcess * SIMD4(rows[$0], columns[$0], rowsNearby[$0], columnsNearby[$0]) }
        var bounds = weights.map { SIMD2(repeating: Float($0)) }
        bounds.withUnsafeMutableBufferPointer { bounds in
            limits.withUnsafeBufferPointer { limits in
                /// `index` against its neighbour `other`, across `limit` (lowered, raised) beyond `length`.
                @inline(__always) func relax(_ index: Int, _ other: Int, _ limit: () -> SIMD2<Float>, length: Float) {
                    let from = bounds[other], at = bounds[index]
                    // Most pixels sit among neighbours no lower and no higher: nothing to limit.
                    guard from.x < at.x || from.y > at.y else { return }
                    let allowed = limit() + length
                    bounds[index] = SIMD2(min(at.x, from.x + allowed.x), max(at.y, from.y - allowed.y))
                }
                /// Across the line between columns after `index`.
                @inline(__always) func column(_ index: Int) -> SIMD2<Float> { SIMD2(limits[index].x, limits[index].z) }
                /// Across the line between rows after `index`.
                @inline(__always) func row(_ index: Int) -> SIMD2<Float> { SIMD2(limits[index].y, limits[index].w) }
                /// Diagonally: across both lines, between columns after `first` and `second` and between rows after `third` and `fourth`.
                @inline(__always) func both(_ first: Int, _ second: Int, _ third: Int, _ fourth: Int) -> SIMD2<Float> {
                    // Lane by lane: the library's pointwise maximum of two vectors is a call a time.
                    let one = limits[first], two = limits[second], three = limits[third], four = limits[fourth]
                    return SIMD2(max(one.x, two.x, three.y, four.y), max(one.z, two.z, three.w, four.w))
                }
                for _ in 0..<2 {
                    // Forward: from the left, above, the upper left and the upper right.
                    for y in top...bottom {
                        for x in left...right {
                            let index = y * width + x
                            if x > 0 { relax(index, index - 1, { column(index - 1) }, length: perLength) }
                            if y > 0 {
                                let above = index - width
                                relax(index, above, { row(above) }, length: perLength)
                                if x > 0 { relax(index, above - 1, { both(index - 1, above - 1, above, above - 1) }, length: diagonal) }
                                if x + 1 < width { relax(index, above + 1, { both(index, above, above, above + 1) }, length: diagonal) }
                            }
                        }
                    }
                    // Backward: from the right, below, the lower right and the lower left.
                    for y in stride(from: bottom, through: top, by: -1) {
                        for x in stride(from: right, through: left, by: -1) {
                            let index = y * width + x
                            if x + 1 < width { relax(index, index + 1, { column(index) }, length: perLength) }
                            if y + 1 < height {
                                let below = index + width
                                relax(index, below, { row(index) }, length: perLength)
                                if x + 1 < width { relax(index, below + 1, { both(index, below, index, index + 1) }, length: diagonal) }
                                if x > 0 { relax(index, below - 1, { both(index - 1, below - 1, index, index - 1) }, length: diagonal) }
                            }
                        }
                    }
                }
            }
        }
        var output = weights
        for index in 0..<count { output[index] = UInt8(min(255, max(0, ((bounds[index].x + bounds[index].y) / 2).rounded()))) }
        return output
    }

    /// How far (raster pixels) a kept region's edge fades where the photo draws no edge there.
    static let smoothFade = 4

    /// `softened` where the kept map's edge lies on an edge of the photo; elsewhere a wide fade (the
    /// kept map averaged over a square `smoothFade` pixels from its centre). Where a cut, a reach or a
    /// grid ended a region in a wall in even light, a glow, the shaded half of a fruit or a soft edge,
    /// its end shows as a gradual fade, not as a line the photo does not have.
    ///
    /// The photo draws an edge there when three measures agree: the mean colours of the object and of the
    /// ground, each read `sideGap` pixels from the kept map's edge, are far apart (`softEdge` to
    /// `sharpEdge`); the photo's own edges near it are sharp (`edgeSharpness`: steep, not spread
    /// over many pixels); and the edge stands out of the texture beside it (`edgeDistinctness`). A
    /// texture passes the second and fails the first (its means are alike); a soft edge passes the
    /// first and fails the second (its change is spread out); an edge among as strong a texture (wood
    /// grain, a shaded petal's veins) passes both and fails the third. How far they agree is returned
    /// beside the weights (`Fade.edge`), for carrying the region on.
    static func faded(_ softened: [UInt8], kept: [Bool], raster: LabRaster) -> Fade {
        let width = raster.width, height = raster.height, radius = smoothFade
        func area(_ value: (Int) -> Double) -> SummedArea { SummedArea(width: width, height: height, value: value) }
        var onEdge = [Bool](repeating: false, count: raster.count)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                onEdge[index] = (x > 0 && kept[index - 1] != kept[index]) || (x + 1 < width && kept[index + 1] != kept[index])
                    || (y > 0 && kept[index - width] != kept[index]) || (y + 1 < height && kept[index + width] != kept[index])
            }
        }
        var edge = [Float](repeating: 1, count: raster.count)
        guard onEdge.contains(true) else { return Fade(weights: softened, edge: edge) }
        let steep = edgeSharpness(raster, at: onEdge)
        let distinct = edgeDistinctness(raster, at: onEdge)
        let sharpness = zip(steep, distinct).map { min($0, $1) }
        let keptCount = area { kept[$0] ? 1 : 0 }
        let edgeCount = area { onEdge[$0] ? 1 : 0 }
        let edgeSharpness = area { onEdge[$0] ? sharpness[$0] : 0 }
        // The object's and the ground's pixels more than `sideGap` pixels from the kept map's edge: where a
        // cut kept a thin ring of the ground with the object, the two are still told apart.
        let core = ObjectCut.within(steps: sideGap, of: kept.map { !$0 }, width: width, height: height).map { !$0 }
        let ground = ObjectCut.within(steps: sideGap, of: kept, width: width, height: height).map { !$0 }
        let coreCount = area { core[$0] ? 1 : 0 }, groundCount = area { ground[$0] ? 1 : 0 }
        let coreSums = [raster.l, raster.a, raster.b].map { channel in area { core[$0] ? Double(channel[$0]) : 0 } }
        let groundSums = [raster.l, raster.a, raster.b].map { channel in area { ground[$0] ? Double(channel[$0]) : 0 } }
        var output = softened
        for y in 0..<height {
            for x in 0..<width {
                let window = (left: max(0, x - radius), top: max(0, y - radius), right: min(width - 1, x + radius),
                              bottom: min(height - 1, y + radius))
                let edges = edgeCount.sum(window)
                // No edge of the kept map within reach: wholly inside or wholly outside a region.
                guard edges > 0 else { continue }
                // The kept map's edges near this pixel, on average: as steep as the photo draws them.
                var sharp = edgeSharpness.sum(window) / edges
                // Both sides are read over a wider square, so that every pixel the fade reaches sees each
                // side beyond the gap; with nothing of one side in reach (a sliver) the colours are not
                // compared, and the steepness of the photo's edges alone decides.
                let reach = radius + sideGap + 1
                let sides = (left: max(0, x - reach), top: max(0, y - reach), right: min(width - 1, x + reach),
                             bottom: min(height - 1, y + reach))
                let coreCells = coreCount.sum(sides), groundCells = groundCount.sum(sides)
                if coreCells > 0 && groundCells > 0 {
                    var difference = 0.0
                    for channel in 0..<3 {
                        let step = coreSums[channel].sum(sides) / coreCells - groundSums[channel].sum(sides) / groundCells
                        difference += step * step
                    }
                    sharp = min(sharp, ramp(difference.squareRoot(), softEdge, sharpEdge))
                }
                guard sharp < 1 else { continue }
                let index = y * width + x
                edge[index] = Float(sharp)
                let cells = Double((window.right - window.left + 1) * (window.bottom - window.top + 1))
                output[index] = UInt8((sharp * Double(softened[index]) + (1 - sharp) * keptCount.sum(window) * 255 / cells).rounded())
            }
        }
        return Fade(weights: output, edge: edge)
    }

    /// A kept map faded: its weights, and at each pixel how far (0–1) the photo draws an edge where the
    /// map ends near it; 1 where it does, or where the map does not end within the fade's reach.
    struct Fade {
        var weights: [UInt8]
        var edge: [Float]
    }

    /// 0 up to `low`, 1 from `high` on, in a straight line between: how far a measure says "edge".
    static func ramp(_ value: Double, _ low: Double, _ high: Double) -> Double { min(max((value - low) / (high - low), 0), 1) }

    /// How far apart (CIE76 ΔE) the object's and the ground's mean colours near an edge of the kept map
    /// are where the photo draws no edge there (`softEdge` or less) and where it draws one (`sharpEdge`
    /// or more).
    static let softEdge = 8.0
    static let sharpEdge = 25.0
    /// How far from the kept map's edge the object's and the ground's colours are read.
    static let sideGap = 1

    /// Over how many raster pixels either side the photo's change is read.
    static let edgeReach = 4
    /// A sharp edge changes the photo by at least `sharpChange` (CIE76 ΔE, from `edgeReach` pixels
    /// on one side to as many on the other; none below `softChange`)…
    static let softChange = 8.0
    static let sharpChange = 16.0
    /// …and makes most of that change within a pixel of itself: from `steepShare` on (none below
    /// `gradualShare`). A soft edge or a gradient changes as much, but over all the pixels between;
    /// a texture changes much within a pixel, and little from one side to the other.
    static let gradualShare = 0.3
    static let steepShare = 0.6
    /// A change within a pixel either side of at least `sharpStep` (none below `softStep`) is an edge
    /// whatever follows it.
    static let softStep = 6.0
    static let sharpStep = 12.0

    /// How sharply the photo draws an edge at each pixel of the kept map's edge (`onEdge`), 0–1, on a copy
    /// averaged over 3 × 3 (so that grain is no edge), along the row or down the column, whichever is
    /// sharper; 0 elsewhere.
    static func edgeSharpness(_ raster: LabRaster, at onEdge: [Bool]) -> [Double] {
        let width = raster.width, height = raster.height, reach = edgeReach
        let channels = [raster.l, raster.a, raster.b].map { channel in
            SummedArea(width: width, height: height) { Double(channel[$0]) }
        }
        // Only pixels within `edgeGap` of the kept map's edge are read, and the averaged raster `reach`
        // either side of them: most of the raster is far from it.
        let near = ObjectCut.within(steps: edgeGap, of: onEdge, width: width, height: height)
        var rows = (first: height, last: -1), columns = (first: width, last: -1)
        for y in 0..<height {
            for x in 0..<width where near[y * width + x] {
                rows = (min(rows.first, y), max(rows.last, y))
                columns = (min(columns.first, x), max(columns.last, x))
            }
        }
        var blurred = [SIMD3<Double>](repeating: .zero, count: raster.count)
        for y in max(0, rows.first - reach)..<min(height, rows.last + reach + 1) {
            for x in max(0, columns.first - reach)..<min(width, columns.last + reach + 1) {
                let box = (left: max(0, x - 1), top: max(0, y - 1), right: min(width - 1, x + 1), bottom: min(height - 1, y + 1))
                let cells = Double((box.right - box.left + 1) * (box.bottom - box.top + 1))
                blurred[y * width + x] = SIMD3(channels[0].sum(box), channels[1].sum(box), channels[2].sum(box)) / cells
            }
        }
        func distance(_ first: Int, _ second: Int) -> Double {
            let difference = blurred[first] - blurred[second]
            return (difference * difference).sum().squareRoot()
        }
        /// Steep for its whole change along `step`, or a clear step of its own (a thin rim before another edge).
        func sharpness(_ index: Int, step: Int) -> Double {
            let across = distance(index - reach * step, index + reach * step)
            let near = distance(index - step, index + step)
            return max(ramp(across, softChange, sharpChange) * ramp(near / max(across, 1e-9), gradualShare, steepShare),
                       ramp(near, softStep, sharpStep))
        }
        var raw = [Double](repeating: 0, count: raster.count)
        for y in 0..<height {
            for x in 0..<width where near[y * width + x] {
                let index = y * width + x
                var best = 0.0
                if x >= reach && x + reach < width { best = sharpness(index, step: 1) }
                if y >= reach && y + reach < height { best = max(best, sharpness(index, step: width)) }
                raw[index] = best
            }
        }
        // At each pixel of the kept map's edge, the sharpest within `edgeGap` pixels: where a cut kept a
        // thin ring of the ground with the object, or left a thin rim of it out, the kept map's edge
        // still lies on the photo's.
        var nearby = [Double](repeating: 0, count: raster.count)
        for y in 0..<height {
            for x in 0..<width where onEdge[y * width + x] {
                var most = 0.0
                for ny in max(0, y - edgeGap)...min(height - 1, y + edgeGap) {
                    for nx in max(0, x - edgeGap)...min(width - 1, x + edgeGap) { most = max(most, raw[ny * width + nx]) }
                }
                nearby[y * width + x] = most
            }
        }
        return nearby
    }

    /// The photo's change across the kept map's edge is read between pixels `distinctHalf` raster
    /// pixels either side of it (about 12 px of an 800 px picture), and so along the lines
    /// `distinctOffset` pixels to either side (about 14 px there).
    static let distinctHalf = 2
    static let distinctOffset = 5
    /// The edge stands out when its change is more than `distinctRatio` times the parallel lines' by
    /// at least `distinctLow` ΔE00, wholly from `distinctHigh` on. Chosen on `tune` and `colour-dev` by
    /// the seam count (Docs/Quality.md, "Edges that stand out"): none left 25 of their 89 show
    /// pictures seamed; 1.6 leaves 6, as 2.0 did, which faded more skin into red jackets.
    static let distinctRatio = 1.6
    static let distinctLow = 2.0
    static let distinctHigh = 8.0

    /// How far the photo's change across the kept map's edge stands out of the change across lines
    /// parallel to it, 0–1 at each pixel of the kept map's edge (0 elsewhere): along the row or down the
    /// column, whichever the photo changes more along (the photo's edge crosses it; the kept map's own
    /// steps, along a curve, point either way). An edge that a texture as strong beside it hides (a
    /// pumpkin on wood grain, a shaded petal) is no edge a viewer follows, and the kept map fades there.
    static func edgeDistinctness(_ raster: LabRaster, at onEdge: [Bool]) -> [Double] {
        let width = raster.width, height = raster.height, half = distinctHalf, offset = distinctOffset
        func lab(_ index: Int) -> Lab { Lab(l: Double(raster.l[index]), a: Double(raster.a[index]), b: Double(raster.b[index])) }
        // CIEDE2000, not CIE76: a pumpkin's orange against a brown table differs mostly in chroma, which
        // CIE76 overrates, while the wood's grain differs in lightness, which people see first.
        func distance(_ first: Int, _ second: Int) -> Double { deltaE2000(lab(first), lab(second)) }
        /// The change across the line through (x, y) along `horizontal` steps (a vertical line) or down.
        func change(_ x: Int, _ y: Int, horizontal: Bool) -> Double? {
            if horizontal {
                guard x - half >= 0, x + half < width, y >= 0, y < height else { return nil }
                return distance(y * width + x - half, y * width + x + half)
            }
            guard y - half >= 0, y + half < height, x >= 0, x < width else { return nil }
            return distance((y - half) * width + x, (y + half) * width + x)
        }
        var output = [Double](repeating: 0, count: raster.count)
        for y in 0..<height {
            for x in 0..<width where onEdge[y * width + x] {
                let index = y * width + x
                // The photo's edge crosses the axis along which it changes more.
                let changes = [true, false].compactMap { horizontal in change(x, y, horizontal: horizontal).map { (horizontal, $0) } }
                guard let (horizontal, own) = changes.max(by: { $0.1 < $1.1 }) else { continue }
                let sides = [-offset, offset].compactMap { horizontal ? change(x + $0, y, horizontal: true) : change(x, y + $0, horizontal: false) }
                let parallel = sides.isEmpty ? 0 : sides.reduce(0, +) / Double(sides.count)
                let margin = own - distinctRatio * parallel
                output[index] = ramp(margin, distinctLow, distinctHigh)
            }
        }
        return output
    }

    /// How far from the kept map's edge the photo's edge may lie and still be the one it follows.
    static let edgeGap = 2

    /// Sums of a grid's values over rectangles in constant time (a summed-area table).
    struct SummedArea {
        let width: Int
        var table: [Double]

        // Inlined where it is made, so that `value` is too: a dozen tables a photo, each over the whole raster.
        @inline(__always)
        init(width: Int, height: Int, value: (Int) -> Double) {
            self.width = width
            table = [Double](repeating: 0, count: (width + 1) * (height + 1))
            table.withUnsafeMutableBufferPointer { table in
                for y in 0..<height {
                    var row = 0.0
                    let above = table.baseAddress! + y * (width + 1) + 1, here = above + width + 1
                    for x in 0..<width {
                        row += value(y * width + x)
                        here[x] = above[x] + row
                    }
                }
            }
        }

        /// The sum over the pixels from (left, top) to (right, bottom), both included.
        func sum(_ box: (left: Int, top: Int, right: Int, bottom: Int)) -> Double {
            let stride = width + 1
            return table[(box.bottom + 1) * stride + box.right + 1] - table[box.top * stride + box.right + 1]
                - table[(box.bottom + 1) * stride + box.left] + table[box.top * stride + box.left]
        }
    }

    /// `kept` without its pieces that the frame's edge cuts, that are under `framedPieceShare` of its
    /// largest piece and that lie beyond the cut's reach (`ObjectCut.reach`) of every piece that stays:
    /// out-of-focus light or a passer-by's sleeve at the edge, not the subject. A small piece the frame
    /// cuts beside the subject is part of it (a petal, a stripe of a sweater, a flower the frame crops).
    static func withoutPiecesTheFrameCuts(_ kept: [Bool], width: Int, height: Int) -> [Bool] {
        let pieces = Regions(width: width, height: height, member: kept)
        guard let largest = pieces.sizes.max() else { return kept }
        var cutByTheFrame = [Bool](repeating: false, count: pieces.sizes.count)
        func mark(_ index: Int) {
            if pieces.labels[index] >= 0 { cutByTheFrame[Int(pieces.labels[index])] = true }
        }
        for x in 0..<width {
            mark(x)
            mark((height - 1) * width + x)
        }
        for y in 0..<height {
            mark(y * width)
            mark(y * width + width - 1)
        }
        var dropped = pieces.sizes.indices.map { cutByTheFrame[$0] && Double(pieces.sizes[$0]) < framedPieceShare * Double(largest) }
        guard dropped.contains(true) else { return kept }
        let staying = pieces.labels.map { $0 >= 0 && !dropped[Int($0)] }
        let beside = ObjectCut.within(steps: ObjectCut.reachSteps(width: width, height: height), of: staying, width: width, height: height)
        for index in kept.indices where pieces.labels[index] >= 0 && beside[index] { dropped[Int(pieces.labels[index])] = false }
        return pieces.labels.map { $0 >= 0 && !dropped[Int($0)] }
    }

    /// The kept map averaged over 3×3: a kept region's edge becomes a one-pixel ramp, so that read
    /// back at full size it fades over a few pixels instead of stepping.
    static func softened(_ kept: [Bool], width: Int, height: Int) -> [UInt8] {
        let keptCount = SummedArea(width: width, height: height) { kept[$0] ? 1 : 0 }
        var output = [UInt8](repeating: 0, count: kept.count)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                // A kept pixel stays fully kept; a pixel beside one gets its share.
                if kept[index] {
                    output[index] = 255
                    continue
                }
                let box = (left: max(0, x - 1), top: max(0, y - 1), right: min(width - 1, x + 1), bottom: min(height - 1, y + 1))
                let cells = (box.right - box.left + 1) * (box.bottom - box.top + 1)
                output[index] = UInt8(Int(keptCount.sum(box)) * 255 / cells)
            }
        }
        return output
    }

    /// The image columns read between each pair of neighbouring raster columns: `spans[j]` are the
    /// columns whose left raster neighbour is `j`, each with the share (0–256) of the right one.
    struct Columns {
        let spans: [Range<Int>]
        let shares: [Int32]
    }

    /// How the columns of an image `width` pixels wide fall between raster columns.
    func columns(width imageWidth: Int) -> Columns {
        var spans = [Range<Int>](repeating: 0..<0, count: width)
        var shares = [Int32](repeating: 0, count: imageWidth)
        for x in 0..<imageWidth {
            let position = max(0, (Double(x) + 0.5) * Double(width) / Double(imageWidth) - 0.5)
            let left = min(Int(position), width - 1)
            shares[x] = Int32(((position - Double(left)) * 256).rounded())
            // Columns go left to right, so each raster column's span grows by one at its end.
            spans[left] = (spans[left].isEmpty ? x : spans[left].lowerBound)..<x + 1
        }
        return Columns(spans: spans, shares: shares)
    }

    /// The weights along row `row` of an image `height` rows high, bilinear between raster pixels:
    /// first down each raster column, then across; where two neighbouring columns agree (most of a
    /// photo: wholly outside or wholly inside a region) their span is filled at once.
    func fill(_ output: UnsafeMutableBufferPointer<UInt8>, row: Int, height imageHeight: Int, columns: Columns) {
        let position = max(0, (Double(row) + 0.5) * Double(height) / Double(imageHeight) - 0.5)
        let top = min(Int(position), height - 1), bottom = min(top + 1, height - 1)
        let down = Int32(((position - Double(top)) * 256).rounded())
        weights.withUnsafeBufferPointer { weights in
            columns.shares.withUnsafeBufferPointer { shares in
                var right = Int32(weights[top * width]) * (256 - down) + Int32(weights[bottom * width]) * down
                for column in 0..<width {
                    let left = right
                    let next = min(column + 1, width - 1)
                    right = Int32(weights[top * width + next]) * (256 - down) + Int32(weights[bottom * width + next]) * down
                    let span = columns.spans[column]
                    if left == right {
                        output[span].update(repeating: UInt8((left * 256 + 32_768) >> 16))
                        continue
                    }
                    for x in span {
                        let share = shares[x]
                        output[x] = UInt8((left * (256 - share) + right * share + 32_768) >> 16)
                    }
                }
            }
        }
    }
}
