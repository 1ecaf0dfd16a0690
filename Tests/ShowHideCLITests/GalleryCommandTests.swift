import ArgumentParser
import Catalogue
import ColourScience
import CatalogueSQLite
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class GalleryCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!
    let clock = FakeClock()
    /// Which library folders the environment was asked to open.
    let openedLibraries = OpenedLibraries()
    /// Import encodes only thumbnails, kept in this cache.
    let thumbnailEncoder = RecordingEncoder()
    let thumbnails = FakeThumbnailCache()
    /// Which library folders the thumbnail cache was opened for.
    let thumbnailLibraries = OpenedLibraries()

    override func setUpWithError() throws {
        catalogue = try SQLiteCatalogue.inMemory()
    }

    func environment(variables: [String: String] = [:], console: Console? = nil,
                     failingOpen: Bool = false) -> AppEnvironment {
        let catalogue = self.catalogue!
        let opened = openedLibraries
        var environment = AppEnvironment.fake(console: console ?? spy.console, files: files, catalogue: catalogue,
                                              encoder: thumbnailEncoder, clock: clock, variables: variables, thumbnails: thumbnails,
                                              currentDirectory: "/work")
        let thumbnails = self.thumbnails, thumbnailLibraries = self.thumbnailLibraries
        environment.openThumbnailCache = { directory in
            thumbnailLibraries.append(directory, .existingOnly)
            return thumbnails
        }
        environment.homeDirectory = "/home/ada"
        environment.openCatalogue = { directory, opening in
            opened.append(directory, opening)
            if failingOpen { throw CatalogueError.cannotOpen(path: directory + "/catalogue.sqlite", reason: "disk I/O error") }
            return catalogue
        }
        return environment
    }

    func addPhotos() {
        files["/lib/a.jpg"] = FakePhoto.data(width: 4000, height: 3000, seed: "a", make: "Canon", takenAt: "2020:01:02 03:04:05")
        files["/lib/b.jpg"] = FakePhoto.data(width: 300, height: 200, seed: "b", colour: "#808080")
        files["/lib/bad.jpg"] = FakePhoto.broken(reason: "corrupt JPEG data: bad Huffman code")
        files["/lib/readme.txt"] = Data("hi".utf8)
    }

    // MARK: Library location

    func directory(_ arguments: [String], _ variables: [String: String]) throws -> String {
        try ListCommand.parse(arguments).library.directory(in: environment(variables: variables))
    }

    func testTheLibraryComesFromTheOptionThenTheVariableThenXDG() throws {
        let all = ["SHOWHIDE_LIBRARY": "/var/photos", "XDG_DATA_HOME": "/xdg"]
        XCTAssertEqual(try directory(["--library", "mine"], all), "/work/mine")
        XCTAssertEqual(try directory([], all), "/var/photos")
        XCTAssertEqual(try directory([], ["XDG_DATA_HOME": "/xdg"]), "/xdg/showhide")
        XCTAssertEqual(try directory([], ["XDG_DATA_HOME": "relative"]), "/home/ada/.local/share/showhide")
        XCTAssertEqual(try directory([], [:]), "/home/ada/.local/share/showhide")
    }

    func testAnEmptyLibraryIsRefusedRatherThanTakenForTheDefault() {
        // `--library "$LIB"` with LIB unset: the user's own catalogue must not be the one changed.
        for empty in ["", "  "] {
            XCTAssertThrowsError(try ListCommand.parse(["--library", empty])) { error in
                XCTAssertTrue(ListCommand.message(for: error).contains("--library needs a folder"), ListCommand.message(for: error))
            }
            XCTAssertThrowsError(try ImportCommand.parse(["photos", "--library", empty]))
        }
    }

    func testAnEmptyLibraryVariableOrAFolderNamedInBytesThatAreNotUTF8IsRefused() async throws {
        for variable in ["", " "] {
            spy.errors.clear()
            await assertExits(with: ExitStatus.usage, "SHOWHIDE_LIBRARY='\(variable)'") {
                try ListCommand.parse([]).run(in: environment(variables: ["SHOWHIDE_LIBRARY": variable]))
            }
            XCTAssertEqual(spy.errors.lines, ["showhide: SHOWHIDE_LIBRARY is set but empty, which would mean the default catalogue: "
                                              + "name the library folder in it, or unset it"])
        }
        spy.errors.clear()
        await assertExits(with: ExitStatus.usage, "a folder named in Latin-1") {
            try ListCommand.parse(["--library", "lib\u{FFFD}"]).run(in: environment())
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: the library folder /work/lib\u{FFFD} has a name that is not valid UTF-8 (shown with \u{FFFD} "
                                          + "for the bytes that are not), so it cannot be opened by it: rename the folder"])
    }

    func testRelativePathsAreMadeAbsolute() {
        let environment = environment()
        XCTAssertEqual(environment.absolutePath("photos/../pics/"), "/work/pics")
        XCTAssertEqual(environment.absolutePath("/abs/./x"), "/abs/x")
        XCTAssertEqual(environment.absolutePath("."), "/work")
    }

    // MARK: import

    func testImportPrintsOneSummaryLineAndListsFailures() async throws {
        addPhotos()
        let command = try ImportCommand.parse(["/lib", "--library", "/l"])
        await assertExits(with: ExitStatus.someFilesFailed, "a file failed: exit status 1") {
            try await command.run(in: environment())
        }
        XCTAssertEqual(openedLibraries.all, ["/l"])
        XCTAssertEqual(spy.output.lines, ["imported 2, unchanged 0, moved 0, duplicates 0, failed 1, skipped 1 (not photos) in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, ["failed: /lib/bad.jpg: corrupt JPEG data: bad Huffman code"])
        // Each new photo's thumbnail, from the decode that analysed it, in the library named.
        XCTAssertEqual(thumbnailEncoder.encoded.map { "\($0.image.width)x\($0.image.height) \($0.format)" }.sorted(), ["300x200 jpeg", "320x240 jpeg"])
        XCTAssertEqual(thumbnails.jpegs.count, 2)
        XCTAssertEqual(thumbnailLibraries.all, ["/l"])
    }

    func testAKnownBadFileThatHasNotChangedIsStillFailingAndNoNewFailureUnlessStrict() async throws {
        addPhotos()
        _ = try? await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
        spy.errors.clear()
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["imported 0, unchanged 2, moved 0, duplicates 0, failed 0, still failing 1 "
                                          + "(unchanged: `gallery failures` lists them), skipped 1 (not photos) in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, [], "nothing new to say about it")
        await assertExits(with: ExitStatus.someFilesFailed, "--strict counts a file still failing") {
            try await ImportCommand.parse(["/lib", "--strict"]).run(in: environment())
        }
        spy.output.clear()
        try await ImportCommand.parse(["/lib", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual((json["stillFailing"] as? [[String: Any]])?.compactMap { $0["reason"] as? String },
                       ["corrupt JPEG data: bad Huffman code"])
        XCTAssertEqual(json["failed"] as? Int, 0)
        XCTAssertEqual(json["interrupted"] as? Bool, false)
    }

    func testAnInterruptedImportSaysWhatItKeptAndExitsWith130() async throws {
        for name in ["a", "b", "c"] { files["/lib/\(name).jpg"] = FakePhoto.data(seed: name) }
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "an interrupted import exits with 130") {
            try await ImportCommand.parse(["/lib", "--jobs", "1"]).run(in: interrupted)
        }
        XCTAssertEqual(spy.output.lines, ["imported 1, unchanged 0, moved 0, duplicates 0, failed 0 in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, ["interrupted: what was read is kept (1 photo imported); run the same command again to go on from there"])
        spy.output.clear()
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["imported 2, unchanged 1, moved 0, duplicates 0, failed 0 in 0.00 s"])
    }

    func testAnInterruptedImportInJSONSaysSoOnStandardErrorToo() async throws {
        for name in ["a", "b", "c"] { files["/lib/\(name).jpg"] = FakePhoto.data(seed: name) }
        var interrupted = environment()
        interrupted.listenForInterruption = { CountdownInterruption(allowing: 1) }
        await assertExits(with: ExitStatus.interrupted, "130, as without --json") {
            try await ImportCommand.parse(["/lib", "--jobs", "1", "--json"]).run(in: interrupted)
        }
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["interrupted"] as? Bool, true)
        XCTAssertEqual(spy.errors.lines, ["interrupted: what was read is kept (1 photo imported); run the same command again to go on from there"])
    }

    func testPhotosNotReadYetAreListedOnStandardErrorCountedAndInJSON() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/IMG_1.CR3"] = Data([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 0])
        files["/lib/IMG_2.CR3"] = Data([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 1])
        files["/lib/scan.nef"] = Data([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0])
        try await ImportCommand.parse(["/lib", "--jobs", "1"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["imported 1, unchanged 0, moved 0, duplicates 0, failed 0, "
                                          + "unsupported 3 (camera raw (CR3), camera raw (NEF): not read yet) in 0.00 s"])
        XCTAssertEqual(spy.errors.lines, ["unsupported: /lib/IMG_1.CR3: camera raw (CR3), which showhide does not read yet",
                                          "unsupported: /lib/IMG_2.CR3: camera raw (CR3), which showhide does not read yet",
                                          "unsupported: /lib/scan.nef: camera raw (NEF), which showhide does not read yet"])
        spy.output.clear()
        try await ImportCommand.parse(["/lib", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        let unsupported = try XCTUnwrap(json["unsupported"] as? [[String: String]])
        XCTAssertEqual(unsupported.map { $0["path"] ?? "" }, ["/lib/IMG_1.CR3", "/lib/IMG_2.CR3", "/lib/scan.nef"])
        XCTAssertEqual(unsupported.map { $0["format"] ?? "" }, ["camera raw (CR3)", "camera raw (CR3)", "camera raw (NEF)"])
    }

    func testOnlyImportMayCreateTheCatalogue() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        try ListCommand.parse([]).run(in: environment())
        try SearchCommand.parse(["--colour", "red"]).run(in: environment())
        XCTAssertEqual(openedLibraries.openings, [.creatingWhenMissing, .existingOnly, .existingOnly])
    }

    func testImportHelpNamesEveryFormatItReads() {
        let help = ImportCommand.helpMessage()
        for format in ["JPEG", "PNG", "HEIC", "AVIF", "WebP", "TIFF"] {
            XCTAssertTrue(help.contains(format), "\(format) in: \(help)")
        }
    }

    func testAFolderThatDoesNotExistIsAnErrorAndNothingIsOpenedOrStored() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        do {
            try await ImportCommand.parse(["/lib", "/nonexistent/folder"]).run(in: environment())
            XCTFail("a missing folder is an error")
        } catch {
            XCTAssertEqual(error as? MissingInput, MissingInput(paths: ["/nonexistent/folder"]))
            XCTAssertEqual(ExitStatus.of(error), ExitStatus.noInput)
            XCTAssertEqual(error.localizedDescription, "/nonexistent/folder: no such folder or file; nothing was imported (check the path)")
        }
        XCTAssertEqual(openedLibraries.all, [], "the catalogue is not even opened")
        XCTAssertEqual(try catalogue.failures(), [])
        XCTAssertEqual(try catalogue.knownStamps().count, 0)
        XCTAssertEqual(MissingInput(paths: ["/a", "/b"]).errorDescription,
                       "/a, /b: no such folders or files; nothing was imported (check the path)")
        // A Latin-1 name typed or completed by the shell exists, but not by the text it reaches us as.
        XCTAssertEqual(MissingInput(paths: ["/p/caf\u{FFFD}.jpg"]).errorDescription,
                       "/p/caf\u{FFFD}.jpg: the name is not valid UTF-8 (shown with \u{FFFD} for the bytes that are not), so it cannot be "
                       + "opened by it: rename it to import it; nothing was imported")
    }

    func testImportWithoutFailuresExitsNormally() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.first?.hasPrefix("imported 1, unchanged 0"), true)
        XCTAssertEqual(try catalogue.knownStamps().count, 1)
    }

    func testImportLeavesTheLibrarysOwnVariantsOut() async throws {
        files["/work/photos/a.jpg"] = FakePhoto.data(seed: "a")
        files["/work/photos/library/variants/ab/abc/show-1.jpg"] = FakePhoto.data(seed: "show")
        try await ImportCommand.parse(["photos", "--library", "photos/library"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.first?.hasPrefix("imported 1, unchanged 0"), true)
        XCTAssertEqual(try catalogue.knownStamps().keys.sorted(), ["/work/photos/a.jpg"])
    }

    func testImportLeavesTheLibrarysOwnVariantsOutWhereverItsPathComesFrom() async throws {
        // The library from XDG_DATA_HOME, written with a `..`: the same folder as the one imported holds.
        files["/work/photos/a.jpg"] = FakePhoto.data(seed: "a")
        files["/work/photos/showhide/variants/ab/abc/show-1.jpg"] = FakePhoto.data(seed: "show")
        try await ImportCommand.parse(["photos"]).run(in: environment(variables: ["XDG_DATA_HOME": "/work/photos/sub/.."]))
        XCTAssertEqual(try catalogue.knownStamps().keys.sorted(), ["/work/photos/a.jpg"])
    }

    func testAFileEditedInPlaceIsSaidAsChanged() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        files["/lib/a.jpg"] = FakePhoto.data(width: 10, height: 10, seed: "a rotated")
        spy.output.clear()
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["imported 1, unchanged 0, moved 0, duplicates 0, failed 0, changed 1 (edited in place: catalogued "
                                          + "anew; what they held before, when no copy of it is left, forgotten with its variants) in 0.00 s"])
        files["/lib/a.jpg"] = FakePhoto.data(width: 10, height: 10, seed: "a cropped")
        files.setStamp(FileStamp(size: 1, modifiedAtNanoseconds: 5_000_000_000), for: "/lib/a.jpg")
        spy.output.clear()
        try await ImportCommand.parse(["/lib", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["changed"] as? Int, 1)
    }

    func testPicturesOfAnExportAmongThePhotosAreSaidAsLeftOut() throws {
        var summary = ImportSummary()
        summary.showhidePictures = 12
        XCTAssertEqual(ImportPresenter(console: spy.console).line(summary), "imported 0, unchanged 0, moved 0, duplicates 0, failed 0, "
                       + "left out 12 (pictures showhide made: show and hide pictures, an export's or an inspiration page's) in 0.00 s")
        try ImportPresenter(console: spy.console).present(summary, asJSON: true)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["showhidePictures"] as? Int, 12)
    }

    func testFilesGoneWhileReadAreSaidInTheSummaryNotAsFailures() throws {
        var summary = ImportSummary()
        summary.imported = 3
        summary.vanished = 2
        XCTAssertEqual(ImportPresenter(console: spy.console).line(summary), "imported 3, unchanged 0, moved 0, duplicates 0, failed 0, "
                       + "gone while read 2 (moved or deleted during the import: the next import finds them where they went) in 0.00 s")
    }

    func testThumbnailsNotKeptAreSaidAfterTheSummary() throws {
        var summary = ImportSummary()
        summary.imported = 140
        summary.thumbnailsNotKept = 34
        summary.thumbnailsNotKeptReason = "the disk of /lib/thumbnails.sqlite is full"
        try ImportPresenter(console: spy.console).present(summary, asJSON: false)
        XCTAssertEqual(spy.errors.lines, ["34 thumbnails could not be kept (the disk of /lib/thumbnails.sqlite is full); the photos are imported, "
                                          + "and the web gallery makes their thumbnails when it first shows them"])
        spy.output.clear()
        try ImportPresenter(console: spy.console).present(summary, asJSON: true)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["thumbnailsNotKept"] as? Int, 34)
    }

    func testImportSummaryAsJSON() async throws {
        addPhotos()
        let command = try ImportCommand.parse(["/lib", "--json", "--jobs", "1"])
        await XCTAssertThrowsErrorAsync(try await command.run(in: environment()))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["imported"] as? Int, 2)
        XCTAssertEqual(json["found"] as? Int, 4)
        XCTAssertEqual(json["skipped"] as? Int, 1)
        XCTAssertEqual(json["failed"] as? Int, 1)
        XCTAssertEqual(json["unchanged"] as? Int, 0)
        XCTAssertEqual(json["moved"] as? Int, 0)
        XCTAssertEqual(json["changed"] as? Int, 0)
        XCTAssertEqual(json["duplicates"] as? Int, 0)
        XCTAssertNotNil(json["seconds"] as? Double)
        XCTAssertEqual((json["failures"] as? [[String: String]])?.first?["path"], "/lib/bad.jpg")
        XCTAssertEqual(spy.errors.text, "")
    }

    func testImportDrawsProgressOnlyOnATerminal() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        let terminal = SpyConsole(errorsIsTerminal: true)
        try await ImportCommand.parse(["/lib"]).run(in: environment(console: terminal.console))
        XCTAssertTrue(terminal.errors.text.contains("] 1/1"), terminal.errors.text)
        let last = try XCTUnwrap(terminal.errors.text.components(separatedBy: "\r").dropLast().last)
        XCTAssertTrue(terminal.errors.text.hasSuffix("\r") && !last.isEmpty && last.allSatisfy { $0 == " " }, "the bar is blanked at the end")
    }

    func testACatalogueThatCannotBeOpenedExitsWith69() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        let command = try ImportCommand.parse(["/lib"])
        await assertExits(with: ExitStatus.unavailable, "expected exit 69") {
            try await command.run(in: environment(failingOpen: true))
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: cannot open the catalogue /home/ada/.local/share/showhide/catalogue.sqlite: disk I/O error"])
    }

    func testImportValidatesItsArguments() {
        XCTAssertThrowsError(try ImportCommand.parse([]))
        XCTAssertThrowsError(try ImportCommand.parse(["/lib", "--jobs", "0"])) { error in
            XCTAssertTrue(ImportCommand.message(for: error).contains("--jobs must be at least 1"))
        }
    }

    // MARK: list, show, failures

    func importFixtures() async throws {
        addPhotos()
        _ = try? await ImportCommand.parse(["/lib", "--json"]).run(in: environment())
        spy.output.clear()
        spy.errors.clear()
    }

    func testListPrintsATable() async throws {
        try await importFixtures()
        try ListCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, [
            "ID  FILE   TAKEN                CAMERA  PIXELS     COLOURS",
            "1   a.jpg  2020-01-02 03:04:05  Canon   4000×3000  grey, accent red 11%",
            "2   b.jpg  -                    -       300×200    grey",
        ])
        XCTAssertEqual(spy.errors.lines, [])
        // A photo whose file is gone (a drive unmounted, a file deleted) is still listed, marked.
        try files.remove("/lib/b.jpg")
        spy.output.clear()
        try ListCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines[2], "2   b.jpg (file gone)  -                    -       300×200    grey")
        XCTAssertEqual(spy.errors.lines, ["1 photo listed here has no file at its path (gallery check lists them; gallery remove --missing forgets them)"])
    }

    func testShowMarksAPhotoWhoseFileIsGoneAsListDoes() async throws {
        try await importFixtures()
        try files.remove("/lib/b.jpg")
        try ShowCommand.parse(["1", "2"]).run(in: environment())
        XCTAssertTrue(spy.output.lines.contains { $0.hasSuffix("/lib/b.jpg (file gone)") }, spy.output.text)
        XCTAssertTrue(spy.output.lines.contains { $0.hasSuffix("/lib/a.jpg") })
        XCTAssertEqual(spy.errors.lines, ["1 photo shown here has no file at its path (gallery check lists them; gallery remove --missing forgets them)"])
        spy.output.clear()
        try ShowCommand.parse(["2", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["path"] as? String, "/lib/b.jpg", "the JSON as the catalogue holds it")
    }

    func testListFiltersAndSorts() async throws {
        try await importFixtures()
        try ListCommand.parse(["--camera", "canon", "--since", "2020-01-01", "--until", "2020-12-31"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.count, 2)
        spy.output.clear()
        try ListCommand.parse(["--camera", " canon ", "--json"]).run(in: environment())
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [Any])?.count, 1, "the text trimmed")
        spy.output.clear()
        try ListCommand.parse(["--sort", "name", "--limit", "1", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { $0["path"] as? String }, ["/lib/a.jpg"])
    }

    func testListJSONUsesTheDocumentedKeys() async throws {
        try await importFixtures()
        try ListCommand.parse(["--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(Set(json[0].keys), ["id", "path", "sha256", "format", "width", "height", "fileSize", "importedAt", "exif",
                                           "palette", "dominant", "accent", "scene"])
        XCTAssertEqual(json[0]["scene"] as? String, "ordinary")
        let palette = try XCTUnwrap(json[0]["palette"] as? [[String: Any]])
        // The fake photo is a red subject on a grey ground (FakePhoto.picture).
        XCTAssertEqual(palette.count, 2)
        XCTAssertEqual(Set(palette[0].keys), ["hex", "lab", "weight", "name"])
        XCTAssertEqual(palette[0]["hex"] as? String, "#808080")
        XCTAssertEqual(palette[1]["hex"] as? String, "#FF0000")
        XCTAssertEqual(try XCTUnwrap(palette[1]["weight"] as? Double), 1.0 / 9, accuracy: 0.003, "a ninth of the frame")
        XCTAssertEqual((palette[0]["lab"] as? [Double])?.count, 3)
        XCTAssertEqual(json[0]["dominant"] as? [String: String], ["hex": "#808080", "name": "grey"])
        let accent = try XCTUnwrap(json[0]["accent"] as? [String: Any])
        XCTAssertEqual(Set(accent.keys), ["hex", "name", "hue", "coverage"])
        XCTAssertTrue(json[1]["accent"] is NSNull, "a grey photo has a null accent")
        XCTAssertEqual(json[0]["importedAt"] as? String, "2023-11-14T22:13:20Z")
        XCTAssertEqual(json[0]["format"] as? String, "jpeg")
        XCTAssertEqual((json[0]["exif"] as? [String: Any])?["takenAt"] as? String, "2020-01-02T03:04:05")
        XCTAssertNil(json[1]["exif"], "absent when the file has none")
    }

    func testAnEmptyListingSaysSoOnStandardError() throws {
        try ListCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.text, "")
        XCTAssertEqual(spy.errors.lines, ["The catalogue has no photos that match."])
    }

    func testListRejectsBadDays() {
        for bad in ["2020-13-01", "yesterday", "2020-1-1", "2020-01-01T00"] {
            XCTAssertThrowsError(try ListCommand.parse(["--since", bad]), bad)
        }
        XCTAssertThrowsError(try ListCommand.parse(["--until", "2020/01/01"]))
        XCTAssertThrowsError(try ListCommand.parse(["--limit", "-1"]))
        XCTAssertThrowsError(try ListCommand.parse(["--sort", "size"]))
        XCTAssertNoThrow(try ListCommand.parse(["--since", "2020-02-29"]))
    }

    func testShowPrintsEverythingAboutOnePhoto() async throws {
        try await importFixtures()
        try ShowCommand.parse(["1"]).run(in: environment())
        let text = spy.output.text
        // Labels are padded to the longest one shown ("file size").
        XCTAssertTrue(text.contains("path       /lib/a.jpg\n"), text)
        XCTAssertTrue(text.contains("pixels     4000×3000\n"), text)
        XCTAssertTrue(text.contains("camera     Canon\n"), text)
        XCTAssertTrue(text.contains("taken      2020-01-02T03:04:05\n"), text)
        XCTAssertFalse(text.contains("lens"), "values the photo does not have are left out")
    }

    func testShowSaysWhenTheAccentIsAChosenSubject() async throws {
        try await importFixtures()
        let blue = Accent.sample("#1F5AA6", coverage: 0.05)
        try catalogue.write { try $0.chooseSubject(blue, of: 1, at: Date(timeIntervalSince1970: 0)) }
        try ShowCommand.parse(["1"]).run(in: environment())
        XCTAssertTrue(spy.output.text.contains("#1F5AA6 blue"), spy.output.text)
        XCTAssertTrue(spy.output.text.contains(", chosen by you\n"), spy.output.text)
        spy.output.clear()
        try ShowCommand.parse(["1", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["subjectChosen"] as? Bool, true)
        XCTAssertEqual((json["accent"] as? [String: Any])?["name"] as? String, "blue")
    }

    func testShowJSONAddsDuplicatesAndTags() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(seed: "a")
        files["/lib/copy.jpg"] = FakePhoto.data(seed: "a")
        try await ImportCommand.parse(["/lib", "--jobs", "1"]).run(in: environment())
        spy.output.clear()
        try ShowCommand.parse(["1", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["duplicatePaths"] as? [String], ["/lib/copy.jpg"])
        XCTAssertEqual(json["exifTags"] as? [String: String], [:])
        let candidates = try XCTUnwrap(json["candidates"] as? [[String: Any]])
        XCTAssertEqual(candidates.first?["name"] as? String, "red")
        XCTAssertEqual(Set(candidates.first?.keys.map { $0 } ?? []),
                       ["hex", "name", "hue", "coverage", "saliency", "contrast", "regions", "compactness", "texture"])
    }

    func testShowingAnUnknownIDExitsWithStatusTwo() throws {
        XCTAssertThrowsError(try ShowCommand.parse(["42"]).run(in: environment())) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.notFound)
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: no photo with id 42 in the catalogue"])
        XCTAssertThrowsError(try ShowCommand.parse(["forty-two"]))
    }

    func testFailuresAreListedAsATableOrJSON() async throws {
        try await importFixtures()
        try FailuresCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["PATH          REASON", "/lib/bad.jpg  corrupt JPEG data: bad Huffman code"])
        spy.output.clear()
        try FailuresCommand.parse(["--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: String]])
        XCTAssertEqual(json, [["path": "/lib/bad.jpg", "reason": "corrupt JPEG data: bad Huffman code", "failedAt": "2023-11-14T22:13:20Z"]])
    }

    /// Imports folders one of whose files fails (exit status 1).
    func importFailing(_ paths: [String]) async throws {
        do {
            try await ImportCommand.parse(paths).run(in: environment())
            XCTFail("a file fails")
        } catch let status as ExitCode {
            XCTAssertEqual(status, ExitStatus.someFilesFailed)
        }
    }

    func testFailuresCanBeClearedAllOrByPathAndGoneFilesLeaveOnTheNextImport() async throws {
        try await importFixtures()
        files["/other/bad.jpg"] = FakePhoto.broken(reason: "not a JPEG")
        try await importFailing(["/other"])
        XCTAssertThrowsError(try FailuresCommand.parse(["/lib"])) { error in
            XCTAssertEqual(FailuresCommand.message(for: error), "Paths name failures to forget: give --clear too.")
        }
        spy.output.clear()
        spy.errors.clear()

        try FailuresCommand.parse(["--clear", "/other"]).run(in: environment())
        XCTAssertEqual(spy.errors.lines, ["cleared 1 failure"])
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/lib/bad.jpg"])

        // The broken file is deleted: the next import of its folder forgets its failure.
        files["/lib/bad.jpg"] = nil
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        XCTAssertEqual(try catalogue.failures().map(\.path), [])

        files["/other/bad.jpg"] = FakePhoto.broken(reason: "not a JPEG")
        try await importFailing(["/other"])
        spy.errors.clear()
        try FailuresCommand.parse(["--clear"]).run(in: environment())
        XCTAssertEqual(spy.errors.lines, ["cleared 1 failure", "No import failures."])
    }

    func testNoFailuresSaysSo() throws {
        try FailuresCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.errors.lines, ["No import failures."])
    }

    func testTheGalleryGroupHasItsSubcommands() throws {
        XCTAssertTrue(try ShowHideCommand.parseAsRoot(["gallery", "import", "x"]) is ImportCommand)
        XCTAssertTrue(try ShowHideCommand.parseAsRoot(["gallery", "list"]) is ListCommand)
        XCTAssertTrue(try ShowHideCommand.parseAsRoot(["gallery", "show", "3"]) is ShowCommand)
        XCTAssertTrue(try ShowHideCommand.parseAsRoot(["gallery", "failures"]) is FailuresCommand)
    }
}

/// Which library folders a test environment was asked to open.
final class OpenedLibraries: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [(directory: String, opening: CatalogueOpening)] = []
    func append(_ directory: String, _ opening: CatalogueOpening) { lock.withLock { opened.append((directory, opening)) } }
    var all: [String] { lock.withLock { opened.map(\.directory) } }
    var openings: [CatalogueOpening] { lock.withLock { opened.map(\.opening) } }
}

func XCTAssertThrowsErrorAsync(_ expression: @autoclosure () async throws -> Void,
                               file: StaticString = #filePath, line: UInt = #line) async {
    do {
        try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {}
}
