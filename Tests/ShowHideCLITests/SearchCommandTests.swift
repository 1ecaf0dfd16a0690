import ArgumentParser
import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class SearchCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!

    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/red.jpg"] = FakePhoto.data(seed: "red", make: "Canon", colour: "#D01020")
        files["/lib/blue.jpg"] = FakePhoto.data(seed: "blue", make: "Nikon", colour: "#1F5AA6")
        files["/lib/grey.jpg"] = FakePhoto.data(seed: "grey", colour: "#808080")
        // The import encodes thumbnails; a search encodes nothing.
        try await ImportCommand.parse(["/lib"]).run(in: environment(encoder: RecordingEncoder()))
        spy.output.clear()
    }

    func environment(console: Console? = nil, encoder: any ImageEncoding = UnusedEncoder()) -> AppEnvironment {
        let catalogue = self.catalogue!
        return .fake(console: console ?? spy.console, files: files, catalogue: catalogue, encoder: encoder, variables: [:])
    }

    func testAcceptsColourAndColorNamesAndHex() throws {
        XCTAssertEqual(try SearchCommand.parse(["--colour", "red"]).target, .name(.red))
        XCTAssertEqual(try SearchCommand.parse(["--color", "gray"]).target, .name(.grey))
        XCTAssertEqual(try SearchCommand.parse(["--colour", "#1f5aa6"]).target, .colour(Lab(RGBA(red: 0x1F, green: 0x5A, blue: 0xA6))))
        XCTAssertEqual(try SearchCommand.parse(["--colour", "rgb(1,2,3)"]).target, .colour(Lab(RGBA(red: 1, green: 2, blue: 3))))
    }

    func testTheColourMayBeSaidAsWordsWithHowItStandsInThePhoto() throws {
        let plain = try SearchCommand.parse(["red"])
        XCTAssertEqual(plain.target, .name(.red))
        XCTAssertEqual([plain.accentOnly ? 1 : 0, plain.largestCoverage], [0, 100])
        for words in [["orange as a small accent"], ["orange", "as", "a", "small", "accent"], ["--colour", "a small Orange accent"]] {
            let small = try SearchCommand.parse(words)
            XCTAssertEqual(small.target, .name(.orange), "\(words)")
            XCTAssertTrue(small.accentOnly, "\(words)")
            XCTAssertEqual(small.largestCoverage, 10, "\(words): a small accent covers at most a tenth")
        }
        let accent = try SearchCommand.parse(["#1f5aa6 as the accent", "--max-coverage", "40", "--within", "8"])
        XCTAssertEqual(accent.target, .colour(Lab(RGBA(red: 0x1F, green: 0x5A, blue: 0xA6))))
        XCTAssertEqual([accent.accentOnly ? 1 : 0, accent.largestCoverage, accent.within], [1, 40, 8])
        XCTAssertEqual(try SearchCommand.parse(["orange as a small accent", "--max-coverage", "5"]).largestCoverage, 5, "the smaller share")
        XCTAssertTrue(try SearchCommand.parse(["red", "--accent"]).accentOnly)

        let refused: [([String], String)] = [
            (["--limit", "3"], "Give a colour to look for: showhide gallery search orange, \"orange as a small accent\" or --colour #1f5aa6."),
            (["red", "--colour", "blue"], "Give the colour once: as words (red) or after --colour, not both."),
            (["orange as a tiny accent"], "'orange as a tiny accent' is not a colour search showhide understands: say a colour (orange, #1f5aa6), "
                + "'orange as the accent' or 'orange as a small accent'."),
            (["organge", "as", "the", "accent"], "'organge' is not a colour: did you mean orange? The names are black, white, grey, red, orange, "
                + "yellow, green, blue, purple, pink, brown (or gray); or give #RRGGBB, #RGB or rgb(r,g,b)."),
            (["red as a small accent", "--min-coverage", "20"], "--min-coverage 20% is above a small accent's 10%: no share is both."),
            (["red accent", "--within", "5"], "--within is for a #RRGGBB or rgb() colour; a name such as 'red' covers its own colours."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try SearchCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(SearchCommand.message(for: error), message, "\(arguments)")
            }
        }
    }

    func testASmallAccentSearchFindsOnlyPhotosWhoseAccentIsSmall() throws {
        // The fake photos' subjects cover 11%: a small accent is at most 10%.
        try SearchCommand.parse(["red as the accent", "--json"]).run(in: environment())
        let found = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(found.map { $0["path"] as? String }, ["/lib/red.jpg"])
        spy.output.clear()
        try SearchCommand.parse(["red as a small accent", "--json"]).run(in: environment())
        let none = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(none.count, 0)
    }

    func testRejectsWhatIsNotAColourAndOutOfRangeOptions() {
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "teal"])) { error in
            XCTAssertTrue(SearchCommand.message(for: error).contains("'teal' is not a colour"))
        }
        XCTAssertThrowsError(try SearchCommand.parse([]))
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "#1f5aa6", "--within", "0"])) { error in
            XCTAssertEqual(SearchCommand.message(for: error), "--within takes a ΔE00 above 0 and at most 100.")
        }
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "red", "--within", "5"])) { error in
            XCTAssertEqual(SearchCommand.message(for: error),
                           "--within is for a #RRGGBB or rgb() colour; a name such as 'red' covers its own colours.", "not ignored in silence")
        }
        XCTAssertEqual(try SearchCommand.parse(["--colour", "#1f5aa6", "--within", "5"]).within, 5)
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "red", "--max-coverage", "101"])) { error in
            XCTAssertEqual(SearchCommand.message(for: error), "--max-coverage takes a percentage from 0 to 100.")
        }
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "red", "--min-coverage", "20", "--max-coverage", "10"])) { error in
            XCTAssertEqual(SearchCommand.message(for: error), "--min-coverage 20% is above --max-coverage 10%: no share is both.")
        }
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "red", "--min-coverage", "101"]))
        XCTAssertNoThrow(try SearchCommand.parse(["--colour", "red", "--min-coverage", "10", "--max-coverage", "10"]), "one share is both")
        XCTAssertThrowsError(try SearchCommand.parse(["--colour", "red", "--since", "soon"]))
    }

    func testSearchByNameShowsWhyEachPhotoMatched() throws {
        try SearchCommand.parse(["--colour", "red"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, [
            "ID  FILE     SHARE  ΔE00  MATCH        COLOURS",
            "3   red.jpg  11%    -     #D01020 red  grey, accent red 11%",
        ])
        try files.remove("/lib/red.jpg")
        spy.output.clear()
        try SearchCommand.parse(["--colour", "red"]).run(in: environment())
        XCTAssertEqual(spy.output.lines[1], "3   red.jpg (file gone)  11%    -     #D01020 red  grey, accent red 11%")
        XCTAssertEqual(spy.errors.lines.last, "1 photo listed here has no file at its path (gallery check lists them; gallery remove --missing forgets them)")
    }

    func testSearchByHexGivesTheDifference() throws {
        try SearchCommand.parse(["--colour", "#2060A0", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["path"] as? String }, ["/lib/blue.jpg"])
        let match = try XCTUnwrap(json[0]["match"] as? [String: Any])
        XCTAssertEqual(match["name"] as? String, "blue")
        XCTAssertEqual(match["hex"] as? String, "#1F5AA6")
        XCTAssertEqual(try XCTUnwrap(match["coverage"] as? Double), 1.0 / 9, accuracy: 0.003, "a subject, a ninth of the frame, on a grey ground")
        XCTAssertLessThan(try XCTUnwrap(match["deltaE"] as? Double), 3)
        XCTAssertNotNil(json[0]["palette"], "the photo's own keys are kept")
    }

    func testTheDifferenceReadsToOnePlaceTheJSONToTwoAndALongNameIsElidedToFit() throws {
        let long = String(repeating: "a", count: 60) + ".jpg"
        let photo = CataloguedPhoto(id: 3, path: "/lib/" + long, stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                    facts: PhotoFacts(sha256: "ab", format: .jpeg, pixelSize: PixelSize(width: 4, height: 3), exif: nil),
                                    importedAt: Date(timeIntervalSince1970: 0))
        let match = ColourMatch(photo: photo, score: 0.5, matchedLab: Lab(RGBA(parsing: "#1F5AA6")!),
                                matchedName: .blue, coverage: 0.25, deltaE: 3.456)
        let narrow = SpyConsole(width: 80)
        try SearchPresenter(console: narrow.console).present([match], asJSON: false)
        XCTAssertEqual(narrow.output.lines.count, 2, "a table of one row, not a record: \(narrow.output.text)")
        XCTAssertTrue(narrow.output.lines.allSatisfy { $0.count <= 80 }, narrow.output.text)
        XCTAssertTrue(narrow.output.lines[1].contains("…"), "the name loses its middle: \(narrow.output.lines[1])")
        XCTAssertTrue(narrow.output.lines[1].contains(" 3.5 "), narrow.output.lines[1])
        try SearchPresenter(console: spy.console).present([match], asJSON: true)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual((json[0]["match"] as? [String: Any])?["deltaE"] as? Double, 3.46)
    }

    func testASmallAccentIsOneThatCoversNoMoreThanTheShareGiven() throws {
        try SearchCommand.parse(["--colour", "red", "--accent", "--max-coverage", "15", "--json"]).run(in: environment())
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])?.map { $0["path"] as? String },
                       ["/lib/red.jpg"], "the red, 11% of the frame")
        spy.output.clear()
        try SearchCommand.parse(["--colour", "red", "--accent", "--max-coverage", "5", "--json"]).run(in: environment())
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [Any])?.count, 0, "11% is no 5% accent")
    }

    func testAccentFiltersAndEmptyResults() throws {
        try SearchCommand.parse(["--colour", "grey", "--accent"]).run(in: environment())
        XCTAssertEqual(spy.output.text, "")
        XCTAssertEqual(spy.errors.lines, ["No photo matches that colour."])
        try SearchCommand.parse(["--colour", "blue", "--camera", "canon"]).run(in: environment())
        XCTAssertEqual(spy.output.text, "")
        try SearchCommand.parse(["--colour", "blue", "--accent", "--min-coverage", "10", "--limit", "5"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.count, 2)
    }

    func testSwatchesAreDrawnOnlyWithColour() throws {
        let coloured = SpyConsole(usesColour: true)
        try SearchCommand.parse(["--colour", "red"]).run(in: environment(console: coloured.console))
        XCTAssertTrue(coloured.output.text.contains("\u{1B}[48;2;208;16;32m\u{00A0}\u{00A0}\u{1B}[0m"), coloured.output.text)
        try SearchCommand.parse(["--colour", "red"]).run(in: environment())
        XCTAssertFalse(spy.output.text.contains("\u{1B}["))
    }

    func testShowDescribesTheColours() throws {
        // Ids follow the walk: blue.jpg 1, grey.jpg 2, red.jpg 3.
        try ShowCommand.parse(["3"]).run(in: environment())
        XCTAssertTrue(spy.output.text.contains("dominant   #808080 grey 89%"), spy.output.text)
        XCTAssertTrue(spy.output.text.contains("accent     #D01121 red 11%, hue"), spy.output.text)
        XCTAssertTrue(spy.output.text.contains("candidate  #D01121 red 11%, saliency "), spy.output.text)
        spy.output.clear()
        try ShowCommand.parse(["2"]).run(in: environment())
        XCTAssertTrue(spy.output.text.contains("accent     none (no colour stands out)"), spy.output.text)
    }

    func testShowSaysWhyAColourTargetOrABusySceneHasNoAccent() {
        XCTAssertEqual(PhotoPresenter.noAccentReason(.ordinary), "no colour stands out")
        XCTAssertEqual(PhotoPresenter.noAccentReason(.colourTarget), "a colour target: a chart of patches, nothing to splash")
        XCTAssertEqual(PhotoPresenter.noAccentReason(.busy), "a busy scene: many colours, no single subject")
    }

    func testPercentagesKeepSmallSharesVisible() {
        XCTAssertEqual(ColourText.percent(0.004), "0.4%")
        XCTAssertEqual(ColourText.percent(0.25), "25%")
        XCTAssertEqual(ColourText.percent(0), "0%")
        XCTAssertEqual(ColourText(console: SpyConsole().console).summary(nil), "-")
    }
}
