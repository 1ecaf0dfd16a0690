import Catalogue
import Foundation
import Imaging
import Services
import XCTest

/// Files held in memory. Reading a path it was not given fails the test: a service read what it should not.
public final class FakeFileSystem: FileSystem, @unchecked Sendable {
    public struct Missing: Error, LocalizedError {
        public let path: String
        public var errorDescription: String? { "no such file: \(path)" }
    }

    private let lock = NSLock()
    private var files: [String: Data]
    /// Each file put at a path is another file (`identity(of:)`), as a rename over it makes one.
    private var identities: [String: UInt64] = [:]
    private var nextIdentity: UInt64 = 0

    private func newIdentity(for path: String) {
        nextIdentity += 1
        identities[path] = nextIdentity
    }
    private var reads: [String] = []
    /// Paths that may be asked for and are expected to be missing.
    public var expectedMissing: Set<String> = []
    /// Files a walk lists whose reading fails with "permission denied", as one of mode 000 does.
    public var unreadable: Set<String> = []

    public init(files: [String: Data] = [:]) {
        self.files = files
        for path in files.keys { Self.addFolders(of: path, to: &folders) }
    }

    /// The folders that hold or held a file, as a real one's would still be there once emptied, until removed.
    private var folders: Set<String> = []

    private static func addFolders(of path: String, to folders: inout Set<String>) {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > 1, folders.insert(folder).inserted { folder = (folder as NSString).deletingLastPathComponent }
    }

    /// Called with each path about to be read, outside the lock, so that a test can hold one read
    /// until something else has happened.
    public var beforeRead: (@Sendable (String) -> Void)? {
        get { lock.withLock { onRead } }
        set { lock.withLock { onRead = newValue } }
    }
    private var onRead: (@Sendable (String) -> Void)?

    /// The paths whose first bytes alone were read.
    public var headReads: [String] { lock.withLock { heads } }
    private var heads: [String] = []

