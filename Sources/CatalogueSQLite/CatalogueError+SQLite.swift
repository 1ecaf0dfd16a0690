import Catalogue
import GRDB
import Foundation
import Imaging

extension CatalogueError {
    /// The error of an operation on the catalogue at `path`: SQLite's result codes in words.
    init(_ error: any Error, path: String) {
        if let error = error as? CatalogueError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .cannotOpen(path: path, reason: error.plainDescription)
            return
        }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .damaged(path: path)
        case .SQLITE_READONLY: self = .readOnly(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy(path: path)
        case .SQLITE_FULL: self = .diskFull(path: path)
        // A foreign key or a uniqueness broken by a row another showhide removed or added meanwhile;
        // any other constraint broken is a fault of showhide's, said with its code.
        case .SQLITE_CONSTRAINT where [.SQLITE_CONSTRAINT_FOREIGNKEY, .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY]
            .contains(error.extendedResultCode):
            self = .conflict(path: path)
        // SQLite cannot grow its shared-memory file on a full disk and says "I/O error" then; the
        // disk's free space tells the two apart.
        case .SQLITE_IOERR: self = Self.isOnAFullDisk(path) ? .diskFull(path: path) : .inputOutput(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            self = .cannotOpen(path: path, reason: "permission denied or the file cannot be opened")
        default: self = .failed(path: path, code: error.resultCode.rawValue)
        }
    }

    /// Whether the file system holding `path` has no block left that this user may write.
    static func isOnAFullDisk(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs((path as NSString).deletingLastPathComponent, &info) == 0 && info.f_bavail == 0
    }
}
