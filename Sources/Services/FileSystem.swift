import Catalogue
import Foundation
import Imaging
#if canImport(Glibc)
import Glibc
#endif

/// A regular file found while walking, with what it looked like.
public struct FoundFile: Equatable, Sendable {
    public var path: String
    public var stamp: FileStamp

    public init(path: String, stamp: FileStamp) {
        self.path = path
        self.stamp = stamp
    }
}

/// Everything under some folders: the files, and the places that could not be walked.
public struct WalkResult: Equatable, Sendable {
    public var files: [FoundFile]
    /// Folders that could not be read, symbolic-link loops, broken links: each with a reason.
    public var problems: [WalkProblem]

    public init(files: [FoundFile] = [], problems: [WalkProblem] = []) {
        self.files = files
        self.problems = problems
    }
}

public struct WalkProblem: Equatable, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// A file as the system knows it, whatever its name: its device and inode.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// The file system as services see it, so tests can hand them a fake.
public protocol FileSystem: Sendable {
    /// The whole contents of the file at `path`.
    func contents(of path: String) throws -> Data
    /// The first `count` bytes of the file at `path` (fewer when it is shorter), without reading the rest.
    func head(of path: String, count: Int) throws -> Data
    /// `count` bytes of the file at `path` from `offset` (fewer at its end), without reading the rest: a
    /// file too large to read whole (a download's zip) is sent a part at a time.
    func part(of path: String, from offset: Int64, count: Int) throws -> Data
    /// Every regular file under `roots` (folders recursively, or files named directly), in a stable order.
    func walk(_ roots: [String]) -> WalkResult
    /// Whether something exists at `path`.
    func exists(_ path: String) -> Bool
    /// Writes `data` under a temporary name beside `path`, then renames it into place, creating
    /// folders as needed: `path` never holds a half-written file.
    func writeAtomically(_ data: Data, to path: String) throws
    /// As `writeAtomically`, the file readable and writable by its owner alone (a secret).
    func writePrivately(_ data: Data, to path: String) throws
    func remove(_ path: String) throws
    /// Deletes the folder at `path` when it holds nothing; false, and nothing done, when it holds something,
    /// is gone, or is no folder.
    func removeFolderIfEmpty(_ path: String) -> Bool
    /// The size and modification time of the regular file at `path`, links followed; nil when there is
    /// none (gone, or a folder now), without walking anything.
    func stamp(of path: String) -> FileStamp?
    /// Which file `path` names now, links followed: another file put in its place (a backup copied over
    /// it) is another identity, whatever its size and time; nil when there is none.
    func identity(of path: String) -> FileIdentity?
    /// `path` with every symbolic link in it followed, so that two spellings of one file compare equal;
    /// as written where nothing of it exists.
    func resolvingLinks(_ path: String) -> String
    /// `body`, run while this process holds the folder at `folder` locked against every other process
    /// that asks the same (an advisory lock: two exports writing one manifest); `body` alone when the
    /// folder cannot be locked (not there yet: no other export wrote in it).
    func whileLocking<T>(_ folder: String, _ body: () throws -> T) throws -> T
    /// Whether a process is writing the file at `path` now (it holds it locked, as `writeAtomically` does
    /// its temporary file until it is renamed): false for one a killed process left.
    func isBeingWritten(_ path: String) -> Bool
}

/// What a name whose bytes are not UTF-8 is said to be: Swift has it as text, with U+FFFD for those
/// bytes, and that text names no file.
public let notUTF8 = "not valid UTF-8 (shown with \u{FFFD} for the bytes that are not)"

/// A path that names something other than a file or a folder: a named pipe, a socket, a device.
public struct NotAFile: Error, Equatable, LocalizedError {
    public var kind: String
    public init(kind: String) { self.kind = kind }
    public var errorDescription: String? { "not a file but \(kind)" }

    /// What `path` is when it is neither a file nor a folder (links followed), in words: "a named pipe",
    /// "a socket", "a device"; nil otherwise, or when there is nothing there.
    public static func kind(at path: String) -> String? {
        var info = stat()
        return stat(path, &info) == 0 ? Walker.specialKind(info) : nil
    }
}

/// A file that could not be read, with the system's reason ("no such file or directory").
public struct FileReadError: Error, Equatable, LocalizedError {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var errorDescription: String? { reason }
}

