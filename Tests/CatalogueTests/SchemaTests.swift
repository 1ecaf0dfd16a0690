@testable import Catalogue
@testable import CatalogueSQLite
import ColourScience
import GRDB
import Foundation
import Imaging
import XCTest

final class SchemaTests: XCTestCase {
    func testMigratingAnEmptyDatabaseGivesExactlyTheExpectedSchema() throws {
        let schema = try SQLiteCatalogue.inMemory().schema()
        XCTAssertEqual(schema.tables, [
            "photo": ["id", "path", "sha256", "file_size", "modified_at_ns", "format", "width", "height", "imported_at"],
            "duplicate_path": ["id", "photo_id", "path", "file_size", "modified_at_ns", "noted_at"],
            "exif": ["photo_id", "make", "model", "lens", "taken_at", "exposure_time", "f_number", "iso", "focal_length",
                     "orientation", "gps_latitude", "gps_longitude", "gps_altitude", "all_tags"],
            "palette_entry": ["photo_id", "rank", "lab_l", "lab_a", "lab_b", "hex", "weight", "name"],
            "variant": ["id", "photo_id", "kind", "parameters", "path", "file_size", "width", "height", "sha256", "created_at"],
            "import_failure": ["path", "reason", "failed_at", "file_size", "modified_at_ns"],
            "left_out_file": ["path", "file_size", "modified_at_ns"],
            "photo_colour": ["photo_id", "dominant_hex", "dominant_name", "accent_l", "accent_a", "accent_b", "accent_hex",
                             "accent_hue", "accent_coverage", "accent_name", "analysis_version", "hue_families", "scene"],
            "accent_candidate": ["photo_id", "rank", "lab_l", "lab_a", "lab_b", "hex", "hue", "coverage", "name", "saliency",
                                 "contrast", "regions", "compactness", "texture"],
            "colour_name_weight": ["photo_id", "name", "weight"],
            "palette_cell": ["cell", "weight", "photo_id", "rank", "lab_l", "lab_a", "lab_b"],
            "accent_cell": ["cell", "coverage", "photo_id", "lab_l", "lab_a", "lab_b"],
            "photo_xmp": ["photo_id", "packet"],
            "photo_subject": ["photo_id", "lab_l", "lab_a", "lab_b", "hue", "coverage", "name", "chosen_at"],
        ])
        XCTAssertEqual(schema.indexes, ["duplicate_path_photo": "duplicate_path", "exif_taken_at": "exif",
                                        "photo_colour_accent": "photo_colour", "colour_name_weight_rank": "colour_name_weight",
                                        "variant_sha256": "variant"])
        XCTAssertEqual(schema.triggers, ["accent_gridded", "accent_regridded", "accent_ungridded",
                                         "palette_entry_gridded", "palette_entry_regridded", "palette_entry_ungridded"])
    }

    func testANewCatalogueIsMadeFromTheSquashedSchemaExactlyAsTheMigrationsWouldMakeIt() throws {
        func objects(_ db: Database) throws -> [[String?]] {
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name").map { row in
                [row[0], row[1], row[2], row[3]]
            }
        }
        let stepByStep = try DatabaseQueue()
        try Schema.migrator().migrate(stepByStep)
        let expected = try stepByStep.read(objects), expectedApplied = try stepByStep.read(Schema.migrator().appliedIdentifiers)
        XCTAssertGreaterThan(expected.count, 20)

