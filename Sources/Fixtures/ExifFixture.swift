import Foundation

/// Builds an "Exif\0\0" block (TIFF header, IFD0, EXIF and GPS IFDs) with chosen entries, so tests
/// can write known values — or hostile ones — into a JPEG and read them back.
public struct ExifFixture {
    public enum ByteOrder { case little, big }

    /// One TIFF entry; `value` holds its bytes in `ExifFixture`'s byte order.
    public struct Entry {
        public var tag: UInt16
        public var type: UInt16
        public var count: UInt32
        public var value: [UInt8]

        /// An entry as given, true or not: `value` of up to four bytes is written in place, where
        /// the reader takes it for an offset when the count says the value is longer.
        public init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
        }
    }

    public var byteOrder: ByteOrder
    public var ifd0: [Entry] = []
    public var exif: [Entry] = []
    public var gps: [Entry] = []

    public init(byteOrder: ByteOrder = .little) {
        self.byteOrder = byteOrder
    }

    // MARK: Entry builders

    public func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    /// Raw bytes as an ASCII entry, for strings without terminators or with invalid UTF-8.
    public func asciiBytes(_ tag: UInt16, _ bytes: [UInt8]) -> Entry {
        Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    /// An UNDEFINED entry holding `bytes` (a maker note).
    public func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Entry {
        Entry(tag: tag, type: 7, count: UInt32(bytes.count), value: bytes)
    }

    /// A maker note as Casio (header "QVC\0\0\0") and Pentax ("AOC\0" and the byte order) write it:
    /// the header, then a directory of SHORT entries held inline, in this fixture's byte order.
    public func makerNote(header: [UInt8], shorts: [(tag: UInt16, value: UInt16)]) -> Entry {
        var bytes = header + u16(UInt16(shorts.count))
        for entry in shorts { bytes += u16(entry.tag) + u16(3) + u32(1) + u16(entry.value) + [0, 0] }
        return undefined(0x927C, bytes + [0, 0, 0, 0])
    }

    public func byte(_ tag: UInt16, _ value: UInt8) -> Entry {
        Entry(tag: tag, type: 1, count: 1, value: [value])
    }

    public func short(_ tag: UInt16, _ value: UInt16) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: u16(value))
    }

    public func long(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: u32(value))
    }

    public func shorts(_ tag: UInt16, _ values: [UInt16]) -> Entry {
        Entry(tag: tag, type: 3, count: UInt32(values.count), value: values.flatMap(u16))
    }

    public func longs(_ tag: UInt16, _ values: [UInt32]) -> Entry {
        Entry(tag: tag, type: 4, count: UInt32(values.count), value: values.flatMap(u32))
    }

    public func rational(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    public func signedRational(_ tag: UInt16, _ values: [(Int32, Int32)]) -> Entry {
        Entry(tag: tag, type: 10, count: UInt32(values.count),
              value: values.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) })
    }

    public func u16(_ value: UInt16) -> [UInt8] {
        byteOrder == .little ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    public func u32(_ value: UInt32) -> [UInt8] {
        let little = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        return byteOrder == .little ? little : little.reversed()
    }

    // MARK: Encoding

    /// What `encoded()` starts with, before the TIFF structure.
    public static let header: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// "Exif\0\0" followed by the TIFF structure.
    public func encoded() -> Data {
        var ifd0 = self.ifd0
        let exifPointer = !exif.isEmpty, gpsPointer = !gps.isEmpty
        if exifPointer { ifd0.append(long(0x8769, 0)) }
        if gpsPointer { ifd0.append(long(0x8825, 0)) }
        let directories = [ifd0, exif, gps].map { $0.sorted { $0.tag < $1.tag } }
        func directorySize(_ entries: [Entry]) -> Int { entries.isEmpty ? 0 : 2 + 12 * entries.count + 4 }
        var directoryOffsets: [Int] = []
        var cursor = 8
        for entries in directories {
            directoryOffsets.append(cursor)
            cursor += directorySize(entries)
        }
        var dataArea: [UInt8] = []
        let dataStart = cursor
        var tiff: [UInt8] = byteOrder == .little ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8)
        for (index, entries) in directories.enumerated() where !entries.isEmpty {
            tiff += u16(UInt16(entries.count))
            for var entry in entries {
                if entry.tag == 0x8769 { entry.value = u32(UInt32(directoryOffsets[1])) }
                if entry.tag == 0x8825, index == 0 { entry.value = u32(UInt32(directoryOffsets[2])) }
                tiff += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if entry.value.count <= 4 {
                    tiff += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    tiff += u32(UInt32(dataStart + dataArea.count))
                    dataArea += entry.value
                    if dataArea.count % 2 == 1 { dataArea.append(0) } // word alignment
                }
            }
            tiff += u32(0) // no next IFD
        }
        return Data(Self.header + tiff + dataArea)
    }
}

extension ExifFixture {
    /// A camera photo's usual tags with known values: see the test that reads them back.
    public static func camera(byteOrder: ByteOrder = .little) -> ExifFixture {
        var fixture = ExifFixture(byteOrder: byteOrder)
        fixture.ifd0 = [
            fixture.ascii(0x010F, "Fixture Optics"),
            fixture.ascii(0x0110, "FX-100"),
            fixture.short(0x0112, 6),
            fixture.ascii(0x0132, "2020:01:01 00:00:00"),
        ]
        fixture.exif = [
            fixture.rational(0x829A, [(1, 250)]),
            fixture.rational(0x829D, [(28, 10)]),
            fixture.short(0x8827, 400),
            fixture.ascii(0x9003, "2021:06:15 14:30:05"),
            fixture.ascii(0x9011, "+02:00"),
            fixture.ascii(0x9291, "25"),
            fixture.rational(0x920A, [(350, 10)]),
            fixture.ascii(0xA434, "Fixture 35mm F2.8"),
        ]
        fixture.gps = [
            fixture.ascii(0x0001, "S"),
            fixture.rational(0x0002, [(33, 1), (51, 1), (3600, 100)]),
            fixture.ascii(0x0003, "E"),
            fixture.rational(0x0004, [(151, 1), (12, 1), (3000, 100)]),
            fixture.byte(0x0005, 1),
            fixture.rational(0x0006, [(125, 10)]),
        ]
        return fixture
    }
}
