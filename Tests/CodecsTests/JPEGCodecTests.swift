import CJPEGFixtures
@testable import Codecs
import Imaging
import TestSupport
import XCTest

final class JPEGCodecTests: XCTestCase {
    let codec = ImageCodec()
    let colours = [RGBA.red, RGBA.green, RGBA.blue, RGBA(red: 128, green: 128, blue: 128)]

    // JPEG is lossy: a flat colour comes back within a few levels per channel at quality 95.
    let flatTolerance = 4

    func testSolidColoursRoundTrip() throws {
        for colour in colours + [.white, .black, RGBA(red: 230, green: 120, blue: 20)] {
            let decoded = try codec.decode(try Fixture.jpeg(TestImage.solid(colour, width: 16, height: 16)), options: .fullSize)
            XCTAssertEqual(decoded.format, .jpeg)
            XCTAssertEqual(decoded.originalSize, PixelSize(width: 16, height: 16))
            assertImagesEqual(decoded.image, TestImage.solid(colour, width: 16, height: 16), tolerance: flatTolerance, "\(colour)")
        }
    }

    func testFourColourQuadrantsKeepTheirColoursAwayFromTheEdges() throws {
        let image = Fixture.quadrants(colours)
        let decoded = try codec.decode(try Fixture.jpeg(image, quality: 100), options: .fullSize).image
        // Chroma subsampling blurs colour across a block border; block centres are exact but for rounding.
        for (index, (x, y)) in [(8, 8), (24, 8), (8, 24), (24, 24)].enumerated() {
            assertColour(decoded[x, y], colours[index], tolerance: flatTolerance, "quadrant \(index)")
        }
    }

    func testEncodingIgnoresAlphaAndDecodesOpaque() throws {
        let image = TestImage.solid(RGBA(red: 200, green: 10, blue: 10, alpha: 30), width: 8, height: 8)
        let decoded = try codec.decode(try Fixture.jpeg(image), options: .fullSize).image
        XCTAssertTrue(decoded.isOpaque)
        assertColour(decoded[4, 4], RGBA(red: 200, green: 10, blue: 10), tolerance: flatTolerance)
    }

