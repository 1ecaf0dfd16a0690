import Imaging
import XCTest

final class ImageFormatTests: XCTestCase {
    func testRecognisesJPEGAndPNGByTheirFirstBytes() {
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat.sniff([0xFF, 0xD8]), .jpeg)
        XCTAssertEqual(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
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
