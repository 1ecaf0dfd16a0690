import Foundation
import Imaging

/// A colour in CIELAB (D65 white): L* 0–100, a* green–red, b* blue–yellow.
public struct Lab: Equatable, Hashable, Sendable, Codable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// Chroma and hue: the polar form of a* and b*.
    public var lch: LCh {
        LCh(l: l, c: (a * a + b * b).squareRoot(), h: Hue.degrees(atan2(b, a)))
    }

    /// The squared Euclidean distance (CIE76 ΔE squared): cheap, for clustering.
    @inline(__always) func distanceSquared(to other: Lab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }

    /// CIE76 ΔE: the straight distance in CIELAB.
    public func distance(to other: Lab) -> Double { distanceSquared(to: other).squareRoot() }
}

/// CIELAB in polar form: lightness, chroma, hue angle in degrees [0, 360).
public struct LCh: Equatable, Sendable {
    public var l: Double
    public var c: Double
    public var h: Double

    public init(l: Double, c: Double, h: Double) {
        self.l = l
        self.c = c
        self.h = h
    }

    public var lab: Lab {
        let radians = h * .pi / 180
        return Lab(l: l, a: c * cos(radians), b: c * sin(radians))
    }
}

/// Angles on the hue circle.
public enum Hue {
    /// `radians` as degrees in [0, 360).
    public static func degrees(_ radians: Double) -> Double {
        let degrees = radians * 180 / .pi
        // A tiny negative angle plus 360 rounds to 360 itself: that is 0°, the same hue, inside [0, 360).
        let wrapped = degrees < 0 ? degrees + 360 : degrees
        return wrapped >= 360 ? wrapped - 360 : wrapped
    }

    /// The shorter way round the circle between two hues, 0–180°: 350° and 10° are 20° apart.
    public static func distance(_ first: Double, _ second: Double) -> Double {
        let difference = abs(first - second).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }
}

/// CIE XYZ, Y = 1 for the D65 white.
public struct XYZ: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The D65 white point.
    public static let d65 = XYZ(x: 0.95047, y: 1.0, z: 1.08883)
}

/// sRGB (IEC 61966-2-1) to and from linear light, XYZ and CIELAB.
public enum SRGB {
    /// An sRGB channel in 0…1 to linear light.
    public static func linear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0…1 to an sRGB channel.
    public static func encoded(_ linear: Double) -> Double {
        linear <= 0.003_130_8 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear light of each 8-bit value: the conversion every pixel needs, computed once.
    public static let linearTable: [Double] = (0...255).map { linear(Double($0) / 255) }

    public static func xyz(red: Double, green: Double, blue: Double) -> XYZ {
        XYZ(x: 0.412_456_4 * red + 0.357_576_1 * green + 0.180_437_5 * blue,
            y: 0.212_672_9 * red + 0.715_152_2 * green + 0.072_175_0 * blue,
            z: 0.019_333_9 * red + 0.119_192_0 * green + 0.950_304_1 * blue)
    }

    /// Linear red, green, blue of an XYZ colour (may fall outside 0…1).
    public static func linearRGB(_ xyz: XYZ) -> (red: Double, green: Double, blue: Double) {
        (3.240_454_2 * xyz.x - 1.537_138_5 * xyz.y - 0.498_531_4 * xyz.z,
         -0.969_266_0 * xyz.x + 1.876_010_8 * xyz.y + 0.041_556_0 * xyz.z,
         0.055_643_4 * xyz.x - 0.204_025_9 * xyz.y + 1.057_225_2 * xyz.z)
    }
}

private let epsilon = 216.0 / 24389.0 // (6/29)^3
private let kappa = 24389.0 / 27.0

extension XYZ {
    public var lab: Lab {
        func f(_ t: Double) -> Double { t > epsilon ? cbrt(t) : (kappa * t + 16) / 116 }
        let fx = f(x / XYZ.d65.x), fy = f(y / XYZ.d65.y), fz = f(z / XYZ.d65.z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }
}

extension Lab {
    public var xyz: XYZ {
        let fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
        func inverse(_ f: Double) -> Double { f * f * f > epsilon ? f * f * f : (116 * f - 16) / kappa }
        let y = l > kappa * epsilon ? fy * fy * fy : l / kappa
        return XYZ(x: inverse(fx) * XYZ.d65.x, y: y * XYZ.d65.y, z: inverse(fz) * XYZ.d65.z)
    }

    /// The colour of an 8-bit sRGB pixel (alpha ignored).
    public init(_ pixel: RGBA) {
        let table = SRGB.linearTable
        self = SRGB.xyz(red: table[Int(pixel.red)], green: table[Int(pixel.green)], blue: table[Int(pixel.blue)]).lab
    }

    /// The nearest 8-bit sRGB colour, each channel clamped to the gamut.
    public var rgba: RGBA {
        let linear = SRGB.linearRGB(xyz)
        func channel(_ value: Double) -> UInt8 {
            UInt8((SRGB.encoded(min(max(value, 0), 1)) * 255).rounded())
        }
        return RGBA(red: channel(linear.red), green: channel(linear.green), blue: channel(linear.blue))
    }

    /// "#RRGGBB" of the nearest sRGB colour.
    public var hex: String { rgba.hex }
}

extension RGBA {
    /// "#RRGGBB", upper case.
    public var hex: String {
        // By hand: `String(format:)` goes through Foundation's formatter, and every imported photo
        // writes ten of these.
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = [UInt8(ascii: "#")]
        for channel in [red, green, blue] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses "#RRGGBB", "RRGGBB", "#RGB" or "rgb(r, g, b)"; nil for anything else. Three hex digits need
    /// their "#": bare, they are words as often as colours ("bad", "fed", "add").
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("rgb(") && trimmed.hasSuffix(")") {
            let parts = trimmed.dropFirst(4).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3, let r = UInt8(parts[0]), let g = UInt8(parts[1]), let b = UInt8(parts[2]) else { return nil }
            self.init(red: r, green: g, blue: b)
            return
        }
        var digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if digits.count == 3 && trimmed.hasPrefix("#") { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }
}
