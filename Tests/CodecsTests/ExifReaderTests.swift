@testable import Codecs
import Imaging
import TestSupport
import XCTest

final class ExifReaderTests: XCTestCase {
    let reader = LibExifReader()
    let photo = TestImage.solid(.red, width: 8, height: 8)

    func jpeg(with fixture: ExifFixture) throws -> Data {
        try Fixture.jpeg(photo, exif: fixture.encoded())
    }

    func testRemovingGPSKeepsEverythingElse() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            let block = ExifFixture.camera(byteOrder: order).encoded()
            XCTAssertNotNil(reader.readExifBlock(block)?.gps, "the fixture has a position")
            let stripped = try XCTUnwrap(reader.removingGPS(from: block))
            XCTAssertTrue(stripped.starts(with: ExifLocator.exifHeader))
            let exif = try XCTUnwrap(reader.readExifBlock(stripped))
            XCTAssertNil(exif.gps, "\(order)")
            XCTAssertFalse(exif.allTags.keys.contains { $0.hasPrefix("GPS.") }, "\(exif.allTags.keys.sorted())")
            XCTAssertEqual(exif.make, "Fixture Optics")
            XCTAssertEqual(exif.takenAt?.iso8601, "2021-06-15T14:30:05.25+02:00")
            XCTAssertEqual(exif.orientation, .right)
        }
        XCTAssertNil(reader.removingGPS(from: Data("Exif".utf8)), "not a block")
    }

    /// The scan data: from the first start-of-scan marker on.
    static func imageData(of jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        let start = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA } ?? 0
        return Data(bytes[start...])
    }

    func testRemovingGPSFromAJPEGLeavesItsImageDataAndEveryOtherTag() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            let original = try jpeg(with: .camera(byteOrder: order))
            let before = try XCTUnwrap(reader.readExif(from: original))
            XCTAssertNotNil(before.gps)

            let stripped = try XCTUnwrap(reader.removingGPS(fromJPEG: original), "\(order)")

            XCTAssertEqual(stripped.count, original.count, "the EXIF block keeps its length")
            XCTAssertEqual(Self.imageData(of: stripped), Self.imageData(of: original), "the image data is byte for byte the same")
            let block = try XCTUnwrap(ExifLocator.jpegExifRange(in: original))
            XCTAssertEqual(stripped[..<block.lowerBound], original[..<block.lowerBound], "bytes before the EXIF block")
            XCTAssertEqual(stripped[block.upperBound...], original[block.upperBound...], "bytes after the EXIF block")
            let after = try XCTUnwrap(reader.readExif(from: stripped))
            XCTAssertNil(after.gps)
            XCTAssertFalse(after.allTags.keys.contains { $0.hasPrefix("GPS.") }, "\(after.allTags.keys.sorted())")
            var expected = before.allTags.filter { !$0.key.hasPrefix("GPS.") }
            expected.removeValue(forKey: "IFD0.GPSInfo")
            XCTAssertEqual(after.allTags.filter { $0.key != "IFD0.GPSInfo" }, expected, "\(order)")
            XCTAssertEqual(try JPEGCodec().decode(stripped, options: DecodeOptions()).image, try JPEGCodec().decode(original, options: DecodeOptions()).image)
            XCTAssertNil(reader.removingGPS(fromJPEG: stripped), "nothing left to remove")
        }
    }

    func testDamagedEXIFBlocksNeverMakeGPSRemovalReachOutsideTheBlock() throws {
        let original = try jpeg(with: .camera(byteOrder: .big))
        let block = try XCTUnwrap(ExifLocator.jpegExifRange(in: original))
        var random = SeededGenerator(state: 20_261_124)
        var changed = 0
        for _ in 0..<2000 {
            var damaged = original
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: block, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let stripped = reader.removingGPS(fromJPEG: damaged) else { continue }
            changed += 1
            XCTAssertEqual(stripped.count, damaged.count)
            XCTAssertEqual(stripped[block.upperBound...], damaged[block.upperBound...])
            XCTAssertEqual(stripped[..<block.lowerBound], damaged[..<block.lowerBound])
        }
        XCTAssertGreaterThan(changed, 1000, "most damaged blocks still have a GPS directory to remove")
    }

    func testAJPEGWithoutGPSOrEXIFIsLeftAlone() throws {
        var fixture = ExifFixture.camera()
        fixture.gps = []
        XCTAssertNil(reader.removingGPS(fromJPEG: try jpeg(with: fixture)))
        XCTAssertNil(reader.removingGPS(fromJPEG: try Fixture.jpeg(photo, exif: nil)))
        XCTAssertNil(reader.removingGPS(fromJPEG: Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x08] + Array("Exif".utf8) + [0, 0])),
                     "a block too short to hold a TIFF header")
    }

    /// The values every photo tool shows, found where cameras put them when the usual tag is missing,
    /// each derived one marked with its source.
    func testMissingValuesComeFromTheTagsCamerasWriteInstead() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            var fixture = ExifFixture(byteOrder: order)
            fixture.ifd0 = [fixture.short(0x0112, 1)]
            fixture.exif = [
                fixture.ascii(0x010F, "MINOLTA CO.,LTD"), fixture.ascii(0x0110, "DiMAGE 7"),
                fixture.signedRational(0x9201, [(8, 1)]),       // Tv 8: 1/256 s
                fixture.rational(0x9202, [(297, 100)]),         // Av 2.97: f/2.8
                fixture.short(0x8832, 200),                     // RecommendedExposureIndex
                fixture.ascii(0x9003, "2003:02:30 10:00:00"),   // no such day
            ]
            let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)), "\(order)")
            XCTAssertEqual(exif.make, "MINOLTA CO.,LTD")
            XCTAssertEqual(exif.model, "DiMAGE 7")
            XCTAssertEqual(try XCTUnwrap(exif.exposureTime), 1.0 / 256, accuracy: 1e-12)
            XCTAssertEqual(exif.fNumber, 2.8)
            XCTAssertEqual(exif.iso, 200)
            XCTAssertNil(exif.takenAt, "30 February is absent, not an error")
            XCTAssertEqual(exif.allTags["Derived.Make"], "EXIF.Make")
            XCTAssertEqual(exif.allTags["Derived.FNumber"], "EXIF.ApertureValue")
            XCTAssertEqual(exif.allTags["Derived.ExposureTime"], "EXIF.ShutterSpeedValue")
            XCTAssertEqual(exif.allTags["Derived.ISO"], "EXIF.RecommendedExposureIndex")
        }
        // The direct tags win, and nothing is marked derived.
        let camera = try XCTUnwrap(reader.readExif(from: try jpeg(with: .camera())))
        XCTAssertEqual(camera.fNumber, 2.8)
        XCTAssertEqual(camera.iso, 400)
        XCTAssertFalse(camera.allTags.keys.contains { $0.hasPrefix("Derived.") })
    }

    /// Cameras that keep the ISO only in their maker note (Canon's compacts, Casio): read through
    /// libexif's maker-note readers, marked as such; other makers' codes are not taken for ISOs.
    func testISOFromTheMakerNoteOfTheCamerasThatKeepItThere() throws {
        var casio = ExifFixture(byteOrder: .little)
        casio.ifd0 = [casio.ascii(0x010F, "CASIO COMPUTER CO.,LTD."), casio.ascii(0x0110, "EX-Z3")]
        casio.exif = [casio.makerNote(header: Array("QVC".utf8) + [0, 0, 0], shorts: [(0x3014, 50)])]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: casio)))
        XCTAssertEqual(exif.iso, 50)
        XCTAssertEqual(exif.allTags["Derived.ISO"], "MakerNote.CCSISOSensitivity")

        var withEXIF = casio
        withEXIF.exif.append(withEXIF.short(0x8827, 400))
        XCTAssertEqual(try reader.readExif(from: try jpeg(with: withEXIF))?.iso, 400, "EXIF's own ISO wins")

        var pentax = ExifFixture(byteOrder: .little)
        pentax.ifd0 = [pentax.ascii(0x010F, "PENTAX Corporation")]
        pentax.exif = [pentax.makerNote(header: Array("AOC".utf8) + [0] + Array("II".utf8), shorts: [(0x0014, 6)])]
        let coded = try XCTUnwrap(reader.readExif(from: try jpeg(with: pentax)))
        XCTAssertNil(coded.iso, "Pentax's ISO entry is a code (6 is ISO 100), not an ISO")
        XCTAssertNil(coded.allTags["Derived.ISO"])
    }

    /// A Canon maker note as Canon writes it — one ShotInfo entry (tag 4) whose three SHORTs (0,
    /// AutoISO, BaseISO) follow the directory, at an offset from the TIFF header — in `noteOrder`,
    /// its offsets `moved` bytes off, as an editor that moved the note leaves them.
    func canon(autoRaw: UInt16, baseRaw: UInt16, fileOrder: ExifFixture.ByteOrder = .little,
               noteOrder: ExifFixture.ByteOrder = .little, moved: Int = 0, make: String = "Canon") -> ExifFixture {
        let note = ExifFixture(byteOrder: noteOrder)
        func bytes(valuesAt offset: Int) -> [UInt8] {
            [UInt8](note.u16(1)) + note.u16(4) + note.u16(3) + note.u32(3) + note.u32(UInt32(offset + moved)) + note.u32(0)
                + note.u16(0) + note.u16(autoRaw) + note.u16(baseRaw)
        }
        var fixture = ExifFixture(byteOrder: fileOrder)
        fixture.ifd0 = [fixture.ascii(0x010F, make), fixture.ascii(0x0110, "Canon DIGITAL IXUS 400")]
        fixture.exif = [fixture.undefined(0x927C, bytes(valuesAt: 0xABCD))]
        // Where the note lands in the TIFF data, found by its placeholder; then written for real.
        let placeholder = Data(bytes(valuesAt: 0xABCD))
        let tiff = fixture.encoded().dropFirst(6)
        let start = tiff.range(of: placeholder)!.lowerBound - tiff.startIndex
        fixture.exif = [fixture.undefined(0x927C, bytes(valuesAt: start + 2 + 12 + 4))]
        return fixture
    }

    /// Canon compacts in Auto ISO write no ISO in EXIF, nor one libexif's Canon reader gives: the
    /// maker note's base ISO × automatic factor, as exiftool computes it.
    func testCanonAutoISOFromItsMakerNote() throws {
        // BaseISO = 2^(128/32) × 100/32 = 50; AutoISO = 2^(32/32) × 100 = 200: ISO 100.
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: canon(autoRaw: 32, baseRaw: 128))))
        XCTAssertEqual(exif.iso, 100)
        XCTAssertEqual(exif.allTags["Derived.ISO"], "MakerNote.BaseISO×AutoISO")
        XCTAssertEqual(try reader.readExif(from: try jpeg(with: canon(autoRaw: 0, baseRaw: 128, moved: 54)))?.iso, 50,
                       "a note moved without its offsets")
        XCTAssertEqual(try reader.readExif(from: try jpeg(with: canon(autoRaw: 0, baseRaw: 160, fileOrder: .big, moved: -62)))?.iso, 100,
                       "a big-endian file that kept the camera's little-endian note")
        XCTAssertNil(try reader.readExif(from: try jpeg(with: canon(autoRaw: 32, baseRaw: 128, make: "Nikon")))?.iso, "Canon's alone")
        XCTAssertNil(try reader.readExif(from: try jpeg(with: canon(autoRaw: 32, baseRaw: 0)))?.iso, "no base ISO, no ISO")
        var withEXIF = canon(autoRaw: 32, baseRaw: 128)
        withEXIF.exif.append(withEXIF.short(0x8827, 400))
        XCTAssertEqual(try reader.readExif(from: try jpeg(with: withEXIF))?.iso, 400, "EXIF's own ISO wins")
    }

    /// `photo` as a JPEG with `payload` in a segment of `marker` right after its start.
    func jpeg(segment marker: UInt8, _ payload: [UInt8], exif: ExifFixture? = nil) throws -> Data {
        let plain = try exif.map { try jpeg(with: $0) } ?? (try Fixture.jpeg(photo))
        let segment: [UInt8] = [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return plain.prefix(2) + Data(segment) + plain.dropFirst(2)
    }

    /// A CIFF heap as Canon's PowerShot A5 wrote it in APP0: a sub-heap holding the make and model,
    /// the time stamp and (in its record) the focal length.
    func ciff() -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        // The sub-heap: its values, then its table, then the table's offset.
        let names = Array("Canon\0Canon PowerShot A5\0".utf8)
        let stamp = u32(972_687_386) + u32(0) + u32(0) // 2000-10-27 22:56:26
        var inner = names + stamp
        let innerTable = inner.count
        inner += u16(3)
        inner += u16(0x080A) + u32(names.count) + u32(0)
        inner += u16(0x180E) + u32(stamp.count) + u32(names.count)
        inner += u16(0x5029) + u16(0) + u16(5) + u32(0) // in the record: focal type 0, 5 mm
        inner += u32(innerTable)
        var root = inner
        let rootTable = root.count
        root += u16(1) + u16(0x300A) + u32(inner.count) + u32(0) + u32(rootTable)
        return Array("II".utf8) + u32(26) + Array("HEAPJPGM".utf8) + [UInt8](repeating: 0, count: 12) + root
    }

    func testACIFFHeapWhoseRecordsPointBackAtItIsReadOnce() {
        // Each record a sub-heap as large as its heap, that is, the heap again: walked 4 + 4² + … + 4⁸ times
        // (87,380 records) before; with 64 records no import of the photo ever ended.
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        func looping(_ count: Int) -> Data {
            let length = 2 + 10 * count + 4
            let heap = u16(count) + (0..<count).flatMap { _ in u16(0x2800) + u32(length) + u32(0) } + u32(0)
            return Data(Array("II".utf8) + u32(14) + Array("HEAPJPGM".utf8) + heap)
        }
        var values = LegacyJPEGMetadata.Values()
        XCTAssertEqual(LegacyJPEGMetadata.readCIFF(looping(4), into: &values), 4)
        XCTAssertEqual(LegacyJPEGMetadata.readCIFF(looping(1024), into: &values), 1024)
        XCTAssertEqual(values, LegacyJPEGMetadata.Values(), "nothing read from it")
        XCTAssertEqual(LegacyJPEGMetadata.readCIFF(Data(ciff()), into: &values), 4, "a camera's heap: its root's record and the sub-heap's three")

        // Sub-heaps each a byte or more smaller, every one of them again a heap of the same table: some
        // 10⁵ records eight deep, however each is smaller. The reading stops at a budget of records.
        let count = 12, length = 2 + 10 * count + 40
        let shrinking = u16(count) + (1...count).flatMap { u16(0x2800) + u32(length - $0) + u32(0) } + [UInt8](repeating: 0, count: 40)
        let segment = Data(Array("II".utf8) + u32(14) + Array("HEAPJPGM".utf8) + shrinking)
        XCTAssertEqual(LegacyJPEGMetadata.readCIFF(segment, into: &values), LegacyJPEGMetadata.largestCIFFRecordCount)
    }

    /// Cameras from before EXIF was common: Canon's CIFF (APP0) and the "[picture info]" text of
    /// Olympus compacts (APP12), read where EXIF has no value, as exiftool reads them.
    func testValuesFromTheSegmentsOfCamerasBeforeEXIF() throws {
        let canon = try XCTUnwrap(reader.readExif(from: try jpeg(segment: 0xE0, ciff())))
        XCTAssertEqual(canon.make, "Canon")
        XCTAssertEqual(canon.model, "Canon PowerShot A5")
        XCTAssertEqual(canon.takenAt?.iso8601, "2000-10-27T22:56:26")
        XCTAssertEqual(canon.focalLength, 5)
        XCTAssertEqual(canon.allTags["Derived.Model"], "CIFF.MakeModel")

        let text = Array("OLYMPUS OPTICAL CO.,LTD.   \0 713\r\n[picture info]\r\nTimeDate=909698819\r\nShutter=33363\r\n".utf8)
            + Array("Flash=1\r\nFNumber=F2.8\r\n[camera info]\r\nType=SR55\r\n".utf8)
        let olympus = try XCTUnwrap(reader.readExif(from: try jpeg(segment: 0xEC, text)))
        XCTAssertEqual(olympus.takenAt?.iso8601, "1998-10-29T22:06:59")
        XCTAssertEqual(try XCTUnwrap(olympus.exposureTime), 0.033363, accuracy: 1e-12)
        XCTAssertEqual(olympus.fNumber, 2.8)
        XCTAssertEqual(olympus.allTags["Derived.ExposureTime"], "PictureInfo.Shutter")

        // EXIF's own values win; the heap fills only what EXIF lacks.
        let both = try XCTUnwrap(reader.readExif(from: try jpeg(segment: 0xE0, ciff(), exif: .camera())))
        XCTAssertEqual(both.make, "Fixture Optics")
        XCTAssertEqual(both.focalLength, 35)
        XCTAssertNil(both.allTags["Derived.Make"])
        // A heap whose table lies outside it, or loops into itself, gives nothing and breaks nothing.
        var broken = ciff()
        broken.replaceSubrange((broken.count - 4)..<broken.count, with: [0xFF, 0xFF, 0, 0])
        XCTAssertNil(try reader.readExif(from: try jpeg(segment: 0xE0, broken)))
        var looping = ciff()
        let heapLength = looping.count - 26 // the sub-heap made the whole heap: a loop, cut short
        looping.replaceSubrange((looping.count - 12)..<(looping.count - 4), with: [UInt8(heapLength & 0xFF), UInt8(heapLength >> 8), 0, 0, 0, 0, 0, 0])
        XCTAssertNil(try reader.readExif(from: try jpeg(segment: 0xE0, looping))?.make, "the loop ends, the values never reached")
    }

    func testReadsEveryTypedFieldWrittenByTheTestInBothByteOrders() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: .camera(byteOrder: order))), "\(order)")
            XCTAssertEqual(exif.make, "Fixture Optics")
            XCTAssertEqual(exif.model, "FX-100")
            XCTAssertEqual(exif.lens, "Fixture 35mm F2.8")
            XCTAssertEqual(exif.takenAt?.iso8601, "2021-06-15T14:30:05.25+02:00")
            XCTAssertEqual(try XCTUnwrap(exif.exposureTime), 0.004, accuracy: 1e-12)
            XCTAssertEqual(try XCTUnwrap(exif.fNumber), 2.8, accuracy: 1e-12)
            XCTAssertEqual(exif.iso, 400)
            XCTAssertEqual(try XCTUnwrap(exif.focalLength), 35, accuracy: 1e-12)
            XCTAssertEqual(exif.orientation, .right)
            let gps = try XCTUnwrap(exif.gps)
            XCTAssertEqual(gps.latitude, -(33 + 51.0 / 60 + 36.0 / 3600), accuracy: 1e-9)
            XCTAssertEqual(gps.longitude, 151 + 12.0 / 60 + 30.0 / 3600, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(gps.altitude), -12.5, accuracy: 1e-12)
        }
    }

    func testKeepsEveryTagAsText() throws {
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: .camera())))
        XCTAssertEqual(exif.allTags["IFD0.Make"], "Fixture Optics")
        XCTAssertEqual(exif.allTags["EXIF.ExposureTime"], "1/250 sec.")
        XCTAssertEqual(exif.allTags["EXIF.ISOSpeedRatings"], "400")
        XCTAssertNotNil(exif.allTags["GPS.GPSLatitude"])
        XCTAssertEqual(exif.allTags.count, 18)
    }

    func testTheDateTakenIsTheOriginalDateNotTheFileChangeDate() throws {
        var fixture = ExifFixture.camera()
        fixture.exif.removeAll { $0.tag == 0x9003 }
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertNil(exif.takenAt, "IFD0 DateTime (2020-01-01) is when the file changed")
        XCTAssertEqual(exif.allTags["IFD0.DateTime"], "2020:01:01 00:00:00")
    }

    func testAPhotoWithoutEXIFHasNone() throws {
        XCTAssertNil(try reader.readExif(from: try Fixture.jpeg(photo)))
        XCTAssertNil(try reader.readExif(from: try Fixture.png(photo)))
        XCTAssertNil(try reader.readExif(from: Data("not an image".utf8)))
    }

    func testAnEXIFBlockWithoutEntriesIsNone() throws {
        XCTAssertNil(try reader.readExif(from: try jpeg(with: ExifFixture())))
        XCTAssertNil(reader.readExifBlock(Data(ExifLocator.exifHeader)))
    }

    func testReadsTheEXIfChunkOfAPNG() throws {
        let tiff = ExifFixture.camera().encoded().dropFirst(ExifLocator.exifHeader.count)
        let png = try Fixture.png(photo).insertingPNGExif(Data(tiff))
        XCTAssertEqual(try reader.readExif(from: png)?.model, "FX-100")
        XCTAssertEqual(try ImageCodec().decode(png, options: .fullSize).image.width, 8, "the chunk does not break decoding")
    }

    // MARK: Hostile values

    func testZeroDenominatorsGiveNoValue() throws {
        var fixture = ExifFixture()
        fixture.exif = [fixture.rational(0x829A, [(1, 0)]), fixture.rational(0x829D, [(0, 0)]), fixture.rational(0x920A, [(0, 10)])]
        fixture.gps = [fixture.rational(0x0002, [(1, 0), (0, 0), (0, 0)]), fixture.rational(0x0004, [(1, 1), (0, 1), (0, 1)])]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertNil(exif.exposureTime)
        XCTAssertNil(exif.fNumber)
        XCTAssertNil(exif.focalLength, "zero is no focal length")
        XCTAssertNil(exif.gps)
    }

    func testOutOfRangeValuesAreDropped() throws {
        var fixture = ExifFixture()
        fixture.ifd0 = [fixture.short(0x0112, 9)]
        fixture.gps = [fixture.rational(0x0002, [(91, 1)]), fixture.rational(0x0004, [(10, 1)])]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertNil(exif.orientation)
        XCTAssertNil(exif.gps)
    }

    func testValuesOfTheWrongTypeAreIgnored() throws {
        var fixture = ExifFixture()
        fixture.ifd0 = [fixture.ascii(0x0112, "six"), fixture.short(0x010F, 42)]
        fixture.exif = [fixture.ascii(0x829A, "1/250")]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertNil(exif.orientation)
        XCTAssertNil(exif.make)
        XCTAssertNil(exif.exposureTime)
    }

    func testLongIntegersAndSignedRationalsAreRead() throws {
        var fixture = ExifFixture()
        fixture.exif = [fixture.long(0x8827, 3200), fixture.signedRational(0x920A, [(50, 1)])]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertEqual(exif.iso, 3200)
        XCTAssertEqual(exif.focalLength, 50)
    }

    func testHostileStringsComeBackAsCleanText() throws {
        var fixture = ExifFixture()
        fixture.ifd0 = [
            fixture.asciiBytes(0x010F, Array("Make\u{07}\u{1B}[31m".utf8)), // no terminator, control characters
            fixture.asciiBytes(0x0110, [0x4D, 0xFF, 0xFE, 0x6F, 0x00, 0x41]), // invalid UTF-8, text after NUL
            fixture.ascii(0x0131, "   "),
        ]
        let exif = try XCTUnwrap(reader.readExif(from: try jpeg(with: fixture)))
        XCTAssertEqual(exif.make, "Make[31m")
        XCTAssertEqual(exif.model, "M\u{FFFD}\u{FFFD}o")
        XCTAssertFalse(exif.allTags.values.contains { $0.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) } })
    }

    /// The cleaning as Foundation's character sets define it, which `ExifText.clean` does without them.
    func foundationClean(_ bytes: [UInt8]) -> String? {
        let decoded = String(decoding: bytes, as: UTF8.self)
        let printable = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
        let trimmed = printable.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    func testTextIsCleanedAsFoundationsCharacterSetsWould() {
        let texts: [[UInt8]] = [
            Array(" Canon EOS 40D ".utf8), Array("".utf8), Array("    ".utf8), Array("\t\n".utf8),
            Array("\u{00A0}Nikon\u{2003}".utf8), Array("a\u{200B}b\u{FEFF}".utf8), Array("\u{7F}DEL\u{85}".utf8),
            Array("Café — 東京 \u{1F4F7}".utf8), [0xFF, 0x41, 0xC3], [0x20, 0x00, 0x20], Array(" \u{1B}[31mred ".utf8),
        ]
        for text in texts {
            XCTAssertEqual(ExifText.clean(text), foundationClean(text), "\(text)")
        }
        var generator = SeededGenerator(state: 11)
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                [0x20, 0x09, 0x41, 0x7F, 0xC2, 0xA0, 0x85, 0xE2, 0x80, 0x8B, 0xFF].randomElement(using: &generator)! as UInt8
            }
            XCTAssertEqual(ExifText.clean(text), foundationClean(text), "\(text)")
        }
    }

    func testGarbageAfterTheEXIFHeaderIsNotFatal() throws {
        var generator = SeededGenerator(state: 42)
        var read = 0
        for _ in 0..<200 {
            // A directory of a few real tags with random types, counts and values, then noise.
            let count = Int.random(in: 1...8, using: &generator)
            var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, UInt8(count), 0]
            for _ in 0..<count {
                let tag = [0x010F, 0x0110, 0x0112, 0x0131, 0x0132, 0x013B].randomElement(using: &generator)!
                tiff += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8.random(in: 1...12, using: &generator), 0,
                         UInt8.random(in: 0...40, using: &generator), 0, 0, 0,
                         UInt8.random(in: 0...250, using: &generator), 0, 0, 0]
            }
            tiff += [0, 0, 0, 0] + (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let block = Data(ExifLocator.exifHeader + tiff)
            guard let exif = reader.readExifBlock(block) else { continue }
            read += 1
            XCTAssertEqual(reader.readExifBlock(block), exif, "the same bytes read the same way")
            for (key, value) in exif.allTags {
                XCTAssertTrue(["IFD0.", "IFD1.", "EXIF.", "GPS.", "Interop.", "Derived."].contains { key.hasPrefix($0) }, key)
                XCTAssertFalse(value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }, "\(key) keeps no control characters")
            }
        }
        XCTAssertGreaterThan(read, 0, "some noise directories parse into tags, and those were checked")
        // Offsets that point outside the block.
        let outside = Data(ExifLocator.exifHeader + [0x4D, 0x4D, 0, 42, 0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertNil(reader.readExifBlock(outside))
    }

    func testAGPSValueHeldInItsEntryIsNoPlaceToZero() throws {
        // A value of four bytes sits in its entry, where a longer one's offset would: read as an offset (256),
        // it would point into the description, whose bytes there would be zeroed.
        for order in [ExifFixture.ByteOrder.little, .big] {
            var fixture = ExifFixture(byteOrder: order)
            let description = String(repeating: "a long caption ", count: 50)
            fixture.ifd0 = [fixture.ascii(0x010E, description)]
            let inline: [UInt8] = order == .little ? [0, 1, 0, 0] : [0, 0, 1, 0]
            fixture.gps = [fixture.undefined(0x0000, inline), fixture.rational(0x0002, [(48, 1), (51, 1), (0, 1)])]
            let original = try jpeg(with: fixture)
            let stripped = try XCTUnwrap(reader.removingGPS(fromJPEG: original), "\(order)")
            let after = try XCTUnwrap(reader.readExif(from: stripped))
            XCTAssertNil(after.gps, "\(order)")
            XCTAssertEqual(after.allTags["IFD0.ImageDescription"], try XCTUnwrap(reader.readExif(from: original)?.allTags["IFD0.ImageDescription"]),
                           "\(order): the caption whole")
        }
    }

    func testRemovingGPSLeavesIFD0OneEntryShorterWithNoEmptyEntry() throws {
        for order in [ExifFixture.ByteOrder.little, .big] {
            var block = [UInt8](ExifFixture.camera(byteOrder: order).encoded())
            func entryTags() throws -> [UInt16] {
                var tiff = ExifGPSRemoval.TIFFView(bytes: block, base: ExifLocator.exifHeader.count)
                tiff.bigEndian = try XCTUnwrap(tiff.byteOrder)
                let ifd0 = Int(try XCTUnwrap(tiff.u32(4))), count = Int(try XCTUnwrap(tiff.u16(ifd0)))
                return try (0..<count).map { try XCTUnwrap(tiff.u16(ifd0 + 2 + 12 * $0)) }
            }
            let before = try entryTags()
            XCTAssertTrue(ExifGPSRemoval.removeGPS(fromBlock: &block), "\(order)")
            XCTAssertEqual(try entryTags(), before.filter { $0 != ExifGPSRemoval.gpsPointerTag }, "\(order)")
        }
    }
}