/// A file too large to be read whole (`LocalFileSystem.largestFileRead`).
public struct FileTooLarge: Error, Equatable, LocalizedError {
    public var bytes: Int64
    public var limit: Int64
    public init(bytes: Int64, limit: Int64) {
        self.bytes = bytes
        self.limit = limit
    }
    public var errorDescription: String? {
        String(format: "the file is too large to be a photo showhide reads: %.1f GB (at most %.0f GB)",
               Double(bytes) / Double(1 << 30), Double(limit) / Double(1 << 30))
    }
}

/// A file or folder the local file system could not write, with the system's reason.
public struct FileWriteError: Error, Equatable, LocalizedError {
    /// What was being done, with the path: "cannot create the folder /x".
    public var what: String
    public var reason: String
    /// The system's error number, where the system gave one (0 otherwise): not part of what is said.
    var code: Int32 = 0

    public init(_ what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    public var errorDescription: String? { "\(what): \(reason)" }

    public static func == (left: FileWriteError, right: FileWriteError) -> Bool {
        left.what == right.what && left.reason == right.reason
    }
}

/// The suffix of files being written: anything with it after a crash is a leftover.
public let partialFileSuffix = ".partial"

/// The real file system.
public struct LocalFileSystem: FileSystem {
    public init() {}

    /// The most a file read whole may weigh: more than any photo showhide can decode in memory, and
    /// a video or a disk image of gigabytes read whole could take all the memory there is.
    public static let largestFileRead: Int64 = 1 << 30

    public func contents(of path: String) throws -> Data {
        // A named pipe or a device is no photo, and reading one may never end.
        var info = stat()
        if stat(path, &info) == 0 {
            if let kind = Walker.specialKind(info) { throw NotAFile(kind: kind) }
            if Int64(info.st_size) > Self.largestFileRead { throw FileTooLarge(bytes: Int64(info.st_size), limit: Self.largestFileRead) }
        }
        // Read, not mapped: a mapped file that shrinks under us would crash the process.
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    public func head(of path: String, count: Int) throws -> Data {
        try part(of: path, from: 0, count: count)
    }

    public func part(of path: String, from offset: Int64, count: Int) throws -> Data {
        var info = stat()
        if stat(path, &info) == 0, let kind = Walker.specialKind(info) { throw NotAFile(kind: kind) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(reason: systemErrorReason(errno)) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw FileReadError(reason: systemErrorReason(errno)) }
            if read == 0 { break }
            filled += read
        }
        return Data(bytes.prefix(filled))
    }

    public func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    public func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, Walker.isRegular(info) else { return nil }
        return Walker.stamp(info)
    }

