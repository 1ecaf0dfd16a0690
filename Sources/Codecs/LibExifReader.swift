import CEXIF
import Foundation
import Imaging

/// Reads EXIF with libexif into `ExifMetadata`. Every value is checked against its declared
/// format and size before use: the bytes come from untrusted files.
public struct LibExifReader: ExifReading, Sendable {
    public init() {}

    public func readExif(from data: Data) throws -> ExifMetadata? {
        var metadata = ExifLocator.exifBlock(in: data).flatMap(readExifBlock)
        // Without an EXIF orientation, XMP's (tiff:Orientation), as exiftool and digiKam read it.
        if metadata?.orientation == nil, let orientation = XMPLocator.orientation(in: data) {
            var found = metadata ?? ExifMetadata()
            found.orientation = orientation
            found.allTags["Derived.Orientation"] = "XMP.tiff:Orientation"
            metadata = found
        }
        if let legacy = LegacyJPEGMetadata.values(in: data) {
            var found = metadata ?? ExifMetadata()
            func fill<Value>(_ field: WritableKeyPath<ExifMetadata, Value?>, _ value: Value?, _ name: String) {
                guard found[keyPath: field] == nil, let value, let source = legacy.sources[name] else { return }
                found[keyPath: field] = value
                found.allTags["Derived.\(name)"] = source
            }
            fill(\.make, legacy.make, "Make")
            fill(\.model, legacy.model, "Model")
            fill(\.takenAt, legacy.takenAt.flatMap { ExifDateTime(exif: $0) }, "DateTimeOriginal")
            fill(\.exposureTime, legacy.exposureTime, "ExposureTime")
            fill(\.fNumber, legacy.fNumber, "FNumber")
            fill(\.focalLength, legacy.focalLength, "FocalLength")
            metadata = found
        }
        return metadata
    }

    public func xmpPacket(from data: Data) -> String? {
        XMPLocator.packet(in: data)
    }

    /// The photo's EXIF block with its orientation reset, small enough for a JPEG's APP1 segment: a block
    /// past 65,533 bytes (a HEIF's EXIF item, a TIFF's directories with long values) loses its thumbnail,
    /// then its values longer than a kilobyte (a maker note, a comment); nil when even that is too large.
    /// A variant made from such a photo failed every time for want of room for its EXIF.
    public func uprightExifBlock(from data: Data) -> Data? {
        guard let block = ExifLocator.exifBlock(in: data).map(ExifBlock.resettingOrientation) else { return nil }
        return block.count <= Self.largestSegmentBlock ? block : Self.shrinking(block)
    }

    /// The most an EXIF block may hold to fit in one APP1 segment.
    static let largestSegmentBlock = 65_533

    static func shrinking(_ block: Data) -> Data? {
        guard let exif = load(block) else { return nil }
        defer { exif_data_unref(exif) }
        // The thumbnail and its directory first: a picture of the photo the variant no longer is.
        if exif.pointee.data != nil {
            free(exif.pointee.data)
            exif.pointee.data = nil
            exif.pointee.size = 0
        }
        if let thumbnail = exif.pointee.ifd.1 {
            while thumbnail.pointee.count > 0, let entry = thumbnail.pointee.entries[0] { exif_content_remove_entry(thumbnail, entry) }
        }
        if let smaller = saved(exif), smaller.count <= largestSegmentBlock { return smaller }
        // Then every value longer than a kilobyte, in every directory.
        for content in [exif.pointee.ifd.0, exif.pointee.ifd.1, exif.pointee.ifd.2, exif.pointee.ifd.3, exif.pointee.ifd.4] {
            guard let content else { continue }
            var index = 0
            while index < Int(content.pointee.count) {
                if let entry = content.pointee.entries[index], entry.pointee.size > 1024 {
                    exif_content_remove_entry(content, entry)
                } else {
                    index += 1
                }
            }
        }
        guard let smallest = saved(exif), smallest.count <= largestSegmentBlock else { return nil }
        return smallest
    }

    /// The block with its GPS directory emptied (libexif writes no GPS pointer for an empty one), for
    /// exports that must not carry the place a photo was taken. nil when libexif cannot rewrite it.
    public func removingGPS(fromJPEG data: Data) -> Data? {
        // EXIF's GPS directory, then the XMP packet's GPS properties: either may hold the position.
        let withoutExif = ExifGPSRemoval.removingGPS(fromJPEG: data)
        let withoutXMP = XMPGPSRemoval.removingGPS(fromJPEG: withoutExif ?? data)
        return withoutXMP ?? withoutExif
    }

