import Catalogue
@_exported import Fixtures
import ColourScience
import Foundation
import Imaging
import Services
import XCTest

/// Stand-in photo files for service tests: a JPEG signature followed by JSON saying what the
/// file "is". `FakePhotoCodec` and `FakeExifReader` read that JSON back, so each test states its
/// photos' properties in one place. Bytes they did not make fail the test.
public enum FakePhoto {
    struct Payload: Codable {
        var width: Int
        var height: Int
        var seed: String
        var make: String?
        var takenAt: String?
        var failure: String?
        /// "#RRGGBB" of the decoded pixels; red by default.
        var colour: String?
        /// The format the codec says it decoded; JPEG by default.
        var format: ImageFormat?
        /// The XMP packet the EXIF reader finds.
        var xmp: String?
    }

    static let signature: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]

    /// A decodable photo; `seed` makes its content (and so its hash) unique.
    public static func data(width: Int = 4000, height: Int = 3000, seed: String, make: String? = nil, takenAt: String? = nil,
                            colour: String? = nil, format: ImageFormat? = nil, xmp: String? = nil) -> Data {
        encode(Payload(width: width, height: height, seed: seed, make: make, takenAt: takenAt, colour: colour, format: format, xmp: xmp))
    }

    /// A file that looks like a JPEG but fails to decode with `reason`.
    public static func broken(reason: String, seed: String = "broken") -> Data {
        encode(Payload(width: 1, height: 1, seed: seed, failure: reason))
    }

    /// What a fake photo decodes to: its colour as a subject filling the middle third of each side
    /// (a ninth of the frame) on a mid-grey ground, so that a chromatic colour stands out as an accent;
    /// a grey photo is grey throughout.
    public static func picture(_ colour: RGBA, width: Int, height: Int) -> RGBAImage {
        let ground = RGBA(red: 128, green: 128, blue: 128)
        guard width >= 3 && height >= 3 else { return TestImage.solid(colour, width: width, height: height) }
        var image = TestImage.solid(ground, width: width, height: height)
        for y in height / 3..<(height - height / 3) {
            for x in width / 3..<(width - width / 3) { image[x, y] = colour }
        }
        return image
    }

    static func encode(_ payload: Payload) -> Data {
        Data(signature) + (try! JSONEncoder.sortedKeys.encode(payload))
    }

    static func payload(of data: Data, file: StaticString = #filePath, line: UInt = #line) -> Payload? {
        guard data.starts(with: signature),
              let payload = try? JSONDecoder().decode(Payload.self, from: data.dropFirst(signature.count)) else {
            XCTFail("not a fake photo: \(data.count) bytes", file: file, line: line)
            return nil
        }
        return payload
    }
}

extension JSONEncoder {
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

/// Decodes `FakePhoto` data, counting calls.
public final class FakePhotoCodec: ImageDecoding, @unchecked Sendable {
    public struct Failure: Error, LocalizedError {
        public let reason: String
        public var errorDescription: String? { reason }
    }

    private let lock = NSLock()
    private var calls = 0
    private var options: [DecodeOptions] = []

    public init() {}

    public var decodeCount: Int { lock.withLock { calls } }
    /// The options of each decode asked for, in order.
    public var decodedOptions: [DecodeOptions] { lock.withLock { options } }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        lock.withLock {
            calls += 1
            self.options.append(options)
        }
        guard let payload = FakePhoto.payload(of: data) else { throw Failure(reason: "not a fake photo") }
        if let failure = payload.failure { throw Failure(reason: failure) }
        let long = max(payload.width, payload.height)
        let scale = options.minimumLongSide.map { max(1, min(8, long / $0)) } ?? 1
        return DecodedImage(
            format: payload.format ?? .jpeg, originalSize: PixelSize(width: payload.width, height: payload.height),
            image: FakePhoto.picture(payload.colour.flatMap(RGBA.init(parsing:)) ?? .red,
                                     width: max(1, payload.width / scale), height: max(1, payload.height / scale))
        )
    }
}

/// Reads the make and date a `FakePhoto` was given.
public struct FakeExifReader: ExifReading {
    public init() {}

    public func readExif(from data: Data) throws -> ExifMetadata? {
        guard let payload = FakePhoto.payload(of: data) else { return nil }
        guard payload.make != nil || payload.takenAt != nil else { return nil }
        return ExifMetadata(make: payload.make, takenAt: payload.takenAt.flatMap { ExifDateTime(exif: $0) })
    }

    /// Fake photos carry no EXIF block.
    public func uprightExifBlock(from data: Data) -> Data? { nil }

    /// The XMP a `FakePhoto` was given.
    public func xmpPacket(from data: Data) -> String? { FakePhoto.payload(of: data)?.xmp }

    public func removingGPS(from block: Data) -> Data? { nil }
    public func removingGPS(fromJPEG data: Data) -> Data? { nil }
}

/// A fixed clock that moves only when told.
public final class FakeClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = start
    }

    public func now() -> Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}

/// An encoder that writes a readable stand-in ("PNG 4x3 #hash") and remembers what it was given.
public final class RecordingEncoder: ImageEncoding, @unchecked Sendable {
    private let lock = NSLock()
    private var images: [(image: RGBAImage, format: ImageFormat, options: EncodeOptions)] = []

    public init() {}

    public func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        lock.withLock { images.append((image, format, options)) }
        return Data("\(format.rawValue) \(image.width)x\(image.height) \(image.bytes.hashValue)".utf8)
    }

    public var encoded: [(image: RGBAImage, format: ImageFormat, options: EncodeOptions)] { lock.withLock { images } }
}

/// An encoder whose output `FakePhotoCodec` decodes again: a fake photo of the image's size and of the
/// colour of its first pixel, with the XMP packet it was given.
public struct FakePhotoEncoder: ImageEncoding {
    public init() {}

    public func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        let pixel = image[0, 0]
        return FakePhoto.data(width: image.width, height: image.height, seed: "\(image.bytes.hashValue)",
                              colour: String(format: "#%02X%02X%02X", pixel.red, pixel.green, pixel.blue), xmp: options.xmp)
    }
}
