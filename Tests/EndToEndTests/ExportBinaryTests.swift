@testable import Codecs
import Foundation
import Imaging
import Services
import TestSupport
import XCTest
import ZIPFoundation

/// `showhide export` through the built binary, with real codecs and a real zip file.
final class ExportBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    let codec = ImageCodec()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    func testAFolderAndAZipOfTheSameExportHoldTheSameFiles() throws {
        // A red bus on a grey street, 64×32 stored, turned right by its EXIF; and a grey photo with no accent.
        var bus = TestImage.solid(RGBA(red: 120, green: 120, blue: 120), width: 64, height: 32)
        for y in 8..<24 { for x in 8..<24 { bus[x, y] = RGBA(red: 210, green: 20, blue: 30) } }
        try codec.encode(bus, as: .jpeg, options: EncodeOptions(quality: 95, exif: ExifFixture.camera().encoded()))
            .write(to: URL(fileURLWithPath: path("photos/bus.jpg")))
        try codec.encode(TestImage.solid(.white, width: 16, height: 16), as: .jpeg, options: EncodeOptions())
            .write(to: URL(fileURLWithPath: path("photos/snow.jpg")))
        let library = ["--library", path("library")]
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)

        let folder = try binary.run(["export", "--all", "--variant", "all", "--to", path("out"), "--max-size", "40", "--strip-gps"] + library)
        XCTAssertEqual(folder.status, 0, folder.errors)
        let zip = try binary.run(["export", "--all", "--variant", "all", "--zip", path("out.zip"), "--max-size", "40", "--strip-gps",
                                  "--manifest", "csv"] + library)
        XCTAssertEqual(zip.status, 0, zip.errors)
        XCTAssertTrue(zip.output.hasPrefix("exported 4 files"), zip.output)

        let names = try FileManager.default.contentsOfDirectory(atPath: path("out")).sorted()
        XCTAssertEqual(names, ["2021-06-15_bus_hide.jpg", "2021-06-15_bus_original.jpg", "2021-06-15_bus_show.jpg",
                               "manifest.json", "undated_snow_original.jpg"])
        let archive = try Archive(url: URL(fileURLWithPath: path("out.zip")), accessMode: .read, pathEncoding: nil)
        var entries: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            entries[entry.path] = data
        }
        XCTAssertEqual(Set(entries.keys), Set(names + ["manifest.csv"]))
        for name in names where name.hasSuffix(".jpg") {
            let written = try Data(contentsOf: URL(fileURLWithPath: path("out/\(name)")))
            XCTAssertEqual(entries[name]?.count, written.count, name)
            let image = try codec.decode(written, options: .fullSize).image
            XCTAssertEqual(max(image.width, image.height), name.contains("snow") ? 16 : 40, name)
        }
        // The original, made smaller, is upright: stored 64×32 and turned right, it is 20×40 at 40 px.
        let original = try Data(contentsOf: URL(fileURLWithPath: path("out/2021-06-15_bus_original.jpg")))
        let upright = try codec.decode(original, options: .fullSize).image
        XCTAssertEqual(PixelSize(width: upright.width, height: upright.height), PixelSize(width: 20, height: 40))
        let exif = try XCTUnwrap(try LibExifReader().readExif(from: original))
        XCTAssertEqual(exif.orientation, .up)
        XCTAssertEqual(exif.model, "FX-100", "the EXIF is carried")
        XCTAssertNil(exif.gps, "and its position left out")
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path("out/manifest.json"))))
                                        as? [[String: Any]])
        XCTAssertEqual(manifest.count, 4)
        XCTAssertEqual(manifest.first { $0["file"] as? String == "2021-06-15_bus_original.jpg" }?["sha256"] as? String,
                       CryptoHasher().sha256(original))

        // Again with --on-conflict skip after a file was lost: only it is written.
        try FileManager.default.removeItem(atPath: path("out/2021-06-15_bus_show.jpg"))
        let resumed = try binary.run(["export", "--all", "--variant", "all", "--to", path("out"), "--max-size", "40", "--strip-gps",
                                      "--on-conflict", "skip"] + library)
        XCTAssertEqual(resumed.status, 0, resumed.errors)
        XCTAssertTrue(resumed.output.hasPrefix("exported 1 file (1 kB) to "), resumed.output)
        XCTAssertTrue(resumed.output.contains("kept 3"), resumed.output)
    }
}

extension ExportBinaryTests {
    func testStrippingGPSKeepsTheOriginalsImageDataByteForByte() throws {
        var street = TestImage.solid(RGBA(red: 120, green: 120, blue: 120), width: 64, height: 48)
        for y in 8..<24 { for x in 8..<24 { street[x, y] = RGBA(red: 210, green: 20, blue: 30) } }
        let original = try codec.encode(street, as: .jpeg, options: EncodeOptions(quality: 90, exif: ExifFixture.camera().encoded()))
        try original.write(to: URL(fileURLWithPath: path("photos/street.jpg")))
        let library = ["--library", path("library")]
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)

        let export = try binary.run(["export", "--all", "--variant", "original", "--strip-gps", "--to", path("out")] + library)
        XCTAssertEqual(export.status, 0, export.errors)
        let exported = try Data(contentsOf: URL(fileURLWithPath: path("out/2021-06-15_street_original.jpg")))

        let block = try XCTUnwrap(ExifLocator.jpegExifRange(in: original))
        XCTAssertEqual(exported.count, original.count)
        XCTAssertEqual(exported[block.upperBound...], original[block.upperBound...], "every byte after the EXIF block, the image data included")
        XCTAssertEqual(exported[..<block.lowerBound], original[..<block.lowerBound])
        let exif = try XCTUnwrap(try LibExifReader().readExif(from: exported))
        XCTAssertNil(exif.gps)
        XCTAssertEqual(exif.make, "Fixture Optics")
        XCTAssertNotNil(try LibExifReader().readExif(from: original)?.gps, "the original had a position")
    }
}
