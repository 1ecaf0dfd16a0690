import ColourScience
import Foundation
import GRDB

/// Palettes, accents and colour-name weights, and searching by colour.
struct ColourRepository {
    let db: Database

    func set(_ colours: ColourAnalysis, of id: PhotoID) throws {
        for table in ["palette_entry", "photo_colour", "colour_name_weight"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE photo_id = ?").execute(arguments: [id])
        }
        for (rank, entry) in colours.palette.prefix(8).enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO palette_entry (photo_id, rank, lab_l, lab_a, lab_b, hex, weight, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [id, rank, entry.lab.l, entry.lab.a, entry.lab.b, entry.hex, entry.weight, entry.name.rawValue])
        }
        let accent = colours.accent
        try db.cachedStatement(sql: """
            INSERT INTO photo_colour (photo_id, dominant_hex, dominant_name, accent_l, accent_a, accent_b,
                                      accent_hex, accent_hue, accent_coverage, accent_name)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, colours.dominant?.hex, colours.dominant?.name.rawValue, accent?.lab.l, accent?.lab.a,
                             accent?.lab.b, accent?.hex, accent?.hue, accent?.coverage, accent?.name.rawValue])
        for (name, weight) in colours.nameWeights {
            try db.cachedStatement(sql: "INSERT INTO colour_name_weight (photo_id, name, weight) VALUES (?, ?, ?)")
                .execute(arguments: [id, name.rawValue, weight])
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

    /// The region of CIELAB around `target` holding every colour within `within` ΔE00 of it. ΔE00 divides a
    /// lightness difference by at most 1.8, a chroma difference by 1 + 0.045 C̄ and a hue difference by
    /// 1 + 0.015 C̄ T ≤ 1 + 0.021 C̄ (C̄ the mean chroma). That bounds the chroma of a match, then its
    /// hue angle; the box is the bounding box of that sector of the a*b* plane, widened by 30% for the
    /// rotation term and the a* stretch CIEDE2000 applies to greyish colours.
    /// The search box, and within it the ring of chroma and the sector of hue that can hold a match.
    struct SearchRegion {
        var l: ClosedRange<Double>
        var a: ClosedRange<Double>
        var b: ClosedRange<Double>
        var chroma: ClosedRange<Double>
        /// Unit vectors at the two edges of the hue sector, when it is narrower than a half-turn.
        var sector: (from: (Double, Double), to: (Double, Double))?
    }

    static func searchRegion(around target: Lab, within: Double) -> SearchRegion {
        // The rotation term of CIEDE2000 shrinks differences most in the blues (hue 225°–325°).
        let hue = target.lch.h
        let d = within * ((200...350).contains(hue) ? 2.0 : 1.3)
        // SL grows with the mean lightness's distance from 50: widen until the bound holds.
        var lightness = within
        for _ in 0..<8 {
            let farthest = max(abs(target.l + lightness / 2 - 50), abs(target.l - lightness / 2 - 50))
            let sl = 1 + 0.015 * farthest * farthest / (20 + farthest * farthest).squareRoot()
            lightness = within * 1.05 * sl + 0.5
        }
        let lch = target.lch
        let c = lch.c
        let k = 0.0225 * d
        let maximumChroma = (c * (1 + k) + d) / max(1 - k, 0.05)
        let minimumChroma = max(0, (c * (1 - k) - d) / (1 + k))
        // Hue can be anything when the sector touches the neutral axis.
        var hueSpread = Double.pi
        if minimumChroma > 0 {
            let hueTolerance = d * (1 + 0.021 * (c + maximumChroma) / 2)
            let ratio = hueTolerance / (2 * (c * minimumChroma).squareRoot())
            if ratio < 1 { hueSpread = 2 * asin(ratio) }
        }
        let centre = lch.h * .pi / 180
        var aValues: [Double] = [], bValues: [Double] = []
        // Corners of the sector, and the axis crossings within it.
        var angles = [centre - hueSpread, centre + hueSpread]
        for quarter in -8...8 {
            let angle = Double(quarter) * .pi / 2
            if angle > centre - hueSpread && angle < centre + hueSpread { angles.append(angle) }
        }
        for angle in angles {
            for radius in [minimumChroma, maximumChroma] {
                aValues.append(radius * cos(angle))
                bValues.append(radius * sin(angle))
            }
        }
        let margin = 0.5
        let from = centre - hueSpread, to = centre + hueSpread
        return SearchRegion(
            l: (target.l - lightness)...(target.l + lightness),
            a: (aValues.min()! - margin)...(aValues.max()! + margin),
            b: (bValues.min()! - margin)...(bValues.max()! + margin),
            chroma: max(0, minimumChroma - margin)...(maximumChroma + margin),
            sector: hueSpread < .pi / 2 ? ((cos(from), sin(from)), (cos(to), sin(to))) : nil
        )
    }

    /// SQL conditions for the region: the R*Tree box, then plain arithmetic on the point — inside the
    /// chroma ring and, when the hue sector is narrow, on the inner side of both its edges (cross
    /// products, with half a unit of slack).
    private func regionConditions(_ target: Lab, _ search: ColourSearch) -> (sql: String, arguments: StatementArguments) {
        let region = Self.searchRegion(around: target, within: search.within)
        var sql = """
            i.l_max >= ? AND i.l_min <= ? AND i.a_max >= ? AND i.a_min <= ? AND i.b_max >= ? AND i.b_min <= ?
            AND i.a_min * i.a_min + i.b_min * i.b_min BETWEEN ? AND ?
            """
        var arguments: StatementArguments = [
            region.l.lowerBound, region.l.upperBound, region.a.lowerBound, region.a.upperBound,
            region.b.lowerBound, region.b.upperBound,
            region.chroma.lowerBound * region.chroma.lowerBound, region.chroma.upperBound * region.chroma.upperBound,
        ]
        if let sector = region.sector {
            sql += " AND ? * i.b_min - ? * i.a_min >= -0.5 AND i.a_min * ? - i.b_min * ? >= -0.5"
            arguments += [sector.from.0, sector.from.1, sector.to.1, sector.to.0]
        }
        return (sql, arguments)
    }

    /// `showhide_delta_e(l1, a1, b1, l2, a2, b2)`: CIEDE2000 inside SQLite, so that the colours of a
    /// search box that do not match are dropped before a row is joined or handed to Swift.
    static let deltaEFunction = DatabaseFunction("showhide_delta_e", argumentCount: 6, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 6 else { return nil }
        return deltaE2000(Lab(l: numbers[0], a: numbers[1], b: numbers[2]), Lab(l: numbers[3], a: numbers[4], b: numbers[5]))
    }


    /// Shares tried in turn: entries at least this heavy are looked at first, and the search stops
    /// as soon as the limit is filled with matches that no lighter entry could beat.
    static let shareThresholds = [0.5, 0.25, 0.12, 0.06, 0.03, 0.0]

    /// Ranks photos by their best matching entry, weight × (1 − ΔE00 / within); a photo whose
    /// entries are all lighter than t cannot score t, which is what lets the search stop early.
    private func paletteByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        try byColour(target, search, index: "palette_index", sql: """
            SELECT p.photo_id, p.lab_l, p.lab_a, p.lab_b, p.weight, p.name
            FROM palette_index i JOIN palette_entry p ON p.photo_id = i.id >> 3 AND p.rank = i.id & 7
            """, photoColumn: "p.photo_id", coverage: paletteCoverage)
    }

    private func accentByColour(_ target: Lab, _ search: ColourSearch) throws -> [Hit] {
        try byColour(target, search, index: "accent_index", sql: """
            SELECT c.photo_id, c.accent_l, c.accent_a, c.accent_b, c.accent_coverage, c.accent_name
            FROM accent_index i JOIN photo_colour c ON c.photo_id = i.id
            """, photoColumn: "c.photo_id", coverage: { hits, _, _ in hits })
    }

    private func byColour(_ target: Lab, _ search: ColourSearch, index: String, sql select: String, photoColumn: String,
                          coverage: ([Hit], Lab, Double) throws -> [Hit]) throws -> [Hit] {
        let filter = filters(search, photoColumn: photoColumn)
        // The R*Tree holds 32-bit coordinates: a little slack keeps its ΔE00 filter from dropping a match.
        let region = regionConditions(target, search)
        let sql = select + filter.sql + (filter.sql.isEmpty ? " WHERE " : " AND ") + region.sql
            + " AND i.w_max >= ? AND i.w_min < ? AND showhide_delta_e(i.l_min, i.a_min, i.b_min, ?, ?, ?) <= ?"
        let limit = search.filters.limit ?? Int.max
        var best: [PhotoID: Hit] = [:]
        var ranked: [Hit] = []
        var ceiling = 2.0
        for threshold in Self.shareThresholds {
            // Each round reads only the entries lighter than the last round's.
            var arguments = filter.arguments
            arguments += region.arguments
            // The index keeps shares in percent.
            arguments += [threshold * 100, ceiling * 100, target.l, target.a, target.b, search.within + 0.01]
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
                best[id] = Hit(photoID: id, score: score, lab: lab, name: ColourName(rawValue: row[5]) ?? .grey,
                               coverage: weight, deltaE: distance)
            }
            let candidates = Array(best.values)
            // Coverage needs every entry of a photo: worked out for all candidates only when it filters.
            ranked = rank(search.minimumCoverage > 0 ? try coverage(candidates, target, search.within) : candidates, search, limit: nil)
            if ranked.count >= limit, ranked[limit - 1].score >= threshold { break }
        }
        let top = Array(ranked.prefix(limit))
        return search.minimumCoverage > 0 ? top : rank(try coverage(top, target, search.within), search, limit: limit)
    }

    /// Each hit's coverage: the share of its photo's palette within the distance, all entries counted.
    private func paletteCoverage(_ hits: [Hit], target: Lab, within: Double) throws -> [Hit] {
        var byPhoto = Dictionary(uniqueKeysWithValues: hits.map { ($0.photoID, $0) })
        for chunk in stride(from: 0, to: hits.count, by: 500).map({ Array(hits[$0..<min($0 + 500, hits.count)]) }) {
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
        let kept = hits.filter { $0.coverage >= search.minimumCoverage }
            .sorted { $0.score != $1.score ? $0.score > $1.score : $0.photoID < $1.photoID }
        return limit.map { Array(kept.prefix($0)) } ?? kept
    }
}
