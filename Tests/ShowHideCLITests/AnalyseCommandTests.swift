import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class AnalyseCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    let thumbnails = FakeThumbnailCache()
    let catalogue = FakeCatalogue()

    override func setUp() async throws {
        files["/lib/red.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "red", colour: "#D01020")
        files["/lib/blue.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "blue", colour: "#1F5AA6")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(thumbnails.jpegs.count, 2, "import makes each photo's")
        // As a catalogue imported before thumbnails were.
        try thumbnails.forget(Set(thumbnails.jpegs.keys))
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        .fake(console: spy.console, files: files, catalogue: catalogue, thumbnails: thumbnails)
    }

    /// Makes photo `id` look analysed by earlier rules that found no accent.
    func analysedByEarlierRules(_ id: PhotoID) throws {
        try catalogue.write { try $0.setColours(ColourAnalysis(palette: [], accent: nil), of: id) }
        catalogue.analysedByEarlierRules = [id]
    }

    func testCtrlCStopsAnAnalysisThatKeepsWhatItFoundAndExitsWith130() async throws {
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "an interrupted analysis exits with 130") {
            try await AnalyseCommand.parse(["--all", "--jobs", "1"]).run(in: interrupted)
        }
        XCTAssertEqual(spy.output.lines.last?.hasPrefix("analysed 1 photo, 0 accents changed, failed 0 in "), true, spy.output.text)
        XCTAssertEqual(spy.errors.lines, ["interrupted: the colours found are kept; run the same command to go on"])
        XCTAssertEqual(thumbnails.jpegs.count, 1, "no thumbnails made after the stop, only the one analysed")
    }

    func testPhotosWithoutThumbnailsGetThemAndSaySo() async throws {
        let photo = try XCTUnwrap(catalogue.allPhotos.first)
        try await AnalyseCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["made 2 missing thumbnails", "Nothing to analyse: every photo's colours are up to date."])
        spy.output.clear()
        try thumbnails.forget([photo.facts.sha256])
        try await AnalyseCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["made 1 missing thumbnail", "Nothing to analyse: every photo's colours are up to date."])
        XCTAssertNotNil(thumbnails.jpegs[photo.facts.sha256])
        spy.output.clear()
        try await AnalyseCommand.parse(["--json"]).run(in: environment())
        XCTAssertTrue(spy.output.text.contains(#""thumbnailsMade" : 0"#), spy.output.text)
    }

    func testValidation() {
        let refused: [([String], String)] = [
            (["1", "--all"], "Give ids or --all, not both."),
            (["--jobs", "0"], "--jobs must be at least 1, not 0."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try AnalyseCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(AnalyseCommand.message(for: error), message, "\(arguments)")
            }
        }
        XCTAssertNoThrow(try AnalyseCommand.parse([]))
        XCTAssertEqual(try GalleryCommand.parseAsRoot(["analyze", "2"]) is AnalyseCommand, true, "the American spelling works too")
    }

    func testWithoutIdsItAnalysesThePhotosTheEarlierRulesAnalysedAndSaysWhatChanged() async throws {
        let blue = try XCTUnwrap(catalogue.allPhotos.first { $0.path == "/lib/blue.jpg" }).id
        try analysedByEarlierRules(blue)

        try await AnalyseCommand.parse([]).run(in: environment())

        // The analysed photo's thumbnail comes from its analysis; the other's is made apart.
        XCTAssertEqual(spy.output.lines, ["photo \(blue): accent none → blue", "made 1 missing thumbnail",
                                          "analysed 1 photo, 1 accent changed, failed 0 in 0.00 s"])
        XCTAssertEqual(try catalogue.photo(id: blue)?.facts.colours?.accent?.name, .blue)
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().count, 0)

        spy.output.clear()
        try await AnalyseCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["Nothing to analyse: every photo's colours are up to date."])
    }

    func testIdsAndAllAnalyseThosePhotosAndJSONSaysTheSame() async throws {
        try await AnalyseCommand.parse(["--all", "--json"]).run(in: environment())
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(all["analysed"] as? Int, 2)
        XCTAssertEqual((all["accentsChanged"] as? [Any])?.count, 0)

        spy.output.clear()
        try await AnalyseCommand.parse(["1"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["analysed 1 photo, 0 accents changed, failed 0 in 0.00 s"])
    }

    func testAMissingFileIsAFailureWithExitStatus1AndAnUnknownIdIsNotFound() async throws {
        files["/lib/red.jpg"] = nil
        files.expectedMissing = ["/lib/red.jpg"]
        do {
            try await AnalyseCommand.parse(["1", "2"]).run(in: environment())
            XCTFail("a photo could not be read")
        } catch let status as ExitCode {
            XCTAssertEqual(status, ExitStatus.someFilesFailed)
        }
        XCTAssertEqual(spy.errors.lines.count, 1)
        XCTAssertTrue(spy.errors.lines[0].hasPrefix("failed: photo 2 /lib/red.jpg: cannot read the file"), spy.errors.text)

        do {
            try await AnalyseCommand.parse(["9"]).run(in: environment())
            XCTFail("no photo 9")
        } catch let status as ExitCode {
            XCTAssertEqual(status, ExitStatus.notFound)
        }
    }
}
