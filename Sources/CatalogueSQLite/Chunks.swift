extension Array {
    /// How many values one `IN (?, ?, …)` list binds: well under SQLite's limit on variables.
    static var sqlChunkSize: Int { 500 }

    /// The elements in consecutive runs of at most `sqlChunkSize`, one `IN` list each.
    func inChunksForSQL() -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: Self.sqlChunkSize).map { self[$0..<Swift.min($0 + Self.sqlChunkSize, count)] }
    }
}
