import Foundation
import Imaging

/// Decodes JPEG, PNG and HEIF (HEIC, AVIF) and encodes JPEG and PNG, choosing the decoder from the
/// data's first bytes.
public struct ImageCodec: ImageDecoding, ImageEncoding, Sendable {
    private let jpeg = JPEGCodec()
    private let png = PNGCodec()
    private let heif = HEIFCodec()

    public init() {}

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        var decoded: DecodedImage
        switch ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) {
        case .jpeg: decoded = try jpeg.decode(data, options: options)
        case .png: decoded = try png.decode(data, options: options)
        case .heif: decoded = try heif.decode(data, options: options)
        case nil: throw CodecError.unrecognisedFormat
        }
        if options.appliesOrientation, decoded.format.isTurnedByExif,
           let orientation = ExifLocator.exifBlock(in: data).flatMap(ExifBlock.orientation), orientation != .up {
            decoded.image = decoded.image.applying(orientation)
            decoded.appliedOrientation = orientation
        }
        return decoded
    }

    public func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        switch format {
        case .jpeg: return try jpeg.encode(image, quality: options.quality, exif: options.exif)
        case .png: return try png.encode(image)
        case .heif: throw Self.heifIsNotWritten
        }
    }

    public func encode(_ rows: RowSource, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        switch format {
        case .jpeg: return try jpeg.encode(rows, quality: options.quality, exif: options.exif)
        case .png: return try png.encode(rows.image())
        case .heif: throw Self.heifIsNotWritten
        }
    }

    private static let heifIsNotWritten = CodecError.unsupported(.heif, "showhide reads HEIF but does not write it; variants of HEIF photos are JPEGs")
}
