import Foundation

/// Finds the colours a person would single out in a photo by where they are, not only how much of
/// them there is. Chromatic pixels are grouped into hue families (the hills of a chroma-weighted
/// hue histogram, so an object whose hue drifts with the light stays one family); each family's
/// pixels are split into connected regions, specks are dropped, and the rest is scored by
/// vividness, contrast with its surroundings (ΔE00 between the regions and a ring around them),
/// size, spatial concentration and how little of the frame's edge it holds (a sky, a sea or a
/// meadow is ground, not figure).
public struct AccentFinder: Sendable {
    /// Pixels at least this chromatic (C*) belong to a hue family…
    public var minimumChroma: Float = 15
    /// …and neither very dark nor very light (L*).
    public var lightness: ClosedRange<Float> = 12...97
    /// A region smaller than this share of the frame (or 4 pixels) is a speck.
    public var speckShare = 0.000_4
    /// A family's core holds its pixels at least this share as chromatic as its most vivid 3%.
    public var coreShare: Float = 0.6
    /// An accent leaves at least a quarter of the frame to turn grey: a colour over more of it is the
    /// scene, not a subject in it (a red door filling the frame), however likely the model finds it.
    /// Not fitted: the labelled photos hold too few such frames to teach it.
    public static let largestShare = 0.75
    /// Judges how likely each candidate is the colour a person would single out (fitted from labels);
    /// its threshold is the probability from which a candidate stands out.
    public var model = LearnedWeights.accent
    /// Judge whether a photo is a colour target or a busy scene (fitted from labels).
    public var sceneModels = SceneModels(colourTarget: LearnedWeights.colourTarget, busy: LearnedWeights.busyScene)
    /// Hue families counted as "saturated" for the busy-scene measure: at least this chroma…
    public var saturatedChroma: Float = 35
    /// …and this share of the frame.
    public var saturatedShare = 0.01

    public init() {}

    /// What the eye makes of one photo: its candidate colours, the scene, and the accent.
    public struct Judgement: Sendable {
        /// At most `limit` candidates, most likely the accent first, their `saliency` the accent model's probability.
        public var candidates: [(accent: Accent, features: AccentFeatures)]
        public var hueFamilies: Int
        public var scene: SceneFeatures
        public var sceneKind: SceneKind
        /// The probability from which a candidate stands out.
        public var threshold: Double
        /// The first candidate when it is the accent (`AccentFinder.isAccent`).
        public var accent: Accent? {
            guard let first = candidates.first?.accent,
                  AccentFinder.isAccent(probability: first.saliency, coverage: first.coverage, threshold: threshold, scene: sceneKind)
            else { return nil }
            return first
        }
    }

    /// Whether a photo's most likely candidate is its accent: likely enough, leaving room in the frame
    /// to stand out in, in an ordinary scene. The one rule, for the product and for the fit that
    /// chooses the threshold.
    public static func isAccent(probability: Double, coverage: Double, threshold: Double, scene: SceneKind) -> Bool {
        scene == .ordinary && probability >= threshold && coverage <= largestShare
    }

    /// Every hue family's candidate colour judged by the learned models; at most `limit` of them kept.
    public func judge(_ raster: LabRaster, limit: Int = 3) -> Judgement {
        let (measured, hueFamilies, scene) = measure(raster)
        var judged = measured.map { candidate -> (accent: Accent, features: AccentFeatures) in
            var accent = candidate.accent
            accent.saliency = model.probability(candidate.features.vector)
            return (accent, candidate.features)
        }
        judged.sort { ($0.accent.saliency, $1.accent.hue) > ($1.accent.saliency, $0.accent.hue) }
        return Judgement(candidates: Array(judged.prefix(limit)), hueFamilies: hueFamilies, scene: scene, sceneKind: sceneModels.kind(scene),
                         threshold: model.threshold)
    }

