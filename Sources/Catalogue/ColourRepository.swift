import ColourScience
import Foundation
import GRDB

/// Palettes, accents and colour-name weights, and searching by colour.
struct ColourRepository {
    let db: Database

    func set(_ colours: ColourAnalysis, of id: PhotoID) throws {
        try db.execute(sql: "DELETE FROM palette_entry WHERE photo_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM photo_colour WHERE photo_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM colour_name_weight WHERE photo_id = ?", arguments: [id])
        for (rank, entry) in colours.palette.prefix(8).enumerated() {
            try db.execute(sql: """
                INSERT INTO palette_entry (photo_id, rank, lab_l, lab_a, lab_b, hex, weight, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, rank, entry.lab.l, entry.lab.a, entry.lab.b, entry.hex, entry.weight, entry.name.rawValue])
        }
        let accent = colours.accent
        try db.execute(sql: """
            INSERT INTO photo_colour (photo_id, dominant_hex, dominant_name, accent_l, accent_a, accent_b,
                                      accent_hex, accent_hue, accent_coverage, accent_name)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, colours.dominant?.hex, colours.dominant?.name.rawValue, accent?.lab.l, accent?.lab.a,
                             accent?.lab.b, accent?.hex, accent?.hue, accent?.coverage, accent?.name.rawValue])
        for (name, weight) in colours.nameWeights {
            try db.execute(sql: "INSERT INTO colour_name_weight (photo_id, name, weight) VALUES (?, ?, ?)",
                           arguments: [id, name.rawValue, weight])
        }
    }

