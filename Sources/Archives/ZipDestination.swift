import Foundation
import Imaging
import Services
import ZIPFoundation

/// Exported files written into a zip archive one entry at a time, through ZIPFoundation: each entry is
/// streamed to disk from the one file's bytes, stored rather than deflated (JPEG and PNG are
/// compressed already), with ZIP64 records once the archive passes 4 GB. The archive is written under
/// a temporary name and renamed into place only when complete, so an interrupted export leaves no
/// half archive under the final name.
public final class ZipDestination: ExportDestination {
    /// The archive's name: the one chosen when it began, or the next free one when another export took
    /// that name meanwhile.
    public private(set) var location: String
    private let requested: String
    private let onConflict: ConflictPolicy
    private let temporary: String
    private var archive: Archive?
    private var names: Set<String> = []
    private let modified: Date

    /// An archive at `path`; an existing file there is replaced only with `.overwrite`, `.unique` picks
    /// `name_2.zip`, `name_3.zip`, …, and `.skip` leaves it and fails.
    public init(path: String, onConflict: ConflictPolicy, modified: Date) throws {
        let files = FileManager.default
        var chosen = path
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            // A folder is no zip file to replace or number: `--zip exports/` meant a file inside it.
            if isFolder.boolValue {
                throw ExportError.cannotWrite(path, "it is a folder; name the zip file, such as \((path as NSString).appendingPathComponent("photos.zip"))")
            }
            // A pipe or a device (`--zip /dev/null`) is no file to replace, nor one to number beside.
            if let kind = NotAFile.kind(at: path) {
                throw ExportError.cannotWrite(path, "it is \(kind), not a file; name the zip file to write")
            }
            switch onConflict {
            case .overwrite: break
            case .skip: throw ExportError.destinationExists(path)
            case .unique: chosen = Self.firstFreeName(numbering: path)
            }
        }
        // FileManager says "file exists" when a folder on the way is a file: say which.
        var folder = (chosen as NSString).deletingLastPathComponent
        while !folder.isEmpty && folder != "/" && !files.fileExists(atPath: folder) { folder = (folder as NSString).deletingLastPathComponent }
        if !folder.isEmpty, files.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ExportError.cannotWrite(chosen, "\(folder) is a file, not a folder")
        }
        location = chosen
        requested = path
        self.onConflict = onConflict
        // A name of its own: two exports to one zip at once must not write into, or delete, each other's.
        temporary = chosen + "." + UUID().uuidString + partialFileSuffix
        self.modified = modified
        do {
            try files.createDirectory(atPath: (chosen as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            Self.removeAbandonedArchives(of: chosen, now: modified)
            archive = try Archive(url: URL(fileURLWithPath: temporary), accessMode: .create, pathEncoding: nil)
        } catch {
            // The archive's file may have been made before its first write failed (a full disk).
            try? files.removeItem(atPath: temporary)
            throw ExportError.cannotWrite(chosen, error.plainDescription)
        }
    }

    /// An archive is written under a name of its own: no other export writes into it.
    public func whileLockingManifest(_ body: () throws -> Void) throws {
        try body()
    }

    /// An archive cut short is not one: an interrupted export takes it away.
    public var keepsAPart: Bool { false }

    public func contains(_ name: String) -> Bool {
        names.contains(name)
    }

    /// An archive is always written afresh: nothing is in it before this export.
    public func existing(_ name: String) throws -> Data? {
        nil
    }

    public func size(of name: String) -> Int? {
        nil
    }

    public func write(_ data: Data, as name: String) throws {
        guard let archive else { throw ExportError.cannotWrite(location, "the archive is closed") }
        do {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), modificationDate: modified,
                                 compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        } catch {
            throw ExportError.cannotWrite("\(location) (entry \(name))", Self.reason(error, errno: errno))
        }
        names.insert(name)
    }

    /// ZIPFoundation's error in words: its `unwritableFile` is a failed `fwrite`, whose errno says why
    /// (a full disk, most often).
    static func reason(_ error: any Error, errno code: Int32) -> String {
        guard String(describing: error) == "unwritableFile" else { return error.plainDescription }
        // Only the reasons a failed write has: errno may hold another call's by the time it is read.
        return [ENOSPC, EDQUOT, EFBIG, EIO, EROFS].contains(code) ? systemErrorReason(code) : "the file could not be written"
    }

    public func finish() throws {
        // Releasing the archive closes its file.
        archive = nil
        // Replacing: one rename over the old archive, so that at no moment is there neither (a removal, then a
        // move, killed between the two, lost the old one), and a folder put there meanwhile is refused, not deleted.
        if onConflict == .overwrite {
            guard rename(temporary, location) == 0 else { throw ExportError.cannotWrite(location, systemErrorReason(errno)) }
            return
        }
        // Otherwise the name is taken only if it is still free: another export to the same file may have
        // finished meanwhile, and a rename would replace its archive. A hard link is made only where nothing is.
        while !(try claim(location)) {
            guard onConflict == .unique else {
                try? FileManager.default.removeItem(atPath: temporary)
                throw ExportError.destinationExists(location)
            }
            location = Self.firstFreeName(numbering: requested)
        }
    }

    /// `name_2.zip`, `name_3.zip`, …: the first of them nothing is at.
    static func firstFreeName(numbering path: String) -> String {
        var number = 2
        while FileManager.default.fileExists(atPath: FileNameTemplate.numbered(path, number)) { number += 1 }
        return FileNameTemplate.numbered(path, number)
    }

    /// Puts the archive at `name` if nothing is there; false when something is.
    private func claim(_ name: String) throws -> Bool {
        if link(temporary, name) == 0 {
            unlink(temporary)
            return true
        }
        let code = errno
        if code == EEXIST { return false }
        // A disk without hard links (FAT and exFAT: a memory card, a USB stick): a rename where nothing is.
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(code) else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw ExportError.cannotWrite(name, systemErrorReason(code))
        }
        guard !FileManager.default.fileExists(atPath: name) else { return false }
        guard rename(temporary, name) == 0 else { throw ExportError.cannotWrite(name, systemErrorReason(errno)) }
        return true
    }

    /// How old an earlier export's temporary archive must be to be taken for abandoned, not one being written.
    static let abandonedArchiveAge: TimeInterval = 10 * 60

    /// Takes away what earlier exports to `path` left when they were killed: `NAME.<UUID>.partial` (and the
    /// `NAME.partial` of earlier versions), once older than an export takes.
    static func removeAbandonedArchives(of path: String, now: Date) {
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for candidate in names where candidate.hasPrefix(name + ".") && candidate.hasSuffix(partialFileSuffix) {
            let middle = candidate.dropFirst(name.count + 1).dropLast(partialFileSuffix.count)
            guard middle.isEmpty || UUID(uuidString: String(middle)) != nil else { continue }
            let file = (folder as NSString).appendingPathComponent(candidate)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > abandonedArchiveAge else { continue }
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    public func abandon() {
        archive = nil
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