    /// Every hue family's candidate with its features (in the order of the families' peaks), the
    /// number of distinct saturated hue families, and the scene's features, from one pass over `raster`.
    /// A candidate's `saliency` here is the hand-made product (`features.saliency`); `judge` replaces it
    /// with the accent model's probability.
    public func measure(_ raster: LabRaster)
        -> (candidates: [(accent: Accent, features: AccentFeatures)], hueFamilies: Int, scene: SceneFeatures) {
        let count = raster.count
        var hueBin = [Int](repeating: -1, count: count)
        var pixelChroma = [Float](repeating: 0, count: count)
        var histogram = [Double](repeating: 0, count: Self.bins)
        var saturated = [Double](repeating: 0, count: Self.bins)
        var chromaSum = 0.0
        for index in 0..<count where raster.opaque[index] {
            let chroma = raster.chroma(index)
            pixelChroma[index] = chroma
            chromaSum += Double(chroma)
            guard chroma >= minimumChroma && lightness.contains(raster.l[index]) else { continue }
            let bin = min(Self.bins - 1, Int(raster.hue(index) / Float(360 / Self.bins)))
            hueBin[index] = bin
            histogram[bin] += Double(min(chroma, 60)) / 60
            if chroma >= saturatedChroma { saturated[bin] += 1 }
        }
        let families = Self.families(Self.smoothed(histogram))
        let hueFamilies = Self.hueFamilyCount(Self.smoothed(saturated), minimum: saturatedShare * Double(count))
        // Each family's pixels (a family is known by its peak bin), gathered in one pass, in scan order.
        var pixelsOf = [[Int]](repeating: [], count: Self.bins)
        for index in 0..<count where hueBin[index] >= 0 {
            if let family = families[hueBin[index]] { pixelsOf[family].append(index) }
        }
        var scored: [(accent: Accent, features: AccentFeatures)] = []
        let minimumSize = self.minimumSize(of: count)
        // A family smaller than a speck cannot hold a region.
        for pixels in pixelsOf where pixels.count >= minimumSize {
            // The family's core: its vivid pixels, relative to its most vivid 3% — the red shutters,
            // not the reddish stone around them; the yellow nose, not the sky's yellow cast.
            var chromas = pixels.map { pixelChroma[$0] }
            let threshold = max(minimumChroma, coreShare * chromas.select(rank: chromas.count * 97 / 100))
            var family = [Bool](repeating: false, count: count), member = family
            for index in pixels {
                family[index] = true
                if pixelChroma[index] >= threshold { member[index] = true }
            }
            if var candidate = score(member, family: family, pixels: pixels, in: raster) {
                candidate.features.hueFamilies = hueFamilies
                scored.append(candidate)
            }
        }
        // Measures against the photo's other candidates: the most vivid and the largest of them.
        let mostChroma = scored.map(\.features.chroma).max() ?? 1, largest = scored.map(\.features.coverage).max() ?? 1
        for index in scored.indices {
            scored[index].features.relativeChroma = scored[index].features.chroma / max(mostChroma, 1e-9)
            scored[index].features.relativeCoverage = scored[index].features.coverage / max(largest, 1e-9)
        }
        let scene = SceneFeatures(raster: raster, candidates: scored, hueFamilies: hueFamilies, hueBins: hueBin, chromas: pixelChroma,
                                  meanChroma: count > 0 ? chromaSum / Double(count) : 0)
        return (scored, hueFamilies, scene)
    }

    // MARK: Scoring one family

    /// Regions smaller than this many pixels of a raster of `count` are specks.
    func minimumSize(of count: Int) -> Int { max(4, Int((speckShare * Double(count)).rounded(.up))) }

