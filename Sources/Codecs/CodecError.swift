import Foundation
import Imaging

/// Why bytes could not be decoded or pixels encoded. Messages name no file: callers add it.
public enum CodecError: Error, Equatable, LocalizedError {
    case empty
    case unrecognisedFormat
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case corrupt(ImageFormat, String)
    case unsupported(ImageFormat, String)
    case encodingFailed(ImageFormat, String)
    case exifTooLarge(bytes: Int)
    case corruptExif(String)
    /// The C library that reads the format could not be loaded (it is loaded when first needed).
    case libraryMissing(ImageFormat, library: String, package: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .empty:
            return "the file is empty"
        case .unrecognisedFormat:
            return "not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)"
        case let .tooManyPixels(width, height, limit):
            return "the image claims \(width)×\(height) pixels, more than the limit of \(limit)"
        case let .corrupt(format, message):
            return "corrupt \(format.displayName) data: \(message)"
        case let .unsupported(format, message):
            return "unsupported \(format.displayName) file: \(message)"
        case let .encodingFailed(format, message):
            return "could not encode \(format.displayName): \(message)"
        case let .exifTooLarge(bytes):
            return "the EXIF block is \(bytes) bytes, more than a JPEG segment can hold (65533)"
        case let .corruptExif(message):
            return "corrupt EXIF data: \(message)"
        case let .libraryMissing(format, library, package, reason):
            return "cannot read \(format.displayName) files: \(library) cannot be loaded (\(reason)); install \(package)"
        }
    }
}

extension String {
    /// A message from a C buffer, decoded leniently.
    init(cMessage buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
