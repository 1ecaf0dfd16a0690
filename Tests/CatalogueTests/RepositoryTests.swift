@testable import Catalogue
@testable import CatalogueSQLite
import Foundation
import GRDB
import Imaging
import XCTest

final class RepositoryTests: XCTestCase {
    var catalogue: SQLiteCatalogue!
    let stamp = FileStamp(size: 100, modifiedAtNanoseconds: 1_234_567_890_123)
    let day = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        catalogue = try SQLiteCatalogue.inMemory()
    }

    @discardableResult
    func insert(_ path: String, sha: String, exif: ExifMetadata? = nil, at date: Date? = nil) throws -> PhotoID {
        try catalogue.write { try $0.insertPhoto(path: path, stamp: stamp, facts: .sample(sha: sha, exif: exif), importedAt: date ?? day) }
    }

    let fullExif = ExifMetadata(
        make: "Canon", model: "Canon EOS 40D", lens: "EF-S 18-55",
        takenAt: ExifDateTime(exif: "2008:05:30 15:56:01", subseconds: "25", offset: "+02:00"),
        exposureTime: 1.0 / 160, fNumber: 7.1, iso: 100, focalLength: 135, orientation: .right,
        gps: GPSPosition(latitude: -33.86, longitude: 151.2, altitude: -12.5),
        allTags: ["IFD0.Make": "Canon", "EXIF.ISOSpeedRatings": "100"]
    )

    /// One policy for rows the code cannot read: a corrupt-row error that names the table, never a
    /// silent drop or a guessed value.
    func testEveryUnreadableRowIsACorruptRowError() throws {
        let corruptions = [("exif", "UPDATE exif SET all_tags = 'not json' WHERE photo_id = ?"),
                           ("colour_name_weight", "UPDATE colour_name_weight SET name = 'teal' WHERE photo_id = ?1 AND name = (SELECT min(name) FROM colour_name_weight WHERE photo_id = ?1)"),
                           ("palette_entry", "UPDATE palette_entry SET name = 'teal' WHERE photo_id = ?1 AND rank = 0")]
        for (index, (table, sql)) in corruptions.enumerated() {
            let id = try insert("/p/\(index).jpg", sha: "\(index + 1)", exif: fullExif)
            try catalogue.write { try $0.setColours(.greyWithRed, of: id) }
            XCTAssertNotNil(try catalogue.photo(id: id))
            try catalogue.writer.write { try $0.execute(sql: sql, arguments: [id]) }
            XCTAssertThrowsError(try catalogue.photo(id: id), table) { error in
                guard case .corruptRow(let named, _)? = error as? CatalogueError else { return XCTFail("\(error)") }
                XCTAssertEqual(named, table)
            }
        }
        XCTAssertThrowsError(try catalogue.search(ColourSearch(target: .name(.red))), "a search meets the corrupt palette row") { error in
            guard case .corruptRow(let named, _)? = error as? CatalogueError else { return XCTFail("\(error)") }
            XCTAssertTrue(["palette_entry", "colour_name_weight", "exif"].contains(named), named)
        }
    }

    func testEXIFTagsAreStoredAsSortedJSONThatReadsBackExactly() throws {
        XCTAssertEqual(ExifColumn.json(["b": "2", "a": "1", "A": "0"]), #"{"A":"0","a":"1","b":"2"}"#)
        XCTAssertEqual(ExifColumn.json([:]), "{}")
        let hostile = ["quote\"s": "back\\slash", "ctrl\u{01}\u{1F}\n\t": "é 東京 \u{1F4F7}", "": "</script>", "nul\u{0}": "\u{7F}"]
        let text = ExifColumn.json(hostile)
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: Data(text.utf8)), hostile)
        XCTAssertFalse(text.utf8.contains { $0 < 0x20 }, "control characters are escaped")
        // Through the catalogue and back.
        var exif = fullExif
        exif.allTags = hostile
        let id = try insert("/photos/hostile.jpg", sha: "h", exif: exif)
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.exif?.allTags, hostile)
    }

    func testVariantsAreListedAndForgottenByPathAndTheDatabaseChecksOK() throws {
        let id = try insert("/photos/a.jpg", sha: "a")
        let show = Variant(photoID: id, kind: "show", parameters: "{}", path: "/lib/v/show.jpg", fileSize: 10,
                           pixelSize: PixelSize(width: 4, height: 3), sha256: "s", createdAt: day)
        var hide = show
        hide.kind = "hide"
        hide.path = "/lib/v/hide.jpg"
        // The hide written a moment before the show, and an older parameter set made later than both.
        hide.createdAt = day.addingTimeInterval(-0.01)
        var older = show
        older.parameters = #"{"hue":10}"#
        older.path = "/lib/v/show-10.jpg"
        older.createdAt = day.addingTimeInterval(60)
        XCTAssertNil(try catalogue.recordVariant(older), "nothing replaced")
        try catalogue.recordVariant(show)
        try catalogue.recordVariant(hide)
        var again = hide
        again.sha256 = "again"
        XCTAssertEqual(try catalogue.recordVariant(again), hide, "the row of its photo, kind and parameters, replaced")
        try catalogue.recordVariant(hide)
        XCTAssertEqual(try catalogue.allVariants().map(\.path), ["/lib/v/show.jpg", "/lib/v/hide.jpg", "/lib/v/show-10.jpg"],
                       "each parameter set by when it was made, its show before its hide")
        try catalogue.removeVariant(atPath: "/lib/v/show-10.jpg")
        try catalogue.removeVariant(atPath: "/lib/v/show.jpg")
        XCTAssertEqual(try catalogue.allVariants(), [hide])
        XCTAssertEqual(try catalogue.photo(id: id)?.variants, [hide])
        XCTAssertEqual(try catalogue.integrityCheck(), "ok")
    }

    func testAPhotoAndItsEXIFRoundTrip() throws {
        let id = try insert("/photos/a.jpg", sha: "a", exif: fullExif)
        let photo = try XCTUnwrap(try catalogue.photo(id: id))
        XCTAssertEqual(photo, CataloguedPhoto(id: id, path: "/photos/a.jpg", stamp: stamp,
                                              facts: .sample(sha: "a", exif: fullExif), importedAt: day))
    }

    func testAPhotoWithoutEXIFHasNone() throws {
        let id = try insert("/photos/a.png", sha: "b")
        XCTAssertNil(try catalogue.photo(id: id)?.facts.exif)
        XCTAssertNil(try catalogue.photo(id: id + 1))
    }

    func testLookupsByContentAndPath() throws {
        let id = try insert("/a.jpg", sha: "a")
        try catalogue.write { writer in
            XCTAssertEqual(try writer.photo(withSHA256: String(repeating: "a", count: 64)), PhotoLocation(id: id, path: "/a.jpg"))
            XCTAssertNil(try writer.photo(withSHA256: String(repeating: "f", count: 64)))
            try writer.addDuplicatePath("/copy.jpg", of: id, stamp: stamp, notedAt: day)
            XCTAssertEqual(try writer.photoID(atPath: "/a.jpg"), id)
            XCTAssertEqual(try writer.photoID(atPath: "/copy.jpg"), id)
            XCTAssertNil(try writer.photoID(atPath: "/other.jpg"))
        }
        XCTAssertEqual(try catalogue.content(withSHA256: String(repeating: "a", count: 64)), .photo)
        XCTAssertNil(try catalogue.content(withSHA256: String(repeating: "b", count: 64)))
    }

    func testKnownStampsCoverPhotosAndDuplicates() throws {
        let id = try insert("/a.jpg", sha: "a")
        let other = FileStamp(size: 5, modifiedAtNanoseconds: 6)
        try catalogue.write { try $0.addDuplicatePath("/b.jpg", of: id, stamp: other, notedAt: day) }
        XCTAssertEqual(try catalogue.knownStamps(), ["/a.jpg": stamp, "/b.jpg": other])
        try catalogue.write { try $0.updateStamp(ofPath: "/b.jpg", to: stamp) }
        XCTAssertEqual(try catalogue.knownStamps()["/b.jpg"], stamp)
    }

    func testMovingAPhotoChangesItsPathAndDropsThatPathAsADuplicate() throws {
        let id = try insert("/old.jpg", sha: "a")
        try catalogue.write { writer in
            try writer.addDuplicatePath("/copy.jpg", of: id, stamp: stamp, notedAt: day)
            try writer.movePhoto(id, to: "/copy.jpg", stamp: FileStamp(size: 100, modifiedAtNanoseconds: 1))
        }
        let photo = try XCTUnwrap(try catalogue.photo(id: id))
        XCTAssertEqual(photo.path, "/copy.jpg")
        XCTAssertEqual(photo.duplicatePaths, [])
        XCTAssertEqual(photo.stamp.modifiedAtNanoseconds, 1)
    }

    func testDetachingAPhotosPathHandsItToItsFirstDuplicate() throws {
        let id = try insert("/a.jpg", sha: "a", exif: fullExif)
        try catalogue.write { writer in
            try writer.addDuplicatePath("/b.jpg", of: id, stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1), notedAt: day)
            try writer.addDuplicatePath("/c.jpg", of: id, stamp: stamp, notedAt: day)
            XCTAssertEqual(try writer.detachPath("/a.jpg"), DetachedPath(held: true), "the photo stays, with its variants")
            XCTAssertEqual(try writer.detachPath("/c.jpg"), DetachedPath(held: true), "a duplicate path was the photo's too")
        }
        let photo = try XCTUnwrap(try catalogue.photo(id: id))
        XCTAssertEqual(photo.path, "/b.jpg")
        XCTAssertEqual(photo.stamp, FileStamp(size: 1, modifiedAtNanoseconds: 1))
        XCTAssertEqual(photo.duplicatePaths, [])
        XCTAssertNotNil(photo.facts.exif, "the photo and its EXIF stay")
    }

    func testDetachingTheOnlyPathRemovesThePhotoAndItsEXIFAndSaysWhereItsVariantFilesAreAndWhatItHeld() throws {
        let id = try insert("/a.jpg", sha: "a", exif: fullExif)
        for kind in ["show", "hide"] {
            try catalogue.recordVariant(Variant(photoID: id, kind: kind, parameters: "{}", path: "/l/\(kind).jpg", fileSize: 1,
                                                pixelSize: PixelSize(width: 1, height: 1), sha256: String(repeating: "e", count: 64),
                                                createdAt: day))
        }
        XCTAssertEqual(try catalogue.write { try $0.detachPath("/a.jpg") }, DetachedPath(held: true, forgottenVariants: ["/l/hide.jpg", "/l/show.jpg"],
                                                                                         forgottenContent: String(repeating: "a", count: 64)))
        XCTAssertNil(try catalogue.photo(id: id))
        XCTAssertEqual(try catalogue.allVariants(), [])
        XCTAssertEqual(try catalogue.knownStamps(), [:])
        XCTAssertEqual(try catalogue.write { try $0.detachPath("/never-known.jpg") }, DetachedPath(held: false))
    }

    func testAFailedTransactionWritesNothing() throws {
        struct Stop: Error {}
        XCTAssertThrowsError(try catalogue.write { writer in
            try writer.insertPhoto(path: "/a.jpg", stamp: stamp, facts: .sample(sha: "a"), importedAt: day)
            throw Stop()
        })
        XCTAssertEqual(try catalogue.knownStamps(), [:])
    }

    func testTheSameContentCannotBeInsertedTwice() throws {
        try insert("/a.jpg", sha: "a")
        XCTAssertThrowsError(try insert("/b.jpg", sha: "a"))
    }

    func testFailuresAreRecordedReplacedAndCleared() throws {
        try catalogue.write { writer in
            try writer.recordFailure(ImportFailure(path: "/b.jpg", reason: "first", failedAt: day))
            try writer.recordFailure(ImportFailure(path: "/a.jpg", reason: "broken", failedAt: day))
            try writer.recordFailure(ImportFailure(path: "/b.jpg", reason: "second", failedAt: day))
        }
        XCTAssertEqual(try catalogue.failures(), [
            ImportFailure(path: "/a.jpg", reason: "broken", failedAt: day),
            ImportFailure(path: "/b.jpg", reason: "second", failedAt: day),
        ])
        try catalogue.write { try $0.clearFailure(atPath: "/a.jpg") }
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/b.jpg"])
    }

    // MARK: Listings

    func makeLibrary() throws {
        try insert("/x/zebra.jpg", sha: "1", exif: ExifMetadata(make: "Canon", model: "Canon EOS 40D", takenAt: ExifDateTime(exif: "2008:05:30 15:56:01")), at: day.addingTimeInterval(3))
        try insert("/x/apple.jpg", sha: "2", exif: ExifMetadata(make: "NIKON CORPORATION", model: "NIKON D70", takenAt: ExifDateTime(exif: "2004:01:02 03:04:05")), at: day.addingTimeInterval(1))
        try insert("/y/Mango.png", sha: "3", at: day.addingTimeInterval(2))
        try insert("/y/100%_real.jpg", sha: "4", exif: ExifMetadata(make: "Odd_Make 100%", takenAt: ExifDateTime(exif: "2010:12:31 23:59:59")), at: day)
    }

    func names(_ query: PhotoQuery) throws -> [String] {
        try catalogue.photos(matching: query).map { ($0.path as NSString).lastPathComponent }
    }

    func testListingsSortByTakenDateWithUndatedLast() throws {
        try makeLibrary()
        XCTAssertEqual(try names(PhotoQuery()), ["apple.jpg", "zebra.jpg", "100%_real.jpg", "Mango.png"])
    }

    func testListingsSortByImportTimeAndByName() throws {
        try makeLibrary()
        XCTAssertEqual(try names(PhotoQuery(sort: .imported)), ["100%_real.jpg", "apple.jpg", "Mango.png", "zebra.jpg"])
        XCTAssertEqual(try names(PhotoQuery(sort: .name)), ["100%_real.jpg", "apple.jpg", "Mango.png", "zebra.jpg"])
    }

    func testNewestFirstPutsTheUndatedAfterNewestImportedFirstAndPagesByOffset() throws {
        try makeLibrary()
        try insert("/y/later.png", sha: "5", at: day.addingTimeInterval(9))
        XCTAssertEqual(try names(PhotoQuery(sort: .newest)), ["100%_real.jpg", "zebra.jpg", "apple.jpg", "later.png", "Mango.png"])
        XCTAssertEqual(try names(PhotoQuery(limit: 2, offset: 0, sort: .newest)), ["100%_real.jpg", "zebra.jpg"])
        XCTAssertEqual(try names(PhotoQuery(limit: 2, offset: 2, sort: .newest)), ["apple.jpg", "later.png"])
        XCTAssertEqual(try names(PhotoQuery(limit: 2, offset: 4, sort: .newest)), ["Mango.png"])
        XCTAssertEqual(try names(PhotoQuery(camera: "nikon", limit: 2, offset: 1, sort: .newest)), [])
    }

    func testPagesOfTheNewestAreTheWholeListingCutAndReadAlongTheDateIndex() throws {
        for index in 0..<23 {
            let taken = index % 4 == 0 ? nil : ExifDateTime(exif: String(format: "2020:01:%02d 10:00:00", index % 9 + 1))
            try insert("/\(index % 2 == 0 ? "even" : "odd")/\(index).jpg", sha: String(format: "%04d", index + 100),
                       exif: taken.map { ExifMetadata(make: index % 3 == 0 ? "Canon" : "Nikon", takenAt: $0) }, at: day)
        }
        for query in [PhotoQuery(sort: .newest), PhotoQuery(camera: "canon", sort: .newest), PhotoQuery(paths: ["/even"], sort: .newest)] {
            let whole = try catalogue.photos(matching: query).map(\.id)
            var paged: [PhotoID] = []
            for offset in stride(from: 0, to: whole.count + 5, by: 5) {
                var page = query
                page.limit = 5
                page.offset = offset
                paged += try catalogue.photos(matching: page).map(\.id)
            }
            XCTAssertEqual(paged, whole, "\(query)")
        }
        let plan = try catalogue.writer.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT exif.photo_id FROM exif JOIN photo ON photo.id = exif.photo_id WHERE exif.taken_at IS NOT NULL
                ORDER BY exif.taken_at DESC, exif.photo_id DESC LIMIT 60 OFFSET 6000
                """).map { $0["detail"] as String }
        }
        XCTAssertTrue(plan.contains { $0.contains("exif_taken_at") }, "read along the date index: \(plan)")
        XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "no sort of every photo: \(plan)")
    }

    func testAnOpenedCatalogueSaysWhetherItIsReadOnly() throws {
        XCTAssertFalse(catalogue.isReadOnly)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-readonly-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SQLiteCatalogue(libraryDirectory: folder.path)
        let path = folder.appendingPathComponent(SQLiteCatalogue.fileName).path
        XCTAssertFalse(try SQLiteCatalogue(libraryDirectory: folder.path).isReadOnly)
        XCTAssertTrue(try SQLiteCatalogue(readingOnly: path).isReadOnly, "as a catalogue this user may not write opens")
    }

    func testPhotosWrittenInOneTransactionKeepTheirOwnImportTimes() throws {
        let later = day.addingTimeInterval(90.5)
        let ids = try catalogue.write { writer in
            try [day, later, day].enumerated().map { index, date in
                try writer.insertPhoto(path: "/\(index).jpg", stamp: stamp, facts: .sample(sha: "\(index)"), importedAt: date)
            }
        }
        XCTAssertEqual(try ids.map { try catalogue.photo(id: $0)?.importedAt }, [day, later, day])
    }

    func testFailuresAndDuplicatesWrittenInOneTransactionKeepTheirOwnTimes() throws {
        let later = day.addingTimeInterval(90.5)
        let id = try insert("/original.jpg", sha: "a")
        try catalogue.write { writer in
            try writer.recordFailure(ImportFailure(path: "/broken.jpg", reason: "broken", failedAt: day))
            try writer.addDuplicatePath("/copy1.jpg", of: id, stamp: stamp, notedAt: later)
            try writer.recordFailure(ImportFailure(path: "/empty.jpg", reason: "empty", failedAt: later))
            try writer.addDuplicatePath("/copy2.jpg", of: id, stamp: stamp, notedAt: day)
        }
        XCTAssertEqual(try catalogue.failures().map(\.failedAt), [day, later])
        let noted = try catalogue.writer.read { try Date.fetchAll($0, sql: "SELECT noted_at FROM duplicate_path ORDER BY path") }
        XCTAssertEqual(noted, [later, day])
    }

    func testTheLastDatabaseValueIsAlwaysTheValueAskedFor() {
        let values = LastDatabaseValue<Date>()
        XCTAssertEqual(values.value(for: day), day.databaseValue)
        XCTAssertEqual(values.value(for: day), day.databaseValue)
        XCTAssertEqual(values.value(for: day.addingTimeInterval(1)), day.addingTimeInterval(1).databaseValue)
        XCTAssertNotEqual(values.value(for: day), day.addingTimeInterval(1).databaseValue)
    }

    func testListingsFilterByDayRangeInclusive() throws {
        try makeLibrary()
        XCTAssertEqual(try names(PhotoQuery(takenSince: "2008-05-30")), ["zebra.jpg", "100%_real.jpg"])
        XCTAssertEqual(try names(PhotoQuery(takenUntil: "2008-05-30")), ["apple.jpg", "zebra.jpg"])
        XCTAssertEqual(try names(PhotoQuery(takenSince: "2005-01-01", takenUntil: "2009-01-01")), ["zebra.jpg"])
    }

    func testListingsFilterByCameraTextCaseInsensitivelyAndLiterally() throws {
        try makeLibrary()
        XCTAssertEqual(try names(PhotoQuery(camera: "nikon")), ["apple.jpg"])
        XCTAssertEqual(try names(PhotoQuery(camera: "canon eos")), ["zebra.jpg"])
        XCTAssertEqual(try names(PhotoQuery(camera: "100%")), ["100%_real.jpg"], "% is literal")
        XCTAssertEqual(try names(PhotoQuery(camera: "d_M")), ["100%_real.jpg"], "_ is literal")
        XCTAssertEqual(try names(PhotoQuery(camera: "x_x")), [])
        // Bound as a value, never spliced into the SQL.
        XCTAssertEqual(try names(PhotoQuery(camera: "' OR 1=1 --")), [])
        XCTAssertEqual(try names(PhotoQuery(camera: "x'); DROP TABLE photo; --")), [])
        XCTAssertEqual(try names(PhotoQuery()).count, 4, "the photos are all still there")
    }

    func testListingsAreLimited() throws {
        try makeLibrary()
        XCTAssertEqual(try names(PhotoQuery(limit: 2)), ["apple.jpg", "zebra.jpg"])
        XCTAssertEqual(try names(PhotoQuery(limit: 0)), [])
    }

    func testTakenDatesKeepTheirSubsecondsAndOffsetThroughTheCatalogue() throws {
        let id = try insert("/a.jpg", sha: "a", exif: fullExif)
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.exif?.takenAt?.iso8601, "2008-05-30T15:56:01.25+02:00")
        XCTAssertEqual(ExifDateTime(iso8601: "2013-07-05T03:18:27Z")?.offset, "Z")
        XCTAssertNil(ExifDateTime(iso8601: "2013"))
    }

    /// A scope takes a folder's photos at any depth and a file by its path, and no photo of a folder
    /// whose name only begins the same way; it reads the path's own index, not every row.
    func testAScopeTakesAFoldersPhotosAtAnyDepthAndFilesByTheirPath() throws {
        let paths = ["/a/x.jpg", "/a/sub/w.jpg", "/a b/y.jpg", "/a0/z.jpg", "/ab/q.jpg", "/a.jpg", "/b/c.jpg", "/b/d.jpg"]
        for (index, path) in paths.enumerated() { try insert(path, sha: "\(index + 1)") }
        func scoped(_ scope: [String]) throws -> [String] {
            try catalogue.photos(matching: PhotoQuery(paths: scope, sort: .name)).map(\.path).sorted()
        }
        XCTAssertEqual(try scoped(["/a"]), ["/a/sub/w.jpg", "/a/x.jpg"])
        XCTAssertEqual(try scoped(["/a/"]), ["/a/sub/w.jpg", "/a/x.jpg"], "a trailing slash says the same")
        XCTAssertEqual(try scoped(["/b/d.jpg"]), ["/b/d.jpg"])
        XCTAssertEqual(try scoped(["/a/sub", "/b/c.jpg", "/nowhere"]), ["/a/sub/w.jpg", "/b/c.jpg"])
        XCTAssertEqual(try scoped(["/"]).count, paths.count, "the root holds every photo")
        XCTAssertEqual(try scoped(["/a", "/a/sub"]), ["/a/sub/w.jpg", "/a/x.jpg"], "overlapping scopes give each photo once")
        // The scope with the other filters and a limit.
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/a", "/b"], limit: 3, sort: .name)).count, 3)

        let filter = PhotoRepository.filter(PhotoQuery(paths: ["/a", "/b"]))
        let plan = try catalogue.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT photo.id FROM photo LEFT JOIN exif ON exif.photo_id = photo.id WHERE "
                             + filter.conditions.joined(separator: " AND "), arguments: filter.arguments).map { $0["detail"] as String }
        }
        XCTAssertTrue(plan.contains { $0.contains("SEARCH photo USING") && $0.contains("sqlite_autoindex_photo_1 (path") },
                      "the scope searches the path index: \(plan)")
        XCTAssertTrue(plan.contains { $0.contains("SEARCH duplicate_path USING") && $0.contains("(path") },
                      "and the duplicate paths' index: \(plan)")
        XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN") }, "no scan of every photo: \(plan)")
    }

    func testAPhotoIsInAScopeByItsDuplicatePathsToo() throws {
        let id = try insert("/backup/a.jpg", sha: "1")
        try insert("/elsewhere/b.jpg", sha: "2")
        try catalogue.write { try $0.addDuplicatePath("/trip/a.jpg", of: id, stamp: stamp, notedAt: day) }
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/trip"])).map(\.id), [id], "the trip imported after its backup")
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/trip", "/backup"])).map(\.id), [id], "once")
    }

    func testOnlyPhotosNeedingAnalysisWhenAsked() throws {
        try insert("/n/analysed.jpg", sha: "1")
        let never = try catalogue.write {
            try $0.insertPhoto(path: "/n/never.jpg", stamp: stamp, facts: .sample(sha: "2", colours: nil), importedAt: day)
        }
        try catalogue.write { try $0.insertPhoto(path: "/elsewhere.jpg", stamp: stamp, facts: .sample(sha: "3", colours: nil), importedAt: day) }
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/n"], needingAnalysis: true)).map(\.id), [never])
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery(paths: ["/n"])).count, 2)
    }
}

final class SQLChunkTests: XCTestCase {
    func testInListsHoldAtMost500ValuesAndEveryValueOnce() {
        let ids = Array(1...1201)
        let chunks = ids.inChunksForSQL()
        XCTAssertEqual(chunks.map(\.count), [500, 500, 201])
        XCTAssertEqual(chunks.flatMap { $0 }, ids)
        XCTAssertEqual([Int]().inChunksForSQL().count, 0)
    }
}
