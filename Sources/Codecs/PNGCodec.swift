import CPNG
import Foundation
import Imaging

/// PNG through libpng's simplified API, which reports errors by return value rather than longjmp.
public struct PNGCodec: Sendable {
    public init() {}

    // Swift does not import the composite PNG_FORMAT_RGBA macros.
    static let rgbaFormat = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    static let rgbFormat = UInt32(PNG_FORMAT_FLAG_COLOR)
    /// 16-bit files without gAMA or sRGB chunks are sRGB, as every other reader assumes.
    static let sixteenBitIsSRGB = UInt32(0x04)

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        try Self.checkChunkLengths(data)
        // libpng reads from the bytes until finish: keep both calls in one closure.
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> DecodedImage in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw CodecError.corrupt(.png, Self.message(of: image))
            }
            defer { png_image_free(&image) }
            let size = PixelSize(width: Int(image.width), height: Int(image.height))
            guard size.pixelCount <= options.maximumPixelCount else {
                throw CodecError.tooManyPixels(width: size.width, height: size.height, limit: options.maximumPixelCount)
            }
            image.format = Self.rgbaFormat
            image.flags |= Self.sixteenBitIsSRGB // begin_read resets the flags
            var succeeded = false
            let pixels: RGBAImage
            do {
                pixels = try RGBAImage(width: size.width, height: size.height) { buffer in
                    succeeded = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(size.width * 4), nil) != 0
                }
            } catch {
                throw CodecError.corrupt(.png, "the header gives a size of \(size)")
            }
            guard succeeded else { throw CodecError.corrupt(.png, Self.message(of: image)) }
            return DecodedImage(format: .png, originalSize: size, image: pixels)
        }
    }

    /// The image as a PNG, with `xmp` (an XMP packet) in an iTXt chunk when given.
    public func encode(_ image: RGBAImage, xmp: String? = nil) throws -> Data {
        // Opaque images are written without alpha: a quarter smaller before compression.
        let opaque = image.isOpaque
        return try encode(opaque ? Self.dropAlpha(image.bytes) : image.bytes, width: image.width, height: image.height,
                          channels: opaque ? 3 : 4, xmp: xmp)
    }

    /// An image handed over a band of rows at a time: an opaque one is gathered straight into RGB, so
    /// that a variant is never whole as RGBA beside its RGB copy (a 100-megapixel variant took 400 MB
    /// more); one with transparency is gathered whole, as RGBA.
    public func encode(_ rows: RowSource, xmp: String? = nil) throws -> Data {
        let width = rows.width, height = rows.height
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let band = max(1, min(height, 64))
        var scratch = [UInt8](repeating: 0, count: width * band * 4)
        var opaque = true
        rgb.withUnsafeMutableBufferPointer { target in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var row = 0
                while row < height && opaque {
                    let count = min(band, height - row)
                    rows.fill(row..<(row + count), scratch.baseAddress!, width * 4)
                    var out = row * width * 3
                    for pixel in 0..<(count * width) {
                        if scratch[pixel * 4 + 3] != 255 { opaque = false; break }
                        target[out] = scratch[pixel * 4]
                        target[out + 1] = scratch[pixel * 4 + 1]
                        target[out + 2] = scratch[pixel * 4 + 2]
                        out += 3
                    }
                    row += count
                }
            }
        }
        guard opaque else {
            rgb = []
            return try encode(rows.image(), xmp: xmp)
        }
        return try encode(rgb, width: width, height: height, channels: 3, xmp: xmp)
    }

    /// 8-bit RGB or RGBA rows, packed, written as a PNG.
    private func encode(_ source: [UInt8], width: Int, height: Int, channels: Int, xmp: String?) throws -> Data {
        var info = png_image()
        info.version = UInt32(PNG_IMAGE_VERSION)
        info.width = UInt32(width)
        info.height = UInt32(height)
        let opaque = channels == 3
        info.format = opaque ? Self.rgbFormat : Self.rgbaFormat
        let stride = Int32(width * channels)
        // Compressed once, into a buffer of the most a PNG of the image can take (libpng's
        // PNG_IMAGE_PNG_SIZE_MAX, which libpng promises is never filled): asking the size first
        // compressed every picture twice. Pages the output does not reach are never touched.
        var size = Self.largestSize(width: width, height: height, channels: channels)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        let written = source.withUnsafeBytes { bytes in
            png_image_write_to_memory(&info, buffer, &size, 0, bytes.baseAddress, stride, nil)
        }
        guard written != 0 else { throw CodecError.encodingFailed(.png, Self.message(of: info)) }
        guard let xmp else { return Data(bytes: buffer, count: size) }
        // After IHDR, which libpng writes first: the signature (8 bytes), its length and type (8), its 13 bytes and CRC (4).
        let afterHeader = 33
        var png = Data(capacity: size + xmp.utf8.count + 40)
        png.append(buffer.assumingMemoryBound(to: UInt8.self), count: afterHeader)
        png.append(Self.chunk("iTXt", Self.xmpText(xmp)))
        png.append(buffer.assumingMemoryBound(to: UInt8.self) + afterHeader, count: size - afterHeader)
        return png
    }

    /// An uncompressed iTXt chunk's data holding an XMP packet, as XMPLocator and other readers look for it:
    /// its keyword, a NUL, no compression (two zeros), no language and no translated keyword (two NULs), the text.
    static func xmpText(_ packet: String) -> [UInt8] {
        XMPLocator.pngKeyword + [0, 0, 0, 0, 0] + Array(packet.utf8)
    }

    /// A chunk: its data's length, its type, the data, and the CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> Data {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return Data(bigEndian(UInt32(data.count)) + body + bigEndian(crc))
    }

    /// libpng's PNG_IMAGE_PNG_SIZE_MAX for an 8-bit image of `channels` without a colour map: its
    /// signature, IHDR, gAMA, cHRM and IEND, zlib's bound on the rows with their filter bytes, and an
    /// IDAT header for every 8,192 bytes of it.
    static func largestSize(width: Int, height: Int, channels: Int) -> Int {
        let data = width * height * channels + height
        let compressed = data + (data + 7) >> 3 + (data + 63) >> 6 + 11
        return 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8_192) + compressed
    }

    /// Refuses a chunk that claims more bytes than the file holds after it. libpng allocates a
    /// chunk's claimed length before reading it, and its simplified API treats its own limit on
    /// that length as a warning: a 68-byte file claiming a 1.6 GB sPLT chunk made it allocate
    /// and touch 1.6 GB (found by the fuzzer). Checked here, no chunk can cost more memory than
    /// the file it comes in. Only headers are read, up to IEND; what comes after is libpng's.
    static func checkChunkLengths(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            for chunk in PNGChunkHeaders(bytes) {
                if chunk.type == "IEND" { return }
                guard chunk.end <= bytes.count else {
                    throw CodecError.corrupt(.png, "the \(chunk.type) chunk claims \(chunk.length) bytes, but only \(max(0, bytes.count - chunk.dataStart - 4)) follow it in the file: the file is cut short or damaged")
                }
            }
        }
    }

    static func dropAlpha(_ rgba: [UInt8]) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: rgba.count / 4 * 3)
        var target = 0
        for offset in stride(from: 0, to: rgba.count, by: 4) {
            rgb[target] = rgba[offset]
            rgb[target + 1] = rgba[offset + 1]
            rgb[target + 2] = rgba[offset + 2]
            target += 3
        }
        return rgb
    }

    static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