    public func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(info)
    }

    public func resolvingLinks(_ path: String) -> String {
        // A file not there yet: its folder's real path, with its own name.
        for candidate in [path, (path as NSString).deletingLastPathComponent] {
            guard let real = realpath(candidate, nil) else { continue }
            defer { free(real) }
            let resolved = String(cString: real)
            return candidate == path ? resolved : (resolved as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        }
        return path
    }

    public func writeAtomically(_ data: Data, to path: String) throws {
        try Self.writeAtomically(data, to: path, mode: 0o664)
    }

    public func writePrivately(_ data: Data, to path: String) throws {
        try Self.writeAtomically(data, to: path, mode: 0o600)
    }

    /// `beforeCreating` runs between making the folder and creating the file in it: a test's way in.
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t, beforeCreating: () -> Void = {}) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = path + "." + UUID().uuidString + partialFileSuffix
        // Another showhide removes variant folders it has emptied: one made here can go before the file is
        // in it, and is then made again (a folder holding a file is never removed).
        for attempt in 1...Self.attemptsAtAVanishingFolder {
            do {
                try Self.makeFolders(folder)
                beforeCreating()
                // Renamed while still open and locked: a process clearing leftovers takes a partial file away
                // only when no writer holds it (`isBeingWritten`).
                try Self.create(temporary, with: data, named: path, mode: mode) {
                    guard rename(temporary, path) == 0 else { throw Self.posixError("cannot write \(path)") }
                }
                break
            } catch let error as FileWriteError where error.code == ENOENT && attempt < Self.attemptsAtAVanishingFolder {
                continue
            } catch {
                // A full disk: the part written is taken away, not left beside the user's files.
                unlink(temporary)
                throw error
            }
        }
    }

    public func isBeingWritten(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    public func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: path)
    }

    public func whileLocking<T>(_ folder: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    public func removeFolderIfEmpty(_ path: String) -> Bool {
        // rmdir deletes nothing but an empty folder: a file put there meanwhile is never lost.
        rmdir(path) == 0
    }

    /// A new file holding `data`, created with mode 0664 less the user's umask: the umask decides, and
    /// the file is never writable by others whatever it is.
    /// Errors name the file as `name` (the path the user knows, not the temporary one).
    /// - Parameter beforeClosing: run while the file is still open and locked, its bytes written.
    static func create(_ path: String, with data: Data, named name: String? = nil, mode: mode_t = 0o664,
                       beforeClosing: () throws -> Void = {}) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw posixError("cannot create \(name ?? path)") }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError("cannot write \(name ?? path)")
                }
                offset += written
            }
        }
        try beforeClosing()
    }

    /// The folder and any missing parents, each with mode 0775 less the umask (never writable by others).
    static func makeFolders(_ path: String) throws {
        var info = stat()
        if path.isEmpty || stat(path, &info) == 0 { return }
        try makeFolders((path as NSString).deletingLastPathComponent)
        guard mkdir(path, 0o775) == 0 || errno == EEXIST else { throw posixError("cannot create the folder \(path)") }
    }

    private static func posixError(_ what: String) -> FileWriteError {
        let code = errno
        var error = FileWriteError(what, reason: systemErrorReason(code))
        error.code = code
        return error
    }

    /// How often a file is written again into a folder removed under it before the failure is said.
    static let attemptsAtAVanishingFolder = 4

    public func walk(_ roots: [String]) -> WalkResult {
        var walker = Walker()
        for root in roots {
            var info = stat()
            guard stat(root, &info) == 0 else {
                walker.problem(root, systemErrorReason(errno))
                continue
            }
            if Walker.isDirectory(info) {
                walker.walkDirectory(root, info: info, ancestors: [])
            } else if Walker.isRegular(info) {
                walker.result.files.append(FoundFile(path: root, stamp: Walker.stamp(info)))
            } else if let kind = Walker.specialKind(info) {
                // Named, so said; inside a folder such a thing is passed over without a count.
                walker.problem(root, NotAFile(kind: kind).errorDescription!)
            }
        }
        walker.walkLinks()
        // Roots that overlap (`import a.jpg .`, `import photos photos/2024`) name some files twice: found once.
        if roots.count > 1 {
            var seen = Set<String>()
            walker.result.files.removeAll { !seen.insert($0.path).inserted }
        }
        return walker.result
    }
}

extension FileIdentity {
    init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// Recursive walk with loop detection by device and inode.
private struct Walker {
    var result = WalkResult()
    var walked = Set<FileIdentity>()
    /// Folders and files reached through a symbolic link inside a folder walked: walked after every
    /// real path, so that a photo is found by its own path and a link to a folder of the same walk
    /// adds nothing (it used to claim the folder's photos for its own path, whichever name sorted first).
    var links: [(path: String, ancestors: Set<FileIdentity>)] = []

    mutating func problem(_ path: String, _ reason: String) {
        result.problems.append(WalkProblem(path: path, reason: reason))
    }

    mutating func walkDirectory(_ path: String, info: stat, ancestors: Set<FileIdentity>) {
        let identity = FileIdentity(info)
        if ancestors.contains(identity) {
            problem(path, "symbolic link loop: this folder contains itself")
            return
        }
        // A folder reached again through another link was walked already.
        guard walked.insert(identity).inserted else { return }
        guard let directory = opendir(path) else {
            problem(path, "cannot read the folder: \(systemErrorReason(errno))")
            return
        }
        var names: [String] = []
        var linked: Set<String> = []
        var undecodable: [String] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let name = String(decoding: bytes, as: UTF8.self)
            // Hidden files and folders (thumbnails caches, .git) are not photos of the library.
            if name.hasPrefix(".") { continue }
            // Some file systems (XFS without ftype, network and FUSE mounts) say no type: asked then.
            let type = entry.pointee.d_type
            if type == UInt8(DT_LNK) || (type == UInt8(DT_UNKNOWN) && Self.isLink((path.hasSuffix("/") ? path : path + "/") + name)) {
                linked.insert(name)
            }
            // A path is text everywhere after this (catalogue, exports, pages): a name that is not
            // UTF-8 cannot be opened again from its text, so it is reported rather than lost.
            if String(validating: bytes, as: UTF8.self) == nil {
                undecodable.append(name)
                continue
            }
            names.append(name)
        }
        closedir(directory)
        for name in undecodable.sorted() {
            problem(path.hasSuffix("/") ? path + name : path + "/" + name,
                    "the name is \(notUTF8): rename it to import it")
        }
        let inside = ancestors.union([identity])
        for name in names.sorted() {
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            if linked.contains(name) {
                links.append((child, inside))
                continue
            }
            visit(child, ancestors: inside)
        }
    }

