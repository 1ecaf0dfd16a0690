import Catalogue
import GRDB
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
        case .SQLITE_IOERR: self = .inputOutput(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            self = .cannotOpen(path: path, reason: "permission denied or the file cannot be opened")
        default: self = .failed(path: path, code: error.resultCode.rawValue)
        }
    }
}
