import Foundation
import GRDBSQLite

// Writes a Swift file holding every Migrations/NNNN_name.sql (the catalogue's) and
// Migrations/thumbnails/NNNN_name.sql (the thumbnail cache's) as string literals, so the showhide
// binary carries its schemas and needs no source tree at run time; and the catalogue's schema as
// the migrations leave it, which a new catalogue is made from at once (Docs/Architecture.md).
// Usage: MigrationEmbedder OUTPUT.swift MIGRATIONS-FOLDER
// The folder is listed here, when the build runs, not when the build was planned: a migration
// added since is embedded too.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: MigrationEmbedder OUTPUT.swift MIGRATIONS-FOLDER\n".utf8))
    exit(64)
}
let output = arguments[0], folder = arguments[1]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MigrationEmbedder: \(message)\n".utf8))
    exit(65)
}

/// The folder's .sql files as (identifier, SQL), in name order.
func migrations(in folder: String) throws -> [(name: String, sql: String)] {
    try ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".sql") }
        .sorted()
        .map { file in
            let path = (folder as NSString).appendingPathComponent(file)
            return ((file as NSString).deletingPathExtension, try String(contentsOfFile: path, encoding: .utf8))
        }
}

/// A raw string literal with enough hashes that no SQL text can end it early.
func literal(_ sql: String) -> String {
    var hashes = "#"
    while sql.contains("\"" + hashes) { hashes += "#" }
    return "\(hashes)\"\"\"\n\(sql)\n\"\"\"\(hashes)"
}

func arrayLiteral(_ migrations: [(name: String, sql: String)]) -> String {
    "[\n" + migrations.map { "        (\"\($0.name)\", \(literal($0.sql))),\n" }.joined() + "    ]"
}

/// An empty in-memory SQLite database.
final class Scratch {
    let handle: OpaquePointer

    init() {
        var handle: OpaquePointer?
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK, let handle else { fail("cannot open an in-memory database") }
        self.handle = handle
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String, _ what: String) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            fail("\(what): \(message.map { String(cString: $0) } ?? "unknown error")")
        }
    }

    func strings(_ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { fail("cannot read the schema") }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_text(statement, $0)) }
                .joined(separator: "\u{1F}"))
        }
        return rows
    }

    /// Every schema object, to compare two databases by.
    var objects: [String] { strings("SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_schema ORDER BY name") }
}

/// The schema the migrations add up to, as statements that make it in an empty database: the
/// schema table's entries in the order they were made (a table before its indexes and triggers),
/// less those SQLite makes itself. Replaying the migrations' history, with its table rebuilds and
/// schema reloads, cost each new catalogue 5 ms of CPU more (Docs/Performance.md).
func squashed(_ migrations: [(name: String, sql: String)]) -> String {
    let migrated = Scratch()
    for migration in migrations { migrated.execute(migration.sql, "migration \(migration.name) fails") }
    let statements = migrated.strings("""
        SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') ORDER BY rowid
        """)
    let schema = statements.map { $0 + ";" }.joined(separator: "\n")
    // The statements must make the very same schema, or the build stops here.
    let made = Scratch()
    made.execute(schema, "the squashed schema fails")
    guard made.objects == migrated.objects else { fail("the squashed schema differs from the migrations'") }
    // What else a migration may set that the schema's statements do not carry.
    guard migrated.strings("SELECT name FROM sqlite_schema WHERE name LIKE 'sqlite\\_stat%' ESCAPE '\\'").isEmpty else {
        fail("the migrations run ANALYZE, whose statistics the squashed schema does not carry")
    }
    for pragma in ["user_version", "application_id", "auto_vacuum"] {
        guard made.strings("PRAGMA \(pragma)") == migrated.strings("PRAGMA \(pragma)") else {
            fail("the migrations set PRAGMA \(pragma), which the squashed schema does not carry")
        }
    }
    // Tables' rows too (a virtual table's shadow tables hold its own from the start).
    for table in migrated.strings("SELECT name FROM pragma_table_list WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") {
        guard migrated.strings("SELECT count(*) FROM \"\(table)\"") == ["0"] else {
            fail("migrations leave rows in \(table): a new catalogue could not be made from the schema alone")
        }
    }
    return schema
}

let catalogue = try migrations(in: folder)
let swift = """
// Generated by MigrationEmbedder from Migrations/*.sql and Migrations/thumbnails/*.sql. Do not edit.

enum EmbeddedMigrations {
    /// The catalogue's: (identifier, SQL) in the order they are applied.
    static let all: [(identifier: String, sql: String)] = \(arrayLiteral(catalogue))
    /// The catalogue's schema once all of them are applied, for a new, empty catalogue.
    static let catalogueSchema = \(literal(squashed(catalogue)))
    /// The thumbnail cache's, likewise.
    static let thumbnailCache: [(identifier: String, sql: String)] = \(arrayLiteral(try migrations(in: (folder as NSString).appendingPathComponent("thumbnails"))))
}

"""
try swift.write(toFile: output, atomically: true, encoding: .utf8)
