import Foundation
import Imaging

/// Finds a photo's palette (deterministic median cut, refined by weighted k-means in CIELAB,
/// close clusters merged by ΔE00), its dominant colour, and its accent candidates (`AccentFinder`,
/// on a small CIELAB raster of the same image).
public struct ColourAnalyser: Sendable {
    /// Pixels are sampled on a grid so that the long side has at most this many.
    public var maximumLongSide = 128
    /// Palette entries kept.
    public var maximumEntries = 8
    /// Clusters the median cut starts from.
    public var initialClusters = 16
    /// Clusters closer than this (ΔE00) are one colour.
    public var mergeDistance = 6.0
    /// Long side of the CIELAB raster on which accents are found.
    public var rasterLongSide = 128
    /// Finds and ranks the accent candidates.
    public var accentFinder = AccentFinder()

    public init() {}

    /// A weighted colour: the mean of the pixels that fell into one RGB bin.
    struct Point {
        var lab: Lab
        var weight: Double
    }

    public func analyse(_ image: RGBAImage) -> ColourAnalysis {
        let points = sample(image)
        let total = points.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return ColourAnalysis(palette: [], accent: nil) }
        let judgement = accentFinder.judge(LabRaster(image, longSide: rasterLongSide))
        let candidates = judgement.candidates.map(\.accent), hueFamilies = judgement.hueFamilies, accent = judgement.accent
        let clusters = refinedClusters(points)
        var names: [ColourName: Double] = [:]
        // Clusters the palette keeps unmerged are named once (naming is 55 CIEDE2000 differences).
        var known: [Lab: ColourName] = [:]
        for cluster in clusters {
            let shares = ColourName.shares(of: cluster.lab)
            known[cluster.lab] = shares[0].name
            for (name, share) in shares { names[name, default: 0] += share * cluster.weight / total }
        }
        return ColourAnalysis(palette: palette(clusters, total: total, names: known), accent: accent, nameWeights: names,
                              candidates: candidates, hueFamilies: hueFamilies, scene: judgement.sceneKind)
    }

    // MARK: Sampling

    /// Opaque pixels on a grid, gathered into 32×32×32 RGB bins (their mean colour and count).
    func sample(_ image: RGBAImage) -> [Point] {
        let step = max(1, (max(image.width, image.height) + maximumLongSide - 1) / maximumLongSide)
        // The samples' bins and colours first, then a count a bin, then the sums of the bins met only:
        // a table of 128 KB to clear and scan a photo rather than one of 512 KB with the sums beside
        // the counts, which cost import a page fault or a cache miss a sample.
        var keys: [Int] = [], colours: [SIMD4<Int32>] = []
        let capacity = ((image.height + step - 1) / step) * ((image.width + step - 1) / step)
        keys.reserveCapacity(capacity)
        colours.reserveCapacity(capacity)
        // Each sample at the middle of its step, or of the picture where it is shorter than a step
        // (a strip of a few pixels is still sampled).
        let firstColumn = min(step / 2, (image.width - 1) / 2), firstRow = min(step / 2, (image.height - 1) / 2)
        image.bytes.withUnsafeBufferPointer { bytes in
            for y in stride(from: firstRow, to: image.height, by: step) {
                var offset = (y * image.width + firstColumn) * 4
                for _ in stride(from: firstColumn, to: image.width, by: step) {
                    if bytes[offset + 3] >= 128 {
                        let red = Int32(bytes[offset]), green = Int32(bytes[offset + 1]), blue = Int32(bytes[offset + 2])
                        keys.append(Int((red >> 3) << 10 | (green >> 3) << 5 | (blue >> 3)))
                        colours.append(SIMD4(red, green, blue, 1))
                    }
                    offset += step * 4
                }
            }
        }
        // Each bin met gets a slot, in bin order (the points' order decides ties later on): a scan
        // of the counts, cheaper than sorting the bins met.
        var slots = [Int32](repeating: 0, count: 32_768)
        for key in keys { slots[key] = 1 }
        var met: [Int] = []
        for bin in 0..<slots.count where slots[bin] != 0 {
            slots[bin] = Int32(met.count)
            met.append(bin)
        }
        // Per slot: red, green and blue sums and the count.
        var sums = [SIMD4<Int32>](repeating: .zero, count: met.count)
        for (key, colour) in zip(keys, colours) { sums[Int(slots[key])] &+= colour }
        let table = SRGB.linearTable
        var points: [Point] = []
        points.reserveCapacity(met.count)
        for sum in sums {
            let count = Double(sum[3])
            // The bin's mean in sRGB, linearised by interpolating the table.
            func linear(_ sum: Int32) -> Double {
                let mean = Double(sum) / count
                let low = Int(mean), high = min(low + 1, 255)
                return table[low] + (table[high] - table[low]) * (mean - Double(low))
            }
            let lab = SRGB.xyz(red: linear(sum[0]), green: linear(sum[1]), blue: linear(sum[2])).lab
            points.append(Point(lab: lab, weight: count))
        }
        return points
    }

    // MARK: Palette

    struct Cluster {
        var lab: Lab
        var weight: Double
    }

    /// Median cut refined by weighted k-means: every pixel in one of up to `initialClusters` clusters.
    func refinedClusters(_ points: [Point]) -> [Cluster] {
        var centres = medianCut(points).map(\.lab)
        for _ in 0..<8 {
            let refined = assign(points, to: centres)
            let moved = zip(refined, centres).contains { $0.lab.distanceSquared(to: $1) > 1e-6 }
            // Converged: assigning again to the same centres would give these clusters.
            if !moved { return refined.filter { $0.weight > 0 } }
            centres = refined.map(\.lab)
        }
        return assign(points, to: centres).filter { $0.weight > 0 }
    }

    func palette(_ refined: [Cluster], total: Double, names: [Lab: ColourName] = [:]) -> [PaletteEntry] {
        var clusters = refined
        merge(&clusters)
        clusters.sort { first, second in
            if first.weight != second.weight { return first.weight > second.weight }
            return (first.lab.l, first.lab.a, first.lab.b) < (second.lab.l, second.lab.a, second.lab.b)
        }
        return clusters.prefix(maximumEntries).map {
            PaletteEntry(lab: $0.lab, weight: $0.weight / total, name: names[$0.lab] ?? ColourName.nearest(to: $0.lab))
        }
    }

    /// Splits the heaviest-spread box at the weighted median of its widest axis until there are
    /// `initialClusters` boxes or none can be split.
    func medianCut(_ points: [Point]) -> [Cluster] {
        var boxes: [[Point]] = [points]
        // Each box's spread, measured once when it is made (a box of one point cannot be split).
        var spreads = [points.count > 1 ? Self.sumOfSquares(points) : 0]
        while boxes.count < initialClusters {
            var chosen = -1
            var largestSpread = 0.0
            for (index, spread) in spreads.enumerated() where spread > largestSpread {
                largestSpread = spread
                chosen = index
            }
            guard chosen >= 0, largestSpread > 1e-9 else { break }
            let box = boxes.remove(at: chosen)
            spreads.remove(at: chosen)
            let (left, right) = Self.splitAtWeightedMedian(box, axis: Self.widestAxis(box))
            for half in [left, right] {
                boxes.append(half)
                spreads.append(half.count > 1 ? Self.sumOfSquares(half) : 0)
            }
        }
        return boxes.map(Self.mean)
    }

    /// The points up to and including the one where the running weight, in order along `axis` (ties
    /// by position), reaches half, and the rest — each side keeping the box's order, neither empty.
    /// Found by a histogram of the keys and a sort of one bucket only, in linear time, as a full sort
    /// per split is costly at import (Docs/Performance.md).
    static func splitAtWeightedMedian(_ box: [Point], axis: Int) -> ([Point], [Point]) {
        let keys = box.map { coordinate($0.lab, axis) }
        let low = keys.min()!, high = keys.max()!
        let buckets = 256
        let scale = high > low ? Double(buckets) * 0.999_999 / (high - low) : 0
        let bucketOf = keys.map { Int(($0 - low) * scale) }
        var weights = [Double](repeating: 0, count: buckets)
        for index in box.indices { weights[bucketOf[index]] += box[index].weight }
        let half = weights.reduce(0, +) / 2
        var running = 0.0
        var median = 0
        while median < buckets - 1 && running + weights[median] < half {
            running += weights[median]
            median += 1
        }
        let candidates = box.indices.filter { bucketOf[$0] == median }.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        var pivot = candidates.last!
        for index in candidates {
            running += box[index].weight
            if running >= half {
                pivot = index
                break
            }
        }
        func precedesPivot(_ index: Int) -> Bool { keys[index] != keys[pivot] ? keys[index] < keys[pivot] : index < pivot }
        // When the pivot comes last, it goes right, so that neither side is empty.
        let pivotGoesRight = box.indices.allSatisfy { $0 == pivot || precedesPivot($0) }
        var left: [Point] = [], right: [Point] = []
        for index in box.indices {
            if precedesPivot(index) || (index == pivot && !pivotGoesRight) { left.append(box[index]) } else { right.append(box[index]) }
        }
        return (left, right)
    }

    /// Each point to its nearest centre; the weighted means of what each centre got.
    func assign(_ points: [Point], to centres: [Lab]) -> [Cluster] {
        var sums = [(l: Double, a: Double, b: Double, weight: Double)](repeating: (0, 0, 0, 0), count: centres.count)
        // Centres as three flat arrays: the inner loop is a run of subtractions and multiplications.
        let ls = centres.map(\.l), as_ = centres.map(\.a), bs = centres.map(\.b)
        ls.withUnsafeBufferPointer { ls in
            as_.withUnsafeBufferPointer { as_ in
                bs.withUnsafeBufferPointer { bs in
                    let count = ls.count
                    for point in points {
                        let l = point.lab.l, a = point.lab.a, b = point.lab.b
                        @inline(__always) func distance(to centre: Int) -> Double {
                            let dl = l - ls[centre], da = a - as_[centre], db = b - bs[centre]
                            return dl * dl + da * da + db * db
                        }
                        // Two running minima, of the even centres and of the odd ones: two chains of
                        // comparisons the processor runs side by side, where one was a single chain. Both
                        // distances of a pair are worked out before either is compared.
                        var even = (best: 0, distance: Double.infinity), odd = (best: 0, distance: Double.infinity)
                        var index = 0
                        while index + 1 < count {
                            let toEven = distance(to: index), toOdd = distance(to: index + 1)
                            if toEven < even.distance { even = (index, toEven) }
                            if toOdd < odd.distance { odd = (index + 1, toOdd) }
                            index += 2
                        }
                        if index < count {
                            let toLast = distance(to: index)
                            if toLast < even.distance { even = (index, toLast) }
                        }
                        // The first nearest centre, as one chain in order would find it.
                        let best = odd.distance < even.distance || (odd.distance == even.distance && odd.best < even.best) ? odd.best : even.best
                        sums[best].l += l * point.weight
                        sums[best].a += a * point.weight
                        sums[best].b += b * point.weight
                        sums[best].weight += point.weight
                    }
                }
            }
        }
        return zip(sums, centres).map { sum, centre in
            sum.weight > 0
                ? Cluster(lab: Lab(l: sum.l / sum.weight, a: sum.a / sum.weight, b: sum.b / sum.weight), weight: sum.weight)
                : Cluster(lab: centre, weight: 0)
        }
    }

    /// Joins the closest two clusters while any two are closer than `mergeDistance` (ΔE00).
    func merge(_ clusters: inout [Cluster]) {
        // Every pair's ΔE00 once (first index below the second, in that argument order: ΔE00 is
        // symmetric only up to rounding); after a merge only the merged cluster's are measured again.
        var distances = [[Double]](repeating: [Double](repeating: 0, count: clusters.count), count: clusters.count)
        // Only pairs closer than `mergeDistance` are ever joined: the others need no hue trigonometry.
        func measure(_ first: Int, _ second: Int) {
            let one = clusters[first].lab, other = clusters[second].lab
            distances[first][second] = deltaE2000LowerBound(one, other) >= mergeDistance ? .infinity : deltaE2000(one, other)
        }
        for first in clusters.indices {
            for second in (first + 1)..<clusters.count { measure(first, second) }
        }
        while clusters.count > 1 {
            var closest: (Int, Int)?
            var closestDistance = mergeDistance
            for first in 0..<clusters.count {
                for second in (first + 1)..<clusters.count where distances[first][second] < closestDistance {
                    closestDistance = distances[first][second]
                    closest = (first, second)
                }
            }
            guard let (first, second) = closest else { return }
            let a = clusters[first], b = clusters[second]
            let weight = a.weight + b.weight
            clusters[first] = Cluster(lab: Lab(l: (a.lab.l * a.weight + b.lab.l * b.weight) / weight,
                                               a: (a.lab.a * a.weight + b.lab.a * b.weight) / weight,
                                               b: (a.lab.b * a.weight + b.lab.b * b.weight) / weight), weight: weight)
            clusters.remove(at: second)
            distances.remove(at: second)
            for row in distances.indices { distances[row].remove(at: second) }
            for other in clusters.indices where other != first { measure(min(first, other), max(first, other)) }
        }
    }

    static func mean(_ points: [Point]) -> Cluster {
        var l = 0.0, a = 0.0, b = 0.0, weight = 0.0
        for point in points {
            l += point.lab.l * point.weight
            a += point.lab.a * point.weight
            b += point.lab.b * point.weight
            weight += point.weight
        }
        return Cluster(lab: Lab(l: l / weight, a: a / weight, b: b / weight), weight: weight)
    }

    static func sumOfSquares(_ points: [Point]) -> Double {
        let centre = mean(points).lab
        return points.reduce(0) { $0 + $1.weight * $1.lab.distanceSquared(to: centre) }
    }

    static func widestAxis(_ points: [Point]) -> Int {
        var ranges = [(Double.infinity, -Double.infinity), (Double.infinity, -Double.infinity), (Double.infinity, -Double.infinity)]
        for point in points {
            for axis in 0..<3 {
                let value = coordinate(point.lab, axis)
                ranges[axis] = (min(ranges[axis].0, value), max(ranges[axis].1, value))
            }
        }
        let widths = ranges.map { $0.1 - $0.0 }
        return widths.firstIndex(of: widths.max()!)!
    }

    static func coordinate(_ lab: Lab, _ axis: Int) -> Double {
        axis == 0 ? lab.l : (axis == 1 ? lab.a : lab.b)
    }
}
