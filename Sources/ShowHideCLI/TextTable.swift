import Foundation

/// A plain-text table with left-aligned columns, for human-readable listings.
struct TextTable {
    let headers: [String]
    var rows: [[String]] = []

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table, one string per line, without trailing spaces.
    func render(bold: (String) -> String = { $0 }) -> [String] {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return [bold(line(headers))] + rows.map(line)
    }
}
