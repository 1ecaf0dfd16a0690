import Foundation
import Imaging

/// Edits an "Exif\0\0" block in place, byte for byte, so that everything else the camera wrote survives.
public enum ExifBlock {
    /// The block with IFD0's orientation set to 1 (upright), for pixels that have already been turned.
    /// A block without an orientation tag, or one too damaged to walk, comes back unchanged.
    public static func resettingOrientation(_ block: Data) -> Data {
        guard let field = orientationField(in: block) else { return block }
        var bytes = [UInt8](block)
        bytes[field.offset] = field.littleEndian ? 1 : 0
        bytes[field.offset + 1] = field.littleEndian ? 0 : 1
        return Data(bytes)
    }

    /// IFD0's orientation, read without libexif (it is needed on every upright decode).
    public static func orientation(_ block: Data) -> Orientation? {
        guard let field = orientationField(in: block) else { return nil }
        let bytes = [UInt8](block[(block.startIndex + field.offset)...].prefix(2))
        let value = field.littleEndian ? Int(bytes[0]) | Int(bytes[1]) << 8 : Int(bytes[0]) << 8 | Int(bytes[1])
        return Orientation(rawValue: value)
    }

    /// Where IFD0's orientation value sits in `block`, and the block's byte order.
    static func orientationField(in block: Data) -> (offset: Int, littleEndian: Bool)? {
        let bytes = [UInt8](block)
        let tiff = ExifLocator.exifHeader.count
        guard bytes.count >= tiff + 8, bytes.starts(with: ExifLocator.exifHeader) else { return nil }
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func read32(_ at: Int) -> Int? {
            guard let high = read16(little ? at + 2 : at), let low = read16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard let ifd0 = read32(tiff + 4).map({ tiff + $0 }), let count = read16(ifd0) else { return nil }
        for index in 0..<count {
            let entry = ifd0 + 2 + index * 12
            guard let tag = read16(entry), let type = read16(entry + 2), let components = read32(entry + 4) else { return nil }
            // SHORT, one component: the value sits in the first two bytes of the value field.
            if tag == 0x0112, type == 3, components == 1, entry + 10 <= bytes.count {
                return (entry + 8, little)
            }
        }
        return nil
    }
}
