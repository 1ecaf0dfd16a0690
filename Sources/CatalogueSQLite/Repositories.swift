import Catalogue
import ColourScience
import Foundation
import GRDB
import Imaging

/// Photos and the paths they were found at.
struct PhotoRepository {
    let db: Database

    // Statements an import runs for every file are cached: compiling one again costs more than running it.

    func location(withSHA256 sha256: String) throws -> PhotoLocation? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, path FROM photo WHERE sha256 = ?"), arguments: [sha256])
            .map { PhotoLocation(id: $0["id"], path: $0["path"]) }
    }

    func photoID(atPath path: String) throws -> PhotoID? {
        try PhotoID.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM photo WHERE path = ?
            UNION ALL SELECT photo_id FROM duplicate_path WHERE path = ?
            LIMIT 1
            """), arguments: [path, path])
    }

    func insert(path: String, stamp: FileStamp, facts: PhotoFacts, importedAt: DatabaseValue) throws -> PhotoID {
        try db.cachedStatement(sql: """
            INSERT INTO photo (path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [path, facts.sha256, stamp.size, stamp.modifiedAtNanoseconds, facts.format.rawValue,
                                     facts.pixelSize.width, facts.pixelSize.height, importedAt])
        let id = db.lastInsertedRowID
        if let exif = facts.exif {
            let values: [(any DatabaseValueConvertible)?] = [id] + ExifColumn.allCases.map { $0.value(of: exif) }
            try db.cachedStatement(sql: Self.insertExif).execute(arguments: StatementArguments(values))
        }
        if let colours = facts.colours {
            try ColourRepository(db: db).insert(colours, of: id)
        }
        if let xmp = facts.xmp {
            try db.cachedStatement(sql: "INSERT INTO photo_xmp (photo_id, packet) VALUES (?, ?)").execute(arguments: [id, xmp])
        }
        return id
    }

    private static let insertExif = """
        INSERT INTO exif (photo_id, \(ExifColumn.list()))
        VALUES (\(databaseQuestionMarks(count: 1 + ExifColumn.allCases.count)))
        """

    func move(_ id: PhotoID, to path: String, stamp: FileStamp) throws {
        // The new path may have been a duplicate of this same photo.
        try db.execute(sql: "DELETE FROM duplicate_path WHERE path = ?", arguments: [path])
        try db.execute(sql: "UPDATE photo SET path = ?, file_size = ?, modified_at_ns = ? WHERE id = ?",
                       arguments: [path, stamp.size, stamp.modifiedAtNanoseconds, id])
    }

    func addDuplicate(_ path: String, of id: PhotoID, stamp: FileStamp, notedAt: DatabaseValue) throws {
        try db.cachedStatement(sql: """
            INSERT INTO duplicate_path (photo_id, path, file_size, modified_at_ns, noted_at) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [id, path, stamp.size, stamp.modifiedAtNanoseconds, notedAt])
    }

    func updateStamp(ofPath path: String, to stamp: FileStamp) throws {
        for table in ["photo", "duplicate_path"] {
            try db.execute(sql: "UPDATE \(table) SET file_size = ?, modified_at_ns = ? WHERE path = ?",
                           arguments: [stamp.size, stamp.modifiedAtNanoseconds, path])
        }
    }

    func detach(_ path: String) throws -> DetachedPath {
        try db.cachedStatement(sql: "DELETE FROM duplicate_path WHERE path = ?").execute(arguments: [path])
        let wasDuplicate = db.changesCount > 0
        guard let photo = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, sha256 FROM photo WHERE path = ?"), arguments: [path])
        else { return DetachedPath(held: wasDuplicate) }
        let id: PhotoID = photo["id"]
        if let heir = try Row.fetchOne(db, sql: """
            SELECT id, path, file_size, modified_at_ns FROM duplicate_path WHERE photo_id = ? ORDER BY id LIMIT 1
            """, arguments: [id]) {
            try db.execute(sql: "DELETE FROM duplicate_path WHERE id = ?", arguments: [heir["id"] as Int64])
            try db.execute(sql: "UPDATE photo SET path = ?, file_size = ?, modified_at_ns = ? WHERE id = ?",
                           arguments: [heir["path"] as String, heir["file_size"] as Int64, heir["modified_at_ns"] as Int64, id])
            return DetachedPath(held: true)
        }
        let variants = try String.fetchAll(db, sql: "SELECT path FROM variant WHERE photo_id = ? ORDER BY path", arguments: [id])
        try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [id])
        return DetachedPath(held: true, forgottenVariants: variants, forgottenContent: photo["sha256"])
    }

    func knownStamps() throws -> [String: FileStamp] {
        var stamps: [String: FileStamp] = [:]
        // Photos not yet analysed, or analysed by earlier rules, are left out, so that the next import analyses them.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT path, file_size, modified_at_ns FROM photo
            WHERE EXISTS (SELECT 1 FROM photo_colour WHERE photo_colour.photo_id = photo.id AND analysis_version >= ?1)
            UNION ALL SELECT path, file_size, modified_at_ns FROM duplicate_path
            WHERE EXISTS (SELECT 1 FROM photo_colour WHERE photo_colour.photo_id = duplicate_path.photo_id AND analysis_version >= ?1)
            """, arguments: [ColourAnalysis.rulesVersion])
        while let row = try rows.next() {
            stamps[row[0]] = FileStamp(size: row[1], modifiedAtNanoseconds: row[2])
        }
        return stamps
    }

    /// A variant's content first: a picture showhide made is never taken for a photo.
    func content(sha256: String) throws -> CatalogueContent? {
        let kind = try String.fetchOne(db.cachedStatement(sql: """
            SELECT CASE
                WHEN EXISTS (SELECT 1 FROM variant WHERE sha256 = ?1) THEN 'variant'
                WHEN EXISTS (SELECT 1 FROM photo JOIN photo_colour ON photo_colour.photo_id = photo.id
                             WHERE sha256 = ?1 AND analysis_version >= ?2) THEN 'photo'
            END
            """), arguments: [sha256, ColourAnalysis.rulesVersion])
        return kind.map { $0 == "variant" ? .variant : .photo }
    }

    // MARK: Reading photos back

    private static let selectPhotos = """
        SELECT photo.*, \(ExifColumn.list(prefix: "exif")), exif.photo_id AS exif_photo_id
        FROM photo LEFT JOIN exif ON exif.photo_id = photo.id
        """

    /// SQL conditions on `photo` and `exif` for a listing's filters.
    static func filter(_ query: PhotoQuery) -> (conditions: [String], arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let since = query.takenSince {
            conditions.append("substr(exif.taken_at, 1, 10) >= ?")
            arguments += [since]
        }
        if let until = query.takenUntil {
            conditions.append("substr(exif.taken_at, 1, 10) <= ?")
            arguments += [until]
        }
        if let camera = query.camera {
            conditions.append("(coalesce(exif.make, '') || ' ' || coalesce(exif.model, '')) LIKE ? ESCAPE '\\'")
            arguments += ["%" + Self.escapeLike(camera) + "%"]
        }
        if !query.paths.isEmpty {
            // Ranges of the paths' own unique indexes: a folder's photos sort between "folder/" and
            // "folder0" ('0' follows '/'), so a scope reads only its own rows of a million. A photo is
            // in the scope by its path or by one of its duplicate paths (a trip imported after its backup).
            // The ids found through both indexes first: an OR with a correlated test would scan every photo.
            let ranges = query.paths.map { _ in "path = ? OR (path >= ? AND path < ?)" }.joined(separator: " OR ")
            conditions.append("""
                photo.id IN (SELECT id FROM photo WHERE \(ranges) UNION SELECT photo_id FROM duplicate_path WHERE \(ranges))
                """)
            var bounds = StatementArguments()
            for path in query.paths {
                let folder = path.hasSuffix("/") ? path : path + "/"
                bounds += [path, folder, String(folder.dropLast()) + "0"]
            }
            arguments += bounds
            arguments += bounds
        }
        if query.needingAnalysis {
            conditions.append("""
                NOT EXISTS (SELECT 1 FROM photo_colour WHERE photo_colour.photo_id = photo.id AND analysis_version >= ?)
                """)
            arguments += [ColourAnalysis.rulesVersion]
        }
        return (conditions, arguments)
    }

    func photos(matching query: PhotoQuery) throws -> [CataloguedPhoto] {
        if query.sort == .newest, let limit = query.limit { return try newest(query, limit: limit) }
        var (conditions, arguments) = Self.filter(query)
        var sql = Self.selectPhotos
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        switch query.sort {
        case .taken: sql += " ORDER BY exif.taken_at IS NULL, exif.taken_at, photo.id"
        case .imported: sql += " ORDER BY photo.imported_at, photo.id"
        case .name: sql += " ORDER BY \(Self.fileNameSQL) COLLATE NOCASE, photo.path, photo.id"
        case .newest: sql += " ORDER BY exif.taken_at IS NULL, exif.taken_at DESC, photo.id DESC"
        }
        if let limit = query.limit {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit, query.offset]
        }
        return try withColours(Row.fetchAll(db, sql: sql, arguments: arguments).map(photo(from:)))
    }

    /// A page of the newest photos, read along indexes rather than sorted whole: the dated ones backwards
    /// along `exif_taken_at` (whose entries end with the photo id), then the undated backwards by id.
    /// A page deep in a library of 100,000 photos reads only as far as itself.
    private func newest(_ query: PhotoQuery, limit: Int) throws -> [CataloguedPhoto] {
        let (conditions, arguments) = Self.filter(query)
        let filters = conditions.map { " AND " + $0 }.joined()
        let dated = "FROM exif JOIN photo ON photo.id = exif.photo_id WHERE exif.taken_at IS NOT NULL" + filters
        var ids = try PhotoID.fetchAll(db, sql: "SELECT exif.photo_id \(dated) ORDER BY exif.taken_at DESC, exif.photo_id DESC LIMIT ? OFFSET ?",
                                       arguments: arguments + [limit, query.offset])
        if ids.count < limit {
            let datedCount = try Int.fetchOne(db, sql: "SELECT count(*) \(dated)", arguments: arguments) ?? 0
            ids += try PhotoID.fetchAll(db, sql: """
                SELECT photo.id FROM photo LEFT JOIN exif ON exif.photo_id = photo.id WHERE exif.taken_at IS NULL\(filters)
                ORDER BY photo.id DESC LIMIT ? OFFSET ?
                """, arguments: arguments + [limit - ids.count, max(0, query.offset - datedCount)])
        }
        return try photos(ids: ids)
    }

    func photosNeedingAnalysis() throws -> [CataloguedPhoto] {
        try photos(matching: PhotoQuery(needingAnalysis: true, sort: .imported))
    }

    /// The photos with these ids, in that order, with their colours.
    func photos(ids: [PhotoID]) throws -> [CataloguedPhoto] {
        guard !ids.isEmpty else { return [] }
        var found: [PhotoID: CataloguedPhoto] = [:]
        for chunk in ids.inChunksForSQL() {
            let rows = try Row.fetchAll(db, sql: Self.selectPhotos + " WHERE photo.id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                        arguments: StatementArguments(chunk))
            for photo in try rows.map(photo(from:)) { found[photo.id] = photo }
        }
        return try withColours(ids.compactMap { found[$0] })
    }

    private func withColours(_ photos: [CataloguedPhoto]) throws -> [CataloguedPhoto] {
        let colours = try ColourRepository(db: db).colours(of: photos.map(\.id))
        return photos.map { photo in
            var photo = photo
            photo.facts.colours = colours[photo.id]
            return photo
        }
    }

    func photo(id: PhotoID) throws -> CataloguedPhoto? {
        guard let row = try Row.fetchOne(db, sql: Self.selectPhotos + " WHERE photo.id = ?", arguments: [id]) else { return nil }
        guard var photo = try withColours([photo(from: row)]).first else { return nil }
        photo.duplicatePaths = try String.fetchAll(
            db, sql: "SELECT path FROM duplicate_path WHERE photo_id = ? ORDER BY path", arguments: [id])
        photo.variants = try VariantRepository(db: db).variants(of: id)
        photo.facts.xmp = try String.fetchOne(db, sql: "SELECT packet FROM photo_xmp WHERE photo_id = ?", arguments: [id])
        return photo
    }

    /// The last path component, computed in SQL: what follows the last "/".
    private static let fileNameSQL = "replace(photo.path, rtrim(photo.path, replace(photo.path, '/', '')), '')"

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    private func photo(from row: Row) throws -> CataloguedPhoto {
        let id: PhotoID = row["id"]
        let formatName: String = row["format"]
        guard let format = ImageFormat(rawValue: formatName) else {
            throw CatalogueError.corruptRow(table: "photo", reason: "format \(formatName)")
        }
        return CataloguedPhoto(
            id: id, path: row["path"],
            stamp: FileStamp(size: row["file_size"], modifiedAtNanoseconds: row["modified_at_ns"]),
            facts: PhotoFacts(sha256: row["sha256"], format: format,
                              pixelSize: PixelSize(width: row["width"], height: row["height"]),
                              exif: row["exif_photo_id"] as Int64? == nil ? nil : try ExifColumn.metadata(from: row)),
            importedAt: row["imported_at"]
        )
    }
}

