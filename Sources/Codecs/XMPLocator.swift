import CHEIF
import Foundation
import Imaging

/// Finds a photo's XMP packet — the XML that editors (Lightroom, darktable, digiKam) and phones
/// write beside EXIF — in each container, without decoding pixels: a JPEG's APP1 segment named
/// "http://ns.adobe.com/xap/1.0/", a PNG's uncompressed iTXt chunk "XML:com.adobe.xmp", the HEIF
/// `mime` item of type application/rdf+xml, the WebP `XMP ` chunk, a TIFF's tag 700.
public enum XMPLocator {
    /// The largest packet kept: XMP that holds a whole edit history or a preview is not metadata to search.
    public static let maximumLength = 1 << 20

    static let jpegHeader = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let pngKeyword = Array("XML:com.adobe.xmp".utf8)

    /// The packet as text, or nil when the file has none (or one that is not UTF-8, or too long).
    public static func packet(in data: Data) -> String? {
        let bytes: Data?
        switch ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) {
        case .jpeg: bytes = jpegPacket(in: data)
        case .png: bytes = pngPacket(in: data)
        case .heif: bytes = heifPacket(in: data)
        case .webp: bytes = WebPCodec.chunk("XMP ", in: data)
        case .tiff: bytes = TIFFExif.value(ofIFD0Tag: 700, in: data)
        case nil: bytes = nil
        }
        guard let bytes, bytes.count <= maximumLength, let text = String(data: bytes, encoding: .utf8) else { return nil }
        let packet = text.trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines))
        return packet.isEmpty ? nil : packet
    }

    /// The orientation an XMP packet gives (`tiff:Orientation`, as an attribute or an element), or nil.
    public static func orientation(inPacket packet: String) -> Orientation? {
        for pattern in [#"tiff:Orientation\s*=\s*["'](\d)["']"#, #"<tiff:Orientation>\s*(\d)\s*</tiff:Orientation>"#] {
            if let match = packet.range(of: pattern, options: .regularExpression) {
                let digits = packet[match].filter(\.isNumber)
                return Int(String(digits.last!)).flatMap(Orientation.init(rawValue:))
            }
        }
        return nil
    }

    private static func jpegPacket(in data: Data) -> Data? {
        JPEGSegments.first(0xE1, in: data) { $0.starts(with: jpegHeader) }.map { Data($0.dropFirst(jpegHeader.count)) }
    }

    private static func pngPacket(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            for chunk in PNGChunkHeaders(bytes) {
                guard chunk.dataEnd <= bytes.count else { return nil }
                if chunk.type == "IEND" { return nil }
                guard chunk.type == "iTXt" else { continue }
                let body = Array(bytes[chunk.dataStart..<chunk.dataEnd])
                // keyword \0, compression flag, method, language \0, translated keyword \0, text
                guard body.starts(with: pngKeyword + [0]), body.count > pngKeyword.count + 3,
                      body[pngKeyword.count + 1] == 0 else { continue }
                var rest = body[(pngKeyword.count + 3)...]
                for _ in 0..<2 {
                    guard let end = rest.firstIndex(of: 0) else { return nil }
                    rest = rest[(end + 1)...]
                }
                return Data(rest)
            }
            return nil
        }
    }

    private static func heifPacket(in data: Data) -> Data? {
        HEIFCodec.withPrimaryImage(of: data) { handle -> Data? in
            var ids = [heif_item_id](repeating: 0, count: 8)
            let count = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, Int32(ids.count)))
            for id in ids.prefix(count) {
                guard let type = heif_image_handle_get_metadata_content_type(handle, id),
                      String(cString: type) == "application/rdf+xml" else { continue }
                let size = heif_image_handle_get_metadata_size(handle, id)
                guard size > 0, size <= maximumLength else { return nil }
                var packet = [UInt8](repeating: 0, count: size)
                guard heif_image_handle_get_metadata(handle, id, &packet).code == heif_error_Ok else { return nil }
                return Data(packet)
            }
            return nil
        }
    }
}
