import Foundation
import Imaging

/// Which part of a photo keeps its colour.
public enum SplashMode: String, CaseIterable, Sendable, Codable {
    /// Only the target colour keeps its colour; everything else turns grey.
    case show
    /// The target colour turns grey; everything else keeps its colour.
    case hide
}

/// How a splash decides which pixels are the colour.
public enum SplashMethod: String, CaseIterable, Sendable, Codable {
    /// Whole objects: regions grown from where the colour is clear into connected pixels of a wider
    /// hue window, so an object whose hue drifts with the light stays whole and same-hue specks
    /// elsewhere are dropped (`ObjectMask`).
    case object
    /// Each pixel by its own hue and chroma alone: the seed app's rule.
    case hue
}

/// How a splash picks its colour: a hue with a tolerance and a soft edge, and a chroma gate so
/// that near-neutral pixels are never kept as a colour.
public struct SplashParameters: Equatable, Hashable, Sendable, Codable {
    public var method: SplashMethod
    /// CIELAB hue angle of the colour to keep, degrees.
    public var hue: Double
    /// Hue distance (degrees) kept fully.
    public var tolerance: Double
    /// Hue distance beyond the tolerance (degrees) over which the keep-weight falls smoothly to 0.
    public var feather: Double
    /// Chroma (C*) below which a pixel counts as grey; the gate opens smoothly over `chromaFeather` above it.
    public var minimumChroma: Double
    public var chromaFeather: Double

    public static let defaultTolerance = 12.0
    public static let defaultFeather = 10.0
    public static let defaultMinimumChroma = 12.0
    /// What a splash takes, on the command line and in the web gallery alike: hue distances of 0–180°
    /// (half the circle holds every hue); a chroma gate of 0–150 (sRGB's colours reach C* 134).
    public static let degreesRange = 0.0...180.0
    public static let minimumChromaRange = 0.0...150.0

    /// In object mode, how much wider (degrees) the hue window is for an object's dull margins and,
    /// inside its regions, for the pixels that keep their colour.
    public static let objectGrowth = 18.0

    public init(hue: Double, tolerance: Double = SplashParameters.defaultTolerance, feather: Double = SplashParameters.defaultFeather,
                minimumChroma: Double = SplashParameters.defaultMinimumChroma, chromaFeather: Double = 10,
                method: SplashMethod = .hue) {
        self.method = method
        self.hue = hue
        self.tolerance = tolerance
        self.feather = feather
        self.minimumChroma = minimumChroma
        self.chromaFeather = chromaFeather
    }

    /// How much of a colour's own colour survives in a *show* variant, 0–1: a smooth step in hue
    /// distance times a smooth step in chroma.
    public func keepWeight(_ colour: LCh) -> Double {
        keepWeight(hue: colour.h, chroma: colour.c)
    }

    func keepWeight(hue colourHue: Double, chroma: Double) -> Double {
        keepWeight(hueDistance: Hue.distance(colourHue, hue), chroma: chroma)
    }

    /// The keep-weight of a colour `hueDistance` degrees of hue from the target.
    func keepWeight(hueDistance distance: Double, chroma: Double) -> Double {
        let hueWeight = 1 - smoothstep((distance - tolerance) / max(feather, 1e-9))
        return hueWeight * chromaWeight(chroma)
    }

    /// The chroma gate: 0 below `minimumChroma`, opening smoothly over `chromaFeather` to 1.
    func chromaWeight(_ chroma: Double) -> Double {
        smoothstep((chroma - minimumChroma) / max(chromaFeather, 1e-9))
    }

    /// These parameters with the chroma gate halved: within an object's region, and where its colour is
    /// carried on beyond it, a shaded, duller pixel is still the object.
    var inShade: SplashParameters {
        var parameters = self
        parameters.minimumChroma /= 2
        return parameters
    }

}

/// 0 below 0, 1 above 1, and a smooth S in between (no visible edge where a mask or a score ends).
func smoothstep(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}

