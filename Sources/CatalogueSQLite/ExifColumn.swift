import Catalogue
import Foundation
import GRDB
import Imaging

/// The columns of `exif` and how each holds a field of `ExifMetadata`: the one list of EXIF fields
/// in the catalogue, from which the insert, the select and the reading of a row are made.
enum ExifColumn: String, CaseIterable {
    case make, model, lens
    case takenAt = "taken_at"
    case exposureTime = "exposure_time"
    case fNumber = "f_number"
    case iso
    case focalLength = "focal_length"
    case orientation
    case gpsLatitude = "gps_latitude"
    case gpsLongitude = "gps_longitude"
    case gpsAltitude = "gps_altitude"
    case allTags = "all_tags"

    /// "make, model, …" with each name prefixed by `table.` when given.
    static func list(prefix table: String? = nil) -> String {
        allCases.map { column in table.map { "\($0).\(column.rawValue)" } ?? column.rawValue }.joined(separator: ", ")
    }

    /// What this column stores for `exif`.
    func value(of exif: ExifMetadata) -> DatabaseValueConvertible? {
        switch self {
        case .make: exif.make
        case .model: exif.model
        case .lens: exif.lens
        case .takenAt: exif.takenAt?.iso8601
        case .exposureTime: exif.exposureTime
        case .fNumber: exif.fNumber
        case .iso: exif.iso
        case .focalLength: exif.focalLength
        case .orientation: exif.orientation?.rawValue
        case .gpsLatitude: exif.gps?.latitude
        case .gpsLongitude: exif.gps?.longitude
        case .gpsAltitude: exif.gps?.altitude
        case .allTags: Self.json(exif.allTags)
        }
    }

    /// Sets the field this column holds from `row`; a row whose tags are not the JSON object written is corrupt.
    func read(_ row: Row, into exif: inout ExifMetadata) throws {
        switch self {
        case .make: exif.make = row[rawValue]
        case .model: exif.model = row[rawValue]
        case .lens: exif.lens = row[rawValue]
        case .takenAt: exif.takenAt = (row[rawValue] as String?).flatMap(ExifDateTime.init(iso8601:))
        case .exposureTime: exif.exposureTime = row[rawValue]
        case .fNumber: exif.fNumber = row[rawValue]
        case .iso: exif.iso = row[rawValue]
        case .focalLength: exif.focalLength = row[rawValue]
        case .orientation: exif.orientation = (row[rawValue] as Int?).flatMap(Orientation.init(rawValue:))
        // A position needs both coordinates: read once, with the latitude.
        case .gpsLatitude:
            exif.gps = (row[rawValue] as Double?).flatMap { latitude in
                (row[Self.gpsLongitude.rawValue] as Double?).map {
                    GPSPosition(latitude: latitude, longitude: $0, altitude: row[Self.gpsAltitude.rawValue])
                }
            }
        case .gpsLongitude, .gpsAltitude: break
        case .allTags:
            guard let tags = try? JSONDecoder().decode([String: String].self, from: Data((row[rawValue] as String? ?? "{}").utf8))
            else { throw CatalogueError.corruptRow(table: "exif", reason: "tags that are not a JSON object of strings") }
            exif.allTags = tags
        }
    }

    /// The EXIF metadata a row holds in these columns.
    static func metadata(from row: Row) throws -> ExifMetadata {
        var exif = ExifMetadata()
        for column in allCases { try column.read(row, into: &exif) }
        return exif
    }

    /// A flat object of strings as JSON, keys sorted by their UTF-8 bytes. Written here, byte by
    /// byte, as Foundation's encoders are slow for it (Docs/Performance.md); JSONDecoder reads it back.
    static func json(_ object: [String: String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        func append(quoted text: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
                case 0..<0x20: bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                // Multi-byte UTF-8 sequences (all bytes ≥ 0x80) pass through whole.
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        for (index, key) in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(quoted: key)
            bytes.append(UInt8(ascii: ":"))
            append(quoted: object[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension ExifDateTime {
    /// Reads back what `iso8601` wrote: "2008-05-30T15:56:01.25+02:00".
    init?(iso8601 text: String) {
        guard text.count >= 19 else { return nil }
        let base = String(text.prefix(19))
        var rest = text.dropFirst(19)
        var subseconds: String?
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            subseconds = String(digits)
            rest = rest.dropFirst(1 + digits.count)
        }
        self.init(exif: base, subseconds: subseconds, offset: rest.isEmpty ? nil : String(rest))
    }
}
