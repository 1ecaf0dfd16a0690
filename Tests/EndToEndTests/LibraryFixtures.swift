import Codecs
import Foundation
import GRDB
import Imaging
import Services
import TestSupport
import XCTest

/// A `showhide` process started in the background, its output going to files (no pipe to fill up).
final class RunningShowhide {
    let process = Process()
    let outputURL: URL, errorsURL: URL

    init(_ binary: ShowhideBinary, _ arguments: [String], outputFolder: URL) throws {
        let name = UUID().uuidString
        outputURL = outputFolder.appendingPathComponent("\(name).out")
        errorsURL = outputFolder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        process.executableURL = binary.url
        process.arguments = arguments
        process.environment = ShowhideBinary.environment()
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorsURL)
        try process.run()
    }

    /// The address `showhide serve` printed once it listens; nil when it ended first.
    func servingAddress() -> String? {
        while process.isRunning {
            let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
               let start = line.range(of: "http://"), let end = line.range(of: "; Ctrl-C") {
                return String(line[start.lowerBound..<end.lowerBound])
            }
        }
        return nil
    }

    /// SIGKILL: no handler runs, nothing is flushed — as when the machine loses power.
    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }

    @discardableResult
    func wait() -> ShowhideBinary.Run {
        process.waitUntilExit()
        return ShowhideBinary.Run(status: process.terminationStatus, reason: process.terminationReason,
                                  output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                                  errors: (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? "")
    }
}

/// Folders of generated photos and what a catalogue holds, for the end-to-end reliability tests.
enum LibraryFixture {
    /// `count` distinct small JPEGs, each a grey field with a block of one vivid hue (so each has an
    /// accent and gets variants), in `folder` and, for every tenth, a subfolder `more/`.
    static func writePhotos(_ count: Int, into folder: URL, size: Int = 48) throws {
        let codec = ImageCodec()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        for index in 0..<count {
            var image = TestImage.solid(RGBA(red: 120, green: 120, blue: 120), width: size, height: size * 3 / 4)
            let hue = Double(index % 36) * 10 * .pi / 180
            let vivid = RGBA(red: UInt8(128 + 110 * cos(hue)), green: UInt8(128 + 110 * cos(hue - 2.09)),
                             blue: UInt8(128 + 110 * cos(hue + 2.09)))
            let offset = index / 36 % 8
            for y in 4..<(12 + offset) { for x in (4 + offset)..<(16 + offset) { image[x, y] = vivid } }
            // The index in a dark corner, so that no two photos have the same content.
            for y in 0..<2 { for x in 0..<2 { image[x, y] = RGBA(red: UInt8(index % 256), green: UInt8(index / 256), blue: 40) } }
            let data = try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: 80, exif: ExifFixture.camera().encoded()))
            let name = index % 10 == 9 ? "more/photo\(index).jpg" : "photo\(index).jpg"
            try data.write(to: folder.appendingPathComponent(name))
        }
    }

    /// Every table of the catalogue in `library` as sorted text, without the columns that say when
    /// something happened (nor variants' row ids) and with the library's own folder written "LIBRARY": two catalogues with
    /// the same dump hold the same photos, EXIF, colours, variants, duplicates and failures.
    static func dump(_ library: URL) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: library.appendingPathComponent("catalogue.sqlite").path)
        return try queue.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                """)
            var dump: [String: [String]] = [:]
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                    .filter { !["imported_at", "failed_at", "noted_at", "created_at"].contains($0) }
                    // Variants are made several at a time, so their row ids follow timing even without a crash.
                    .filter { table != "variant" || $0 != "id" }
                let rows = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table)")
                dump[table] = rows.map { row in
                    columns.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
                        .replacingOccurrences(of: library.path, with: "LIBRARY")
                }.sorted()
            }
            return dump
        }
    }

    /// Fails with the rows that differ (a few of them), not the whole of both dumps.
    static func assertSameDump(_ actual: [String: [String]], _ expected: [String: [String]], _ message: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        for table in Set(actual.keys).union(expected.keys).sorted() {
            let have = Set(actual[table] ?? []), want = Set(expected[table] ?? [])
            guard have != want else { continue }
            XCTFail("\(message): \(table) has \(have.subtracting(want).count) rows too many, e.g. \(have.subtracting(want).sorted().prefix(2)), "
                + "and misses \(want.subtracting(have).count), e.g. \(want.subtracting(have).sorted().prefix(2))", file: file, line: line)
        }
    }

    /// What must hold after any crash: SQLite finds nothing wrong, no row points at a missing photo,
    /// and every photo has its content hash.
    /// How many photos of a library have an accent that stands out (the ones processing makes variants of).
    static func photosWithAnAccent(_ library: URL) throws -> Int {
        try DatabaseQueue(path: library.appendingPathComponent("catalogue.sqlite").path).read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM photo_colour WHERE accent_l IS NOT NULL") ?? 0
        }
    }

    static func assertSound(_ catalogue: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let queue = try DatabaseQueue(path: catalogue)
        try queue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA integrity_check"), ["ok"], file: file, line: line)
            XCTAssertEqual(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count, 0, "rows pointing at no photo", file: file, line: line)
            // Killed while the schema was being made: sound, and nothing written into it yet.
            guard try db.tableExists("photo_colour") else {
                XCTAssertEqual(try db.tableExists("photo") ? Int.fetchOne(db, sql: "SELECT count(*) FROM photo") : 0, 0,
                               "no photo before the schema is complete", file: file, line: line)
                return
            }
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE length(sha256) != 64"), 0, file: file, line: line)
            XCTAssertEqual(try Int.fetchOne(db, sql: """
                SELECT count(*) FROM photo WHERE id NOT IN (SELECT photo_id FROM photo_colour)
                """), 0, "every photo was written with its colours, in one transaction", file: file, line: line)
        }
    }

    /// Files under `folder` (relative path → SHA-256 of the bytes), leaving out files being written.
    static func files(in folder: URL) -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  !url.lastPathComponent.hasSuffix(".partial"), let data = try? Data(contentsOf: url) else { continue }
            files[String(url.path.dropFirst(folder.path.count + 1))] = CryptoHasher().sha256(data)
        }
        return files
    }
}

import ZIPFoundation
import CatalogueSQLite

/// What a zip file holds, every entry read through (a cut archive fails here).
enum ZipContents {
    static func entries(of url: URL) throws -> [String] {
        let archive = try Archive(url: url, accessMode: .read, pathEncoding: nil)
        var names: [String] = []
        for entry in archive {
            _ = try archive.extract(entry, skipCRC32: false) { _ in }
            names.append(entry.path)
        }
        return names
    }
}

/// The project's own Python scripts (`scripts/`), run as a person would, with only what they need of
/// the environment: the test runner's own variables are not theirs.
enum ProjectScript {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `scripts/NAME ARGUMENTS` to its end: its exit status, standard output and standard error.
    static func run(_ name: String, _ arguments: [String], home: String) throws -> (status: Int32, output: String, errors: String) {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["python3", packageRoot.appendingPathComponent("scripts/\(name)").path] + arguments
        script.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "PYTHONDONTWRITEBYTECODE": "1"]
        script.standardInput = FileHandle.nullDevice
        let said = Pipe(), errors = Pipe()
        script.standardOutput = said
        script.standardError = errors
        try script.run()
        // Both read to their ends before waiting: a full pipe would stop the script.
        let output = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        return (script.terminationStatus, output, failure)
    }
}