    public func removingGPS(from block: Data) -> Data? {
        guard let exif = Self.load(block) else { return nil }
        defer { exif_data_unref(exif) }
        if let gps = exif.pointee.ifd.3 {
            while gps.pointee.count > 0, let entry = gps.pointee.entries[0] { exif_content_remove_entry(gps, entry) }
        }
        return Self.saved(exif)
    }

    /// libexif's block of `exif` as it holds it now; nil when it writes nothing.
    static func saved(_ exif: UnsafeMutablePointer<ExifData>) -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(exif, &bytes, &size)
        guard let bytes, size > 0 else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }

    /// Parses an "Exif\0\0" block; nil when it holds no entries.
    public func readExifBlock(_ block: Data) -> ExifMetadata? {
        guard let exif = Self.load(block) else { return nil }
        defer { exif_data_unref(exif) }
        let contents = Self.contents(of: exif)
        guard contents.contains(where: { $0.content != nil && $0.content!.pointee.count > 0 }) else { return nil }
        let reader = EntryReader(order: exif_data_get_byte_order(exif), contents: contents, exif: exif)
        var metadata = reader.metadata()
        if metadata.iso == nil, metadata.make?.lowercased().hasPrefix("canon") == true, let iso = CanonMakerNote.autoISO(inBlock: block) {
            metadata.iso = iso
            metadata.allTags["Derived.ISO"] = "MakerNote.BaseISO×AutoISO"
        }
        return metadata
    }

    /// The maker-note entries, as libexif's readers name them, that hold the ISO a camera used, checked
    /// against exiftool on real files: Canon's "Shot ISO" and "ISO" (a number, or "Auto"), Casio's
    /// "CCSISOSensitivity". Other makers' "ISO" entries are codes (Pentax's 6 means ISO 100), not ISOs.
    static let makerNoteISONames = ["Shot ISO", "ISO", "CCSISOSensitivity"]

    /// The first of `makerNoteISONames` whose value is a positive number, with its name.
    static func makerNoteISO(_ exif: UnsafeMutablePointer<ExifData>, make: String?) -> (iso: Int, name: String)? {
        guard let notes = exif_data_get_mnote_data(exif) else { return nil }
        let names = make?.lowercased().hasPrefix("canon") == true ? makerNoteISONames : makerNoteISONames.filter { $0 != "ISO" }
        var values: [String: Int] = [:]
        var text = [CChar](repeating: 0, count: 64)
        for index in 0..<exif_mnote_data_count(notes) {
            guard let cName = exif_mnote_data_get_name(notes, index) else { continue }
            let name = String(cString: cName)
            guard names.contains(name), values[name] == nil,
                  exif_mnote_data_get_value(notes, index, &text, UInt32(text.count)) != nil else { continue }
            let value = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if let number = Double(value), number.isFinite, number >= 1, number < 1_000_000 { values[name] = Int(number.rounded()) }
        }
        return names.lazy.compactMap { name in values[name].map { ($0, name) } }.first
    }

    /// libexif's parse of an "Exif\0\0" block, which the caller unrefs; nil when it is too short or too long.
    static func load(_ block: Data) -> UnsafeMutablePointer<ExifData>? {
        guard block.count > ExifLocator.exifHeader.count, block.count <= Int(UInt32.max), let exif = exif_data_new() else {
            return nil
        }
        // Keep the file's own tags: no invented "mandatory" entries, no unknown tags dropped.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        block.withUnsafeBytes { raw in
            exif_data_load_data(exif, raw.bindMemory(to: UInt8.self).baseAddress, UInt32(raw.count))
        }
        return exif
    }

    static func contents(of exif: UnsafeMutablePointer<ExifData>) -> [(ifd: ExifIfd, content: UnsafeMutablePointer<ExifContent>?)] {
        let ifd = exif.pointee.ifd
        return [(EXIF_IFD_0, ifd.0), (EXIF_IFD_1, ifd.1), (EXIF_IFD_EXIF, ifd.2), (EXIF_IFD_GPS, ifd.3), (EXIF_IFD_INTEROPERABILITY, ifd.4)]
    }
}

/// Typed access to the entries of one parsed EXIF block.
private struct EntryReader {
    let order: ExifByteOrder
    let contents: [(ifd: ExifIfd, content: UnsafeMutablePointer<ExifContent>?)]
    /// The parsed block, for its maker note (read only when EXIF has no ISO).
    let exif: UnsafeMutablePointer<ExifData>