    public func head(of path: String, count: Int) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        heads.append(path)
        guard let data = files[path] else {
            if !expectedMissing.contains(path) { XCTFail("unexpected read of \(path)") }
            throw Missing(path: path)
        }
        return data.prefix(count)
    }

    /// The parts read, as path and offset, in order.
    public var partReads: [(path: String, offset: Int64)] { lock.withLock { parts } }
    private var parts: [(path: String, offset: Int64)] = []

    public func part(of path: String, from offset: Int64, count: Int) throws -> Data {
        try lock.withLock {
            parts.append((path, offset))
            guard let data = files[path] else {
                if !expectedMissing.contains(path) { XCTFail("unexpected read of \(path)") }
                throw Missing(path: path)
            }
            return Data(data.dropFirst(Int(offset)).prefix(count))
        }
    }

    public func contents(of path: String) throws -> Data {
        beforeRead?(path)
        lock.lock()
        defer { lock.unlock() }
        reads.append(path)
        if unreadable.contains(path) { throw Undeletable(path: path) }
        guard let data = files[path] else {
            if !expectedMissing.contains(path) { XCTFail("unexpected read of \(path)") }
            throw Missing(path: path)
        }
        return data
    }

    public func walk(_ roots: [String]) -> WalkResult {
        lock.lock()
        defer { lock.unlock() }
        let files = self.files.keys.sorted().filter { path in
            roots.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        return WalkResult(files: files.map { FoundFile(path: $0, stamp: stamps[$0] ?? Self.stamp(for: self.files[$0]!)) },
                          problems: walkProblems)
    }

    public func identity(of path: String) -> FileIdentity? {
        lock.withLock { files[path] == nil ? nil : FileIdentity(device: 1, inode: identities[path] ?? 0) }
    }

    public func stamp(of path: String) -> FileStamp? {
        lock.withLock { files[path].map { stamps[path] ?? Self.stamp(for: $0) } }
    }

    /// Symbolic links, link path to target, for `resolvingLinks`.
    public var links: [String: String] = [:]

    public func resolvingLinks(_ path: String) -> String {
        lock.withLock { links.first { path == $0.key || path.hasPrefix($0.key + "/") }.map { $0.value + path.dropFirst($0.key.count) } ?? path }
    }

    /// A file, or a folder that holds one.
    public func exists(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let folder = path.hasSuffix("/") ? path : path + "/"
        return files[path] != nil || files.keys.contains { $0.hasPrefix(folder) }
    }

    /// Called inside each `whileLocking`, before its body: what another process does meanwhile is done here,
    /// where the real lock would make it wait.
    public var whileLocked: (@Sendable (String) -> Void)? {
        get { lock.withLock { onLocked } }
        set { lock.withLock { onLocked = newValue } }
    }
    private var onLocked: (@Sendable (String) -> Void)?

    public func whileLocking<T>(_ folder: String, _ body: () throws -> T) throws -> T {
        whileLocked?(folder)
        return try body()
    }

    /// Paths another process is writing now (`isBeingWritten`).
    public var beingWritten: Set<String> {
        get { lock.withLock { writing } }
        set { lock.withLock { writing = newValue } }
    }
    private var writing: Set<String> = []

    public func isBeingWritten(_ path: String) -> Bool { beingWritten.contains(path) }

    /// What every write throws, when set (a full disk).
    public var writeFailure: (any Error & Sendable)? {
        get { lock.withLock { failingWrites } }
        set { lock.withLock { failingWrites = newValue } }
    }
    private var failingWrites: (any Error & Sendable)?

    public func writeAtomically(_ data: Data, to path: String) throws {
        if let writeFailure { throw writeFailure }
        lock.withLock {
            files[path] = data
            newIdentity(for: path)
            Self.addFolders(of: path, to: &folders)
            writes.append(path)
            privatePaths.remove(path)
        }
    }

    /// Paths written by `writePrivately` (readable by their owner alone), and not written otherwise since.
    public private(set) var privatePaths: Set<String> = []

    public func writePrivately(_ data: Data, to path: String) throws {
        lock.withLock {
            files[path] = data
            newIdentity(for: path)
            Self.addFolders(of: path, to: &folders)
            writes.append(path)
            privatePaths.insert(path)
        }
    }

    /// "permission denied": a file that may not be read or removed.
    public struct Undeletable: Error, LocalizedError {
        public let path: String
        public var errorDescription: String? { "permission denied" }
    }

    /// Paths whose removal fails, as a file on a read-only mount's would.
    public var undeletable: Set<String> = []

    public func remove(_ path: String) throws {
        try lock.withLock {
            if undeletable.contains(path) { throw Undeletable(path: path) }
            files[path] = nil
        }
    }

    /// The folders `removeFolderIfEmpty` deleted, in order: those that held a file and hold none now (its
    /// folders are the paths of its files), each once, as `rmdir` removes a folder once.
    public var removedFolders: [String] { lock.withLock { emptied } }
    private var emptied: [String] = []

    public func removeFolderIfEmpty(_ path: String) -> Bool {
        lock.withLock {
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard folders.contains(folder), !files.keys.contains(where: { $0.hasPrefix(folder + "/") }) else { return false }
            guard !folders.contains(where: { $0.hasPrefix(folder + "/") }) else { return false }
            folders.remove(folder)
            emptied.append(path)
            return true
        }
    }

    /// The paths written, in order.
    public var writtenPaths: [String] { lock.withLock { writes } }
    private var writes: [String] = []

    /// Adds, replaces or (with nil) removes a file.
    public subscript(path: String) -> Data? {
        get { lock.withLock { files[path] } }
        set {
            lock.withLock {
                files[path] = newValue
                if newValue != nil {
                    newIdentity(for: path)
                    Self.addFolders(of: path, to: &folders)
                }
            }
        }
    }

    /// Sets the stamp a file shows when walked (by default its size and a fixed time).
    public func setStamp(_ stamp: FileStamp, for path: String) {
        lock.withLock { stamps[path] = stamp }
    }

    /// Problems every walk reports.
    public var walkProblems: [WalkProblem] = []
    private var stamps: [String: FileStamp] = [:]

    static func stamp(for data: Data) -> FileStamp {
        FileStamp(size: Int64(data.count), modifiedAtNanoseconds: 1_000_000_000)
    }

    /// Forgets which paths were read.
    public func resetReads() {
        lock.withLock { reads.removeAll() }
    }

    /// The paths read, in order.
    public var readPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return reads
    }
}