    /// The colour analyses of these photos; photos not analysed are absent.
    func colours(of ids: [PhotoID]) throws -> [PhotoID: ColourAnalysis] {
        var result: [PhotoID: ColourAnalysis] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let placeholders = databaseQuestionMarks(count: chunk.count)
            let arguments = StatementArguments(chunk)
            for row in try Row.fetchAll(db, sql: "SELECT * FROM photo_colour WHERE photo_id IN (\(placeholders))", arguments: arguments) {
                var accent: Accent?
                if let l = row["accent_l"] as Double?, let a = row["accent_a"] as Double?, let b = row["accent_b"] as Double?,
                   let name = (row["accent_name"] as String?).flatMap(ColourName.init(rawValue:)) {
                    accent = Accent(lab: Lab(l: l, a: a, b: b), hue: row["accent_hue"] ?? 0,
                                    coverage: row["accent_coverage"] ?? 0, name: name)
                }
                result[row["photo_id"]] = ColourAnalysis(palette: [], accent: accent, nameWeights: [:])
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
                if let name = ColourName(rawValue: row["name"]) { result[row["photo_id"]]?.nameWeights[name] = row["weight"] }
            }
        }
        return result
    }

    // MARK: Search

    /// A matching colour of one photo, before photos are loaded.
    struct Hit {
        var photoID: PhotoID
        var score: Double
        var lab: Lab
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
            + (filter.sql.isEmpty ? " WHERE " : " AND ") + "w.name = ? AND w.weight >= ? ORDER BY w.weight DESC, w.photo_id"
            + limitSQL(search)
        var arguments = filter.arguments
        arguments += [name.rawValue, search.minimumCoverage]
        let ranked = try Row.fetchAll(db, sql: sql, arguments: arguments).map { (id: $0[0] as PhotoID, weight: $0[1] as Double) }
        let heaviest = try Dictionary(Row.fetchAll(db, sql: """
            SELECT photo_id, lab_l, lab_a, lab_b FROM palette_entry WHERE name = ? AND photo_id IN (\(databaseQuestionMarks(count: ranked.count)))
            ORDER BY photo_id, weight DESC
            """, arguments: StatementArguments([name.rawValue]) + StatementArguments(ranked.map(\.id)))
            .map { ($0["photo_id"] as PhotoID, Lab(l: $0["lab_l"], a: $0["lab_a"], b: $0["lab_b"])) }) { first, _ in first }
        return ranked.map { Hit(photoID: $0.id, score: $0.weight, lab: heaviest[$0.id] ?? name.focalLab, name: name,
                                coverage: $0.weight, deltaE: nil) }
    }

    private func accentByName(_ name: ColourName, _ search: ColourSearch) throws -> [Hit] {
        let filter = filters(search, photoColumn: "c.photo_id")
        let sql = "SELECT c.photo_id, c.accent_coverage, c.accent_l, c.accent_a, c.accent_b FROM photo_colour c" + filter.sql
            + (filter.sql.isEmpty ? " WHERE " : " AND ")
            + "c.accent_name = ? AND c.accent_coverage >= ? ORDER BY c.accent_coverage DESC, c.photo_id" + limitSQL(search)
        var arguments = filter.arguments
        arguments += [name.rawValue, search.minimumCoverage]
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
            Hit(photoID: $0[0], score: $0[1], lab: Lab(l: $0[2], a: $0[3], b: $0[4]), name: name, coverage: $0[1], deltaE: nil)
        }
    }

    /// A box in CIELAB around `target` holding every colour within `within` ΔE00 of it: ΔE00 divides
    /// lightness differences by at most 1.8 and chroma and hue differences by at most 1 + 0.045 C.
    static func searchBox(around target: Lab, within: Double) -> (l: ClosedRange<Double>, a: ClosedRange<Double>, b: ClosedRange<Double>) {
        let chroma = target.lch.c
        let lightness = 1.8 * within + 0.5
        let colour = within * (1 + 0.045 * (chroma + 2 * within)) * 1.5 + 0.5
        return ((target.l - lightness)...(target.l + lightness), (target.a - colour)...(target.a + colour),
                (target.b - colour)...(target.b + colour))
    }

    private func boxArguments(_ target: Lab, _ search: ColourSearch) -> StatementArguments {
        let box = Self.searchBox(around: target, within: search.within)
        return [box.l.lowerBound, box.l.upperBound, box.a.lowerBound, box.a.upperBound, box.b.lowerBound, box.b.upperBound]
    }

    private static let boxConditions = """
        i.l_max >= ? AND i.l_min <= ? AND i.a_max >= ? AND i.a_min <= ? AND i.b_max >= ? AND i.b_min <= ?
        """

    private func paletteByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        let filter = filters(search, photoColumn: "p.photo_id")
        let sql = """
            SELECT p.photo_id, p.lab_l, p.lab_a, p.lab_b, p.weight, p.name
            FROM palette_index i JOIN palette_entry p ON p.photo_id = i.id >> 3 AND p.rank = i.id & 7
            """ + filter.sql + (filter.sql.isEmpty ? " WHERE " : " AND ") + Self.boxConditions
        var arguments = filter.arguments
        arguments += boxArguments(target, search)
        var byPhoto: [PhotoID: Hit] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let lab = Lab(l: row[1], a: row[2], b: row[3])
            let distance = deltaE2000(target, lab)
            guard distance <= search.within else { continue }
            let weight: Double = row[4]
            let id: PhotoID = row[0]
            // Closer colours count more; the closest one is shown as the match.
            let contribution = weight * (1 - distance / (search.within + 1e-9))
            if var hit = byPhoto[id] {
                hit.score += contribution
                hit.coverage += weight
                if distance < hit.deltaE! {
                    hit.deltaE = distance
                    hit.lab = lab
                    hit.name = ColourName(rawValue: row[5]) ?? .grey
                }
                byPhoto[id] = hit
            } else {
                byPhoto[id] = Hit(photoID: id, score: contribution, lab: lab, name: ColourName(rawValue: row[5]) ?? .grey,
                                  coverage: weight, deltaE: distance)
            }
        }
        return rank(Array(byPhoto.values), search)
    }

    private func accentByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        let filter = filters(search, photoColumn: "c.photo_id")
        let sql = """
            SELECT c.photo_id, c.accent_l, c.accent_a, c.accent_b, c.accent_coverage, c.accent_name
            FROM accent_index i JOIN photo_colour c ON c.photo_id = i.id
            """ + filter.sql + (filter.sql.isEmpty ? " WHERE " : " AND ") + Self.boxConditions
        var arguments = filter.arguments
        arguments += boxArguments(target, search)
        var hits: [Hit] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let lab = Lab(l: row[1], a: row[2], b: row[3])
            let distance = deltaE2000(target, lab)
            guard distance <= search.within else { continue }
            let coverage: Double = row[4]
            hits.append(Hit(photoID: row[0], score: coverage * (1 - distance / (search.within + 1e-9)), lab: lab,
                            name: ColourName(rawValue: row[5]) ?? .grey, coverage: coverage, deltaE: distance))
        }
        return rank(hits, search)
    }

    private func rank(_ hits: [Hit], _ search: ColourSearch) -> [Hit] {
        let kept = hits.filter { $0.coverage >= search.minimumCoverage }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.photoID < $1.photoID }
        return search.filters.limit.map { Array(kept.prefix($0)) } ?? kept
    }
}
