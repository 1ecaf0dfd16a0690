import Codecs
import Foundation
import GRDB
import Imaging
import TestSupport
import XCTest

/// Kills `showhide` with SIGKILL at chosen points of its work (after a seeded random number of
/// photos written, variants made or files exported: never after a wall-clock delay) and checks that
/// nothing is lost or corrupted and that running the command again ends exactly as a run never
/// interrupted. Every kill must land before the end. The ordinary test suite kills each command
/// once; SHOWHIDE_KILLS=50 many more times.
final class CrashSafetyTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var kills: Int { Int(ProcessInfo.processInfo.environment["SHOWHIDE_KILLS"] ?? "") ?? 1 }
    var photos: URL { directory.appendingPathComponent("photos") }
    var random = SeededGenerator(state: 20_261_124)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-crash-\(UUID().uuidString)")
        try LibraryFixture.writePhotos(300, into: photos)
        // Broken and duplicate files, so that failures and duplicate paths are written too.
        try Data("not a photo".utf8).write(to: photos.appendingPathComponent("broken.jpg"))
        try FileManager.default.copyItem(at: photos.appendingPathComponent("photo0.jpg"), to: photos.appendingPathComponent("copy.jpg"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func library(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func catalogue(_ library: URL) -> String { library.appendingPathComponent("catalogue.sqlite").path }

    /// Runs `arguments` to the end.
    func runToEnd(_ arguments: [String], allowing statuses: Set<Int32> = [0, 1]) throws {
        let run = try RunningShowhide(binary, arguments, outputFolder: directory).wait()
        XCTAssertTrue(statuses.contains(run.status), "\(arguments): \(run.status) \(run.errors)")
    }

    /// Starts `arguments`, watches its work until `reached` says it has come far enough, and kills it
    /// there; true when the kill came before the process had finished.
    func startAndKill(_ arguments: [String], when reached: () -> Bool) throws -> Bool {
        let running = try RunningShowhide(binary, arguments, outputFolder: directory)
        while running.process.isRunning && !reached() { sched_yield() }
        running.kill()
        return running.wait().reason == .uncaughtSignal
    }

    /// Photos the catalogue in `library` holds now; nil before it exists.
    static func photoCount(_ library: URL) -> Int? {
        let path = library.appendingPathComponent("catalogue.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        return try? DatabaseQueue(path: path, configuration: configuration).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo") }
    }

    /// Regular files under `folder` now (partial ones included when `counting` says so).
    static func fileCount(_ folder: URL, counting: (String) -> Bool = { !$0.hasSuffix(".partial") }) -> Int {
        (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []).filter(counting).count
    }

    func testImportKilledAtRandomMomentsEndsAsAnUninterruptedImport() throws {
        let reference = library("reference")
        try runToEnd(["gallery", "import", photos.path, "--library", reference.path])
        let expected = try LibraryFixture.dump(reference)
        XCTAssertEqual(expected["photo"]?.count, 300)
        XCTAssertEqual(expected["duplicate_path"]?.count, 1)
        XCTAssertEqual(expected["import_failure"]?.count, 1)
        var interrupted = 0, attempts = 0
        for trial in 0..<kills {
            let library = library("trial\(trial)")
            // One to three kills in a row, each run resuming what the one before left: as soon as the
            // catalogue exists, or once a batch more than the last run left is written.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let before = Self.photoCount(library)
                let afterABatch = Bool.random(using: &random) || before != nil
                attempts += 1
                if try startAndKill(["gallery", "import", photos.path, "--library", library.path], when: {
                    guard let count = Self.photoCount(library) else { return false }
                    return !afterABatch || count > (before ?? 0)
                }) { interrupted += 1 }
                if FileManager.default.fileExists(atPath: catalogue(library)) { try LibraryFixture.assertSound(catalogue(library)) }
            }
            try runToEnd(["gallery", "import", photos.path, "--library", library.path])
            try LibraryFixture.assertSound(catalogue(library))
            LibraryFixture.assertSameDump(try LibraryFixture.dump(library), expected, "trial \(trial)")
            try? FileManager.default.removeItem(at: library)
        }
        XCTAssertEqual(interrupted, attempts, "every kill landed before the import's end")
        print("import: \(interrupted) kills before the end, \(kills) trials")
    }

    func testProcessKilledAtRandomMomentsLeavesNoPartialVariantAndEndsTheSame() throws {
        let imported = library("imported")
        try runToEnd(["gallery", "import", photos.path, "--library", imported.path])
        let reference = library("reference")
        try FileManager.default.copyItem(at: imported, to: reference)
        try runToEnd(["gallery", "process", "--all", "--library", reference.path])
        let expected = try LibraryFixture.dump(reference)
        let expectedFiles = LibraryFixture.files(in: reference.appendingPathComponent("variants"))
        let accented = try LibraryFixture.photosWithAnAccent(reference)
        XCTAssertGreaterThan(accented, 290, "nearly every generated photo has a vivid subject")
        XCTAssertEqual(expectedFiles.count, 2 * accented, "a show and a hide variant per photo with an accent")
        var interrupted = 0
        for trial in 0..<kills {
            let library = library("trial\(trial)")
            try FileManager.default.copyItem(at: imported, to: library)
            let variants = library.appendingPathComponent("variants")
            let made = Int.random(in: 0...(expectedFiles.count * 2 / 3), using: &random)
            if try startAndKill(["gallery", "process", "--all", "--library", library.path], when: {
                Self.fileCount(variants) >= made
            }) { interrupted += 1 }
            try LibraryFixture.assertSound(catalogue(library))
            // Whatever has a final name is whole: the same bytes as in the uninterrupted run.
            for (name, sha) in LibraryFixture.files(in: library.appendingPathComponent("variants")) {
                XCTAssertEqual(sha, expectedFiles[name], "\(name) after a kill")
            }
            try runToEnd(["gallery", "process", "--all", "--library", library.path])
            LibraryFixture.assertSameDump(try LibraryFixture.dump(library), expected, "trial \(trial)")
            XCTAssertEqual(LibraryFixture.files(in: library.appendingPathComponent("variants")), expectedFiles)
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: library.appendingPathComponent("variants").path)
                .filter { $0.hasSuffix(".partial") }
            XCTAssertEqual(leftovers, [], "the next run clears what the killed one was writing")
            try? FileManager.default.removeItem(at: library)
        }
        XCTAssertEqual(interrupted, kills, "every kill landed before the processing's end")
        print("process: \(interrupted) kills before the end, \(kills) trials")
    }

    func testExportKilledAtRandomMomentsLeavesNoPartialFileUnderAFinalName() throws {
        let imported = library("imported")
        try runToEnd(["gallery", "import", photos.path, "--library", imported.path])
        try runToEnd(["gallery", "process", "--all", "--library", imported.path])
        let referenceFolder = directory.appendingPathComponent("export-reference")
        let arguments = ["export", "--all", "--variant", "all", "--library", imported.path]
        try runToEnd(arguments + ["--to", referenceFolder.path])
        let expected = LibraryFixture.files(in: referenceFolder).filter { !$0.key.hasPrefix("manifest") }
        let accented = try LibraryFixture.photosWithAnAccent(imported)
        XCTAssertGreaterThan(accented, 290, "nearly every generated photo has a vivid subject")
        XCTAssertEqual(expected.count, 300 + 2 * accented, "each of the 300 originals, and show and hide of each with an accent")
        var interrupted = 0
        for trial in 0..<kills {
            let folder = directory.appendingPathComponent("export\(trial)")
            let written = Int.random(in: 0...(expected.count * 2 / 3), using: &random)
            if try startAndKill(arguments + ["--to", folder.path], when: { Self.fileCount(folder) >= written }) { interrupted += 1 }
            for (name, sha) in LibraryFixture.files(in: folder) where !name.hasPrefix("manifest") {
                XCTAssertEqual(sha, expected[name], "\(name) after a kill")
            }
            try runToEnd(arguments + ["--to", folder.path, "--on-conflict", "skip"])
            XCTAssertEqual(LibraryFixture.files(in: folder).filter { !$0.key.hasPrefix("manifest") }, expected, "trial \(trial)")

            let zip = directory.appendingPathComponent("export\(trial).zip")
            // The zip is written under a temporary name beside it: killed once that has grown this far.
            let bytes = UInt64.random(in: 1...200_000, using: &random)
            if try startAndKill(arguments + ["--zip", zip.path], when: {
                let partial = (try? FileManager.default.contentsOfDirectory(atPath: self.directory.path))?
                    .first { $0.hasPrefix(zip.lastPathComponent + ".") && $0.hasSuffix(".partial") }
                let size = partial.flatMap { try? FileManager.default.attributesOfItem(atPath: self.directory.appendingPathComponent($0).path)[.size] as? UInt64 }
                return (size ?? 0) >= bytes
            }) { interrupted += 1 }
            if FileManager.default.fileExists(atPath: zip.path) {
                XCTAssertEqual(try ZipContents.entries(of: zip).filter { !$0.hasPrefix("manifest") }.count, 900,
                               "a zip under its final name is whole")
            }
            try? FileManager.default.removeItem(at: folder)
        }
        XCTAssertEqual(interrupted, 2 * kills, "every kill landed before the export's end")
        print("export: \(interrupted) kills before the end, \(kills) trials")
    }
}
