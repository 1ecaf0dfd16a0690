import Foundation

/// What kind of scene a photo is, for a splash: an ordinary one, a colour target (a chart of
/// uniform patches) or a busy scene (many saturated colours, none the subject). Neither of the last
/// two has an accent worth splashing.
public enum SceneKind: String, Sendable, Codable, CaseIterable {
    case ordinary
    case colourTarget = "colour target"
    case busy = "busy scene"
}

/// What the eye measures of a whole photo to tell a colour target or a busy scene from an ordinary
/// one: the inputs of `LearnedWeights.colourTarget` and `LearnedWeights.busyScene`.
public struct SceneFeatures: Equatable, Sendable, Codable {
    /// Distinct saturated hue families (C* ≥ 35, each at least 1% of the frame).
    public var hueFamilies: Int
    /// Entropy (bits) of the chroma-weighted hue histogram of the pixels with a hue (C* ≥ 15, L* 12–97)
    /// in twelve 30° sectors: 0 for one hue, up to 3.6.
    public var hueEntropy: Double
    /// Mean C* over the frame.
    public var meanChroma: Double
    /// Share of the cells of an 8 × 8 grid over the frame that hold three vivid hues or more (each 45°
    /// sector of hue with C* ≥ 25, L* 12–97, in at least 8% of the cell): a market or a flower bed mixes
    /// colours everywhere.
    public var mixedCells: Double
    /// Vivid hue sectors found in four cells or more: many colours, each in many places.
    public var spreadHues: Int
    /// Pieces of the vivid hue families (C* ≥ 30) a person would see: a market is many hues in many places.
    public var vividRegions: Int
    /// Vivid hue families (C* ≥ 30) in four pieces or more.
    public var scatteredFamilies: Int
    /// Pieces of all the chromatic hue families (C* ≥ 20): a shelf of toys, a heap of fruit.
    public var chromaticPieces: Int
    /// Share of neighbouring pixels (side by side or one above the other) that differ by ΔE76 15 or more:
    /// the edges of many things.
    public var edgeDensity: Double
    /// Patches in a lattice, as a chart's: flat squarish patches (see `latticePatches(_:)`) with at least two
    /// patches of like size and another colour next to them.
    public var latticePatches: Int

    /// The names of `vector`'s entries.
    public static let names = [
        "hue families", "hue entropy", "mean chroma", "mixed cells", "spread hues", "log vivid regions", "scattered families",
        "log lattice patches", "log chromatic pieces", "edge density",
    ]

    public var vector: [Double] {
        [Double(min(hueFamilies, 12)) / 5, hueEntropy, meanChroma / 30, mixedCells, Double(spreadHues), log1p(Double(vividRegions)),
         Double(scatteredFamilies), log1p(Double(latticePatches)), log1p(Double(chromaticPieces)), edgeDensity * 5]
    }

    /// The scene's features on `raster`, with the photo's accent candidates (all of them) and what
    /// `AccentFinder.measure` found of each pixel on its way: its bin of hue (5°, −1 for a pixel too dull,
    /// dark or light for a hue family) and its chroma.
    init(raster: LabRaster, candidates: [(accent: Accent, features: AccentFeatures)], hueFamilies: Int, hueBins: [Int], chromas: [Float],
         meanChroma: Double) {
        // Twelve sectors of 30° (six bins each), weighted by chroma.
        var sectors = [Double](repeating: 0, count: 12)
        for index in hueBins.indices where hueBins[index] >= 0 { sectors[hueBins[index] / 6] += Double(chromas[index]) }
        let total = sectors.reduce(0, +)
        hueEntropy = total > 0 ? sectors.filter { $0 > 0 }.reduce(0) { $0 - ($1 / total) * log2($1 / total) } : 0
        self.meanChroma = meanChroma
        self.hueFamilies = hueFamilies
        (mixedCells, spreadHues) = Self.cellMixing(raster, hueBins: hueBins, chromas: chromas)
        let vivid = candidates.filter { $0.features.chroma >= 30 }
        vividRegions = vivid.reduce(0) { $0 + $1.features.pieces }
        scatteredFamilies = vivid.filter { $0.features.pieces >= 4 }.count
        chromaticPieces = candidates.filter { $0.features.chroma >= 20 }.reduce(0) { $0 + $1.features.pieces }
        edgeDensity = Self.edgeDensity(raster)
        latticePatches = Self.latticePatches(raster)
    }

