import Foundation

/// Why the catalogue could not be used.
public enum CatalogueError: Error, LocalizedError {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case migrationFailed(path: String, reason: String)
    case corruptRow(table: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotCreateDirectory(path, reason):
            return "cannot create the library folder \(path): \(reason)"
        case let .cannotOpen(path, reason):
            return "cannot open the catalogue \(path): \(reason)"
        case let .migrationFailed(path, reason):
            return "cannot bring the catalogue \(path) up to date: \(reason)"
        case let .corruptRow(table, reason):
            return "the catalogue holds an unreadable \(table) row: \(reason)"
        }
    }
}
