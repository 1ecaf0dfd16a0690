import Codecs
import GRDB
import Foundation
import Imaging
import TestSupport
import XCTest
import CatalogueSQLite

/// Catalogues as years leave them: damaged pages, read-only copies.
final class CatalogueStateBinaryTests: XCTestCase {
    var directory: URL!
    var library: String { directory.appendingPathComponent("library").path }
    var catalogueFile: String { library + "/catalogue.sqlite" }
    var photos: URL { directory.appendingPathComponent("photos") }
    let binary = ShowhideBinary()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try LibraryFixture.writePhotos(40, into: photos)
        let imported = try binary.run(["gallery", "import", photos.path, "--library", library])
        XCTAssertEqual(imported.status, 0, imported.errors)
    }

    override func tearDownWithError() throws {
        try? Self.chmod("u+w", directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    static func chmod(_ mode: String, _ path: String) throws {
        let process = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", mode, path])
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// Three pages in the middle of the file overwritten.
    func damage() throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: catalogueFile))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        XCTAssertGreaterThan(size, 4 * 4096, "the catalogue has pages to damage")
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 3 * 4096))
    }

    func testADamagedCatalogueIsReportedByCheckInWordsWithItsStatus() throws {
        try damage()
        let check = try binary.run(["gallery", "check", "--library", library])
        XCTAssertEqual(check.status, 65, check.output + check.errors)
        let integrity = check.output.split(separator: "\n").first ?? ""
        XCTAssertTrue(integrity.hasPrefix("integrity: "), check.output)
        XCTAssertNotEqual(integrity, "integrity: ok", "what SQLite found is reported")
        XCTAssertTrue(check.output.contains("the catalogue is damaged: restore it from a backup"), check.output + check.errors)
        XCTAssertEqual(check.errors, "")
        for run in [check, try binary.run(["gallery", "list", "--library", library]),
                    try binary.run(["gallery", "search", "--colour", "red", "--library", library])] {
            for leak in ["SQLite error", "while executing", "SELECT", "Domain=", "UserInfo"] {
                XCTAssertFalse((run.output + run.errors).contains(leak), "\(leak) in \(run.output + run.errors)")
            }
        }
    }

    /// As root, the read-only catalogue is read by `nobody` (root may write anything); the part is
    /// skipped, and says so, only where that user cannot run the binary.
    func testAReadOnlyCatalogueIsListedAndSearchedButNotChanged() throws {
        try Self.chmod("a-w", library)
        let launcher = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        if !launcher.isEmpty, (try? binary.run(["--version"], launcher: launcher))?.status != 0 {
            throw XCTSkip("running as root, and user 65534 cannot run \(binary.url.path): the read-only part is not tested here")
        }
        // Under coverage the binary writes a profile; the other user writes it where it may.
        let profiles = directory.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o1777])
        let environment = ["LLVM_PROFILE_FILE": profiles.path + "/%p.profraw"]
        func run(_ arguments: [String]) throws -> ShowhideBinary.Run {
            try binary.run(arguments, environment: environment, launcher: launcher)
        }
        let list = try run(["gallery", "list", "--json", "--library", library])
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [Any])?.count, 40)
        let search = try run(["gallery", "search", "--colour", "red", "--library", library])
        XCTAssertEqual(search.status, 0, search.errors)
        let remove = try run(["gallery", "remove", "1", "--library", library])
        XCTAssertEqual(remove.status, 69)
        XCTAssertEqual(remove.errors, "showhide: the catalogue \(catalogueFile) is read-only and this command changes it; "
                       + "copy the library somewhere writable, or use a command that only reads\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: catalogueFile + "-wal"), "nothing written beside it")
    }
}

