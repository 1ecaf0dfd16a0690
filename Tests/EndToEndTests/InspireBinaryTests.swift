import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// `showhide inspire` through the built binary: the ranking, and a page whose pictures exist.
final class InspireBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    let codec = ImageCodec()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-inspire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    func testAVividAccentInAStreetRanksFirstAndThePageShowsIt() throws {
        // A shaded red bus in a grey street with a green verge: a photo-sized frame (a thumbnail is
        // too small a picture) with colour besides the bus for the show picture to take away.
        var bus = TestImage.solid(RGBA(red: 120, green: 120, blue: 120), width: 640, height: 480)
        for y in 380..<480 { for x in 0..<640 { bus[x, y] = RGBA(red: 60, green: 140, blue: 50) } }
        for y in 200..<320 { for x in 200..<360 { bus[x, y] = RGBA(red: UInt8(150 + (x - 200) * 3 / 8), green: 20, blue: 30) } }
        try codec.encode(bus, as: .jpeg, options: EncodeOptions(quality: 95)).write(to: URL(fileURLWithPath: path("photos/bus.jpg")))
        let lawn = TestImage.solid(RGBA(red: 40, green: 150, blue: 50), width: 64, height: 48)
        try codec.encode(lawn, as: .png, options: EncodeOptions()).write(to: URL(fileURLWithPath: path("photos/lawn.png")))
        let fog = TestImage.solid(RGBA(red: 128, green: 128, blue: 128), width: 64, height: 48)
        try codec.encode(fog, as: .jpeg, options: EncodeOptions()).write(to: URL(fileURLWithPath: path("photos/fog.jpg")))
        let library = ["--library", path("library")]
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)

        let list = try binary.run(["inspire", "--json"] + library)
        XCTAssertEqual(list.status, 0, list.errors)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        let files = entries.compactMap { (($0["photo"] as? [String: Any])?["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        XCTAssertEqual(files, ["bus.jpg"], "a frame of one colour has no accent to single out; the grey one has nothing to splash")
        XCTAssertGreaterThan(try XCTUnwrap(entries.first?["score"] as? Double), 30)

        let page = try binary.run(["inspire", "--html", path("out/inspiration.html")] + library)
        XCTAssertEqual(page.status, 0, page.errors)
        let html = try String(contentsOfFile: path("out/inspiration.html"), encoding: .utf8)
        let sources = try NSRegularExpression(pattern: "src=\"([^\"]*)\"").matches(in: html, range: NSRange(html.startIndex..., in: html))
            .map { String(html[Range($0.range(at: 1), in: html)!]) }
        XCTAssertEqual(sources.count, 3, "original, show and hide")
        for source in sources {
            let picture = try codec.decode(try Data(contentsOf: URL(fileURLWithPath: path("out/" + source))), options: .fullSize)
            XCTAssertEqual(picture.format, .jpeg, source)
            XCTAssertLessThanOrEqual(max(picture.image.width, picture.image.height), 512)
        }
    }
}
