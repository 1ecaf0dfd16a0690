import Foundation

/// The marker segments of a JPEG before its image data, walked without decoding.
enum JPEGSegments {
    /// The payload of the first segment with `marker` (0xE0 for APP0, …) that `matches` accepts.
    static func first(_ marker: UInt8, in data: Data, where matches: (Data) -> Bool) -> Data? {
        var offset = data.startIndex + 2
        while offset + 4 <= data.endIndex {
            guard data[offset] == 0xFF else { return nil }
            let current = data[offset + 1]
            if current == 0xFF { offset += 1; continue } // fill byte
            if current == 0xD8 || (0xD0...0xD7).contains(current) || current == 0x01 { offset += 2; continue }
            if current == 0xDA || current == 0xD9 { return nil } // start of scan, end of image
            let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            guard length >= 2, offset + 2 + length <= data.endIndex else { return nil }
            let payload = data[(offset + 4)..<(offset + 2 + length)]
            if current == marker, matches(payload) { return Data(payload) }
            offset += 2 + length
        }
        return nil
    }
}