    func metadata() -> ExifMetadata {
        var metadata = ExifMetadata()
        var derived: [String: String] = [:]
        // Some cameras write Make and Model in the EXIF directory instead of IFD0.
        metadata.make = ascii(EXIF_IFD_0, 0x010F) ?? noted(ascii(EXIF_IFD_EXIF, 0x010F), "Make", "EXIF.Make", &derived)
        metadata.model = ascii(EXIF_IFD_0, 0x0110) ?? noted(ascii(EXIF_IFD_EXIF, 0x0110), "Model", "EXIF.Model", &derived)
        metadata.lens = ascii(EXIF_IFD_EXIF, 0xA434)
        // DateTimeOriginal only: IFD0's DateTime is when the file was last changed, not when the photo was taken.
        if let original = ascii(EXIF_IFD_EXIF, 0x9003) {
            metadata.takenAt = ExifDateTime(
                exif: original,
                subseconds: ascii(EXIF_IFD_EXIF, 0x9291),
                offset: ascii(EXIF_IFD_EXIF, 0x9011)
            )
        }
        // Without the direct values, the APEX ones: t = 2^−Tv (ShutterSpeedValue), N = 2^(Av/2) (ApertureValue).
        metadata.exposureTime = positive(rational(EXIF_IFD_EXIF, 0x829A))
            ?? noted(apex(0x9201).map { pow(2, -$0) }, "ExposureTime", "EXIF.ShutterSpeedValue", &derived)
        metadata.fNumber = positive(rational(EXIF_IFD_EXIF, 0x829D))
            ?? noted(apex(0x9202).map { (pow(2, $0 / 2) * 100).rounded() / 100 }, "FNumber", "EXIF.ApertureValue", &derived)
        metadata.focalLength = positive(rational(EXIF_IFD_EXIF, 0x920A))
        // ISOSpeedRatings; else EXIF 2.3's ISOSpeed, then RecommendedExposureIndex.
        metadata.iso = positiveInteger(EXIF_IFD_EXIF, 0x8827)
            ?? noted(positiveInteger(EXIF_IFD_EXIF, 0x8833), "ISO", "EXIF.ISOSpeed", &derived)
            ?? noted(positiveInteger(EXIF_IFD_EXIF, 0x8832), "ISO", "EXIF.RecommendedExposureIndex", &derived)
        if metadata.iso == nil, let note = LibExifReader.makerNoteISO(exif, make: metadata.make) {
            metadata.iso = noted(note.iso, "ISO", "MakerNote.\(note.name)", &derived)
        }
        if let value = integer(EXIF_IFD_0, 0x0112) { metadata.orientation = Orientation(rawValue: value) }
        metadata.gps = gps()
        metadata.allTags = allTags().merging(derived) { $1 }
        return metadata
    }

    /// `value`, noting in `derived` which tag it came from ("Derived.FNumber": "EXIF.ApertureValue").
    func noted<Value>(_ value: Value?, _ field: String, _ source: String, _ derived: inout [String: String]) -> Value? {
        if value != nil { derived["Derived.\(field)"] = source }
        return value
    }

    /// An APEX value, when it is finite and gives a value photographers use (t from 1/64000 to 2^20 s, N up to f/1024).
    func apex(_ tag: UInt32) -> Double? {
        guard let value = rational(EXIF_IFD_EXIF, tag), value.isFinite, (-20...20).contains(value) else { return nil }
        return value
    }

    func positiveInteger(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
        integer(ifd, tag).flatMap { $0 > 0 ? $0 : nil }
    }

    func entry(_ ifd: ExifIfd, _ tag: UInt32) -> ExifEntry? {
        guard let content = contents.first(where: { $0.ifd == ifd })?.content,
              let entry = exif_content_get_entry(content, ExifTag(rawValue: tag)),
              entry.pointee.data != nil
        else { return nil }
        return entry.pointee
    }

    /// The bytes of component `index`, when the entry has that format and really holds that many bytes.
    func component(_ entry: ExifEntry, _ formats: [ExifFormat], index: Int) -> UnsafeMutablePointer<UInt8>? {
        guard formats.contains(entry.format), index < Int(entry.components) else { return nil }
        let size = Int(exif_format_get_size(entry.format))
        guard size > 0, (index + 1) * size <= Int(entry.size) else { return nil }
        return entry.data + index * size
    }

    func ascii(_ ifd: ExifIfd, _ tag: UInt32) -> String? {
        guard let entry = entry(ifd, tag), entry.format == EXIF_FORMAT_ASCII || entry.format == EXIF_FORMAT_UNDEFINED else {
            return nil
        }
        let bytes = UnsafeBufferPointer(start: entry.data, count: Int(entry.size))
        return ExifText.clean(bytes.prefix { $0 != 0 })
    }

