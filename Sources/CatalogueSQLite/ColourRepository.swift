import Catalogue
import ColourScience
import Foundation
import GRDB
import GRDBSQLite

/// Palettes, accents and colour-name weights, and searching by colour.
struct ColourRepository {
    let db: Database

    /// - Throws: `CatalogueError.photoGone` when no photo has `id` (removed by another command meanwhile).
    func set(_ colours: ColourAnalysis, of id: PhotoID) throws {
        // Said in words, not as the foreign key's constraint, which would roll the whole batch back.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE id = ?)", arguments: [id]) == true else {
            throw CatalogueError.photoGone(id: id)
        }
        for table in ["palette_entry", "photo_colour", "colour_name_weight", "accent_candidate"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE photo_id = ?").execute(arguments: [id])
        }
        try insert(colours, of: id)
    }

    /// The colours of a photo that has none recorded yet (a new one).
    func insert(_ colours: ColourAnalysis, of id: PhotoID) throws {
        for (rank, entry) in colours.palette.prefix(8).enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO palette_entry (photo_id, rank, lab_l, lab_a, lab_b, hex, weight, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, rank, entry.lab.l, entry.lab.a, entry.lab.b, entry.hex, entry.weight, entry.name.rawValue])
        }
        let accent = colours.accent
        try db.cachedStatement(sql: """
            INSERT INTO photo_colour (photo_id, dominant_hex, dominant_name, accent_l, accent_a, accent_b,
                                      accent_hex, accent_hue, accent_coverage, accent_name, analysis_version, hue_families, scene)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, colours.dominant?.hex, colours.dominant?.name.rawValue, accent?.lab.l, accent?.lab.a,
                             accent?.lab.b, accent?.hex, accent?.hue, accent?.coverage, accent?.name.rawValue,
                             ColourAnalysis.rulesVersion, colours.hueFamilies, colours.scene.rawValue])
        for (rank, candidate) in colours.candidates.prefix(3).enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO accent_candidate (photo_id, rank, lab_l, lab_a, lab_b, hex, hue, coverage, name, saliency, contrast,
                                              regions, compactness, texture) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, rank, candidate.lab.l, candidate.lab.a, candidate.lab.b, candidate.hex, candidate.hue,
                                         min(max(candidate.coverage, 0), 1), candidate.name.rawValue, candidate.saliency,
                                         candidate.contrast, candidate.regions, candidate.compactness, candidate.texture])
        }
        for (name, weight) in colours.nameWeights {
            try db.cachedStatement(sql: "INSERT INTO colour_name_weight (photo_id, name, weight) VALUES (?, ?, ?)")
                .execute(arguments: [id, name.rawValue, weight])
        }
    }

    func chooseSubject(_ subject: Accent?, of id: PhotoID, at date: DatabaseValueConvertible) throws {
        guard let subject else {
            try db.execute(sql: "DELETE FROM photo_subject WHERE photo_id = ?", arguments: [id])
            return
        }
        try db.execute(sql: """
            INSERT OR REPLACE INTO photo_subject (photo_id, lab_l, lab_a, lab_b, hue, coverage, name, chosen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, subject.lab.l, subject.lab.a, subject.lab.b, subject.hue, min(max(subject.coverage, 0), 1),
                             subject.name.rawValue, date])
    }

    /// How near (CIE76 ΔE) a candidate of a new analysis must be to a chosen subject to stand for it.
    static let sameSubject = 3.0

    /// The colour analyses of these photos; photos not analysed are absent.
    func colours(of ids: [PhotoID]) throws -> [PhotoID: ColourAnalysis] {
        var result: [PhotoID: ColourAnalysis] = [:]
        for chunk in ids.inChunksForSQL() {
            let placeholders = databaseQuestionMarks(count: chunk.count)
            let arguments = StatementArguments(chunk)
            for row in try Row.fetchAll(db, sql: "SELECT * FROM photo_colour WHERE photo_id IN (\(placeholders))", arguments: arguments) {
                var accent: Accent?
                if let l = row["accent_l"] as Double?, let a = row["accent_a"] as Double?, let b = row["accent_b"] as Double?,
                   let name = (row["accent_name"] as String?).flatMap(ColourName.init(rawValue:)) {
                    accent = Accent(lab: Lab(l: l, a: a, b: b), hue: row["accent_hue"] ?? 0,
                                    coverage: row["accent_coverage"] ?? 0, name: name)
                }
                guard let scene = SceneKind(rawValue: row["scene"]) else {
                    throw CatalogueError.corruptRow(table: "photo_colour", reason: "scene \(row["scene"] as String? ?? "")")
                }
                result[row["photo_id"]] = ColourAnalysis(palette: [], accent: accent, nameWeights: [:], candidates: [],
                                                         hueFamilies: row["hue_families"], scene: scene)
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT * FROM accent_candidate WHERE photo_id IN (\(placeholders)) ORDER BY photo_id, rank
                """, arguments: arguments) {
                let id: PhotoID = row["photo_id"]
                guard let name = ColourName(rawValue: row["name"]) else {
                    throw CatalogueError.corruptRow(table: "accent_candidate", reason: "colour name \(row["name"] as String? ?? "")")
                }
                let candidate = Accent(lab: Lab(l: row["lab_l"], a: row["lab_a"], b: row["lab_b"]), hue: row["hue"], coverage: row["coverage"],
                                       name: name, saliency: row["saliency"], contrast: row["contrast"], regions: row["regions"],
                                       compactness: row["compactness"], texture: row["texture"])
                result[id]?.candidates.append(candidate)
                // The accent is the first candidate when it stands out: its reasons come from there.
                if row["rank"] as Int == 0, result[id]?.accent != nil {
                    result[id]?.accent = candidate
                }
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT * FROM photo_subject WHERE photo_id IN (\(placeholders))
                """, arguments: arguments) {
                let id: PhotoID = row["photo_id"]
                guard result[id] != nil, let name = ColourName(rawValue: row["name"]) else { continue }
                let lab = Lab(l: row["lab_l"], a: row["lab_a"], b: row["lab_b"])
                // The candidate the person chose, as this analysis measured it; or the colour they chose.
                let nearest = result[id]?.candidates.min { $0.lab.distance(to: lab) < $1.lab.distance(to: lab) }
                result[id]?.accent = nearest.flatMap { $0.lab.distance(to: lab) <= Self.sameSubject ? $0 : nil }
                    ?? Accent(lab: lab, hue: row["hue"], coverage: row["coverage"], name: name)
                result[id]?.subjectChosen = true
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT photo_id, lab_l, lab_a, lab_b, weight, name FROM palette_entry
                WHERE photo_id IN (\(placeholders)) ORDER BY photo_id, rank
                """, arguments: arguments) {
                let id: PhotoID = row["photo_id"]
                guard let name = ColourName(rawValue: row["name"]) else {
                    throw CatalogueError.corruptRow(table: "palette_entry", reason: "colour name \(row["name"] as String? ?? "")")
                }
                result[id]?.palette.append(PaletteEntry(lab: Lab(l: row["lab_l"], a: row["lab_a"], b: row["lab_b"]),
                                                        weight: row["weight"], name: name))
            }
            for row in try Row.fetchAll(db, sql: "SELECT photo_id, name, weight FROM colour_name_weight WHERE photo_id IN (\(placeholders))",
                                        arguments: arguments) {
                guard let name = ColourName(rawValue: row["name"]) else {
                    throw CatalogueError.corruptRow(table: "colour_name_weight", reason: "colour name \(row["name"] as String? ?? "")")
                }
                result[row["photo_id"]]?.nameWeights[name] = row["weight"]
            }
        }
        return result
    }

    // MARK: Search

    /// A matching colour of one photo, before photos are loaded.
    struct Hit {
        var photoID: PhotoID
        var score: Double
        /// nil for a name the photo's palette holds no colour of (its weight comes from the whole analysis):
        /// the catalogue then looks among the photo's accent candidates.
        var lab: Lab?
        var name: ColourName
        var coverage: Double
        var deltaE: Double?
    }

    func search(_ search: ColourSearch) throws -> [Hit] {
        switch (search.target, search.accentOnly) {
        case let (.name(name), false): return try paletteByName(name, search)
        case let (.name(name), true): return try accentByName(name, search)
        case let (.colour(target), false): return try paletteByColour(target, search)
        case let (.colour(target), true): return try accentByColour(target, search)
        }
    }

    private func filters(_ search: ColourSearch, photoColumn: String) -> (sql: String, arguments: StatementArguments) {
        let filter = PhotoRepository.filter(search.filters)
        guard !filter.conditions.isEmpty else { return ("", []) }
        let sql = """
             JOIN photo ON photo.id = \(photoColumn) LEFT JOIN exif ON exif.photo_id = photo.id
            """
        return (sql + " WHERE " + filter.conditions.joined(separator: " AND "), filter.arguments)
    }

    private func limitSQL(_ search: ColourSearch) -> String {
        search.filters.limit.map { " LIMIT \($0)" } ?? ""
    }

    private func paletteByName(_ name: ColourName, _ search: ColourSearch) throws -> [Hit] {
        let filter = filters(search, photoColumn: "w.photo_id")
        let sql = "SELECT w.photo_id, w.weight FROM colour_name_weight w" + filter.sql
            + (filter.sql.isEmpty ? " WHERE " : " AND ") + "w.name = ? AND w.weight >= ? AND w.weight <= ? ORDER BY w.weight DESC, w.photo_id"
            + limitSQL(search)
        var arguments = filter.arguments
        arguments += [name.rawValue, search.minimumCoverage, search.maximumCoverage]
        let ranked = try Row.fetchAll(db, sql: sql, arguments: arguments).map { (id: $0[0] as PhotoID, weight: $0[1] as Double) }
        let heaviest = try Dictionary(Row.fetchAll(db, sql: """
            SELECT photo_id, lab_l, lab_a, lab_b FROM palette_entry WHERE name = ? AND photo_id IN (\(databaseQuestionMarks(count: ranked.count)))
            ORDER BY photo_id, weight DESC
            """, arguments: StatementArguments([name.rawValue]) + StatementArguments(ranked.map(\.id)))
            .map { ($0["photo_id"] as PhotoID, Lab(l: $0["lab_l"], a: $0["lab_a"], b: $0["lab_b"])) }) { first, _ in first }
        return ranked.map { Hit(photoID: $0.id, score: $0.weight, lab: heaviest[$0.id], name: name,
                                coverage: $0.weight, deltaE: nil) }
    }

    /// A photo's accent is the subject a person chose for it, where one did (`photo_subject`), else the eye's:
    /// the eye's accents of the other photos in the index's order, then the few chosen ones, merged.
    private func accentByName(_ name: ColourName, _ search: ColourSearch) throws -> [Hit] {
        func hits(from table: String, _ columns: String, where condition: String, photoColumn: String, coverage: String) throws -> [Hit] {
            let filter = filters(search, photoColumn: photoColumn)
            let sql = "SELECT \(columns) FROM \(table)" + filter.sql + (filter.sql.isEmpty ? " WHERE " : " AND ") + condition
                + " ORDER BY \(coverage) DESC, \(photoColumn)" + limitSQL(search)
            var arguments = filter.arguments
            arguments += [name.rawValue, search.minimumCoverage, search.maximumCoverage]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
                Hit(photoID: $0[0], score: $0[1], lab: Lab(l: $0[2], a: $0[3], b: $0[4]), name: name, coverage: $0[1], deltaE: nil)
            }
        }
        let eyes = try hits(from: "photo_colour c", "c.photo_id, c.accent_coverage, c.accent_l, c.accent_a, c.accent_b",
                            where: "c.accent_name = ? AND c.accent_coverage >= ? AND c.accent_coverage <= ? AND \(Self.noSubject("c.photo_id"))",
                            photoColumn: "c.photo_id", coverage: "c.accent_coverage")
        let chosen = try hits(from: "photo_subject s", "s.photo_id, s.coverage, s.lab_l, s.lab_a, s.lab_b",
                              where: "s.name = ? AND s.coverage >= ? AND s.coverage <= ?", photoColumn: "s.photo_id", coverage: "s.coverage")
        guard !chosen.isEmpty else { return eyes }
        let merged = (eyes + chosen).sorted { ($0.coverage, -$0.photoID) > ($1.coverage, -$1.photoID) }
        return Array(merged.prefix(search.filters.limit ?? merged.count))
    }

    /// The SQL condition that the photo of `photoColumn` has no subject chosen by a person.
    static func noSubject(_ photoColumn: String) -> String {
        "NOT EXISTS (SELECT 1 FROM photo_subject WHERE photo_subject.photo_id = \(photoColumn))"
    }

    /// The chosen subjects within `search.within` of `target`, of the photos the filters keep: few, read whole.
    private func chosenSubjects(near target: Lab, _ search: ColourSearch) throws -> [Hit] {
        let filter = filters(search, photoColumn: "s.photo_id")
        let sql = "SELECT s.photo_id, s.lab_l, s.lab_a, s.lab_b, s.coverage, s.name FROM photo_subject s" + filter.sql
            + (filter.sql.isEmpty ? " WHERE " : " AND ") + "showhide_delta_e(s.lab_l, s.lab_a, s.lab_b, ?, ?, ?) <= ?"
        var arguments = filter.arguments
        arguments += [target.l, target.a, target.b, search.within]
        return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
            let lab = Lab(l: row[1], a: row[2], b: row[3])
            let distance = deltaE2000(target, lab)
            let coverage: Double = row[4]
            guard distance <= search.within, coverage >= search.minimumCoverage, coverage <= search.maximumCoverage,
                  let name = ColourName(rawValue: row[5]) else { return nil }
            return Hit(photoID: row[0], score: coverage * (1 - distance / (search.within + 1e-9)), lab: lab, name: name,
                       coverage: coverage, deltaE: distance)
        }
    }

    /// `showhide_delta_e(l1, a1, b1, l2, a2, b2)`: CIEDE2000 inside SQLite, so that the colours of the
    /// cells read that do not match are dropped before a row is joined or handed to Swift. Registered
    /// through SQLite's C interface: a search calls it on tens of thousands of rows, and GRDB's
    /// `DatabaseFunction` boxes every argument into an array first.
    static func registerDeltaE(in db: Database) throws {
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, "showhide_delta_e", 6, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, values in
                guard let values else { return }
                func number(_ index: Int) -> Double { sqlite3_value_double(values[index]) }
                sqlite3_result_double(context, deltaE2000(Lab(l: number(0), a: number(1), b: number(2)),
                                                          Lab(l: number(3), a: number(4), b: number(5))))
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add showhide_delta_e") }
    }

    /// Shares tried in turn: entries at least this heavy are looked at first, and the search stops
    /// as soon as the limit is filled with matches that no lighter entry could beat.
    static let shareThresholds = [0.5, 0.25, 0.12, 0.06, 0.03, 0.0]

    /// Ranks photos by their best matching entry, weight × (1 − ΔE00 / within). An entry in a cell whose
    /// colours are all at least d from the target cannot score more than weight × (1 − d / within), so
    /// round t reads, in each cell, only the entries heavy enough to score t there: the search reads the
    /// heavy entries of the near cells first and stops as soon as the limit is filled with matches that no
    /// unread entry could beat.
    private func paletteByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        try byColour(target, search, sql: """
            SELECT g.photo_id, g.lab_l, g.lab_a, g.lab_b, g.weight, p.name
            FROM json_each(?) j
            JOIN palette_cell g ON g.cell = j.value ->> 0 AND g.weight >= j.value ->> 1 AND g.weight < j.value ->> 2
            JOIN palette_entry p ON p.photo_id = g.photo_id AND p.rank = g.rank
            """, photoColumn: "g.photo_id", coverage: paletteCoverage)
    }

    /// As by name: the chosen subjects stand for their photos' accents.
    private func accentByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        try byColour(target, search, sql: """
            SELECT g.photo_id, g.lab_l, g.lab_a, g.lab_b, g.coverage, c.accent_name
            FROM json_each(?) j
            JOIN accent_cell g ON g.cell = j.value ->> 0 AND g.coverage >= j.value ->> 1 AND g.coverage < j.value ->> 2
            JOIN photo_colour c ON c.photo_id = g.photo_id AND \(Self.noSubject("g.photo_id"))
            """, photoColumn: "g.photo_id", coverage: { hits, _, _ in hits }, besides: try chosenSubjects(near: target, search))
    }

    /// For one round: each cell that may hold an entry scoring at least `threshold` (and that earlier
    /// rounds, down to `ceiling`, have not read), with the range of shares to read there, as JSON.
    static func roundCells(_ cells: [LabGrid.Cell], within: Double, threshold: Double, ceiling: Double) -> String {
        var ranges: [String] = []
        for cell in cells {
            // The most a share of 1 can score in this cell; a share must reach threshold / reach to score the threshold.
            let reach = max(0, 1 - cell.nearest / within)
            let from = threshold == 0 ? 0 : (reach > 0 ? threshold / reach : .infinity)
            let to = reach > 0 ? ceiling / reach : .infinity
            guard from <= 1, from < to else { continue }
            ranges.append("[\(cell.number),\(from),\(min(to, 2))]")
        }
        return "[" + ranges.joined(separator: ",") + "]"
    }

    /// - Parameter besides: matches found otherwise (chosen subjects), ranked with those the cells hold.
    private func byColour(_ target: Lab, _ search: ColourSearch, sql select: String, photoColumn: String,
                          coverage: ([Hit], Lab, Double) throws -> [Hit], besides: [Hit] = []) throws -> [Hit] {
        let filter = filters(search, photoColumn: photoColumn)
        // The grid cells that can hold a match, each seeked for its range of shares; CIEDE2000 inside
        // SQLite then drops the colours that do not match before a row is joined or handed to Swift.
        let cells = LabGrid.cells(near: target, within: search.within)
        let sql = select + filter.sql + (filter.sql.isEmpty ? " WHERE " : " AND ")
            + "showhide_delta_e(g.lab_l, g.lab_a, g.lab_b, ?, ?, ?) <= ?"
        let limit = search.filters.limit ?? Int.max
        var best = Dictionary(besides.map { ($0.photoID, $0) }, uniquingKeysWith: { first, _ in first })
        var ranked: [Hit] = []
        var ceiling = 2.0
        for threshold in Self.shareThresholds {
            // Each round reads only the entries lighter than the last round's.
            var arguments: StatementArguments = [Self.roundCells(cells, within: search.within, threshold: threshold, ceiling: ceiling)]
            arguments += filter.arguments
            arguments += [target.l, target.a, target.b, search.within]
            ceiling = threshold
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let lab = Lab(l: row[1], a: row[2], b: row[3])
                let distance = deltaE2000(target, lab)
                guard distance <= search.within else { continue }
                let weight: Double = row[4]
                let score = weight * (1 - distance / (search.within + 1e-9))
                let id: PhotoID = row[0]
                if let current = best[id], current.score >= score { continue }
                guard let name = ColourName(rawValue: row[5]) else {
                    throw CatalogueError.corruptRow(table: "palette_entry", reason: "colour name \(row[5] as String? ?? "")")
                }
                best[id] = Hit(photoID: id, score: score, lab: lab, name: name, coverage: weight, deltaE: distance)
            }
            let candidates = Array(best.values)
            // Coverage needs every entry of a photo: worked out for all candidates only when it filters.
            ranked = rank(search.filtersByCoverage ? try coverage(candidates, target, search.within) : candidates, search, limit: nil)
            if ranked.count >= limit, ranked[limit - 1].score >= threshold { break }
        }
        let top = Array(ranked.prefix(limit))
        return search.filtersByCoverage ? top : rank(try coverage(top, target, search.within), search, limit: limit)
    }

    /// Each hit's coverage: the share of its photo's palette within the distance, all entries counted.
    private func paletteCoverage(_ hits: [Hit], target: Lab, within: Double) throws -> [Hit] {
        var byPhoto = Dictionary(uniqueKeysWithValues: hits.map { ($0.photoID, $0) })
        for chunk in hits.inChunksForSQL() {
            for id in chunk.map(\.photoID) { byPhoto[id]?.coverage = 0 }
            let rows = try Row.fetchAll(db, sql: """
                SELECT photo_id, lab_l, lab_a, lab_b, weight FROM palette_entry WHERE photo_id IN (\(databaseQuestionMarks(count: chunk.count)))
                """, arguments: StatementArguments(chunk.map(\.photoID)))
            for row in rows where deltaE2000(target, Lab(l: row[1], a: row[2], b: row[3])) <= within {
                byPhoto[row[0]]?.coverage += row[4] as Double
            }
        }
        return Array(byPhoto.values)
    }

    private func rank(_ hits: [Hit], _ search: ColourSearch, limit: Int?) -> [Hit] {
        let kept = hits.filter { $0.coverage >= search.minimumCoverage && $0.coverage <= search.maximumCoverage }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.photoID < $1.photoID }
        return limit.map { Array(kept.prefix($0)) } ?? kept
    }
}
