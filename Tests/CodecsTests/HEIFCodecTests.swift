@testable import Codecs
import Fixtures
import Imaging
import TestSupport
import XCTest

final class HEIFCodecTests: XCTestCase {
    let codec = ImageCodec()

    func testAHEICDecodesToItsPicture() throws {
        let image = quadrants()
        let data = try HEIFFixture.encode(image)
        XCTAssertEqual(ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)), .heif)
        let decoded = try codec.decode(data, options: .fullSize)
        XCTAssertEqual(decoded.format, .heif)
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 64, height: 48))
        assertQuadrantsMatch(decoded.image, image)
    }

    func testAnAVIFDecodesToItsPicture() throws {
        let image = quadrants()
        let data = try HEIFFixture.encode(image, avif: true)
        XCTAssertEqual(ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)), .heif)
        assertQuadrantsMatch(try codec.decode(data, options: .fullSize).image, image)
    }

    func testTheContainersTurnAndMirrorAreAppliedOnceInEveryOrientation() throws {
        let image = quadrants()
        for orientation in Orientation.allCases {
            // The EXIF block says the same as the container, as a phone writes it: applied once, not twice.
            var exif = ExifFixture()
            exif.ifd0 = [exif.short(0x0112, UInt16(orientation.rawValue))]
            let data = try HEIFFixture.encode(image, orientation: orientation, exif: exif.encoded())
            let decoded = try codec.decode(data, options: DecodeOptions(appliesOrientation: true))
            assertQuadrantsMatch(decoded.image, image.applying(orientation), "\(orientation)")
            XCTAssertEqual(decoded.appliedOrientation, .up, "the EXIF orientation is not applied again")
        }
    }

    func testTheEXIFItemIsFoundAndRead() throws {
        let data = try HEIFFixture.encode(quadrants(), exif: ExifFixture.camera().encoded())
        let block = try XCTUnwrap(ExifLocator.exifBlock(in: data))
        XCTAssertTrue(block.starts(with: ExifLocator.exifHeader))
        let exif = try XCTUnwrap(try LibExifReader().readExif(from: data))
        XCTAssertEqual(exif.make, "Fixture Optics")
        XCTAssertEqual(exif.model, "FX-100")
        XCTAssertEqual(exif.iso, 400)
        XCTAssertNil(ExifLocator.exifBlock(in: try HEIFFixture.encode(quadrants())), "no EXIF item, no block")
    }

    func testAnalysisGetsThePictureMadeSmall() throws {
        let data = try HEIFFixture.encode(quadrants(width: 256, height: 128))
        let decoded = try codec.decode(data, options: DecodeOptions(minimumLongSide: 32))
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 256, height: 128))
        XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), PixelSize(width: 64, height: 32))
        assertQuadrantsMatch(decoded.image, quadrants(width: 64, height: 32))
    }

    func testMorePixelsThanTheLimitAreRefusedBeforeDecoding() throws {
        let data = try HEIFFixture.encode(quadrants())
        XCTAssertThrowsError(try codec.decode(data, options: DecodeOptions(maximumPixelCount: 64 * 48 - 1))) { error in
            XCTAssertEqual(error as? CodecError, .tooManyPixels(width: 64, height: 48, limit: 64 * 48 - 1))
        }
    }

    /// An input the fuzzer found, kept as base64 as it was found, refused by the decoder with `reason`.
    func assertRefused(fuzzerInput base64: String, saying reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let input = try XCTUnwrap(Data(base64Encoded: base64, options: .ignoreUnknownCharacters), file: file, line: line)
        XCTAssertThrowsError(try codec.decode(input, options: .fullSize), file: file, line: line) { error in
            XCTAssertEqual((error as? CodecError)?.errorDescription, reason, file: file, line: line)
        }
    }

    /// Found by the fuzzer (kept as it was found, 1,428 bytes): an 8 × 8 item whose HEVC stream
    /// claims 65271 × 26991 pixels, which libheif allocated (1.76 GB) before decoding. No decoded side
    /// may now exceed the largest side the file declares, with room for the codec's padding.
    func testACodedStreamFarLargerThanItsItemIsRefusedBeforeItIsAllocated() throws {
        try assertRefused(fuzzerInput: """
            AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAzNtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
            AA5waXRtAAAAAAACAAAAGGlkYXQAAAAA/vdpb3ZsAAAACAAIAAAAdGlsb2MBAAAAREAABQABAAAAAAAAA1cAAQAAAAAAAAA3AAIA
            AQAAAAAAAAABAAAAAAAAAAgAAwAAAAAAAAOOAAEAAAAAAAAAJAAEAAEAAAAAAAAAAQAAAAgAAAAIAAUAAAAAAAADsgABAAAAAAAA
            AbgAAAB3aWluZgAAAAAABQAAABVpbmZlAgAAAQABAABodmMxAAAAABVpbmZlAgAAAAACAABncmlkAAAAABVpbmZlAgAAAQADAABo
            dmMxAAAAABVpbmZlAgAAAAAEAABncmlkAAAAABVpbmZlAgAAAQAFAABFeGlmAAAAAbFpcHJwAAABhGlwY28AAAB2aHZjQwEDcAAA
            AAAAAAAAAB7wAPz9+PgAAA8DIAABABhAAQwB//8DcAAAAwCQAAADAAADAB66AkAhAAEAKkIBAQNwAAADAJAAAAMAAAMAHqAggQWW
            6q6a5uBAQMCAAAADAIAAAAMAhCIAAQAGRAHBc8GJAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAUaXNwZQAAAAAAAAAIAAAACAAAABBw
            aXhpAAAAAAMICAgAAABxaHZjQwEECAAAAAAAAAAAAB7wAPz8+PgAAA8DIAABABdAAQwB//8ECAAAAwCf+AAAAwAAHroCQCEAAQAm
            QgEBBAgAAAMAn/gAAAMAAB7AggQWW6q6a5sCAAQDAAIAAAMAAhAiAAEABkQBwXPBiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlz
            cGUAAAAAAAAACAAAAAgAAAAOcGl4aQAAAAABCAAAACdhdXhDAAAAAHVybjptcGVnOmhldmM6MjAxNTphdXhpZDoxAAAAACVpcG1h
            AAAAAAAAAAQAAQKBAgACAgOEAAMChQYABAMHiIkAAABEaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAAA5kaW1nAAQAAQADAABhAABs
            dQR4DgABAAIAAAAOY2RzYwAFAAEAAgAAAhttZGF0AAAAMygBrwayFoc0kgJz/rjP///gGH6H961oBawNl9v6ZsTkstqBHORh8xg6
            licaI3CtwJy7wAAAACAoAa4NZCSiQL8VF/si+ZQdP0B97tq/YoYMCJlAMPNVXwAAAABJSSoACAAAAAYADwECAA8AAAAKAQAAEAEC
            AAcAAAAaAQAAEgEDAAEAAAAqBgAAADIBAgAUAAAAIgEAAGmHBAABAAAAVgAAACWIBAABAEZYLTEwMAAAMjAyMDowMTowMSAwMDow
            MDowMAABAAAA+gAAABwAAAAKAAC8AC0AAAAAAAgAmoIFAAEAAAA2AQAAnYIFAAEAAAA+AQAAJ4gDAAEAAACQAQAAA5ACABQAAABG
            AQAAEZACAAcAAABaAQAACpIFAAEAAABiAQAAkZICAAMAAAAyNQAANKQCABIAAABqAQAAAAAAAAYAAQACAAIAAABTAAAAAgAFAAMA
            AAB8AQAAAwACAAIAAABFAAAABAAFAAMAAACUAQAABQABAAEAAAABAAAABgAFAAEAAACsAQAAAAAAAEZpeHR1cmUgT3B0aWNzAABG
            WC0xMDAAADIwMjA6MDE6MDEgMDA6MDA6MDAAAQAAAPoAAAAcAAAACgAAADIwMjE6MDY6MTUgMTQ6MzA6MDUAqzAyOjAwAABeAQAA
            CgAAAEZpeHR1cmUgMzVtbSBGMi44ACEAAAABAAAAMwAAAAEAAAAQDgAAZAAAAJcAAAABAAAADAAAAFYAAAC4CwAAZAAAAH0AAAAK
            AAAA
            """, saying: "corrupt HEIF data: memory allocation error: Security limit exceeded: Image size 65271x26991 exceeds the maximum image size 72x72")
    }

    /// A `meta` box holding an `iref` box of the references given (version 0: 16-bit item ids).
    func meta(_ references: [(type: String, from: UInt16, to: [UInt16])], claimedSize: UInt32? = nil) -> Data {
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var iref: [UInt8] = [0, 0, 0, 0]
        for reference in references {
            let body = u16(reference.from) + u16(UInt16(reference.to.count)) + reference.to.flatMap(u16)
            iref += u32(claimedSize ?? UInt32(8 + body.count)) + Array(reference.type.utf8) + body
        }
        let irefBox = u32(UInt32(8 + iref.count)) + Array("iref".utf8) + iref
        let metaBody: [UInt8] = [0, 0, 0, 0] + irefBox
        return Data(u32(24) + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + u32(UInt32(8 + metaBody.count)) + Array("meta".utf8) + metaBody)
    }

    func testLoopsAmongAFilesImagesAreFoundBeforeDecoding() {
        XCTAssertFalse(HEIFReferences.haveALoop(in: meta([("dimg", 2, [1]), ("auxl", 3, [2])])), "a grid and its alpha")
        XCTAssertTrue(HEIFReferences.haveALoop(in: meta([("dimg", 2, [1]), ("dimg", 4, [2]), ("auxl", 4, [2])])),
                      "a grid whose alpha is a grid of itself")
        XCTAssertTrue(HEIFReferences.haveALoop(in: meta([("dimg", 2, [2])])), "a grid of itself")
        XCTAssertTrue(HEIFReferences.haveALoop(in: meta([("dimg", 1, [2]), ("dimg", 2, [3]), ("dimg", 3, [1])])))
        XCTAssertFalse(HEIFReferences.haveALoop(in: meta([("thmb", 2, [1]), ("cdsc", 1, [2])])), "other references do not count")
        XCTAssertEqual(HEIFReferences.references(in: [UInt8](meta([("dimg", 2, [1, 3])], claimedSize: 0xFFFF_000E))),
                       [HEIFReferences.Reference(type: "dimg", from: 2, to: [1, 3])], "a size past its box is read to the box's end")
        XCTAssertEqual(HEIFReferences.references(in: [UInt8](meta([]).prefix(30))), [], "a meta box cut short")
        // A chain of 65,000 items each made from the next: searched one Swift frame a step, it overflowed the stack.
        let chain = (1..<65_000).map { (type: "dimg", from: UInt16($0), to: [UInt16($0 + 1)]) }
        XCTAssertFalse(HEIFReferences.haveALoop(in: meta(chain)))
        XCTAssertTrue(HEIFReferences.haveALoop(in: meta(chain + [(type: "dimg", from: 65_000, to: [1])])), "closed at its end")
    }

    /// Found by the fuzzer (kept as it was found, 1,421 bytes): a grid whose alpha picture is a grid
    /// of the first, which libheif 1.15 decoded again and again past 1 GB.
    func testAFileWhoseImagesAreMadeFromEachOtherIsRefused() throws {
        try assertRefused(fuzzerInput: """
            AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAzNtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
            AA5waXRtAAAAAAACAAAAGGlkYXQAAAAAAAgACAAAAAAACAAIAAAAdGlsb2MBAAAAREAABQABAAAAAAAAA1cAAQAAAAAAAAA3AAIA
            AQAAAAAAAAABAAAAAAAAAAgAAwAAAAAAAAOOAAEAAAAAAAAAJAAEAAEAAAAAAAAAAQAAAAgAAAAIAAUAAAAAAAADsgABAAAAAAAA
            AbgAAAB3aWluZgAAAAAABQAAABVpbmZlAgAAAQABAABodmMxAAAAABVpbmZlAgAAAAACAABncmlkAAAAABVpbmZlAgAAAQADAABo
            dmMxAAAAABVpbmZlAgAAAAAEAABncmlkAAAAABVpbmZlAgAAAQAFAABFeGlmAAAAAbFpcHJwAAABhGlwY28AAAB2aHZjQwEDcAAA
            AAAAAAAAAB7wAPz9+PgAAA8DIAABABhAAQwB//8DcAAAAwCQAAADAAADAB66AkAhAAEAKkIBAQNwAAADAJAAAAMAAAMAHqAggQWW
            6q6a5uBAQMCAAAADAIAAAAMAhCIAAQAGRAHBc8GJAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAUaXNwZQAAAAAAAAAIAAAACAAAABBw
            aXhpAAAAAAMICAgAAABxaHZjQwEECAAAAAAAAAAAAB7wAPz8+PgAAA8DIAABABdAAQwB//8ECAAAAwCf+AAAAwAAHroCQCEAAQAm
            QgEBBAgAAAMAn/gAAAMAAB7AggQWW6q6a5sCAAADAAIAAAMAAhAiAAEABkQBwXPBiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlz
            cGUAAAAAAAAACAAAAAgAAAAOcGl4afkAAAABCAAAACdhdXhDAAAAAHVybjptcGVnOmhldmM6MjAxNTphdXhpZDoxAAAAACVpcG1h
            AAAAAAAAAAQAAQKBAgACAgOEAAMChQYABAMHiIkAAABEaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAAA5kaW1nAAQAAQAC//8ADmF1
            eGwABAABAAIAAAAOY2RzYwAFAAEAAgAAAhttZGF0AAAAMygBrwayFoc0kgJz/rjP///gGH6H961oBawNl9v6ZsTkstqBHPph8xg6
            licaI3CtwJy7wAAAACAoAa4NZCSiQL8VF/si+ZQdP0B97tq/YoYMCJlAMPNVXwAAAABJSSoACAAAAAYADwECAA8AAAAKAQAAEAEC
            AAcAAAAaAQAAEgEDAAEAAAAGAAAAMgECABQAAAAiAQAAaYcEAAEAAABWAAAAJYgEAAEAAAC8AAAAAAAAAAgAmoIFAAEAAAA2AQAA
            nYIFAAEAAAA+AQAAJ4gDAAEAAACQAQAAA5ACABQAAABGAQAAEZACAAcAAABaAQAACpIFAAEAAABiAQAAkZICAAMAAAAyNQAANKQC
            ABIAAABqAQAAAAAAABUAAAAGAAEAAgACAAAAUwAAAAIABQADAAAAfAEAAAMAAgACAAAARQAAAAAcZnR5cGhlaWMAAAAAbWlmMWhl
            aWNtaWFmAAADM21ldGEAAAAAAAAAIWhkbHIAAAAAAAAAAHBpY3QAAAAAAAAAAAAAAAAAAAAADnBpdG0AAAAAAAIAAAAYaWRhdAAA
            AAAAEAAQAAAAAAAQABAAAAB0aWxvYwEAAABEQAAFAAEAAAAAAAAABAAFAAMAAACUAQAABQABAAEAAAABAAAABgAFAAADVwABAAAA
            AQAAAKwBAAAAAAAARml4dHVyZSBPcHRpY3MAAEZYLTEwMAAAMjAyMDowMTowMSAwMDowMP//OjAwAAEAAAD6AAAAHAAAAAA=
            """, saying: "corrupt HEIF data: its images are made from each other in a loop")
    }

    func testABrokenFileIsAClearError() throws {
        let data = try HEIFFixture.encode(quadrants())
        for broken in [data.prefix(data.count / 2), data.prefix(40), data.prefix(12) + Data(repeating: 0xA5, count: 200)] {
            XCTAssertThrowsError(try codec.decode(Data(broken), options: .fullSize)) { error in
                let message = (error as? CodecError)?.errorDescription ?? "\(error)"
                XCTAssertTrue(message.hasPrefix("corrupt HEIF data: ") || message.hasPrefix("unsupported HEIF file: "), message)
                XCTAssertFalse(message.hasSuffix("\\n") || message.hasSuffix("\n"), "one line: \(message)")
                let reason = message.split(separator: ":", maxSplits: 1).last.map { $0.dropFirst() } ?? ""
                XCTAssertEqual(reason.first.map { String($0) }, reason.first.map { String($0).lowercased() }, "mid-sentence: \(message)")
            }
        }
    }

    func testHEIFIsReadButNotWritten() throws {
        XCTAssertThrowsError(try codec.encode(quadrants(), as: .heif, options: EncodeOptions())) { error in
            XCTAssertEqual((error as? CodecError)?.errorDescription,
                           "unsupported HEIF file: showhide reads HEIF but does not write it; variants of HEIF photos are JPEGs")
        }
        XCTAssertEqual(ImageFormat.heif.variantFormat, .jpeg)
        XCTAssertEqual(ImageFormat.png.variantFormat, .png)
    }

    /// libheif is loaded when a HEIF file is first met: where it cannot be, the file fails with what to
    /// install, and nothing else does.
    func testWithoutLibheifAHEIFFileSaysWhatToInstall() throws {
        assertWithoutItsLibraryAFileSaysWhatToInstall(HEIFLibrary.self, missing: "libshowhide-no-such-library.so.1", saying: "cannot read HEIF files",
                                                      file: try HEIFFixture.encode(quadrants())) { library in
            { try HEIFCodec(library: library).decode($0, options: .fullSize) }
        }
        XCTAssertEqual(HEIFLibrary.package, "libheif1 (apt-get install libheif1)")
    }

    func testBrandsSniffedAsHEIF() {
        func file(_ brand: String) -> [UInt8] { [0, 0, 0, 24] + Array("ftyp\(brand)".utf8) }
        for brand in ["heic", "heix", "mif1", "avif", "avis", "hevc"] {
            XCTAssertEqual(ImageFormat.sniff(file(brand)), .heif, brand)
            XCTAssertNil(UnsupportedPhotoFormat.sniff(file(brand), fileExtension: "heic"), brand)
        }
        XCTAssertNil(ImageFormat.sniff(file("crx ")))
        XCTAssertEqual(UnsupportedPhotoFormat.sniff(file("crx "), fileExtension: "cr3"), "camera raw (CR3)")
        XCTAssertNil(ImageFormat.sniff(file("heic").prefix(11)), "too short to know")
    }
}