    func rational(_ ifd: ExifIfd, _ tag: UInt32, index: Int = 0) -> Double? {
        guard let entry = entry(ifd, tag) else { return nil }
        if let bytes = component(entry, [EXIF_FORMAT_RATIONAL], index: index) {
            let value = exif_get_rational(bytes, order)
            guard value.denominator != 0 else { return nil }
            return Double(value.numerator) / Double(value.denominator)
        }
        if let bytes = component(entry, [EXIF_FORMAT_SRATIONAL], index: index) {
            let value = exif_get_srational(bytes, order)
            guard value.denominator != 0 else { return nil }
            return Double(value.numerator) / Double(value.denominator)
        }
        return nil
    }

    func integer(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
        guard let entry = entry(ifd, tag) else { return nil }
        if let bytes = component(entry, [EXIF_FORMAT_SHORT], index: 0) { return Int(exif_get_short(bytes, order)) }
        if let bytes = component(entry, [EXIF_FORMAT_LONG], index: 0) { return Int(exif_get_long(bytes, order)) }
        if let bytes = component(entry, [EXIF_FORMAT_BYTE], index: 0) { return Int(bytes.pointee) }
        return nil
    }

    func positive(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// Degrees, minutes and seconds to signed decimal degrees.
    func coordinate(_ valueTag: UInt32, _ referenceTag: UInt32, negative: String, limit: Double) -> Double? {
        guard let degrees = rational(EXIF_IFD_GPS, valueTag, index: 0) else { return nil }
        let minutes = rational(EXIF_IFD_GPS, valueTag, index: 1) ?? 0
        let seconds = rational(EXIF_IFD_GPS, valueTag, index: 2) ?? 0
        var value = degrees + minutes / 60 + seconds / 3600
        guard value.isFinite, value <= limit else { return nil }
        if ascii(EXIF_IFD_GPS, referenceTag)?.uppercased() == negative { value = -value }
        return value
    }

    func gps() -> GPSPosition? {
        guard let latitude = coordinate(0x0002, 0x0001, negative: "S", limit: 90),
              let longitude = coordinate(0x0004, 0x0003, negative: "W", limit: 180)
        else { return nil }
        var altitude = rational(EXIF_IFD_GPS, 0x0006)
        if let value = altitude, let entry = entry(EXIF_IFD_GPS, 0x0005),
           let reference = component(entry, [EXIF_FORMAT_BYTE, EXIF_FORMAT_UNDEFINED], index: 0), reference.pointee == 1 {
            altitude = -value
        }
        return GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    static let ifdNames: [UInt32: String] = [
        EXIF_IFD_0.rawValue: "IFD0", EXIF_IFD_1.rawValue: "IFD1", EXIF_IFD_EXIF.rawValue: "EXIF",
        EXIF_IFD_GPS.rawValue: "GPS", EXIF_IFD_INTEROPERABILITY.rawValue: "Interop",
    ]

    func allTags() -> [String: String] {
        var tags: [String: String] = [:]
        var buffer = [CChar](repeating: 0, count: 1024)
        for (ifd, content) in contents {
            guard let content else { continue }
            let prefix = Self.ifdNames[ifd.rawValue] ?? "IFD"
            for index in 0..<Int(content.pointee.count) {
                guard let entry = content.pointee.entries[index] else { continue }
                let tag = entry.pointee.tag
                let name = exif_tag_get_name_in_ifd(tag, ifd).map { String(cString: $0) }
                    ?? "0x" + String(tag.rawValue, radix: 16, uppercase: true)
                buffer[0] = 0
                exif_entry_get_value(entry, &buffer, UInt32(buffer.count))
                let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                tags["\(prefix).\(name)"] = ExifText.clean(bytes) ?? ""
            }
        }
        return tags
    }
}

/// Text from EXIF is untrusted: invalid UTF-8 is replaced, control characters (Unicode categories
/// Cc and Cf) dropped, blanks (category Zs) trimmed.
enum ExifText {
    static func clean<Bytes: Sequence>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        // Nearly every tag is printable ASCII: only its spaces need trimming. (Foundation's
        // character sets took a twentieth of an import's own work.)
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else {
                return nil
            }
            return String(decoding: bytes[first...last], as: UTF8.self)
        }
        var printable = String(decoding: bytes, as: UTF8.self).unicodeScalars.filter {
            let category = $0.properties.generalCategory
            return category != .control && category != .format
        }
        while let first = printable.first, first.properties.generalCategory == .spaceSeparator { printable.removeFirst() }
        while let last = printable.last, last.properties.generalCategory == .spaceSeparator { printable.removeLast() }
        return printable.isEmpty ? nil : String(printable)
    }
}
