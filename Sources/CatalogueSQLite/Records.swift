import Catalogue
import Foundation
import GRDB
import Imaging

/// Column names are snake_case in SQL and camelCase in Swift.
protocol SnakeCaseRecord: Codable, FetchableRecord, PersistableRecord {}

extension SnakeCaseRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

/// A row of `photo`.
struct PhotoRecord: SnakeCaseRecord {
    static let databaseTableName = "photo"
    var id: Int64?
    var path: String
    var sha256: String
    var fileSize: Int64
    var modifiedAtNs: Int64
    var format: String
    var width: Int
    var height: Int
    var importedAt: Date
}

/// A row of `duplicate_path`.
struct DuplicatePathRecord: SnakeCaseRecord {
    static let databaseTableName = "duplicate_path"
    var id: Int64?
    var photoId: Int64
    var path: String
    var fileSize: Int64
    var modifiedAtNs: Int64
    var notedAt: Date
}

/// A row of `exif`.
struct ExifRecord: SnakeCaseRecord {
    static let databaseTableName = "exif"
    var photoId: Int64
    var make: String?
    var model: String?
    var lens: String?
    var takenAt: String?
    var exposureTime: Double?
    var fNumber: Double?
    var iso: Int?
    var focalLength: Double?
    var orientation: Int?
    var gpsLatitude: Double?
    var gpsLongitude: Double?
    var gpsAltitude: Double?
    var allTags: String

    init(photoId: Int64, exif: ExifMetadata) {
        self.photoId = photoId
        make = exif.make
        model = exif.model
        lens = exif.lens
        takenAt = exif.takenAt?.iso8601
        exposureTime = exif.exposureTime
        fNumber = exif.fNumber
        iso = exif.iso
        focalLength = exif.focalLength
        orientation = exif.orientation?.rawValue
        gpsLatitude = exif.gps?.latitude
        gpsLongitude = exif.gps?.longitude
        gpsAltitude = exif.gps?.altitude
        allTags = Self.json(exif.allTags)
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

    /// The EXIF metadata this row holds; a row whose tags are not the JSON object written is corrupt.
    func metadata() throws -> ExifMetadata {
        guard let tags = try? JSONDecoder().decode([String: String].self, from: Data(allTags.utf8)) else {
            throw CatalogueError.corruptRow(table: "exif", reason: "tags that are not a JSON object of strings")
        }
        return ExifMetadata(
            make: make, model: model, lens: lens,
            takenAt: takenAt.flatMap(ExifDateTime.init(iso8601:)),
            exposureTime: exposureTime, fNumber: fNumber, iso: iso, focalLength: focalLength,
            orientation: orientation.flatMap(Orientation.init(rawValue:)),
            gps: gpsLatitude.flatMap { latitude in
                gpsLongitude.map { GPSPosition(latitude: latitude, longitude: $0, altitude: gpsAltitude) }
            },
            allTags: tags
        )
    }
}

/// A row of `import_failure`.
struct ImportFailureRecord: SnakeCaseRecord {
    static let databaseTableName = "import_failure"
    var path: String
    var reason: String
    var failedAt: Date
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
