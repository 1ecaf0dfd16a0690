import Foundation
import Imaging

/// A photo made small and converted to CIELAB once: the ground on which the eye works — where a
/// colour is, how compact, against what — for accents and for the object masks of splashes.
public struct LabRaster: Sendable {
    public let width: Int
    public let height: Int
    public private(set) var l: [Float]
    public private(set) var a: [Float]
    public private(set) var b: [Float]
    /// Whether each pixel is opaque enough to have a colour.
    public private(set) var opaque: [Bool]

    public var count: Int { width * height }

    /// `image` averaged over whole blocks of pixels (integer factor, so the long side ends at most
    /// `longSide`, and at least half of it), then converted pixel by pixel. A picture whose short side
    /// is shorter than a block (a strip of a few pixels) has blocks as short as it is.
    public init(_ image: RGBAImage, longSide: Int) {
        let factor = max(1, (max(image.width, image.height) + longSide - 1) / longSide)
        let blockWidth = min(factor, image.width), blockHeight = min(factor, image.height)
        // A block's 32-bit sums hold 66,051 pixels of 255 × 255 at most: a larger block (a panorama many
        // times the raster's size, a strip of tens of thousands of pixels) is made smaller first.
        guard blockWidth * blockHeight <= Self.largestBlock else {
            self = LabRaster(image.downscaled(toLongSide: 4 * longSide), longSide: longSide)
            return
        }
        width = image.width / blockWidth
        height = image.height / blockHeight
        let count = width * height
        var l = [Float](repeating: 0, count: count), a = l, b = l
        var opaque = [Bool](repeating: false, count: count)
        var sums = [SIMD4<UInt32>](repeating: .zero, count: count)
        let sourceWidth = image.width, outputWidth = width, outputHeight = height
        let blockAlpha = UInt32(blockWidth * blockHeight * 255)
        // Integer block sums of (red, green, blue) × alpha and alpha, a pixel as one vector, one row of
        // the source at a time: an opaque photo is read once, one with a translucent block twice.
        func sumBlocks(weightedByAlpha: Bool) {
            image.bytes.withUnsafeBytes { bytes in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<(outputHeight * blockHeight) {
                        var target = (y / blockHeight) * outputWidth
                        var offset = y * sourceWidth * 4
                        // Block by block along the row: no division per source pixel, the block's row
                        // summed in a register and added once.
                        for _ in 0..<outputWidth {
                            var sum = SIMD4<UInt32>.zero
                            if weightedByAlpha {
                                for _ in 0..<blockWidth {
                                    let pixel = SIMD4<UInt32>(truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
                                    sum &+= pixel &* SIMD4(pixel[3], pixel[3], pixel[3], 1)
                                    offset += 4
                                }
                            } else {
                                // Four pixels a load, added in 16-bit lanes, which hold the block's row
                                // (255 × `Self.widestQuadRun` groups of four at most); the rest one by one.
                                var pixel = 0
                                if blockWidth >= 8 && blockWidth <= 4 * Self.widestQuadRun {
                                    var quads = SIMD16<UInt16>.zero
                                    while pixel + 4 <= blockWidth {
                                        quads &+= SIMD16<UInt16>(truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self))
                                        offset += 16
                                        pixel += 4
                                    }
                                    let halves = SIMD8<UInt32>(truncatingIfNeeded: quads.lowHalf) &+ SIMD8<UInt32>(truncatingIfNeeded: quads.highHalf)
                                    sum = halves.lowHalf &+ halves.highHalf
                                }
                                while pixel < blockWidth {
                                    sum &+= SIMD4<UInt32>(truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
                                    offset += 4
                                    pixel += 1
                                }
                                sum &*= SIMD4(255, 255, 255, 1)
                            }
                            sums[target] &+= sum
                            target += 1
                        }
                    }
                }
            }
        }
        // An opaque photo's (every JPEG's) pixels are summed as they are, and the block's row times its
        // alpha (255) once: the same integers without a multiplication a pixel. Opacity is assumed, and
        // then read off the sums (every block's alpha full), rather than found by a scan of its own,
        // which read the whole photo once more; where it does not hold, the blocks are summed again.
        sumBlocks(weightedByAlpha: false)
        let opaqueBlocks = !sums.contains(where: { $0[3] != blockAlpha })
        if !opaqueBlocks {
            sums = [SIMD4<UInt32>](repeating: .zero, count: count)
            sumBlocks(weightedByAlpha: true)
        }
        // Multiplications by reciprocals: divisions are slow in this loop (Docs/Performance.md).
        let white = (x: 1 / XYZ.d65.x, y: 1 / XYZ.d65.y, z: 1 / XYZ.d65.z)
        // Opaque blocks all share one alpha, so a channel's linear light depends on its sum of bytes
        // alone (the channel's sum is that times 255): where there are fewer such sums than raster
        // pixels, it is tabulated once over every sum, a load a channel instead of an interpolation,
        // the same values.
        let pixelsPerBlock = blockWidth * blockHeight
        let linearOfSum: [Double] = opaqueBlocks && Self.tabulatesSums(pixelsPerBlock: pixelsPerBlock, count: count)
            ? SRGB.linearTable.withUnsafeBufferPointer { table in
                (0...(255 * pixelsPerBlock)).map { Self.linear(UInt32($0 * 255), perAlpha: 1 / Double(blockAlpha), table) }
            }
            : []
        // The tables and sums as pointers: the loop runs once per raster pixel, tens of thousands of
        // times a photo, and reaching a static table or a vector in an array inside it cost a third of it.
        // The outputs as pointers too: an array element set in the loop checked the array's
        // uniqueness and bounds each time.
        SRGB.linearTable.withUnsafeBufferPointer { table in
        linearOfSum.withUnsafeBufferPointer { linearOfSum in
        Self.fTable.withUnsafeBufferPointer { fTable in
        sums.withUnsafeBufferPointer { sums in
        l.withUnsafeMutableBufferPointer { l in
        a.withUnsafeMutableBufferPointer { a in
        b.withUnsafeMutableBufferPointer { b in
        opaque.withUnsafeMutableBufferPointer { opaque in
            for index in 0..<count {
                let sum = sums[index]
                let alpha = sum[3]
                guard alpha * 2 >= blockAlpha else { continue }
                let xyz: XYZ
                if linearOfSum.isEmpty {
                    let perAlpha = 1 / Double(alpha)
                    xyz = SRGB.xyz(red: Self.linear(sum[0], perAlpha: perAlpha, table), green: Self.linear(sum[1], perAlpha: perAlpha, table),
                                   blue: Self.linear(sum[2], perAlpha: perAlpha, table))
                } else {
                    xyz = SRGB.xyz(red: linearOfSum[Int(sum[0] / 255)], green: linearOfSum[Int(sum[1] / 255)],
                                   blue: linearOfSum[Int(sum[2] / 255)])
                }
                let fx = Self.f(xyz.x * white.x, fTable), fy = Self.f(xyz.y * white.y, fTable)
                let fz = Self.f(xyz.z * white.z, fTable)
                l[index] = Float(116 * fy - 16)
                a[index] = Float(500 * (fx - fy))
                b[index] = Float(200 * (fy - fz))
                opaque[index] = true
            }
        }}}}}}}}
        (self.l, self.a, self.b, self.opaque) = (l, a, b, opaque)
    }