/// Files and folders that could not be imported.
struct FailureRepository {
    let db: Database

    /// Why `path` could not be imported, and the file's stamp then, replacing what an earlier import
    /// recorded for it.
    func record(path: String, reason: String, failedAt: DatabaseValue, stamp: FileStamp?) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO import_failure (path, reason, failed_at, file_size, modified_at_ns) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [path, reason, failedAt, stamp?.size, stamp?.modifiedAtNanoseconds])
    }

    func clear(atPath path: String) throws {
        try db.cachedStatement(sql: "DELETE FROM import_failure WHERE path = ?").execute(arguments: [path])
    }

    func all() throws -> [ImportFailure] {
        try Row.fetchAll(db, sql: "SELECT path, reason, failed_at, file_size, modified_at_ns FROM import_failure ORDER BY path").map { row in
            let size: Int64? = row["file_size"], modified: Int64? = row["modified_at_ns"]
            let stamp = size.flatMap { size in modified.map { FileStamp(size: size, modifiedAtNanoseconds: $0) } }
            return ImportFailure(path: row["path"], reason: row["reason"], failedAt: row["failed_at"], stamp: stamp)
        }
    }
}

/// Processed variants.
struct VariantRepository {
    let db: Database

    private func variant(from row: Row) -> Variant {
        Variant(photoID: row["photo_id"], kind: row["kind"], parameters: row["parameters"], path: row["path"],
                fileSize: row["file_size"], pixelSize: PixelSize(width: row["width"], height: row["height"]),
                sha256: row["sha256"], createdAt: row["created_at"])
    }