/// The show and hide variants: each pixel mixed between its perceptual grey and itself by its keep-weight.
public struct Splash: Sendable {
    public let parameters: SplashParameters
    /// In object mode, the regions of the image that are the colour's objects.
    private let objects: ObjectMask?
    /// How the image's columns fall between the object raster's, worked out once for both variants.
    private let columns: ObjectMask.Columns?
    /// Keep-weights (0–255) for RGB quantised to 6 bits per channel (64³ entries, 256 KB, so it stays
    /// in cache): the colour science runs 262,144 times per parameter set instead of once per pixel;
    /// the weight is smooth, so the quantisation does not show. In object mode, codes (`decoded`).
    private let weights: [UInt8]

    /// A splash by hue alone (`image` nil), or by objects of `image`, the picture it will be applied to.
    public init(parameters: SplashParameters, image: RGBAImage? = nil) {
        self.parameters = parameters
        precondition(parameters.method == .hue || image != nil, "an object splash needs its image")
        let objects = parameters.method == .object ? image.map { ObjectMask($0, parameters: parameters) } : nil
        self.objects = objects
        columns = image.flatMap { objects?.columns(width: $0.width) }
        // In object mode the table is the wider window: the region map decides where it applies.
        var window = parameters
        if objects != nil {
            // Inside a kept region its shaded, duller pixels are the object too.
            window = parameters.inShade
            window.tolerance += SplashParameters.objectGrowth
        }
        let tabulated = window
        let grid = Self.grid
        let masked = objects != nil
        // Only colours within the hue window's reach have a weight: those of the whole degrees of
        // hue it covers, whichever side of 0° they are.
        let reach = Int((tabulated.tolerance + tabulated.feather).rounded(.up)) + 1
        let target = Int(tabulated.hue.rounded(.down))
        let degrees = reach >= 180 ? Array(0..<360) : (target - reach...target + reach).map { ($0 % 360 + 360) % 360 }
        // A weight as a table entry: in object mode a code from `weightCodes` up, else the weight itself.
        func entry(_ weight: Double) -> UInt8 {
            masked ? Self.weightCodes + UInt8((weight * Double(255 - Self.weightCodes)).rounded()) : UInt8(weight * 255 + 0.5)
        }
        // How much another colour a colour is (0–1) as an object-mode code below `weightCodes`.
        func foreignCode(_ foreign: Double) -> UInt8 { UInt8(((1 - foreign) * Double(Self.weightCodes - 1)).rounded()) }
        var weights = [UInt8](repeating: entry(0), count: grid.hues.count)
        weights.withUnsafeMutableBufferPointer { table in
            if masked {
                // Codes, not weights: every colour is allowed inside a region unless it is another
                // colour (below `Self.weightCodes`), so first mark the other colours, a degree of hue
                // at a time.
                let foreignStart = Self.foreignDistance.lowerBound, foreignWidth = Self.foreignDistance.upperBound - foreignStart
                for degree in 0..<360 {
                    let byHue = smoothstep((Hue.distance(Double(degree) + 0.5, parameters.hue) - foreignStart) / foreignWidth)
                    guard byHue > 0 else { continue }
                    let colours = Self.byChroma(degree: degree, window: parameters)
                    for index in grid.byDegree[colours.partly] {
                        let foreign = byHue * parameters.chromaWeight(Double(grid.chromas[Int(index)]))
                        if foreign > 0 { table[Int(index)] = foreignCode(foreign) }
                    }
                    let code = foreignCode(byHue)
                    for index in grid.byDegree[colours.wholly] { table[Int(index)] = code }
                }
            }
            for degree in degrees {
                let colours = Self.byChroma(degree: degree, window: tabulated)
                // A degree wholly within the tolerance keeps wholly the colours its chroma gate passes
                // wholly (far from the opposite hue, the distance is largest at a degree's ends).
                let inside = tabulated.tolerance < 179 && Hue.distance(Double(degree), tabulated.hue) <= tabulated.tolerance
                    && Hue.distance(Double(degree + 1), tabulated.hue) <= tabulated.tolerance
                for index in grid.byDegree[inside ? colours.partly : colours.partly.lowerBound..<colours.wholly.upperBound] {
                    // A weight of 0 leaves the entry as it is: the default, or another colour's code.
                    let weight = tabulated.keepWeight(hue: Double(grid.hues[Int(index)]), chroma: Double(grid.chromas[Int(index)]))
                    if weight > 0 { table[Int(index)] = entry(weight) }
                }
                if inside {
                    let whole = entry(1)
                    for index in grid.byDegree[colours.wholly] { table[Int(index)] = whole }
                }
            }
        }
        self.weights = weights
    }

