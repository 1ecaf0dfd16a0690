import ArgumentParser
import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class ProcessCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!

    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/red.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "red", colour: "#D01020")
        files["/lib/grey.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "grey", colour: "#808080")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        let catalogue = self.catalogue!
        return .fake(console: spy.console, files: files, catalogue: catalogue)
    }

    func testTargetsFromColourNamesHexAndHue() throws {
        XCTAssertEqual(try ProcessCommand.parse(["--all"]).target, .accent)
        XCTAssertEqual(try ProcessCommand.parse(["--all", "--hue", "200"]).target, .hue(200))
        XCTAssertEqual(try ProcessCommand.parse(["--all", "--color", "blue"]).target, .colour(ColourName.blue.focalLab))
        XCTAssertEqual(try ProcessCommand.parse(["--all", "--colour", "#00ff00"]).target, .colour(Lab(.green)))
        XCTAssertEqual(try ProcessCommand.parse(["--all", "--accent-rank", "2"]).target, .candidate(2))
    }

    func testTheModeAndTheSplashParametersReachTheService() throws {
        let objects = try ProcessCommand.parse(["--all"])
        XCTAssertEqual(objects.splash.processing(target: .accent, jobs: 1).method, .object, "whole objects unless asked")
        let hue = try ProcessCommand.parse(["--all", "--mode", "hue", "--tolerance", "20", "--feather", "5", "--min-chroma", "8"])
        let options = hue.splash.processing(target: .hue(10), quality: 80, jobs: 3)
        XCTAssertEqual(options, ProcessingOptions(target: .hue(10), method: .hue, tolerance: 20, feather: 5, minimumChroma: 8,
                                                  quality: 80, jobs: 3))
    }

    func testValidation() {
        let refused: [([String], String)] = [
            (["1", "--all"], "Give ids or --all, not both."),
            (["--all", "--hue", "3", "--colour", "red"], "Give --colour or --hue, not both."),
            (["--all", "--colour", "teal"], "The value 'teal' is invalid for '--colour <colour>': 'teal' is not a colour: give a name (black, white, grey, red, orange, yellow, green, blue, purple, pink, brown; or gray), #RRGGBB, #RGB or rgb(r,g,b)."),
            (["--all", "--tolerance", "200"], "--tolerance and --feather take degrees from 0 to 180."),
            (["--all", "--min-chroma", "-1"], "--min-chroma takes a chroma (C*) from 0 to 150."),
            // Double reads "nan" and "inf": refused in words, where they crashed the splash.
            (["--all", "--min-chroma", "nan"], "--min-chroma takes a chroma (C*) from 0 to 150."),
            (["--all", "--min-chroma", "inf"], "--min-chroma takes a chroma (C*) from 0 to 150."),
            (["--all", "--feather", "nan"], "--tolerance and --feather take degrees from 0 to 180."),
            (["--all", "--hue", "inf"], "--hue takes a CIELAB hue angle in degrees, such as 30 or 210."),
            (["--all", "--hue", "nan"], "--hue takes a CIELAB hue angle in degrees, such as 30 or 210."),
            (["--all", "--quality", "0"], "--quality takes 1 to 100."),
            (["--all", "--jobs", "0"], "--jobs must be at least 1, not 0."),
            (["--all", "--mode", "pixels"], "The value 'pixels' is invalid for '--mode <mode>'. Please provide one of 'object' and 'hue'."),
            (["--all", "--accent-rank", "4"], "--accent-rank takes 1, 2 or 3."),
            (["--all", "--accent-rank", "2", "--hue", "30"], "Give --accent-rank or a colour or hue to keep, not both."),
            (["--all", "--accent-rank", "2", "--colour", "red"], "Give --accent-rank or a colour or hue to keep, not both."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try ProcessCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(ProcessCommand.message(for: error), message, "\(arguments)")
            }
        }
    }

    func testProcessesSkipsTheGreyPhotoAndSaysSo() async throws {
        try await ProcessCommand.parse(["--all"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["2 photos in 0.00 s: made 2 variants of 1 photo, 0 variants already there, 1 photo skipped, 0 failed"])
        XCTAssertEqual(spy.errors.lines, ["skipped: photo 1: no accent colour (no colour stands out)"])
        XCTAssertTrue(files.writtenPaths.allSatisfy { $0.hasPrefix("/library/variants/") }, "\(files.writtenPaths)")
    }

    func testAnInterruptedRunSaysWhatItKeptAndExitsWith130AndTheSameCommandGoesOn() async throws {
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "an interrupted run exits with 130") {
            try await ProcessCommand.parse(["--all", "--jobs", "1"]).run(in: interrupted)
        }
        XCTAssertEqual(spy.output.lines, ["1 of 2 photos in 0.00 s: made 0 variants of 0 photos, 0 variants already there, 1 photo skipped, 0 failed"],
                       "the photos looked at of those asked for")
        XCTAssertEqual(spy.errors.lines, ["skipped: photo 1: no accent colour (no colour stands out)",
                                          "interrupted: the variants made are kept (0 variants); run the same command to go on"])
        spy.output.clear()
        try await ProcessCommand.parse(["--all"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["2 photos in 0.00 s: made 2 variants of 1 photo, 0 variants already there, 1 photo skipped, 0 failed"])
    }

    func testAnInterruptedRunInJSONSaysSoOnStandardErrorAndCountsThePhotosLookedAt() async throws {
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "130, as without --json") {
            try await ProcessCommand.parse(["--all", "--jobs", "1", "--json"]).run(in: interrupted)
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["photos"] as? Int, 2)
        XCTAssertEqual(json["photosDone"] as? Int, 1)
        XCTAssertEqual(json["interrupted"] as? Bool, true)
        XCTAssertEqual(spy.errors.lines, ["interrupted: the variants made are kept (0 variants); run the same command to go on"])
    }

    func testAFullDiskStopsTheRunWith69AndSaysToMakeRoom() async throws {
        files.writeFailure = FileWriteError("cannot write /library/variants/x.jpg", reason: "no space left on device")
        await assertExits(with: ExitStatus.unavailable, "the library's disk is full") {
            try await ProcessCommand.parse(["2", "--jobs", "1"]).run(in: environment())
        }
        XCTAssertEqual(spy.errors.lines, [
            "failed: photo 2 /lib/red.jpg: cannot write /library/variants/x.jpg: no space left on device",
            "stopped: a variant could not be written (cannot write /library/variants/x.jpg: no space left on device), so no more photos were "
                + "started; the variants made are kept (0 variants): make room, then run the same command to go on",
        ])
        spy.output.clear()
        await assertExits(with: ExitStatus.unavailable, "said in JSON too") {
            try await ProcessCommand.parse(["2", "--json"]).run(in: environment())
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["stoppedForRoom"] as? String, "cannot write /library/variants/x.jpg: no space left on device")
    }

    func testJSONSummaryAndFailures() async throws {
        files["/lib/red.jpg"] = nil
        files.expectedMissing = ["/lib/red.jpg"]
        await assertExits(with: ExitStatus.someFilesFailed, "the file is missing: exit 1") {
            try await ProcessCommand.parse(["2", "--json"]).run(in: environment())
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["photos"] as? Int, 1)
        XCTAssertEqual((json["failures"] as? [[String: String]])?.first?["reason"], "the file is gone: import its new place, or forget it with showhide gallery remove 2")
        spy.errors.clear()
        await assertExits(with: ExitStatus.someFilesFailed, "the file is missing: exit 1") {
            try await ProcessCommand.parse(["2"]).run(in: environment())
        }
        XCTAssertEqual(spy.errors.lines, ["failed: photo 2 /lib/red.jpg: the file is gone: import its new place, or forget it with showhide gallery remove 2"],
                       "the photo by its id, as export says it")
    }

    func testAnExportFromAReadOnlyCatalogueIsRefusedOnlyWhenItWouldMakeVariants() async throws {
        let readOnly = FakeCatalogue()
        let environment = AppEnvironment.fake(console: spy.console, files: files, catalogue: readOnly)
        try await ImportCommand.parse(["/lib/red.jpg"]).run(in: environment)
        readOnly.readOnly = true
        spy.errors.clear()
        await assertExits(with: ExitStatus.unavailable, "the show variant is not made, and cannot be recorded") {
            try await ExportCommand.parse(["1", "--to", "/out"]).run(in: environment)
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: 1 variant to export is not made yet, and the catalogue /library/catalogue.sqlite is "
            + "read-only and this command changes it; copy the library somewhere writable, or use a command that only reads "
            + "(--variant original exports the photos themselves)"])
        XCTAssertFalse(files.writtenPaths.contains { $0.hasPrefix("/out") || $0.hasPrefix("/library/variants") })

        try await ExportCommand.parse(["1", "--to", "/out", "--variant", "original"]).run(in: environment)
        XCTAssertTrue(files.writtenPaths.contains("/out/undated_red_original.jpg"), "\(files.writtenPaths)")
    }

    func testAReadOnlyCatalogueIsRefusedBeforeAnyWork() async throws {
        let readOnly = FakeCatalogue()
        readOnly.readOnly = true
        let environment = AppEnvironment.fake(console: spy.console, files: files, catalogue: readOnly)
        do {
            try await ProcessCommand.parse(["--all"]).run(in: environment)
            XCTFail("a read-only catalogue was processed")
        } catch {
            XCTAssertEqual(error as? ExitCode, ExitStatus.unavailable)
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: the catalogue /library/catalogue.sqlite is read-only and this command changes it; "
                                          + "copy the library somewhere writable, or use a command that only reads"])
        XCTAssertEqual(readOnly.writes, 0)
        XCTAssertFalse(files.writtenPaths.contains { $0.hasPrefix("/library/variants") })
        spy.errors.clear()
        XCTAssertThrowsError(try CheckCommand.parse(["--repair"]).run(in: environment)) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.unavailable)
        }
        XCTAssertEqual(spy.errors.lines.count, 1)
        XCTAssertNoThrow(try CheckCommand.parse([]).run(in: environment), "a check without repair only reads")
    }

    func testAnUnknownIDExitsWithStatusTwo() async throws {
        await assertExits(with: ExitStatus.notFound, "expected exit 2") {
            try await ProcessCommand.parse(["9"]).run(in: environment())
        }
    }

    func testVariantJSONReadsTheParameters() {
        let variant = Variant(photoID: 1, kind: "show", parameters: #"{"hue":34.5,"tolerance":12}"#, path: "/v.jpg", fileSize: 3,
                              pixelSize: PixelSize(width: 4, height: 3), sha256: "x", createdAt: Date())
        let json = VariantJSON(variant)
        XCTAssertEqual(json.params, ["hue": 34.5, "tolerance": 12])
        XCTAssertEqual(json.width, 4)
        XCTAssertEqual(json.method, "hue", "a key without a method is a hue-mode variant's")
        let object = Variant(photoID: 1, kind: "show", parameters: #"{"feather":10,"hue":34.5,"method":"object","revision":6,"tolerance":12}"#,
                             path: "/o.jpg", fileSize: 3, pixelSize: PixelSize(width: 4, height: 3), sha256: "y", createdAt: Date())
        XCTAssertEqual(VariantJSON(object).method, "object")
        XCTAssertEqual(VariantJSON(object).params["revision"], 6)
    }
}
