import Imaging
import XCTest

final class ImageFormatTests: XCTestCase {
    func testRecognisesJPEGAndPNGByTheirFirstBytes() {
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8]), .jpeg)
        XCTAssertEqual(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        // A TIFF cut short after its signature is still a TIFF (its decoder says it is truncated).
        XCTAssertEqual(ImageFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0, 0]), .tiff)
        XCTAssertEqual(ImageFormat.sniff([0x4D, 0x4D, 0x00, 0x2A]), .tiff)
    }

    func testRefusesEverythingElse() {
        XCTAssertNil(ImageFormat.sniff([UInt8]()))
        XCTAssertNil(ImageFormat.sniff([0xFF]))
        XCTAssertNil(ImageFormat.sniff(Array("GIF89a".utf8)))
        XCTAssertNil(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A])) // PNG signature cut short
        XCTAssertNil(ImageFormat.sniff(Array("<html>".utf8)))
    }

    func testFileExtensions() {
        XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
        XCTAssertEqual(ImageFormat.png.fileExtension, "png")
    }
}

/// Errors in words: what `plainDescription` makes of our errors, Foundation's and the system's.
final class ErrorDescriptionTests: XCTestCase {
    struct Worded: LocalizedError { var errorDescription: String? { "the photo is too small" } }
    enum Plain: Error { case tooBig }

    func testOurOwnDescriptionsAreKept() {
        XCTAssertEqual(Worded().plainDescription, "the photo is too small")
        XCTAssertEqual(ImagingError.invalidDimensions(width: 0, height: 2).plainDescription, "an image must be at least 1×1 pixels, not 0×2")
        XCTAssertEqual(Plain.tooBig.plainDescription, "tooBig")
    }

    func testFoundationErrorsBecomeTheSystemsReason() throws {
        XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/file"))) { error in
            XCTAssertEqual(error.plainDescription, "no such file or directory")
        }
        XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: "/"))) { error in
            XCTAssertEqual(error.plainDescription, "is a directory")
        }
        let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))
        XCTAssertEqual(CocoaError(.fileReadUnknown, userInfo: [NSUnderlyingErrorKey: underlying]).plainDescription, "permission denied")
        XCTAssertEqual(CocoaError(.fileWriteOutOfSpace).plainDescription, "no space left on device")
        XCTAssertEqual(CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot write /x"]).plainDescription, "cannot write /x")
        XCTAssertEqual(CocoaError(.coderValueNotFound).plainDescription, "the system reported error \(CocoaError.coderValueNotFound.rawValue)")
        XCTAssertEqual(NSError(domain: "Elsewhere", code: 7).plainDescription, "an unexpected error (Elsewhere 7)")
    }
}

/// Photos showhide does not read yet are recognised by their first bytes, so an import can name them.
final class UnsupportedPhotoFormatTests: XCTestCase {
    static func isoFile(brand: String) -> [UInt8] { [0, 0, 0, 0x18] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] }

    func format(_ bytes: [UInt8], _ fileExtension: String = "") -> String? {
        UnsupportedPhotoFormat.sniff(bytes, fileExtension: fileExtension)
    }

    func testEachFormatByItsFirstBytes() {
        for brand in ["heic", "mif1", "avif"] {
            XCTAssertNil(format(Self.isoFile(brand: brand)), "\(brand): read now")
            XCTAssertEqual(ImageFormat.sniff(Self.isoFile(brand: brand)), .heif, brand)
        }
        XCTAssertEqual(format(Self.isoFile(brand: "crx ")), "camera raw (CR3)")
        XCTAssertNil(format(Self.isoFile(brand: "qt  ")), "a QuickTime movie is not a photo")
        XCTAssertNil(format(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), "WebP: read now")
        XCTAssertEqual(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertNil(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)))
        XCTAssertNil(format(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)), "a WAVE sound is not a photo")
        XCTAssertEqual(format(Array("FUJIFILMCCD-RAW 0201".utf8)), "camera raw (RAF)")
        XCTAssertEqual(format([0x49, 0x49, 0x52, 0x4F, 8, 0, 0, 0]), "camera raw (ORF)")
        XCTAssertEqual(format([0x49, 0x49, 0x55, 0x00, 8, 0, 0, 0]), "camera raw (RW2)")
        XCTAssertEqual(format([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0]), "camera raw (CR2)")
        XCTAssertNil(format([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "tif"), "TIFF: read now")
        XCTAssertEqual(ImageFormat.sniff([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0]), .tiff)
        XCTAssertEqual(ImageFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0, 0, 0]), .tiff)
        XCTAssertEqual(format([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "NEF"), "camera raw (NEF)", "TIFF inside, raw by name")
        XCTAssertEqual(format([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "dng"), "camera raw (DNG)")
        XCTAssertNil(format(Array("ftyp".utf8)), "too short to hold a brand")
        XCTAssertNil(format([0xFF, 0xD8, 0xFF, 0xE0]), "a JPEG is read, not unsupported")
        XCTAssertNil(format([]))
    }

    func testTheTurnLeftIsEXIFsExceptForAHEIFWhichItsDecoderTurned() {
        for format in [ImageFormat.jpeg, .png, .webp, .tiff] {
            XCTAssertEqual(format.orientationLeft(.right), .right, "\(format)")
        }
        XCTAssertEqual(ImageFormat.heif.orientationLeft(.right), .up)
        XCTAssertNil(ImageFormat.heif.orientationLeft(nil), "a file that says nothing still says nothing")
        XCTAssertNil(ImageFormat.jpeg.orientationLeft(nil))
        // The EXIF every JSON gives: only the orientation changes.
        let written = ExifMetadata(make: "Apple", orientation: .right)
        XCTAssertEqual(ImageFormat.heif.exifWithOrientationLeft(written), ExifMetadata(make: "Apple", orientation: .up))
        XCTAssertEqual(ImageFormat.jpeg.exifWithOrientationLeft(written), written)
    }
}