    /// The CIELAB hue and chroma of each colour of the 6-bit grid the weights are indexed by. They are
    /// the same for every photo, so the 262,144 colour conversions run once per process; each photo's
    /// table is then only its hue window and chroma gate over them.
    /// `byDegree` lists them by whole degrees of hue and within a degree by whole units of chroma: those
    /// of degree `d` and chroma unit `u` from `starts[d × chromaUnits + u]`.
    private static let grid: (hues: [Float], chromas: [Float], byDegree: [UInt32], starts: [UInt32]) = {
        var hues = [Float](repeating: 0, count: 64 * 64 * 64), chromas = hues
        hues.withUnsafeMutableBufferPointer { hueBuffer in
            chromas.withUnsafeMutableBufferPointer { chromaBuffer in
                nonisolated(unsafe) let hues = hueBuffer, chromas = chromaBuffer
                DispatchQueue.concurrentPerform(iterations: 64) { red in
                    for green in 0..<64 {
                        for blue in 0..<64 {
                            let lch = Lab(RGBA(red: expand(red), green: expand(green), blue: expand(blue))).lch
                            hues[red << 12 | green << 6 | blue] = Float(lch.h)
                            chromas[red << 12 | green << 6 | blue] = Float(lch.c)
                        }
                    }
                }
            }
        }
        // A counting sort: one pass counts each (degree, chroma unit), one places each colour.
        let bucketOf = zip(hues, chromas).map { min(359, Int($0)) * chromaUnits + min(chromaUnits - 1, Int($1)) }
        var starts = [UInt32](repeating: 0, count: 360 * chromaUnits + 1)
        for bucket in bucketOf { starts[bucket + 1] += 1 }
        for bucket in 0..<360 * chromaUnits { starts[bucket + 1] += starts[bucket] }
        var next = starts, byDegree = [UInt32](repeating: 0, count: hues.count)
        for (index, bucket) in bucketOf.enumerated() {
            byDegree[Int(next[bucket])] = UInt32(index)
            next[bucket] += 1
        }
        return (hues, chromas, byDegree, starts)
    }()

    /// Whole units of chroma the grid is sorted by; the last holds every chroma above (sRGB reaches 134).
    private static let chromaUnits = 160

    /// Where, in `grid.byDegree`, a degree's colours may pass the chroma gate of `window` partly, and
    /// where they pass it wholly; those before have no weight. Whole units of chroma a unit clear of
    /// the gate's ends are sure to be on their side of it, so only the colours near its ends need
    /// their weight worked out.
    private static func byChroma(degree: Int, window: SplashParameters) -> (partly: Range<Int>, wholly: Range<Int>) {
        let first = degree * chromaUnits
        func unit(_ chroma: Double) -> Int { first + Int(min(max(chroma, 0), Double(chromaUnits))) }
        let closedEnd = unit((window.minimumChroma - 1).rounded(.down))
        let openStart = max(closedEnd, unit((window.minimumChroma + max(window.chromaFeather, 1e-9) + 1).rounded(.up)))
        let starts = Self.grid.starts
        return (Int(starts[closedEnd])..<Int(starts[openStart]), Int(starts[openStart])..<Int(starts[first + chromaUnits]))
    }

    /// A 6-bit level back to 8 bits, 0 → 0 and 63 → 255.
    private static func expand(_ level: Int) -> UInt8 {
        UInt8(level << 2 | level >> 4)
    }

    /// The table's entry for an 8-bit colour: its 6-bit levels.
    @inline(__always)
    private static func tableIndex(red: Int, green: Int, blue: Int) -> Int {
        (red >> 2) << 12 | (green >> 2) << 6 | blue >> 2
    }

