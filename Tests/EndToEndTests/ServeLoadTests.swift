import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Imaging
import TestSupport
import XCTest

/// `showhide serve` under load, as #34 asks: 400 requests at once and 20,000 in all, the grid and a
/// thumbnail in turn, on a catalogue of 2,000 photos. Every request is answered, the latency is
/// printed (no deadline: the machine is shared), and the server's memory stays under 256 MB.
final class ServeLoadTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var library: String { directory.appendingPathComponent("library").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-load-\(UUID().uuidString)")
        // One photo with a file, imported as a user would: its thumbnail is the one asked for.
        try LibraryFixture.writePhotos(1, into: directory.appendingPathComponent("photos"), size: 640)
        let imported = try binary.run(["gallery", "import", directory.appendingPathComponent("photos").path, "--library", library])
        XCTAssertEqual(imported.status, 0, imported.errors)
        // 1,999 more as catalogue rows, with dates and colours: the grid pages over all of them.
        let catalogue = try SQLiteCatalogue(libraryDirectory: library)
        let hexes = ["#CC141E", "#1F5AA6", "#2E8B57", "#F0A020", "#7030A0"]
        try catalogue.write { writer in
            for index in 1..<2000 {
                let hex = hexes[index % hexes.count]
                let colours = ColourAnalysis(palette: [.sample("#808080", 0.85), .sample(hex, 0.15)], accent: .sample(hex, coverage: 0.15))
                let exif = ExifMetadata(make: index % 2 == 0 ? "Canon" : "Nikon",
                                        takenAt: ExifDateTime(year: 2000 + index % 25, month: 1 + index % 12, day: 1 + index % 28,
                                                              hour: 12, minute: 0, second: 0))
                _ = try writer.insertPhoto(path: "/load/\(index).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                           facts: PhotoFacts(sha256: String(format: "%064x", index), format: .jpeg,
                                                             pixelSize: PixelSize(width: 4000, height: 3000), exif: exif, colours: colours),
                                           importedAt: Date(timeIntervalSince1970: 1_700_000_000))
            }
        }
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testTwentyThousandRequestsFourHundredAtOnceAreAllAnsweredInUnder256Megabytes() throws {
        let server = try RunningShowhide(binary, ["serve", "--port", "0", "--library", library], outputFolder: directory)
        defer { kill(server.process.processIdentifier, SIGTERM); server.wait() }
        let base = try XCTUnwrap(server.servingAddress(), server.wait().errors)

        let (status, report, failure) = try ProjectScript.run("http-load", [base, base + "photos/1/thumbnail", "--requests", "20000",
                                                                             "--concurrency", "400"], home: directory.path)
        XCTAssertEqual(status, 0, report + failure)
        XCTAssertTrue(report.hasPrefix("20000 of 20000 answered, 0 not 200, 0 connections failed; median "), report + failure)

        let processStatus = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peakKilobytes = try XCTUnwrap(processStatus.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) })
        XCTAssertLessThan(peakKilobytes, 256 * 1024, "the server's peak memory")
        print("serve under load, 2,000 photos, 400 at once: \(report.trimmingCharacters(in: .whitespacesAndNewlines)); peak memory \(peakKilobytes / 1024) MB")
    }
}