    /// The core's regions, scored; `family` (the core and its duller shades, whose indices in scan
    /// order are `pixels`) is not counted as surroundings.
    func score(_ member: [Bool], family: [Bool], pixels: [Int], in raster: LabRaster) -> (accent: Accent, features: AccentFeatures)? {
        let width = raster.width, height = raster.height, count = raster.count
        let regions = Regions(width: width, height: height, member: member, candidates: pixels)
        let minimumSize = self.minimumSize(of: count)
        var kept = [Bool](repeating: false, count: count)
        var keptPixels: [Int] = []
        var sum = (l: 0.0, a: 0.0, b: 0.0, chroma: 0.0, weight: 0.0)
        var moments = Spread()
        var byRegion = [RegionSums](repeating: RegionSums(), count: regions.sizes.count)
        var steps = (sum: 0.0, count: 0)
        var onBorder = 0
        var box = (left: width, top: height, right: -1, bottom: -1)
        let sizes = regions.sizes.filter { $0 >= minimumSize }
        guard !sizes.isEmpty else { return nil }
        // The kept pixels are the family's pixels in large enough regions: visiting the family's pixels
        // in scan order adds them up in the order a pass over the whole raster would.
        for index in pixels {
            let label = regions.labels[index]
            guard label >= 0, regions.sizes[Int(label)] >= minimumSize else { continue }
            kept[index] = true
            keptPixels.append(index)
            // The colour a person names is the vivid one: shading and dull edges count less.
            let chroma = Double(raster.chroma(index)), weight = chroma * chroma
            sum.l += Double(raster.l[index]) * weight
            sum.a += Double(raster.a[index]) * weight
            sum.b += Double(raster.b[index]) * weight
            sum.weight += weight
            sum.chroma += chroma

            let row = index / width, column = index - row * width
            let onFrameEdge = column == 0 || row == 0 || column == width - 1 || row == height - 1
            byRegion[Int(label)].add(raster: raster, index: index, weight: weight, column: column, row: row, onFrameEdge: onFrameEdge)
            moments.add(x: (Double(column) + 0.5) / Double(width), y: (Double(row) + 0.5) / Double(height))
            if onFrameEdge { onBorder += 1 }
            box = (min(box.left, column), min(box.top, row), max(box.right, column), max(box.bottom, row))
        }
        // How much lightness changes from a kept pixel to the kept pixel beside it: shading and
        // texture in a photograph, nothing inside a colour a program filled.
        for index in keptPixels where index % width < width - 1 && kept[index + 1] {
            steps.sum += Double(abs(raster.l[index] - raster.l[index + 1]))
            steps.count += 1
        }
        let n = Double(keptPixels.count)
        let region = Lab(l: sum.l / sum.weight, a: sum.a / sum.weight, b: sum.b / sum.weight)
        // The splash's hue is the most prominent region's; ties (mirror images) go to the lower hue, so
        // that the choice does not depend on which region the scan met first.
        let leadingHue = byRegion.filter { $0.spread.count > 0 }.map { (prominence: $0.prominence, hue: $0.colour.lch.h) }
            .max { ($0.prominence, $1.hue) < ($1.prominence, $0.hue) }?.hue
        let coverage = n / Double(count)
        // Spread of the kept pixels against a uniform spread over the frame (variance 1/12 per axis).
        let dispersion = min(1, (moments.variance / (2.0 / 12)).squareRoot())
        let compactness = 1 - dispersion
        let borderPixels = Double(2 * (width + height) - 4)
        let borderShare = Double(onBorder) / max(borderPixels, 1)
        let contrast = surroundingContrast(kept, within: box, family: family, region: region, in: raster)
        let chroma = sum.chroma / n
        // Vivid and not sunk in shadow: a dark red speck does not catch the eye as a lit one does.
        let vividness = smoothstep((chroma - 15) / 45) * smoothstep((region.l - 15) / 20)
        let contrastTerm = smoothstep((contrast - 4) / 36)
        // From nothing at 0.05% of the frame to whole at 0.5% (on a log scale), whole up to 30%, nothing at 75%.
        let sizeTerm = smoothstep(log10(max(coverage, 1e-6) / 0.000_5)) * (1 - smoothstep((coverage - 0.3) / 0.45))
        let figure = 1 - smoothstep(borderShare / 0.6)
        let focus = 0.6 + 0.4 * compactness
        let saliency = vividness * contrastTerm * sizeTerm * figure * focus
        let sorted = sizes.sorted(by: >)
        // Regions that make up most of the colour: one bus, two parrots, not every leaf.
        var running = 0, major = 0
        for size in sorted where Double(running) < 0.8 * n {
            running += size
            major += 1
        }
        let texture = steps.count > 0 ? steps.sum / Double(steps.count) : 0
        let accent = Accent(lab: region, hue: leadingHue ?? region.lch.h, coverage: coverage, name: ColourName.nearest(to: region),
                            saliency: saliency, contrast: contrast, regions: major, compactness: compactness, texture: texture)
        // Where its pixels are on average, against the frame's centre (in half-diagonals).
        let centre = (x: moments.x / moments.count - 0.5, y: moments.y / moments.count - 0.5)
        let features = AccentFeatures(chroma: chroma, lightness: region.l, hue: region.lch.h, coverage: coverage, contrast: contrast,
                                      compactness: compactness, edgeShare: borderShare, texture: texture, regions: major, pieces: sizes.count,
                                      saliency: saliency, hueFamilies: 0,
                                      offCentre: min(1, (centre.x * centre.x + centre.y * centre.y).squareRoot() / 0.5.squareRoot()))
        return (accent, features)
    }