    /// Whether a raster of `count` blocks of `pixelsPerBlock` opaque pixels each reads linear light from a
    /// table over every channel sum: when there are fewer sums than raster pixels.
    static func tabulatesSums(pixelsPerBlock: Int, count: Int) -> Bool { 255 * pixelsPerBlock < count }

    /// Linear light of a block's channel sum: its mean, `channel` × `perAlpha`, interpolated in the 8-bit table.
    @inline(__always)
    static func linear(_ channel: UInt32, perAlpha: Double, _ table: UnsafeBufferPointer<Double>) -> Double {
        let mean = Double(channel) * perAlpha
        let low = min(Int(mean), 254)
        return table[low] + (table[low + 1] - table[low]) * (mean - Double(low))
    }

    /// The most pixels a block's integer sums may hold.
    static let largestBlock = 65_000
    /// The most groups of four pixels a block's row adds in 16-bit lanes: 257 × 255 = 65,535.
    static let widestQuadRun = 257

    /// CIELAB's f(t) (a cube root above (6/29)³, a line below) from a table over 0…1.1 read by linear
    /// interpolation: three cube roots a pixel were a fifth of an import's colour work, and the table
    /// is within 0.003 L* of them.
    private static let fTable: [Double] = (0...Self.fSteps + 1).map { step in
        let t = Double(step) * Self.fRange / Double(Self.fSteps)
        return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116
    }
    private static let fSteps = 2048
    private static let fRange = 1.1

