import Codecs
import Foundation
import GRDB
import Imaging
import TestSupport
import XCTest

/// Working on part of a library through the built binary: scopes and ids, exports that say what
/// they will do and add up, and imports that know their bad files and stop cleanly on Ctrl-C.
final class PartOfALibraryBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    let codec = ImageCodec()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-part-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }
    var library: [String] { ["--library", path("library")] }

    /// A grey street with a block of `colour` (a third of each side), `width` × `height`, as a JPEG.
    func photo(_ relative: String, colour: RGBA, width: Int = 96, height: Int = 64, mark: UInt8 = 0) throws {
        var image = TestImage.solid(RGBA(red: 120, green: 120, blue: 120), width: width, height: height)
        for y in height / 3..<height * 2 / 3 { for x in width / 3..<width * 2 / 3 { image[x, y] = colour } }
        // A mark in a corner, so that photos otherwise alike are not one photo.
        for y in 0..<8 { for x in 0..<8 { image[x, y] = RGBA(red: mark &* 40, green: 200, blue: 0) } }
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: 90)).write(to: url)
    }

    func json(_ run: ShowhideBinary.Run) throws -> Any {
        XCTAssertEqual(run.status, 0, run.errors)
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }

    func paths(_ run: ShowhideBinary.Run) throws -> [String] {
        ((try json(run) as? [[String: Any]]) ?? []).compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }.sorted()
    }

    func testScopesAndIdsTakeTheSamePhotosInEveryCommand() throws {
        let red = RGBA(red: 210, green: 20, blue: 30)
        try photo("photos/trip/a.jpg", colour: red, mark: 1)
        try photo("photos/trip/day2/b.jpg", colour: red, mark: 2)
        try photo("photos/tripod/c.jpg", colour: red, mark: 3)
        try photo("photos/home/d.jpg", colour: RGBA(red: 30, green: 60, blue: 200), mark: 4)
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)

        XCTAssertEqual(try paths(try binary.run(["gallery", "list", "--in", "trip", "--json"] + library, workingDirectory: path("photos"))),
                       ["a.jpg", "b.jpg"], "a folder at any depth, relative to the working directory, not tripod")
        XCTAssertEqual(try paths(try binary.run(["gallery", "search", "--colour", "red", "--in", path("photos/tripod"), path("photos/home"),
                                                 "--json"] + library)), ["c.jpg"])
        let processed = try binary.run(["gallery", "process", "--in", path("photos/trip")] + library)
        XCTAssertEqual(processed.status, 0, processed.errors)
        // Ids in walk order: 1 home/d, 2 trip/a, 3 trip/day2/b, 4 tripod/c.
        let shown = try XCTUnwrap(try json(try binary.run(["gallery", "show", "1", "2", "3", "--json"] + library)) as? [[String: Any]])
        XCTAssertEqual(shown.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }, ["d.jpg", "a.jpg", "b.jpg"])
        XCTAssertEqual(shown.map { ($0["variants"] as? [Any])?.count ?? 0 }, [0, 2, 2], "show and hide of the trip's photos only")

        let exported = try binary.run(["export", "1", "4", "--to", path("out"), "--variant", "original"] + library)
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")).sorted(),
                       ["manifest.json", "undated_c_original.jpg", "undated_d_original.jpg"], "bare ids, several")

        XCTAssertEqual(try binary.run(["gallery", "remove", "--in", path("photos/tripod")] + library).status, 0)
        XCTAssertEqual(try paths(try binary.run(["gallery", "list", "--json"] + library)), ["a.jpg", "b.jpg", "d.jpg"])
        let check = try XCTUnwrap(try json(try binary.run(["gallery", "check", "--in", path("photos/trip"), "--json"] + library)) as? [String: Any])
        XCTAssertEqual(check["photos"] as? Int, 2)
    }

    func testAnExportSaysWhatItWillDoAndASecondOneAddsUp() throws {
        for index in 0..<3 { try photo("photos/red\(index).jpg", colour: RGBA(red: 210, green: 20, blue: 30), mark: UInt8(index)) }
        try photo("photos/blue.jpg", colour: RGBA(red: 30, green: 60, blue: 200))
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)

        let dryRun = try binary.run(["export", "--colour", "red", "--to", path("out"), "--dry-run"] + library)
        XCTAssertEqual(dryRun.status, 0, dryRun.errors)
        XCTAssertTrue(dryRun.errors.hasPrefix("would export 3 photos: 3 files, about "), dryRun.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out")), "a dry run writes nothing")
        let zipDryRun = try binary.run(["export", "--all", "--zip", path("set.zip"), "--dry-run"] + library)
        XCTAssertEqual(zipDryRun.status, 0, zipDryRun.errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("set") }, [],
                       "nor into a zip: no archive, no partial one")

        let first = try binary.run(["export", "--colour", "red", "--limit", "2", "--to", path("out"), "--manifest", "csv"] + library)
        XCTAssertTrue(first.errors.hasPrefix("exporting 2 photos: 2 files, about "), first.errors)
        let second = try binary.run(["export", "--all", "--variant", "show", "--to", path("out")] + library)
        XCTAssertEqual(second.status, 0, second.errors)
        XCTAssertTrue(second.output.contains("kept 2"), "the two files already there, the same bytes: \(second.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: path("out")).filter { $0.hasSuffix(".jpg") }.sorted()
        XCTAssertEqual(files.count, 4, "the blue photo's and the third red one's added, nothing written twice: \(files)")
        XCTAssertFalse(files.contains { $0.contains("_2.") }, "\(files)")
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("out/manifest.json"))))
            as? [[String: Any]])
        XCTAssertEqual(manifest.compactMap { $0["file"] as? String }.sorted(), files)
        let csv = try String(contentsOfFile: path("out/manifest.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(csv.map { String($0.split(separator: ",")[0]) }.sorted(), files, "the CSV agrees")
    }

    func testAnExportOfLargePhotosMadeSmallerStaysUnder256MB() throws {
        // 12-megapixel photos made 2048 px long: a copy of the rows in doubles would be 196 MB.
        for index in 0..<2 { try photo("photos/big\(index).jpg", colour: RGBA(red: 210, green: 20, blue: 30), width: 4000, height: 3000,
                                       mark: UInt8(index)) }
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 0)
        // Its own peak, read by the parent that waits for it (wait4), not the largest of every process this
        // test process has run: the browser test's chromium is one of those.
        let peakOfChild = ["/usr/bin/env", "python3", "-c", """
            import os, subprocess, sys
            child = subprocess.Popen(sys.argv[1:])
            _, status, usage = os.wait4(child.pid, 0)
            sys.stderr.write(f"peak-kb {usage.ru_maxrss}\\n")
            sys.exit(os.waitstatus_to_exitcode(status))
            """]
        let exported = try binary.run(["export", "--all", "--variant", "original", "--zip", path("big.zip"), "--max-size", "2048"] + library,
                                      launcher: peakOfChild)
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertTrue(exported.output.hasPrefix("exported 2 files"), exported.output)
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            let peak = try XCTUnwrap(exported.errors.split(separator: "\n").last { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) },
                                     exported.errors)
            XCTAssertLessThan(peak, 256 * 1024, "peak RSS of the binary, in KB")
        }
    }

    func testAKnownBadFileIsStillFailingUnlessStrict() throws {
        try photo("photos/good.jpg", colour: RGBA(red: 210, green: 20, blue: 30))
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: path("photos/bad.jpg")))
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos")] + library).status, 1, "a new failure")
        let again = try binary.run(["gallery", "import", path("photos")] + library)
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertTrue(again.output.contains("failed 0, still failing 1"), again.output)
        XCTAssertEqual(try binary.run(["gallery", "import", path("photos"), "--strict"] + library).status, 1)
        XCTAssertEqual(try binary.run(["gallery", "import", path("nowhere")] + library).status, 66)
    }

    /// Ctrl-C once the import is writing: it stops, keeps what it read, says so, exits 130; the same
    /// command then imports the rest. (The signal goes once the first batch is in the catalogue,
    /// when the import is certainly listening; 1,500 files leave it far from done.)
    func testCtrlCStopsAnImportThatTheSameCommandThenFinishes() throws {
        try LibraryFixture.writePhotos(1_500, into: directory.appendingPathComponent("photos"))
        let arguments = ["gallery", "import", path("photos"), "--jobs", "1"] + library
        let running = try RunningShowhide(binary, arguments, outputFolder: directory)
        let catalogue = path("library/catalogue.sqlite")
        var imported = 0
        while imported == 0 && running.process.isRunning {
            if FileManager.default.fileExists(atPath: catalogue) {
                imported = (try? DatabaseQueue(path: catalogue).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM photo") ?? 0 }) ?? 0
            }
        }
        XCTAssertTrue(running.process.isRunning, "the import ended before it could be interrupted")
        kill(running.process.processIdentifier, SIGINT)
        let stopped = running.wait()
        XCTAssertEqual(stopped.status, 130, stopped.errors)
        XCTAssertEqual(stopped.reason, .exit, "it ended itself, not killed by the signal")
        XCTAssertTrue(stopped.errors.contains("interrupted: what was read is kept ("), stopped.errors)
        XCTAssertTrue(stopped.errors.contains("run the same command again to go on from there"), stopped.errors)
        // `first`, not `[0]`: a run that printed nothing fails here rather than ending the whole suite.
        let summary = try XCTUnwrap(stopped.output.split(separator: ",").first, stopped.errors)
        let kept = try XCTUnwrap(Int(summary.replacingOccurrences(of: "imported ", with: "")), stopped.output)
        XCTAssertGreaterThan(kept, 0)
        XCTAssertLessThan(kept, 1_500)

        let rest = try binary.run(arguments)
        XCTAssertEqual(rest.status, 0, rest.errors)
        XCTAssertTrue(rest.output.hasPrefix("imported \(1_500 - kept), unchanged \(kept),"), rest.output)
    }
}