    /// The links put off, in the order found; a folder reached through one may hold more.
    mutating func walkLinks() {
        var next = 0
        while next < links.count {
            let (path, ancestors) = links[next]
            visit(path, ancestors: ancestors)
            next += 1
        }
    }

    /// A folder's entry: walked when a folder, listed when a file, said when neither can be reached.
    mutating func visit(_ child: String, ancestors inside: Set<FileIdentity>) {
        var childInfo = stat()
        guard stat(child, &childInfo) == 0 else {
            let failure = errno
            problem(child, failure == ELOOP ? "symbolic link loop: the links lead back to themselves"
                : Self.isLink(child) ? "broken symbolic link" : systemErrorReason(failure))
            return
        }
        if Self.isDirectory(childInfo) {
            walkDirectory(child, info: childInfo, ancestors: inside)
        } else if Self.isRegular(childInfo) {
            result.files.append(FoundFile(path: child, stamp: Self.stamp(childInfo)))
        }
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }
    static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }
    /// What a path that is neither a file nor a folder is, in words; nil for a file or a folder.
    static func specialKind(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: nil
        }
    }

    static func stamp(_ info: stat) -> FileStamp {
        FileStamp(size: Int64(info.st_size),
                  modifiedAtNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

extension FileSystem {
    /// Deletes the variant files of `paths` that exist, after the rows that named them are gone, and the
    /// folders under `variantsDirectory` they leave empty: how many files were deleted, and each that could
    /// not be, with the reason (left for `gallery check --repair`).
    func removeVariantFiles(_ paths: [String], inVariants variantsDirectory: String) -> (removed: Int, left: [(path: String, reason: String)]) {
        var removed = 0
        var left: [(path: String, reason: String)] = []
        for path in paths where exists(path) {
            do {
                try remove(path)
                removed += 1
            } catch {
                left.append((path, error.plainDescription))
            }
        }
        removeFoldersLeftEmpty(by: paths, inVariants: variantsDirectory)
        return (removed, left)
    }

    /// Deletes the `<two hex>/<hash>` folders of the variants folder that the files of `paths` leave
    /// empty, the photo's first and then its bucket (the variants folder itself stays).
    func removeFoldersLeftEmpty(by paths: [String], inVariants variantsDirectory: String) {
        var folders = Set(paths.map { ($0 as NSString).deletingLastPathComponent })
        while !folders.isEmpty {
            var parents: Set<String> = []
            for folder in folders.sorted() where folder != variantsDirectory && Services.path(folder, isWithin: variantsDirectory) {
                if removeFolderIfEmpty(folder) { parents.insert((folder as NSString).deletingLastPathComponent) }
            }
            folders = parents
        }
    }
}

/// Whether `path` is `folder` itself or lies somewhere under it ("/a/b" is under "/a", "/ab" is not).
public func path(_ path: String, isWithin folder: String) -> Bool {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return path == folder || path + "/" == prefix || path.hasPrefix(prefix)
}

/// An absolute `path` with `.` and `..` taken away by name alone and no trailing slash: symbolic links
/// stay as written (Foundation's `standardizingPath` resolves them on Linux).
public func standardisedAsWritten(_ path: String) -> String {
    var components: [Substring] = []
    for component in path.split(separator: "/") {
        switch component {
        case ".": continue
        case "..": _ = components.popLast()
        default: components.append(component)
        }
    }
    return "/" + components.joined(separator: "/")
}