    @inline(__always)
    static func f(_ t: Double, _ fTable: UnsafeBufferPointer<Double>) -> Double {
        let position = min(max(t, 0), fRange) * (Double(fSteps) / fRange)
        let low = min(Int(position), fSteps - 1)
        return fTable[low] + (fTable[low + 1] - fTable[low]) * (position - Double(low))
    }

    /// The raster with each pixel's L*, a* and b* the mean of the 3 × 3 pixels around it (those within
    /// the raster): the photo's change without its grain.
    func averaged() -> LabRaster {
        LabRaster(width: width, height: height, l: Self.boxMean(l, width: width, height: height),
                  a: Self.boxMean(a, width: width, height: height), b: Self.boxMean(b, width: width, height: height), opaque: opaque)
    }

    private init(width: Int, height: Int, l: [Float], a: [Float], b: [Float], opaque: [Bool]) {
        (self.width, self.height, self.l, self.a, self.b, self.opaque) = (width, height, l, a, b, opaque)
    }

    /// `values` of a `width` × `height` grid, each the mean of the 3 × 3 pixels around it (those within the grid).
    static func boxMean(_ values: [Float], width: Int, height: Int) -> [Float] {
        precondition(values.count == width * height, "a value for each pixel of the grid")
        var across = [Float](repeating: 0, count: values.count), mean = across
        // Through pointers, the grid's first and last rows and columns apart: at loops over ranges and a
        // division a pixel, the mean of three channels was 1% of object mode's time.
        /// The mean of `count` values `stride` apart, each with its neighbours along them.
        func line(_ source: UnsafePointer<Float>, _ target: UnsafeMutablePointer<Float>, count: Int, stride: Int) {
            guard count > 1 else {
                if count == 1 { target[0] = source[0] }
                return
            }
            let last = (count - 1) * stride
            target[0] = (source[0] + source[stride]) * 0.5
            target[last] = (source[last - stride] + source[last]) * 0.5
            var offset = stride
            for _ in 1..<(count - 1) {
                target[offset] = (source[offset - stride] + source[offset] + source[offset + stride]) * (1 / 3)
                offset += stride
            }
        }
        values.withUnsafeBufferPointer { values in
            across.withUnsafeMutableBufferPointer { across in
                mean.withUnsafeMutableBufferPointer { mean in
                    for row in 0..<height {
                        line(values.baseAddress! + row * width, across.baseAddress! + row * width, count: width, stride: 1)
                    }
                    for column in 0..<width {
                        line(UnsafePointer(across.baseAddress! + column), mean.baseAddress! + column, count: height, stride: width)
                    }
                }
            }
        }
        return mean
    }

    public func chroma(_ index: Int) -> Float { (a[index] * a[index] + b[index] * b[index]).squareRoot() }

    /// Hue angle in degrees, 0–360.
    public func hue(_ index: Int) -> Float {
        let degrees = atan2(b[index], a[index]) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}

/// Calls `body` with each of the (up to eight) neighbours of pixel `index` of a `width` × `height` grid.
@inline(__always)
func forEachNeighbour(of index: Int, width: Int, height: Int, _ body: (Int) -> Void) {
    let y = index / width, x = index - y * width
    for ny in max(0, y - 1)...min(height - 1, y + 1) {
        for nx in max(0, x - 1)...min(width - 1, x + 1) where ny != y || nx != x {
            body(ny * width + nx)
        }
    }
}

/// The 8-connected regions of a set of pixels on a grid.
struct Regions {
    /// Each pixel's region, or -1 outside the set.
    var labels: [Int32]
    /// Pixels of each region, by label.
    var sizes: [Int]

    /// Labels the pixels where `member` is true, in scan order of each region's first pixel; when the
    /// caller knows a superset of the members in scan order (`candidates`), only those start regions.
    init(width: Int, height: Int, member: [Bool], candidates: [Int]? = nil) {
        labels = [Int32](repeating: -1, count: member.count)
        sizes = []
        var stack: [Int] = []
        for position in 0..<(candidates?.count ?? member.count) {
            let start = candidates?[position] ?? position
            guard member[start] && labels[start] < 0 else { continue }
            let label = Int32(sizes.count)
            var size = 0
            labels[start] = label
            stack.append(start)
            while let index = stack.popLast() {
                size += 1
                forEachNeighbour(of: index, width: width, height: height) { neighbour in
                    if member[neighbour] && labels[neighbour] < 0 {
                        labels[neighbour] = label
                        stack.append(neighbour)
                    }
                }
            }
            sizes.append(size)
        }
    }

}
