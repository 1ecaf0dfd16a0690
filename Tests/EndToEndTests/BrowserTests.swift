import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// The gallery in a real browser (Debian's chromium, driven over WebDriver by chromedriver, through
/// scripts/browser-walk): the grid, a colour swatch, a photo, its second accent candidate, the
/// tolerance slider, and a screenshot of the grid and of the photo page.
final class BrowserTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var library: String { directory.appendingPathComponent("library").path }
    static let chromium = "/usr/bin/chromium", chromedriver = "/usr/bin/chromedriver"

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromedriver), FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            throw XCTSkip("chromium and chromium-driver are not installed (scripts/test installs them)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-browser-\(UUID().uuidString)")
        let photos = directory.appendingPathComponent("photos")
        try LibraryFixture.writePhotos(36, into: photos, size: 160)
        try Self.writeTwoSubjects(to: photos.appendingPathComponent("bus-and-sea.jpg"))
        let imported = try binary.run(["gallery", "import", photos.path, "--library", library])
        XCTAssertEqual(imported.status, 0, imported.errors)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A grey street with a large red bus and a smaller blue sign: two accent candidates.
    static func writeTwoSubjects(to url: URL) throws {
        var image = TestImage.solid(RGBA(red: 118, green: 120, blue: 122), width: 320, height: 240)
        for y in 120..<200 { for x in 30..<190 { image[x, y] = RGBA(red: 205, green: 25, blue: 30) } }
        for y in 30..<80 { for x in 230..<290 { image[x, y] = RGBA(red: 30, green: 80, blue: 200) } }
        try ImageCodec().encode(image, as: .jpeg, options: EncodeOptions(quality: 90)).write(to: url)
    }


    /// The address `serve --host` prints carries the access token; a link with it from a page that is not
    /// the gallery's (an inspiration page opened as a file) opens the photo, not a 401.
    func testALinkWithTheAccessTokenFromAnotherPageOpensTheGallery() async throws {
        let server = try RunningShowhide(binary, ["serve", "--host", "0.0.0.0", "--port", "0", "--library", library], outputFolder: directory)
        defer { kill(server.process.processIdentifier, SIGTERM); server.wait() }
        let address = try XCTUnwrap(server.servingAddress(), server.wait().errors)
        let port = try XCTUnwrap(address.split(separator: ":").last?.split(separator: "/").first)
        let token = try XCTUnwrap(address.components(separatedBy: "?token=").last)
        let page = directory.appendingPathComponent("ideas.html")
        try #"<!DOCTYPE html><html><body><a href="http://127.0.0.1:\#(port)/photos/1?token=\#(token)">the first photo</a></body></html>"#
            .write(to: page, atomically: true, encoding: .utf8)

        let (status, steps, failure) = try ProjectScript.run("browser-walk", ["--open-link", page.absoluteString], home: directory.path)

        XCTAssertEqual(status, 0, steps + failure)
        XCTAssertTrue(steps.contains("the link opened http://127.0.0.1:\(port)/photos/1: "), steps)
        XCTAssertFalse(steps.contains("401"), "the token traded for a cookie the redirect carries: \(steps)")
    }

    func testAPersonBrowsesByColourChoosesASubjectAndMovesTheTolerance() async throws {
        let server = try RunningShowhide(binary, ["serve", "--port", "0", "--library", library], outputFolder: directory)
        defer { kill(server.process.processIdentifier, SIGTERM); server.wait() }
        let base = try XCTUnwrap(server.servingAddress(), server.wait().errors)

        // The walk is the project's own WebDriver script (Python's standard library, no Selenium).
        let screenshots = ProcessInfo.processInfo.environment["SHOWHIDE_SCREENSHOTS"] ?? directory.path
        let (status, steps, failure) = try ProjectScript.run("browser-walk", [base, screenshots], home: directory.path)
        XCTAssertEqual(status, 0, steps + failure)
        XCTAssertTrue(steps.contains("the grid shows 37 photos"), steps)
        XCTAssertTrue(steps.contains("the accent with no colour: the colour asked for, then left out"), steps)
        XCTAssertTrue(steps.contains("the second candidate is the subject: ['blue"), steps)
        XCTAssertTrue(steps.contains("/splash/show?candidate=accent&mode=object&tolerance=15"), steps)
        // The two ticked red photos' show pictures, with the export's manifest.
        let download = try XCTUnwrap(steps.split(separator: "\n").first { $0.contains("downloaded showhide-show-2-photos.zip") }, steps)
        XCTAssertEqual(download.components(separatedBy: "_show.jpg").count - 1, 2, String(download))
        XCTAssertTrue(download.contains("manifest.json"), String(download))
        for name in ["gallery-grid.png", "gallery-photo.png"] {
            let png = try Data(contentsOf: URL(fileURLWithPath: screenshots).appendingPathComponent(name))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "\(name) is a PNG")
        }
    }
}
