import Foundation
import GRDB
import XCTest
import CatalogueSQLite

/// Two `showhide` processes on one catalogue at once, as when a user starts a second import (or a
/// search) before the first is done: both finish, neither reports a locked database, nothing is
/// catalogued twice. The ordinary test suite races once; `make concurrency-test`
/// (SHOWHIDE_CONCURRENT_ROUNDS=20) many more times, each on a new catalogue.
final class ConcurrencyBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var rounds: Int { Int(ProcessInfo.processInfo.environment["SHOWHIDE_CONCURRENT_ROUNDS"] ?? "") ?? 1 }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-concurrent-\(UUID().uuidString)")
        try LibraryFixture.writePhotos(240, into: directory.appendingPathComponent("photos"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testOverlappingImportsAndSearchesAtOnceAllFinishWithoutDuplicates() throws {
        var searchCount = 0
        for round in 0..<rounds {
            searchCount += try raceTwoImportsAndSearches(library: directory.appendingPathComponent("library\(round)"))
        }
        print("concurrency: \(rounds) \(rounds == 1 ? "round" : "rounds") of two imports at once, \(searchCount) searches during them")
    }

    /// Two overlapping imports into a new catalogue and searches until both end; the number of searches.
    func raceTwoImportsAndSearches(library: URL) throws -> Int {
        let photos = directory.appendingPathComponent("photos")
        // Both start on a catalogue that does not exist yet: creating and migrating it races too.
        let whole = try RunningShowhide(binary, ["gallery", "import", photos.path, "--library", library.path], outputFolder: directory)
        let part = try RunningShowhide(binary, ["gallery", "import", photos.appendingPathComponent("more").path, photos.path,
                                                "--library", library.path, "--jobs", "1"], outputFolder: directory)
        var searches: [ShowhideBinary.Run] = []
        while whole.process.isRunning || part.process.isRunning {
            searches.append(try binary.run(["gallery", "search", "--colour", "red", "--library", library.path, "--json"]))
        }
        // A search before either import has created the catalogue finds none, and says so.
        let beforeCatalogue = searches.prefix { $0.status == 69 }
        for run in beforeCatalogue {
            XCTAssertEqual(run.errors, "showhide: no catalogue in \(library.path); import photos first: showhide gallery import PATH\n")
        }
        searches.removeFirst(beforeCatalogue.count)
        for run in [whole.wait(), part.wait()] + searches {
            XCTAssertEqual(run.status, 0, run.errors)
            XCTAssertFalse(run.errors.lowercased().contains("locked"), run.errors)
            XCTAssertFalse(run.errors.lowercased().contains("busy"), run.errors)
        }
        XCTAssertGreaterThan(searches.count, 0)

        try LibraryFixture.assertSound(library.appendingPathComponent("catalogue.sqlite").path)
        let queue = try DatabaseQueue(path: library.appendingPathComponent("catalogue.sqlite").path)
        try queue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo"), 240, "each photo once")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(DISTINCT sha256) FROM photo"), 240)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM duplicate_path"), 0, "the same path is not a duplicate of itself")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM import_failure"), 0)
        }
        // A third import finds everything in place.
        let again = try binary.run(["gallery", "import", photos.path, "--library", library.path, "--json"])
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertTrue(again.output.contains("\"unchanged\" : 240") || again.output.contains("\"unchanged\":240"), again.output)
        return searches.count
    }
}
