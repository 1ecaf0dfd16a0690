import Foundation
import Imaging

/// An object told from its ground by colour and by edges together (GrabCut: Rother, Kolmogorov and
/// Blake, 2004), started from a first guess of where the object is. Each side gets a mixture of
/// Gaussians over CIELAB learnt from its pixels; a minimum cut of the raster's 8-connected grid then
/// puts each pixel where its colour is likelier, except where that would cut between alike
/// neighbours. A shaded side, a dark border or a pale highlight joins the object it is surrounded
/// by, though its colour is not the object's hue; the ground around the object, however alike in
/// hue, stays out when an edge separates them.
enum ObjectCut {
    /// How far from the first guess the object may reach, as a share of the raster's long side:
    /// beyond it every pixel is ground.
    static let reach = 0.075
    /// `reach` in pixels of a grid, at least 2.
    static func reachSteps(width: Int, height: Int) -> Int { max(2, Int(Double(max(width, height)) * reach)) }
    /// Weight of keeping alike neighbours on the same side, against the colour models' costs
    /// (GrabCut's γ).
    static let smoothness: Float = 50
    /// The long side of the cut's raster: a quarter of the photo's, but at least `smallestSide`
    /// (below it an object a few percent of the frame has too few pixels for its colours to be
    /// learnt) and at most `largestSide` (the cut's cost grows faster than its pixels, and the
    /// splash's own colour table still decides the edge at full size).
    static let smallestSide = 160
    static let largestSide = 192
    /// Cuts made, each from colour models learnt from the one before, as GrabCut iterates. More
    /// rounds swung between cuts rather than settling on a better one, and each costs as much as the first.
    static let rounds = 2
    /// A round that moved fewer pixels than this share of the object has settled: the next would
    /// learn nearly the same colour models, so it is not made.
    static let settledShare = 0.05

    /// In the first round the object's colours are learnt from the seeds' pixels and from one in this many of
    /// the guess's other pixels. The seeds are where the colour is clear; the rest of the guess is what
    /// growth and the dull margins added to them: the object's shaded side, and also, where a few specks
    /// of a lawn seeded, a ground of the object's hue, which the cut learnt as the object and kept whole.
    /// Without the rest of the guess, a fruit's shaded side is cut away. Chosen on `colour-dev` and `tune`
    /// by the soft IoU and the seams (Docs/Quality.md).
    static let seedWeight = 4

    /// The pixels of the object: `guess` (on `raster`) refined, its colours learnt first mostly from
    /// `seeds` (within the guess). A guess with no pixel, or with every pixel, is returned as it is.
    static func refine(_ guess: [Bool], seeds: [Bool], raster: LabRaster, image: RGBAImage) -> [Bool] {
        guard guess.contains(true), guess.contains(false) else { return guess }
        let rasterSide = max(raster.width, raster.height)
        let side = min(rasterSide, largestSide, max(smallestSide, max(image.width, image.height) / 4))
        let grid = side == rasterSide ? raster : LabRaster(image, longSide: side)
        let colours = (0..<grid.count).map { SIMD3(grid.l[$0], grid.a[$0], grid.b[$0]) }
        guard side != rasterSide else {
            return segment(colours: colours, guess: guess, seeds: seeds, width: grid.width, height: grid.height)
        }
        let toRaster = lookup(from: (raster.width, raster.height), to: (grid.width, grid.height))
        let cut = segment(colours: colours, guess: toRaster.map { guess[$0] }, seeds: toRaster.map { seeds[$0] },
                          width: grid.width, height: grid.height)
        return lookup(from: (grid.width, grid.height), to: (raster.width, raster.height)).map { cut[$0] }
    }

    /// For each pixel of the `target` grid, the index of the `source` grid's pixel under its centre.
    static func lookup(from source: (width: Int, height: Int), to target: (width: Int, height: Int)) -> [Int] {
        // A pixel's column and row are looked up once each: a division per pixel cost more than the rest.
        let columns = (0..<target.width).map { min(source.width - 1, ($0 * 2 + 1) * source.width / (2 * target.width)) }
        var indices: [Int] = []
        indices.reserveCapacity(target.width * target.height)
        for y in 0..<target.height {
            let row = min(source.height - 1, (y * 2 + 1) * source.height / (2 * target.height)) * source.width
            for column in columns { indices.append(row + column) }
        }
        return indices
    }

