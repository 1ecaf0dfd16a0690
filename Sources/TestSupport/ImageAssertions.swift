import Fixtures
import Imaging
import XCTest

/// Fails the test at the first pixel that differs by more than `tolerance` in any channel,
/// saying where it is and what the two colours were.
public func assertImagesEqual(
    _ actual: RGBAImage, _ expected: RGBAImage, tolerance: Int = 0,
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    guard actual.width == expected.width, actual.height == expected.height else {
        XCTFail("size \(actual.width)×\(actual.height) is not \(expected.width)×\(expected.height). \(message)", file: file, line: line)
        return
    }
    if let difference = firstDifference(actual, expected, tolerance: tolerance) {
        XCTFail("pixel (\(difference.x), \(difference.y)) is \(difference.actual), expected \(difference.expected) ± \(tolerance). \(message)", file: file, line: line)
    }
}
