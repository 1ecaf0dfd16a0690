import Foundation
import Imaging

/// What cameras from before EXIF was common wrote in other JPEG segments, read where EXIF lacks a
/// value, as exiftool reads them: Canon's CIFF heap in APP0 (the PowerShot A5 and its kin: make,
/// model, date, focal length) and the "[picture info]" text of Olympus, Sanyo and Fuji compacts in
/// APP12 (date, exposure time, f-number).
enum LegacyJPEGMetadata {
    struct Values: Equatable {
        var make: String?
        var model: String?
        /// "YYYY:MM:DD HH:MM:SS", as EXIF writes dates.
        var takenAt: String?
        var exposureTime: Double?
        var fNumber: Double?
        var focalLength: Double?
        /// Where each value came from ("Make": "CIFF.MakeModel").
        var sources: [String: String] = [:]
    }

    static func values(in data: Data) -> Values? {
        guard ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) == .jpeg else { return nil }
        var values = Values()
        if let ciff = JPEGSegments.first(0xE0, in: data, where: { $0.count > 14 && $0.dropFirst(6).starts(with: "HEAPJPGM".utf8) }) {
            readCIFF(ciff, into: &values)
        }
        if let text = JPEGSegments.first(0xEC, in: data, where: { Data($0).range(of: Data("[picture info]".utf8)) != nil }) {
            readPictureInfo(String(decoding: text, as: UTF8.self), into: &values)
        }
        return values.sources.isEmpty ? nil : values
    }

    /// "[picture info]" lines: TimeDate (seconds since 1970, the camera's clock), Shutter (µs), FNumber ("F2.8").
    static func readPictureInfo(_ text: String, into values: inout Values) {
        guard let section = text.components(separatedBy: "[picture info]").dropFirst().first?.components(separatedBy: "[").first else { return }
        for line in section.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "TimeDate":
                if let seconds = Int(parts[1]), seconds > 0 { set(\.takenAt, exifDate(seconds), "DateTimeOriginal", "PictureInfo.TimeDate", &values) }
            case "Shutter":
                if let microseconds = Double(parts[1]), microseconds > 0 {
                    set(\.exposureTime, microseconds / 1_000_000, "ExposureTime", "PictureInfo.Shutter", &values)
                }
            case "FNumber":
                if let number = Double(parts[1].drop { $0 == "F" || $0 == "f" }), number > 0 {
                    set(\.fNumber, number, "FNumber", "PictureInfo.FNumber", &values)
                }
            default: continue
            }
        }
    }

    /// The most records of a CIFF heap read, its sub-heaps' included (a camera's holds a few dozen).
    static let largestCIFFRecordCount = 4096

    /// A CIFF heap: its records' table is found through the heap's last four bytes; a record holds
    /// its value in itself (8 bytes) or points into the heap; some records are heaps themselves.
    /// - Returns: how many records were read, its sub-heaps' included.
    @discardableResult
    static func readCIFF(_ segment: Data, into values: inout Values) -> Int {
        let bytes = [UInt8](segment)
        guard bytes.count >= 14, bytes[0] == 0x49 || bytes[0] == 0x4D else { return 0 }
        let little = bytes[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard let headerLength = u32(2), headerLength < bytes.count else { return 0 }
        // Records read in all, whatever the nesting: a heap whose records point back at itself (or at
        // heaps as large) would otherwise be walked 1024⁸ times, and an import would never end.
        var recordsLeft = Self.largestCIFFRecordCount
        func heap(_ start: Int, _ end: Int, depth: Int) {
            guard depth < 8, start >= 0, end <= bytes.count, end - start >= 6, let table = u32(end - 4).map({ start + $0 }),
                  let count = u16(table), count <= 1024, table + 2 + count * 10 <= end else { return }
            for index in 0..<count {
                guard recordsLeft > 0 else { return }
                recordsLeft -= 1
                let record = table + 2 + index * 10
                guard let type = u16(record), let size = u32(record + 2), let offset = u32(record + 6) else { return }
                let inRecord = type & 0xC000 == 0x4000
                let (dataStart, dataLength) = inRecord ? (record + 2, 8) : (start + offset, size)
                guard dataStart >= start, dataLength >= 0, dataStart + dataLength <= end else { continue }
                // A heap inside a heap is smaller than it: one as large is the same heap again.
                if [0x2800, 0x3000].contains(type & 0x3800) && dataLength < end - start {
                    heap(dataStart, dataStart + dataLength, depth: depth + 1)
                }
                switch type & 0x3FFF {
                case 0x080A: // MakeModel: "Canon\0Canon PowerShot A5\0"
                    let field = Array(bytes[dataStart..<dataStart + dataLength])
                    let names = field.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                    if names.count >= 2, !names[0].isEmpty { set(\.make, names[0], "Make", "CIFF.MakeModel", &values) }
                    if names.count >= 2, !names[1].isEmpty { set(\.model, names[1], "Model", "CIFF.MakeModel", &values) }
                case 0x180E: // TimeStamp: seconds since 1970 on the camera's clock, then its time zone
                    if let seconds = u32(dataStart), seconds > 0 {
                        set(\.takenAt, exifDate(seconds), "DateTimeOriginal", "CIFF.TimeStamp", &values)
                    }
                case 0x1029: // FocalLength: type, then millimetres
                    if let millimetres = u16(dataStart + 2), millimetres > 0, dataLength >= 4 {
                        set(\.focalLength, Double(millimetres), "FocalLength", "CIFF.FocalLength", &values)
                    }
                default: continue
                }
            }
        }
        heap(headerLength, bytes.count, depth: 0)
        return Self.largestCIFFRecordCount - recordsLeft
    }

    private static func set<Value>(_ field: WritableKeyPath<Values, Value?>, _ value: Value, _ name: String, _ source: String,
                                   _ values: inout Values) {
        guard values[keyPath: field] == nil else { return }
        values[keyPath: field] = value
        values.sources[name] = source
    }

    /// The camera's clock as EXIF writes it: the seconds read as UTC, no zone (these cameras kept local time).
    static func exifDate(_ seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }
}
