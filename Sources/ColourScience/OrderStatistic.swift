extension Array where Element: Comparable {
    /// The value `sorted()[rank]` would hold, found in linear time by selection (Hoare's quickselect,
    /// median-of-three pivots); the array is left partly reordered.
    mutating func select(rank: Int) -> Element { select(rank: rank, above: 0) }

    /// The values `sorted()[rank]` would hold for each of `ranks` (ascending). Selecting one leaves the
    /// values above it above it, so each next selection searches only those.
    mutating func select(ranks: [Int]) -> [Element] {
        var low = 0
        return ranks.map { rank in
            defer { low = Swift.max(low, rank + 1) }
            return select(rank: rank, above: Swift.min(low, rank))
        }
    }

    /// `sorted()[rank]`, searched for from position `low` on: the values before it are none above it.
    private mutating func select(rank: Int, above low: Int) -> Element {
        precondition(indices.contains(rank), "rank \(rank) of \(count) values")
        return withUnsafeMutableBufferPointer { values in
            var low = low, high = values.count - 1
            while low < high {
                let middle = low + (high - low) / 2
                // Median of three as the pivot: sorted input does not make it quadratic.
                if values[middle] < values[low] { values.swapAt(middle, low) }
                if values[high] < values[low] { values.swapAt(high, low) }
                if values[high] < values[middle] { values.swapAt(high, middle) }
                let pivot = values[middle]
                var i = low, j = high
                while i <= j {
                    while values[i] < pivot { i += 1 }
                    while pivot < values[j] { j -= 1 }
                    if i <= j {
                        values.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                // [low, j] ≤ pivot ≤ [i, high]; between them, values equal to the pivot.
                if rank <= j { high = j } else if rank >= i { low = i } else { return values[rank] }
            }
            return values[rank]
        }
    }
}
