import Foundation

/// The EXIF block of a TIFF photo. A TIFF file is itself the structure an EXIF block holds, but its
/// directories may lie anywhere in a file of any size, where libexif reads at most 64 KB, and its
/// first directory also describes the pixels (strips, samples, compression). So the block is made
/// anew: IFD0's descriptive tags (make, model, orientation, dates, …), and the EXIF and GPS
/// directories whole, each value copied as stored, in the file's byte order.
enum TIFFExif {
    /// IFD0 tags that describe the photo rather than its pixels.
    static let descriptiveTags: Set<UInt16> = [
        0x010E, 0x010F, 0x0110, 0x0112, 0x011A, 0x011B, 0x0128, 0x0131, 0x0132, 0x013B, 0x013E, 0x013F, 0x8298,
    ]
    static let exifPointer: UInt16 = 0x8769
    static let gpsPointer: UInt16 = 0x8825
    /// Left out of the EXIF directory: a maker note's offsets would point nowhere once moved, and the
    /// interoperability pointer to a directory not copied.
    static let leftOutOfExif: Set<UInt16> = [0x927C, 0xA005]
    /// The most entries a directory is read with, and the largest value copied.
    static let maximumEntries = 512
    static let maximumValueBytes = 4096

    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// "Exif\0\0" and a TIFF structure holding the photo's descriptive directories, or nil when the
    /// file is not a classic TIFF or has none.
    static func exifBlock(in data: Data) -> Data? {
        withReader(of: data) { reader, ifd0Offset -> Data? in
            let ifd0 = reader.directory(at: ifd0Offset)
            var top = ifd0.filter { descriptiveTags.contains($0.tag) }
            let exif = ifd0.first { $0.tag == exifPointer }.flatMap(reader.pointer).map { reader.directory(at: $0) }?
                .filter { !leftOutOfExif.contains($0.tag) } ?? []
            let gps = ifd0.first { $0.tag == gpsPointer }.flatMap(reader.pointer).map { reader.directory(at: $0) } ?? []
            guard !top.isEmpty || !exif.isEmpty || !gps.isEmpty else { return nil }
            let writer = Writer(little: reader.little)
            if !exif.isEmpty { top.append(Entry(tag: exifPointer, type: 4, count: 1, value: writer.u32(0))) }
            if !gps.isEmpty { top.append(Entry(tag: gpsPointer, type: 4, count: 1, value: writer.u32(0))) }
            return Data(ExifLocator.exifHeader) + Data(writer.tiff([top, exif, gps]))
        }
    }

    /// The bytes of IFD0's entry `tag` (XMP is tag 700), up to `XMPLocator.maximumLength`; nil when absent.
    static func value(ofIFD0Tag tag: UInt16, in data: Data) -> Data? {
        withReader(of: data) { reader, ifd0Offset in
            reader.directory(at: ifd0Offset, maximumValueBytes: XMPLocator.maximumLength).first { $0.tag == tag }.map { Data($0.value) }
        }
    }

    /// Calls `body` with a reader of the classic TIFF in `data` and the offset of its IFD0.
    static func withReader<Result>(of data: Data, _ body: (Reader, Int) -> Result?) -> Result? {
        let bytes = [UInt8](data.prefix(8))
        guard bytes.count == 8 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        return data.withUnsafeBytes { raw -> Result? in
            let reader = Reader(bytes: raw.bindMemory(to: UInt8.self), little: little)
            guard reader.u16(2) == 42, let ifd0Offset = reader.u32(4) else { return nil }
            return body(reader, Int(ifd0Offset))
        }
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let little: Bool

        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }

