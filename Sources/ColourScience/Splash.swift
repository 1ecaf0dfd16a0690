import Foundation
import Imaging

/// Which part of a photo keeps its colour.
public enum SplashMode: String, CaseIterable, Sendable, Codable {
    /// Only the target colour keeps its colour; everything else turns grey.
    case show
    /// The target colour turns grey; everything else keeps its colour.
    case hide
}

/// How a splash picks its colour: a hue with a tolerance and a soft edge, and a chroma gate so
/// that near-neutral pixels are never kept as a colour.
public struct SplashParameters: Equatable, Hashable, Sendable, Codable {
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

    public init(hue: Double, tolerance: Double = SplashParameters.defaultTolerance, feather: Double = SplashParameters.defaultFeather,
                minimumChroma: Double = SplashParameters.defaultMinimumChroma, chromaFeather: Double = 10) {
        self.hue = hue
        self.tolerance = tolerance
        self.feather = feather
        self.minimumChroma = minimumChroma
        self.chromaFeather = chromaFeather
    }

    /// How much of a colour's own colour survives in a *show* variant, 0–1: a smooth step in hue
    /// distance times a smooth step in chroma.
    public func keepWeight(_ colour: LCh) -> Double {
        let distance = Hue.distance(colour.h, hue)
        let hueWeight = 1 - Self.smoothstep((distance - tolerance) / max(feather, 1e-9))
        let chromaWeight = Self.smoothstep((colour.c - minimumChroma) / max(chromaFeather, 1e-9))
        return hueWeight * chromaWeight
    }

    /// 0 below 0, 1 above 1, and a smooth S in between (no visible edge where a mask ends).
    static func smoothstep(_ x: Double) -> Double {
        let t = min(max(x, 0), 1)
        return t * t * (3 - 2 * t)
    }
}

/// The show and hide variants: each pixel mixed between its perceptual grey and itself by its keep-weight.
public struct Splash: Sendable {
    public let parameters: SplashParameters
    /// Keep-weights (0–255) for RGB quantised to 6 bits per channel (64³ entries, 256 KB, so it stays
    /// in cache): the colour science runs 262,144 times per parameter set instead of once per pixel;
    /// the weight is smooth, so the quantisation does not show.
    private let weights: [UInt8]

    public init(parameters: SplashParameters) {
        self.parameters = parameters
        // 262,144 colour conversions: spread over the cores, one plane of red at a time.
        var weights = [UInt8](repeating: 0, count: 64 * 64 * 64)
        weights.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let table = buffer
            DispatchQueue.concurrentPerform(iterations: 64) { red in
                for green in 0..<64 {
                    for blue in 0..<64 {
                        let pixel = RGBA(red: Self.expand(red), green: Self.expand(green), blue: Self.expand(blue))
                        table[red << 12 | green << 6 | blue] = UInt8(parameters.keepWeight(Lab(pixel).lch) * 255 + 0.5)
                    }
                }
            }
        }
        self.weights = weights
    }

    /// A 6-bit level back to 8 bits, 0 → 0 and 63 → 255.
    private static func expand(_ level: Int) -> UInt8 {
        UInt8(level << 2 | level >> 4)
    }

    /// The keep-weight of an 8-bit pixel, from the table.
    public func keepWeight(_ pixel: RGBA) -> Double {
        Double(weights[Int(pixel.red >> 2) << 12 | Int(pixel.green >> 2) << 6 | Int(pixel.blue >> 2)]) / 255
    }

    /// Each channel's share of the luminance in 1/65536 steps of linear light (Rec. 709 weights),
    /// so the hot loop adds three integers instead of converting to linear light.
    private static let luminanceTables: (red: [Int32], green: [Int32], blue: [Int32]) = {
        func table(_ weight: Double) -> [Int32] { SRGB.linearTable.map { Int32(($0 * weight * 65536).rounded()) } }
        return (table(0.2126), table(0.7152), table(0.0722))
    }()

    /// sRGB value of each luminance in 1/65536 steps, indexed by luminance >> 4.
    private static let greyTable: [UInt8] = (0...4096).map { UInt8((SRGB.encoded(Double($0) / 4096) * 255).rounded()) }

    /// The perceptual grey of a pixel: its luminance from linear RGB with Rec. 709 weights, encoded
    /// back to sRGB, so that it keeps its lightness (max(R, G, B) would make a blue sky white).
    /// The same tables as the hot loop, so a variant's grey pixels are exactly this.
    public static func grey(_ pixel: RGBA) -> UInt8 {
        let (red, green, blue) = luminanceTables
        let luminance = red[Int(pixel.red)] + green[Int(pixel.green)] + blue[Int(pixel.blue)]
        return greyTable[Int(min(luminance, 65536) >> 4)]
    }

    /// −1, 0 or 1: rounds a division to the nearest whole number on both sides of zero.
    @inline(__always)
    private static func sign(_ value: Int32) -> Int32 { value > 0 ? 1 : (value < 0 ? -1 : 0) }

    /// The variant: `mix(grey, pixel, weight)` for show and `mix(grey, pixel, 1 − weight)` for hide;
    /// alpha unchanged.
    public func apply(_ mode: SplashMode, to image: RGBAImage) -> RGBAImage {
        var output = image
        let (lumRed, lumGreen, lumBlue) = Self.luminanceTables
        let greys = Self.greyTable
        let hide = mode == .hide
        // Bands of rows in parallel; each pixel is independent of the others.
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 2, image.height / 16))
        let rowsPerBand = (image.height + bands - 1) / bands
        let rowBytes = image.rowStride
        output.bytes.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let bytes = buffer
            weights.withUnsafeBufferPointer { table in
                nonisolated(unsafe) let weights = table
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let start = band * rowsPerBand * rowBytes, end = min(bytes.count, (band + 1) * rowsPerBand * rowBytes)
                    for offset in stride(from: start, to: end, by: 4) {
                        let red = bytes[offset], green = bytes[offset + 1], blue = bytes[offset + 2]
                        var weight = Int32(weights[Int(red >> 2) << 12 | Int(green >> 2) << 6 | Int(blue >> 2)])
                        if hide { weight = 255 - weight }
                        if weight == 255 { continue }
                        let luminance = lumRed[Int(red)] &+ lumGreen[Int(green)] &+ lumBlue[Int(blue)]
                        let grey = Int32(greys[Int(min(luminance, 65536) >> 4)])
                        // grey + (channel − grey) × weight / 255, rounded, in integers.
                        bytes[offset] = UInt8(truncatingIfNeeded: grey &+ ((Int32(red) &- grey) &* weight &+ 127 * Self.sign(Int32(red) &- grey)) / 255)
                        bytes[offset + 1] = UInt8(truncatingIfNeeded: grey &+ ((Int32(green) &- grey) &* weight &+ 127 * Self.sign(Int32(green) &- grey)) / 255)
                        bytes[offset + 2] = UInt8(truncatingIfNeeded: grey &+ ((Int32(blue) &- grey) &* weight &+ 127 * Self.sign(Int32(blue) &- grey)) / 255)
                    }
                }
            }
        }
        return output
    }
}
