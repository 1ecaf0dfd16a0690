import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// `showhide gallery …` through the built binary, on a generated photo folder.
final class GalleryBinaryTests: XCTestCase {
    var directory: URL!
    var library: String { directory.appendingPathComponent("library").path }
    var photos: URL { directory.appendingPathComponent("photos") }
    let binary = ShowhideBinary()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("trip"), withIntermediateDirectories: true)
        let codec = ImageCodec()
        try codec.encode(TestImage.gradient(width: 64, height: 48), as: .jpeg, options: EncodeOptions(exif: ExifFixture.camera().encoded()))
            .write(to: photos.appendingPathComponent("trip/camera.jpg"))
        try codec.encode(TestImage.twoByTwo(.red, .green, .blue, .white), as: .png, options: EncodeOptions())
            .write(to: photos.appendingPathComponent("tiny.png"))
        try Data("not a photo".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let jpeg = try Data(contentsOf: photos.appendingPathComponent("trip/camera.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: photos.appendingPathComponent("cut.jpg"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    func testAPhotoWhoseFileWasDeletedIsRemovedAndTheCheckThenPasses() throws {
        XCTAssertEqual(try binary.run(["gallery", "import", photos.path, "--library", library]).status, 1, "cut.jpg fails")
        let processed = try binary.run(["gallery", "process", "--all", "--hue", "30", "--library", library])
        XCTAssertEqual(processed.status, 0, processed.errors)
        try FileManager.default.removeItem(at: photos.appendingPathComponent("trip/camera.jpg"))
        let variantsBefore = try FileManager.default.subpathsOfDirectory(atPath: library + "/variants").filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(variantsBefore.count, 2, "the camera photo's show and hide")

        let check = try binary.run(["gallery", "check", "--library", library])
        XCTAssertEqual(check.status, 1, "a photo's file is missing")
        let removed = try binary.run(["gallery", "remove", "--missing", "--library", library])
        XCTAssertEqual(removed.status, 0, removed.errors)
        XCTAssertEqual(removed.output.split(separator: "\n").last, "removed 1 photo and 2 variant files")
        XCTAssertTrue(removed.output.contains("camera.jpg"), removed.output)

        let again = try binary.run(["gallery", "check", "--library", library])
        XCTAssertEqual(again.status, 0, again.output + again.errors)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: library + "/variants").filter { $0.hasSuffix(".jpg") }, [])
        let list = try XCTUnwrap(try json(try binary.run(["gallery", "list", "--library", library, "--json"]).output) as? [[String: Any]])
        XCTAssertEqual(list.map { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }, ["tiny.png"])
        XCTAssertEqual(try binary.run(["gallery", "remove", "9", "--library", library]).status, 2, "an unknown id")
    }

    func testVariantsOfEveryParameterSetAreListedAndPrunedToTheNewest() throws {
        XCTAssertEqual(try binary.run(["gallery", "import", photos.path, "--library", library]).status, 1, "cut.jpg fails")
        for hue in ["30", "200"] {
            let made = try binary.run(["gallery", "process", "--all", "--hue", hue, "--library", library])
            XCTAssertEqual(made.status, 0, made.errors)
        }
        func variantFiles() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: library + "/variants").filter { $0.contains(".") }
        }
        XCTAssertEqual(try variantFiles().count, 8, "two photos, show and hide, two hues")
        let listed = try XCTUnwrap(try json(try binary.run(["gallery", "variants", "--json", "--library", library]).output) as? [[String: Any]])
        XCTAssertEqual(listed.count, 8)

        let pruned = try binary.run(["gallery", "variants", "--prune", "--library", library])
        XCTAssertEqual(pruned.status, 0, pruned.errors)
        XCTAssertEqual(pruned.output.split(separator: "\n").last, "removed 4 variants; each photo keeps its newest parameter set")
        XCTAssertEqual(try variantFiles().count, 4)
        let kept = try XCTUnwrap(try json(try binary.run(["gallery", "variants", "--json", "--library", library]).output) as? [[String: Any]])
        XCTAssertEqual(Set(kept.compactMap { ($0["params"] as? [String: Double])?["hue"] }), [200])
        XCTAssertEqual(try binary.run(["gallery", "check", "--library", library]).status, 0)
    }

    func testAMistypedFolderIsAnErrorAtOnceAndNothingIsStored() throws {
        let missing = directory.appendingPathComponent("nonexistent/folder").path
        let run = try binary.run(["gallery", "import", missing, photos.path, "--library", library])
        XCTAssertEqual(run.status, 66)
        XCTAssertEqual(run.errors, "showhide: \(missing): no such folder or file; nothing was imported (check the path)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/catalogue.sqlite"), "not even a catalogue is made")
    }

    func testImportReimportListShowAndFailures() throws {
        let first = try binary.run(["gallery", "import", photos.path, "--library", library, "--json"])
        XCTAssertEqual(first.status, 1, "one file failed")
        let summary = try XCTUnwrap(try json(first.output) as? [String: Any])
        XCTAssertEqual(summary["imported"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["skipped"] as? Int, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/catalogue.sqlite"))

        let second = try binary.run(["gallery", "import", photos.path, "--library", library, "--json"])
        let again = try XCTUnwrap(try json(second.output) as? [String: Any])
        XCTAssertEqual(again["unchanged"] as? Int, 2)
        XCTAssertEqual(again["imported"] as? Int, 0)

        let list = try binary.run(["gallery", "list", "--library", library, "--json", "--sort", "name"])
        XCTAssertEqual(list.status, 0)
        let photosJSON = try XCTUnwrap(try json(list.output) as? [[String: Any]])
        XCTAssertEqual(photosJSON.map { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }, ["camera.jpg", "tiny.png"])
        let camera = try XCTUnwrap(photosJSON.first)
        XCTAssertEqual(camera["width"] as? Int, 64)
        XCTAssertEqual((camera["exif"] as? [String: Any])?["model"] as? String, "FX-100")
        XCTAssertEqual((camera["sha256"] as? String)?.count, 64)

        let show = try binary.run(["gallery", "show", String(camera["id"] as! Int), "--library", library])
        XCTAssertEqual(show.status, 0)
        XCTAssertTrue(show.output.contains("Fixture Optics FX-100"), show.output)

        let failures = try binary.run(["gallery", "failures", "--library", library, "--json"])
        let listed = try XCTUnwrap(try json(failures.output) as? [[String: String]])
        XCTAssertEqual(listed.map { $0["path"] }, [photos.appendingPathComponent("cut.jpg").path])
    }

    func testTheLibraryCanComeFromTheEnvironment() throws {
        try FileManager.default.removeItem(at: photos.appendingPathComponent("cut.jpg"))
        let result = try binary.run(["gallery", "import", photos.path], environment: ["SHOWHIDE_LIBRARY": library])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.hasPrefix("imported 2, unchanged 0"), result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/catalogue.sqlite"))
    }

    func testANameWithAnEscapeAndANewlineIsPrintedEscaped() throws {
        try FileManager.default.removeItem(at: photos.appendingPathComponent("cut.jpg"))
        let hostile = "bad\u{1B}]0;pwned\u{07}\nname.jpg"
        try FileManager.default.moveItem(at: photos.appendingPathComponent("trip/camera.jpg"), to: photos.appendingPathComponent(hostile))
        try Data("not a jpeg".utf8).write(to: photos.appendingPathComponent("cut\u{1B}[2J.jpg"))
        let imported = try binary.run(["gallery", "import", photos.path, "--library", library])
        XCTAssertEqual(imported.status, 1)
        XCTAssertTrue(imported.errors.contains("failed: \(photos.path)/cut\\e[2J.jpg: named like a photo"), imported.errors)
        for arguments in [["gallery", "list"], ["gallery", "show", "1"], ["gallery", "failures"], ["inspect", photos.appendingPathComponent(hostile).path]] {
            let run = try binary.run(arguments + (arguments[0] == "inspect" ? [] : ["--library", library]))
            let text = run.output + run.errors
            XCTAssertFalse(text.contains("\u{1B}") || text.contains("\u{07}"), "\(arguments): \(text)")
            XCTAssertTrue(text.contains("bad\\e]0;pwned\\x07\\nname.jpg") || text.contains("cut\\e[2J.jpg"), "\(arguments): \(text)")
        }
        let json = try binary.run(["gallery", "list", "--json", "--library", library])
        let paths = (try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])?.compactMap { $0["path"] as? String }
        XCTAssertTrue(paths?.contains(photos.appendingPathComponent(hostile).path) == true, "JSON keeps the name itself, escaped by JSON")
    }

    func testTablesFitCOLUMNS() throws {
        let name = "a-very-long-file-name-from-a-phone-that-goes-on-and-on-IMG_20240101_123456789.png"
        try FileManager.default.moveItem(at: photos.appendingPathComponent("tiny.png"), to: photos.appendingPathComponent(name))
        _ = try binary.run(["gallery", "import", photos.path, "--library", library])
        for arguments in [["gallery", "list"], ["gallery", "failures"], ["gallery", "search", "--colour", "red"]] {
            let run = try binary.run(arguments + ["--library", library], environment: ["COLUMNS": "60"])
            let lines = run.output.split(separator: "\n")
            XCTAssertFalse(lines.isEmpty, "\(arguments): \(run.errors)")
            for line in lines { XCTAssertLessThanOrEqual(line.count, 60, "\(arguments): \(line)") }
        }
        let wide = try binary.run(["gallery", "list", "--library", library])
        XCTAssertTrue(wide.output.contains(name), "without COLUMNS a pipe gets whole lines")
    }

    func testAPhoneFolderSaysWhichPhotosAreNotReadYet() throws {
        try FileManager.default.removeItem(at: photos.appendingPathComponent("cut.jpg"))
        try Data([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 0]).write(to: photos.appendingPathComponent("IMG_0001.CR3"))
        try Data([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0, 0, 0]).write(to: photos.appendingPathComponent("DSC_0001.ARW"))
        let result = try binary.run(["gallery", "import", photos.path, "--library", library])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("unsupported 2 (camera raw (ARW), camera raw (CR3): not read yet), skipped 1 (not photos)"),
                      result.output)
        XCTAssertEqual(result.errors, """
            unsupported: \(photos.path)/DSC_0001.ARW: camera raw (ARW), which showhide does not read yet
            unsupported: \(photos.path)/IMG_0001.CR3: camera raw (CR3), which showhide does not read yet

            """)
    }

    func testACatalogueThatCannotBeCreatedExitsWith69() throws {
        let blocker = directory.appendingPathComponent("blocker").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = try binary.run(["gallery", "import", photos.path, "--library", blocker + "/library"])
        XCTAssertEqual(result.status, 69)
        XCTAssertTrue(result.errors.hasPrefix("showhide: cannot create the library folder \(blocker)/library: "), result.errors)
        XCTAssertFalse(result.errors.contains("Domain="), result.errors)
    }

    func testCommandsThatOnlyReadNeverCreateACatalogue() throws {
        let mistyped = directory.appendingPathComponent("librray").path
        for command in [["gallery", "list"], ["gallery", "search", "--colour", "red"], ["gallery", "show", "1"], ["gallery", "check"],
                        ["gallery", "failures"], ["inspire"], ["gallery", "process", "1"], ["gallery", "remove", "1"]] {
            let result = try binary.run(command + ["--library", mistyped])
            XCTAssertEqual(result.status, 69, "\(command)")
            XCTAssertEqual(result.errors, "showhide: no catalogue in \(mistyped); import photos first: showhide gallery import PATH\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mistyped))
    }

    func testTheLibraryOptionGoesBeforeOrAfterTheSubcommand() throws {
        XCTAssertEqual(try binary.run(["gallery", "import", photos.path, "--library", library]).status, 1)
        for arguments in [["--library", library, "gallery", "list", "--json"], ["gallery", "--library", library, "list", "--json"],
                          ["--library=\(library)", "gallery", "list", "--json"], ["gallery", "list", "--json", "--library", library]] {
            let result = try binary.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.errors)")
            let photos = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
            XCTAssertEqual(photos?.count, 2, "\(arguments)")
        }
    }

    func testARelativeLibraryIsMadeAbsoluteOnce() throws {
        let result = try binary.run(["gallery", "import", photos.path], environment: ["SHOWHIDE_LIBRARY": "relative/lib"],
                                    workingDirectory: directory.path)
        XCTAssertEqual(result.status, 1, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path + "/relative/lib/catalogue.sqlite"))
        let elsewhere = try binary.run(["gallery", "list"], environment: ["SHOWHIDE_LIBRARY": directory.path + "/relative/lib"],
                                       workingDirectory: "/")
        XCTAssertEqual(elsewhere.status, 0, elsewhere.errors)
    }
}

extension GalleryBinaryTests {
    func testTheDefaultLibraryFollowsHOMEAndXDG() throws {
        try FileManager.default.removeItem(at: photos.appendingPathComponent("cut.jpg"))
        let home = directory.appendingPathComponent("home").path
        var result = try binary.run(["gallery", "import", photos.path], environment: ["HOME": home, "SHOWHIDE_LIBRARY": ShowhideBinary.unset, "XDG_DATA_HOME": ""])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.local/share/showhide/catalogue.sqlite"))
        let data = directory.appendingPathComponent("data").path
        result = try binary.run(["gallery", "import", photos.path], environment: ["HOME": home, "SHOWHIDE_LIBRARY": ShowhideBinary.unset, "XDG_DATA_HOME": data])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/showhide/catalogue.sqlite"))
    }
}
