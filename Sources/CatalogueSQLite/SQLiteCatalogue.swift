import Catalogue
import ColourScience
import Foundation
import GRDB
import Imaging

/// The catalogue in SQLite, through GRDB: a WAL `DatabasePool` on disk, or an in-memory
/// database for tests. The schema comes only from the embedded `Migrations/*.sql`.
public final class SQLiteCatalogue: PhotoCatalogue, Sendable {
    /// The catalogue's file name inside the library folder.
    public static let fileName = LibraryFolder.catalogue

    /// The catalogue's file in the library folder `libraryDirectory`.
    public static func path(inLibrary libraryDirectory: String) -> String {
        LibraryFolder.path(fileName, inLibrary: libraryDirectory)
    }

    let writer: any DatabaseWriter
    /// The database file, for the messages of errors.
    let path: String

    public var isReadOnly: Bool { writer.configuration.readonly }

    /// Opens the catalogue in `libraryDirectory` and brings its schema up to date. A missing
    /// catalogue is created only when `opening` allows it; one this process may not write (a
    /// read-only mount, another user's library) is opened for reading, and writing to it fails
    /// with `CatalogueError.readOnly`.
    public convenience init(libraryDirectory: String, opening: CatalogueOpening = .creatingWhenMissing) throws {
        let path = Self.path(inLibrary: libraryDirectory)
        var isFolder: ObjCBool = false
        let folderExists = FileManager.default.fileExists(atPath: libraryDirectory, isDirectory: &isFolder)
        if folderExists && !isFolder.boolValue { throw CatalogueError.notAFolder(path: libraryDirectory) }
        var info = stat()
        if stat(path, &info) != 0 {
            // A library folder this user may not enter hides its catalogue: that is no "import photos first".
            let code = errno
            guard code == ENOENT || code == ENOTDIR else { throw CatalogueError.cannotOpen(path: path, reason: systemErrorReason(code)) }
            guard opening == .creatingWhenMissing else { throw CatalogueError.noCatalogue(directory: libraryDirectory) }
            try self.init(creatingIn: libraryDirectory, path: path)
            return
        }
        if access(path, R_OK) != 0 {
            throw CatalogueError.cannotOpen(path: path, reason: systemErrorReason(errno))
        }
        // An empty file beside a library's variants or thumbnails is a catalogue lost (truncated, overwritten),
        // not a new one: opened, SQLite would make it a new catalogue, and the variants would then belong to
        // nothing, for `gallery check --repair` to delete. It is left as it is. Alone, it is a first import
        // stopped between creating the file and writing to it: no catalogue yet.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.int64Value == 0 {
            if Self.libraryRemains(in: libraryDirectory) { throw CatalogueError.damaged(path: path) }
            guard opening == .creatingWhenMissing else { throw CatalogueError.noCatalogue(directory: libraryDirectory) }
        }
        if access(path, W_OK) != 0 || access(libraryDirectory, W_OK) != 0 {
            try self.init(readingOnly: path)
            return
        }
        try self.init(creatingIn: libraryDirectory, path: path, schemaMayBeNew: opening == .creatingWhenMissing)
    }

    /// Whether the library folder holds showhide's files besides the catalogue (variants, thumbnails): a
    /// catalogue file without a catalogue in it is then one lost, not one being made.
    static func libraryRemains(in libraryDirectory: String) -> Bool {
        [LibraryFolder.variants, LibraryFolder.thumbnails, LibraryFolder.oldThumbnails].contains {
            FileManager.default.fileExists(atPath: LibraryFolder.path($0, inLibrary: libraryDirectory))
        }
    }

    /// `openPool` opens the file; a parameter so that tests can make it fail as another process can, and
    /// `seconds` reads a monotonic clock, so that they can say how long a try took.
    convenience init(creatingIn libraryDirectory: String, path: String, schemaMayBeNew: Bool = true,
                     openPool: (String) throws -> DatabasePool = { try DatabasePool(path: $0, configuration: SQLiteCatalogue.configuration()) },
                     pause: () -> Void = { usleep(100_000) }, seconds: () -> Double = { ProcessInfo.processInfo.systemUptime }) throws {
        do {
            try FileManager.default.createDirectory(atPath: libraryDirectory, withIntermediateDirectories: true)
        } catch {
            throw CatalogueError.cannotCreateDirectory(path: libraryDirectory, reason: error.plainDescription)
        }
        let pool: DatabasePool
        let start = seconds()
        while true {
            do {
                pool = try openPool(path)
                break
            } catch let error where Self.isPassing(error) && seconds() - start < Self.busyTimeout {
                // Wait here instead, as long in all as the busy timeout: a try that itself waited the busy
                // timeout out (another process holds the catalogue) is not tried again.
                pause()
            } catch {
                throw CatalogueError(error, path: path)
            }
        }
        try self.init(writer: pool, path: path, schemaMayBeNew: schemaMayBeNew)
    }

    /// Whether opening failed only for what another process was doing at that moment:
    /// - switching a new catalogue to WAL while another process does the same can fail busy without
    ///   waiting for the busy timeout;
    /// - GRDB looks at the `-wal` file's size just after seeing it, and another process that closes the
    ///   catalogue in between removes it (its last connection does): "no such file or directory".
    static func isPassing(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_BUSY }
        let foundation = error as NSError
        if foundation.domain == NSCocoaErrorDomain
            && [CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue].contains(foundation.code) { return true }
        return error.posixErrorCode == ENOENT
    }

    /// A catalogue this process may only read. SQLite reads a WAL database read-only through its
    /// `-wal` and `-shm` files when another process has them open; when they are absent (the catalogue
    /// was closed cleanly) and cannot be created, only as an immutable file.
    convenience init(readingOnly path: String) throws {
        var configuration = Self.configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: Self.readOnlyURI(path), configuration: configuration)
            try self.init(writer: queue, path: path)
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    /// The URI that opens a WAL database read-only: through its `-wal` and `-shm` files when they are
    /// there, else as an immutable file.
    static func readOnlyURI(_ path: String) -> String {
        let walFilesExist = FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm")
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?" + (walFilesExist ? "mode=ro" : "immutable=1")
    }

    /// A new, empty, migrated catalogue in memory.
    public static func inMemory() throws -> SQLiteCatalogue {
        try SQLiteCatalogue(writer: DatabaseQueue(configuration: configuration()), path: ":memory:")
    }

    /// With `schemaMayBeNew` false (a command that does not create the catalogue), a database holding no
    /// table is not made a catalogue: beside a library's variants or thumbnails it is one lost, and said to
    /// be damaged; alone, it is a first import's, opened an instant before that import makes its tables
    /// (or stopped before it did): no catalogue yet.
    init(writer: any DatabaseWriter, path: String, schemaMayBeNew: Bool = true) throws {
        self.writer = writer
        self.path = path
        let migrator = Schema.migrator()
        let upToDate: Bool
        do {
            upToDate = try writer.read(migrator.hasCompletedMigrations)
        } catch {
            throw CatalogueError(error, path: path)
        }
        guard !upToDate else { return }
        if writer.configuration.readonly { throw CatalogueError.readOnlyAndOutdated(path: path) }
        do {
            // GRDB decides which migrations to run before running each in its own transaction, so
            // two processes opening a new or old catalogue at once could both run one: one at a
            // time, the second then finding nothing to do.
            let lock = path == ":memory:" ? nil : try MigrationLock(path: path + ".migration-lock")
            defer { lock?.release() }
            // A new, empty catalogue is made from the schema the migrations add up to, in one step.
            let empty = try writer.read { db in try Schema.holdsNoTable(db) && migrator.appliedIdentifiers(db).isEmpty }
            if empty && !schemaMayBeNew {
                let directory = (path as NSString).deletingLastPathComponent
                throw Self.libraryRemains(in: directory) ? CatalogueError.damaged(path: path) : CatalogueError.noCatalogue(directory: directory)
            }
            try (empty ? Schema.newCatalogueMigrator() : migrator).migrate(writer)
        } catch {
            throw CatalogueError(error, path: path)
        }
    }

    /// How long a command waits for another process's transaction before it says the catalogue is busy (69).
    static let busyTimeout: Double = 30

    static func configuration() -> Configuration {
        var configuration = Configuration()
        // Another showhide process may be writing: wait for it rather than fail.
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // 64 MiB of page cache per connection: the colour grid and indexes of a large library stay in memory.
            try db.execute(sql: "PRAGMA cache_size = -65536")
            // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a killed process
            // loses nothing committed, a power cut at most the last commits, and the file is never
            // corrupted either way. Commits then cost little, so an import commits often (see ImportOptions).
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try ColourRepository.registerDeltaE(in: db)
        }
        return configuration
    }

    /// Reads in a transaction; SQLite's errors become `CatalogueError`s that say what to do.
    private func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw CatalogueError(error, path: path)
        }
    }

    /// Writes in a transaction; SQLite's errors become `CatalogueError`s, the body's own errors pass through.
    private func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch let error as DatabaseError {
            throw CatalogueError(error, path: path)
        }
    }

    // MARK: PhotoCatalogue

    public func knownStamps() throws -> [String: FileStamp] {
        try reading { try PhotoRepository(db: $0).knownStamps() }
    }

    public func content(withSHA256 sha256: String) throws -> CatalogueContent? {
        try reading { try PhotoRepository(db: $0).content(sha256: sha256) }
    }

    public func leftOutStamps() throws -> [String: FileStamp] {
        try reading { db in
            var stamps: [String: FileStamp] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, file_size, modified_at_ns FROM left_out_file")
            while let row = try rows.next() { stamps[row[0]] = FileStamp(size: row[1], modifiedAtNanoseconds: row[2]) }
            return stamps
        }
    }

    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            try writing { db in try body(SQLiteCatalogueWriter(db: db)) }
        }
    }

    public func photos(matching query: PhotoQuery) throws -> [CataloguedPhoto] {
        try reading { try PhotoRepository(db: $0).photos(matching: query) }
    }

    public func photo(id: PhotoID) throws -> CataloguedPhoto? {
        try reading { try PhotoRepository(db: $0).photo(id: id) }
    }

    public func photosNeedingAnalysis() throws -> [CataloguedPhoto] {
        try reading { try PhotoRepository(db: $0).photosNeedingAnalysis() }
    }

    public func failures() throws -> [ImportFailure] {
        try reading { try FailureRepository(db: $0).all() }
    }

    public func variant(of photoID: PhotoID, kind: String, parameters: String) throws -> Variant? {
        try reading { try VariantRepository(db: $0).variant(of: photoID, kind: kind, parameters: parameters) }
    }

    @discardableResult
    public func recordVariant(_ variant: Variant) throws -> Variant? {
        try writing { try VariantRepository(db: $0).record(variant) }
    }


    public func allVariants() throws -> [Variant] {
        try reading { try VariantRepository(db: $0).all() }
    }

    public func removeVariant(atPath path: String) throws {
        try write { try $0.removeVariant(atPath: path) }
    }

    public func search(_ search: ColourSearch) throws -> [ColourMatch] {
        try reading { db in
            let hits = try ColourRepository(db: db).search(search)
            let photos = Dictionary(uniqueKeysWithValues: try PhotoRepository(db: db).photos(ids: hits.map(\.photoID)).map { ($0.id, $0) })
            return hits.compactMap { hit in
                photos[hit.photoID].map { photo in
                    // The photo's own colour of that name, where its palette has none: an accent candidate's
                    // (a red motorcycle's), else the name's focal colour.
                    let colours = photo.facts.colours
                    let own = hit.lab ?? ([colours?.accent].compactMap { $0 } + (colours?.candidates ?? [])).first { $0.name == hit.name }?.lab
                    return ColourMatch(photo: photo, score: hit.score, matchedLab: own ?? hit.name.focalLab, matchedName: hit.name,
                                       coverage: hit.coverage, deltaE: hit.deltaE)
                }
            }
        }
    }

    /// Every table with its columns, and every index with its table, as SQLite reports them:
    /// for the test that checks migrations give exactly the schema the code expects.
    func schema() throws -> (tables: [String: [String]], indexes: [String: String], triggers: [String]) {
        try reading { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                """) {
                tables[table] = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            }
            let indexes = try Row.fetchAll(db, sql: """
                SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                """)
            let triggers = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            return (tables, Dictionary(uniqueKeysWithValues: indexes.map { ($0["name"], $0["tbl_name"]) }), triggers)
        }
    }

    /// The SQLite journal mode ("wal" on disk).
    func journalMode() throws -> String {
        try reading { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        let problems: [String]
        do {
            problems = try reading { try String.fetchAll($0, sql: "PRAGMA integrity_check(100)") }
        } catch CatalogueError.damaged {
            return "damaged beyond reading (SQLite's integrity check cannot read its pages)"
        }
        return Self.summary(ofIntegrityCheck: problems)
    }

    /// `PRAGMA integrity_check`'s rows in one line: "ok", the one problem, or how many and the first. SQLite
    /// may put many problems in one row, a line each under a "*** in database main ***" heading.
    static func summary(ofIntegrityCheck rows: [String]) -> String {
        guard rows != ["ok"] else { return "ok" }
        let lines = rows.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
            .filter { !$0.hasPrefix("*** in database") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = lines.first else { return "damaged (SQLite's integrity check names no page)" }
        return lines.count == 1 ? first : "\(lines.count) problems, the first: \(first)"
    }

    public func backup(to path: String, replacing: Bool) throws -> CatalogueBackup {
        // Renamed over the catalogue (or its WAL) while this and other processes have it open, the copy
        // would tear it.
        if Self.names(path, theCatalogueAt: self.path) {
            throw CatalogueError.cannotWriteBackup(path: path, reason: "that is the catalogue itself, which a copy cannot replace "
                + "while it is open; name a file outside the library folder")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CatalogueError.cannotWriteBackup(path: path, reason: "that is a folder; name the file to write in it, such as "
                + (path as NSString).appendingPathComponent("catalogue-backup.sqlite"))
        }
        // A pipe or a device (`/dev/null`) is no file to replace: renamed over, it would be gone.
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw CatalogueError.cannotWriteBackup(path: path, reason: "that is not a file but a named pipe, a socket or a device; "
                + "name the file to write the copy into")
        }
        if !replacing && FileManager.default.fileExists(atPath: path) { throw CatalogueError.backupExists(path: path) }
        Self.removeAbandonedBackups(of: path)
        let temporary = path + "." + UUID().uuidString + ".partial"
        defer { for suffix in Self.sqliteFileSuffixes { try? FileManager.default.removeItem(atPath: temporary + suffix) } }
        let copy: DatabaseQueue
        do {
            copy = try DatabaseQueue(path: temporary)
        } catch {
            throw CatalogueError.cannotWriteBackup(path: path, reason: Self.reason(opening: error, path))
        }
        // The online backup copies one consistent snapshot, page by page, while other processes write.
        do {
            try writer.backup(to: copy)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            throw CatalogueError.cannotWriteBackup(path: path, reason: error.resultCode == .SQLITE_FULL ? "the disk is full" : "input/output error")
        } catch let error as DatabaseError {
            throw CatalogueError(error, path: self.path)
        }
        let integrity: [String], photos: Int
        do {
            (integrity, photos) = try copy.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") ?? 0)
            }
            try copy.close()
        } catch let error as DatabaseError {
            // The copy, not the catalogue, could not be read back: its disk, most often.
            throw CatalogueError.cannotWriteBackup(path: path, reason: "the copy could not be read back to check it: "
                + (error.resultCode == .SQLITE_FULL ? "the disk is full" : error.resultCode == .SQLITE_IOERR ? "input/output error"
                    : "SQLite's code \(error.resultCode.rawValue)"))
        }
        guard integrity == ["ok"] else {
            throw CatalogueError.cannotWriteBackup(path: path, reason: "the copy failed SQLite's integrity check: \(integrity.first ?? "")")
        }
        guard rename(temporary, path) == 0 else {
            throw CatalogueError.cannotWriteBackup(path: path, reason: systemErrorReason(errno))
        }
        return CatalogueBackup(path: path, photos: photos, bytes: stat(path, &info) == 0 ? Int(info.st_size) : 0)
    }

    /// A database and the files SQLite keeps beside it.
    static let sqliteFileSuffixes = ["", "-wal", "-shm", "-journal"]

    /// How old an earlier backup's temporary file must be to be taken for abandoned, not one being written.
    static let abandonedBackupAge: TimeInterval = 10 * 60

    /// Takes away what earlier backups into `path` left when they were killed (Ctrl-C, a full disk):
    /// `FILE.<UUID>.partial` and SQLite's files beside it, once they are older than a backup takes.
    static func removeAbandonedBackups(of path: String, now: Date = Date()) {
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for candidate in names where candidate.hasPrefix(name + ".") {
            let rest = candidate.dropFirst(name.count + 1)
            guard rest.count >= 36, UUID(uuidString: String(rest.prefix(36))) != nil,
                  sqliteFileSuffixes.map({ ".partial" + $0 }).contains(String(rest.dropFirst(36))) else { continue }
            let file = (folder as NSString).appendingPathComponent(candidate)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) > abandonedBackupAge else { continue }
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// Whether `path` names the catalogue at `catalogue` or one of SQLite's files beside it (`-wal`, `-shm`,
    /// `-journal`), however spelt: through a link to its folder, or a link or a hard link to the file.
    static func names(_ path: String, theCatalogueAt catalogue: String) -> Bool {
        func resolved(_ path: String) -> String {
            let folder = (path as NSString).deletingLastPathComponent
            guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
            defer { free(real) }
            return (String(cString: real) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        }
        let own = sqliteFileSuffixes.map { catalogue + $0 }
        let target = resolved(path)
        if own.contains(where: { resolved($0) == target }) { return true }
        var named = stat(), file = stat()
        guard stat(path, &named) == 0 else { return false }
        return own.contains { stat($0, &file) == 0 && file.st_dev == named.st_dev && file.st_ino == named.st_ino }
    }

    /// Why a new database file could not be made at `path`: the folder's state, in words.
    private static func reason(opening error: any Error, _ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder) { return "the folder \(folder) does not exist" }
        if !isFolder.boolValue { return "\(folder) is a file, not a folder" }
        if access(folder, W_OK) != 0 { return "the folder \(folder) is not writable" }
        return "SQLite cannot create a file there"
    }
}

/// `CatalogueWriting` inside one GRDB transaction.
struct SQLiteCatalogueWriter: CatalogueWriting {
    let db: Database
    /// A batch's photos, duplicates and failures share one time, and turning a `Date` into its
    /// database text is slow (a formatter): it is done once per batch (Docs/Performance.md).
    private let batchTimes = LastDatabaseValue<Date>()

    var photos: PhotoRepository { PhotoRepository(db: db) }
    var failures: FailureRepository { FailureRepository(db: db) }

    func photo(withSHA256 sha256: String) throws -> PhotoLocation? { try photos.location(withSHA256: sha256) }
    func photoID(atPath path: String) throws -> PhotoID? { try photos.photoID(atPath: path) }
    func insertPhoto(path: String, stamp: FileStamp, facts: PhotoFacts, importedAt: Date) throws -> PhotoID {
        try photos.insert(path: path, stamp: stamp, facts: facts, importedAt: batchTimes.value(for: importedAt))
    }
    func movePhoto(_ id: PhotoID, to path: String, stamp: FileStamp) throws { try photos.move(id, to: path, stamp: stamp) }
    func addDuplicatePath(_ path: String, of id: PhotoID, stamp: FileStamp, notedAt: Date) throws {
        try photos.addDuplicate(path, of: id, stamp: stamp, notedAt: batchTimes.value(for: notedAt))
    }
    func updateStamp(ofPath path: String, to stamp: FileStamp) throws { try photos.updateStamp(ofPath: path, to: stamp) }
    func detachPath(_ path: String) throws -> DetachedPath { try photos.detach(path) }
    func removeVariant(atPath path: String) throws {
        try db.cachedStatement(sql: "DELETE FROM variant WHERE path = ?").execute(arguments: [path])
    }
    func removePhoto(_ id: PhotoID) throws -> [String] {
        let variants = try String.fetchAll(db.cachedStatement(sql: "SELECT path FROM variant WHERE photo_id = ? ORDER BY path"), arguments: [id])
        // The foreign keys cascade to EXIF, colours, duplicates and variants; triggers clear the colour grid.
        try db.cachedStatement(sql: "DELETE FROM photo WHERE id = ?").execute(arguments: [id])
        return variants
    }
    func setColours(_ colours: ColourAnalysis, of id: PhotoID) throws { try ColourRepository(db: db).set(colours, of: id) }
    func chooseSubject(_ subject: Accent?, of id: PhotoID, at date: Date) throws {
        try ColourRepository(db: db).chooseSubject(subject, of: id, at: batchTimes.value(for: date))
    }
    func recordFailure(_ failure: ImportFailure) throws {
        try failures.record(path: failure.path, reason: failure.reason, failedAt: batchTimes.value(for: failure.failedAt),
                            stamp: failure.stamp)
    }
    func clearFailure(atPath path: String) throws { try failures.clear(atPath: path) }
    func recordLeftOut(path: String, stamp: FileStamp) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO left_out_file (path, file_size, modified_at_ns) VALUES (?, ?, ?)")
            .execute(arguments: [path, stamp.size, stamp.modifiedAtNanoseconds])
    }
    func clearLeftOut(atPath path: String) throws {
        try db.cachedStatement(sql: "DELETE FROM left_out_file WHERE path = ?").execute(arguments: [path])
    }
}

/// The database value of the last value asked for, kept until a different one is asked for.
final class LastDatabaseValue<Value: DatabaseValueConvertible & Equatable> {
    private var last: (value: Value, databaseValue: DatabaseValue)?

    func value(for value: Value) -> DatabaseValue {
        if let last, last.value == value { return last.databaseValue }
        let databaseValue = value.databaseValue
        last = (value, databaseValue)
        return databaseValue
    }
}

/// The schema: the embedded migrations, in order.
enum Schema {
    /// Whether the database holds no schema object but GRDB's record of applied migrations.
    static func holdsNoTable(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema WHERE tbl_name != 'grdb_migrations'") == 0
    }

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all {
            migrator.registerMigration(migration.identifier, foreignKeyChecks: foreignKeyChecks(of: migration)) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }

    /// How a migration's foreign keys are checked. One that makes a table anew (drops one) runs with them
    /// off and checks them all at its end, as SQLite asks; from 0011 on, one that drops none keeps them on
    /// and checks only what it writes: the check at the end reads every row of every table, on a catalogue
    /// of 1,000,000 photos 66 MB more at its peak, for an index. Those before 0011 stay as they landed.
    static func foreignKeyChecks(of migration: (identifier: String, sql: String)) -> DatabaseMigrator.ForeignKeyChecks {
        let dropsATable = migration.sql.range(of: #"\bDROP\s+TABLE\b"#, options: [.regularExpression, .caseInsensitive]) != nil
        return migration.identifier >= "0011" && !dropsATable ? .immediate : .deferred
    }

    /// For an empty database: one migration, one transaction, that makes the whole schema the
    /// migrations add up to (`EmbeddedMigrations.catalogueSchema`, squashed at build time) and records
    /// every one of them as applied, as `migrator()` would leave them. One transaction, so that a
    /// process stopped while making a catalogue leaves it empty or whole, never half recorded.
    static func newCatalogueMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        guard let first = EmbeddedMigrations.all.first else { return migrator }
        migrator.registerMigration(first.identifier) { db in
            try db.execute(sql: EmbeddedMigrations.catalogueSchema)
            // GRDB records the first itself when this transaction commits; the others are recorded
            // here, in its table of applied migrations.
            for migration in EmbeddedMigrations.all.dropFirst() {
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            }
        }
        return migrator
    }
}

/// An exclusive lock on a file beside the catalogue, held by one process at a time (flock), waited for.
/// A separate file: a second descriptor on the database itself would drop SQLite's own locks when closed.
struct MigrationLock {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CatalogueError.migrationFailed(path: path, reason: "cannot open the lock file: \(systemErrorReason(errno))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw CatalogueError.migrationFailed(path: path, reason: "cannot lock: \(systemErrorReason(errno))")
            }
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
