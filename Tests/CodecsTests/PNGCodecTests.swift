@testable import Codecs
import Imaging
import TestSupport
import XCTest

final class PNGCodecTests: XCTestCase {
    let codec = ImageCodec()
    let red = RGBA.red, green = RGBA.green, blue = RGBA.blue, white = RGBA.white

    func testTwoByTwoRoundTripsExactly() throws {
        let image = TestImage.twoByTwo(red, green, blue, white)
        let decoded = try codec.decode(try Fixture.png(image), options: .fullSize)
        XCTAssertEqual(decoded.format, .png)
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 2, height: 2))
        assertImagesEqual(decoded.image, image)
    }

    func testThreeByThreeRoundTripsExactly() throws {
        let image = TestImage.threeByThree(border: RGBA(red: 12, green: 34, blue: 56), centre: RGBA(red: 250, green: 128, blue: 1))
        assertImagesEqual(try codec.decode(try Fixture.png(image), options: .fullSize).image, image)
    }

    func testAlphaIsKept() throws {
        let image = TestImage.twoByTwo(
            RGBA(red: 255, green: 0, blue: 0, alpha: 0), RGBA(red: 0, green: 255, blue: 0, alpha: 128),
            RGBA(red: 0, green: 0, blue: 255, alpha: 255), RGBA(red: 9, green: 9, blue: 9, alpha: 1)
        )
        let data = try Fixture.png(image)
        XCTAssertEqual(data[25], 6, "colour type RGBA")
        assertImagesEqual(try codec.decode(data, options: .fullSize).image, image)
    }

    func testNoiseThatDoesNotCompressFitsTheBoundItIsWrittenInto() throws {
        // Pixels from a generator no filter or deflate can shrink: the output is at its largest.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for (width, height, alpha) in [(1, 1, false), (257, 129, false), (200, 150, true)] {
            let image = try RGBAImage(width: width, height: height) { buffer in
                for index in 0..<(width * height) {
                    buffer[index * 4] = next()
                    buffer[index * 4 + 1] = next()
                    buffer[index * 4 + 2] = next()
                    buffer[index * 4 + 3] = alpha ? next() : 255
                }
            }
            let data = try PNGCodec().encode(image)
            XCTAssertLessThanOrEqual(data.count, PNGCodec.largestSize(width: width, height: height, channels: alpha ? 4 : 3))
            XCTAssertGreaterThan(data.count, width * height * (alpha ? 4 : 3), "incompressible: larger than its pixels")
            assertImagesEqual(try codec.decode(data, options: .fullSize).image, image)
        }
    }

    /// Rows handed over a band at a time make the very file the whole image makes: RGB when every
    /// pixel is opaque, RGBA when one in a later band is not.
    func testRowsMakeTheSameFileAsTheWholeImage() throws {
        let opaque = TestImage.distinctPixels(width: 37, height: 150)
        var seeThrough = opaque
        seeThrough[5, 140] = RGBA(red: 10, green: 20, blue: 30, alpha: 128)
        for image in [opaque, seeThrough] {
            let whole = try PNGCodec().encode(image)
            XCTAssertEqual(try PNGCodec().encode(RowSource(image)), whole)
            XCTAssertEqual(try codec.encode(RowSource(image), as: .png, options: EncodeOptions()), whole)
        }
        XCTAssertEqual(try PNGCodec().encode(RowSource(opaque))[25], 2, "colour type RGB")
        XCTAssertEqual(try PNGCodec().encode(RowSource(seeThrough))[25], 6, "colour type RGBA")
    }

    func testOpaqueImagesAreWrittenWithoutAlpha() throws {
        let data = try Fixture.png(TestImage.distinctPixels(width: 10, height: 10))
        XCTAssertEqual(data[25], 2, "colour type RGB")
    }

    func testPNGsAreNotScaledWhileDecoding() throws {
        let data = try Fixture.png(TestImage.solid(red, width: 64, height: 32))
        let decoded = try codec.decode(data, options: DecodeOptions(minimumLongSide: 8))
        XCTAssertEqual(decoded.image.width, 64)
    }

    // MARK: Every kind of PNG

    func testGreyscaleAtEveryBitDepth() throws {
        for depth in [1, 2, 4, 8, 16] {
            let maximum = (1 << depth) - 1
            let fixture = PNGFixture(width: 3, height: 1, colourType: .grey, bitDepth: depth, samples: [0, maximum, 0])
            let decoded = try codec.decode(fixture.encoded(), options: .fullSize).image
            XCTAssertEqual(decoded.rows, [[.black, .white, .black]], "depth \(depth)")
        }
    }

    func testSixteenBitRGBIsReducedToEightBits() throws {
        let fixture = PNGFixture(width: 2, height: 1, colourType: .rgb, bitDepth: 16, samples: [65535, 0, 0, 0x8080, 0x8080, 0x8080])
        let decoded = try codec.decode(fixture.encoded(), options: .fullSize).image
        XCTAssertEqual(decoded[0, 0], red)
        assertColour(decoded[1, 0], RGBA(red: 128, green: 128, blue: 128), tolerance: 1)
    }

    func testSixteenBitRGBAKeepsAlpha() throws {
        let fixture = PNGFixture(width: 1, height: 1, colourType: .rgba, bitDepth: 16, samples: [0, 65535, 0, 0x8080])
        assertColour(try codec.decode(fixture.encoded(), options: .fullSize).image[0, 0],
                     RGBA(red: 0, green: 255, blue: 0, alpha: 128), tolerance: 1)
    }

    func testGreyWithAlpha() throws {
        let fixture = PNGFixture(width: 2, height: 1, colourType: .greyAlpha, samples: [200, 255, 50, 0])
        let decoded = try codec.decode(fixture.encoded(), options: .fullSize).image
        XCTAssertEqual(decoded[0, 0], RGBA(red: 200, green: 200, blue: 200, alpha: 255))
        XCTAssertEqual(decoded[1, 0].alpha, 0)
    }

    func testPaletteWithTransparency() throws {
        var fixture = PNGFixture(width: 4, height: 1, colourType: .palette, bitDepth: 2, samples: [0, 1, 2, 3])
        fixture.palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        fixture.transparency = [255, 255, 255, 0]
        let decoded = try codec.decode(fixture.encoded(), options: .fullSize).image
        XCTAssertEqual(Array(decoded.rows[0].prefix(3)), [red, green, blue])
        XCTAssertEqual(decoded[3, 0].alpha, 0)
    }

    func testInterlacedPNGDecodesToTheSamePixels() throws {
        let image = TestImage.distinctPixels(width: 11, height: 9)
        let samples = image.pixels.flatMap { [Int($0.red), Int($0.green), Int($0.blue)] }
        var fixture = PNGFixture(width: 11, height: 9, colourType: .rgb, samples: samples)
        fixture.interlaced = true
        assertImagesEqual(try codec.decode(fixture.encoded(), options: .fullSize).image, image)
    }

    // MARK: Bad input

    func testTruncatedPNGsAreErrorsAtEveryCut() throws {
        let data = try Fixture.png(TestImage.distinctPixels(width: 32, height: 32))
        for cut in stride(from: 8, to: data.count - 12, by: max(1, data.count / 30)) {
            XCTAssertThrowsError(try codec.decode(data.prefix(cut), options: .fullSize), "cut at \(cut)") { error in
                guard case .corrupt(.png, let message)? = error as? CodecError else { return XCTFail("\(error)") }
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    func testACorruptedChecksumIsAnError() throws {
        var bytes = [UInt8](try Fixture.png(TestImage.solid(red)))
        bytes[29] ^= 0xFF // inside IHDR's CRC
        XCTAssertThrowsError(try codec.decode(Data(bytes), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .corrupt(.png, "IHDR: CRC error"))
        }
    }

    func testJPEGBytesGivenToThePNGCodecAreAnError() throws {
        let jpeg = try Fixture.jpeg(TestImage.solid(red))
        XCTAssertThrowsError(try PNGCodec().decode(jpeg, options: .fullSize))
        XCTAssertThrowsError(try PNGCodec().decode(Data(), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .empty)
        }
    }

    func testAHeaderClaimingTooManyPixelsIsRefused() throws {
        let fixture = PNGFixture(width: 2, height: 2, colourType: .grey, samples: [0, 0, 0, 0])
        var bytes = [UInt8](fixture.encoded())
        // IHDR width and height to 60000 × 60000, with a correct CRC so only the size is wrong.
        bytes.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        let ihdr = Array(bytes[12..<29])
        bytes.replaceSubrange(29..<33, with: fixture.be32(fixture.crc32(ihdr)))
        XCTAssertThrowsError(try codec.decode(Data(bytes), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .tooManyPixels(width: 60000, height: 60000, limit: 100_000_000))
        }
    }

    /// Found by `make fuzz`: 68 bytes whose sPLT chunk claims 1,620,466,854 bytes. libpng allocated
    /// (and touched) that much before finding the file too short; peak RSS was 1.6 GB.
    static let fuzzedSPLTClaimingGigabytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x15, 0x08, 0x02, 0x00, 0x00, 0x00, 0x4E, 0x86, 0xB0,
        0xF9, 0x60, 0x96, 0x5C, 0xA6, 0x73, 0x50, 0x4C, 0x54, 0x1C, 0xE9, 0x00, 0x00, 0x00, 0x23, 0x49,
        0x44, 0x41, 0x00, 0xAE, 0xCE, 0x1C, 0xE9, 0x00, 0x00, 0x00, 0x23, 0x49, 0x44, 0x41, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0x82,
    ]

    func testAChunkClaimingMoreBytesThanTheFileHoldsIsRefusedBeforeLibpngAllocatesIt() {
        XCTAssertThrowsError(try codec.decode(Data(Self.fuzzedSPLTClaimingGigabytes), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .corrupt(.png, "the sPLT chunk claims 1620466854 bytes, but only 23 follow it in the file: the file is cut short or damaged"))
        }
    }

    func testAnAncillaryChunkOrAnIDATClaimingMoreThanTheFileHoldsIsRefusedAndAFileThatHoldsItsChunksStillDecodes() throws {
        let fixture = PNGFixture(width: 2, height: 1, colourType: .rgb, samples: [255, 0, 0, 0, 0, 255])
        let valid = [UInt8](fixture.encoded())
        // A text chunk after IHDR (8 + 25 bytes) that holds what it claims: decodes as before.
        let text = fixture.chunk("tEXt", Array("Title\u{0}red and blue".utf8))
        var withText = valid
        withText.insert(contentsOf: text, at: 33)
        XCTAssertEqual(try codec.decode(Data(withText), options: .fullSize).image.rows, [[.red, .blue]])
        // The same chunk claiming 2³¹ − 1 bytes; then an IDAT claiming one byte more than it holds.
        var lying = withText
        lying.replaceSubrange(33..<37, with: [0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try codec.decode(Data(lying), options: .fullSize)) { error in
            XCTAssertEqual((error as? LocalizedError)?.errorDescription?.hasPrefix("corrupt PNG data: the tEXt chunk claims 2147483647 bytes"), true,
                           "\(error)")
        }
        let idat = 33 + text.count
        XCTAssertEqual(String(decoding: withText[(idat + 4)..<(idat + 8)], as: UTF8.self), "IDAT")
        var longIDAT = withText
        let length = withText[idat..<(idat + 4)].reduce(0) { $0 << 8 | Int($1) }
        longIDAT.replaceSubrange(idat..<(idat + 4), with: fixture.be32(UInt32(length + 1)))
        XCTAssertThrowsError(try codec.decode(Data(longIDAT.prefix(idat + 12 + length)), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .corrupt(.png, "the IDAT chunk claims \(length + 1) bytes, but only \(length) follow it in the file: the file is cut short or damaged"))
        }
    }

    func testUnknownBytesAreRefusedByTheCodec() {
        XCTAssertThrowsError(try codec.decode(Data("hello, world".utf8), options: .fullSize)) { error in
            XCTAssertEqual(error as? CodecError, .unrecognisedFormat)
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, "not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
        }
    }
}
