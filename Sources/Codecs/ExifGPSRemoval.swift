import Foundation

/// Removes the GPS position from a JPEG without touching its image data: in the EXIF block, the
/// GPS directory and the values it points to are overwritten with zeros and IFD0's pointer to it
/// is taken out (the entries after it move up). The block keeps its length, so every other offset
/// in it stays valid, and every byte outside it is the file's own.
public enum ExifGPSRemoval {
    static let gpsPointerTag: UInt16 = 0x8825

    /// The JPEG without its GPS data; nil when it has no EXIF GPS directory to remove (or the EXIF
    /// block is too damaged to change safely).
    public static func removingGPS(fromJPEG data: Data) -> Data? {
        guard let segment = ExifLocator.jpegExifRange(in: data) else { return nil }
        var block = [UInt8](data[segment])
        guard removeGPS(fromBlock: &block) else { return nil }
        var result = data
        result.replaceSubrange(segment, with: block)
        return result
    }

    /// Removes the GPS directory from an "Exif\0\0" block in place; false when there is none.
    static func removeGPS(fromBlock block: inout [UInt8]) -> Bool {
        let base = ExifLocator.exifHeader.count
        guard block.count >= base + 8 else { return false }
        var tiff = TIFFView(bytes: block, base: base)
        guard let bigEndian = tiff.byteOrder else { return false }
        tiff.bigEndian = bigEndian
        guard tiff.u16(2) == 42 else { return false }
        guard let ifd0 = tiff.u32(4).map(Int.init), let count = tiff.u16(ifd0).map(Int.init),
              tiff.contains(ifd0, 2 + 12 * count + 4) else { return false }
        guard let index = (0..<count).first(where: { tiff.u16(ifd0 + 2 + 12 * $0) == gpsPointerTag }),
              let gps = tiff.u32(ifd0 + 2 + 12 * index + 8).map(Int.init) else { return false }

        // Zero the GPS directory's out-of-line values, then the directory itself.
        var zeroed: [Range<Int>] = []
        if let gpsCount = tiff.u16(gps).map(Int.init), tiff.contains(gps, 2 + 12 * gpsCount + 4) {
            for entry in 0..<gpsCount {
                let at = gps + 2 + 12 * entry
                guard let type = tiff.u16(at + 2), let items = tiff.u32(at + 4), let size = TIFFView.typeSize[type] else { continue }
                let length = Int(items) * size
                if length > 4, let offset = tiff.u32(at + 8).map(Int.init), tiff.contains(offset, length) {
                    zeroed.append(offset..<(offset + length))
                }
            }
            zeroed.append(gps..<(gps + 2 + 12 * gpsCount + 4))
        }
        for range in zeroed { for offset in range { block[base + offset] = 0 } }

        // IFD0 without the pointer: later entries and the next-IFD offset move up 12 bytes.
        let entry = base + ifd0 + 2 + 12 * index
        let end = base + ifd0 + 2 + 12 * count + 4
        block.replaceSubrange(entry..<end, with: block[(entry + 12)..<end] + [UInt8](repeating: 0, count: 12))
        let newCount = UInt16(count - 1)
        let countBytes: [UInt8] = bigEndian ? [UInt8(newCount >> 8), UInt8(newCount & 0xFF)] : [UInt8(newCount & 0xFF), UInt8(newCount >> 8)]
        block.replaceSubrange((base + ifd0)..<(base + ifd0 + 2), with: countBytes)
        return true
    }

    /// Reads the TIFF structure inside an EXIF block, bounds-checked.
    struct TIFFView {
        let bytes: [UInt8]
        let base: Int
        var bigEndian = false

        /// Bytes per value of each TIFF type (BYTE, ASCII, SHORT, LONG, RATIONAL, …).
        static let typeSize: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]

        var byteOrder: Bool? {
            switch (bytes[base], bytes[base + 1]) {
            case (0x49, 0x49): return false
            case (0x4D, 0x4D): return true
            default: return nil
            }
        }

        func contains(_ offset: Int, _ length: Int) -> Bool {
            offset >= 8 && length >= 0 && base + offset + length <= bytes.count
        }

        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, base + offset + 2 <= bytes.count else { return nil }
            let a = UInt16(bytes[base + offset]), b = UInt16(bytes[base + offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func u32(_ offset: Int) -> UInt32? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
        }
    }
}
