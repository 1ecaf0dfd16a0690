@testable import CatalogueSQLite
import Catalogue
import Foundation
import XCTest

final class ThumbnailCacheTests: XCTestCase {
    var folder: URL!
    let red = String(repeating: "a", count: 64), blue = String(repeating: "b", count: 64)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-thumbnails-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    var cacheFile: String { folder.appendingPathComponent(SQLiteThumbnailCache.fileName).path }

    func testThumbnailsAreKeptByContentInOneFileBesideTheCatalogue() throws {
        let cache = SQLiteThumbnailCache(libraryDirectory: folder.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFile), "nothing is made before it is used")
        XCTAssertNil(try cache.jpeg(forSHA256: red))
        XCTAssertEqual(try cache.keptSHA256s(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFile), "nor to be read: an absent cache holds nothing (gallery check changes nothing)")
        try cache.keep([red: Data("red jpeg".utf8), blue: Data("blue jpeg".utf8)])
        try cache.keep([red: Data("another".utf8)])
        XCTAssertEqual(cache.path, cacheFile)

        let reopened = SQLiteThumbnailCache(libraryDirectory: folder.path)
        XCTAssertEqual(try reopened.jpeg(forSHA256: red), Data("red jpeg".utf8), "one kept is kept as it is")
        XCTAssertEqual(try reopened.keptSHA256s(), [red, blue])
        try reopened.forget([red])
        XCTAssertEqual(try SQLiteThumbnailCache(libraryDirectory: folder.path).keptSHA256s(), [blue])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(SQLiteThumbnailCache.fileName) }, [],
                       "no file a thumbnail")
    }

    func testALibraryThisProcessMayNotWriteIsReadAndNothingIsKept() throws {
        try SQLiteThumbnailCache(libraryDirectory: folder.path).keep([red: Data("red jpeg".utf8)])
        let readOnly = SQLiteThumbnailCache(libraryDirectory: folder.path, writable: false)
        XCTAssertEqual(try readOnly.jpeg(forSHA256: red), Data("red jpeg".utf8))
        try readOnly.keep([blue: Data("blue jpeg".utf8)])
        XCTAssertEqual(try readOnly.keptSHA256s(), [red])

        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = SQLiteThumbnailCache(libraryDirectory: empty.path, writable: false)
        XCTAssertNil(try none.jpeg(forSHA256: red))
        XCTAssertEqual(try none.keptSHA256s(), [])
        try none.keep([red: Data("red jpeg".utf8)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.appendingPathComponent(SQLiteThumbnailCache.fileName).path))
    }

    func testADamagedCacheSaysWhichFile() throws {
        try Data("not a database, but long enough to be read as a header: ".utf8 + Data(repeating: 7, count: 200)).write(to: URL(fileURLWithPath: cacheFile))
        let cache = SQLiteThumbnailCache(libraryDirectory: folder.path)
        XCTAssertThrowsError(try cache.keptSHA256s()) { error in
            XCTAssertEqual(error as? CatalogueError, .damaged(path: cacheFile))
        }
        try cache.reset()
        XCTAssertEqual(try cache.keptSHA256s(), [], "made anew")
        try cache.keep([red: Data("red jpeg".utf8)])
        XCTAssertEqual(try SQLiteThumbnailCache(libraryDirectory: folder.path).jpeg(forSHA256: red), Data("red jpeg".utf8))
    }
}