    /// Chart-like patches in a lattice. A patch is a region grown while every pixel stays within ΔE76 6
    /// of the region's mean (a gradient does not chain on), of 6 pixels to 3% of the frame, squarish
    /// (filling 55% of its box, at most 2.5 times as long as wide) and set off from all around it (the
    /// pixels just outside differ from it by ΔE76 12 on average); it is in a lattice when at least two
    /// patches of like size (within 2 times) and another colour (ΔE76 15) lie within 1.8 of its sides.
    static func latticePatches(_ raster: LabRaster) -> Int {
        let width = raster.width, height = raster.height, count = raster.count
        var patches: [(colour: Lab, size: Double, x: Double, y: Double)] = []
        // Over raw buffers, the stack and the members in flat arrays: the fill visits every pixel of
        // every photo imported, and arrays' checks in its loop made it a twentieth of an import.
        var label = [Int32](repeating: -1, count: count)
        var stack = [Int](repeating: 0, count: count), members = [Int](repeating: 0, count: count)
        raster.l.withUnsafeBufferPointer { l in
        raster.a.withUnsafeBufferPointer { a in
        raster.b.withUnsafeBufferPointer { b in
        raster.opaque.withUnsafeBufferPointer { opaque in
        label.withUnsafeMutableBufferPointer { label in
        stack.withUnsafeMutableBufferPointer { stack in
        members.withUnsafeMutableBufferPointer { members in
            for start in 0..<count where label[start] < 0 && opaque[start] {
                let name = Int32(start)
                var sum = (l: Double(l[start]), a: Double(a[start]), b: Double(b[start]))
                // The mean, divided out once a pixel joins rather than at every look at a neighbour.
                var mean = sum
                var size = 1, stackCount = 1, memberCount = 1
                label[start] = name
                stack[0] = start
                members[0] = start
                @inline(__always) func visit(_ neighbour: Int) {
                    guard label[neighbour] < 0, opaque[neighbour] else { return }
                    let dl = Double(l[neighbour]) - mean.l, da = Double(a[neighbour]) - mean.a
                    let db = Double(b[neighbour]) - mean.b
                    guard dl * dl + da * da + db * db < 36 else { return }
                    label[neighbour] = name
                    sum = (sum.l + Double(l[neighbour]), sum.a + Double(a[neighbour]), sum.b + Double(b[neighbour]))
                    size += 1
                    let n = Double(size)
                    mean = (sum.l / n, sum.a / n, sum.b / n)
                    stack[stackCount] = neighbour
                    stackCount += 1
                    members[memberCount] = neighbour
                    memberCount += 1
                }
                while stackCount > 0 {
                    stackCount -= 1
                    let index = stack[stackCount]
                    let row = index / width, column = index - row * width
                    if column > 0 { visit(index - 1) }
                    if column < width - 1 { visit(index + 1) }
                    if row > 0 { visit(index - width) }
                    if row < height - 1 { visit(index + width) }
                }
                guard size >= 6, size * 100 <= 3 * count else { continue }
                let n = Double(size)
                let colour = Lab(l: sum.l / n, a: sum.a / n, b: sum.b / n)
                var box = (left: width, top: height, right: -1, bottom: -1)
                for member in 0..<memberCount {
                    let index = members[member]
                    let row = index / width, column = index - row * width
                    box = (min(box.left, column), min(box.top, row), max(box.right, column), max(box.bottom, row))
                }
                let boxWidth = Double(box.right - box.left + 1), boxHeight = Double(box.bottom - box.top + 1)
                guard n >= 0.55 * boxWidth * boxHeight, max(boxWidth, boxHeight) <= 2.5 * min(boxWidth, boxHeight) else { continue }
                // Set off from its surroundings, measured only for a squarish patch: the square roots cost.
                var outside = (sum: 0.0, count: 0)
                @inline(__always) func across(_ neighbour: Int) {
                    guard label[neighbour] != name else { return }
                    let other = Lab(l: Double(l[neighbour]), a: Double(a[neighbour]), b: Double(b[neighbour]))
                    outside = (outside.sum + colour.distance(to: other), outside.count + 1)
                }
                for member in 0..<memberCount {
                    let index = members[member]
                    let row = index / width, column = index - row * width
                    if column > 0 { across(index - 1) }
                    if column < width - 1 { across(index + 1) }
                    if row > 0 { across(index - width) }
                    if row < height - 1 { across(index + width) }
                }
                guard outside.count > 0, outside.sum / Double(outside.count) >= 12 else { continue }
                patches.append((colour, n, Double(box.left + box.right + 1) / 2, Double(box.top + box.bottom + 1) / 2))
            }
        }}}}}}}
        // Patches in a lattice: each with at least two patches of like size and other colour next to it.
        return patches.filter { patch in
            patches.filter { other in
                let distance = ((patch.x - other.x) * (patch.x - other.x) + (patch.y - other.y) * (patch.y - other.y)).squareRoot()
                return max(patch.size, other.size) <= 2 * min(patch.size, other.size) && distance > 0
                    && distance <= 1.8 * patch.size.squareRoot() && patch.colour.distance(to: other.colour) >= 15
            }.count >= 2
        }.count
    }

