import Catalogue
import Foundation
import GRDB

/// The thumbnail cache as its own SQLite file beside the catalogue (`thumbnails.sqlite`): one row per
/// content rather than a file per photo, which cost import more than making the thumbnail did (the
/// file system's inode allocation, Docs/Performance.md), and apart from the catalogue so that the
/// catalogue and its backups stay small. Opened on first use, so a command that needs no thumbnail
/// opens nothing; on a library this process may not write, read only, and nothing is kept.
public final class SQLiteThumbnailCache: ThumbnailCache, @unchecked Sendable {
    public static let fileName = LibraryFolder.thumbnails

    public let path: String
    private let libraryDirectory: String
    private let lock = NSLock()
    /// Guarded by `lock`: nil until first used; `.some(nil)` when there is nothing to read (a read-only
    /// library without a cache).
    private var opened: (any DatabaseWriter)??
    /// Whether this process may write the library, when not asked of the file system (tests run as root).
    private let writable: Bool?

    public convenience init(libraryDirectory: String) {
        self.init(libraryDirectory: libraryDirectory, writable: nil)
    }

    init(libraryDirectory: String, writable: Bool?) {
        self.libraryDirectory = libraryDirectory
        self.writable = writable
        path = (libraryDirectory as NSString).appendingPathComponent(Self.fileName)
    }

    public func jpeg(forSHA256 sha256: String) throws -> Data? {
        let jpeg: Data?? = try reading { db in try Data.fetchOne(db, sql: "SELECT jpeg FROM thumbnail WHERE sha256 = ?", arguments: [sha256]) }
        return jpeg ?? nil
    }

    public func keep(_ jpegs: [String: Data]) throws {
        guard !jpegs.isEmpty, let database = try database(), !database.configuration.readonly else { return }
        do {
            try database.write { db in
                // Sorted: the same import writes the same file.
                for (sha256, jpeg) in jpegs.sorted(by: { $0.key < $1.key }) {
                    try db.execute(sql: "INSERT OR IGNORE INTO thumbnail (sha256, jpeg) VALUES (?, ?)", arguments: [sha256, jpeg])
                }
            }
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    public func keptSHA256s() throws -> Set<String> {
        try reading { db in Set(try String.fetchAll(db, sql: "SELECT sha256 FROM thumbnail")) } ?? []
    }

    public func forget(_ sha256s: Set<String>) throws {
        guard !sha256s.isEmpty, let database = try database() else { return }
        do {
            try database.write { db in
                for sha256 in sha256s.sorted() { try db.execute(sql: "DELETE FROM thumbnail WHERE sha256 = ?", arguments: [sha256]) }
            }
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    public func reset() throws {
        lock.lock()
        defer { lock.unlock() }
        // Closed first (the queue closes its connection when released), then removed with its WAL files.
        opened = nil
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw CatalogueError.cannotOpen(path: file, reason: error.plainDescription)
            }
        }
    }

    /// Reads in a transaction; nil when there is no cache to read. An absent cache is not made to be read
    /// (`gallery check` changes nothing): it holds nothing.
    private func reading<T>(_ body: (Database) throws -> T) throws -> T? {
        guard isOpen || FileManager.default.fileExists(atPath: path), let database = try database() else { return nil }
        do {
            return try database.read(body)
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    private var isOpen: Bool { lock.withLock { opened != nil } }

    private func database() throws -> (any DatabaseWriter)? {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        let database = try open()
        opened = .some(database)
        return database
    }

    /// The cache, created and migrated where this process may write; read only, or none, where not.
    private func open() throws -> (any DatabaseWriter)? {
        let exists = FileManager.default.fileExists(atPath: path)
        let writable = self.writable ?? (access(libraryDirectory, W_OK) == 0 && (!exists || access(path, W_OK) == 0))
        do {
            guard writable else {
                guard exists else { return nil }
                let queue = try DatabaseQueue(path: SQLiteCatalogue.readOnlyURI(path), configuration: Self.configuration(readOnly: true))
                // One made by a later showhide may hold what this one does not know: read it only when it is this one's.
                return try queue.read(Self.migrator().hasCompletedMigrations) ? queue : nil
            }
            // One connection: a thumbnail is read or written in a moment, and a pool's readers cost an
            // import their opening. WAL still lets other processes read while this one writes.
            let queue = try DatabaseQueue(path: path, configuration: Self.configuration(readOnly: false))
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try Self.migrator().migrate(queue)
            return queue
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        // An import and the gallery may both write: wait rather than fail.
        configuration.busyMode = .timeout(SQLiteCatalogue.busyTimeout)
        configuration.prepareDatabase { db in
            // As the catalogue: WAL commits without a sync each; a cache loses at most its last rows to a power cut.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        return configuration
    }

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.thumbnailCache {
            migrator.registerMigration(migration.identifier) { db in try db.execute(sql: migration.sql) }
        }
        return migrator
    }
}