/// A decoder that returns or throws what it is told for each input, and fails the test for any other input.
public final class StubDecoder: ImageDecoding, @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Data: Result<DecodedImage, any Error>] = [:]
    private(set) public var calls: [(data: Data, options: DecodeOptions)] = []

    public init() {}

    public func stub(_ data: Data, with result: Result<DecodedImage, any Error>) {
        lock.lock()
        results[data] = result
        lock.unlock()
    }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        lock.lock()
        calls.append((data, options))
        let result = results[data]
        lock.unlock()
        guard let result else {
            XCTFail("unexpected decode of \(data.count) bytes")
            throw CancellationError()
        }
        return try result.get()
    }
}

/// An EXIF reader that returns what it is told, and fails the test when it was not told.
public final class StubExifReader: ExifReading, @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Data: Result<ExifMetadata?, any Error>] = [:]
    private var xmp: [Data: String] = [:]

    public init() {}

    public func stub(_ data: Data, with result: Result<ExifMetadata?, any Error>) {
        lock.lock()
        results[data] = result
        lock.unlock()
    }

    public func readExif(from data: Data) throws -> ExifMetadata? {
        lock.lock()
        let result = results[data]
        lock.unlock()
        guard let result else {
            XCTFail("unexpected EXIF read of \(data.count) bytes")
            return nil
        }
        return try result.get()
    }

    public func uprightExifBlock(from data: Data) -> Data? {
        XCTFail("unexpected EXIF block read of \(data.count) bytes")
        return nil
    }

    /// Photos read for their EXIF are read for their XMP too: none unless stubbed.
    public func xmpPacket(from data: Data) -> String? {
        lock.withLock { xmp[data] }
    }

    public func stubXMP(_ data: Data, with packet: String) {
        lock.withLock { xmp[data] = packet }
    }

    public func removingGPS(from block: Data) -> Data? {
        XCTFail("unexpected GPS removal from \(block.count) bytes")
        return nil
    }

    public func removingGPS(fromJPEG data: Data) -> Data? {
        XCTFail("unexpected GPS removal from a \(data.count)-byte JPEG")
        return nil
    }
}

/// An encoder that must never be called.
public struct UnusedEncoder: ImageEncoding {
    public init() {}

    public func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        XCTFail("unexpected encode of a \(image.width)×\(image.height) image")
        return Data()
    }

    public func encode(_ rows: RowSource, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        XCTFail("unexpected encode of \(rows.width)×\(rows.height) rows")
        return Data()
    }
}

/// A list that callbacks on any thread can append to.
public final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    public init() {}

    public func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    public var items: [Element] { lock.withLock { storage } }
}

/// Runs a service's jobs as the live runner does, but first lets the other jobs the service has
/// started catch up: each job yields its thread (never blocks it) until `meeting` jobs have been in
/// flight at once, or until it has yielded `turns` times. `maximumInFlight` is then how many jobs the
/// service had started and not finished at once — the same on one core as on many, with no clock.
public final class OverlapProbe: JobRunner, @unchecked Sendable {
    private let lock = NSLock()
    private let meeting: Int
    private let turns: Int
    private var inFlight = 0
    private var maximum = 0

    public init(meeting: Int, turns: Int = 1000) {
        self.meeting = meeting
        self.turns = turns
    }

    public var maximumInFlight: Int { lock.withLock { maximum } }

    public func run<Output: Sendable>(_ job: @escaping @Sendable () -> Output) async -> Output {
        lock.withLock {
            inFlight += 1
            maximum = max(maximum, inFlight)
        }
        var turn = 0
        while maximumInFlight < meeting, turn < turns {
            turn += 1
            await Task.yield()
        }
        let output = job()
        lock.withLock { inFlight -= 1 }
        return output
    }
}

/// Ctrl-C pressed once a command has started `allowed` jobs: asked each time a job would start,
/// it says "stop" from then on.
public final class CountdownInterruption: Interruption, @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int

    public init(allowing allowed: Int) {
        left = allowed
    }

    public var isRequested: Bool {
        lock.withLock {
            left -= 1
            return left < 0
        }
    }
}