    /// GrabCut on a grid of colours: the guess's colour models (the object's weighted towards `seeds`,
    /// when given) and a cut, then up to `rounds` − 1 times the last cut's models and a cut.
    static func segment(colours: [SIMD3<Float>], guess: [Bool], seeds: [Bool]? = nil, width: Int, height: Int) -> [Bool] {
        guard guess.contains(true), guess.contains(false) else { return guess }
        let near = Self.within(steps: reachSteps(width: width, height: height), of: guess, width: width, height: height)
        // Pixels beyond reach are ground whatever their colour: the graph needs only the rectangle
        // around the reachable ones and a ring of ground.
        var left = width, right = 0, top = height, bottom = 0
        for index in near.indices where near[index] {
            let x = index % width, y = index / width
            left = min(left, x); right = max(right, x); top = min(top, y); bottom = max(bottom, y)
        }
        left = max(0, left - 1); right = min(width - 1, right + 1); top = max(0, top - 1); bottom = min(height - 1, bottom + 1)
        let cropWidth = right - left + 1, cropHeight = bottom - top + 1
        let cropped = (0..<cropWidth * cropHeight).map { (top + $0 / cropWidth) * width + left + $0 % cropWidth }
        var graph = GridCut(width: cropWidth, height: cropHeight)
        graph.setEdges(colours: cropped.map { colours[$0] }, beta: GridCut.contrastScale(colours, width: width, height: height),
                       smoothness: smoothness)
        var fixed = [Int8](repeating: 0, count: cropped.count)
        for (node, index) in cropped.enumerated() where !near[index] { fixed[node] = -1 }
        var object = guess
        // Each round learns the colour models from the last one's object: the guess's margins hold
        // some ground, which the first cut takes away, and the second cut then no longer counts as object.
        for round in 0..<rounds where object.contains(true) && object.contains(false) {
            let objectModel: GaussianMixture
            if round == 0, let seeds, seeds.contains(true) {
                objectModel = GaussianMixture(colours, members: Self.weighted(guess, towards: seeds))
            } else {
                objectModel = GaussianMixture(colours, where: object)
            }
            let groundModel = GaussianMixture(colours, where: object, is: false)
            for (node, index) in cropped.enumerated() where near[index] {
                graph.setTerminal(node, source: groundModel.cost(colours[index]), sink: objectModel.cost(colours[index]))
            }
            let cut = graph.minimumCut(fixed: fixed)
            var changed = 0, kept = 0
            for (node, index) in cropped.enumerated() {
                if object[index] != cut[node] { changed += 1 }
                if cut[node] { kept += 1 }
                object[index] = cut[node]
            }
            if Double(changed) < settledShare * Double(kept) { break }
        }
        // A cut that leaves nothing has found no object the guess could be refined to.
        return object.contains(true) ? object : guess
    }

    /// The pixels of `guess` a first colour model learns from: every one of `seeds`, and one in
    /// `seedWeight` of the others, in scan order.
    static func weighted(_ guess: [Bool], towards seeds: [Bool]) -> [Int] {
        var members: [Int] = [], others = 0
        for index in guess.indices where guess[index] {
            if seeds[index] {
                members.append(index)
            } else {
                if others % seedWeight == 0 { members.append(index) }
                others += 1
            }
        }
        return members
    }

    /// The pixels within `steps` 8-connected steps of a marked one: those with a marked pixel in the
    /// square `steps` pixels from them each way, found along the rows, then down the columns, by running
    /// counts (the cost is the same for any number of steps).
    static func within(steps: Int, of marked: [Bool], width: Int, height: Int) -> [Bool] {
        var across = [Bool](repeating: false, count: marked.count)
        var reached = across
        var counts = [Int32](repeating: 0, count: max(width, height) + 1)
        /// Along `lines` lines of `length` pixels (pixel `i` of line `j` at `j × lineStep + i × step`):
        /// whether `source` holds a marked pixel within `steps` of each.
        func spread(_ source: [Bool], into target: inout [Bool], lines: Int, length: Int, step: Int, lineStep: Int) {
            for line in 0..<lines {
                let base = line * lineStep
                for position in 0..<length { counts[position + 1] = counts[position] + (source[base + position * step] ? 1 : 0) }
                guard counts[length] > 0 else { continue }
                for position in 0..<length {
                    target[base + position * step] = counts[min(length, position + steps + 1)] > counts[max(0, position - steps)]
                }
            }
        }
        spread(marked, into: &across, lines: height, length: width, step: 1, lineStep: width)
        spread(across, into: &reached, lines: width, length: height, step: width, lineStep: 1)
        return reached
    }
}

