import ArgumentParser
import Catalogue
import CatalogueSQLite
import Foundation
import ColourScience
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class ExportCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!

    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/red.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "red", make: "Canon", takenAt: "2020:05:06 07:08:09", colour: "#D01020")
        files["/lib/grey.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "grey", colour: "#808080")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        let catalogue = self.catalogue!
        var environment = AppEnvironment.fake(console: spy.console, files: files, catalogue: catalogue, currentDirectory: "/work")
        // "Zip files" are folders beside the asked-for path, so the test can read them.
        environment.makeZip = { [files] path, policy, _ in
            if policy == .skip { throw ExportError.destinationExists(path) }
            return FolderDestination(directory: path + ".d", fileSystem: files)
        }
        return environment
    }

    func testValidation() {
        let refused: [([String], String)] = [
            (["--to", "/o"], "Choose the photos: their ids, --colour C, a scope (--in, --since, --until, --camera), or --all."), (["--all", "--id", "1", "--to", "/o"], "Give only one of ids, --all and --colour."),
            (["1", "--in", "/lib", "--to", "/o"], "Give ids or a scope (--in, --since, --until, --camera), not both."),
            (["1", "2", "--limit", "1", "--to", "/o"], "--limit caps a scope, --colour or --all; with ids, name fewer."),
            (["--in", "/lib", "--since", "2024-02-01", "--until", "2024-01-31", "--to", "/o"], "--since 2024-02-01 is after --until 2024-01-31: no day is both."), (["--all"], "Give --to DIR or --zip FILE (one of them)."),
            (["--all", "--to", "/o", "--zip", "/z.zip"], "Give --to DIR or --zip FILE (one of them)."), (["--all", "--to", "/o", "--variant", "both"], "The value 'both' is invalid for '--variant <variant>'. Please provide one of 'show', 'hide', 'original' or 'all'."),
            (["--all", "--to", "/o", "--format", "gif"], "The value 'gif' is invalid for '--format <format>'. Please provide one of 'same', 'jpeg', 'png' or 'webp'."), (["--all", "--to", "/o", "--on-conflict", "ask"], "The value 'ask' is invalid for '--on-conflict <policy>'. Please provide one of 'unique', 'overwrite' or 'skip'."),
            (["--all", "--to", "/o", "--manifest", "xml"], "The value 'xml' is invalid for '--manifest <kind>'. Please provide one of 'json' and 'csv'."), (["--all", "--to", "/o", "--quality", "0"], "--quality takes 1 to 100."),
            (["--all", "--to", "/o", "--max-size", "0"], "--max-size must be at least 1 pixel."), (["--all", "--to", "/o", "--template", "{nope}.{ext}"], "--template: the file name template '{nope}.{ext}' is wrong: {nope} is not a field (fields: {camera}, {colour}, {date}, {ext}, {id}, {name}, {time}, {variant})."),
            (["--colour", "teal", "--to", "/o"], "The value 'teal' is invalid for '--colour <colour>': 'teal' is not a colour: give a name (black, white, grey, red, orange, yellow, green, blue, purple, pink, brown; or gray), #RRGGBB, #RGB or rgb(r,g,b)."), (["--colour", "#D01020", "--within", "0", "--to", "/o"], "--within takes a ΔE00 above 0 and at most 100."),
            (["--colour", "red", "--within", "5", "--to", "/o"], "--within is for a #RRGGBB or rgb() colour; a name such as 'red' covers its own colours."),
            (["--all", "--within", "5", "--to", "/o"], "--within goes with --colour."),
            (["--all", "--to", "/o", "--jobs", "0"], "--jobs must be at least 1, not 0."), (["--colour", "red", "--accent-rank", "2", "--to", "/o"], "Give --accent-rank or a colour or hue to keep, not both."),
            (["--all", "--to", "/o", "--mode", "x"], "The value 'x' is invalid for '--mode <mode>'. Please provide one of 'object' and 'hue'."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try ExportCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(ExportCommand.message(for: error), message, "\(arguments)")
            }
        }
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o", "--variant", "all"]).variants, ExportVariant.allCases)
        // Several kinds: repeated or with commas, each once, in the order files are written; show by default.
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o", "--variant", "hide", "--variant", "show"]).variants, [.show, .hide])
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o", "--variant", "original,Hide", "--variant", "hide"]).variants,
                       [.hide, .original])
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o"]).variants, [.show])
        XCTAssertThrowsError(try ExportCommand.parse(["--all", "--to", "/o", "--variant", "show,"])) { error in
            XCTAssertEqual(ExportCommand.message(for: error),
                           "The value 'show,' is invalid for '--variant <variant>'. Please provide one of 'show', 'hide', 'original' or 'all'.")
        }
        // Ids bare, after --id, or both: the same photos, in the order given.
        XCTAssertEqual(try ExportCommand.parse(["113", "88", "--to", "/o"]).ids, [113, 88])
        XCTAssertEqual(try ExportCommand.parse(["--id", "113", "88", "--to", "/o"]).ids, [113, 88])
        XCTAssertEqual(try ExportCommand.parse(["5", "--id", "113", "--id", "88", "--to", "/o"]).ids, [5, 113, 88])
        // Variants keep the colour the photos were chosen for, or the hue asked for; else the accent.
        XCTAssertEqual(try ExportCommand.parse(["--colour", "orange", "--to", "/o"]).variantTarget(), .colour(ColourName.orange.focalLab))
        XCTAssertEqual(try ExportCommand.parse(["--colour", "orange", "--hue", "50", "--to", "/o"]).variantTarget(), .hue(50))
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o"]).variantTarget(), .accent)
        XCTAssertEqual(try ExportCommand.parse(["--all", "--to", "/o", "--accent-rank", "3"]).variantTarget(), .candidate(3))
    }

    func testExportsTheRedPhotosToAFolderRelativeToTheWorkingDirectory() async throws {
        try await ExportCommand.parse(["--colour", "red", "--to", "out", "--variant", "all"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.count, 1)
        XCTAssertTrue(spy.output.lines[0].hasPrefix("exported 3 files ("), spy.output.text)
        XCTAssertTrue(spy.output.lines[0].contains("to /work/out, made 2 variants, kept 0, without an accent 0, failed 0"), spy.output.text)
        XCTAssertNotNil(files["/work/out/2020-05-06_red_show.jpg"])
        XCTAssertNotNil(files["/work/out/2020-05-06_red_hide.jpg"])
        XCTAssertEqual(files["/work/out/2020-05-06_red_original.jpg"], files["/lib/red.jpg"])
        XCTAssertNotNil(files["/work/out/manifest.json"])
        // The variants keep red, the colour asked for, not whatever each photo's accent is.
        let hue = try XCTUnwrap(try catalogue.allVariants().first.map { VariantSpec.parameterValues(ofKey: $0.parameters)["hue"] } ?? nil)
        XCTAssertEqual(hue, ColourName.red.focalLab.lch.h, accuracy: 0.05)
    }

    func testJSONSummaryAndTheZipDestination() async throws {
        try await ExportCommand.parse(["--all", "--zip", "/z/set.zip", "--json", "--variant", "original"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["destination"] as? String, "/z/set.zip.d")
        XCTAssertEqual(json["written"] as? Int, 2)
        XCTAssertEqual((json["files"] as? [[String: Any]])?.compactMap { $0["file"] as? String },
                       ["undated_grey_original.jpg", "2020-05-06_red_original.jpg"], "in id order")
        XCTAssertEqual(json["dryRun"] as? Bool, false)
    }

    func testAnExportWithNothingToWriteMakesNoZipOrFolderAndSaysWhy() async throws {
        let grey = try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(paths: ["/lib/grey.jpg"])).first)
        let cases: [([String], String)] = [
            (["\(grey.id)", "--zip", "/z/grey.zip"], "Nothing to export: the photo has no accent colour to make a show or hide picture of "
                + "(gallery show says why; --variant original exports the photos themselves)."),
            (["--camera", "Leica", "--to", "/z/leica"], "Nothing to export: no catalogued photo is in this scope."),
            (["--in", "/lib/grey.jpg", "/lib/grey2.jpg", "--to", "/z/greys"], "Nothing to export: none of the 2 photos has an accent colour "
                + "to make a show or hide picture of (gallery show says why; --variant original exports the photos themselves)."),
        ]
        files["/lib/grey2.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "grey2", colour: "#707070")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
        for (arguments, message) in cases {
            spy.errors.clear()
            try await ExportCommand.parse(arguments).run(in: environment())
            XCTAssertEqual(spy.errors.lines, [message])
        }
        XCTAssertEqual(files.writtenPaths.filter { $0.hasPrefix("/z/") }, [], "no zip, no folder, no manifest")
        // A dry run says what it would do, nothing included.
        spy.errors.clear()
        try await ExportCommand.parse(["\(grey.id)", "--zip", "/z/grey.zip", "--dry-run"]).run(in: environment())
        XCTAssertFalse(spy.errors.text.contains("Nothing to export"), spy.errors.text)
        XCTAssertTrue(spy.errors.text.contains("would export 0 photos"), spy.errors.text)
        spy.output.clear()
        try await ExportCommand.parse(["\(grey.id)", "--zip", "/z/grey.zip", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["written"] as? Int, 0)
    }

    func testAnInterruptedExportSaysWhatItKeptAndExitsWith130() async throws {
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "an interrupted export exits with 130") {
            try await ExportCommand.parse(["--all", "--to", "/o", "--variant", "original"]).run(in: interrupted)
        }
        XCTAssertTrue(spy.output.lines.first?.hasPrefix("exported 1 file (") == true, spy.output.text)
        XCTAssertEqual(spy.errors.lines.last, "interrupted: the files written are kept, and listed in its manifest; run the same command to go on")
        let manifest = try JSONSerialization.jsonObject(with: try XCTUnwrap(files["/o/manifest.json"])) as? [[String: Any]]
        XCTAssertEqual(manifest?.count, 1)

        // An archive cut short is taken away, and the summary says none of it was exported.
        spy.output.clear()
        spy.errors.clear()
        var summary = ExportSummary()
        summary.files = [ExportedFile(file: "a.jpg", photo: 1, originalPath: "/lib/a.jpg", variant: .original, parameters: nil,
                                      size: 10, width: 1, height: 1, sha256: "")]
        summary.interrupted = true
        try ExportPresenter(console: spy.console).present(summary, destination: "/z/set.zip", dryRun: false, asJSON: false, keepsAPart: false)
        XCTAssertEqual(spy.output.lines, ["exported no file to /z/set.zip (it held 1 file when interrupted), made 0 variants, kept 0, "
                                          + "without an accent 0, failed 0 in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, ["interrupted: the zip file is not written (an archive is made whole or not at all); the variants made are kept"])
        spy.output.clear()
        try ExportPresenter(console: spy.console).present(summary, destination: "/z/set.zip", dryRun: false, asJSON: true, keepsAPart: false)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["written"] as? Int, 0, "a script is not told of files in a zip taken away")
        XCTAssertEqual((json["files"] as? [Any])?.count, 0)
        XCTAssertEqual(json["interrupted"] as? Bool, true)

        // Every photo failed: the zip was not made, and the summary says so.
        spy.output.clear()
        spy.errors.clear()
        var failed = ExportSummary()
        failed.failures = [(photoID: 3, path: "/lib/gone.jpg", reason: "no such file or directory")]
        failed.madeNothing = true
        try ExportPresenter(console: spy.console).present(failed, destination: "/z/set.zip", dryRun: false, asJSON: false, keepsAPart: false)
        XCTAssertEqual(spy.output.lines, ["exported no file (/z/set.zip not made), made 0 variants, kept 0, without an accent 0, failed 1 in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, ["failed: photo 3 /lib/gone.jpg: no such file or directory"])
        spy.output.clear()
        try ExportPresenter(console: spy.console).present(failed, destination: "/photos", dryRun: false, asJSON: false, keepsAPart: true)
        XCTAssertEqual(spy.output.lines, ["exported no file to /photos, made 0 variants, kept 0, without an accent 0, failed 1 in 0.00 s"],
                       "a folder may have been there before: it is not said to be unmade")
    }

    func testSizesReadAsTheEstimateSaidThem() throws {
        XCTAssertEqual([56, 32_400, 116_240_000, 2_400_000_000].map { ExportPresenter.size($0) }, ["56 bytes", "32 kB", "116.2 MB", "2.4 GB"])
        var summary = ExportSummary()
        summary.files = [ExportedFile(file: "a.jpg", photo: 1, originalPath: "/lib/a.jpg", variant: .show, parameters: nil,
                                      size: 32_400, width: 1, height: 1, sha256: "")]
        try ExportPresenter(console: spy.console).present(summary, destination: "/o", dryRun: false, asJSON: false, keepsAPart: true)
        XCTAssertTrue(spy.output.text.hasPrefix("exported 1 file (32 kB) to /o, "), "not 0.0 MB: \(spy.output.text)")
    }

    func testADryRunListsWhatWouldBeWritten() async throws {
        try await ExportCommand.parse(["--id", "2", "--id", "1", "--to", "/o", "--dry-run"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["would write 2020-05-06_red_show.jpg (photo 2, show, variant to be made)",
                                          "would write 1 file to /o; 1 photo has no accent colour"])
        XCTAssertEqual(files.writtenPaths, [])
    }

    func testAnUnknownIdAndAnUnwritableDestinationHaveTheirExitStatuses() async throws {
        do {
            try await ExportCommand.parse(["--id", "9", "--to", "/o"]).run(in: environment())
            XCTFail("unknown id")
        } catch {
            XCTAssertEqual(error as? ExitCode, ExitStatus.notFound)
        }
        do {
            try await ExportCommand.parse(["--all", "--zip", "/z.zip", "--on-conflict", "skip"]).run(in: environment())
            XCTFail("the destination exists")
        } catch {
            XCTAssertEqual(error as? ExitCode, ExitStatus.cannotCreate)
            XCTAssertEqual(spy.errors.lines.last, "showhide: /z.zip exists already: choose another name, or --on-conflict overwrite")
        }
    }

    func testFailuresAreListedAndSetTheExitStatus() async throws {
        try files.remove("/lib/grey.jpg")
        files.expectedMissing = ["/lib/grey.jpg"]
        do {
            try await ExportCommand.parse(["--all", "--to", "/o", "--variant", "original"]).run(in: environment())
            XCTFail("a photo failed")
        } catch {
            XCTAssertEqual(error as? ExitCode, ExitStatus.someFilesFailed)
        }
        let sizes = try catalogue.photos(matching: PhotoQuery()).reduce(0) { $0 + $1.stamp.size }
        XCTAssertEqual(spy.errors.lines, ["exporting 2 photos: 2 files, about \(sizes) bytes, to /o",
                                          "failed: photo 1 /lib/grey.jpg: no such file: /lib/grey.jpg"])
    }

    /// Photos of red in three ways: its accent at 2% of the frame, 30% of the frame without being
    /// the accent, and 5% without being the accent.
    func redInThreeWays() async throws -> (accent: PhotoID, covering: PhotoID, speck: PhotoID) {
        for name in ["accent", "covering", "speck"] { files["/set/\(name).jpg"] = FakePhoto.data(width: 8, height: 6, seed: name) }
        try await ImportCommand.parse(["/set"]).run(in: environment())
        spy.output.clear()
        spy.errors.clear()
        func id(_ name: String) throws -> PhotoID {
            try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(paths: ["/set/\(name).jpg"])).first?.id)
        }
        let red = Lab(RGBA(red: 208, green: 16, blue: 32))
        let accent = Accent(lab: red, hue: red.lch.h, coverage: 0.02, name: .red)
        let ids = (accent: try id("accent"), covering: try id("covering"), speck: try id("speck"))
        try catalogue.write { writer in
            try writer.setColours(ColourAnalysis(palette: [], accent: accent, nameWeights: [.red: 0.02, .grey: 0.98], candidates: [accent]), of: ids.accent)
            try writer.setColours(ColourAnalysis(palette: [], accent: nil, nameWeights: [.red: 0.3, .grey: 0.7]), of: ids.covering)
            try writer.setColours(ColourAnalysis(palette: [], accent: nil, nameWeights: [.red: 0.05, .grey: 0.95]), of: ids.speck)
        }
        return ids
    }

    func exportedPhotos(_ arguments: [String]) async throws -> [PhotoID] {
        spy.output.clear()
        try await ExportCommand.parse(arguments + ["--in", "/set", "--to", "/o", "--variant", "original", "--dry-run", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        return (json["planned"] as? [[String: Any]] ?? []).compactMap { ($0["photo"] as? NSNumber)?.int64Value }
    }

    func testAColourTakesThePhotosWhoseAccentItIsAndThoseItCoversEnoughOf() async throws {
        let red = try await redInThreeWays()
        let taken = try await exportedPhotos(["--colour", "red"])
        XCTAssertEqual(taken, [red.accent, red.covering].sorted(), "a 5% speck of red is not a red photo; the 2% accent is")
        let lower = try await exportedPhotos(["--colour", "red", "--min-coverage", "4"])
        XCTAssertEqual(Set(lower), [red.accent, red.covering, red.speck])
        let accentsOnly = try await exportedPhotos(["--colour", "red", "--accent"])
        XCTAssertEqual(accentsOnly, [red.accent])
        let first = try await exportedPhotos(["--colour", "red", "--limit", "1"])
        XCTAssertEqual(first, [red.accent], "the accents first")
        let size = try XCTUnwrap(files["/set/accent.jpg"]).count
        XCTAssertEqual(spy.errors.lines.last, "would export 1 photo: 1 file, about \(size) bytes, to /o", "the original, as it is")
        XCTAssertThrowsError(try ExportCommand.parse(["--all", "--min-coverage", "5", "--to", "/o"])) { error in
            XCTAssertEqual(ExportCommand.message(for: error), "--min-coverage goes with --colour.")
        }
        XCTAssertThrowsError(try ExportCommand.parse(["--colour", "red", "--min-coverage", "101", "--to", "/o"])) { error in
            XCTAssertEqual(ExportCommand.message(for: error), "--min-coverage takes a percentage from 0 to 100.")
        }
    }

    func testAColourSaidAsWordsSaysHowItStands() async throws {
        let red = try await redInThreeWays()
        // The photo covered in red has it as a large accent too.
        let large = Accent(lab: Lab(RGBA(red: 208, green: 16, blue: 32)), hue: 40, coverage: 0.3, name: .red)
        try catalogue.write { writer in
            try writer.setColours(ColourAnalysis(palette: [], accent: large, nameWeights: [.red: 0.3, .grey: 0.7], candidates: [large]), of: red.covering)
        }
        let accents = try await exportedPhotos(["--colour", "red as the accent"])
        XCTAssertEqual(Set(accents), [red.covering, red.accent], "the accents alone, not the 5% speck")
        let small = try await exportedPhotos(["--colour", "red as a small accent"])
        XCTAssertEqual(small, [red.accent], "a small accent covers at most a tenth")
        let atLeast = try await exportedPhotos(["--colour", "red accent", "--min-coverage", "20"])
        XCTAssertEqual(atLeast, [red.covering])
        XCTAssertThrowsError(try ExportCommand.parse(["--colour", "red as a tiny accent", "--to", "/o"])) { error in
            XCTAssertTrue(ExportCommand.message(for: error).hasSuffix("'orange as the accent' or 'orange as a small accent'."))
        }
    }

    func testNoExportWritesOverTheCatalogueOrACataloguedPhoto() async throws {
        files["/elsewhere/red-copy.jpg"] = files["/lib/red.jpg"]
        try await ImportCommand.parse(["/elsewhere"]).run(in: environment())
        files.links["/work/to-library"] = "/library"
        let refused: [(String, String)] = [
            ("/library/catalogue.sqlite", "it is one of the library's own files (/library)"),
            ("/work/to-library/catalogue.sqlite-wal", "it is one of the library's own files (/library)"),
            ("/library/variants/ab/abc/x_show.jpg", "it is one of the library's own files (/library)"),
        ]
        for (zip, reason) in refused {
            do {
                try await ExportCommand.parse(["--all", "--zip", zip, "--on-conflict", "overwrite"]).run(in: environment())
                XCTFail("\(zip) is written over")
            } catch let error as ProtectedFileError {
                XCTAssertEqual(error.reason, reason)
                XCTAssertEqual(ExitStatus.of(error), ExitStatus.cannotCreate)
            }
        }
        let red = try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(paths: ["/lib/red.jpg"])).first)
        for zip in ["/lib/red.jpg", "/elsewhere/red-copy.jpg"] {
            do {
                try await ExportCommand.parse(["--all", "--zip", zip, "--on-conflict", "overwrite"]).run(in: environment())
                XCTFail("\(zip) is written over")
            } catch let error as ProtectedFileError {
                XCTAssertEqual(error.reason, "it is the file of photo \(red.id), which the catalogue holds", "\(zip): its own path or a duplicate")
            }
        }
        // A memory card's FAT: RED.JPG is red.jpg.
        files["/lib/RED.JPG"] = files["/lib/red.jpg"]
        do {
            try await ExportCommand.parse(["--all", "--zip", "/lib/RED.JPG", "--on-conflict", "overwrite"]).run(in: environment())
            XCTFail("a photo's name but for case is written over")
        } catch let error as ProtectedFileError {
            XCTAssertEqual(error.reason, "its name is that of photo \(red.id) but for case: on a disk that does not tell case apart, the same file")
        }
        XCTAssertFalse(files.writtenPaths.contains { $0.contains(".d/") }, "no zip was started: \(files.writtenPaths)")
    }

    func testNoExportWritesIntoTheLibrarysOwnFoldersOrUnderItsOwnNames() async throws {
        // Written into variants/, an export was deleted by the next `gallery check --repair` as stray files.
        files.links["/work/to-library"] = "/library"
        for folder in ["/library/variants", "/library/variants/ab", "/work/to-library/variants", "/library/exports"] {
            await assertExits(with: ExitStatus.cannotCreate, folder) {
                try await ExportCommand.parse(["--all", "--to", folder]).run(in: environment())
            }
            XCTAssertTrue(spy.errors.text.contains("showhide: cannot write \(folder): it is one of the library's own folders (/library), "
                                                   + "whose files showhide keeps and deletes; export to a folder of your own"), spy.errors.text)
        }
        XCTAssertEqual(files.writtenPaths.filter { !$0.hasPrefix("/library/variants/") || $0.contains("manifest") }, [], "nothing exported")
        // Into the library folder itself, a file of the user's name is written; one named as the library's own is not.
        await assertExits(with: ExitStatus.someFilesFailed, "the file named as the catalogue fails") {
            try await ExportCommand.parse(["--all", "--to", "/library", "--template", "catalogue.sqlite", "--variant", "original"]).run(in: environment())
        }
        XCTAssertTrue(spy.errors.text.contains("will not write over /library/catalogue.sqlite.jpg: it is one of the library's own files (/library)"),
                      spy.errors.text)
        XCTAssertNil(files["/library/catalogue.sqlite.jpg"])
    }

    func testAnExportIntoAPhotosFolderFailsTheFilesThatWouldReplaceAPhoto() async throws {
        let original = try XCTUnwrap(files["/lib/red.jpg"])
        await assertExits(with: ExitStatus.someFilesFailed, "a file that would replace a photo is a failure") {
            try await ExportCommand.parse(["--all", "--to", "/lib", "--template", "{name}", "--variant", "original", "--max-size", "4",
                                           "--on-conflict", "overwrite"]).run(in: environment())
        }
        XCTAssertEqual(files["/lib/red.jpg"], original)
        XCTAssertTrue(spy.errors.text.contains("will not write over /lib/red.jpg: it is the file of photo"), spy.errors.text)
    }

    func testAFolderExportToAFileIsRefusedBeforeAnythingIsMade() async throws {
        files["/work/notes.txt"] = Data("mine".utf8)
        await assertExits(with: ExitStatus.cannotCreate, "a file is no folder") {
            try await ExportCommand.parse(["--all", "--to", "notes.txt"]).run(in: environment())
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: cannot write /work/notes.txt: it is a file, not a folder; name the folder to export into, "
                                          + "or give --zip to write a zip file"], "said once, before 'exporting …'")
        XCTAssertEqual(files["/work/notes.txt"], Data("mine".utf8))
    }

    func testAnOriginalExportedIntoItsOwnFolderUnderItsOwnNameIsNoExportToKeepOrList() async throws {
        // Listed as kept, the photo's own file was then left out of every import as a picture showhide made.
        for policy in ["unique", "skip"] {
            await assertExits(with: ExitStatus.someFilesFailed, policy) {
                try await ExportCommand.parse(["--all", "--to", "/lib", "--template", "{name}", "--variant", "original",
                                               "--on-conflict", policy]).run(in: environment())
            }
            XCTAssertTrue(spy.errors.text.contains("will not write over /lib/red.jpg: it is the file of photo"), spy.errors.text)
            XCTAssertNil(files["/lib/manifest.json"], "\(policy): no manifest lists the photos as exports")
        }
    }
}
