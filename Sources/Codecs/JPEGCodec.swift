import CJPEGBridge
import Foundation
import Imaging

/// JPEG through libjpeg-turbo, with every libjpeg error and data-losing warning returned as a `CodecError`.
public struct JPEGCodec: Sendable {
    public init() {}

    /// The DCT scale denominators libjpeg supports cheaply, largest reduction first.
    static let scaleDenominators = [8, 4, 2, 1]

    /// The largest denominator whose scaled long side is still at least `minimumLongSide`.
    static func scaleDenominator(for size: PixelSize, minimumLongSide: Int?) -> Int {
        guard let minimumLongSide else { return 1 }
        let longSide = max(size.width, size.height)
        for denominator in scaleDenominators where (longSide + denominator - 1) / denominator >= minimumLongSide {
            return denominator
        }
        return 1
    }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        // libjpeg's bit reader looks past the last scan, so a file that lacks only its end marker
        // would read as truncated. Supplying the marker loses nothing: a file cut inside the scan
        // still fails, on the marker met too early.
        if !data.suffix(2).elementsEqual([0xFF, 0xD9]) {
            do {
                return try decodeComplete(data + [0xFF, 0xD9], options: options)
            } catch let CodecError.corrupt(format, message) where message.lowercased().contains("premature end") {
                throw CodecError.corrupt(format, "the file ends too early (\(message))")
            }
        }
        return try decodeComplete(data, options: options)
    }

    private func decodeComplete(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        var message = [CChar](repeating: 0, count: Int(SH_JPEG_MESSAGE_CAPACITY))
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> DecodedImage in
            let base = raw.bindMemory(to: UInt8.self).baseAddress!
            var header = sh_jpeg_header()
            guard let decoder = sh_jpeg_decoder_open(base, raw.count, &header, &message, message.count) else {
                throw Self.classify(String(cMessage: message))
            }
            defer { sh_jpeg_decoder_close(decoder) }
            // The header alone tells the size: refuse bombs before allocating any pixels.
            let original = PixelSize(width: Int(header.image_width), height: Int(header.image_height))
            guard original.pixelCount <= options.maximumPixelCount else {
                throw CodecError.tooManyPixels(width: original.width, height: original.height, limit: options.maximumPixelCount)
            }
            let denominator = Self.scaleDenominator(for: original, minimumLongSide: options.minimumLongSide)
            guard sh_jpeg_decoder_set_scale(decoder, Int32(denominator), &header, &message, message.count) == 0 else {
                throw Self.classify(String(cMessage: message))
            }
            let width = Int(header.output_width), height = Int(header.output_height)
            var status: Int32 = 0
            let image: RGBAImage
            do {
                // libjpeg writes every row when it returns 0 (it reads scan lines until the last), and
                // when it does not the image is thrown away: no need to clear the buffer first.
                image = try RGBAImage.writingEveryByte(width: width, height: height) { buffer in
                    status = sh_jpeg_decoder_read(decoder, buffer.baseAddress, width * RGBAImage.bytesPerPixel, &message, message.count)
                }
            } catch {
                throw CodecError.corrupt(.jpeg, "the header gives a size of \(width)×\(height)")
            }
            guard status == 0 else { throw Self.classify(String(cMessage: message)) }
            return DecodedImage(format: .jpeg, originalSize: original, image: image)
        }
    }

    /// Unsupported features are told apart from damage so users know the file is not broken.
    static func classify(_ message: String) -> CodecError {
        let prefix = "Corrupt JPEG data: "
        let message = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        let lowered = message.lowercased()
        if lowered.contains("unsupported") || lowered.contains("not implemented") {
            return .unsupported(.jpeg, message)
        }
        return .corrupt(.jpeg, message.isEmpty ? "unknown libjpeg error" : message)
    }

    public func encode(_ image: RGBAImage, quality: Int, exif: Data?, xmp: String? = nil) throws -> Data {
        try encoding(exif: exif, xmp: xmp) { exif, exifCount, xmp, xmpCount, output, outputSize, message in
            image.bytes.withUnsafeBufferPointer { pixels in
                sh_jpeg_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.rowStride, Int32(quality),
                               exif, exifCount, xmp, xmpCount, output, outputSize, message, Int(SH_JPEG_MESSAGE_CAPACITY))
            }
        }
    }

    /// Encodes rows as libjpeg asks for them, a band at a time, so the image is never whole in memory.
    public func encode(_ rows: RowSource, quality: Int, exif: Data?, xmp: String? = nil) throws -> Data {
        try encoding(exif: exif, xmp: xmp) { exif, exifCount, xmp, xmpCount, output, outputSize, message in
            withUnsafePointer(to: rows) { source in
                sh_jpeg_encode_rows({ context, first, count, destination, rowStride in
                    let rows = context!.assumingMemoryBound(to: RowSource.self).pointee
                    rows.fill(Int(first)..<Int(first + count), destination!, rowStride)
                }, UnsafeMutableRawPointer(mutating: source), UInt32(rows.width), UInt32(rows.height), Int32(quality),
                exif, exifCount, xmp, xmpCount, output, outputSize, message, Int(SH_JPEG_MESSAGE_CAPACITY))
            }
        }
    }

    /// What both encodes share: the EXIF block's and the XMP segment's bytes, the message buffer, and the
    /// output handed to `Data`, which frees it (libjpeg allocates it with `malloc`): no copy of each variant.
    private func encoding(
        exif: Data?, xmp: String?,
        _ body: (UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>) -> Int32
    ) throws -> Data {
        if let exif, exif.count > 65533 { throw CodecError.exifTooLarge(bytes: exif.count) }
        // The XMP segment: its namespace's name, a NUL, and the packet.
        let xmpSegment = xmp.map { Data(XMPLocator.jpegHeader + Array($0.utf8)) }
        if let xmpSegment, xmpSegment.count > 65533 {
            throw CodecError.encodingFailed(.jpeg, "an XMP packet of \(xmpSegment.count) bytes does not fit in a JPEG segment")
        }
        var message = [CChar](repeating: 0, count: Int(SH_JPEG_MESSAGE_CAPACITY))
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let status = (exif ?? Data()).withUnsafeBytes { exifBytes in
            (xmpSegment ?? Data()).withUnsafeBytes { xmpBytes in
                body(exif == nil ? nil : exifBytes.bindMemory(to: UInt8.self).baseAddress, exif?.count ?? 0,
                     xmpSegment == nil ? nil : xmpBytes.bindMemory(to: UInt8.self).baseAddress, xmpSegment?.count ?? 0,
                     &output, &outputSize, &message)
            }
        }
        guard status == 0, let output else { throw CodecError.encodingFailed(.jpeg, String(cMessage: message)) }
        return Data(bytesNoCopy: output, count: outputSize, deallocator: .free)
    }
}
