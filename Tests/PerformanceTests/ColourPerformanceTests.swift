import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Imaging
import XCTest

/// Colour analysis, CIEDE2000 and colour search, in release mode: `scripts/bench units`.
final class ColourPerformanceTests: XCTestCase {
    /// Benchmarks, not tests: timed `measure` blocks fail on a busy machine, so they run only when
    /// `scripts/bench units` asks (a plain `swift test` skips them).
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["SHOWHIDE_BENCH"] == "1", "a benchmark: run it with scripts/bench units")
    }

    /// A 256 × 171 photo-sized thumbnail (what an import analyses) of smooth hues with noise.
    static let thumbnail: RGBAImage = {
        var state: UInt32 = 7
        return try! RGBAImage(width: 256, height: 171) { buffer in
            for y in 0..<171 {
                for x in 0..<256 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 27)
                    let offset = (y * 256 + x) * 4
                    buffer[offset] = UInt8(truncatingIfNeeded: x + noise)
                    buffer[offset + 1] = UInt8(truncatingIfNeeded: y + noise)
                    buffer[offset + 2] = UInt8(truncatingIfNeeded: 255 - x + noise)
                    buffer[offset + 3] = 255
                }
            }
        }
    }()

    func testPaletteAccentAndNamesOfOneThumbnail() {
        let analyser = ColourAnalyser()
        let image = Self.thumbnail
        measure {
            for _ in 0..<10 { XCTAssertFalse(analyser.analyse(image).palette.isEmpty) }
        }
    }

    func testAMillionCIEDE2000Differences() {
        let first = Lab(l: 50, a: 20, b: -30)
        measure {
            var total = 0.0
            for index in 0..<1_000_000 {
                total += deltaE2000(first, Lab(l: Double(index % 100), a: Double(index % 200) - 100, b: Double(index % 170) - 90))
            }
            XCTAssertGreaterThan(total, 0)
        }
    }

    func testColourSearchOnTwentyThousandPhotos() throws {
        let catalogue = try SQLiteCatalogue.inMemory()
        var state: UInt64 = 3
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        try catalogue.write { writer in
            for index in 0..<20_000 {
                let palette = (0..<6).map { rank in
                    let lab = LCh(l: 20 + 70 * next(), c: 60 * next(), h: 360 * next()).lab
                    return PaletteEntry(lab: lab, weight: [0.4, 0.25, 0.15, 0.1, 0.06, 0.04][rank], name: ColourName.nearest(to: lab))
                }
                let facts = PhotoFacts(sha256: String(format: "%064d", index), format: .jpeg, pixelSize: PixelSize(width: 4, height: 3),
                                       exif: nil, colours: ColourAnalysis(palette: palette, accent: nil))
                _ = try writer.insertPhoto(path: "/p/\(index).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1), facts: facts,
                                           importedAt: Date(timeIntervalSince1970: 0))
            }
        }
        let blue = ColourSearch(target: .colour(Lab(RGBA(parsing: "#1F5AA6")!)), filters: PhotoQuery(limit: 20))
        measure {
            XCTAssertEqual(try? catalogue.search(blue).count, 20)
        }
    }
}
