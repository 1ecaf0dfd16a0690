@testable import Codecs
import CWebP
import Fixtures
import Imaging
import TestSupport
import XCTest

final class WebPCodecTests: XCTestCase {
    let codec = ImageCodec()

    /// A lossless WebP of `image`, by libwebp's own encoder: its pixels come back exactly.
    func lossless(_ image: RGBAImage) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.bytes.withUnsafeBufferPointer {
            WebPEncodeLosslessRGBA($0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.rowStride), &output)
        }
        let bytes = try XCTUnwrap(output)
        defer { WebPFree(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// `image` with its top-left quadrant see-through and its bottom-right half so.
    func withAlpha(_ image: RGBAImage) -> RGBAImage {
        var image = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                if y < image.height / 2, x < image.width / 2 { image[x, y].alpha = 0 }
                if y >= image.height / 2, x >= image.width / 2 { image[x, y].alpha = 128 }
            }
        }
        return image
    }

    func testALosslessWebPDecodesToItsPixelsAlphaIncluded() throws {
        let image = withAlpha(quadrants())
        let data = try lossless(image)
        XCTAssertEqual(ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)), .webp)
        let decoded = try codec.decode(data, options: .fullSize)
        XCTAssertEqual(decoded.format, .webp)
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 64, height: 48))
        // libwebp keeps no colour under a fully see-through pixel: compared where alpha > 0.
        for y in 0..<48 {
            for x in 0..<64 where image[x, y].alpha > 0 {
                XCTAssertEqual(decoded.image[x, y], image[x, y], "(\(x), \(y))")
            }
        }
        XCTAssertEqual(decoded.image[5, 5].alpha, 0)
    }

    func testWhatShowhideWritesIsALossyWebPAtTheQualityAskedForWithItsAlpha() throws {
        let image = withAlpha(quadrants())
        let good = try codec.encode(image, as: .webp, options: EncodeOptions(quality: 95))
        let poor = try codec.encode(image, as: .webp, options: EncodeOptions(quality: 5))
        XCTAssertLessThan(poor.count, good.count, "quality is passed on")
        XCTAssertNotNil(good.range(of: Data("VP8 ".utf8)), "lossy (VP8)")
        XCTAssertNil(good.range(of: Data("VP8L".utf8)), "not lossless (VP8L)")
        XCTAssertNotNil(good.range(of: Data("ALPH".utf8)), "with its alpha channel")
        let decoded = try codec.decode(good, options: .fullSize).image
        assertQuadrantsMatch(decoded, image)
        XCTAssertLessThanOrEqual(decoded[8, 8].alpha, 4, "the see-through quadrant stays so")
        XCTAssertEqual(Int(decoded[56, 40].alpha), 128, accuracy: 4)
        XCTAssertEqual(decoded[40, 8].alpha, 255)
        XCTAssertNil(try codec.encode(quadrants(), as: .webp, options: EncodeOptions()).range(of: Data("ALPH".utf8)),
                     "an opaque picture gets no alpha channel")
    }

    func testTheEXIFChunkIsWrittenWithoutItsHeaderAndReadEitherWay() throws {
        let exif = ExifFixture.camera().encoded()
        let data = try codec.encode(quadrants(), as: .webp, options: EncodeOptions(exif: exif))
        XCTAssertEqual(WebPCodec.chunk("EXIF", in: data), exif.dropFirst(6), "the container's chunk holds the TIFF data alone")
        XCTAssertEqual(ExifLocator.exifBlock(in: data), exif)
        let read = try XCTUnwrap(try LibExifReader().readExif(from: data))
        XCTAssertEqual(read.model, "FX-100")
        XCTAssertEqual(read.iso, 400)
        XCTAssertEqual(read.orientation, .right)

        // A writer that kept "Exif\0\0" in the chunk, as some do.
        let plain = try codec.encode(quadrants(), as: .webp, options: EncodeOptions())
        let withHeader = try WebPCodec.setting("EXIF", to: exif, in: plain)
        XCTAssertEqual(ExifLocator.exifBlock(in: withHeader), exif)
        XCTAssertNil(ExifLocator.exifBlock(in: plain), "no chunk, no block")
    }

    func testTheEXIFOrientationTurnsAWebPOnce() throws {
        let image = quadrants()
        for orientation in Orientation.allCases {
            var exif = ExifFixture()
            exif.ifd0 = [exif.short(0x0112, UInt16(orientation.rawValue))]
            let data = try codec.encode(image, as: .webp, options: EncodeOptions(exif: exif.encoded()))
            let decoded = try codec.decode(data, options: DecodeOptions(appliesOrientation: true))
            assertQuadrantsMatch(decoded.image, image.applying(orientation), "\(orientation)")
            XCTAssertEqual(decoded.appliedOrientation, orientation)
        }
    }

    func testAnalysisGetsThePictureScaledByLibwebp() throws {
        let data = try lossless(quadrants(width: 400, height: 200))
        let decoded = try codec.decode(data, options: DecodeOptions(minimumLongSide: 50))
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 400, height: 200))
        XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), PixelSize(width: 100, height: 50))
        assertQuadrantsMatch(decoded.image, quadrants(width: 100, height: 50), tolerance: 2)
    }

    func testAnAnimationGivesItsFirstFrame() throws {
        var options = WebPAnimEncoderOptions()
        XCTAssertNotEqual(WebPAnimEncoderOptionsInit(&options), 0)
        let encoder = try XCTUnwrap(WebPAnimEncoderNew(64, 48, &options))
        defer { WebPAnimEncoderDelete(encoder) }
        for (index, frame) in [quadrants(), TestImage.solid(.blue, width: 64, height: 48)].enumerated() {
            var picture = WebPPicture()
            XCTAssertNotEqual(WebPPictureInit(&picture), 0)
            picture.use_argb = 1
            picture.width = 64
            picture.height = 48
            defer { WebPPictureFree(&picture) }
            _ = frame.bytes.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.rowStride)) }
            var config = WebPConfig()
            XCTAssertNotEqual(WebPConfigInit(&config), 0)
            config.lossless = 1
            XCTAssertNotEqual(WebPAnimEncoderAdd(encoder, &picture, Int32(index * 100), &config), 0)
        }
        XCTAssertNotEqual(WebPAnimEncoderAdd(encoder, nil, 200, nil), 0)
        var assembled = WebPData()
        XCTAssertNotEqual(WebPAnimEncoderAssemble(encoder, &assembled), 0)
        defer { WebPDataClear(&assembled) }
        let data = Data(bytes: assembled.bytes, count: assembled.size)

        let decoded = try codec.decode(data, options: .fullSize)
        assertImagesEqual(decoded.image, quadrants(), tolerance: 0)
        let small = try codec.decode(data, options: DecodeOptions(minimumLongSide: 8))
        XCTAssertEqual(PixelSize(width: small.image.width, height: small.image.height), PixelSize(width: 16, height: 12))

        // Its canvas said to be 10000 × 10000 (the VP8X chunk's sizes, less one, at bytes 24 and 27): libwebp's
        // animation decoder filled two such canvases, 1.2 GB, before the first frame was read.
        var huge = data
        XCTAssertEqual(String(decoding: huge[12..<16], as: UTF8.self), "VP8X")
        for offset in [24, 27] { huge.replaceSubrange(offset..<(offset + 3), with: [0x0F, 0x27, 0x00]) }
        XCTAssertThrowsError(try codec.decode(huge, options: DecodeOptions(minimumLongSide: 8))) { error in
            XCTAssertEqual(error as? CodecError, .unsupported(.webp, "an animation of 10000×10000 pixels: showhide reads animations of at most 16 megapixels"))
        }
    }

    func testMorePixelsThanTheLimitAreRefusedBeforeDecoding() throws {
        let data = try lossless(quadrants())
        XCTAssertThrowsError(try codec.decode(data, options: DecodeOptions(maximumPixelCount: 64 * 48 - 1))) { error in
            XCTAssertEqual(error as? CodecError, .tooManyPixels(width: 64, height: 48, limit: 64 * 48 - 1))
        }
    }

    func testABrokenFileIsAClearError() throws {
        let data = try codec.encode(quadrants(), as: .webp, options: EncodeOptions())
        let cases: [(Data, String)] = [
            (data.prefix(data.count - 20), "corrupt WebP data: the file ends early (truncated)"),
            (data.prefix(30), "corrupt WebP data: the file ends early (truncated)"),
            (data.prefix(12) + Data(repeating: 0xA5, count: 200), "corrupt WebP data: the bitstream is broken"),
        ]
        for (broken, expected) in cases {
            XCTAssertThrowsError(try codec.decode(broken, options: .fullSize)) { error in
                XCTAssertEqual((error as? CodecError)?.errorDescription, expected)
            }
        }
    }

    func testAPictureTooLargeForWebPIsAClearError() throws {
        let wide = TestImage.solid(.red, width: 16_384, height: 1)
        XCTAssertThrowsError(try codec.encode(wide, as: .webp, options: EncodeOptions())) { error in
            XCTAssertEqual((error as? CodecError)?.errorDescription,
                           "could not encode WebP: a WebP is at most 16383 pixels on a side; this image is 16384×1")
        }
        XCTAssertEqual(ImageFormat.webp.variantFormat, .webp)
        XCTAssertTrue(ImageFormat.webp.carriesExif)
    }
}