    /// The keep-weight of an 8-bit pixel by its colour alone, from the table.
    public func keepWeight(_ pixel: RGBA) -> Double {
        let entry = weights[Self.tableIndex(red: Int(pixel.red), green: Int(pixel.green), blue: Int(pixel.blue))]
        return Double(objects == nil ? Int(entry) : Self.decoded(entry).weight) / 255
    }

    /// A pixel's weight in an object splash (0–255), indexed by the region weight read back at its
    /// place × 256 + its colour's code from the table. Well inside a kept region every pixel is the
    /// object and keeps its colour (a shaded side, a dark border) unless it is another colour; towards the
    /// region's edge its own colour decides again, so the ground beside the object is not kept with it.
    static let regionTable: [UInt8] = (0..<65_536).map { index in
        let region = index >> 8, (weight, allowed) = decoded(UInt8(index & 0xFF))
        let inside = Int((smoothstep((Double(region) - 64) / 128) * 255).rounded())
        return UInt8(((weight * (255 - inside) + allowed * inside + 127) / 255 * region + 127) / 255)
    }

    /// In object mode a colour's table entry is a code: below `weightCodes`, a colour of another hue
    /// (weight 0), allowed inside a region in proportion to the code; from it up, a weight (0–255 in
    /// the remaining steps), allowed inside a region wholly.
    static let weightCodes: UInt8 = 16
    /// Hue distances (degrees) over which a chromatic colour becomes another colour: inside an object
    /// a shaded side or a dark border is the object, a blue stud on red armour is not.
    static let foreignDistance = 60.0...90.0

    /// An object-mode code as a weight and how much the colour is allowed inside a region, both 0–255.
    static func decoded(_ code: UInt8) -> (weight: Int, allowed: Int) {
        code < weightCodes
            ? (0, (Int(code) * 255 + Int(weightCodes - 1) / 2) / Int(weightCodes - 1))
            : ((Int(code - weightCodes) * 255 + Int(255 - weightCodes) / 2) / Int(255 - weightCodes), 255)
    }

    /// Each channel's share of the luminance in 1/65536 steps of linear light (Rec. 709 weights), red
    /// then green then blue, 256 entries each, so the hot loop adds three integers instead of
    /// converting to linear light.
    private static let luminanceTable: [Int32] = [0.2126, 0.7152, 0.0722].flatMap { weight in
        SRGB.linearTable.map { Int32(($0 * weight * 65536).rounded()) }
    }

    /// sRGB value of each luminance in 1/65536 steps, indexed by luminance >> 4.
    private static let greyTable: [UInt8] = (0...4096).map { UInt8((SRGB.encoded(Double($0) / 4096) * 255).rounded()) }

    /// The perceptual grey of a pixel: its luminance from linear RGB with Rec. 709 weights, encoded
    /// back to sRGB, so that it keeps its lightness (max(R, G, B) would make a blue sky white).
    /// The same tables as the hot loop, so a variant's grey pixels are exactly this.
    public static func grey(_ pixel: RGBA) -> UInt8 {
        luminanceTable.withUnsafeBufferPointer { luminance in
            greyTable.withUnsafeBufferPointer { greys in
                UInt8(greyLevel(red: Int(pixel.red), green: Int(pixel.green), blue: Int(pixel.blue),
                                luminance: luminance.baseAddress!, greys: greys.baseAddress!))
            }
        }
    }

    /// The grey of a colour from the luminance and grey tables, as pointers: `grey` and the hot loop.
    @inline(__always)
    private static func greyLevel(red: Int, green: Int, blue: Int, luminance: UnsafePointer<Int32>, greys: UnsafePointer<UInt8>) -> Int32 {
        Int32(greys[Int(min(luminance[red] &+ luminance[256 &+ green] &+ luminance[512 &+ blue], 65536) >> 4)])
    }

    /// The variant a band of rows at a time, for an encoder to ask for as it goes: no copy of the photo.
    /// For both variants of one image, work out `keepWeights(of:)` once and ask it for each.
    public func rows(_ mode: SplashMode, of image: RGBAImage) -> RowSource {
        keepWeights(of: image).rows(mode)
    }

