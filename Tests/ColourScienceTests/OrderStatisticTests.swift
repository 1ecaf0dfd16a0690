import Foundation
@testable import ColourScience
import XCTest

final class OrderStatisticTests: XCTestCase {
    func testSelectionFindsWhatSortingWouldForEveryRank() {
        let shapes: [[Float]] = [
            [5],
            [2, 1],
            Array(repeating: 3, count: 9),                              // all equal
            (0..<50).map(Float.init),                                   // sorted
            (0..<50).reversed().map(Float.init),                        // reversed
            (0..<200).map { Float(($0 * 37 + 11) % 7) },                // many duplicates
            (0..<301).map { Float(sin(Double($0) * 12.9898) * 100) },   // scattered
        ]
        for values in shapes {
            let sorted = values.sorted()
            for rank in values.indices {
                var copy = values
                XCTAssertEqual(copy.select(rank: rank), sorted[rank], "rank \(rank) of \(values)")
                XCTAssertEqual(copy.sorted(), sorted, "the values are only reordered")
            }
        }
    }

    /// The colour models' k-means starts from lightness quantiles selected among integer keys.
    func testSelectionWorksOnIntegerKeysAsOnFloats() {
        let keys: [UInt64] = (0..<257).map { UInt64(($0 * 7_919 + 13) % 1_009) << 32 | UInt64($0) }
        let sorted = keys.sorted()
        for rank in [0, 1, 64, 128, 200, 256] {
            var copy = keys
            XCTAssertEqual(copy.select(rank: rank), sorted[rank], "rank \(rank)")
        }
    }

    /// Several ranks at once, each searched for only among the values above the last.
    func testSelectingSeveralRanksFindsWhatSortingWouldForEach() {
        let shapes: [[Float]] = [
            (0..<200).map { Float(($0 * 37 + 11) % 7) },                // many duplicates
            (0..<301).map { Float(sin(Double($0) * 12.9898) * 100) },   // scattered
            (0..<64).reversed().map(Float.init),                        // reversed
        ]
        for values in shapes {
            let sorted = values.sorted()
            for ranks in [[0], [values.count - 1], [1, 2, 3], [5, 5, 9], [0, values.count / 3, values.count / 2, values.count - 1]] {
                var copy = values
                XCTAssertEqual(copy.select(ranks: ranks), ranks.map { sorted[$0] }, "ranks \(ranks) of \(values.count) values")
                XCTAssertEqual(copy.sorted(), sorted, "the values are only reordered")
            }
        }
    }
}