    /// The share of neighbouring pixels (side by side or one above the other) that differ by ΔE76 15 or more.
    static func edgeDensity(_ raster: LabRaster) -> Double {
        let width = raster.width, height = raster.height, count = raster.count
        let pairs = (width - 1) * height + width * (height - 1)
        guard pairs > 0 else { return 0 }
        let edges = raster.l.withUnsafeBufferPointer { l in
            raster.a.withUnsafeBufferPointer { a in
                raster.b.withUnsafeBufferPointer { b in
                    // Each pixel against the pixel `step` on (1: beside it, `width`: below it), over the run
                    // of `length` pixels from `first`: straight loops over raw buffers, which the compiler
                    // turns into vector code (the pass visits every pixel of every photo imported).
                    func edges(from first: Int, length: Int, step: Int) -> Int {
                        var edges = 0
                        for index in first..<(first + length) {
                            let dl = l[index] - l[index + step], da = a[index] - a[index + step], db = b[index] - b[index + step]
                            edges += dl * dl + da * da + db * db >= 225 ? 1 : 0
                        }
                        return edges
                    }
                    let beside = (0..<height).reduce(0) { $0 + edges(from: $1 * width, length: width - 1, step: 1) }
                    return beside + (height > 1 ? edges(from: 0, length: count - width, step: width) : 0)
                }
            }
        }
        return Double(edges) / Double(pairs)
    }

    /// The share of an 8 × 8 grid's cells holding three vivid hue sectors or more, and the sectors vivid in four cells or more.
    static func cellMixing(_ raster: LabRaster, hueBins: [Int], chromas: [Float]) -> (mixed: Double, spread: Int) {
        let side = 8
        var counts = [Int](repeating: 0, count: side * side * 8), sizes = [Int](repeating: 0, count: side * side)
        // Each column's cell in its row of cells, once rather than a division a pixel.
        let cellColumns = (0..<raster.width).map { $0 * side / raster.width }
        for row in 0..<raster.height {
            let cellRow = (row * side / raster.height) * side
            for column in 0..<raster.width {
                let cell = cellRow + cellColumns[column]
                let index = row * raster.width + column
                sizes[cell] += 1
                // Sectors of 45°: nine bins of hue each.
                if hueBins[index] >= 0 && chromas[index] >= 25 { counts[cell * 8 + hueBins[index] / 9] += 1 }
            }
        }
        var mixed = 0, cellsOfSector = [Int](repeating: 0, count: 8)
        for cell in 0..<(side * side) where sizes[cell] > 0 {
            let vivid = (0..<8).filter { counts[cell * 8 + $0] * 100 >= 8 * sizes[cell] }
            for sector in vivid { cellsOfSector[sector] += 1 }
            if vivid.count >= 3 { mixed += 1 }
        }
        return (Double(mixed) / Double(side * side), cellsOfSector.filter { $0 >= 4 }.count)
    }

}

/// The two learned judgements of a scene.
public struct SceneModels: Equatable, Sendable {
    public var colourTarget: LogisticModel
    public var busy: LogisticModel

    public init(colourTarget: LogisticModel, busy: LogisticModel) {
        self.colourTarget = colourTarget
        self.busy = busy
    }

    /// A colour target or a busy scene when its model says so; the one further past its threshold when both do.
    public func kind(_ scene: SceneFeatures) -> SceneKind {
        let values = scene.vector
        let target = colourTarget.logit(values) - logit(colourTarget.threshold), busyness = busy.logit(values) - logit(busy.threshold)
        if target >= 0 && target >= busyness { return .colourTarget }
        return busyness >= 0 ? .busy : .ordinary
    }

    private func logit(_ probability: Double) -> Double { log(probability / (1 - probability)) }
}