    /// One region's colour and shape, added up pixel by pixel, to find which of a family's regions is
    /// the thing a person would single out: a splash of the family targets its hue. Its colour is
    /// chroma-weighted as the family's is.
    struct RegionSums {
        var l = 0.0, a = 0.0, b = 0.0, weight = 0.0
        /// Positions in raster pixels.
        var spread = Spread()
        var touchesFrameEdge = false

        mutating func add(raster: LabRaster, index: Int, weight: Double, column: Int, row: Int, onFrameEdge: Bool) {
            l += Double(raster.l[index]) * weight
            a += Double(raster.a[index]) * weight
            b += Double(raster.b[index]) * weight
            self.weight += weight
            spread.add(x: Double(column), y: Double(row))
            touchesFrameEdge = touchesFrameEdge || onFrameEdge
        }

        var colour: Lab { Lab(l: l / weight, a: a / weight, b: b / weight) }

        /// The region's size, less for a shape drawn out along a streak (a disc's spread against its
        /// own, squared) and halved when the frame cuts it: a fruit against the sky, not the
        /// out-of-focus streak of the same hue behind it.
        var prominence: Double {
            let pixels = spread.count
            guard pixels > 0 else { return 0 }
            // A disc of radius r has a spread of r / √2.
            let discSpread = (pixels / Double.pi).squareRoot() / 2.0.squareRoot()
            let shape = min(1, pow(discSpread / max(spread.variance.squareRoot(), 1e-9), 2))
            return pixels * shape * (touchesFrameEdge ? 0.5 : 1)
        }
    }

    /// Sums of pixel positions, for how far a set of pixels spreads from its centre.
    struct Spread {
        var count = 0.0, x = 0.0, y = 0.0, xx = 0.0, yy = 0.0

        mutating func add(x: Double, y: Double) {
            count += 1
            self.x += x
            self.y += y
            xx += x * x
            yy += y * y
        }

        /// The variance along x plus that along y (0 for one pixel, never below it for rounding).
        var variance: Double {
            max(0, (xx / count - pow(x / count, 2)) + (yy / count - pow(y / count, 2)))
        }
    }

    /// How far the ring around the kept pixels reaches.
    static let ringRadius = 2

