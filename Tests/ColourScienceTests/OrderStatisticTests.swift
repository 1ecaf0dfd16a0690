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
}