    func variant(of photoID: PhotoID, kind: String, parameters: String) throws -> Variant? {
        try Row.fetchOne(db, sql: "SELECT * FROM variant WHERE photo_id = ? AND kind = ? AND parameters = ?",
                         arguments: [photoID, kind, parameters]).map(variant(from:))
    }

    /// Every variant: by photo, each parameter set when it was first made, its show before its hide (whichever
    /// of the two was written first).
    func all() throws -> [Variant] {
        try Row.fetchAll(db, sql: """
            SELECT variant.* FROM variant
            JOIN (SELECT photo_id, parameters, MIN(created_at) AS made FROM variant GROUP BY photo_id, parameters) AS parameter_set
            USING (photo_id, parameters)
            ORDER BY variant.photo_id, parameter_set.made, variant.parameters, variant.kind = 'hide', variant.kind
            """).map(variant(from:))
    }

    func variants(of photoID: PhotoID) throws -> [Variant] {
        try Row.fetchAll(db, sql: "SELECT * FROM variant WHERE photo_id = ? ORDER BY created_at, kind", arguments: [photoID])
            .map(variant(from:))
    }

    /// - Returns: the row it replaced, if any.
    @discardableResult
    func record(_ variant: Variant) throws -> Variant? {
        // Said in words, not as the foreign key's constraint: a photo removed while its variant was made.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE id = ?)", arguments: [variant.photoID]) == true else {
            throw CatalogueError.photoGone(id: variant.photoID)
        }
        let replaced = try self.variant(of: variant.photoID, kind: variant.kind, parameters: variant.parameters)
        try db.execute(sql: """
            INSERT INTO variant (photo_id, kind, parameters, path, file_size, width, height, sha256, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (photo_id, kind, parameters) DO UPDATE SET
                path = excluded.path, file_size = excluded.file_size, width = excluded.width,
                height = excluded.height, sha256 = excluded.sha256, created_at = excluded.created_at
            """, arguments: [variant.photoID, variant.kind, variant.parameters, variant.path, variant.fileSize,
                             variant.pixelSize.width, variant.pixelSize.height, variant.sha256, variant.createdAt])
        return replaced
    }
}