/// A mixture of a few Gaussians over CIELAB colours, fitted to a set of pixels: k-means from
/// lightness quantiles for a start, then one assignment to the likeliest component and a refit.
struct GaussianMixture {
    struct Component {
        var weight: Float
        var mean: SIMD3<Float>
        /// The inverse covariance, row by row, and −log(weight / √det(2π Σ)).
        var inverse: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
        var offset: Float
    }

    static let componentCount = 5 // at most 8: costs are gathered in a SIMD8
    /// Added to each variance (in CIELAB units squared), so a flat patch does not make a component
    /// infinitely sure of itself.
    static let varianceFloor: Float = 1

    /// The fitted components side by side, for `cost`.
    private var lanes = Lanes([])

    /// The components a lane each (unused lanes cost +∞), so that a colour's cost under every one is a
    /// few vector operations.
    private struct Lanes {
        var count = 0
        var mean = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var inverse = [SIMD8<Float>](repeating: SIMD8(), count: 9)
        var offset = SIMD8<Float>(repeating: .infinity)

        init(_ components: [Component]) {
            count = components.count
            for (lane, component) in components.enumerated() {
                mean.0[lane] = component.mean.x
                mean.1[lane] = component.mean.y
                mean.2[lane] = component.mean.z
                for column in 0..<3 {
                    inverse[column][lane] = component.inverse.0[column]
                    inverse[3 + column][lane] = component.inverse.1[column]
                    inverse[6 + column][lane] = component.inverse.2[column]
                }
                offset[lane] = component.offset
            }
        }

        /// −log of each component's weighted density at `colour`, up to the mixture's sum: the offset
        /// plus half the squared Mahalanobis distance.
        @inline(__always)
        func costs(_ colour: SIMD3<Float>) -> SIMD8<Float> {
            let dx = SIMD8(repeating: colour.x) - mean.0, dy = SIMD8(repeating: colour.y) - mean.1
            let dz = SIMD8(repeating: colour.z) - mean.2
            let m0 = inverse[0] * dx + inverse[1] * dy + inverse[2] * dz
            let m1 = inverse[3] * dx + inverse[4] * dy + inverse[5] * dz
            let m2 = inverse[6] * dx + inverse[7] * dy + inverse[8] * dz
            return offset + 0.5 * (m0 * dx + m1 * dy + m2 * dz)
        }
    }

    /// At most this many pixels, spread evenly over the set, are fitted: enough for five Gaussians
    /// in three dimensions, and the fit costs the same on any photo.
    static let sampleLimit = 4_096

    /// Fitted to the colours where `member` is `side`.
    init(_ colours: [SIMD3<Float>], where member: [Bool], is side: Bool = true) {
        self.init(colours, members: member.indices.filter { member[$0] == side })
    }

