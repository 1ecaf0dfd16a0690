/// One pixel: 8-bit sRGB red, green and blue with straight (not premultiplied) alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 255, green: 255, blue: 255)
    public static let red = RGBA(red: 255, green: 0, blue: 0)
    public static let green = RGBA(red: 0, green: 255, blue: 0)
    public static let blue = RGBA(red: 0, green: 0, blue: 255)

    public var description: String {
        "RGBA(\(red), \(green), \(blue), \(alpha))"
    }
}

/// The one image type used everywhere: 8-bit RGBA, rows top to bottom, no padding.
public struct RGBAImage: Equatable, Sendable {
    public static let bytesPerPixel = 4

    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, row by row.
    public var bytes: [UInt8]

    public var pixelCount: Int { width * height }
    public var rowStride: Int { width * Self.bytesPerPixel }

    /// An image whose bytes are `bytes`; fails when the count does not match the size.
    public init(width: Int, height: Int, bytes: [UInt8]) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        let expected = width * height * Self.bytesPerPixel
        guard bytes.count == expected else {
            throw .bufferSizeMismatch(expected: expected, actual: bytes.count)
        }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// An image of one colour.
    public init(width: Int, height: Int, filledWith colour: RGBA) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        var bytes = [UInt8](repeating: 0, count: width * height * Self.bytesPerPixel)
        for offset in stride(from: 0, to: bytes.count, by: Self.bytesPerPixel) {
            bytes[offset] = colour.red
            bytes[offset + 1] = colour.green
            bytes[offset + 2] = colour.blue
            bytes[offset + 3] = colour.alpha
        }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Fills a new image by letting `fill` write each pixel's bytes into a buffer of the right size,
    /// cleared first: bytes `fill` leaves are 0.
    public init(
        width: Int, height: Int,
        initializingWith fill: (inout UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) throws {
        self = try Self.writingEveryByte(width: width, height: height) { buffer in
            buffer.initialize(repeating: 0)
            try fill(&buffer)
        }
    }

    /// A new image whose every byte `fill` writes into a buffer of the right size, not cleared first:
    /// for a decoder that writes each row whenever it does not throw, so that a large photo's buffer
    /// is written once, not cleared and then written.
    public static func writingEveryByte(
        width: Int, height: Int, _ fill: (inout UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) throws -> RGBAImage {
        guard width > 0, height > 0 else { throw ImagingError.invalidDimensions(width: width, height: height) }
        let count = width * height * Self.bytesPerPixel
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(&buffer)
            initialized = count
        }
        return try RGBAImage(width: width, height: height, bytes: bytes)
    }

    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let offset = (y * width + x) * Self.bytesPerPixel
            return RGBA(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
            let offset = (y * width + x) * Self.bytesPerPixel
            bytes[offset] = newValue.red
            bytes[offset + 1] = newValue.green
            bytes[offset + 2] = newValue.blue
            bytes[offset + 3] = newValue.alpha
        }
    }

    /// Every pixel, row by row.
    public var pixels: [RGBA] {
        var result: [RGBA] = []
        result.reserveCapacity(pixelCount)
        for offset in stride(from: 0, to: bytes.count, by: Self.bytesPerPixel) {
            result.append(RGBA(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3]))
        }
        return result
    }

    /// True when every pixel is fully opaque.
    public var isOpaque: Bool {
        bytes.withUnsafeBytes { raw in
            // Eight pixels at a time, their alpha bytes masked out of one vector: asked of every thumbnail made.
            let alphas = SIMD8<UInt32>(repeating: 0xFF00_0000)
            var offset = 0
            while offset + 32 <= raw.count {
                guard raw.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt32>.self) & alphas == alphas else { return false }
                offset += 32
            }
            return stride(from: offset + 3, to: raw.count, by: Self.bytesPerPixel).allSatisfy { raw[$0] == 255 }
        }
    }
}

/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)×\(height)" }

    /// This size made smaller, aspect kept, so that its long side is at most `longSide`; itself when it fits.
    public func fitting(longSide: Int) -> PixelSize {
        guard max(width, height) > longSide else { return self }
        let scale = Double(longSide) / Double(max(width, height))
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
    }
}
