import CWebP
import Foundation
import Imaging

/// WebP photos through libwebp: decoded at a reduced size by libwebp's own scaler for analysis, at
/// full size for variants; written lossy at the quality asked for, alpha kept, with the photo's
/// EXIF in an `EXIF` chunk. An animation gives its first frame.
public struct WebPCodec: Sendable {
    public init() {}

    /// The longest side a WebP can have (14 bits).
    static let longestSide = 16_383

    /// The largest canvas of an animation read: its decoder holds two of them, and a copy is made.
    static let largestAnimation = 16_000_000

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        return try data.withUnsafeBytes { raw -> DecodedImage in
            let bytes = raw.bindMemory(to: UInt8.self)
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else { throw CodecError.corrupt(.webp, "libwebp is not the version showhide was built with") }
            try Self.check(WebPGetFeatures(bytes.baseAddress, bytes.count, &config.input))
            let size = PixelSize(width: Int(config.input.width), height: Int(config.input.height))
            guard size.width > 0, size.height > 0 else { throw CodecError.corrupt(.webp, "the image has no size") }
            guard size.pixelCount <= options.maximumPixelCount else {
                throw CodecError.tooManyPixels(width: size.width, height: size.height, limit: options.maximumPixelCount)
            }
            if config.input.has_animation != 0 {
                // libwebp's animation decoder fills two canvases before the first frame is ours: a 140-byte
                // file claiming 10000 × 10000 took 1.2 GB. An animation is a small picture (a GIF's heir).
                guard size.pixelCount <= Self.largestAnimation else {
                    throw CodecError.unsupported(.webp, "an animation of \(size.width)×\(size.height) pixels: showhide reads animations "
                                                 + "of at most \(Self.largestAnimation / 1_000_000) megapixels")
                }
                return DecodedImage(format: .webp, originalSize: size, image: try Self.firstFrame(of: bytes, options: options))
            }
            var output = size
            if let longSide = options.minimumLongSide, max(size.width, size.height) > 2 * longSide {
                // libwebp scales while it decodes: analysis never holds the full-size picture.
                output = size.fitting(longSide: 2 * longSide)
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(output.width)
                config.options.scaled_height = Int32(output.height)
            }
            let image = try RGBAImage(width: output.width, height: output.height) { destination in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = destination.baseAddress
                config.output.u.RGBA.stride = Int32(output.width * 4)
                config.output.u.RGBA.size = destination.count
                defer { WebPFreeDecBuffer(&config.output) }
                try Self.check(WebPDecode(bytes.baseAddress, bytes.count, &config))
            }
            return DecodedImage(format: .webp, originalSize: size, image: image)
        }
    }

    /// The first frame of an animation, on its canvas, made smaller for analysis when asked.
    private static func firstFrame(of bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> RGBAImage {
        var animation = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        var decoderOptions = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&decoderOptions) != 0 else { throw CodecError.corrupt(.webp, "libwebp is not the version showhide was built with") }
        decoderOptions.color_mode = MODE_RGBA
        decoderOptions.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&animation, &decoderOptions) else {
            throw CodecError.corrupt(.webp, "the animation cannot be read")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.canvas_width > 0, info.canvas_height > 0,
              WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
            throw CodecError.corrupt(.webp, "the animation's first frame cannot be decoded")
        }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        let image = try RGBAImage(width: width, height: height) { destination in
            destination.baseAddress!.update(from: frame, count: width * height * 4)
        }
        guard let longSide = options.minimumLongSide, max(width, height) > 2 * longSide else { return image }
        return image.downscaled(toLongSide: 2 * longSide)
    }

    /// Lossy WebP at `quality` (1–100), alpha kept where the image has any, with `exif` ("Exif\0\0"
    /// and the TIFF data) in an `EXIF` chunk and `xmp` (an XMP packet) in an `XMP ` chunk.
    public func encode(_ image: RGBAImage, quality: Int, exif: Data?, xmp: String? = nil) throws -> Data {
        guard image.width <= Self.longestSide, image.height <= Self.longestSide else {
            throw CodecError.encodingFailed(.webp, "a WebP is at most \(Self.longestSide) pixels on a side; this image is \(image.width)×\(image.height)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.bytes.withUnsafeBufferPointer { pixels in
            WebPEncodeRGBA(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.rowStride),
                           Float(min(100, max(1, quality))), &output)
        }
        guard size > 0, let output else { throw CodecError.encodingFailed(.webp, "libwebp could not encode the image") }
        defer { WebPFree(output) }
        var webp = Data(bytes: output, count: size)
        if let exif, exif.count > ExifLocator.exifHeader.count {
            // The chunk holds the TIFF data alone, as the WebP container specification has it.
            let tiff = exif.starts(with: ExifLocator.exifHeader) ? exif.dropFirst(ExifLocator.exifHeader.count) : exif[...]
            webp = try Self.setting("EXIF", to: Data(tiff), in: webp)
        }
        if let xmp { webp = try Self.setting("XMP ", to: Data(xmp.utf8), in: webp) }
        return webp
    }

    /// `webp` with its chunk `fourCC` ("EXIF", "XMP ") holding `contents`, through libwebp's muxer.
    static func setting(_ fourCC: String, to contents: Data, in webp: Data) throws -> Data {
        try webp.withUnsafeBytes { webpBytes in
            try contents.withUnsafeBytes { contentBytes in
                var picture = WebPData(bytes: webpBytes.bindMemory(to: UInt8.self).baseAddress, size: webpBytes.count)
                guard let mux = WebPMuxCreate(&picture, 0) else { throw CodecError.encodingFailed(.webp, "libwebp could not read the WebP") }
                defer { WebPMuxDelete(mux) }
                var chunk = WebPData(bytes: contentBytes.bindMemory(to: UInt8.self).baseAddress, size: contentBytes.count)
                var assembled = WebPData()
                guard WebPMuxSetChunk(mux, fourCC, &chunk, 1) == WEBP_MUX_OK, WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK else {
                    throw CodecError.encodingFailed(.webp, "libwebp could not add the \(fourCC.trimmingCharacters(in: .whitespaces)) chunk")
                }
                defer { WebPDataClear(&assembled) }
                return Data(bytes: assembled.bytes, count: assembled.size)
            }
        }
    }

    /// The EXIF block ("Exif\0\0" + TIFF data) of the `EXIF` chunk, or nil when there is none.
    public static func exifBlock(in data: Data) -> Data? {
        chunk("EXIF", in: data).map { tiff in
            // Some writers put "Exif\0\0" before the TIFF header, as a JPEG has it.
            tiff.starts(with: ExifLocator.exifHeader) ? tiff : Data(ExifLocator.exifHeader) + tiff
        }
    }

    /// The contents of the first chunk named `fourCC`, or nil.
    static func chunk(_ fourCC: String, in data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            var webp = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demuxer = WebPDemux(&webp) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            return iterator.chunk.size > 0 ? Data(bytes: iterator.chunk.bytes, count: iterator.chunk.size) : nil
        }
    }

    private static func check(_ status: VP8StatusCode) throws {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_OUT_OF_MEMORY: throw CodecError.corrupt(.webp, "out of memory")
        case VP8_STATUS_INVALID_PARAM: throw CodecError.corrupt(.webp, "invalid parameter")
        case VP8_STATUS_BITSTREAM_ERROR: throw CodecError.corrupt(.webp, "the bitstream is broken")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw CodecError.unsupported(.webp, "a feature libwebp does not decode")
        case VP8_STATUS_NOT_ENOUGH_DATA: throw CodecError.corrupt(.webp, "the file ends early (truncated)")
        default: throw CodecError.corrupt(.webp, "libwebp status \(status.rawValue)")
        }
    }
}
