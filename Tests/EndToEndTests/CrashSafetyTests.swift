import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// Kills `showhide` with SIGKILL at random moments and checks that nothing is lost or corrupted and
/// that running the command again ends exactly as a run never interrupted. The ordinary test suite
/// kills each command once; `make crash-test` (SHOWHIDE_KILLS=50) many more times.
final class CrashSafetyTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var kills: Int { Int(ProcessInfo.processInfo.environment["SHOWHIDE_KILLS"] ?? "") ?? 1 }
    var photos: URL { directory.appendingPathComponent("photos") }
    var random = SystemRandomNumberGenerator()

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

    /// Runs `arguments` to the end and returns how long it took.
    @discardableResult
    func runToEnd(_ arguments: [String], allowing statuses: Set<Int32> = [0, 1]) throws -> TimeInterval {
        let start = Date()
        let run = try RunningShowhide(binary, arguments, outputFolder: directory).wait()
        XCTAssertTrue(statuses.contains(run.status), "\(arguments): \(run.status) \(run.errors)")
        return Date().timeIntervalSince(start)
    }

    /// Starts `arguments` and kills it after a random part of `duration`; true when the kill came
    /// before the process had finished.
    @discardableResult
    func startAndKill(_ arguments: [String], within duration: TimeInterval) throws -> Bool {
        let running = try RunningShowhide(binary, arguments, outputFolder: directory)
        // A random moment is the point of the test: the process is not awaited for a result.
        usleep(UInt32(Double.random(in: 0..<duration, using: &random) * 1_000_000))
        running.kill()
        return running.wait().reason == .uncaughtSignal
    }

    func testImportKilledAtRandomMomentsEndsAsAnUninterruptedImport() throws {
        let reference = library("reference")
        let duration = try runToEnd(["gallery", "import", photos.path, "--library", reference.path])
        let expected = try LibraryFixture.dump(reference)
        XCTAssertEqual(expected["photo"]?.count, 300)
        XCTAssertEqual(expected["duplicate_path"]?.count, 1)
        XCTAssertEqual(expected["import_failure"]?.count, 1)
        var interrupted = 0
        for trial in 0..<kills {
            let library = library("trial\(trial)")
            // One to three kills in a row, each run resuming what the one before left.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                if try startAndKill(["gallery", "import", photos.path, "--library", library.path], within: duration) { interrupted += 1 }
                if FileManager.default.fileExists(atPath: catalogue(library)) { try LibraryFixture.assertSound(catalogue(library)) }
            }
            try runToEnd(["gallery", "import", photos.path, "--library", library.path])
            try LibraryFixture.assertSound(catalogue(library))
            LibraryFixture.assertSameDump(try LibraryFixture.dump(library), expected, "trial \(trial)")
            try? FileManager.default.removeItem(at: library)
        }
        print("import: \(interrupted) kills before the end, \(kills) trials")
    }

    func testProcessKilledAtRandomMomentsLeavesNoPartialVariantAndEndsTheSame() throws {
        let imported = library("imported")
        try runToEnd(["gallery", "import", photos.path, "--library", imported.path])
        let reference = library("reference")
        try FileManager.default.copyItem(at: imported, to: reference)
        let duration = try runToEnd(["gallery", "process", "--all", "--library", reference.path])
        let expected = try LibraryFixture.dump(reference)
        let expectedFiles = LibraryFixture.files(in: reference.appendingPathComponent("variants"))
        let accented = try LibraryFixture.photosWithAnAccent(reference)
        XCTAssertGreaterThan(accented, 290, "nearly every generated photo has a vivid subject")
        XCTAssertEqual(expectedFiles.count, 2 * accented, "a show and a hide variant per photo with an accent")
        var interrupted = 0
        for trial in 0..<kills {
            let library = library("trial\(trial)")
            try FileManager.default.copyItem(at: imported, to: library)
            if try startAndKill(["gallery", "process", "--all", "--library", library.path], within: duration) { interrupted += 1 }
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
        print("process: \(interrupted) kills before the end, \(kills) trials")
    }

    func testExportKilledAtRandomMomentsLeavesNoPartialFileUnderAFinalName() throws {
        let imported = library("imported")
        try runToEnd(["gallery", "import", photos.path, "--library", imported.path])
        try runToEnd(["gallery", "process", "--all", "--library", imported.path])
        let referenceFolder = directory.appendingPathComponent("export-reference")
        let arguments = ["export", "--all", "--variant", "all", "--library", imported.path]
        let duration = try runToEnd(arguments + ["--to", referenceFolder.path])
        let expected = LibraryFixture.files(in: referenceFolder).filter { !$0.key.hasPrefix("manifest") }
        let accented = try LibraryFixture.photosWithAnAccent(imported)
        XCTAssertGreaterThan(accented, 290, "nearly every generated photo has a vivid subject")
        XCTAssertEqual(expected.count, 300 + 2 * accented, "each of the 300 originals, and show and hide of each with an accent")
        var interrupted = 0
        for trial in 0..<kills {
            let folder = directory.appendingPathComponent("export\(trial)")
            if try startAndKill(arguments + ["--to", folder.path], within: duration) { interrupted += 1 }
            for (name, sha) in LibraryFixture.files(in: folder) where !name.hasPrefix("manifest") {
                XCTAssertEqual(sha, expected[name], "\(name) after a kill")
            }
            try runToEnd(arguments + ["--to", folder.path, "--on-conflict", "skip"])
            XCTAssertEqual(LibraryFixture.files(in: folder).filter { !$0.key.hasPrefix("manifest") }, expected, "trial \(trial)")

            let zip = directory.appendingPathComponent("export\(trial).zip")
            if try startAndKill(arguments + ["--zip", zip.path], within: duration) { interrupted += 1 }
            if FileManager.default.fileExists(atPath: zip.path) {
                XCTAssertEqual(try ZipContents.entries(of: zip).filter { !$0.hasPrefix("manifest") }.count, 900,
                               "a zip under its final name is whole")
            }
            try? FileManager.default.removeItem(at: folder)
        }
        print("export: \(interrupted) kills before the end, \(kills) trials")
    }
}
