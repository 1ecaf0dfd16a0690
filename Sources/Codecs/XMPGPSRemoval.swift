import Foundation

/// Removes the GPS position from a JPEG's XMP packet (`exif:GPSLatitude`, `exif:GPSLongitude`, … as
/// attributes or as elements; Lightroom and phones write them beside EXIF's), the rest of the packet
/// and every byte outside its segment as they were.
public enum XMPGPSRemoval {
    /// The JPEG with its XMP packet's GPS properties removed; nil when its packet has none.
    public static func removingGPS(fromJPEG data: Data) -> Data? {
        guard let payload = data.withUnsafeBytes({ raw in
            JPEGSegments.firstPayload(0xE1, in: raw.bindMemory(to: UInt8.self)) { $0.starts(with: XMPLocator.jpegHeader) }
        }) else { return nil }
        let start = data.startIndex + payload.lowerBound, end = data.startIndex + payload.upperBound
        let headerEnd = start + XMPLocator.jpegHeader.count
        guard let packet = String(validating: data[headerEnd..<end], as: UTF8.self), let cleaned = removingGPS(fromPacket: packet) else {
            return nil
        }
        let body = Data(XMPLocator.jpegHeader) + Data(cleaned.utf8)
        // The segment's length counts itself (2 bytes); the packet only shrinks, so it still fits.
        let length = body.count + 2
        var result = data
        result.replaceSubrange((start - 2)..<end, with: Data([UInt8(length >> 8), UInt8(length & 0xFF)]) + body)
        return result
    }

    /// `packet` without its GPS properties; nil when it has none.
    static func removingGPS(fromPacket packet: String) -> String? {
        let name = #"exif(?:EX)?:GPS[A-Za-z]*"#
        let patterns = [
            #"\s+"# + name + #"\s*=\s*"[^"]*""#,           // an attribute in double quotes
            #"\s+"# + name + #"\s*=\s*'[^']*'"#,           // … or in single quotes
            #"<("# + name + #")(\s[^>]*)?/>"#,             // an empty element
            #"<("# + name + #")(\s[^>]*)?>[\s\S]*?</\1\s*>"#, // an element and what it holds
        ]
        var text = packet
        for pattern in patterns {
            text = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        return text == packet ? nil : text
    }
}
