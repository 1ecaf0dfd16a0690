import Foundation
import Imaging

/// How to open a library's catalogue: creating it (the first import), or only when it exists
/// (every other command: a mistyped `--library` must not leave an empty catalogue behind).
public enum CatalogueOpening: Sendable {
    case creatingWhenMissing
    case existingOnly
}

/// Why the catalogue could not be used, in words that say what to do. SQLite's own messages and
/// statements never reach the user: they name the catalogue file and the remedy instead.
public enum CatalogueError: Error, Equatable, LocalizedError {
    case cannotCreateDirectory(path: String, reason: String)
    case notAFolder(path: String)
    case noCatalogue(directory: String)
    case cannotOpen(path: String, reason: String)
    case migrationFailed(path: String, reason: String)
    case readOnly(path: String)
    case readOnlyAndOutdated(path: String)
    case damaged(path: String)
    case busy(path: String)
    case diskFull(path: String)
    case inputOutput(path: String)
    case failed(path: String, code: Int32)
    /// A change that contradicts what the catalogue holds now: another showhide changed it meanwhile.
    case conflict(path: String)
    /// The photo is no longer in the catalogue: removed by another command while this one worked on it.
    case photoGone(id: Int64)
    case corruptRow(table: String, reason: String)
    case backupExists(path: String)
    case cannotWriteBackup(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotCreateDirectory(path, reason):
            return "cannot create the library folder \(path): \(reason)"
        case let .notAFolder(path):
            return "the library \(path) is a file, not a folder; give --library (or SHOWHIDE_LIBRARY) a folder"
        case let .noCatalogue(directory):
            return "no catalogue in \(directory); import photos first: showhide gallery import PATH"
        case let .cannotOpen(path, reason):
            return "cannot open the catalogue \(path): \(reason)"
        case let .migrationFailed(path, reason):
            return "cannot bring the catalogue \(path) up to date: \(reason)"
        case let .readOnly(path):
            return "the catalogue \(path) is read-only and this command changes it; "
                + "copy the library somewhere writable, or use a command that only reads"
        case let .readOnlyAndOutdated(path):
            return "the catalogue \(path) is read-only and was written by an older showhide, which must "
                + "bring it up to date first; copy the library somewhere writable and run a command there"
        case let .damaged(path):
            return "the catalogue \(path) is damaged; restore it from a backup (showhide gallery backup makes one), "
                + "and run showhide gallery check for details"
        case let .busy(path):
            return "the catalogue \(path) is busy: another showhide process holds it; try again when it has finished"
        case let .diskFull(path):
            return "the disk holding the catalogue \(path) is full; free some space and run the command again"
        case let .inputOutput(path):
            return "cannot read or write the catalogue \(path): the disk reported an input/output error"
        case let .failed(path, code):
            return "the catalogue \(path) could not be used (SQLite result \(code))"
        case let .conflict(path):
            return "the catalogue \(path) was changed by another showhide meanwhile, and this change no longer fits it; "
                + "run the command again"
        case let .photoGone(id):
            return "photo \(id) is no longer in the catalogue: it was removed while this command worked on it"
        case let .corruptRow(table, reason):
            return "the catalogue holds an unreadable \(table) row: \(reason); run showhide gallery check"
        case let .backupExists(path):
            return "\(path) exists already: choose another name, or give --overwrite"
        case let .cannotWriteBackup(path, reason):
            return "cannot write the backup \(path): \(reason)"
        }
    }
}
