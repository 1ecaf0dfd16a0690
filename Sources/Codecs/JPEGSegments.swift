import Foundation

/// The marker segments of a JPEG before its image data, walked in place without decoding: the one
/// walker for the EXIF block, the XMP packet and the segments of cameras from before EXIF.
enum JPEGSegments {
    /// Where the payload of the first segment with `marker` (0xE0 for APP0, …) that `matches`
    /// accepts is, as offsets into `bytes`.
    static func firstPayload(_ marker: UInt8, in bytes: UnsafeBufferPointer<UInt8>,
                             where matches: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool) -> Range<Int>? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let current = bytes[offset + 1]
            if current == 0xFF { offset += 1; continue } // fill byte
            if current == 0xD8 || (0xD0...0xD7).contains(current) || current == 0x01 { offset += 2; continue }
            if current == 0xDA || current == 0xD9 { return nil } // start of scan, end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let payload = (offset + 4)..<(offset + 2 + length)
            if current == marker, matches(bytes[payload]) { return payload }
            offset += 2 + length
        }
        return nil
    }

    /// The payload of the first segment with `marker` that `matches` accepts, copied.
    static func first(_ marker: UInt8, in data: Data, where matches: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool) -> Data? {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return firstPayload(marker, in: bytes, where: matches).map { Data(bytes[$0]) }
        }
    }
}