    /// Every pixel's keep-weight in the show variant of `image`, worked out once for both variants (the
    /// hide variant's is its complement): the colour's weight from the table and, in object mode, the
    /// region read back at the pixel's place. Bands of rows are weighed on every core.
    public func keepWeights(of image: RGBAImage) -> KeepWeights {
        precondition(columns == nil || columns?.shares.count == image.width, "an object splash applies to the image it was made for")
        let weights = [UInt8](unsafeUninitializedCapacity: image.width * image.height) { buffer, initialized in
            nonisolated(unsafe) let plane = buffer
            ParallelBands.forEach(rowsOf: image.height) { rows in weigh(image, rows: rows, into: plane.baseAddress!) }
            initialized = image.width * image.height
        }
        return KeepWeights(image: image, weights: weights)
    }

    /// The keep-weights of `rows` of `image` into `plane` (one byte a pixel, rows `image.width` apart).
    private func weigh(_ image: RGBAImage, rows: Range<Int>, into plane: UnsafeMutablePointer<UInt8>) {
        var regionRow = [UInt8](repeating: 0, count: objects == nil ? 0 : image.width)
        image.bytes.withUnsafeBufferPointer { pixels in
            weights.withUnsafeBufferPointer { table in
                Self.regionTable.withUnsafeBufferPointer { blend in
                    regionRow.withUnsafeMutableBufferPointer { region in
                        for row in rows {
                            let from = UnsafeRawPointer(pixels.baseAddress! + row * image.rowStride)
                            let to = plane + row * image.width
                            @inline(__always) func code(_ x: Int) -> UInt8 {
                                // RGBA as one little-endian word: red in the low byte.
                                let pixel = Int((from + x * 4).loadUnaligned(as: UInt32.self))
                                return table[Self.tableIndex(red: pixel & 0xFF, green: pixel >> 8 & 0xFF, blue: pixel >> 16 & 0xFF)]
                            }
                            guard let objects, let columns else {
                                for x in 0..<image.width { to[x] = code(x) }
                                continue
                            }
                            objects.fill(region, row: row, height: image.height, columns: columns)
                            // Outside every region (region weight 0) nothing keeps its colour, whatever its code:
                            // most of a row, passed over eight pixels at a time.
                            var x = 0
                            while x < image.width {
                                if x + 8 <= image.width && UnsafeRawPointer(region.baseAddress! + x).loadUnaligned(as: UInt64.self) == 0 {
                                    UnsafeMutableRawPointer(to + x).storeBytes(of: 0, as: UInt64.self)
                                    x += 8
                                    continue
                                }
                                to[x] = region[x] == 0 ? 0 : blend[Int(region[x]) << 8 | Int(code(x))]
                                x += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// One band of a variant: per pixel, its keep-weight (flipped for hide), a grey from three integer
    /// lookups, and grey + (channel − grey) × weight in integers (weights scaled to 0…256, so 255 keeps
    /// a pixel exactly and 0 gives exactly its grey).
    fileprivate static func mix(_ mode: SplashMode, _ image: RGBAImage, keepWeights: [UInt8], rows: Range<Int>,
                                into destination: UnsafeMutablePointer<UInt8>, rowStride: Int) {
        image.bytes.withUnsafeBufferPointer { pixels in
            keepWeights.withUnsafeBufferPointer { plane in
                luminanceTable.withUnsafeBufferPointer { luminanceTable in
                    greyTable.withUnsafeBufferPointer { greyTable in
                        let tables = Tables(luminance: luminanceTable.baseAddress!, greys: greyTable.baseAddress!)
                        for (index, row) in rows.enumerated() {
                            let from = UnsafeRawPointer(pixels.baseAddress! + row * image.rowStride)
                            let to = UnsafeMutableRawPointer(destination + index * rowStride)
                            let weights = plane.baseAddress! + row * image.width
                            // Each mode its own loop: the compiler then checks neither inside it.
                            if mode == .hide {
                                mixRow(from, to, width: image.width, weights: weights, hide: true, tables)
                            } else {
                                mixRow(from, to, width: image.width, weights: weights, hide: false, tables)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The tables the hot loop reads, as raw pointers.
    private struct Tables {
        let luminance: UnsafePointer<Int32>
        let greys: UnsafePointer<UInt8>
    }

    /// One row of a variant. `hide` is a constant where it is called, and it is inlined there, so
    /// each mode gets a loop of its own.
    @inline(__always)
    private static func mixRow(_ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, width: Int, weights: UnsafePointer<UInt8>,
                               hide: Bool, _ tables: Tables) {
        let luminance = tables.luminance, greys = tables.greys
        // The keep-weight of a pixel the variant leaves as it is: kept whole in the show, outside every
        // colour in the hide.
        let unchanged: UInt8 = hide ? 0 : 255
        let unchangedWord = UInt64(unchanged) &* 0x0101_0101_0101_0101
        // …and of a pixel it turns wholly grey.
        let greyed = 255 &- unchanged, greyedWord = ~unchangedWord
        /// Where the run of `weight` from `x` on ends, found eight weights at a time.
        @inline(__always) func end(of weight: UInt8, word: UInt64, from x: Int) -> Int {
            var end = x + 1
            while end + 8 <= width && UnsafeRawPointer(weights + end).loadUnaligned(as: UInt64.self) == word { end += 8 }
            while end < width && weights[end] == weight { end += 1 }
            return end
        }
        var x = 0
        while x < width {
            // Most of a variant is runs of pixels left as they are (the hide's ground, the show's object),
            // copied at once, and of pixels turned wholly grey (the show's ground, the hide's object).
            if weights[x] == unchanged {
                let end = end(of: unchanged, word: unchangedWord, from: x)
                (to + x * 4).copyMemory(from: from + x * 4, byteCount: (end - x) * 4)
                x = end
                continue
            }
            if weights[x] == greyed {
                let end = end(of: greyed, word: greyedWord, from: x)
                for offset in stride(from: x * 4, to: end * 4, by: 4) {
                    let pixel = (from + offset).loadUnaligned(as: UInt32.self)
                    let grey = greyLevel(red: Int(pixel & 0xFF), green: Int(pixel >> 8 & 0xFF), blue: Int(pixel >> 16 & 0xFF),
                                         luminance: luminance, greys: greys)
                    // Wholly grey, its alpha kept.
                    (to + offset).storeBytes(of: UInt32(truncatingIfNeeded: grey) &* 0x01_0101 | pixel & 0xFF00_0000, as: UInt32.self)
                }
                x = end
                continue
            }
            defer { x += 1 }
            // RGBA as one little-endian word: red in the low byte, alpha in the high one.
            let pixel = (from + x * 4).loadUnaligned(as: UInt32.self)
            var weight = Int32(weights[x])
            if hide { weight = 255 &- weight }
            let red = Int(pixel & 0xFF), green = Int(pixel >> 8 & 0xFF), blue = Int(pixel >> 16 & 0xFF)
            let grey = greyLevel(red: red, green: green, blue: blue, luminance: luminance, greys: greys)
            weight &+= weight >> 7
            let mixedRed = grey &+ ((Int32(red) &- grey) &* weight &+ 128) >> 8
            let mixedGreen = grey &+ ((Int32(green) &- grey) &* weight &+ 128) >> 8
            let mixedBlue = grey &+ ((Int32(blue) &- grey) &* weight &+ 128) >> 8
            (to + x * 4).storeBytes(of: UInt32(truncatingIfNeeded: mixedRed) | UInt32(truncatingIfNeeded: mixedGreen) << 8
                | UInt32(truncatingIfNeeded: mixedBlue) << 16 | pixel & 0xFF00_0000, as: UInt32.self)
        }
    }
}

/// A splash's keep-weights for every pixel of one image (`Splash.keepWeights(of:)`), from which both of
/// its variants are mixed as an encoder asks for their rows.
public struct KeepWeights: Sendable {
    public let image: RGBAImage
    /// 0–255 per pixel, row after row: how much of its colour the pixel keeps in the show variant.
    public let weights: [UInt8]

    /// The variant a band of rows at a time, for an encoder to ask for as it goes: no copy of the photo.
    public func rows(_ mode: SplashMode) -> RowSource {
        RowSource(width: image.width, height: image.height) { rows, destination, rowStride in
            Splash.mix(mode, image, keepWeights: weights, rows: rows, into: destination, rowStride: rowStride)
        }
    }
}
