@testable import Archives
import Foundation
import Services
import XCTest
import ZIPFoundation

final class ZipDestinationTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-zip-\(UUID().uuidString)").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func entries(of path: String) throws -> [String: Data] {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read, pathEncoding: nil)
        var result: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            result[entry.path] = data
        }
        return result
    }

    func testEveryEntryComesBackAsWritten() throws {
        let path = directory + "/out/set.zip"
        let zip = try ZipDestination(path: path, onConflict: .unique, modified: Date(timeIntervalSince1970: 1_700_000_000))
        let files = ["a.jpg": Data((0..<200_000).map { UInt8($0 % 251) }), "Canon/b.png": Data("png".utf8), "manifest.json": Data("[]".utf8)]
        for (name, data) in files.sorted(by: { $0.key < $1.key }) {
            XCTAssertFalse(zip.contains(name))
            try zip.write(data, as: name)
            XCTAssertTrue(zip.contains(name))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no archive under the final name before it is complete")
        XCTAssertNil(try zip.existing("a.jpg"), "an archive is written afresh")
        try zip.finish()
        XCTAssertEqual(zip.location, path)
        XCTAssertEqual(try entries(of: path), files)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "/out"), ["set.zip"], "no temporary file left")
    }

    func testAnAbandonedArchiveLeavesNothing() throws {
        let path = directory + "/set.zip"
        let zip = try ZipDestination(path: path, onConflict: .unique, modified: Date())
        try zip.write(Data("x".utf8), as: "x.jpg")
        zip.abandon()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        XCTAssertThrowsError(try zip.write(Data(), as: "y.jpg"))
    }

    func testAnExistingArchiveIsNeverReplacedBySurprise() throws {
        let path = directory + "/set.zip"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let unique = try ZipDestination(path: path, onConflict: .unique, modified: Date())
        XCTAssertEqual(unique.location, directory + "/set_2.zip")
        unique.abandon()
        XCTAssertThrowsError(try ZipDestination(path: path, onConflict: .skip, modified: Date())) { error in
            XCTAssertEqual(error as? ExportError, .destinationExists(path))
        }
        let overwrite = try ZipDestination(path: path, onConflict: .overwrite, modified: Date())
        try overwrite.write(Data("new".utf8), as: "n.jpg")
        try overwrite.finish()
        XCTAssertEqual(try entries(of: path), ["n.jpg": Data("new".utf8)])
    }

    func testAPipeOrADeviceIsNoZipFileToNumberBesideOrReplace() throws {
        // `--zip /dev/null --on-conflict overwrite` made /dev/null a file of 42 kB; without it, /dev/null_2 was written.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pipe = directory + "/photos.zip"
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        for policy in [ConflictPolicy.unique, .overwrite, .skip] {
            XCTAssertThrowsError(try ZipDestination(path: pipe, onConflict: policy, modified: Date())) { error in
                XCTAssertEqual(error as? ExportError, .cannotWrite(pipe, "it is a named pipe, not a file; name the zip file to write"))
            }
        }
        XCTAssertEqual(NotAFile.kind(at: pipe), "a named pipe", "still the pipe")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["photos.zip"])
        XCTAssertEqual(NotAFile.kind(at: "/dev/null"), "a device")
        XCTAssertNil(NotAFile.kind(at: directory))
    }

    func testTwoExportsToOneArchiveAtOnceEachWriteTheirOwnAndTheLastToFinishIsKept() throws {
        let path = directory + "/set.zip"
        let first = try ZipDestination(path: path, onConflict: .overwrite, modified: Date())
        let second = try ZipDestination(path: path, onConflict: .overwrite, modified: Date())
        try first.write(Data("one".utf8), as: "1.jpg")
        try second.write(Data("two".utf8), as: "2.jpg")
        try first.finish()
        XCTAssertEqual(try entries(of: path), ["1.jpg": Data("one".utf8)])
        try second.finish()
        XCTAssertEqual(try entries(of: path), ["2.jpg": Data("two".utf8)], "renamed over the first: never a moment with neither")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["set.zip"])
    }

    func testTwoExportsToOneNewArchiveAtOnceBothKeepTheirs() throws {
        // Both began while there was no set.zip; the second's rename replaced the first's archive.
        let path = directory + "/set.zip"
        let first = try ZipDestination(path: path, onConflict: .unique, modified: Date())
        let second = try ZipDestination(path: path, onConflict: .unique, modified: Date())
        let third = try ZipDestination(path: path, onConflict: .skip, modified: Date())
        try first.write(Data("one".utf8), as: "1.jpg")
        try second.write(Data("two".utf8), as: "2.jpg")
        try third.write(Data("three".utf8), as: "3.jpg")
        try first.finish()
        try second.finish()
        XCTAssertEqual(first.location, path)
        XCTAssertEqual(second.location, directory + "/set_2.zip", "the next free name, as when set.zip was there at the start")
        XCTAssertEqual(try entries(of: path), ["1.jpg": Data("one".utf8)])
        XCTAssertEqual(try entries(of: directory + "/set_2.zip"), ["2.jpg": Data("two".utf8)])
        XCTAssertThrowsError(try third.finish()) { error in
            XCTAssertEqual(error as? ExportError, .destinationExists(path), "skip: the archive there is kept")
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory)), ["set.zip", "set_2.zip"], "no temporary file left")
    }

    func testWhatAKilledExportLeftIsTakenAwayByTheNextOnceItIsOld() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let old = ["set.zip.\(UUID().uuidString).partial", "set.zip.partial"], recent = "set.zip.\(UUID().uuidString).partial"
        let others = ["set.zip.notes.partial", "other.zip.\(UUID().uuidString).partial"]
        for name in old + [recent] + others {
            let file = directory + "/" + name
            try Data("half".utf8).write(to: URL(fileURLWithPath: file))
            let age = name == recent ? 60.0 : ZipDestination.abandonedArchiveAge + 60
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: file)
        }
        let zip = try ZipDestination(path: directory + "/set.zip", onConflict: .unique, modified: now)
        zip.abandon()
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory)), Set([recent] + others),
                       "only this archive's own temporary files, and only those older than an export takes")
    }

    func testAFolderIsNoZipFileToNumberOrReplace() throws {
        // `--zip exports/`: before, `exports_2` was written, a zip without its extension, beside the folder.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for policy in [ConflictPolicy.unique, .overwrite, .skip] {
            XCTAssertThrowsError(try ZipDestination(path: directory, onConflict: policy, modified: Date())) { error in
                XCTAssertEqual(error as? ExportError, .cannotWrite(directory, "it is a folder; name the zip file, such as \(directory!)/photos.zip"))
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (directory as NSString).deletingLastPathComponent)
            .filter { $0.hasPrefix((directory as NSString).lastPathComponent + "_") }, [])
    }

    /// ZIPFoundation's `unwritableFile` (a failed `fwrite`) in the words of its errno.
    func testAnEntryTheDiskRefusesIsSaidInWords() {
        enum ZIPFoundationLike: Error { case unwritableFile }
        XCTAssertEqual(ZipDestination.reason(ZIPFoundationLike.unwritableFile, errno: ENOSPC), "no space left on device")
        XCTAssertEqual(ZipDestination.reason(ZIPFoundationLike.unwritableFile, errno: 0), "the file could not be written")
        XCTAssertEqual(ZipDestination.reason(ZIPFoundationLike.unwritableFile, errno: ENOENT), "the file could not be written",
                       "an errno no write leaves is another call's")
        XCTAssertEqual(ZipDestination.reason(CocoaError(.fileWriteOutOfSpace), errno: 0), CocoaError(.fileWriteOutOfSpace).plainDescription)
    }

    func testAnArchiveThatCannotBeCreatedIsAClearError() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: directory + "/file"))
        for path in [directory + "/file/set.zip", directory + "/file/deeper/set.zip"] {
            XCTAssertThrowsError(try ZipDestination(path: path, onConflict: .unique, modified: Date())) { error in
                XCTAssertEqual(error as? ExportError, .cannotWrite(path, "\(self.directory!)/file is a file, not a folder"), "not 'file exists'")
            }
        }
    }

    func testEveryEntryCarriesTheModificationTimeGiven() throws {
        let path = directory + "/dated.zip"
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        let zip = try ZipDestination(path: path, onConflict: .overwrite, modified: modified)
        try zip.write(Data("photo".utf8), as: "a.jpg")
        try zip.finish()
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read, pathEncoding: nil)
        let dates = archive.compactMap { $0.fileAttributes[.modificationDate] as? Date }
        XCTAssertEqual(dates.count, 1)
        // A zip entry keeps its time to two seconds.
        for date in dates { XCTAssertEqual(date.timeIntervalSince(modified), 0, accuracy: 2) }
    }
}