        func u32(_ offset: Int) -> UInt32? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }

        /// The offset a LONG (or IFD) entry holds.
        func pointer(_ entry: Entry) -> Int? {
            guard entry.count == 1, entry.type == 4 || entry.type == 13, entry.value.count == 4 else { return nil }
            let value = entry.value.map(UInt32.init)
            return Int(little ? value[0] | value[1] << 8 | value[2] << 16 | value[3] << 24
                              : value[0] << 24 | value[1] << 16 | value[2] << 8 | value[3])
        }

        /// One entry of a directory as written: its value's length, and where it lies.
        struct Field {
            var tag: UInt16
            var type: UInt16
            var count: UInt32
            var length: Int
            /// Where the entry is; its value is in its last four bytes when `length` ≤ 4.
            var base: Int
            /// The offset field: where a longer value lies (nil when the value is in the entry).
            var pointer: Int?
        }

        /// The entries of the directory at `offset`, of known types and lengths; none when the
        /// directory does not fit in the file.
        func fields(at offset: Int) -> [Field] {
            guard let count = u16(offset), count > 0, Int(count) <= TIFFExif.maximumEntries,
                  offset + 2 + Int(count) * 12 <= bytes.count else { return [] }
            return (0..<Int(count)).compactMap { index -> Field? in
                let base = offset + 2 + index * 12
                guard let tag = u16(base), let type = u16(base + 2), let count = u32(base + 4),
                      let unit = TIFFExif.typeSizes[type] else { return nil }
                let (length, overflow) = Int(count).multipliedReportingOverflow(by: unit)
                guard !overflow, length > 0 else { return nil }
                return Field(tag: tag, type: type, count: count, length: length, base: base,
                             pointer: length > 4 ? u32(base + 8).map(Int.init) : nil)
            }
        }

        /// The offset fields of the directory at `offset` whose values are longer than four bytes.
        func outOfLineOffsets(inDirectoryAt offset: Int) -> [Int] {
            fields(at: offset).compactMap(\.pointer)
        }

        /// Where the value of the entry `tag` of the directory at `offset` lies (its offset field),
        /// when that value is longer than four bytes; nil otherwise.
        func valueOffset(ofTag tag: UInt16, inDirectoryAt offset: Int) -> Int? {
            fields(at: offset).first { $0.tag == tag }?.pointer.flatMap { $0 < bytes.count ? $0 : nil }
        }

        /// The entries of the directory at `offset` whose values lie within the file, each with its
        /// value's bytes; none when the directory itself does not.
        /// - Parameter shift: added to every value's offset, for a maker note that was moved without
        ///   its offsets being changed.
        func directory(at offset: Int, maximumValueBytes: Int = TIFFExif.maximumValueBytes, shift: Int = 0) -> [Entry] {
            fields(at: offset).compactMap { field -> Entry? in
                guard field.length <= maximumValueBytes else { return nil }
                let start: Int
                if let pointer = field.pointer {
                    guard pointer + shift >= 0 else { return nil }
                    start = pointer + shift
                } else if field.length <= 4 {
                    start = field.base + 8
                } else {
                    return nil
                }
                guard start + field.length <= bytes.count else { return nil }
                return Entry(tag: field.tag, type: field.type, count: field.count, value: Array(bytes[start..<start + field.length]))
            }
        }
    }

    /// Bytes per value of each TIFF field type.
    static let typeSizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    private struct Writer {
        let little: Bool

        func u16(_ value: UInt16) -> [UInt8] {
            little ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
        }

        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
            return little ? bytes : bytes.reversed()
        }

        /// A TIFF structure of IFD0 and its EXIF and GPS directories (`directories[1]`, `[2]`).
        func tiff(_ directories: [[Entry]]) -> [UInt8] {
            let sorted = directories.map { $0.sorted { $0.tag < $1.tag } }
            var offsets: [Int] = []
            var cursor = 8
            for entries in sorted {
                offsets.append(cursor)
                cursor += entries.isEmpty ? 0 : 2 + 12 * entries.count + 4
            }
            let dataStart = cursor
            var data: [UInt8] = []
            var tiff = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
            for (index, entries) in sorted.enumerated() where !entries.isEmpty {
                tiff += u16(UInt16(entries.count))
                for var entry in entries {
                    if index == 0, entry.tag == TIFFExif.exifPointer { entry.value = u32(UInt32(offsets[1])) }
                    if index == 0, entry.tag == TIFFExif.gpsPointer { entry.value = u32(UInt32(offsets[2])) }
                    tiff += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                    if entry.value.count <= 4 {
                        tiff += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                    } else {
                        tiff += u32(UInt32(dataStart + data.count))
                        data += entry.value
                        if data.count % 2 == 1 { data.append(0) }
                    }
                }
                tiff += u32(0)
            }
            return tiff + data
        }
    }
}
