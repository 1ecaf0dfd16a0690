import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

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
        XCTAssertTrue(check.output.hasPrefix("integrity: damaged") || check.output.hasPrefix("integrity: "), check.output)
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
        func run(_ arguments: [String]) throws -> ShowhideBinary.Run { try binary.run(arguments, launcher: launcher) }
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
