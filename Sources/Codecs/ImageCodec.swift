import Foundation
import Imaging

/// Decodes JPEG, PNG, HEIF (HEIC, AVIF), WebP and TIFF and encodes JPEG, PNG and WebP, choosing the
/// decoder from the data's first bytes.
public struct ImageCodec: ImageDecoding, ImageEncoding, Sendable {
    private let jpeg = JPEGCodec()
    private let png = PNGCodec()
    private let heif = HEIFCodec()
    private let webp = WebPCodec()
    private let tiff = TIFFCodec()

    public init() {}

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        var decoded: DecodedImage
        switch ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) {
        case .jpeg: decoded = try jpeg.decode(data, options: options)
        case .png: decoded = try png.decode(data, options: options)
        case .heif: decoded = try heif.decode(data, options: options)
        case .webp: decoded = try webp.decode(data, options: options)
        case .tiff: decoded = try tiff.decode(data, options: options)
        case nil: throw CodecError.unrecognisedFormat
        }
        if options.appliesOrientation, decoded.format.isTurnedByExif,
           let orientation = ExifLocator.exifBlock(in: data).flatMap(ExifBlock.orientation)
               ?? XMPLocator.orientation(in: data),
           orientation != .up {
            decoded.image = decoded.image.applying(orientation)
            decoded.appliedOrientation = orientation
        }
        return decoded
    }

    public func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        switch format {
        case .jpeg: return try jpeg.encode(image, quality: options.quality, exif: options.exif, xmp: options.xmp)
        case .png: return try png.encode(image, xmp: options.xmp)
        case .webp: return try webp.encode(image, quality: options.quality, exif: options.exif, xmp: options.xmp)
        case .heif, .tiff: throw Self.notWritten(format)
        }
    }

    public func encode(_ rows: RowSource, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        switch format {
        case .jpeg: return try jpeg.encode(rows, quality: options.quality, exif: options.exif, xmp: options.xmp)
        case .png: return try png.encode(rows, xmp: options.xmp)
        case .webp: return try webp.encode(rows.image(), quality: options.quality, exif: options.exif, xmp: options.xmp)
        case .heif, .tiff: throw Self.notWritten(format)
        }
    }

    private static func notWritten(_ format: ImageFormat) -> CodecError {
        .unsupported(format, "showhide reads \(format.displayName) but does not write it; variants of \(format.displayName) photos are JPEGs")
    }
}
