import CJPEGFixtures
import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// JPEG and PNG bytes made in code for the codec tests.
enum Fixture {
    static let codec = ImageCodec()

    static func jpeg(_ image: RGBAImage, quality: Int = 95, exif: Data? = nil) throws -> Data {
        try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: quality, exif: exif))
    }

    static func png(_ image: RGBAImage) throws -> Data {
        try codec.encode(image, as: .png, options: EncodeOptions())
    }

    /// A JPEG of a kind the product never writes (grey, progressive, arithmetic, CMYK, YCCK).
    static func jpeg(kind: shfx_kind, samples: [UInt8], width: Int, height: Int, quality: Int = 95) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = samples.withUnsafeBufferPointer {
            shfx_jpeg_encode(kind, $0.baseAddress, UInt32(width), UInt32(height), Int32(quality), &output, &size)
        }
        guard status == 0, let output else { throw XCTSkip("libjpeg could not write this kind of fixture") }
        defer { shfx_free(output) }
        return Data(bytes: output, count: size)
    }

    /// `data` with the first SOF marker's size fields replaced: a header that lies.
    static func replacingJPEGSize(_ data: Data, width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](data)
        for index in 0..<(bytes.count - 9) where bytes[index] == 0xFF && (bytes[index + 1] == 0xC0 || bytes[index + 1] == 0xC2) {
            bytes[index + 5] = UInt8(height >> 8); bytes[index + 6] = UInt8(height & 0xFF)
            bytes[index + 7] = UInt8(width >> 8); bytes[index + 8] = UInt8(width & 0xFF)
            return Data(bytes)
        }
        XCTFail("no SOF marker")
        return data
    }

    /// `data` with the first SOF marker's sample precision set to `bits`.
    static func replacingJPEGPrecision(_ data: Data, bits: UInt8) -> Data {
        var bytes = [UInt8](data)
        for index in 0..<(bytes.count - 5) where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 {
            bytes[index + 4] = bits
            return Data(bytes)
        }
        XCTFail("no SOF0 marker")
        return data
    }

    /// A 2×2 image scaled up so that each colour fills a whole 16×16 JPEG block (MCU).
    static func quadrants(_ colours: [RGBA], blockSize: Int = 16) -> RGBAImage {
        var rows: [[RGBA]] = []
        for y in 0..<(2 * blockSize) {
            rows.append((0..<(2 * blockSize)).map { x in colours[(y / blockSize) * 2 + x / blockSize] })
        }
        return TestImage.from(rows: rows)
    }
}

/// Fails unless every channel of `actual` is within `tolerance` of `expected`.
func assertColour(_ actual: RGBA, _ expected: RGBA, tolerance: Int, _ message: String = "",
                  file: StaticString = #filePath, line: UInt = #line) {
    let channels = [(actual.red, expected.red), (actual.green, expected.green), (actual.blue, expected.blue), (actual.alpha, expected.alpha)]
    if channels.contains(where: { abs(Int($0.0) - Int($0.1)) > tolerance }) {
        XCTFail("\(actual) is not \(expected) ± \(tolerance). \(message)", file: file, line: line)
    }
}
