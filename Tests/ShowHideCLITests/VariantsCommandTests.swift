import ArgumentParser
import Catalogue
import Foundation
import GalleryJSON
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class VariantsCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    let catalogue = FakeCatalogue()

    func environment() -> AppEnvironment {
        .fake(console: spy.console, files: files, catalogue: catalogue)
    }

    override func setUp() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "a", colour: "#D01020")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        try catalogue.recordVariant(Variant(photoID: 1, kind: "show", parameters: #"{"feather":10,"hue":30,"minimumChroma":12,"tolerance":12}"#,
                                            path: "/library/variants/old.jpg", fileSize: 1, pixelSize: PixelSize(width: 8, height: 6),
                                            sha256: "", createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
        try catalogue.recordVariant(Variant(photoID: 1, kind: "show", parameters: #"{"feather":10,"hue":200,"minimumChroma":12,"tolerance":12}"#,
                                            path: "/library/variants/new.jpg", fileSize: 1, pixelSize: PixelSize(width: 8, height: 6),
                                            sha256: "", createdAt: Date(timeIntervalSince1970: 1_700_000_100)))
        files["/library/variants/old.jpg"] = Data([1])
        files["/library/variants/new.jpg"] = Data([1])
        spy.output.clear()
    }

    func testTheListSaysWhatMadeEachVariant() throws {
        try VariantsCommand.parse(["1"]).run(in: environment())
        let header = try XCTUnwrap(spy.output.lines.first)
        XCTAssertTrue(header.hasPrefix("PHOTO  KIND  SIZE  MADE WITH  ") && header.hasSuffix("  CREATED               FILE"), header)
        XCTAssertTrue(spy.output.lines[1].contains("hue mode, hue 30°, tolerance 12°, feather 10°, chroma from 12"), spy.output.text)
        XCTAssertTrue(spy.output.lines[1].hasSuffix("2023-11-14T22:13:20Z  /library/variants/old.jpg"), spy.output.lines[1])
        XCTAssertEqual(spy.output.lines.count, 3)
    }

    func testTheListGivesEachVariantsFileInThisLibrary() throws {
        // Restored from a backup into /restored: the rows still name /old, whose files are another library's.
        let recorded = "/old/lib/variants/ab/abc/show-1.jpg"
        try catalogue.recordVariant(Variant(photoID: 1, kind: "hide", parameters: "{}", path: recorded, fileSize: 1,
                                            pixelSize: PixelSize(width: 8, height: 6), sha256: "", createdAt: Date(timeIntervalSince1970: 1_700_000_200)))
        files[recorded] = Data([1])
        files["/restored/variants/ab/abc/show-1.jpg"] = Data([1])
        try VariantsCommand.parse(["--library", "/restored"]).run(in: environment())
        XCTAssertTrue(spy.output.lines[3].hasSuffix("  /restored/variants/ab/abc/show-1.jpg"), spy.output.text)
        XCTAssertTrue(spy.output.lines[1].hasSuffix("  /library/variants/old.jpg (no file of it in this library)"), spy.output.text)
        spy.output.clear()
        try VariantsCommand.parse(["--library", "/restored", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.last?["path"] as? String, recorded, "the JSON as the catalogue holds it")
    }

    func testPruningKeepsTheNewestAndSaysWhatWent() throws {
        try VariantsCommand.parse(["--prune"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, [
            "removed photo 1 show (hue mode, hue 30°, tolerance 12°, feather 10°, chroma from 12): /library/variants/old.jpg",
            "removed 1 variant; each photo keeps its newest parameter set",
        ])
        XCTAssertNil(files["/library/variants/old.jpg"])
        spy.output.clear()
        try VariantsCommand.parse(["--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["path"] as? String }, ["/library/variants/new.jpg"])
        XCTAssertEqual(json.first?["createdAt"] as? String, ISO8601.string(try XCTUnwrap(catalogue.allVariants().first).createdAt),
                       "when it was made, as the table shows it")
    }

    func testNoVariantsAndAnUnknownId() throws {
        try VariantsCommand.parse(["--prune", "--json"]).run(in: environment())
        try catalogue.write { try $0.removeVariant(atPath: "/library/variants/new.jpg") }
        spy.output.clear()
        try VariantsCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.errors.lines.last, "No variants have been made yet: `showhide gallery process` makes them.")
        try VariantsCommand.parse(["1"]).run(in: environment())
        XCTAssertEqual(spy.errors.lines.last, "Photo 1 has no variants yet: `showhide gallery process 1` makes them.", "the photo asked about, named")
        XCTAssertThrowsError(try VariantsCommand.parse(["9"]).run(in: environment())) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.notFound)
        }
    }
}
