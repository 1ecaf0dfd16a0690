import CTIFFBridge
@testable import Codecs
import Fixtures
import Imaging
import TestSupport
import XCTest

final class TIFFCodecTests: XCTestCase {
    let codec = ImageCodec()

    /// Every pixel different, so a row or column out of place shows.
    func gradient(width: Int = 24, height: Int = 16) -> RGBAImage {
        var image = TestImage.solid(.white, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = RGBA(red: UInt8(x * 10 % 256), green: UInt8(y * 15 % 256), blue: UInt8((x + y) % 7 * 30)) }
        }
        return image
    }

    func testATIFFDecodesToItsPixelsInEitherByteOrderAndStripLayout() throws {
        let image = gradient()
        for byteOrder in [ExifFixture.ByteOrder.little, .big] {
            for rowsPerStrip in [1, 5, 16] {
                let data = TIFFFixture.encode(image, metadata: ExifFixture(byteOrder: byteOrder), rowsPerStrip: rowsPerStrip)
                XCTAssertEqual(ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)), .tiff)
                let decoded = try codec.decode(data, options: .fullSize)
                XCTAssertEqual(decoded.format, .tiff)
                XCTAssertEqual(decoded.originalSize, PixelSize(width: 24, height: 16))
                assertImagesEqual(decoded.image, image, tolerance: 0, "\(byteOrder), \(rowsPerStrip) rows a strip")
            }
        }
    }

    func testAlphaIsKept() throws {
        var image = gradient()
        for x in 0..<24 { image[x, 3].alpha = 0; image[x, 4].alpha = 90 }
        let decoded = try codec.decode(TIFFFixture.encode(image, alpha: true), options: .fullSize).image
        XCTAssertEqual((0..<24).map { decoded[$0, 3].alpha }, [UInt8](repeating: 0, count: 24))
        XCTAssertEqual((0..<24).map { decoded[$0, 4].alpha }, [UInt8](repeating: 90, count: 24))
        XCTAssertEqual(decoded[7, 9], image[7, 9])
    }

    func testTheOrientationTagTurnsTheRowsAsStoredOnce() throws {
        let image = gradient()
        for orientation in Orientation.allCases {
            var metadata = ExifFixture(byteOrder: .big)
            metadata.ifd0 = [metadata.short(0x0112, UInt16(orientation.rawValue))]
            let data = TIFFFixture.encode(image, metadata: metadata)
            XCTAssertEqual(try codec.decode(data, options: .fullSize).image, image, "\(orientation): as stored unless asked")
            let decoded = try codec.decode(data, options: DecodeOptions(appliesOrientation: true))
            assertImagesEqual(decoded.image, image.applying(orientation), tolerance: 0, "\(orientation)")
            XCTAssertEqual(decoded.appliedOrientation, orientation)
        }
    }

    func testATagLibtiffReadsPastIsNoCorruptPicture() throws {
        // libtiff reports a ResolutionUnit of 0 or an Orientation of 9 as errors, then goes on: the pixels were
        // refused as "corrupt TIFF data: bad value 0 for \"ResolutionUnit\" tag".
        let image = gradient()
        for (tag, value): (UInt16, UInt16) in [(0x0128, 0), (0x0112, 9)] {
            var metadata = ExifFixture()
            metadata.ifd0 = [metadata.short(tag, value)]
            let decoded = try codec.decode(TIFFFixture.encode(image, metadata: metadata), options: .fullSize)
            assertImagesEqual(decoded.image, image, tolerance: 0, "tag \(tag) = \(value)")
        }
    }

    func testAStripPastTheAllocationCapIsSaidAsAPictureInOnePieceNotACorruptOne() {
        // A 6000 × 4000 LZW TIFF written as one strip needs 72 MB at once.
        let said = TIFFCodec.error("photo: memory allocation of 72000000 bytes is beyond the 67108864 byte limit defined in open options.")
        XCTAssertEqual(said, .unsupported(.tiff, "a strip or tile of 72000000 bytes is more than showhide reads at once (64 MB): "
                                          + "save the picture in strips of fewer rows, as most programs do"))
        XCTAssertEqual(TIFFCodec.error("photo: bad value 0 for \"ResolutionUnit\" tag."), .corrupt(.tiff, "bad value 0 for \"ResolutionUnit\" tag"))
    }

    func testTheFilesOwnDirectoriesGiveItsEXIFWithoutThePixelsDescription() throws {
        for byteOrder in [ExifFixture.ByteOrder.little, .big] {
            var metadata = ExifFixture.camera(byteOrder: byteOrder)
            metadata.exif.append(metadata.makerNote(header: Array("AOC\0".utf8) + (byteOrder == .little ? [0x49, 0x49] : [0x4D, 0x4D]),
                                                    shorts: [(0x0014, 7)]))
            metadata.ifd0.append(metadata.undefined(0x02BC, Array("<x:xmpmeta/>".utf8)))
            let data = TIFFFixture.encode(gradient(width: 300, height: 200), metadata: metadata, rowsPerStrip: 8)
            let exif = try XCTUnwrap(try LibExifReader().readExif(from: data))
            XCTAssertEqual(exif.make, "Fixture Optics")
            XCTAssertEqual(exif.model, "FX-100")
            XCTAssertEqual(exif.orientation, .right)
            XCTAssertEqual(exif.iso, 400)
            XCTAssertEqual(exif.exposureTime ?? 0, 1.0 / 250, accuracy: 1e-9)
            XCTAssertEqual(exif.gps?.latitude ?? 0, -(33 + 51.0 / 60 + 36.0 / 3600), accuracy: 1e-6)

            let block = try XCTUnwrap(ExifLocator.exifBlock(in: data))
            XCTAssertLessThan(block.count, 1024, "the directories, not the 180 KB of pixels")
            let tags = try XCTUnwrap(try LibExifReader().readExif(from: try codec.encode(gradient(), as: .jpeg,
                                                                                         options: EncodeOptions(exif: block)))).allTags
            for left in ["StripOffsets", "StripByteCounts", "BitsPerSample", "ImageWidth", "MakerNote", "XMLPacket"] {
                XCTAssertFalse(tags.keys.contains { $0.hasSuffix(left) }, "\(byteOrder): \(left) is not carried into the block: \(tags.keys.sorted())")
            }
        }
    }

    func testDirectoriesAfterThePixelsAreFound() throws {
        // Classic TIFF writers put the pixels first and the directories last, past libexif's 64 KB.
        let metadata = ExifFixture.camera()
        let pixels = Data(repeating: 0x80, count: 300 * 256 * 3)
        let directories = metadata.encoded().dropFirst(ExifFixture.header.count)
        var file = Data(directories.prefix(4))
        let shift = UInt32(pixels.count)
        file += withUnsafeBytes(of: (UInt32(8) + shift).littleEndian) { Data($0) }
        file += pixels
        // Every offset in the directories moves by the pixels' length: rebuild them there.
        var moved = ExifFixture()
        moved.ifd0 = metadata.ifd0
        moved.exif = metadata.exif
        moved.gps = metadata.gps
        let relocated = relocate(moved, by: Int(shift))
        file += relocated
        let exif = try XCTUnwrap(try LibExifReader().readExif(from: file))
        XCTAssertEqual(exif.model, "FX-100")
        XCTAssertEqual(exif.iso, 400)
    }

    /// `fixture`'s TIFF structure (after its header) as it would be at `shift` bytes further on.
    private func relocate(_ fixture: ExifFixture, by shift: Int) -> Data {
        let tiff = [UInt8](fixture.encoded().dropFirst(ExifFixture.header.count))
        var bytes = tiff
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func put(_ value: Int, at: Int) { for index in 0..<4 { bytes[at + index] = UInt8(value >> (8 * index) & 0xFF) } }
        var directories = [u32(4)]
        while let directory = directories.popLast() {
            for index in 0..<u16(directory) {
                let entry = directory + 2 + index * 12
                let tag = u16(entry), type = u16(entry + 2), count = u32(entry + 4)
                let size = count * (TIFFExif.typeSizes[UInt16(type)] ?? 1)
                if tag == 0x8769 || tag == 0x8825 { directories.append(u32(entry + 8)) }
                if size > 4 || tag == 0x8769 || tag == 0x8825 { put(u32(entry + 8) + shift, at: entry + 8) }
            }
        }
        return Data(bytes.dropFirst(8))
    }

    func testAnalysisReadsBandsAndAveragesThem() throws {
        var image = TestImage.solid(.white, width: 400, height: 200)
        for y in 0..<200 { for x in 0..<400 { image[x, y] = x < 200 ? (y < 100 ? .red : .blue) : (y < 100 ? .green : .white) } }
        let decoded = try codec.decode(TIFFFixture.encode(image, rowsPerStrip: 7), options: DecodeOptions(minimumLongSide: 50))
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 400, height: 200))
        XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), PixelSize(width: 100, height: 50))
        XCTAssertEqual(decoded.image[10, 10], .red)
        XCTAssertEqual(decoded.image[90, 40], .white)
    }

    /// libtiff decodes a strip from its start through the rows asked for: analysis reads at least a
    /// strip's rows (in whole blocks) at a time, where it read each block's rows apart and decoded most
    /// of a 672-row strip for each of its rows (1.3 s for a 512 × 768 photo), unless that is more than
    /// libtiff may allocate.
    func testAnalysisReadsWholeStripsInWholeBlocksWithinTheMemoryLimit() {
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 1, rowsPerChunk: 672, rowBytes: 2_048, height: 768), 672)
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 3, rowsPerChunk: 7, rowBytes: 2_048, height: 768), 9, "whole blocks")
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 4, rowsPerChunk: 1, rowBytes: 2_048, height: 768), 4, "one block at least")
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 2, rowsPerChunk: 5_000, rowBytes: 2_048, height: 600), 600, "the picture at most")
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 2, rowsPerChunk: 5_000, rowBytes: 80_000, height: 60_000), 838,
                       "within 64 MB: 419 blocks of two rows of 80,000 bytes")
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 8, rowsPerChunk: 10, rowBytes: 16_000_000, height: 100), 8,
                       "one block, even over the limit")
    }

    /// The rows libtiff decodes together, as the bridge reads them from `data`'s first directory.
    func rowsPerChunk(_ data: Data) throws -> Int {
        let library = try TIFFLibrary.loaded.get().table
        return try data.withUnsafeBytes { raw in
            var message = [CChar](repeating: 0, count: Int(SH_TIFF_MESSAGE_CAPACITY))
            var width: UInt32 = 0, height: UInt32 = 0, orientation: UInt16 = 0
            let reader = try XCTUnwrap(sh_tiff_open(library, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, TIFFCodec.maximumAllocation,
                                                    &width, &height, &orientation, &message, message.count))
            defer { sh_tiff_close(reader) }
            return Int(sh_tiff_rows_per_chunk(reader))
        }
    }

    /// Bands read from chunks of whole strips, strips and blocks not aligned (strips of 7 rows, blocks
    /// of 3, chunks of 9), average to the blocks of the picture itself.
    func testBandsReadFromChunksOfWholeStripsAverageToThePicturesBlocks() throws {
        let image = gradient(width: 300, height: 200)
        XCTAssertEqual(try rowsPerChunk(TIFFFixture.encode(image, rowsPerStrip: 7)), 7, "strips of 7")
        XCTAssertEqual(TIFFCodec.chunkRows(factor: 3, rowsPerChunk: 7, rowBytes: 1_200, height: 200), 9, "chunks of 9")
        let decoded = try codec.decode(TIFFFixture.encode(image, rowsPerStrip: 7), options: DecodeOptions(minimumLongSide: 50))
        let whole = try codec.decode(TIFFFixture.encode(image, rowsPerStrip: 7), options: .fullSize).image
        XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), PixelSize(width: 100, height: 66))
        for y in stride(from: 0, to: 66, by: 5) {
            for x in stride(from: 0, to: 100, by: 7) {
                let block = (0..<9).map { whole[x * 3 + $0 % 3, y * 3 + $0 / 3] }
                func mean(_ channel: (RGBA) -> UInt8) -> Double { Double(block.map { Int(channel($0)) }.reduce(0, +)) / 9 }
                let pixel = decoded.image[x, y]
                // Red changes along a row, green down the picture: a band read from the wrong rows shows in green.
                XCTAssertEqual(Double(pixel.red), mean(\.red), accuracy: 0.5, "(\(x), \(y))")
                XCTAssertEqual(Double(pixel.green), mean(\.green), accuracy: 0.5, "(\(x), \(y))")
                XCTAssertEqual(Double(pixel.blue), mean(\.blue), accuracy: 0.5, "(\(x), \(y))")
            }
        }
    }

    /// A file without RowsPerStrip is one strip (libtiff's default, 2³² − 1 rows), which libtiff, the
    /// strip being uncompressed, chops into strips of about 8 KB (30 rows of 270 bytes): analysis reads
    /// chunks of those, and its blocks are the picture's.
    func testAFileWithoutRowsPerStripIsReadInTheStripsLibtiffMakesOfIt() throws {
        let image = gradient(width: 90, height: 60)
        let data = TIFFFixture.encode(image, rowsPerStrip: 60) { entries in entries.removeAll { $0.tag == 278 } }
        XCTAssertEqual(try rowsPerChunk(data), 30, "the single strip chopped into strips of 8 KB")
        let decoded = try codec.decode(data, options: DecodeOptions(minimumLongSide: 15))
        let whole = try codec.decode(data, options: .fullSize).image
        assertImagesEqual(whole, image, tolerance: 0, "the full decode")
        XCTAssertEqual(PixelSize(width: decoded.image.width, height: decoded.image.height), PixelSize(width: 30, height: 20))
        for (x, y) in [(0, 0), (29, 0), (0, 19), (17, 11), (29, 19)] {
            let block = (0..<9).map { whole[x * 3 + $0 % 3, y * 3 + $0 / 3] }
            XCTAssertEqual(Double(decoded.image[x, y].green), Double(block.map { Int($0.green) }.reduce(0, +)) / 9, accuracy: 0.5,
                           "(\(x), \(y))")
        }
    }

    /// libtiff is loaded when a TIFF file is first met: where it cannot be, the file fails with what to
    /// install, and nothing else does.
    func testWithoutLibtiffATIFFFileSaysWhatToInstall() throws {
        assertWithoutItsLibraryAFileSaysWhatToInstall(TIFFLibrary.self, missing: "libshowhide-no-such-library.so.6", saying: "cannot read TIFF files",
                                                      file: TIFFFixture.encode(gradient())) { library in
            { try TIFFCodec(library: library).decode($0, options: .fullSize) }
        }
        XCTAssertEqual(TIFFLibrary.package, "libtiff6 (apt-get install libtiff6)")
    }

    /// Found by the fuzzer: a picture far wider than tall read for analysis, whose band of rows was
    /// allocated `factor` rows tall (7.5 GB) though the picture has one.
    func testAStripOfOneRowIsReadForAnalysisInABandOfOneRow() throws {
        let strip = TestImage.solid(.green, width: 60_000, height: 1)
        let decoded = try codec.decode(TIFFFixture.encode(strip), options: DecodeOptions(minimumLongSide: 1))
        XCTAssertEqual(decoded.originalSize, PixelSize(width: 60_000, height: 1))
        XCTAssertEqual(decoded.image[0, 0], .green)
        // And one column: its blocks are one pixel wide, not `factor` (the fuzzer's next find).
        let column = TestImage.solid(.blue, width: 1, height: 60_000)
        let tall = try codec.decode(TIFFFixture.encode(column, rowsPerStrip: 1000), options: DecodeOptions(minimumLongSide: 1))
        XCTAssertEqual(tall.image[0, 0], .blue)
    }

    func testHostileFilesAreRefusedWithAReason() throws {
        let image = gradient()
        let good = TIFFFixture.encode(image)
        func reason(_ data: Data, options: DecodeOptions = .fullSize) -> String {
            do {
                _ = try codec.decode(data, options: options)
                return "decoded"
            } catch {
                return (error as? CodecError)?.errorDescription ?? "\(error)"
            }
        }
        XCTAssertEqual(reason(good, options: DecodeOptions(maximumPixelCount: 24 * 16 - 1)),
                       "the image claims 24×16 pixels, more than the limit of 383")
        XCTAssertTrue(reason(good.prefix(good.count - 100)).hasPrefix("corrupt TIFF data: "), reason(good.prefix(good.count - 100)))
        XCTAssertEqual(reason(good.prefix(20)), "corrupt TIFF data: can not read TIFF directory", "without libtiff's name for the file")
        // A bomb: 2³¹ strips, whose offsets alone would take 16 GB.
        let strips = TIFFFixture.encode(image) { entries in
            for index in entries.indices where [0x0111, 0x0117].contains(entries[index].tag) {
                entries[index] = ExifFixture.Entry(tag: entries[index].tag, type: 4, count: 1 << 31, value: [8, 0, 0, 0])
            }
        }
        XCTAssertTrue(reason(strips).hasPrefix("corrupt TIFF data: "), reason(strips))
        // A 50000×50000 claim is refused by size before anything is read.
        let huge = TIFFFixture.encode(image) { entries in
            for index in entries.indices where [0x0100, 0x0101].contains(entries[index].tag) {
                entries[index] = ExifFixture().long(entries[index].tag, 50_000)
            }
        }
        XCTAssertEqual(reason(huge), "the image claims 50000×50000 pixels, more than the limit of 100000000")
        // What libtiff cannot show as RGBA: 2 bits a sample.
        let odd = TIFFFixture.encode(image) { entries in
            for index in entries.indices where entries[index].tag == 0x0102 {
                entries[index] = ExifFixture().shorts(0x0102, [2, 2, 2])
            }
        }
        XCTAssertTrue(reason(odd).hasPrefix("unsupported TIFF file: ") || reason(odd).hasPrefix("corrupt TIFF data: "), reason(odd))
    }

    func testTIFFIsReadButNotWrittenAndCameraRawIsNotTakenForIt() throws {
        XCTAssertThrowsError(try codec.encode(gradient(), as: .tiff, options: EncodeOptions())) { error in
            XCTAssertEqual((error as? CodecError)?.errorDescription,
                           "unsupported TIFF file: showhide reads TIFF but does not write it; variants of TIFF photos are JPEGs")
        }
        XCTAssertEqual(ImageFormat.tiff.variantFormat, .jpeg)
        let tiff = TIFFFixture.encode(gradient())
        XCTAssertNil(UnsupportedPhotoFormat.sniff(tiff.prefix(16), fileExtension: "tif"))
        XCTAssertEqual(UnsupportedPhotoFormat.sniff(tiff.prefix(16), fileExtension: "NEF"), "camera raw (NEF)")
    }
}
