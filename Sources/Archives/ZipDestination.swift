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
    public let location: String
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
            switch onConflict {
            case .overwrite: break
            case .skip: throw ExportError.destinationExists(path)
            case .unique:
                var number = 2
                while files.fileExists(atPath: FileNameTemplate.numbered(path, number)) { number += 1 }
                chosen = FileNameTemplate.numbered(path, number)
            }
        }
        // FileManager says "file exists" when a folder on the way is a file: say which.
        var folder = (chosen as NSString).deletingLastPathComponent
        while !folder.isEmpty && folder != "/" && !files.fileExists(atPath: folder) { folder = (folder as NSString).deletingLastPathComponent }
        if !folder.isEmpty, files.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ExportError.cannotWrite(chosen, "\(folder) is a file, not a folder")
        }
        location = chosen
        temporary = chosen + partialFileSuffix
        self.modified = modified
        do {
            try files.createDirectory(atPath: (chosen as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? files.removeItem(atPath: temporary)
            archive = try Archive(url: URL(fileURLWithPath: temporary), accessMode: .create, pathEncoding: nil)
        } catch {
            throw ExportError.cannotWrite(chosen, error.plainDescription)
        }
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
        do {
            if FileManager.default.fileExists(atPath: location) { try FileManager.default.removeItem(atPath: location) }
            try FileManager.default.moveItem(atPath: temporary, toPath: location)
        } catch {
            throw ExportError.cannotWrite(location, error.plainDescription)
        }
    }

    public func abandon() {
        archive = nil
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
