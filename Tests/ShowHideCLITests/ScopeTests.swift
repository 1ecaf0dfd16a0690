import ArgumentParser
import Catalogue
import CatalogueSQLite
import Foundation
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

/// `--in PATH…` and the other scope options on every command that works on many photos, and ids
/// taken the same way everywhere.
final class ScopeTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!

    /// Photos in a trip folder (one a level down), in a folder whose name begins the same way, at
    /// home (blue) and elsewhere.
    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/trip/a.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "a", colour: "#D01020")
        files["/lib/trip/day2/b.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "b", colour: "#D01020")
        files["/lib/tripod/c.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "c", colour: "#D01020")
        files["/lib/home/d.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "d", colour: "#1F5AA6")
        files["/other/e.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "e", colour: "#D01020")
        try await ImportCommand.parse(["/lib", "/other", "--jobs", "1"]).run(in: environment())
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        .fake(console: spy.console, files: files, catalogue: catalogue!, currentDirectory: "/lib")
    }

    func listed(_ arguments: [String]) throws -> [String] {
        spy.output.clear()
        try ListCommand.parse(arguments + ["--json", "--sort", "name"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        return json.compactMap { $0["path"] as? String }.sorted()
    }

    func id(_ path: String) throws -> PhotoID {
        try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(paths: [path])).first?.id)
    }

    func testAPathThatIsNowhereIsSaidWhenNothingWasChosen() async throws {
        // Mistyped: not on disk, nothing catalogued under it.
        XCTAssertEqual(try listed(["--in", "trpi"]), [])
        XCTAssertEqual(spy.errors.lines.filter { $0.hasPrefix("showhide: --in") },
                       ["showhide: --in trpi: no such folder or file, and no catalogued photo is under it"])
        spy.errors.clear()
        try await ProcessCommand.parse(["--in", "/nowhere", "--mode", "hue"]).run(in: environment())
        XCTAssertTrue(spy.errors.lines.contains("showhide: --in /nowhere: no such folder or file, and no catalogued photo is under it"))
        spy.errors.clear()
        // A scope that holds no photo is not "up to date".
        spy.output.clear()
        try await AnalyseCommand.parse(["--all", "--in", "/nowhere"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["Nothing to analyse: no catalogued photo is in this scope."])
        XCTAssertTrue(spy.errors.lines.contains("showhide: --in /nowhere: no such folder or file, and no catalogued photo is under it"))
        spy.errors.clear()
        // Search, inspire and remove say it too: "removed 0 photos" alone read as done.
        try SearchCommand.parse(["--colour", "red", "--in", "/nowhere"]).run(in: environment())
        try await InspireCommand.parse(["--in", "/nowhere"]).run(in: environment())
        try RemoveCommand.parse(["--in", "/nowhere"]).run(in: environment())
        XCTAssertEqual(spy.errors.lines.filter { $0.hasPrefix("showhide: --in") }.count, 3, spy.errors.text)
        spy.errors.clear()
        // Gone from disk but catalogued (an unmounted drive): its photos are chosen, and nothing is said.
        try files.remove("/other/e.jpg")
        XCTAssertEqual(try listed(["--in", "/other"]), ["/other/e.jpg"])
        // On disk, with nothing catalogued under it: not "nowhere" either.
        files["/empty/readme.txt"] = Data("x".utf8)
        XCTAssertEqual(try listed(["--in", "/empty"]), [])
        XCTAssertFalse(spy.errors.text.contains("--in"), spy.errors.text)
        // Beside a path that chose photos, an id typed after --in is a path that is nowhere: said, with where ids go.
        XCTAssertEqual(try listed(["--in", "/other", "34"]), ["/other/e.jpg"])
        XCTAssertEqual(spy.errors.lines, ["showhide: --in 34: no such folder or file, and no catalogued photo is under it "
                                          + "(an id? give ids before --in, whose paths run to the next option)"])
        // A colour search that matches nothing in a catalogued but unmounted folder does not call it nowhere.
        spy.errors.clear()
        try SearchCommand.parse(["--colour", "blue", "--in", "/other"]).run(in: environment())
        XCTAssertFalse(spy.errors.text.contains("no such folder"), spy.errors.text)
    }

    func testListTakesFoldersAtAnyDepthFilesAndRelativePaths() throws {
        XCTAssertEqual(try listed(["--in", "trip"]), ["/lib/trip/a.jpg", "/lib/trip/day2/b.jpg"], "relative to the working directory")
        XCTAssertEqual(try listed(["--in", "/lib/trip/", "/other"]), ["/lib/trip/a.jpg", "/lib/trip/day2/b.jpg", "/other/e.jpg"])
        XCTAssertEqual(try listed(["--in", "home/d.jpg"]), ["/lib/home/d.jpg"])
        XCTAssertEqual(try listed(["--in", "../other/../lib/tripod"]), ["/lib/tripod/c.jpg"])
        XCTAssertThrowsError(try ListCommand.parse(["--in", ""])) { error in
            XCTAssertEqual(ListCommand.message(for: error), "--in takes a folder or a file, not an empty path.")
        }
    }

    func testSearchAndInspireStayInTheScope() async throws {
        try SearchCommand.parse(["--colour", "red", "--in", "/lib/tripod", "/other", "--json"]).run(in: environment())
        let found = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(found.compactMap { $0["path"] as? String }.sorted(), ["/lib/tripod/c.jpg", "/other/e.jpg"])

        spy.output.clear()
        try await InspireCommand.parse(["--in", "/lib/trip", "--json"]).run(in: environment())
        let ranked = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        let paths = ranked.compactMap { ($0["photo"] as? [String: Any])?["path"] as? String }
        XCTAssertFalse(paths.isEmpty)
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("/lib/trip/") }, "\(paths)")
    }

    func testProcessAndExportTakeAScopeAsTheirPhotos() async throws {
        try await ProcessCommand.parse(["--in", "/lib/trip"]).run(in: environment())
        XCTAssertEqual(Set(try catalogue.allVariants().map(\.photoID)), [try id("/lib/trip/a.jpg"), try id("/lib/trip/day2/b.jpg")])

        try await ExportCommand.parse(["--in", "/other", "--to", "/out", "--variant", "original"]).run(in: environment())
        XCTAssertEqual(files["/out/undated_e_original.jpg"], files["/other/e.jpg"])
        XCTAssertEqual(files.writtenPaths.filter { $0.hasPrefix("/out/") && $0.hasSuffix(".jpg") }, ["/out/undated_e_original.jpg"])

        for refused in [["1", "--in", "/lib"], ["1", "--camera", "canon"]] {
            XCTAssertThrowsError(try ProcessCommand.parse(refused)) { error in
                XCTAssertEqual(ProcessCommand.message(for: error), "Give ids or a scope (--in, --since, --until, --camera), not both.")
            }
        }
        XCTAssertThrowsError(try ProcessCommand.parse([])) { error in
            XCTAssertEqual(ProcessCommand.message(for: error),
                           "Name the photos to process: their ids, a scope (--in, --since, --until, --camera), or --all.")
        }
    }

    func testAnalyseCheckAndRemoveWorkOnTheScopeAlone() async throws {
        try await AnalyseCommand.parse(["--all", "--in", "/lib/trip", "--json"]).run(in: environment())
        let analysed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(analysed["analysed"] as? Int, 2)
        XCTAssertThrowsError(try AnalyseCommand.parse(["3", "--in", "/lib"]))

        // The home photo's file is gone: a check of the trip does not see it, one of the whole catalogue does.
        files["/lib/home/d.jpg"] = nil
        spy.output.clear()
        try CheckCommand.parse(["--in", "/lib/trip", "--json"]).run(in: environment())
        let scoped = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(scoped["photos"] as? Int, 2)
        XCTAssertEqual((scoped["missingPhotos"] as? [Any])?.count, 0)
        spy.output.clear()
        XCTAssertThrowsError(try CheckCommand.parse(["--json"]).run(in: environment()))
        let whole = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(whole["photos"] as? Int, 5)
        XCTAssertEqual((whole["missingPhotos"] as? [[String: Any]])?.compactMap { $0["path"] as? String }, ["/lib/home/d.jpg"])

        // Forgetting the missing photos of another folder forgets nothing; forgetting a folder forgets its photos.
        spy.output.clear()
        try RemoveCommand.parse(["--missing", "--in", "/lib/trip"]).run(in: environment())
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/lib/home"])).count, 1)
        try RemoveCommand.parse(["--in", "/lib/tripod"]).run(in: environment())
        XCTAssertEqual(try listed([]), ["/lib/home/d.jpg", "/lib/trip/a.jpg", "/lib/trip/day2/b.jpg", "/other/e.jpg"])
        XCTAssertThrowsError(try RemoveCommand.parse(["1", "--in", "/lib"])) { error in
            XCTAssertEqual(RemoveCommand.message(for: error), "Give ids or a scope (--in, --since, --until, --camera), not both.")
        }
    }

    func testRemovingAFolderForgetsItsPathsAndKeepsItsPhotosCopiesElsewhere() async throws {
        // A copy of the trip's first photo kept in an album: the same content, a duplicate path.
        files["/album/a.jpg"] = files["/lib/trip/a.jpg"]
        try await ImportCommand.parse(["/album"]).run(in: environment())
        spy.output.clear()
        let first = try id("/lib/trip/a.jpg")
        try RemoveCommand.parse(["--in", "/lib/trip"]).run(in: environment())
        XCTAssertTrue(spy.output.lines.contains { $0 == "photo \(first) now at its duplicate /album/a.jpg (its path there forgotten with its folder)" }, spy.output.text)
        XCTAssertTrue(spy.output.lines.contains { $0.hasPrefix("removed photo") && $0.hasSuffix("/lib/trip/day2/b.jpg") }, spy.output.text)
        XCTAssertEqual(try listed([]), ["/album/a.jpg", "/lib/home/d.jpg", "/lib/tripod/c.jpg", "/other/e.jpg"])
        XCTAssertEqual(try id("/album/a.jpg"), first, "the photo moved to its copy, with its id")
        for blank in ["", " ", "\t"] {
            XCTAssertThrowsError(try RemoveCommand.parse(["--camera", blank])) { error in
                XCTAssertEqual(RemoveCommand.message(for: error), "--camera takes some text of the make or model, not nothing.",
                               "a blank would match the space between every make and model")
            }
        }
    }

    func testScopePathsAreTakenAsWrittenAndWithLinksResolved() throws {
        var home = environment()
        home.currentDirectory = "/home/ada"
        XCTAssertEqual(home.absolutePathAsWritten("trips/../photos/./2024/"), "/home/ada/photos/2024")
        XCTAssertEqual(home.absolutePathAsWritten("/a/b/../../.."), "/")
        XCTAssertEqual(home.absolutePathAsWritten("/photos/trips"), "/photos/trips")

        // A real folder and a link to it: the scope looks for the photos under both names.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-scope-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nas/trips"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("trips").path,
                                                   withDestinationPath: folder.appendingPathComponent("nas/trips").path)
        var linked = environment()
        linked.currentDirectory = folder.path
        let real = (folder.appendingPathComponent("nas/trips").path as NSString).resolvingSymlinksInPath
        let paths = try ListCommand.parse(["--in", "trips/rome"]).filters.query(in: linked).paths
        XCTAssertEqual(paths.count, 2, "\(paths)")
        XCTAssertTrue(paths.contains(folder.path + "/trips/rome"), "as written: \(paths)")
        XCTAssertTrue(paths.contains(real + "/rome"), "with the link resolved: \(paths)")
    }

    func testShowTakesSeveralIds() throws {
        let first = try id("/lib/trip/a.jpg"), second = try id("/other/e.jpg")
        try ShowCommand.parse([String(first), String(second), "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.compactMap { $0["path"] as? String }, ["/lib/trip/a.jpg", "/other/e.jpg"], "in the order given")
        spy.output.clear()
        try ShowCommand.parse([String(first), String(second)]).run(in: environment())
        XCTAssertEqual(spy.output.lines.filter { $0.hasPrefix("path") }.count, 2)
        XCTAssertTrue(spy.output.lines.contains(""), "a blank line between photos")
        XCTAssertThrowsError(try ShowCommand.parse([])) { error in
            XCTAssertEqual(ShowCommand.message(for: error), "Name the photos to show: their ids, as `gallery list` shows them.")
        }
    }
}
