import Catalogue
import Foundation
@testable import Services
import TestSupport
import XCTest

final class LocalFileSystemTests: XCTestCase {
    var root: String!
    let fileSystem = LocalFileSystem()
    let manager = FileManager.default

    override func setUpWithError() throws {
        root = manager.temporaryDirectory.appendingPathComponent("showhide-walk-\(UUID().uuidString)").path
        try manager.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? manager.removeItem(atPath: root)
    }

    func write(_ relative: String, _ text: String = "x") throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + relative))
    }

    func testFindsEveryRegularFileRecursivelyInNameOrderSkippingHiddenOnes() throws {
        try write("z.jpg")
        try write("a/b/deep.png", "four")
        try write("a/m.jpg")
        try write(".hidden.jpg")
        try manager.createDirectory(atPath: root + "/.cache", withIntermediateDirectories: true)
        try write(".cache/thumb.jpg")

        let result = fileSystem.walk([root])

        XCTAssertEqual(result.files.map(\.path), [root + "/a/b/deep.png", root + "/a/m.jpg", root + "/z.jpg"])
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.files[0].stamp.size, 4)
    }

    func testLinksAreFollowedToTheFileTheyName() throws {
        try write("a/b/catalogue.sqlite")
        try manager.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a/b")
        try manager.createSymbolicLink(atPath: root + "/file-link", withDestinationPath: root + "/a/b/catalogue.sqlite")
        let real = fileSystem.resolvingLinks(root + "/a/b/catalogue.sqlite")

        XCTAssertEqual(fileSystem.resolvingLinks(root + "/link/catalogue.sqlite"), real)
        XCTAssertEqual(fileSystem.resolvingLinks(root + "/file-link"), real)
        XCTAssertEqual(fileSystem.resolvingLinks(root + "/link/not-yet.zip"), (real as NSString).deletingLastPathComponent + "/not-yet.zip",
                       "a file not there yet: its folder's real path")
        XCTAssertEqual(fileSystem.resolvingLinks("/no/such/folder/x.zip"), "/no/such/folder/x.zip")
    }

    func testAFileTooLargeToBeAPhotoIsNotReadWholeButItsFirstBytesAre() throws {
        try write("big.mov", "0123456789")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/big.mov"))
        try handle.truncate(atOffset: UInt64(LocalFileSystem.largestFileRead) + 1)  // sparse: no disk is used
        try handle.close()

        XCTAssertThrowsError(try fileSystem.contents(of: root + "/big.mov")) { error in
            XCTAssertEqual(error as? FileTooLarge, FileTooLarge(bytes: LocalFileSystem.largestFileRead + 1, limit: LocalFileSystem.largestFileRead))
            XCTAssertEqual(error.localizedDescription, "the file is too large to be a photo showhide reads: 1.0 GB (at most 1 GB)")
        }
        XCTAssertEqual(try fileSystem.head(of: root + "/big.mov", count: 4), Data("0123".utf8))
        XCTAssertEqual(try fileSystem.head(of: root + "/a/b/../../big.mov", count: 64).prefix(10), Data("0123456789".utf8))
        try write("short.jpg", "ab")
        XCTAssertEqual(try fileSystem.head(of: root + "/short.jpg", count: 16), Data("ab".utf8), "fewer when the file is shorter")
        XCTAssertThrowsError(try fileSystem.head(of: root + "/missing", count: 4)) { error in
            XCTAssertEqual(error.localizedDescription, "no such file or directory", "gone, not 'permission denied'")
        }
    }

    /// A file the disk will not take whole (a full disk; here a limit on file size, which fails the
    /// same `write`) leaves no part of itself beside the user's files.
    func testRootsThatOverlapFindEachFileOnce() throws {
        try write("a.jpg")
        try manager.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        try write("trip/b.jpg")
        let found = fileSystem.walk([root + "/a.jpg", root, root + "/trip"]).files.map(\.path)
        XCTAssertEqual(found, [root + "/a.jpg", root + "/trip/b.jpg"])
    }

    func testAFolderIsLockedAgainstOtherLockersWhileTheBodyRuns() throws {
        try manager.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        // Another process's attempt, as flock sees it: another open file description of the folder.
        let other = open(root + "/out", O_RDONLY | O_DIRECTORY)
        defer { close(other) }
        let tried = try fileSystem.whileLocking(root + "/out") { flock(other, LOCK_EX | LOCK_NB) == 0 ? 0 : errno }
        XCTAssertEqual(tried, EWOULDBLOCK, "held while the body runs")
        XCTAssertEqual(flock(other, LOCK_EX | LOCK_NB), 0, "let go after it")
        flock(other, LOCK_UN)
        XCTAssertEqual(try fileSystem.whileLocking(root + "/not-there") { 7 }, 7, "no folder yet: no other export wrote there")
    }

    func testAFileIsBeingWrittenWhileAWriterHoldsItLocked() throws {
        try write("show.jpg.partial")
        XCTAssertFalse(fileSystem.isBeingWritten(root + "/show.jpg.partial"), "left by a writer gone")
        let writer = open(root + "/show.jpg.partial", O_WRONLY)
        defer { close(writer) }
        XCTAssertEqual(flock(writer, LOCK_EX), 0)
        XCTAssertTrue(fileSystem.isBeingWritten(root + "/show.jpg.partial"))
        flock(writer, LOCK_UN)
        XCTAssertFalse(fileSystem.isBeingWritten(root + "/show.jpg.partial"))
        XCTAssertFalse(fileSystem.isBeingWritten(root + "/gone.partial"))
    }

    func testAPartOfAFileIsReadFromItsOffset() throws {
        try write("zip", "0123456789")
        XCTAssertEqual(try fileSystem.part(of: root + "/zip", from: 3, count: 4), Data("3456".utf8))
        XCTAssertEqual(try fileSystem.part(of: root + "/zip", from: 8, count: 4), Data("89".utf8), "fewer at its end")
        XCTAssertEqual(try fileSystem.part(of: root + "/zip", from: 10, count: 4), Data())
        XCTAssertThrowsError(try fileSystem.part(of: root + "/gone", from: 0, count: 4))
    }

    func testAWriteThatFailsLeavesNoPartialFile() throws {
        let ignored = signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        var small = limit
        small.rlim_cur = 4_096
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small)
        let failure = Result { try fileSystem.writeAtomically(Data(count: 100_000), to: root + "/a/export.jpg") }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        signal(SIGXFSZ, ignored)

        XCTAssertThrowsError(try failure.get()) { error in
            XCTAssertEqual((error as? FileWriteError)?.what, "cannot write \(root!)/a/export.jpg")
        }
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: root + "/a").filter { $0 != "b" }, [], "no .partial left")
    }

    func testAStampIsAFilesAloneWithoutAWalk() throws {
        try write("a/m.jpg", "four")
        XCTAssertEqual(fileSystem.stamp(of: root + "/a/m.jpg")?.size, 4)
        XCTAssertNil(fileSystem.stamp(of: root + "/a"), "a folder where the photo was is no file of it")
        XCTAssertNil(fileSystem.stamp(of: root + "/gone.jpg"))
    }

    func testStampsCarryTheModificationTimeToTheNanosecond() throws {
        try write("a.jpg")
        let date = Date(timeIntervalSince1970: 1_600_000_000.123456)
        try manager.setAttributes([.modificationDate: date], ofItemAtPath: root + "/a.jpg")
        var info = stat()
        XCTAssertEqual(stat(root + "/a.jpg", &info), 0)
        let expected = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        XCTAssertEqual(fileSystem.walk([root + "/a.jpg"]).files, [FoundFile(path: root + "/a.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: expected))])
        XCTAssertEqual(expected / 1_000_000_000, 1_600_000_000)
    }

    func testASymbolicLinkLoopIsReportedAndTheWalkGoesOn() throws {
        try write("a/b/photo.jpg")
        try manager.createSymbolicLink(atPath: root + "/a/b/up", withDestinationPath: root + "/a")

        let result = fileSystem.walk([root])

        XCTAssertEqual(result.files.map(\.path), [root + "/a/b/photo.jpg"])
        XCTAssertEqual(result.problems, [WalkProblem(path: root + "/a/b/up", reason: "symbolic link loop: this folder contains itself")])
    }

    func testAFolderLinkedTwiceIsWalkedOnce() throws {
        try write("a/b/photo.jpg")
        try manager.createSymbolicLink(atPath: root + "/again", withDestinationPath: root + "/a")
        let result = fileSystem.walk([root])
        XCTAssertEqual(result.files.map(\.path), [root + "/a/b/photo.jpg"])
        XCTAssertEqual(result.problems, [])
    }

    func testAPhotoIsFoundByItsOwnPathBeforeALinkThatSortsFirst() throws {
        try manager.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        try write("trip/a.jpg")
        try write("z.jpg")
        try manager.createSymbolicLink(atPath: root + "/a-link", withDestinationPath: "trip")
        try manager.createSymbolicLink(atPath: root + "/a/b-link.jpg", withDestinationPath: root + "/z.jpg")
        try manager.createSymbolicLink(atPath: root + "/a/outside", withDestinationPath: root + "/trip")

        let result = fileSystem.walk([root + "/a", root + "/trip", root + "/z.jpg"])

        XCTAssertEqual(result.files.map(\.path), [root + "/trip/a.jpg", root + "/z.jpg", root + "/a/b-link.jpg"],
                       "the link's folder walked already, its file listed after the real ones")
        XCTAssertEqual(fileSystem.walk([root]).files.map(\.path), [root + "/trip/a.jpg", root + "/z.jpg", root + "/a/b-link.jpg"])
        XCTAssertEqual(fileSystem.walk([root + "/a"]).files.map(\.path), [root + "/a/b-link.jpg", root + "/a/outside/a.jpg"],
                       "a link to a folder outside the walk is walked")
    }

    func testBrokenLinksAndMissingRootsAreProblems() throws {
        try manager.createSymbolicLink(atPath: root + "/dangling.jpg", withDestinationPath: root + "/nowhere.jpg")
        let result = fileSystem.walk([root, root + "/missing"])
        XCTAssertEqual(result.problems, [
            WalkProblem(path: root + "/missing", reason: "no such file or directory"),
            WalkProblem(path: root + "/dangling.jpg", reason: "broken symbolic link"),
        ])
    }

    func testANamedPipeIsNoFile() throws {
        let pipe = root + "/a/pipe.jpg"
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        // Named, it is a problem said in words; inside a folder, passed over as a non-photo is.
        XCTAssertEqual(fileSystem.walk([pipe]).problems, [WalkProblem(path: pipe, reason: "not a file but a named pipe")])
        let walked = fileSystem.walk([root])
        XCTAssertEqual(walked.files.map(\.path), [], "\(walked.files)")
        XCTAssertEqual(walked.problems, [])
        // Read, it fails at once rather than wait for a writer.
        XCTAssertThrowsError(try fileSystem.contents(of: pipe)) { error in
            XCTAssertEqual(error as? NotAFile, NotAFile(kind: "a named pipe"))
        }
    }

    func testLinksThatLeadBackToThemselvesAndNamesThatAreNotUTF8AreProblemsNotLostFiles() throws {
        try manager.createSymbolicLink(atPath: root + "/loop-a.jpg", withDestinationPath: "loop-b.jpg")
        try manager.createSymbolicLink(atPath: root + "/loop-b.jpg", withDestinationPath: "loop-a.jpg")
        let name = Array((root + "/bad-").utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)
        try write("good.jpg")

        let result = fileSystem.walk([root])

        XCTAssertEqual(result.files.map(\.path), [root + "/good.jpg"])
        XCTAssertEqual(result.problems, [
            WalkProblem(path: root + "/bad-\u{FFFD}\u{FFFD}.jpg",
                        reason: "the name is not valid UTF-8 (shown with \u{FFFD} for the bytes that are not): rename it to import it"),
            WalkProblem(path: root + "/loop-a.jpg", reason: "symbolic link loop: the links lead back to themselves"),
            WalkProblem(path: root + "/loop-b.jpg", reason: "symbolic link loop: the links lead back to themselves"),
        ])
    }

    func testWritingAtomicallyMakesFoldersReplacesAndLeavesNoTemporaryFile() throws {
        let path = root + "/new/deeper/file.jpg"
        try fileSystem.writeAtomically(Data("first".utf8), to: path)
        try fileSystem.writeAtomically(Data("second".utf8), to: path)
        XCTAssertEqual(try fileSystem.contents(of: path), Data("second".utf8))
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: root + "/new/deeper"), ["file.jpg"])
        try write("plain")
        XCTAssertThrowsError(try fileSystem.writeAtomically(Data(), to: root + "/plain/under-a-file.jpg"))
    }

    func testAFolderRemovedByAnotherShowhideBeforeTheFileIsInItIsMadeAgain() throws {
        let folder = root + "/variants/ab/abcdef"
        var removals = 0
        try LocalFileSystem.writeAtomically(Data("show".utf8), to: folder + "/show.jpg", mode: 0o664) {
            // What another run's removal of the folders it emptied does, at the worst instant, twice.
            if removals < 2, rmdir(folder) == 0, rmdir(root + "/variants/ab") == 0 { removals += 1 }
        }
        XCTAssertEqual(removals, 2)
        XCTAssertEqual(try fileSystem.contents(of: folder + "/show.jpg"), Data("show".utf8))
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: folder), ["show.jpg"], "no temporary file left")
    }

    func testAFolderRemovedAgainAndAgainIsAFailureNamingTheFile() throws {
        let folder = root + "/gone"
        var removals = 0
        XCTAssertThrowsError(try LocalFileSystem.writeAtomically(Data("x".utf8), to: folder + "/x.jpg", mode: 0o664) {
            if rmdir(folder) == 0 { removals += 1 }
        }) { error in
            XCTAssertEqual((error as? FileWriteError)?.what, "cannot create \(folder)/x.jpg")
            XCTAssertEqual((error as? FileWriteError)?.reason, "no such file or directory")
        }
        XCTAssertEqual(removals, LocalFileSystem.attemptsAtAVanishingFolder)
    }

    func testFilesFollowTheUmaskAndAreNeverWritableByOthers() throws {
        func modes(writingUnder mask: mode_t) throws -> (folder: mode_t, file: mode_t) {
            let previous = umask(mask)
            defer { umask(previous) }
            let path = root + "/mode-\(mask)/file.jpg"
            try fileSystem.writeAtomically(Data("x".utf8), to: path)
            var folder = stat(), file = stat()
            XCTAssertEqual(stat(root + "/mode-\(mask)", &folder), 0)
            XCTAssertEqual(stat(path, &file), 0)
            return (folder.st_mode & 0o777, file.st_mode & 0o777)
        }
        XCTAssertTrue(try modes(writingUnder: 0o022) == (0o755, 0o644))
        XCTAssertTrue(try modes(writingUnder: 0o077) == (0o700, 0o600))
        XCTAssertTrue(try modes(writingUnder: 0) == (0o775, 0o664), "even with no umask, others cannot write")
    }

    func testASecretIsReadableByItsOwnerAloneWhateverTheUmaskAndWhatWasThere() throws {
        let path = root + "/secret"
        try fileSystem.writeAtomically(Data("old".utf8), to: path)
        let previous = umask(0)
        defer { umask(previous) }
        try fileSystem.writePrivately(Data("new".utf8), to: path)
        var file = stat()
        XCTAssertEqual(stat(path, &file), 0)
        XCTAssertEqual(file.st_mode & 0o777, 0o600)
        XCTAssertEqual(try fileSystem.contents(of: path), Data("new".utf8))
    }

    func testOnlyAnEmptyFolderIsRemovedAsEmpty() throws {
        try write("a/m.jpg")
        XCTAssertFalse(fileSystem.removeFolderIfEmpty(root + "/a"), "it holds a file and a folder")
        XCTAssertTrue(fileSystem.exists(root + "/a/m.jpg"))
        XCTAssertFalse(fileSystem.removeFolderIfEmpty(root + "/a/m.jpg"), "a file is no folder")
        XCTAssertTrue(fileSystem.exists(root + "/a/m.jpg"))
        XCTAssertTrue(fileSystem.removeFolderIfEmpty(root + "/a/b"))
        XCTAssertFalse(fileSystem.exists(root + "/a/b"))
        XCTAssertFalse(fileSystem.removeFolderIfEmpty(root + "/a/b"), "gone")
    }

    func testExistenceAndContents() throws {
        try write("a.jpg", "abc")
        XCTAssertTrue(fileSystem.exists(root + "/a.jpg"))
        XCTAssertFalse(fileSystem.exists(root + "/b.jpg"))
        XCTAssertEqual(try fileSystem.contents(of: root + "/a.jpg"), Data("abc".utf8))
    }
}

