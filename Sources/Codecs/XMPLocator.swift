import CHEIFBridge
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
        guard let bytes = packetBytes(in: data) else { return nil }
        // Writers pad packets with spaces, newlines and NULs: trimmed as bytes, before the text is made.
        let padding: Set<UInt8> = [0, 0x09, 0x0A, 0x0D, 0x20]
        guard let first = bytes.firstIndex(where: { !padding.contains($0) }),
              let last = bytes.lastIndex(where: { !padding.contains($0) }) else { return nil }
        return String(validating: bytes[first...last], as: UTF8.self)
    }

    /// The orientation the photo's XMP packet gives (`tiff:Orientation`), or nil.
    public static func orientation(in data: Data) -> Orientation? {
        packetBytes(in: data).flatMap(orientation(inPacket:))
    }

    /// The packet's raw bytes, at most `maximumLength` of them.
    static func packetBytes(in data: Data) -> Data? {
        let bytes: Data?
        switch ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) {
        case .jpeg: bytes = jpegPacket(in: data)
        case .png: bytes = pngPacket(in: data)
        case .heif: bytes = heifPacket(in: data)
        case .webp: bytes = WebPCodec.chunk("XMP ", in: data)
        case .tiff: bytes = TIFFExif.value(ofIFD0Tag: 700, in: data)
        case nil: bytes = nil
        }
        guard let bytes, bytes.count <= maximumLength else { return nil }
        return bytes
    }

    private static let orientationName = Array("tiff:Orientation".utf8)

    /// The orientation a packet gives, as an attribute (`tiff:Orientation="6"`) or an element
    /// (`<tiff:Orientation>6</tiff:Orientation>`), or nil. Read as bytes: this runs on every import.
    public static func orientation<Packet: Collection>(inPacket packet: Packet) -> Orientation? where Packet.Element == UInt8 {
        let bytes = Array(packet)
        let spaces: Set<UInt8> = [0x09, 0x0A, 0x0D, 0x20]
        var start = 0
        while start + orientationName.count < bytes.count {
            guard let found = bytes[start...].firstIndex(of: orientationName[0]) else { return nil }
            start = found + 1
            guard bytes[found...].starts(with: orientationName) else { continue }
            var cursor = found + orientationName.count
            func skipSpaces() { while cursor < bytes.count, spaces.contains(bytes[cursor]) { cursor += 1 } }
            func take(_ accepted: Set<UInt8>) -> Bool {
                guard cursor < bytes.count, accepted.contains(bytes[cursor]) else { return false }
                cursor += 1
                return true
            }
            skipSpaces()
            let digit: UInt8
            if take([UInt8(ascii: "=")]) {
                skipSpaces()
                guard take([UInt8(ascii: "\""), UInt8(ascii: "'")]), cursor + 1 < bytes.count,
                      [UInt8(ascii: "\""), UInt8(ascii: "'")].contains(bytes[cursor + 1]) else { continue }
                digit = bytes[cursor]
            } else if take([UInt8(ascii: ">")]) {
                skipSpaces()
                guard cursor < bytes.count else { return nil }
                digit = bytes[cursor]
                cursor += 1
                skipSpaces()
                guard take([UInt8(ascii: "<")]) else { continue }
            } else {
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { continue }
            return Orientation(rawValue: Int(digit - UInt8(ascii: "0")))
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
        HEIFCodec.withPrimaryImage(of: data) { handle, heif -> Data? in
            var ids = [heif_item_id](repeating: 0, count: 8)
            let count = Int(heif.image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, Int32(ids.count)))
            for id in ids.prefix(count) {
                guard let type = heif.image_handle_get_metadata_content_type(handle, id),
                      String(cString: type) == "application/rdf+xml" else { continue }
                let size = heif.image_handle_get_metadata_size(handle, id)
                guard size > 0, size <= maximumLength else { return nil }
                var packet = [UInt8](repeating: 0, count: size)
                guard heif.image_handle_get_metadata(handle, id, &packet).code == heif_error_Ok else { return nil }
                return Data(packet)
            }
            return nil
        }
    }
}
