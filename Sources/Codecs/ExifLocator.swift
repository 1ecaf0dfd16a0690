import Foundation
import Imaging

/// Finds the EXIF block inside a JPEG (APP1 "Exif\0\0"), PNG (eXIf chunk), HEIF (Exif item), WebP
/// (EXIF chunk) or TIFF (its own directories) without decoding pixels.
public enum ExifLocator {
    /// The header every EXIF block starts with inside a JPEG APP1 segment.
    public static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The EXIF block ("Exif\0\0" + TIFF data), or nil when the file has none.
    public static func exifBlock(in data: Data) -> Data? {
        switch ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) {
        case .jpeg: return jpegExif(in: data)
        case .png: return pngExif(in: data).map { Data(exifHeader) + $0 }
        case .heif: return HEIFCodec.exifBlock(in: data)
        case .webp: return WebPCodec.exifBlock(in: data)
        case .tiff: return TIFFExif.exifBlock(in: data)
        case nil: return nil
        }
    }

    private static func jpegExif(in data: Data) -> Data? {
        jpegExifRange(in: data).map { Data(data[$0]) }
    }

    /// Where the EXIF block ("Exif\0\0" + TIFF data) of a JPEG's APP1 segment is, as indices of `data`.
    static func jpegExifRange(in data: Data) -> Range<Int>? {
        // Read in place: this runs for every photo imported, and the bytes are the whole file.
        data.withUnsafeBytes { raw in JPEGSegments.firstPayload(0xE1, in: raw.bindMemory(to: UInt8.self)) { $0.starts(with: exifHeader) } }
            .map { ($0.lowerBound + data.startIndex)..<($0.upperBound + data.startIndex) }
    }

    private static func pngExif(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes in
            for chunk in PNGChunkHeaders(bytes) {
                guard chunk.dataEnd <= bytes.count else { return nil }
                if chunk.type == "eXIf" { return Data(bytes[chunk.dataStart..<chunk.dataEnd]) }
                if chunk.type == "IDAT" || chunk.type == "IEND" { return nil }
            }
            return nil
        }
    }
}
