import TestSupport
import ColourScience
import Codecs
import Foundation
import Imaging
import XCTest

/// The steps of making a variant, on a generated photo-sized image (4608 × 1976, the size of the
/// phone photo the figures in Docs/Performance.md were taken on). Run in release mode:
/// `swift test -c release --filter PerformanceTests`.
final class ProcessingPerformanceTests: XCTestCase {
    /// Benchmarks, not tests: timed `measure` blocks fail on a busy machine, so they run only when
    /// `scripts/bench units` asks (a plain `swift test` skips them).
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["SHOWHIDE_BENCH"] == "1", "a benchmark: run it with scripts/bench units")
    }

    /// A smooth field of every hue and lightness, with noise, so that neither the JPEG encoder nor the
    /// splash sees long runs of one colour.
    static let photo: RGBAImage = {
        let width = 4608, height = 1976
        var state: UInt32 = 1
        return try! RGBAImage(width: width, height: height) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 28)
                    let offset = (y * width + x) * 4
                    buffer[offset] = UInt8(truncatingIfNeeded: (x * 255 / width + noise) & 0xFF)
                    buffer[offset + 1] = UInt8(truncatingIfNeeded: (y * 255 / height + noise) & 0xFF)
                    buffer[offset + 2] = UInt8(truncatingIfNeeded: ((x + y) * 127 / width + noise) & 0xFF)
                    buffer[offset + 3] = 255
                }
            }
        }
    }()

    static let jpeg: Data = try! ImageCodec().encode(photo, as: .jpeg, options: EncodeOptions(quality: 90))

    let splash = Splash(parameters: SplashParameters(hue: 30))

    func testSplashWholeImage() {
        let photo = Self.photo
        measure { XCTAssertEqual(splash.apply(.show, to: photo).width, photo.width) }
    }

    func testSplashRowsOnOneCore() {
        let photo = Self.photo
        let rows = splash.rows(.show, of: photo)
        var band = [UInt8](repeating: 0, count: 16 * photo.rowStride)
        measure {
            band.withUnsafeMutableBufferPointer { buffer in
                for first in stride(from: 0, to: photo.height, by: 16) {
                    rows.fill(first..<min(photo.height, first + 16), buffer.baseAddress!, photo.rowStride)
                }
            }
        }
    }

    func testWeightTable() {
        measure { _ = Splash(parameters: SplashParameters(hue: 200)) }
    }

    func testDecodeFullSize() throws {
        let jpeg = Self.jpeg
        measure { XCTAssertEqual(try? ImageCodec().decode(jpeg, options: DecodeOptions()).image.width, 4608) }
    }

    func testEncodeQuality90() {
        let photo = Self.photo
        measure { XCTAssertNotNil(try? ImageCodec().encode(photo, as: .jpeg, options: EncodeOptions(quality: 90))) }
    }

    func testEncodeVariantFromRows() {
        let rows = splash.rows(.show, of: Self.photo)
        measure { XCTAssertNotNil(try? ImageCodec().encode(rows, as: .jpeg, options: EncodeOptions(quality: 90))) }
    }
}
