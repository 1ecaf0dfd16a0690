@testable import Codecs
import Fixtures
import Imaging
import TestSupport
import XCTest

final class XMPLocatorTests: XCTestCase {
    let codec = ImageCodec()
    let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:subject="Lisboa, elétrico"/></rdf:RDF></x:xmpmeta>
        """

    /// A JPEG with `packet` in an APP1 segment after its first segment, as editors write it.
    func jpeg(xmp packet: String, exif: Data? = nil) throws -> Data {
        let plain = try codec.encode(quadrants(), as: .jpeg, options: EncodeOptions(exif: exif))
        let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8) + [0, 0]
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return plain.prefix(2) + Data(segment) + plain.dropFirst(2)
    }

    func webp(xmp packet: String) throws -> Data {
        try WebPCodec.setting("XMP ", to: Data(packet.utf8), in: try codec.encode(quadrants(), as: .webp, options: EncodeOptions()))
    }

    func testThePacketIsFoundInEveryContainer() throws {
        var tiffMetadata = ExifFixture()
        tiffMetadata.ifd0 = [tiffMetadata.undefined(700, Array(packet.utf8))]
        let files: [(String, Data)] = [
            ("JPEG", try jpeg(xmp: packet)),
            ("PNG", try codec.encode(quadrants(), as: .png, options: EncodeOptions())
                .insertingPNGText(packet, keyword: "XML:com.adobe.xmp")),
            ("HEIC", try HEIFFixture.encode(quadrants(), xmp: packet)),
            ("WebP", try webp(xmp: packet)),
            ("TIFF", TIFFFixture.encode(quadrants(), metadata: tiffMetadata)),
        ]
        for (name, data) in files {
            XCTAssertEqual(LibExifReader().xmpPacket(from: data), packet, name)
        }
    }

    func testWithoutAPacketThereIsNone() throws {
        let plain: [(String, Data)] = [
            ("JPEG", try codec.encode(quadrants(), as: .jpeg, options: EncodeOptions(exif: ExifFixture.camera().encoded()))),
            ("PNG", try codec.encode(quadrants(), as: .png, options: EncodeOptions()).insertingPNGText("a caption", keyword: "Comment")),
            ("HEIC", try HEIFFixture.encode(quadrants())),
            ("WebP", try codec.encode(quadrants(), as: .webp, options: EncodeOptions())),
            ("TIFF", TIFFFixture.encode(quadrants(), metadata: ExifFixture.camera())),
        ]
        for (name, data) in plain { XCTAssertNil(XMPLocator.packet(in: data), name) }
        XCTAssertNil(XMPLocator.packet(in: try jpeg(xmp: "  \0")), "an empty packet is none")
        XCTAssertNil(XMPLocator.packet(in: Data("not a photo".utf8)))
    }

    func testAPacketThatIsNotUTF8OrTooLongIsLeftOut() throws {
        var metadata = ExifFixture()
        metadata.ifd0 = [metadata.undefined(700, [0x3C, 0xFF, 0xFE, 0x3E])]
        XCTAssertNil(XMPLocator.packet(in: TIFFFixture.encode(quadrants(), metadata: metadata)))
        let long = "<x>" + String(repeating: "a", count: XMPLocator.maximumLength) + "</x>"
        XCTAssertNil(XMPLocator.packet(in: try HEIFFixture.encode(quadrants(), xmp: long)))
    }

    func testAPacketToWriteIsFoundInEveryFormatShowhideWritesAndChangesNoPixel() throws {
        let mark = ShowhidePictureMark.packet("show")
        let exif = ExifFixture.camera().encoded()
        let image = quadrants(), rows = RowSource(image)
        for format in [ImageFormat.jpeg, .png, .webp] {
            let plain = try codec.encode(image, as: format, options: EncodeOptions(exif: exif))
            let marked = try codec.encode(image, as: format, options: EncodeOptions(exif: exif, xmp: mark))
            let markedRows = try codec.encode(rows, as: format, options: EncodeOptions(exif: exif, xmp: mark))
            for (name, data) in [("\(format) whole", marked), ("\(format) by rows", markedRows)] {
                XCTAssertEqual(XMPLocator.packet(in: data), mark, name)
                XCTAssertTrue(ShowhidePictureMark.marks(XMPLocator.packet(in: data)), name)
                XCTAssertEqual(try codec.decode(data, options: DecodeOptions()).image.bytes,
                               try codec.decode(plain, options: DecodeOptions()).image.bytes, "\(name): the same pixels")
                if format.carriesExif { XCTAssertEqual(try LibExifReader().readExif(from: data)?.make, "Fixture Optics", "\(name): EXIF kept") }
            }
            XCTAssertFalse(ShowhidePictureMark.marks(XMPLocator.packet(in: plain)), "\(format) without a packet")
        }
    }

    func testThePNGChunkAddedAfterTheHeaderHasTheRightCRC() throws {
        let marked = try codec.encode(quadrants(), as: .png, options: EncodeOptions(xmp: "<x/>"))
        let fixture = PNGFixture(width: 1, height: 1, colourType: .grey, samples: [0])
        let expected = fixture.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x/>".utf8))
        XCTAssertEqual(Array(marked[33..<(33 + expected.count)]), expected, "right after IHDR, its CRC as PNG's own")
        XCTAssertEqual(Array(marked[12..<16]), Array("IHDR".utf8))
    }

    func testOnlyAPacketInShowhidesNamespaceMarksAPicture() {
        XCTAssertTrue(ShowhidePictureMark.marks(ShowhidePictureMark.packet("hide")))
        XCTAssertTrue(ShowhidePictureMark.packet("hide").contains(#"showhide:Picture="hide""#))
        XCTAssertFalse(ShowhidePictureMark.marks(packet), "an editor's packet")
        XCTAssertFalse(ShowhidePictureMark.marks(#"<x:xmpmeta><rdf:Description xmp:CreatorTool="showhide"/></x:xmpmeta>"#),
                       "the tool's name alone: a person may type it")
        XCTAssertFalse(ShowhidePictureMark.marks(nil))
        // Anywhere in a packet an editor rewrote, however long; a namespace it only begins is none.
        let long = String(repeating: "<rdf:li>urn:showhide:pic</rdf:li>", count: 2_000)
        XCTAssertTrue(ShowhidePictureMark.marks(long + "xmlns:showhide=\"urn:showhide:picture:1.0/\""))
        XCTAssertTrue(ShowhidePictureMark.marks("urn:showhide:picture:1.0/" + long))
        XCTAssertFalse(ShowhidePictureMark.marks(long + "urn:showhide:picture:1.0"), "cut short at the end")
        XCTAssertFalse(ShowhidePictureMark.marks("urn:showhide"))
    }

    func testTheXMPOrientationTurnsAPhotoWhoseEXIFHasNone() throws {
        let turned = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description tiff:Orientation="6"/></rdf:RDF></x:xmpmeta>"#
        let data = try jpeg(xmp: turned)
        let exif = try XCTUnwrap(try LibExifReader().readExif(from: data))
        XCTAssertEqual(exif.orientation, .right)
        XCTAssertEqual(exif.allTags["Derived.Orientation"], "XMP.tiff:Orientation")
        let decoded = try codec.decode(data, options: DecodeOptions(appliesOrientation: true))
        XCTAssertEqual(decoded.appliedOrientation, .right)
        assertQuadrantsMatch(decoded.image, quadrants().applying(.right))

        // EXIF's orientation, where there is one, is the one that counts.
        var upright = ExifFixture()
        upright.ifd0 = [upright.short(0x0112, 1)]
        let both = try jpeg(xmp: turned, exif: upright.encoded())
        XCTAssertEqual(try LibExifReader().readExif(from: both)?.orientation, .up)
        XCTAssertEqual(try codec.decode(both, options: DecodeOptions(appliesOrientation: true)).appliedOrientation, .up)
    }

    func testTheOrientationIsReadAsAnAttributeOrAnElement() {
        func orientation(_ packet: String) -> Orientation? { XMPLocator.orientation(inPacket: Array(packet.utf8)) }
        XCTAssertEqual(orientation(#"<rdf:Description tiff:Orientation = '8' />"#), .left)
        XCTAssertEqual(orientation("<tiff:Orientation> 3 </tiff:Orientation>"), .down)
        XCTAssertEqual(orientation(#"<x tiff:OrientationNote="7" tiff:Orientation="2"/>"#), .upMirrored, "the tag itself, not a longer name")
        XCTAssertNil(orientation("<tiff:Orientation>9</tiff:Orientation>"))
        XCTAssertNil(orientation("<tiff:Orientation>12</tiff:Orientation>"))
        XCTAssertNil(orientation(#"<x tiff:Orientation="6"#), "cut short")
        XCTAssertNil(orientation(#"<rdf:Description exif:PixelXDimension="6"/>"#))
    }
}

final class XMPGPSRemovalTests: XCTestCase {
    static let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
         xmp:Rating="4" exif:GPSLatitude="51,30.0N" exif:GPSLongitude='0,7.5W' exif:GPSVersionID="2.3.0.0">
        <exif:GPSAltitude>35/1</exif:GPSAltitude>
        <exif:GPSTimeStamp/>
        <dc:subject xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Bag><rdf:li>bus</rdf:li></rdf:Bag></dc:subject>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    func testAPacketLosesEveryGPSPropertyAndKeepsTheRest() throws {
        let cleaned = try XCTUnwrap(XMPGPSRemoval.removingGPS(fromPacket: Self.packet))
        XCTAssertFalse(cleaned.contains("GPS"), cleaned)
        XCTAssertTrue(cleaned.contains(#"xmp:Rating="4""#))
        XCTAssertTrue(cleaned.contains("<rdf:li>bus</rdf:li>"))
        XCTAssertTrue(cleaned.contains("</rdf:Description></rdf:RDF></x:xmpmeta>"), "its structure whole")
        XCTAssertNil(XMPGPSRemoval.removingGPS(fromPacket: cleaned), "nothing left to remove")
    }

    func testAJPEGsPacketLosesItsPositionAndNothingElseOfTheFileChanges() throws {
        let image = TestImage.solid(.red, width: 16, height: 16)
        let original = try JPEGCodec().encode(image, quality: 90, exif: ExifFixture.camera().encoded(), xmp: Self.packet)
        // Through the reader's door for exports, which removes EXIF's GPS directory as well.
        let stripped = try XCTUnwrap(LibExifReader().removingGPS(fromJPEG: original))
        let packet = try XCTUnwrap(XMPLocator.packet(in: stripped))
        XCTAssertFalse(packet.contains("GPS"))
        XCTAssertTrue(packet.contains(#"xmp:Rating="4""#))
        XCTAssertNil(try LibExifReader().readExif(from: stripped)?.gps)
        XCTAssertEqual(try JPEGCodec().decode(stripped, options: .fullSize).image, try JPEGCodec().decode(original, options: .fullSize).image)
        XCTAssertNil(XMPGPSRemoval.removingGPS(fromJPEG: stripped))
    }
}