    func testEncodingRowsAsTheyComeGivesTheSameFileAsEncodingTheWholeImage() throws {
        // 37 rows: two full bands of 16 and a short one.
        let image = TestImage.distinctPixels(width: 23, height: 37)
        let exif = ExifFixture.camera().encoded()
        let whole = try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: 90, exif: exif))
        let banded = try codec.encode(RowSource(image), as: .jpeg, options: EncodeOptions(quality: 90, exif: exif))
        XCTAssertEqual(banded, whole)
    }

    func testARowSourceIsAskedForEveryRowOnceInOrder() throws {
        let asked = LockedList<Range<Int>>()
        let image = TestImage.gradient(width: 8, height: 40)
        let inner = RowSource(image)
        let source = RowSource(width: 8, height: 40) { rows, destination, stride in
            asked.append(rows)
            inner.fill(rows, destination, stride)
        }
        let decoded = try codec.decode(try codec.encode(source, as: .jpeg, options: EncodeOptions(quality: 95)), options: .fullSize).image
        XCTAssertEqual(asked.items, [0..<16, 16..<32, 32..<40])
        XCTAssertEqual(decoded.width, 8)
        XCTAssertEqual(decoded.height, 40)
    }

    func testPNGsFromRowsAreMadeWhole() throws {
        let image = TestImage.from(rows: [[.red, RGBA(red: 1, green: 2, blue: 3, alpha: 4)], [.blue, .white]])
        let decoded = try codec.decode(try codec.encode(RowSource(image), as: .png, options: EncodeOptions()), options: .fullSize)
        assertImagesEqual(decoded.image, image)
    }

    func testQualityChangesTheFileSize() throws {
        let image = TestImage.distinctPixels(width: 64, height: 64)
        XCTAssertLessThan(try Fixture.jpeg(image, quality: 30).count, try Fixture.jpeg(image, quality: 95).count)
    }

    func testGreyscaleJPEGDecodesToGreyRGBA() throws {
        let samples = (0..<(16 * 16)).map { UInt8($0 % 16 < 8 ? 40 : 200) }
        let data = try Fixture.jpeg(kind: SHFX_GREY, samples: samples, width: 16, height: 16)
        let decoded = try codec.decode(data, options: .fullSize).image
        assertColour(decoded[2, 2], RGBA(red: 40, green: 40, blue: 40), tolerance: flatTolerance)
        assertColour(decoded[13, 13], RGBA(red: 200, green: 200, blue: 200), tolerance: flatTolerance)
    }

    func testProgressiveAndArithmeticJPEGsDecode() throws {
        let image = Fixture.quadrants(colours)
        let rgb = image.pixels.flatMap { [$0.red, $0.green, $0.blue] }
        for kind in [SHFX_PROGRESSIVE, SHFX_ARITHMETIC] {
            let data = try Fixture.jpeg(kind: kind, samples: rgb, width: 32, height: 32, quality: 100)
            let decoded = try codec.decode(data, options: .fullSize).image
            for (index, (x, y)) in [(8, 8), (24, 8), (8, 24), (24, 24)].enumerated() {
                assertColour(decoded[x, y], colours[index], tolerance: flatTolerance, "kind \(kind.rawValue) quadrant \(index)")
            }
        }
    }

    func testAdobeCMYKAndYCCKJPEGsDecodeToTheRightColours() throws {
        // Adobe stores inverted CMYK: 255 means no ink. Pure red is no cyan, full magenta and yellow, no black.
        let inks: [(cmyk: [UInt8], rgb: RGBA)] = [
            ([255, 0, 0, 255], .red),
            ([0, 255, 0, 255], .green),
            ([255, 255, 255, 0], .black),
            ([255, 255, 255, 255], .white),
        ]
        for kind in [SHFX_ADOBE_CMYK, SHFX_ADOBE_YCCK] {
            for ink in inks {
                let samples = Array((0..<(16 * 16)).map { _ in ink.cmyk }.joined())
                let data = try Fixture.jpeg(kind: kind, samples: samples, width: 16, height: 16)
                let decoded = try codec.decode(data, options: .fullSize).image
                assertColour(decoded[8, 8], ink.rgb, tolerance: 6, "kind \(kind.rawValue), ink \(ink.cmyk)")
            }
        }
    }

    func testScaledDecodeChoosesTheSmallestScaleAboveTheMinimum() throws {
        let data = try Fixture.jpeg(TestImage.solid(.blue, width: 64, height: 48))
        let expectations: [(minimum: Int?, size: PixelSize)] = [
            (nil, PixelSize(width: 64, height: 48)),
            (8, PixelSize(width: 8, height: 6)),
            (9, PixelSize(width: 16, height: 12)),
            (16, PixelSize(width: 16, height: 12)),
            (17, PixelSize(width: 32, height: 24)),
            (100, PixelSize(width: 64, height: 48)),
        ]
        for expectation in expectations {
            let decoded = try codec.decode(data, options: DecodeOptions(minimumLongSide: expectation.minimum))
            XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), expectation.size, "minimum \(String(describing: expectation.minimum))")
            XCTAssertEqual(decoded.originalSize, PixelSize(width: 64, height: 48))
            assertColour(decoded.image[0, 0], .blue, tolerance: flatTolerance)
        }
    }

    func testScaleDenominatorForOddSizes() {
        XCTAssertEqual(JPEGCodec.scaleDenominator(for: PixelSize(width: 4000, height: 3000), minimumLongSide: 256), 8)
        XCTAssertEqual(JPEGCodec.scaleDenominator(for: PixelSize(width: 1000, height: 3000), minimumLongSide: 400), 4)
        XCTAssertEqual(JPEGCodec.scaleDenominator(for: PixelSize(width: 100, height: 30), minimumLongSide: 256), 1)
    }

    // MARK: Bad input

    func testEmptyInputIsAnError() {
        XCTAssertThrowsError(try codec.decode(Data(), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .empty)
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "the file is empty")
        }
        XCTAssertThrowsError(try JPEGCodec().decode(Data(), options: .fullSize))
    }

    func testTruncatedFilesAreErrorsAtEveryCut() throws {
        let data = try Fixture.jpeg(TestImage.distinctPixels(width: 64, height: 64))
        let cuts = stride(from: 2, to: data.count - 2, by: max(1, data.count / 40))
        for cut in cuts {
            XCTAssertThrowsError(try codec.decode(data.prefix(cut), options: .fullSize), "cut at \(cut) of \(data.count)") { error in
                guard case .corrupt(.jpeg, let message)? = error as? CodecError else {
                    return XCTFail("cut at \(cut): \(error)")
                }
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    func testAFileMissingOnlyItsEndMarkerStillDecodes() throws {
        let image = TestImage.solid(.green, width: 16, height: 16)
        let data = try Fixture.jpeg(image)
        let decoded = try codec.decode(data.dropLast(2), options: .fullSize)
        assertImagesEqual(decoded.image, image, tolerance: flatTolerance)
    }

    func testACutInTheScanSaysPrematureEnd() throws {
        let data = try Fixture.jpeg(TestImage.distinctPixels(width: 64, height: 64))
        XCTAssertThrowsError(try codec.decode(data.prefix(data.count * 3 / 4), options: .fullSize)) { error in
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "corrupt JPEG data: the file ends too early (premature end of data segment)")
        }
    }

    func testAProgressiveJPEGOfMoreScansThanAnyCameraWritesIsRefused() throws {
        // 16 × 16 grey, progressive: a DC scan, then one AC scan (bytes 140..<259: its Huffman table, its
        // SOS and its data), which libjpeg takes again and again without a warning; 10,000 of them made
        // a 1.3 MB file of 8000 × 8000 take 35 s.
        let base = try XCTUnwrap(Data(base64Encoded: """
            /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/\
            wgALCAAQABABAREA/8QAFgABAQEAAAAAAAAAAAAAAAAABgUH/9oACAEBAAAAAB+um53/xAAlEAABAgUDBAMAAAAAAAAAAAABAgQAAwUGERIhIgcjMTMTFEL/\
            2gAIAQEAAT8As6levjDurSbLs53WViWZ6EaGsteO5OVsgYyCRnkQDnSlRHiLOpXr4x1ZrP3KwwtRseyx0uXe3mcpPBO6fyhWcgkH5MHdMf/Z
            """))
        func repeating(_ scans: Int) -> Data {
            base.prefix(259) + (0..<scans).reduce(into: Data()) { data, _ in data += base[140..<259] } + base.suffix(2)
        }
        XCTAssertEqual(try codec.decode(repeating(100), options: .fullSize).image.width, 16, "102 scans: decoded")
        XCTAssertThrowsError(try codec.decode(repeating(499), options: .fullSize)) { error in
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "corrupt JPEG data: more than 500 progressive scans (a camera writes about ten): "
                           + "refused, as decoding them would take minutes")
        }
    }

    func testRandomBytesAfterASignatureAreAnError() {
        var generator = SeededGenerator(state: 7)
        for _ in 0..<20 {
            let noise = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertThrowsError(try codec.decode(Data([0xFF, 0xD8] + noise), options: .fullSize))
        }
    }

    func testPNGBytesGivenToTheJPEGCodecAreAnError() throws {
        let png = try Fixture.png(TestImage.solid(.red))
        XCTAssertThrowsError(try JPEGCodec().decode(png, options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .corrupt(.jpeg, "Not a JPEG file: starts with 0x89 0x50"))
        }
    }

    func testAHeaderClaimingTooManyPixelsIsRefusedBeforeDecoding() throws {
        let bomb = Fixture.replacingJPEGSize(try Fixture.jpeg(TestImage.solid(.red, width: 8, height: 8)), width: 60000, height: 60000)
        XCTAssertThrowsError(try codec.decode(bomb, options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .tooManyPixels(width: 60000, height: 60000, limit: 100_000_000))
            XCTAssertEqual((error as? LocalizedError)?.errorDescription,
                           "the image claims 60000×60000 pixels, more than the limit of 100000000")
        }
    }

    func testAHeaderBeyondLibjpegsLargestSizeIsAnError() throws {
        let bomb = Fixture.replacingJPEGSize(try Fixture.jpeg(TestImage.solid(.red, width: 8, height: 8)), width: 65535, height: 65535)
        XCTAssertThrowsError(try codec.decode(bomb, options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .corrupt(.jpeg, "Maximum supported image dimension is 65500 pixels"))
        }
    }

    func testThePixelLimitIsConfigurable() throws {
        let data = try Fixture.jpeg(TestImage.solid(.red, width: 20, height: 10))
        XCTAssertThrowsError(try codec.decode(data, options: DecodeOptions(maximumPixelCount: 199)))
        XCTAssertNoThrow(try codec.decode(data, options: DecodeOptions(maximumPixelCount: 200)))
    }

    func testTwelveBitJPEGsAreReportedAsUnsupported() throws {
        let data = Fixture.replacingJPEGPrecision(try Fixture.jpeg(TestImage.solid(.red, width: 8, height: 8)), bits: 12)
        XCTAssertThrowsError(try codec.decode(data, options: .fullSize)) { error in
            guard case .unsupported(.jpeg, let message)? = error as? CodecError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("12"), message)
        }
    }

    func testAnEXIFBlockTooLargeForASegmentIsRefused() {
        let exif = Data(ExifLocator.exifHeader + [UInt8](repeating: 0, count: 70_000))
        XCTAssertThrowsError(try Fixture.jpeg(TestImage.solid(.red), exif: exif)) { error in
            XCTAssertEqual(error as? CodecError, .exifTooLarge(bytes: 70_006))
        }
    }

    func testAScaleWhoseRoundedUpLongSideMeetsTheMinimumIsTaken() {
        // libjpeg rounds a scaled size up: 1001 / 8 gives 126 pixels.
        XCTAssertEqual(JPEGCodec.scaleDenominator(for: PixelSize(width: 1001, height: 700), minimumLongSide: 126), 8)
        XCTAssertEqual(JPEGCodec.scaleDenominator(for: PixelSize(width: 1001, height: 700), minimumLongSide: 127), 4)
    }
}
