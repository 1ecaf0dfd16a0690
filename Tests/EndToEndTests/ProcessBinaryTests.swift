import Codecs
import ColourScience
import Foundation
import Imaging
import TestSupport
import XCTest

/// `showhide gallery process` through the built binary, with real codecs.
final class ProcessBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    let codec = ImageCodec()
    let red = RGBA(red: 210, green: 20, blue: 30), green = RGBA(red: 40, green: 150, blue: 60)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    var library: String { directory.appendingPathComponent("library").path }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testVariantsAreUprightCarryTheEXIFAndKeepAlpha() throws {
        // Stored 64×32: a small red block in the left half of a green field; EXIF says "turn right" (6).
        var stored = TestImage.solid(green, width: 64, height: 32)
        for y in 8..<24 { for x in 8..<24 { stored[x, y] = red } }
        try codec.encode(stored, as: .jpeg, options: EncodeOptions(quality: 95, exif: ExifFixture.camera().encoded()))
            .write(to: directory.appendingPathComponent("photos/bus.jpg"))
        var translucent = TestImage.solid(RGBA(red: 128, green: 128, blue: 128, alpha: 160), width: 32, height: 32)
        for y in 0..<4 { for x in 0..<4 { translucent[x, y] = RGBA(red: 20, green: 60, blue: 210, alpha: 200) } }
        try codec.encode(translucent, as: .png, options: EncodeOptions()).write(to: directory.appendingPathComponent("photos/glass.png"))

        XCTAssertEqual(try binary.run(["gallery", "import", directory.appendingPathComponent("photos").path, "--library", library]).status, 0)
        let run = try binary.run(["gallery", "process", "--all", "--library", library, "--json"])
        XCTAssertEqual(run.status, 0, run.errors)
        let made = try XCTUnwrap(try json(run.output)["made"] as? [[String: Any]])
        XCTAssertEqual(made.count, 4)
        XCTAssertEqual(made.compactMap { $0["photo"] as? Int }.sorted(), [1, 1, 2, 2], "each variant names its photo")

        let again = try json(try binary.run(["gallery", "process", "--all", "--library", library, "--json"]).output)
        XCTAssertEqual(again["unchanged"] as? Int, 4, "nothing is made twice")

        for variant in made {
            let path = try XCTUnwrap(variant["path"] as? String)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let image = try codec.decode(data, options: .fullSize).image
            let kind = variant["kind"] as? String
            if path.hasSuffix(".jpg") {
                XCTAssertEqual(image.width, 32, "turned upright")
                XCTAssertEqual(image.height, 64)
                let exif = try XCTUnwrap(try LibExifReader().readExif(from: data))
                XCTAssertEqual(exif.orientation, .up, "orientation reset")
                XCTAssertEqual(exif.model, "FX-100", "the source's EXIF is carried")
                // Stored (16, 16) turns to upright (15, 16); the field far away at (16, 56).
                let block = image[16, 16], field = image[16, 56]
                if kind == "show" {
                    XCTAssertGreaterThan(Int(block.red) - Int(block.green), 100, "the red block keeps its colour: \(block)")
                    XCTAssertLessThan(abs(Int(field.red) - Int(field.green)), 8, "the field is grey: \(field)")
                } else {
                    // Grey within a small JPEG's error: the green around it rings into its chroma a little.
                    XCTAssertLessThan(Lab(block).lch.c, 10, "the red block is grey: \(block)")
                    XCTAssertGreaterThan(Int(field.green) - Int(field.red), 60, "the field keeps its green: \(field)")
                }
            } else {
                XCTAssertEqual(image[0, 0].alpha, 200, "alpha kept")
                XCTAssertEqual(image[20, 20].alpha, 160)
                XCTAssertEqual(image[20, 20], RGBA(red: 128, green: 128, blue: 128, alpha: 160))
                if kind == "show" { XCTAssertEqual(image[0, 0], RGBA(red: 20, green: 60, blue: 210, alpha: 200)) }
            }
        }
        let show = try binary.run(["gallery", "show", "1", "--library", library, "--json"])
        let variants = try XCTUnwrap(try json(show.output)["variants"] as? [[String: Any]])
        XCTAssertEqual(Set(variants.compactMap { $0["kind"] as? String }), ["show", "hide"])
        XCTAssertNotNil((variants.first?["params"] as? [String: Double])?["hue"])
    }

    func testProcessNeedsPhotos() throws {
        let run = try binary.run(["gallery", "process", "--library", library])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.errors.contains("Name the photos to process: their ids, a scope (--in, --since, --until, --camera), or --all."), run.errors)
        XCTAssertEqual(try binary.run(["gallery", "process", "7", "--library", library]).status, 69, "no catalogue yet")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        XCTAssertEqual(try binary.run(["gallery", "import", empty.path, "--library", library]).status, 0)
        XCTAssertEqual(try binary.run(["gallery", "process", "7", "--library", library]).status, 2)
    }
}
