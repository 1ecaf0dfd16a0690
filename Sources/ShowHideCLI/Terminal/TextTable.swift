import Foundation

/// A plain-text table with left-aligned columns, for human-readable listings. Given a width (the
/// terminal's), it fits it: columns marked `.elide` lose the middle of their text, columns marked
/// `.wrap` continue on the next lines, the others keep their width. Where even that is too wide, each
/// row becomes a record of its own, a line for each column under its heading.
struct TextTable {
    enum Fit {
        case keep
        case elide
        case wrap
    }

    let headers: [String]
    let fits: [Fit]
    var rows: [[String]] = []

    init(headers: [String], fits: [Fit]? = nil) {
        self.headers = headers
        self.fits = fits ?? headers.map { _ in .keep }
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The narrowest an elided column becomes.
    static let narrowest = 12
    /// The narrowest a wrapped column becomes.
    static let narrowestWrapped = 10

    /// The table, one string per line, without trailing spaces, within `width` columns when it can be.
    func render(width: Int? = nil, bold: (String) -> String = { $0 }) -> [String] {
        let widths = columnWidths(fitting: width)
        if let width, widths.reduce(0, +) + 2 * (widths.count - 1) > width { return records(width: width, bold: bold) }
        func lines(_ cells: [String]) -> [String] {
            let columns: [[String]] = cells.enumerated().map { column, cell in
                guard column < widths.count, TerminalText.width(cell) > widths[column] else { return [cell] }
                switch fits[column] {
                case .keep: return [cell]
                case .elide: return [TerminalText.elided(cell, to: widths[column])]
                case .wrap: return TerminalText.wrapped(cell, to: widths[column])
                }
            }
            let height = columns.map(\.count).max() ?? 1
            return (0..<height).map { index in
                let line = columns.enumerated().map { column, parts in
                    let part = index < parts.count ? parts[index] : ""
                    guard column < columns.count - 1 else { return part }
                    return part + String(repeating: " ", count: max(0, widths[column] - TerminalText.width(part)))
                }.joined(separator: "  ")
                return String(line.reversed().drop { $0 == " " }.reversed())
            }
        }
        return [bold(lines(headers).joined())] + rows.flatMap(lines)
    }

    /// Each row as a record, for a terminal too narrow for the table at its narrowest: a line for each
    /// column, its heading then its value (elided or continued on the next lines as in the table), and
    /// a blank line between rows.
    func records(width: Int, bold: (String) -> String) -> [String] {
        let labelWidth = headers.map(TerminalText.width).max() ?? 0
        // Narrower than a wrapped column's floor, values would be cut to letters.
        let valueWidth = max(width - labelWidth - 2, Self.narrowestWrapped)
        let indent = String(repeating: " ", count: labelWidth + 2)
        return rows.enumerated().flatMap { number, row -> [String] in
            let fields = zip(headers, row).enumerated().flatMap { column, field -> [String] in
                let (header, cell) = field
                // A value that must keep its width (an id, a date) continues on the next line rather than run off.
                let parts = fits[column] == .elide ? [TerminalText.elided(cell, to: valueWidth)]
                    : TerminalText.wrapped(cell, to: valueWidth)
                let label = bold(header) + String(repeating: " ", count: labelWidth - TerminalText.width(header) + 2)
                return parts.enumerated().map { index, part in
                    String(((index == 0 ? label : indent) + part).reversed().drop { $0 == " " }.reversed())
                }
            }
            return number == 0 ? fields : [""] + fields
        }
    }

    /// Each column's width: its widest cell, or less for elided and wrapped columns when the table
    /// would be wider than `width`.
    func columnWidths(fitting width: Int?) -> [Int] {
        var widths = headers.map(TerminalText.width)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], TerminalText.width(cell))
            }
        }
        guard let width else { return widths }
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - width
        // The widest column gives up a column first; an elided one counts as narrower than it is,
        // as eliding loses letters where wrapping loses nothing.
        func weight(_ column: Int) -> Double { Double(widths[column]) * (fits[column] == .elide ? 0.75 : 1) }
        while excess > 0 {
            let shrinkable = widths.indices.filter { column in
                let floor = fits[column] == .elide ? Self.narrowest : Self.narrowestWrapped
                return fits[column] != .keep && widths[column] > max(floor, TerminalText.width(headers[column]))
            }
            guard let widest = shrinkable.max(by: { weight($0) < weight($1) }) else { break }
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }
}