    /// ΔE00 between the region's colour and the mean colour of a ring two pixels wide around it, its
    /// own family's duller shades left out (0 when nothing surrounds it: the colour fills the frame).
    /// Only the kept pixels' bounding `box` and the ring's width around it are looked at.
    func surroundingContrast(_ kept: [Bool], within box: (left: Int, top: Int, right: Int, bottom: Int), family: [Bool],
                             region: Lab, in raster: LabRaster) -> Double {
        let radius = Self.ringRadius
        let left = max(0, box.left - radius), right = min(raster.width - 1, box.right + radius)
        let top = max(0, box.top - radius), bottom = min(raster.height - 1, box.bottom + radius)
        let cropWidth = right - left + 1, cropHeight = bottom - top + 1
        var crop = [Bool](repeating: false, count: cropWidth * cropHeight)
        for row in top...bottom {
            for column in left...right where kept[row * raster.width + column] {
                crop[(row - top) * cropWidth + column - left] = true
            }
        }
        let near = Self.dilated(crop, width: cropWidth, height: cropHeight, radius: radius)
        var sum = (l: 0.0, a: 0.0, b: 0.0), ring = 0
        // Row by row, column by column: the order a pass over the whole raster adds them up in.
        for row in top...bottom {
            for column in left...right where near[(row - top) * cropWidth + column - left] {
                let index = row * raster.width + column
                guard !family[index] && raster.opaque[index] else { continue }
                ring += 1
                sum.l += Double(raster.l[index])
                sum.a += Double(raster.a[index])
                sum.b += Double(raster.b[index])
            }
        }
        guard ring > 0 else { return 0 }
        let n = Double(ring)
        return deltaE2000(region, Lab(l: sum.l / n, a: sum.a / n, b: sum.b / n))
    }

    /// `mask` grown by `radius` pixels in every direction (a square neighbourhood), in a horizontal
    /// and a vertical pass of running counts: a few operations per pixel whatever the radius.
    static func dilated(_ mask: [Bool], width: Int, height: Int, radius: Int) -> [Bool] {
        /// One pass along lines of `length` pixels, `step` apart within a line, starting at `starts`.
        func pass(_ input: [Bool], starts: StrideTo<Int>, length: Int, step: Int) -> [Bool] {
            var output = [Bool](repeating: false, count: input.count)
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    for start in starts {
                        // Members within [position − radius, position + radius] along the line.
                        var inside = 0
                        for position in 0..<min(radius, length) where input[start + position * step] { inside += 1 }
                        for position in 0..<length {
                            if position + radius < length && input[start + (position + radius) * step] { inside += 1 }
                            if position > radius && input[start + (position - radius - 1) * step] { inside -= 1 }
                            output[start + position * step] = inside > 0
                        }
                    }
                }
            }
            return output
        }
        let rows = pass(mask, starts: stride(from: 0, to: width * height, by: width), length: width, step: 1)
        return pass(rows, starts: stride(from: 0, to: width, by: 1), length: height, step: width)
    }

    // MARK: Hue families

    static let bins = 72

    /// Circular smoothing by a [1 2 3 2 1] kernel.
    static func smoothed(_ histogram: [Double]) -> [Double] {
        let kernel = [1.0, 2, 3, 2, 1]
        let count = histogram.count
        return histogram.indices.map { bin in
            var sum = 0.0
            for offset in -2...2 {
                sum += kernel[offset + 2] * histogram[(bin + offset + count) % count]
            }
            return sum / 9
        }
    }

    /// Each bin's family: the peak it climbs to (nil for empty bins). Hills separated by a valley are
    /// different families, however shallow the valley.
    static func families(_ histogram: [Double]) -> [Int?] {
        let count = histogram.count
        func uphill(_ bin: Int) -> Int {
            let left = (bin + count - 1) % count, right = (bin + 1) % count
            var best = bin
            if histogram[left] > histogram[best] { best = left }
            if histogram[right] > histogram[best] { best = right }
            return best
        }
        return histogram.indices.map { start in
            guard histogram[start] > 1e-9 else { return nil }
            var bin = start
            while true {
                let next = uphill(bin)
                if next == bin { return bin }
                bin = next
            }
        }
    }

    /// How many hills of the saturated histogram hold at least `minimum` pixels.
    static func hueFamilyCount(_ histogram: [Double], minimum: Double) -> Int {
        var weights: [Int: Double] = [:]
        for (bin, family) in families(histogram).enumerated() {
            if let family { weights[family, default: 0] += histogram[bin] }
        }
        return weights.values.filter { $0 >= minimum }.count
    }
}
