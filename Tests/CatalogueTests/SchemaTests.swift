@testable import Catalogue
import ColourScience
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
            "import_failure": ["path", "reason", "failed_at"],
            "photo_colour": ["photo_id", "dominant_hex", "dominant_name", "accent_l", "accent_a", "accent_b", "accent_hex",
                             "accent_hue", "accent_coverage", "accent_name"],
            "colour_name_weight": ["photo_id", "name", "weight"],
            "palette_cell": ["cell", "weight", "photo_id", "rank", "lab_l", "lab_a", "lab_b"],
            "accent_cell": ["cell", "coverage", "photo_id", "lab_l", "lab_a", "lab_b"],
        ])
        XCTAssertEqual(schema.indexes, ["duplicate_path_photo": "duplicate_path", "exif_taken_at": "exif",
                                        "photo_colour_accent": "photo_colour", "colour_name_weight_rank": "colour_name_weight"])
        XCTAssertEqual(schema.triggers, ["accent_gridded", "accent_regridded", "accent_ungridded",
                                         "palette_entry_gridded", "palette_entry_regridded", "palette_entry_ungridded"])
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
        try first.write { writer in
            try writer.insertPhoto(path: "/p.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 2),
                                   facts: .sample(sha: "a"), importedAt: Date(timeIntervalSince1970: 0))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.appendingPathComponent("catalogue.sqlite").path))

        let reopened = try SQLiteCatalogue(libraryDirectory: directory.path)
        XCTAssertEqual(try reopened.knownStamps(), ["/p.jpg": FileStamp(size: 1, modifiedAtNanoseconds: 2)])
        XCTAssertEqual(try reopened.integrityCheck(), "ok")
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
            XCTAssertTrue(description.contains("not a database"), description)
        }
    }

    func testErrorDescriptionsNameWhatFailed() {
        XCTAssertEqual(CatalogueError.cannotOpen(path: "/x", reason: "r").errorDescription, "cannot open the catalogue /x: r")
        XCTAssertEqual(CatalogueError.migrationFailed(path: "/x", reason: "r").errorDescription, "cannot bring the catalogue /x up to date: r")
        XCTAssertEqual(CatalogueError.corruptRow(table: "photo", reason: "r").errorDescription, "the catalogue holds an unreadable photo row: r")
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