extension CatalogueStateBinaryTests {
    func testABackupTakenDuringAnImportIsSoundAndCanBeUsedAsALibrary() throws {
        let more = directory.appendingPathComponent("more-photos")
        try LibraryFixture.writePhotos(600, into: more, size: 64)
        let importing = try RunningShowhide(binary, ["gallery", "import", more.path, "--jobs", "1", "--library", library],
                                            outputFolder: directory)
        var duringImport: [String] = []
        var index = 0
        while importing.process.isRunning {
            let copy = directory.appendingPathComponent("backup\(index).sqlite").path
            let backup = try binary.run(["gallery", "backup", copy, "--library", library])
            XCTAssertEqual(backup.status, 0, backup.errors)
            XCTAssertTrue(backup.output.hasPrefix("backed up "), backup.output)
            if importing.process.isRunning { duringImport.append(copy) }
            index += 1
        }
        XCTAssertEqual(importing.wait().status, 0)
        XCTAssertFalse(duringImport.isEmpty, "at least one backup finished while the import ran")

        for copy in duringImport {
            let queue = try DatabaseQueue(path: copy)
            let (integrity, photos) = try queue.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") ?? 0)
            }
            XCTAssertEqual(integrity, ["ok"], copy)
            XCTAssertTrue((40...640).contains(photos), "\(photos) photos in \(copy)")
        }
        let restored = directory.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: duringImport[0], toPath: restored.appendingPathComponent("catalogue.sqlite").path)
        let list = try binary.run(["gallery", "list", "--json", "--library", restored.path])
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertGreaterThanOrEqual((try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [Any])?.count ?? 0, 40)
    }

    func testABackupNeverReplacesAFileUnlessToldAndSaysWhyItCannotWrite() throws {
        let copy = directory.appendingPathComponent("copy.sqlite").path
        XCTAssertEqual(try binary.run(["gallery", "backup", copy, "--library", library]).status, 0)
        let again = try binary.run(["gallery", "backup", copy, "--library", library])
        XCTAssertEqual(again.status, 73)
        XCTAssertEqual(again.errors, "showhide: \(copy) exists already: choose another name, or give --overwrite\n")
        let replaced = try binary.run(["gallery", "backup", copy, "--overwrite", "--json", "--library", library])
        XCTAssertEqual(replaced.status, 0, replaced.errors)
        let json = try JSONSerialization.jsonObject(with: Data(replaced.output.utf8)) as? [String: Any]
        XCTAssertEqual(json?["photos"] as? Int, 40)
        XCTAssertEqual(json?["integrity"] as? String, "ok")
        let nowhere = directory.appendingPathComponent("no/such/folder/copy.sqlite").path
        let missing = try binary.run(["gallery", "backup", nowhere, "--library", library])
        XCTAssertEqual(missing.status, 73)
        XCTAssertEqual(missing.errors, "showhide: cannot write the backup \(nowhere): the folder \(directory.path)/no/such/folder does not exist\n")
        for overwrite in [[], ["--overwrite"]] {
            let folder = try binary.run(["gallery", "backup", directory.path, "--library", library] + overwrite)
            XCTAssertEqual(folder.status, 73)
            XCTAssertEqual(folder.errors, "showhide: cannot write the backup \(directory.path): that is a folder; name the file to write in it, "
                           + "such as \(directory.path)/catalogue-backup.sqlite\n", "said the same, --overwrite or not")
        }
        let pipe = directory.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        for overwrite in [[], ["--overwrite"]] {
            let run = try binary.run(["gallery", "backup", pipe, "--library", library] + overwrite)
            XCTAssertEqual(run.status, 73)
            XCTAssertEqual(run.errors, "showhide: cannot write the backup \(pipe): that is not a file but a named pipe, a socket or a device; "
                           + "name the file to write the copy into\n")
        }
        var info = stat()
        XCTAssertTrue(stat(pipe, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe is still a pipe")
        // The library's own files: the thumbnails written over, or a file in variants/ that check --repair deletes.
        try Data("thumbs".utf8).write(to: URL(fileURLWithPath: library + "/thumbnails.sqlite"))
        for (name, overwrite) in [("thumbnails.sqlite", ["--overwrite"]), ("variants/copy.sqlite", [])] {
            let run = try binary.run(["gallery", "backup", library + "/" + name, "--library", library] + overwrite)
            XCTAssertEqual(run.status, 73, name)
            XCTAssertEqual(run.errors, "showhide: will not write over \(library)/\(name): it is one of the library's own files (\(library)); "
                           + "name another file\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: library + "/thumbnails.sqlite")), Data("thumbs".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".partial") }
        XCTAssertEqual(leftovers, [])
    }

    func testABackupIsNeverWrittenOverTheCatalogueItselfHoweverItIsNamed() throws {
        let catalogue = (library as NSString).appendingPathComponent("catalogue.sqlite")
        let linkedFolder = directory.appendingPathComponent("linked").path
        try FileManager.default.createSymbolicLink(atPath: linkedFolder, withDestinationPath: library)
        let hardLink = directory.appendingPathComponent("hard.sqlite").path
        try FileManager.default.linkItem(atPath: catalogue, toPath: hardLink)
        for name in [catalogue, library + "/./catalogue.sqlite", linkedFolder + "/catalogue.sqlite", catalogue + "-wal", hardLink] {
            let run = try binary.run(["gallery", "backup", name, "--overwrite", "--library", library])
            XCTAssertEqual(run.status, 73, name)
            XCTAssertTrue(run.errors.hasPrefix("showhide: cannot write the backup "), run.errors)
            XCTAssertTrue(run.errors.hasSuffix(": that is the catalogue itself, which a copy cannot replace while it is open; "
                + "name a file outside the library folder\n"), run.errors)
        }
        let check = try binary.run(["gallery", "check", "--json", "--library", library])
        XCTAssertEqual(check.status, 0, check.errors)
        XCTAssertTrue(check.output.contains(#""photos":40"#) || check.output.contains(#""photos" : 40"#), check.output)
    }
}