    /// Fitted to the colours at `members` (indices in increasing order).
    init(_ colours: [SIMD3<Float>], members: [Int]) {
        guard !members.isEmpty else { return }
        let stride = max(1, members.count / Self.sampleLimit)
        let samples = Swift.stride(from: 0, to: members.count, by: stride).map { colours[members[$0]] }
        let k = min(Self.componentCount, samples.count)
        // k-means from lightness quantiles, a few rounds. The samples are ranked by lightness, ties in
        // their own order, as integer keys (a float's bits, made to order as the float does, over the
        // sample's position), and only the k quantiles are selected, each among the values above the last: no sort.
        var byLightness = samples.indices.map { index in
            let bits = samples[index].x.bitPattern
            return UInt64(bits & 0x8000_0000 == 0 ? bits | 0x8000_0000 : ~bits) << 32 | UInt64(index)
        }
        var centres = byLightness.select(ranks: (0..<k).map { (2 * $0 + 1) * byLightness.count / (2 * k) })
            .map { samples[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
        var labels = [Int](repeating: 0, count: samples.count)
        // The samples eight at a time, a coordinate per vector: each is measured against a centre in
        // the same few operations as one sample would be.
        let blocks = (samples.count + 7) / 8
        var xs = [SIMD8<Float>](repeating: .zero, count: blocks), ys = xs, zs = xs
        for (index, sample) in samples.enumerated() {
            xs[index / 8][index % 8] = sample.x
            ys[index / 8][index % 8] = sample.y
            zs[index / 8][index % 8] = sample.z
        }
        for _ in 0..<4 {
            for block in 0..<blocks {
                var nearest = SIMD8<Int32>(repeating: 0), best = SIMD8<Float>(repeating: .infinity)
                for (c, centre) in centres.enumerated() {
                    let dx = xs[block] - centre.x, dy = ys[block] - centre.y, dz = zs[block] - centre.z
                    // Summed x, y, z in turn, as a SIMD3's `(d * d).sum()` does; the first nearest centre wins a tie.
                    let distance = dx * dx + dy * dy + dz * dz
                    let closer = distance .< best
                    best.replace(with: distance, where: closer)
                    nearest.replace(with: Int32(c), where: closer)
                }
                for lane in 0..<min(8, samples.count - block * 8) { labels[block * 8 + lane] = Int(nearest[lane]) }
            }
            var sums = [SIMD3<Float>](repeating: .zero, count: k), counts = [Int](repeating: 0, count: k)
            for (index, sample) in samples.enumerated() {
                sums[labels[index]] += sample
                counts[labels[index]] += 1
            }
            for c in 0..<k where counts[c] > 0 { centres[c] = sums[c] / Float(counts[c]) }
        }
        let first = Self.fit(samples, labels: labels, count: k)
        // Once more with each sample given to its likeliest component, as GrabCut does.
        let firstLanes = Lanes(first)
        for (index, sample) in samples.enumerated() { labels[index] = Self.firstLowest(firstLanes.costs(sample)) }
        lanes = Lanes(Self.fit(samples, labels: labels, count: first.count))
    }

    /// The first lane holding the lowest value.
    @inline(__always)
    private static func firstLowest(_ values: SIMD8<Float>) -> Int {
        let lowest = values.min()
        for lane in 0..<8 where values[lane] == lowest { return lane }
        return 0
    }

    private static func fit(_ samples: [SIMD3<Float>], labels: [Int], count k: Int) -> [Component] {
        var sums = [SIMD3<Double>](repeating: .zero, count: k)
        // Each component's sums of xx, xy, xz, yy, yz, zz in two vectors' lanes.
        var products = [(SIMD4<Double>, SIMD2<Double>)](repeating: (.zero, .zero), count: k)
        var counts = [Int](repeating: 0, count: k)
        for (index, sample) in samples.enumerated() {
            let c = labels[index]
            let s = SIMD3<Double>(Double(sample.x), Double(sample.y), Double(sample.z))
            sums[c] += s
            counts[c] += 1
            products[c].0 += SIMD4(s.x, s.x, s.x, s.y) * SIMD4(s.x, s.y, s.z, s.y)
            products[c].1 += SIMD2(s.y, s.z) * SIMD2(s.z, s.z)
        }
        var components: [Component] = []
        for c in 0..<k where counts[c] > 0 {
            let n = Double(counts[c])
            let mean = sums[c] / n
            let floor = Double(varianceFloor)
            let (first, last) = products[c]
            let xx = first[0] / n - mean.x * mean.x + floor, xy = first[1] / n - mean.x * mean.y
            let xz = first[2] / n - mean.x * mean.z, yy = first[3] / n - mean.y * mean.y + floor
            let yz = last[0] / n - mean.y * mean.z, zz = last[1] / n - mean.z * mean.z + floor
            // The inverse by cofactors; the floor keeps the determinant positive.
            let c00 = yy * zz - yz * yz, c01 = xz * yz - xy * zz, c02 = xy * yz - xz * yy
            let c11 = xx * zz - xz * xz, c12 = xy * xz - xx * yz, c22 = xx * yy - xy * xy
            let determinant = max(xx * c00 + xy * c01 + xz * c02, 1e-6)
            let weight = n / Double(samples.count)
            components.append(Component(
                weight: Float(weight),
                mean: SIMD3<Float>(Float(mean.x), Float(mean.y), Float(mean.z)),
                inverse: (SIMD3<Float>(Float(c00 / determinant), Float(c01 / determinant), Float(c02 / determinant)),
                          SIMD3<Float>(Float(c01 / determinant), Float(c11 / determinant), Float(c12 / determinant)),
                          SIMD3<Float>(Float(c02 / determinant), Float(c12 / determinant), Float(c22 / determinant))),
                offset: Float(-log(weight) + 0.5 * log(determinant) + 1.5 * log(2 * Double.pi))
            ))
        }
        return components
    }

    /// −log of the mixture's density at `colour`: how unlikely the colour is on this side.
    func cost(_ colour: SIMD3<Float>) -> Float {
        guard lanes.count > 0 else { return 0 }
        // −log Σ exp(−cost), from the lowest cost for precision.
        let costs = lanes.costs(colour)
        let lowest = costs.min()
        var sum: Float = 0
        for index in 0..<lanes.count { sum += exp(lowest - costs[index]) }
        return min(lowest - log(sum), 1_000)
    }
}

/// A minimum s–t cut of an image's 8-connected pixel grid (source: the object; sink: the ground),
/// found by Boykov and Kolmogorov's augmenting-path algorithm (2004), which reuses its two search
/// trees between paths and is fast on grids. Edge `node × 8 + d` goes to the neighbour in direction
/// `d` of `GridCut.offsets`; its reverse is `neighbour × 8 + 7 − d`.
struct GridCut {
    let width: Int
    let height: Int
    /// Each direction's step, ordered so that direction 7 − d is the reverse of d, and so that the last
    /// half lead on in scan order (`setEdges` weighs each pair of neighbours from its first).
    static let offsets: [(x: Int, y: Int)] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
    static let directions = 8
    /// Edge `d` of `node`, and the edge back to `node` from its neighbour `neighbour` in direction `d`.
    @inline(__always) static func edge(_ node: Int, _ d: Int) -> Int { node &* directions &+ d }
    @inline(__always) static func back(_ neighbour: Int, _ d: Int) -> Int { neighbour &* directions &+ (directions &- 1 &- d) }
    /// Edge weights by direction, so that a boundary costs nearly its Euclidean length at any angle
    /// (Boykov and Kolmogorov, 2003: Δφ / (2 |e|) for the eight neighbours, within 6% of it). On four
    /// neighbours a boundary cost its length in rows and columns, so through a smooth stretch a box or a
    /// stair was as cheap as any curve, and the kept map ended in one (Docs/Quality.md). Scaled so that a
    /// row, a column or a diagonal costs 4/π a pixel, what a boundary cost on four neighbours on average
    /// over all angles (a row 1 there); other angles cost up to 8% more, 5% more on average: about as
    /// smooth as before, no longer drawn to rows and columns.
    static let lengthWeights: [Float] = offsets.map { step in
        let axis = Float.pi / 8, diagonal = Float.pi / (8 * Float(2).squareRoot())
        return (step.x != 0 && step.y != 0 ? diagonal : axis) / (axis + 2 * diagonal) * 4 / Float.pi
    }
    /// The neighbour an edge leads to, −1 off the grid.
    private let heads: [Int32]
    private var weights: [Float]
    /// The capacity from the source less the capacity to the sink, per pixel.
    private var terminals: [Float]
    /// What the last cut left, for the next cut of the same edges and fixed pixels to start from: its
    /// fixed pixels, the residual capacities and terminal capacities its flow left, and the terminal
    /// capacities it was given.
    private var lastFlow: (fixed: [Int8], residual: [Int32], excess: [Int32], given: [Int32])?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        var heads = [Int32](repeating: -1, count: width * height * GridCut.directions)
        for y in 0..<height {
            for x in 0..<width {
                for (d, step) in Self.offsets.enumerated() {
                    let nx = x + step.x, ny = y + step.y
                    if nx >= 0, nx < width, ny >= 0, ny < height { heads[Self.edge(y * width + x, d)] = Int32(ny * width + nx) }
                }
            }
        }
        self.heads = heads
        weights = [Float](repeating: 0, count: heads.count)
        terminals = [Float](repeating: 0, count: width * height)
    }

    /// β of GrabCut's edge weights: the inverse of twice the mean squared colour difference between
    /// neighbours over the whole grid, so that the weights adapt to how contrasty the photo is.
    static func contrastScale(_ colours: [SIMD3<Float>], width: Int, height: Int) -> Float {
        var total: Double = 0, pairs = 0
        for y in 0..<height {
            for x in 0..<width {
                let node = y * width + x
                for (step, neighbour) in [(x + 1 < width, node + 1), (y + 1 < height && x > 0, node + width - 1),
                                          (y + 1 < height, node + width), (y + 1 < height && x + 1 < width, node + width + 1)] where step {
                    let difference = colours[node] - colours[neighbour]
                    total += Double((difference * difference).sum())
                    pairs += 1
                }
            }
        }
        return total > 0 ? Float(Double(pairs) / (2 * total)) : 0
    }

    /// Neighbours are kept together in proportion to how alike their colours are: `smoothness` ×
    /// exp(−β ‖Δ‖²), weighed by the edge's direction (`lengthWeights`). Each pair of neighbours is
    /// weighed once, from the first of them in scan order (the last half of the directions lead on in it), and both of its
    /// edges set: the weight is the same either way, so half the exponentials are worked out.
    mutating func setEdges(colours: [SIMD3<Float>], beta: Float, smoothness: Float) {
        lastFlow = nil
        for node in 0..<colours.count {
            for d in Self.directions / 2..<Self.directions where heads[Self.edge(node, d)] >= 0 {
                let neighbour = Int(heads[Self.edge(node, d)])
                let difference = colours[node] - colours[neighbour]
                let weight = smoothness * Self.lengthWeights[d] * exp(-beta * (difference * difference).sum())
                weights[Self.edge(node, d)] = weight
                weights[Self.back(neighbour, d)] = weight
            }
        }
    }

    /// The cost of putting `node` on the sink side (`source`) and on the source side (`sink`).
    mutating func setTerminal(_ node: Int, source: Float, sink: Float) {
        terminals[node] = source - sink
    }

    /// Which pixels are on the source side of a minimum cut: those the source still reaches. `fixed`
    /// holds, per pixel, 1 for one known to be on the source side, −1 for the sink side, 0 for a pixel
    /// the cut decides (no argument: every pixel).
    ///
    /// A cut of the same edges and fixed pixels as the last, with other terminal costs (GrabCut's
    /// next round), starts from the last one's flow, its terminal capacities changed by as much as the
    /// costs changed (Kohli and Torr's dynamic graph cuts, 2007): that flow is a flow of the new graph
    /// too, and much of it is still needed. The pixels the source reaches once the flow is maximal are
    /// the same whatever flow it started from, so the cut is exactly the one made from nothing.
    mutating func minimumCut(fixed: [Int8]? = nil) -> [Bool] {
        let fixed = fixed ?? [Int8](repeating: 0, count: width * height)
        // A node whose side is known is left out of the graph: its edges to free neighbours become
        // their terminal links, so the search only ever grows through the free band.
        var excess = terminals
        for node in 0..<fixed.count {
            if fixed[node] != 0 {
                excess[node] = 0
                continue
            }
            for d in 0..<Self.directions where heads[Self.edge(node, d)] >= 0 {
                let neighbour = Int(heads[Self.edge(node, d)])
                if fixed[neighbour] != 0 { excess[node] += Float(fixed[neighbour]) * weights[Self.edge(node, d)] }
            }
        }
        // In whole 1/64ths: every augmentation then carries at least one unit, where floating point
        // could leave slivers of capacity that each take a path of their own.
        let given = excess.map { Int32(($0 * 64).rounded()) }
        var solver: MaximumFlow
        if let last = lastFlow, last.fixed == fixed {
            solver = MaximumFlow(heads: heads, capacities: last.residual,
                                 excess: (0..<given.count).map { last.excess[$0] &+ given[$0] &- last.given[$0] })
        } else {
            // Edges from or to a fixed node carry nothing (off the grid an edge's weight is 0).
            let capacities = weights.indices.map { edge in
                fixed[edge / GridCut.directions] != 0 || heads[edge] >= 0 && fixed[Int(heads[edge])] != 0 ? 0 : Int32((weights[edge] * 64).rounded())
            }
            solver = MaximumFlow(heads: heads, capacities: capacities, excess: given)
        }
        let cut = solver.run()
        lastFlow = (fixed, Array(solver.residual), Array(solver.excess), given)
        solver.deallocate()
        return zip(cut, fixed).map { $1 == 0 ? $0 : $1 > 0 }
    }
}

/// Boykov–Kolmogorov on the grid's arrays, through raw buffers: the search is the hot part of an
/// object splash, and Swift's checks on arrays a nested function mutates would double its time.
private struct MaximumFlow {
    static let none: Int32 = -1, terminal: Int32 = -2, orphan: Int32 = -3
    let count: Int
    let heads: UnsafeMutableBufferPointer<Int32>
    let residual: UnsafeMutableBufferPointer<Int32>
    let excess: UnsafeMutableBufferPointer<Int32>
    /// Each node's edge to its parent in its tree, or `none`, `terminal`, `orphan`.
    let parent: UnsafeMutableBufferPointer<Int32>
    /// The parent itself (the edge's head), or the same three codes: a walk up the tree then loads one
    /// node a step, not an edge and then its head.
    let parentNode: UnsafeMutableBufferPointer<Int32>
    let isSink: UnsafeMutableBufferPointer<Bool>
    /// When a node's distance to its terminal was last known true, and that distance.
    let stamp: UnsafeMutableBufferPointer<Int32>
    let depth: UnsafeMutableBufferPointer<Int32>
    let queued: UnsafeMutableBufferPointer<Bool>
    /// Active nodes, a ring of `count` + 1 slots (a node is in it at most once).
    let queue: UnsafeMutableBufferPointer<Int32>
    var queueStart = 0, queueEnd = 0
    /// Orphans as a ring of `count` + 1 slots: those of an augmentation at the front (nearest the
    /// terminals first), their freed children at the back, as Kolmogorov's implementation orders them.
    let orphans: UnsafeMutableBufferPointer<Int32>
    var orphanStart = 0, orphanEnd = 0
    var time: Int32 = 0

