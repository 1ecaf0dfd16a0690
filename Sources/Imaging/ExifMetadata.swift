import Foundation

/// What showhide knows of a photo's EXIF data: typed values for the fields it uses,
/// and every tag as text so that nothing is lost. It encodes as the documented JSON of a photo's
/// `exif` (Docs/Usage.md): the typed values, absent when the file has none; the tags go elsewhere.
public struct ExifMetadata: Equatable, Sendable, Encodable {
    public var make: String?
    public var model: String?
    public var lens: String?
    public var takenAt: ExifDateTime?
    /// Seconds.
    public var exposureTime: Double?
    public var fNumber: Double?
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    public var orientation: Orientation?
    public var gps: GPSPosition?
    /// Every tag the file has, as "IFD.TagName" → display text.
    public var allTags: [String: String]

    private enum CodingKeys: String, CodingKey {
        case make, model, lens, takenAt, exposureTime, fNumber, iso, focalLength, orientation, gps
    }

    public init(
        make: String? = nil, model: String? = nil, lens: String? = nil,
        takenAt: ExifDateTime? = nil, exposureTime: Double? = nil, fNumber: Double? = nil,
        iso: Int? = nil, focalLength: Double? = nil, orientation: Orientation? = nil,
        gps: GPSPosition? = nil, allTags: [String: String] = [:]
    ) {
        self.make = make
        self.model = model
        self.lens = lens
        self.takenAt = takenAt
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.orientation = orientation
        self.gps = gps
        self.allTags = allTags
    }
}

/// A position in signed decimal degrees (north and east positive) and metres above sea level.
public struct GPSPosition: Equatable, Sendable, Encodable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// A date and time as EXIF writes it ("2008:05:30 15:56:01"), with the sub-seconds
/// and UTC offset the file may add in their own tags. It encodes as its `iso8601` text.
public struct ExifDateTime: Equatable, Sendable, Encodable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// The digits of the fraction of a second, as written ("23" means 0.23 s).
    public var subseconds: String?
    /// "+02:00", "-05:30" or "Z", as written.
    public var offset: String?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                subseconds: String? = nil, offset: String? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.subseconds = subseconds
        self.offset = offset
    }

    /// Whether `text` is a day as "YYYY-MM-DD" with a real month and a day that month has (no 2008-02-30):
    /// the `since` and `until` of the command line and of the web gallery alike.
    public static func isDay(_ text: String) -> Bool {
        text.count == 10 && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && ExifDateTime(exif: text + " 00:00:00") != nil
    }

    /// How many days `month` has in `year` (Gregorian): a 30 February is no date.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Parses EXIF's "YYYY:MM:DD HH:MM:SS" (dashes also accepted in the date); nil for blanks,
    /// zeros and anything out of range. Invalid sub-seconds or offsets are dropped.
    public init?(exif text: String, subseconds: String? = nil, offset: String? = nil) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func separator(_ index: Int, _ allowed: [UInt8]) -> Bool { allowed.contains(bytes[index]) }
        guard separator(4, [58, 45]), separator(7, [58, 45]), separator(10, [32, 84]),
              separator(13, [58]), separator(16, [58]),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if let digits = subseconds?.trimmingCharacters(in: .whitespaces),
           !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            self.subseconds = digits
        }
        // Some writers append the offset, or a "Z" for UTC, to the date itself.
        let appended = String(decoding: bytes[19...], as: UTF8.self)
        for candidate in [offset?.trimmingCharacters(in: .whitespaces), appended] {
            if let candidate, Self.isValidOffset(candidate) {
                self.offset = candidate
                break
            }
        }
    }

    private static func isValidOffset(_ text: String) -> Bool {
        if text == "Z" { return true }
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == 43 || bytes[0] == 45, bytes[3] == 58 else { return false }
        let digits = [bytes[1], bytes[2], bytes[4], bytes[5]].map { Int($0) - 48 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return false }
        return digits[0] * 10 + digits[1] <= 14 && digits[2] * 10 + digits[3] <= 59
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    /// ISO 8601 as written in the file: "2008-05-30T15:56:01.23+02:00"; no offset when the file has none.
    public var iso8601: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var year = String(self.year)
        while year.count < 4 { year = "0" + year }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if let subseconds { text += "." + subseconds }
        if let offset { text += offset }
        return text
    }

    /// "YYYY-MM-DD".
    public var dateString: String { String(iso8601.prefix(10)) }
}
