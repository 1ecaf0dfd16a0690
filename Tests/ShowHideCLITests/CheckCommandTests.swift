import ArgumentParser
import Catalogue
import CatalogueSQLite
import Foundation
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class CheckCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!
    /// The library's thumbnails, which the import made.
    let thumbnails = FakeThumbnailCache()

    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/red.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "red", colour: "#D01020")
        files["/lib/blue.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "blue", colour: "#1F5AA6")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        try await ProcessCommand.parse(["--all"]).run(in: environment())
        spy.output.clear()
        spy.errors.clear()
    }

    func environment() -> AppEnvironment {
        let catalogue = self.catalogue!
        return .fake(console: spy.console, files: files, catalogue: catalogue, thumbnails: thumbnails)
    }

    func testACleanCatalogue() throws {
        try CheckCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["integrity: ok", "photos: 2, missing files 0, changed since import 0",
                                          "variants: 0 without a file, 0 stray files", "thumbnails: 0 missing, 0 stray"])
    }

    func testThumbnailsThatCannotBeReadAreSaidAndMadeAnewByARepair() throws {
        thumbnails.failing = true
        try CheckCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines.suffix(2), ["thumbnails: 2 missing, 0 stray",
                                                    "  the thumbnails cannot be read: /library/thumbnails.sqlite is damaged; --repair makes them anew"])
        spy.output.clear()
        try CheckCommand.parse(["--repair", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["unreadableThumbnails"] as? String, "/library/thumbnails.sqlite is damaged")
        XCTAssertEqual(json["madeThumbnails"] as? Int, 2)
        XCTAssertEqual(thumbnails.jpegs.count, 2)
    }

    func testThumbnailsThatCannotBeReadForAMomentAreNotPromisedARepair() throws {
        thumbnails.failing = true
        thumbnails.failure = .diskFull(path: "/library/thumbnails.sqlite")
        try CheckCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines.last, "  the thumbnails cannot be read: \(thumbnails.failure.plainDescription); check again once that is mended")
    }

    /// What `gallery check ARGUMENTS` prints when it finds a problem (exit 1).
    func checkWithProblems(_ arguments: [String] = []) async -> String {
        spy.output.clear()
        await assertExits(with: ExitStatus.someFilesFailed, "a photo's file is missing") {
            try CheckCommand.parse(arguments).run(in: environment())
        }
        return spy.output.text
    }

    /// blue.jpg's bytes put at `copy` and imported there, then blue.jpg itself gone.
    func goneBlue(withACopyAt copy: String, of blue: Data) async throws {
        files["/lib/blue.jpg"] = blue
        files[copy] = blue
        try await ImportCommand.parse([(copy as NSString).deletingLastPathComponent]).run(in: environment())
        try files.remove("/lib/blue.jpg")
    }

    func testAMissingPhotoWhoseCopyIsThereSaysWhereAndHowToMakeItTheFile() async throws {
        let blue = try XCTUnwrap(files["/lib/blue.jpg"])
        try await goneBlue(withACopyAt: "/lib/copies/blue.jpg", of: blue)
        let text = await checkWithProblems()
        XCTAssertTrue(text.contains("  missing: photo 1 /lib/blue.jpg (the same photo is at /lib/copies/blue.jpg: "
                                    + "gallery remove --missing makes that its file)\n"), text)
        let jsonText = await checkWithProblems(["--json"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any])
        XCTAssertEqual((json["missingPhotos"] as? [[String: Any]])?.first?["copies"] as? [String], ["/lib/copies/blue.jpg"])
        // Two copies: remove --missing makes one of them the file, which check does not pretend to know.
        try await goneBlue(withACopyAt: "/lib/more/blue.jpg", of: blue)
        let two = await checkWithProblems()
        XCTAssertTrue(two.contains("  missing: photo 1 /lib/blue.jpg (the same photo is still at 2 places, such as "
                                   + "/lib/copies/blue.jpg: gallery remove --missing makes one of them its file)\n"), two)
    }

    func testTheReportFitsANarrowTerminalItsLongLinesGoingOnUnderThemselves() async throws {
        let blue = try XCTUnwrap(files["/lib/blue.jpg"])
        try await goneBlue(withACopyAt: "/lib/copies/blue.jpg", of: blue)
        let narrow = SpyConsole(width: 50)
        let environment = AppEnvironment.fake(console: narrow.console, files: files, catalogue: catalogue!, thumbnails: thumbnails)
        await assertExits(with: ExitStatus.someFilesFailed, "a photo's file is missing") {
            try CheckCommand.parse([]).run(in: environment)
        }
        let lines = narrow.output.lines
        XCTAssertTrue(lines.allSatisfy { $0.count <= 50 }, narrow.output.text)
        let missing = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  missing: photo 1 /lib/blue.jpg") }, narrow.output.text)
        XCTAssertTrue(lines[missing + 1].hasPrefix("    ") && !lines[missing + 1].hasPrefix("     "), narrow.output.text)
        XCTAssertEqual(lines.filter { !$0.hasPrefix(" ") }.first, "integrity: ok")
    }

    func testFilesBeingMadeAreSaidAndLeft() throws {
        files["/library/variants/zz/being-made.jpg"] = Data("x".utf8)
        files.setStamp(FileStamp(size: 1, modifiedAtNanoseconds: Int64(FakeClock().now().timeIntervalSince1970 * 1e9)),
                       for: "/library/variants/zz/being-made.jpg")
        try CheckCommand.parse(["--repair"]).run(in: environment())
        XCTAssertTrue(spy.output.lines.contains("  1 file not recorded yet, written in the last 10 minutes: most likely variants another "
            + "showhide is making; left as they are (check again later)"), spy.output.text)
        XCTAssertNotNil(files["/library/variants/zz/being-made.jpg"])
    }

    func testProblemsAreListedRepairedWhenAskedAndSetTheExitStatus() throws {
        try files.remove("/lib/blue.jpg")
        files["/library/variants/zz/leftover.jpg"] = Data("x".utf8)
        do {
            try CheckCommand.parse([]).run(in: environment())
            XCTFail("problems were found")
        } catch {
            XCTAssertEqual(error as? ExitCode, ExitStatus.someFilesFailed)
        }
        XCTAssertTrue(spy.output.lines.contains("  missing: photo 1 /lib/blue.jpg"), spy.output.text)
        XCTAssertTrue(spy.output.lines.contains("  stray: /library/variants/zz/leftover.jpg"), spy.output.text)
        XCTAssertTrue(spy.output.lines.contains("variants: 0 without a file, 1 stray file"), spy.output.text)
        XCTAssertNotNil(files["/library/variants/zz/leftover.jpg"])
        spy.output.clear()

        XCTAssertThrowsError(try CheckCommand.parse(["--repair", "--json"]).run(in: environment()))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["removedStrayFiles"] as? Int, 1)
        XCTAssertEqual(json["clean"] as? Bool, false, "the missing photo is still reported")
        XCTAssertNil(files["/library/variants/zz/leftover.jpg"])
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).count, 2)
    }

    func testVariantsThatMovedWithTheLibraryAreSaidAndARepairRecordsWhereTheyAre() throws {
        // The rows name the library's old place (it was /old before it was moved to /library).
        for var variant in try catalogue.allVariants() {
            variant.path = variant.path.replacingOccurrences(of: "/library/", with: "/old/")
            try catalogue.recordVariant(variant)
        }
        XCTAssertThrowsError(try CheckCommand.parse([]).run(in: environment()))
        XCTAssertEqual(spy.output.lines[2...3], ["variants: 0 without a file, 0 stray files",
                                                 "  4 variants moved with the library folder (recorded at their old place); --repair records the new one"])
        spy.output.clear()

        try CheckCommand.parse(["--repair", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual((json["movedVariants"] as? [String])?.count, 4)
        XCTAssertEqual(json["movedVariantRows"] as? Int, 4)
        XCTAssertEqual(json["removedStrayFiles"] as? Int, 0)
        XCTAssertEqual(json["clean"] as? Bool, true)
        XCTAssertTrue(try catalogue.allVariants().allSatisfy { $0.path.hasPrefix("/library/variants/") && files[$0.path] != nil })
        spy.output.clear()
        try CheckCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines[2], "variants: 0 without a file, 0 stray files")
    }

    func testARestoredLibrarysVariantsAreSaidToBeAnotherLibrarysFilesNotThisOnes() throws {
        // Restored from a backup into /library: the rows name the old library's files, which are there, at /old.
        let variants = try catalogue.allVariants()
        for var variant in variants {
            try files.remove(variant.path)
            variant.path = variant.path.replacingOccurrences(of: "/library/", with: "/old/")
            files[variant.path] = Data([1])
            try catalogue.recordVariant(variant)
        }
        XCTAssertThrowsError(try CheckCommand.parse([]).run(in: environment()))
        let first = try XCTUnwrap(try catalogue.allVariants().sorted { $0.path < $1.path }.first)
        XCTAssertTrue(spy.output.lines.contains("  no file: photo \(first.photoID) \(first.kind) \(first.path) (recorded in another library's "
                                                + "folder, whose file is that library's: this one has none)"), spy.output.text)
        // Pruning a superseded set says the other library's file is left there, as it is.
        var older = first
        older.parameters = "{}"
        older.createdAt = first.createdAt.addingTimeInterval(-60)
        older.path = (first.path as NSString).deletingLastPathComponent + "/older.jpg"
        files[older.path] = Data([1])
        try catalogue.recordVariant(older)
        spy.output.clear()
        try VariantsCommand.parse(["--prune"]).run(in: environment())
        XCTAssertTrue(spy.output.lines[0].hasSuffix("): \(older.path) (no file of it in this library: nothing deleted)"), spy.output.text)
        XCTAssertNotNil(files[older.path])
    }

    func testForgettingMissingPhotosIsARepairThatLeavesACleanCatalogue() throws {
        XCTAssertThrowsError(try CheckCommand.parse(["--forget-missing"])) { error in
            XCTAssertEqual(CheckCommand.message(for: error), "--forget-missing is a repair: give --repair too.")
        }
        try files.remove("/lib/blue.jpg")
        let blueVariants = try XCTUnwrap(try catalogue.photo(id: 1)?.variants.map(\.path))
        XCTAssertEqual(blueVariants.count, 2)
        XCTAssertTrue(blueVariants.allSatisfy { files[$0] != nil })

        try CheckCommand.parse(["--repair", "--forget-missing"]).run(in: environment())

        XCTAssertEqual(spy.output.lines, ["integrity: ok", "repaired: forgot photo 1 /lib/blue.jpg (its file was gone)",
                                          "photos: 1, missing files 0, changed since import 0",
                                          "variants: 0 without a file, 0 stray files",
                                          "thumbnails: 0 missing, 0 stray"], "its thumbnail went with it: no stray left to repair")
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).map(\.path), ["/lib/red.jpg"])
        XCTAssertTrue(blueVariants.allSatisfy { files[$0] == nil }, "its variant files went with it")
    }

    func testACatalogueTooDamagedToOpenIsTheCheckFindingWithStatus65() throws {
        var environment = environment()
        environment.openCatalogue = { _, _ in throw CatalogueError.damaged(path: "/library/catalogue.sqlite") }
        XCTAssertThrowsError(try CheckCommand.parse([]).run(in: environment)) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.damaged)
        }
        XCTAssertEqual(spy.output.lines, ["integrity: damaged beyond reading (SQLite cannot open its tables)",
                                          "the catalogue is damaged: restore it from a backup (showhide gallery backup makes one); "
                                          + "nothing else was checked"])
        XCTAssertEqual(spy.errors.text, "")
    }

    func testACatalogueThatCannotBeOpenedForAnotherReasonIsSaidOnStandardError() throws {
        var environment = environment()
        environment.openCatalogue = { _, _ in throw CatalogueError.noCatalogue(directory: "/library") }
        XCTAssertThrowsError(try CheckCommand.parse([]).run(in: environment)) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.unavailable)
        }
        XCTAssertEqual(spy.errors.lines, ["showhide: no catalogue in /library; import photos first: showhide gallery import PATH"])
    }
}
