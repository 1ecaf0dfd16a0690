import ArgumentParser
import Foundation
import Catalogue
import Services

/// The exit statuses showhide documents in Docs/Usage.md.
public enum ExitStatus {
    /// Everything asked for was done.
    public static let success = ExitCode(0)
    /// The command ran, but some files could not be read or processed; they are listed.
    public static let someFilesFailed = ExitCode(1)
    /// What was asked for does not exist (a photo id not in the catalogue).
    public static let notFound = ExitCode(2)
    /// A wrong argument or option (ArgumentParser's usage status, EX_USAGE).
    public static let usage = ExitCode(64)
    /// The catalogue is damaged: SQLite finds it malformed (EX_DATAERR).
    public static let damaged = ExitCode(65)
    /// A folder or file named on the command line does not exist (EX_NOINPUT).
    public static let noInput = ExitCode(66)
    /// The catalogue or another resource the whole command needs could not be opened (EX_UNAVAILABLE).
    public static let unavailable = ExitCode(69)
    /// The export's folder or zip file could not be written, or exists and may not be replaced (EX_CANTCREAT).
    public static let cannotCreate = ExitCode(73)
    /// Standard output could not be written: closed, or on a full disk (EX_IOERR).
    public static let outputFailed = ExitCode(74)
    /// Stopped by Ctrl-C after keeping what was done (128 + SIGINT, as shells report it).
    public static let interrupted = ExitCode(130)
}

extension ExitStatus {
    /// The status that ends a command on this error: the catalogue's errors 69 (65 when damaged),
    /// a folder or file named that does not exist 66, an export's or a file's that could not be
    /// written 73, anything else 1.
    static func of(_ error: any Error) -> ExitCode {
        switch error {
        case let error as ExitCode: return error
        case CatalogueError.damaged: return damaged
        case CatalogueError.backupExists, CatalogueError.cannotWriteBackup: return cannotCreate
        case is CatalogueError: return unavailable
        case is ExportError, is FileWriteError, is ProtectedFileError: return cannotCreate
        case is InspirationPageError: return cannotCreate
        case is MissingInput: return noInput
        default: return someFilesFailed
        }
    }
}

/// Folders or files named on the command line that do not exist: said at once, before anything is
/// opened or stored (a mistyped folder is no import failure to remember).
struct MissingInput: Error, LocalizedError, Equatable {
    var paths: [String]

    var errorDescription: String? {
        // A name typed in bytes that are not UTF-8 reaches us with U+FFFD for them, and so names nothing.
        if paths.allSatisfy({ $0.contains("\u{FFFD}") }) {
            return "\(paths.joined(separator: ", ")): the name is \(notUTF8), "
                + "so it cannot be opened by it: rename it to import it; nothing was imported"
        }
        let named = paths.joined(separator: ", ")
        return "\(named): no such \(paths.count == 1 ? "folder or file" : "folders or files"); nothing was imported (check the path)"
    }
}