    init(heads: [Int32], capacities: [Int32], excess: [Int32]) {
        count = excess.count
        func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
            _ = buffer.initialize(from: array)
            return buffer
        }
        func filled<T>(_ value: T, _ count: Int) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
            buffer.initialize(repeating: value)
            return buffer
        }
        self.heads = copy(heads)
        residual = copy(capacities)
        self.excess = copy(excess)
        parent = filled(Self.none, count)
        parentNode = filled(Self.none, count)
        isSink = filled(false, count)
        stamp = filled(0, count)
        depth = filled(0, count)
        queued = filled(false, count)
        queue = filled(0, count + 1)
        orphans = filled(0, count + 1)
    }

    func deallocate() {
        heads.deallocate(); residual.deallocate(); excess.deallocate(); parent.deallocate(); parentNode.deallocate(); isSink.deallocate()
        stamp.deallocate(); depth.deallocate(); queued.deallocate(); queue.deallocate(); orphans.deallocate()
    }

    @inline(__always) func reverse(_ edge: Int) -> Int { GridCut.back(Int(heads[edge]), edge % GridCut.directions) }

    /// Makes `edge` the node's link to its parent (the edge's head), or one of the codes.
    @inline(__always) func setParent(_ node: Int, edge: Int32) {
        parent[node] = edge
        parentNode[node] = edge >= 0 ? heads[Int(edge)] : edge
    }

    mutating func activate(_ node: Int) {
        guard !queued[node] else { return }
        queued[node] = true
        queue[queueEnd] = Int32(node)
        queueEnd = queueEnd == count ? 0 : queueEnd + 1
    }

    mutating func nextActive() -> Int? {
        while queueStart != queueEnd {
            let node = Int(queue[queueStart])
            queueStart = queueStart == count ? 0 : queueStart + 1
            queued[node] = false
            if parent[node] != Self.none { return node }
        }
        return nil
    }

    mutating func makeOrphan(_ node: Int, first: Bool) {
        setParent(node, edge: Self.orphan)
        if first {
            orphanStart = orphanStart == 0 ? count : orphanStart - 1
            orphans[orphanStart] = Int32(node)
        } else {
            orphans[orphanEnd] = Int32(node)
            orphanEnd = orphanEnd == count ? 0 : orphanEnd + 1
        }
    }

    /// The pixels on the source side of a minimum cut; the buffers stay for the caller to read and
    /// deallocate.
    mutating func run() -> [Bool] {
        // Paths of one edge first (source → node → neighbour → sink, neighbours of opposite terminals),
        // pushed without growing the search trees for them.
        for node in 0..<count where excess[node] > 0 {
            for d in 0..<GridCut.directions {
                let edge = GridCut.edge(node, d)
                let neighbour = Int(heads[edge])
                guard neighbour >= 0, excess[neighbour] < 0, residual[edge] > 0 else { continue }
                let pushed = min(excess[node], -excess[neighbour], residual[edge])
                residual[edge] -= pushed
                residual[GridCut.back(neighbour, d)] += pushed
                excess[node] -= pushed
                excess[neighbour] += pushed
                if excess[node] == 0 { break }
            }
        }
        for node in 0..<count where excess[node] != 0 {
            setParent(node, edge: Self.terminal)
            isSink[node] = excess[node] < 0
            depth[node] = 1
            activate(node)
        }
        var current = -1
        while true {
            var node = current
            if node < 0 || parent[node] == Self.none {
                guard let next = nextActive() else { break }
                node = next
            }
            // Grow the node's tree into free neighbours until it meets the other tree.
            var middle = -1
            let sink = isSink[node]
            for d in 0..<GridCut.directions {
                let edge = GridCut.edge(node, d)
                let neighbour = Int(heads[edge])
                guard neighbour >= 0 else { continue }
                let back = GridCut.back(neighbour, d)
                guard (sink ? residual[back] : residual[edge]) > 0 else { continue }
                if parent[neighbour] == Self.none {
                    isSink[neighbour] = sink
                    setParent(neighbour, edge: Int32(back))
                    stamp[neighbour] = stamp[node]
                    depth[neighbour] = depth[node] &+ 1
                    activate(neighbour)
                } else if isSink[neighbour] != sink {
                    middle = sink ? back : edge
                    break
                } else if stamp[neighbour] <= stamp[node], depth[neighbour] > depth[node] {
                    setParent(neighbour, edge: Int32(back))
                    stamp[neighbour] = stamp[node]
                    depth[neighbour] = depth[node] &+ 1
                }
            }
            time &+= 1
            guard middle >= 0 else {
                current = -1
                continue
            }
            current = node
            augment(middle)
            while orphanStart != orphanEnd {
                let orphaned = Int(orphans[orphanStart])
                orphanStart = orphanStart == count ? 0 : orphanStart + 1
                adopt(orphaned)
            }
        }
        return (0..<count).map { parent[$0] != Self.none && !isSink[$0] }
    }

    /// Pushes the bottleneck along source → … → tail of `middle` → head of `middle` → … → sink;
    /// nodes whose link to their parent saturates become orphans.
    mutating func augment(_ middle: Int) {
        let tail = middle / GridCut.directions, head = Int(heads[middle])
        var bottleneck = residual[middle]
        var node = tail
        while parentNode[node] != Self.terminal {
            let edge = Int(parent[node])
            bottleneck = min(bottleneck, residual[reverse(edge)])
            node = Int(parentNode[node])
        }
        bottleneck = min(bottleneck, excess[node])
        node = head
        while parentNode[node] != Self.terminal {
            let edge = Int(parent[node])
            bottleneck = min(bottleneck, residual[edge])
            node = Int(parentNode[node])
        }
        bottleneck = min(bottleneck, -excess[node])

        residual[reverse(middle)] += bottleneck
        residual[middle] -= bottleneck
        node = tail
        while parentNode[node] != Self.terminal {
            let edge = Int(parent[node]), next = Int(parentNode[node])
            residual[edge] += bottleneck
            residual[reverse(edge)] -= bottleneck
            if residual[reverse(edge)] <= 0 { makeOrphan(node, first: true) }
            node = next
        }
        excess[node] -= bottleneck
        if excess[node] <= 0 { makeOrphan(node, first: true) }
        node = head
        while parentNode[node] != Self.terminal {
            let edge = Int(parent[node]), next = Int(parentNode[node])
            residual[reverse(edge)] += bottleneck
            residual[edge] -= bottleneck
            if residual[edge] <= 0 { makeOrphan(node, first: true) }
            node = next
        }
        excess[node] += bottleneck
        if excess[node] >= 0 { makeOrphan(node, first: true) }
    }

    /// Finds an orphan a new parent in its own tree that still reaches its terminal, or frees it.
    mutating func adopt(_ node: Int) {
        let sinkTree = isSink[node]
        var bestEdge = Self.none
        var bestDepth = Int32.max
        for d in 0..<GridCut.directions {
            let edge = GridCut.edge(node, d)
            let neighbour = Int(heads[edge])
            guard neighbour >= 0, isSink[neighbour] == sinkTree, parent[neighbour] != Self.none else { continue }
            // Flow must be able to pass between them towards the orphan's terminal side.
            guard (sinkTree ? residual[edge] : residual[GridCut.back(neighbour, d)]) > 0 else { continue }
            var length: Int32 = 0
            var walker = neighbour
            var rooted = true
            while true {
                if stamp[walker] == time {
                    length &+= depth[walker]
                    break
                }
                let up = parentNode[walker]
                length &+= 1
                if up == Self.terminal {
                    stamp[walker] = time
                    depth[walker] = 1
                    break
                }
                if up == Self.orphan {
                    rooted = false
                    break
                }
                walker = Int(up)
            }
            guard rooted else { continue }
            if length < bestDepth {
                bestDepth = length
                bestEdge = Int32(edge)
            }
            walker = neighbour
            while stamp[walker] != time {
                stamp[walker] = time
                depth[walker] = length
                length &-= 1
                walker = Int(parentNode[walker])
            }
        }
        setParent(node, edge: bestEdge)
        if bestEdge != Self.none {
            stamp[node] = time
            depth[node] = bestDepth &+ 1
            return
        }
        for d in 0..<GridCut.directions {
            let edge = GridCut.edge(node, d)
            let neighbour = Int(heads[edge])
            guard neighbour >= 0, isSink[neighbour] == sinkTree, parent[neighbour] != Self.none else { continue }
            if (sinkTree ? residual[edge] : residual[GridCut.back(neighbour, d)]) > 0 { activate(neighbour) }
            if parentNode[neighbour] == Int32(node) { makeOrphan(neighbour, first: false) }
        }
    }
}