/// The fake answers as the real file system does where the services rely on it.
final class FakeFileSystemContractTests: XCTestCase {
    /// What `removeFolderIfEmpty` answers, step by step, on `files` with its folders under `root`: the same
    /// scenario for the real file system and the fake.
    static func removals(on files: any FileSystem, under root: String) throws -> [Bool] {
        try files.writeAtomically(Data([1]), to: root + "/a/m.jpg")
        try files.writeAtomically(Data([2]), to: root + "/a/b/n.jpg")
        var answers = [
            files.removeFolderIfEmpty(root + "/a"),        // it holds a file and a folder
            files.removeFolderIfEmpty(root + "/a/m.jpg"),  // a file is no folder
            files.removeFolderIfEmpty(root + "/never"),    // a folder never made is not there to remove
        ]
        try files.remove(root + "/a/b/n.jpg")
        answers += [files.removeFolderIfEmpty(root + "/a/b"), files.removeFolderIfEmpty(root + "/a/b")]  // once, then gone
        try files.remove(root + "/a/m.jpg")
        answers.append(files.removeFolderIfEmpty(root + "/a"))
        return answers
    }

    func testOnlyAFolderThatHeldAFileAndHoldsNoneIsRemovedAndOnlyOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-contract-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let real = try Self.removals(on: LocalFileSystem(), under: root)
        let fake = FakeFileSystem()
        XCTAssertEqual(try Self.removals(on: fake, under: "/lib"), real, "the fake answers as the real one")
        XCTAssertEqual(real, [false, false, false, true, false, true])
        XCTAssertEqual(fake.removedFolders, ["/lib/a/b", "/lib/a"])
    }
}

final class PathWithinTests: XCTestCase {
    func testAPathIsWithinItsFolderAndTheFolderItselfButNotASiblingWithTheSamePrefix() {
        XCTAssertTrue(path("/a/b.jpg", isWithin: "/a"))
        XCTAssertTrue(path("/a/sub/b.jpg", isWithin: "/a/"))
        XCTAssertTrue(path("/a/b.jpg", isWithin: "/a/b.jpg"), "a file named as the root")
        XCTAssertTrue(path("/a", isWithin: "/a/"))
        XCTAssertFalse(path("/ab/c.jpg", isWithin: "/a"))
        XCTAssertFalse(path("/a", isWithin: "/a/b"))
    }
}