        // Made in one commit: from the squashed schema, not migration by migration.
        let opened = try DatabaseQueue()
        let counting = MigrationRecordings(allowing: nil)
        opened.add(transactionObserver: counting)
        _ = try SQLiteCatalogue(writer: opened, path: ":memory:")
        XCTAssertEqual(counting.commits, 1, "made from the squashed schema, not migration by migration")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-lib-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for catalogue in [try SQLiteCatalogue.inMemory(), try SQLiteCatalogue(libraryDirectory: directory.path)] {
            XCTAssertEqual(try catalogue.writer.read(objects), expected, catalogue.path)
            XCTAssertEqual(try catalogue.writer.read(Schema.migrator().appliedIdentifiers), expectedApplied, catalogue.path)
            XCTAssertEqual(try catalogue.writer.read(Schema.migrator().hasCompletedMigrations), true)
        }
        // Squashed at build time: the tables as they end up, none of the history's rebuilds.
        let schema = EmbeddedMigrations.catalogueSchema
        XCTAssertFalse(schema.contains("ALTER TABLE") || schema.contains("DROP ") || schema.contains("photo_with_heif"), schema)
        XCTAssertTrue(EmbeddedMigrations.all.contains { $0.sql.contains("ALTER TABLE") })
    }

    func testACatalogueWhoseMakingIsStoppedIsLeftEmptyOrWholeAndOpensWholeNextTime() throws {
        // One transaction makes a new catalogue and records its migrations: stopped at its one commit it
        // is left empty, allowed that commit it is whole.
        for allowed in [0, 1] {
            let queue = try DatabaseQueue()
            let stop = MigrationRecordings(allowing: allowed)
            queue.add(transactionObserver: stop)
            _ = try? Schema.newCatalogueMigrator().migrate(queue)
            let holdsNoTable = try queue.read(Schema.holdsNoTable)
            let applied = try queue.read(Schema.migrator().appliedIdentifiers)
            XCTAssertEqual(applied.isEmpty, allowed == 0, "stopped after \(allowed) commits")
            if applied.isEmpty {
                XCTAssertTrue(holdsNoTable, "stopped after \(allowed): no table of the schema is left")
            } else {
                XCTAssertEqual(applied, Set(EmbeddedMigrations.all.map(\.identifier)), "stopped after \(allowed): all or nothing")
            }
            queue.remove(transactionObserver: stop)
            let catalogue = try SQLiteCatalogue(writer: queue, path: ":memory:")
            XCTAssertTrue(try catalogue.writer.read(Schema.migrator().hasCompletedMigrations))
            XCTAssertEqual(try catalogue.integrityCheck(), "ok")
        }
    }

    func testOnlyAMigrationThatMakesATableAnewChecksEveryForeignKeyAtItsEnd() {
        let checks = EmbeddedMigrations.all.map { "\($0.identifier.prefix(4)) \(Schema.foreignKeyChecks(of: $0) == .immediate ? "immediate" : "deferred")" }
        XCTAssertEqual(checks.prefix(12), ["0001 deferred", "0002 deferred", "0003 deferred", "0004 deferred", "0005 deferred", "0006 deferred",
                                           "0007 deferred", "0008 deferred", "0009 deferred", "0010 deferred", "0011 immediate", "0012 immediate"],
                       "as they landed, then an index without reading every row of a large catalogue")
        for drop in ["DROP TABLE t;", "drop  table t;", "Drop\n    Table t;"] {
            XCTAssertEqual(Schema.foreignKeyChecks(of: ("0012_x", "CREATE TABLE t2 (a); \(drop) ALTER TABLE t2 RENAME TO t;")), .deferred, drop)
        }
        XCTAssertEqual(Schema.foreignKeyChecks(of: ("0012_x", "CREATE INDEX dropped_tables ON t(a);")), .immediate)
    }

    func testTheMigrationsAreEmbeddedInOrder() {
        let identifiers = EmbeddedMigrations.all.map(\.identifier)
        XCTAssertEqual(Array(identifiers.prefix(3)), ["0001_catalogue", "0002_colours", "0003_colour_grid"])
        XCTAssertEqual(identifiers, identifiers.sorted())
        XCTAssertTrue(EmbeddedMigrations.all[0].sql.contains("CREATE TABLE photo"))
    }

    func testAnOnDiskCatalogueIsCreatedOnFirstUseInWALModeAndKeepsItsData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-lib-\(UUID().uuidString)/nested")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }

        let first = try SQLiteCatalogue(libraryDirectory: directory.path)
        XCTAssertEqual(try first.journalMode(), "wal")
        XCTAssertEqual(try first.writer.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }, 1, "NORMAL: no sync at each commit")
        try first.write { writer in
            try writer.insertPhoto(path: "/p.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 2),
                                   facts: .sample(sha: "a"), importedAt: Date(timeIntervalSince1970: 0))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("catalogue.sqlite").path))

        let reopened = try SQLiteCatalogue(libraryDirectory: directory.path)
        XCTAssertEqual(try reopened.knownStamps(), ["/p.jpg": FileStamp(size: 1, modifiedAtNanoseconds: 2)])
        XCTAssertEqual(try reopened.integrityCheck(), "ok")
    }

    /// Rows for every table of the first schema, as showhide 0001 wrote them.
    static let rowsOf0001 = """
        INSERT INTO photo (id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at) VALUES
            (1, '/p/bus.jpg', printf('%064d', 1), 1000, 1700000000000000001, 'jpeg', 4000, 3000, '2024-01-01 00:00:00.000'),
            (2, '/p/é "quoted".png', printf('%064d', 2), 20, 1700000000000000002, 'png', 3, 2, '2024-01-02 00:00:00.000');
        INSERT INTO duplicate_path (photo_id, path, file_size, modified_at_ns, noted_at) VALUES
            (1, '/p/copy of bus.jpg', 1000, 3, '2024-01-03 00:00:00.000');
        INSERT INTO exif (photo_id, make, model, lens, taken_at, exposure_time, f_number, iso, focal_length, orientation,
                          gps_latitude, gps_longitude, gps_altitude, all_tags) VALUES
            (1, 'Canon', 'Canon EOS 40D', 'EF-S 18-55', '2008-05-30T15:56:01+02:00', 0.00625, 7.1, 100, 135, 6,
             -33.86, 151.2, -12.5, '{"IFD0.Make":"Canon"}');
        INSERT INTO palette_entry VALUES (1, 0, 39.4, 8.0, -48.0, '#1F5AA6', 0.7, 'blue'), (1, 1, 95, 0, 0, '#F0F0F0', 0.3, 'white'),
                                         (2, 0, 50, 0, 0, '#777777', 1, 'grey');
        INSERT INTO variant (photo_id, kind, parameters, path, file_size, width, height, sha256, created_at) VALUES
            (1, 'show', '{"hue":279.5}', '/lib/variants/show.jpg', 500, 4000, 3000, printf('%064d', 3), '2024-01-04 00:00:00.000');
        INSERT INTO import_failure (path, reason, failed_at) VALUES ('/p/cut.jpg', 'the file ends too early', '2024-01-05 00:00:00.000');
        """

    /// Every row of every table (but GRDB's own), columns by name.
    func snapshot(_ db: Database) throws -> [String: [[String: DatabaseValue]]] {
        var tables: [String: [[String: DatabaseValue]]] = [:]
        for table in try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%_index_%'
            """) {
            tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2").map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
            }
        }
        return tables
    }

    func testCataloguesOfEveryEarlierSchemaOpenAndMigrateWithoutLosingARow() throws {
        let identifiers = EmbeddedMigrations.all.map(\.identifier)
        for version in identifiers.dropLast() {
            // The fixture: a catalogue on disk made by the migration code itself, stopped at `version`.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-upgrade-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent(SQLiteCatalogue.fileName).path
            let before: [String: [[String: DatabaseValue]]]
            do {
                let pool = try DatabasePool(path: path, configuration: SQLiteCatalogue.configuration())
                try Schema.migrator().migrate(pool, upTo: version)
                try pool.write { db in
                    try db.execute(sql: Self.rowsOf0001)
                    if try db.tableExists("photo_colour") {
                        try db.execute(sql: """
                            INSERT INTO photo_colour (photo_id, dominant_hex, dominant_name, accent_l, accent_a, accent_b, accent_hex,
                                                      accent_hue, accent_coverage, accent_name)
                            VALUES (1, '#1F5AA6', 'blue', 39.4, 8.0, -48.0, '#1F5AA6', 279.5, 0.7, 'blue'),
                                   (2, '#777777', 'grey', NULL, NULL, NULL, NULL, NULL, NULL, NULL);
                            INSERT INTO colour_name_weight VALUES (1, 'blue', 0.7), (1, 'white', 0.3), (2, 'grey', 1);
                            """)
                    }
                }
                before = try pool.read(snapshot)
            }

            let catalogue = try SQLiteCatalogue(libraryDirectory: folder.path)

            let after = try catalogue.writer.read(snapshot)
            for (table, rows) in before {
                let kept = try XCTUnwrap(after[table], "\(version): \(table) is gone")
                XCTAssertEqual(kept.map { $0.filter { rows.first?[$0.key] != nil } }, rows, "\(version): \(table)")
            }
            XCTAssertEqual(try catalogue.writer.read { try Schema.migrator().appliedIdentifiers($0) }.sorted(), identifiers.sorted())
            XCTAssertEqual(try catalogue.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }, ["ok"])
            // Through the catalogue's own reading, as a command would see it.
            let bus = try XCTUnwrap(try catalogue.photo(id: 1), version)
            XCTAssertEqual(bus.facts.exif?.model, "Canon EOS 40D")
            // Colours found by earlier rules read as an ordinary scene, and are due to be found again by the
            // rules of this version (the next import or `gallery analyse` does).
            if version != "0001_catalogue" { XCTAssertEqual(bus.facts.colours?.scene, .ordinary, version) }
            XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [1, 2], version)
            XCTAssertEqual(bus.facts.exif?.orientation, .right)
            XCTAssertEqual(bus.variants.map(\.path), ["/lib/variants/show.jpg"])
            XCTAssertEqual(try catalogue.content(withSHA256: String(format: "%064d", 3)), .variant, "\(version): a variant's content is found (0011)")
            XCTAssertNotEqual(try catalogue.content(withSHA256: String(format: "%064d", 1)), .variant, "\(version): a photo's is not a variant's")
            try catalogue.write { try $0.recordLeftOut(path: "/p/renamed-show.jpg", stamp: FileStamp(size: 3, modifiedAtNanoseconds: 4)) }
            XCTAssertEqual(try catalogue.leftOutStamps(), ["/p/renamed-show.jpg": FileStamp(size: 3, modifiedAtNanoseconds: 4)], "\(version) (0012)")
            XCTAssertEqual(try catalogue.photo(id: 2)?.path, "/p/é \"quoted\".png")
            XCTAssertEqual(try catalogue.failures().map(\.path), ["/p/cut.jpg"])
            let blue = try catalogue.search(ColourSearch(target: .colour(Lab(l: 39.4, a: 8.0, b: -48.0))))
            XCTAssertEqual(blue.map(\.photo.id), [1], "\(version): the colour index is rebuilt from the rows")
            // The photo table made anew for HEIF (0005), WebP and TIFF (0006) takes such photos, and its
            // rows' EXIF, colours and variants still go with them.
            try catalogue.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO photo (path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
                    VALUES ('/p/phone.heic', printf('%064d', 9), 1, 1, 'heif', 3024, 4032, '2024-01-06 00:00:00.000'),
                           ('/p/sticker.webp', printf('%064d', 10), 1, 1, 'webp', 512, 512, '2024-01-06 00:00:00.000'),
                           ('/p/scan.tif', printf('%064d', 11), 1, 1, 'tiff', 2400, 3000, '2024-01-06 00:00:00.000')
                    """)
                try db.execute(sql: "INSERT INTO photo_xmp (photo_id, packet) VALUES (1, '<x:xmpmeta/>')")
                try db.execute(sql: """
                    INSERT INTO photo_subject (photo_id, lab_l, lab_a, lab_b, hue, coverage, name, chosen_at)
                    VALUES (1, 39.4, 8.0, -48.0, 279.5, 0.7, 'blue', '2024-01-06 00:00:00.000')
                    """)
                try db.execute(sql: "DELETE FROM photo WHERE id = 1")
                for table in ["exif", "variant", "duplicate_path", "palette_entry", "photo_xmp", "photo_subject"] {
                    XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE photo_id = 1"), 0, "\(version): \(table)")
                }
            }
            XCTAssertEqual(try [3, 4, 5].map { try catalogue.photo(id: $0)?.facts.format }, [.heif, .webp, .tiff], version)
            // The largest id removed is not given out again (0010), in a catalogue of any earlier schema.
            let next = try catalogue.writer.write { db -> Int64 in
                try db.execute(sql: "DELETE FROM photo WHERE id = 5")
                try db.execute(sql: """
                    INSERT INTO photo (path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
                    VALUES ('/p/next.jpg', printf('%064d', 12), 1, 1, 'jpeg', 1, 1, '2024-01-07 00:00:00.000')
                    """)
                return db.lastInsertedRowID
            }
            XCTAssertEqual(next, 6, version)
        }
    }

    func testALibraryThatCannotBeCreatedIsAClearError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: file.appendingPathComponent("lib").path)) { error in
            guard case .cannotCreateDirectory(let path, _)? = error as? CatalogueError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, file.appendingPathComponent("lib").path)
            XCTAssertTrue((error as? LocalizedError)?.errorDescription?.hasPrefix("cannot create the library folder") == true)
        }
    }

    func testAFileThatIsNotADatabaseIsAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(repeating: 0x41, count: 4096).write(to: directory.appendingPathComponent("catalogue.sqlite"))
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path)) { error in
            let description = (error as? LocalizedError)?.errorDescription ?? ""
            XCTAssertTrue(description.contains("catalogue.sqlite"), description)
            XCTAssertEqual(error as? CatalogueError, .damaged(path: directory.appendingPathComponent("catalogue.sqlite").path))
            XCTAssertTrue(description.contains("is damaged; restore it from a backup"), description)
        }
    }

    func testAnEmptyCatalogueFileIsALostCatalogueLeftAsItIs() throws {
        // Truncated to nothing beside the library's variants: made a new catalogue, the variants would belong
        // to nothing, for a repair to delete. Every command, import too, says it is damaged and writes nothing.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("variants/ab"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("catalogue.sqlite")
        try Data().write(to: file)
        for opening in [CatalogueOpening.existingOnly, .creatingWhenMissing] {
            XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path, opening: opening)) { error in
                XCTAssertEqual(error as? CatalogueError, .damaged(path: file.path))
            }
            XCTAssertEqual(try Data(contentsOf: file).count, 0)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + "-wal"))
        }
    }

    func testACatalogueThatCannotBeLookedForIsSaidSoNotTakenForNone() throws {
        // A library folder this user may not enter said "no catalogue …; import photos first". Root enters any,
        // so the test asks by a name the system will not look up (longer than a name may be): the same path.
        let library = FileManager.default.temporaryDirectory.appendingPathComponent(String(repeating: "l", count: 300)).path
        for opening in [CatalogueOpening.existingOnly, .creatingWhenMissing] {
            XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: library, opening: opening)) { error in
                XCTAssertEqual(error as? CatalogueError, .cannotOpen(path: library + "/catalogue.sqlite", reason: "file name too long"))
            }
        }
    }

    func testAnEmptyCatalogueFileAloneIsAFirstImportStoppedEarly() throws {
        // Killed between creating the file and writing to it: import carries on; other commands find none.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("catalogue.sqlite"))
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path, opening: .existingOnly)) { error in
            XCTAssertEqual(error as? CatalogueError, .noCatalogue(directory: directory.path))
        }
        let created = try SQLiteCatalogue(libraryDirectory: directory.path, opening: .creatingWhenMissing)
        XCTAssertEqual(try created.photos(matching: PhotoQuery()).count, 0)
    }

    func testADatabaseWithNoTableIsACatalogueOnlyForTheCommandThatCreatesOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-blank-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("catalogue.sqlite")
        try DatabaseQueue(path: file.path).write { db in try db.execute(sql: "PRAGMA user_version = 0; CREATE TABLE t(x); DROP TABLE t") }
        // Alone: a first import's, an instant before it makes its tables (a search started beside it): none yet.
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path, opening: .existingOnly)) { error in
            XCTAssertEqual(error as? CatalogueError, .noCatalogue(directory: directory.path))
        }
        // Beside the library's thumbnails: a catalogue lost, left as it is.
        try Data("x".utf8).write(to: URL(fileURLWithPath: LibraryFolder.path(LibraryFolder.thumbnails, inLibrary: directory.path)))
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path, opening: .existingOnly)) { error in
            XCTAssertEqual(error as? CatalogueError, .damaged(path: file.path))
        }
        let created = try SQLiteCatalogue(libraryDirectory: directory.path, opening: .creatingWhenMissing)
        XCTAssertEqual(try created.photos(matching: PhotoQuery()).count, 0)
    }

    func testWhatAKilledBackupLeftIsTakenAwayByTheNextOnceItIsOld() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-backups-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = "copy.sqlite.\(UUID().uuidString).partial", recent = "copy.sqlite.\(UUID().uuidString).partial"
        let names = [old, old + "-journal", recent, "copy.sqlite.notes", "other.sqlite.\(UUID().uuidString).partial"]
        for name in names { FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)) }
        let now = Date()
        for name in names where name != recent {
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-3_600)], ofItemAtPath: folder + "/" + name)
        }

        SQLiteCatalogue.removeAbandonedBackups(of: folder + "/copy.sqlite", now: now)

        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder)), Set(names.dropFirst(2)),
                       "one being written, a file of the user's and another backup's are left")
    }

    func testSQLiteResultCodesBecomeErrorsThatSayWhatToDo() {
        func mapped(_ code: ResultCode) -> CatalogueError {
            CatalogueError(DatabaseError(resultCode: code, message: "SQL text", sql: "SELECT secret"), path: "/l/c.sqlite")
        }
        XCTAssertEqual(mapped(.SQLITE_CORRUPT), .damaged(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_NOTADB), .damaged(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_READONLY), .readOnly(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_BUSY), .busy(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_FULL), .diskFull(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_IOERR), .inputOutput(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_CANTOPEN), .cannotOpen(path: "/l/c.sqlite", reason: "permission denied or the file cannot be opened"))
        XCTAssertEqual(mapped(.SQLITE_MISMATCH), .failed(path: "/l/c.sqlite", code: 20))
        XCTAssertEqual(mapped(.SQLITE_CONSTRAINT_FOREIGNKEY), .conflict(path: "/l/c.sqlite"), "another showhide changed it meanwhile")
        XCTAssertEqual(mapped(.SQLITE_CONSTRAINT_UNIQUE), .conflict(path: "/l/c.sqlite"))
        XCTAssertEqual(mapped(.SQLITE_CONSTRAINT_NOTNULL), .failed(path: "/l/c.sqlite", code: 19), "a fault of showhide's own, not a race")
        // /proc's file system has no free block, as a full disk has none.
        XCTAssertEqual(CatalogueError(DatabaseError(resultCode: .SQLITE_IOERR), path: "/proc/c.sqlite"), .diskFull(path: "/proc/c.sqlite"),
                       "SQLite's I/O error on a full disk is said as a full disk")
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("c.sqlite").path
        XCTAssertEqual(CatalogueError(DatabaseError(resultCode: .SQLITE_IOERR), path: temporary), .inputOutput(path: temporary))
        XCTAssertEqual(CatalogueError(CocoaError(.fileNoSuchFile), path: "/l/c.sqlite"),
                       .cannotOpen(path: "/l/c.sqlite", reason: "no such file or directory"))
        for code in [ResultCode.SQLITE_CORRUPT, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_MISMATCH, .SQLITE_CONSTRAINT_UNIQUE] {
            let text = mapped(code).errorDescription ?? ""
            XCTAssertTrue(text.contains("/l/c.sqlite"), text)
            XCTAssertFalse(text.contains("SQL text") || text.contains("SELECT"), text)
        }
    }

    /// Another process reading the new catalogue as it is made can make opening fail for a moment
    /// (busy, or its `-wal` file gone between GRDB's two looks at it): opened again after a pause.
    /// What is really wrong fails at once.
    func testANewCatalogueIsOpenedAgainWhenAnotherProcessGotInTheWay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(SQLiteCatalogue.fileName).path
        let vanishedWAL = CocoaError(.fileReadNoSuchFile, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))])
        var failures: [any Error] = [DatabaseError(resultCode: .SQLITE_BUSY), vanishedWAL]
        var pauses = 0
        let catalogue = try SQLiteCatalogue(creatingIn: directory.path, path: path, openPool: { path in
            if !failures.isEmpty { throw failures.removeFirst() }
            return try DatabasePool(path: path, configuration: SQLiteCatalogue.configuration())
        }, pause: { pauses += 1 })
        XCTAssertEqual(pauses, 2)
        XCTAssertEqual(try catalogue.failures().count, 0, "opened and migrated")

        for wrong in [DatabaseError(resultCode: .SQLITE_CORRUPT), CocoaError(.fileReadNoPermission)] as [any Error] {
            var tries = 0
            XCTAssertThrowsError(try SQLiteCatalogue(creatingIn: directory.path, path: path, openPool: { _ in tries += 1; throw wrong },
                                                     pause: { XCTFail("no pause for \(wrong)") }))
            XCTAssertEqual(tries, 1)
        }
        // Failing at once, it is tried again 0.1 s apart for as long as the busy timeout, then said busy.
        var now = 0.0, tries = 0
        XCTAssertThrowsError(try SQLiteCatalogue(creatingIn: directory.path, path: path, openPool: { _ in
            tries += 1
            throw DatabaseError(resultCode: .SQLITE_BUSY)
        }, pause: { now += 0.1 }, seconds: { now })) { error in
            XCTAssertEqual(error as? CatalogueError, .busy(path: path))
        }
        XCTAssertEqual(Double(tries), SQLiteCatalogue.busyTimeout / 0.1, accuracy: 2)
        // Busy after waiting the busy timeout out (another process holds the catalogue in a transaction):
        // said at once, not waited for again and again.
        now = 0
        tries = 0
        XCTAssertThrowsError(try SQLiteCatalogue(creatingIn: directory.path, path: path, openPool: { _ in
            tries += 1
            now += SQLiteCatalogue.busyTimeout
            throw DatabaseError(resultCode: .SQLITE_BUSY)
        }, pause: { XCTFail("no pause after a busy timeout") }, seconds: { now })) { error in
            XCTAssertEqual(error as? CatalogueError, .busy(path: path))
        }
        XCTAssertEqual(tries, 1)
        XCTAssertTrue(SQLiteCatalogue.isPassing(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))))
        XCTAssertFalse(SQLiteCatalogue.isPassing(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))))
    }

    func testReadingCommandsFindNoCatalogueAndCreateNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-none-\(UUID().uuidString)")
        XCTAssertThrowsError(try SQLiteCatalogue(libraryDirectory: directory.path, opening: .existingOnly)) { error in
            XCTAssertEqual(error as? CatalogueError, .noCatalogue(directory: directory.path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
    }

    func testErrorDescriptionsNameWhatFailed() {
        XCTAssertEqual(CatalogueError.cannotOpen(path: "/x", reason: "r").errorDescription, "cannot open the catalogue /x: r")
        XCTAssertEqual(CatalogueError.migrationFailed(path: "/x", reason: "r").errorDescription, "cannot bring the catalogue /x up to date: r")
        XCTAssertEqual(CatalogueError.corruptRow(table: "photo", reason: "r").errorDescription,
                       "the catalogue holds an unreadable photo row: r; run showhide gallery check")
    }

    func testAnIntegrityCheckIsSaidInOneLineHoweverSQLiteGroupsItsProblems() {
        XCTAssertEqual(SQLiteCatalogue.summary(ofIntegrityCheck: ["ok"]), "ok")
        // As SQLite 3 reported a page whose cells point outside it: two problems in one row, under a heading.
        XCTAssertEqual(SQLiteCatalogue.summary(ofIntegrityCheck: [
            "*** in database main ***\nOn tree page 30 cell 1: Offset 43947 out of range 152..4092\nOn tree page 30 cell 0: Offset 43947 out of range 152..4092",
            "row 3 missing from index photo_path",
        ]), "3 problems, the first: On tree page 30 cell 1: Offset 43947 out of range 152..4092")
        XCTAssertEqual(SQLiteCatalogue.summary(ofIntegrityCheck: ["row 3 missing from index photo_path"]), "row 3 missing from index photo_path")
        XCTAssertEqual(SQLiteCatalogue.summary(ofIntegrityCheck: ["*** in database main ***\n"]), "damaged (SQLite's integrity check names no page)")
    }
}

extension PhotoFacts {
    /// Facts of an analysed photo: grey with a small red accent unless told otherwise.
    static func sample(sha: String, width: Int = 40, height: Int = 30, exif: ExifMetadata? = nil,
                       colours: ColourAnalysis? = .greyWithRed) -> PhotoFacts {
        PhotoFacts(sha256: String(repeating: sha, count: 64 / sha.count), format: .jpeg,
                   pixelSize: PixelSize(width: width, height: height), exif: exif, colours: colours)
    }
}

extension ColourAnalysis {
    static let greyWithRed = ColourAnalysis(
        palette: [PaletteEntry(lab: Lab(l: 53.6, a: 0, b: 0), weight: 0.94, name: .grey),
                  PaletteEntry(lab: Lab(l: 44, a: 68, b: 48), weight: 0.06, name: .red)],
        accent: Accent(lab: Lab(l: 44, a: 68, b: 48), hue: 35.2, coverage: 0.06, name: .red))
}

/// Counts the committed transactions that record migrations, and refuses to commit the (allowed + 1)th
/// when `allowed` is set: as if the process stopped there.
private final class MigrationRecordings: TransactionObserver {
    struct Stopped: Error {}
    var allowed: Int?
    private(set) var commits = 0
    private var recording = false
    init(allowing allowed: Int?) { self.allowed = allowed }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "grdb_migrations" }
    func databaseDidChange(with event: DatabaseEvent) { recording = true }
    func databaseWillCommit() throws {
        guard recording, let allowed else { return }
        guard allowed > 0 else { throw Stopped() }
        self.allowed = allowed - 1
    }
    func databaseDidCommit(_ db: Database) {
        if recording { commits += 1 }
        recording = false
    }
    func databaseDidRollback(_ db: Database) { recording = false }
}
