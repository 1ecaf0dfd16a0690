import Imaging
import TestSupport
import XCTest

/// Four flat quadrants (red, green, blue, white), so that a lossy picture still has pixels of
/// known colour well inside each, and every turn and mirror moves them somewhere else.
func quadrants(width: Int = 64, height: Int = 48) -> RGBAImage {
    var image = TestImage.solid(.white, width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            image[x, y] = y < height / 2 ? (x < width / 2 ? .red : .green) : (x < width / 2 ? .blue : .white)
        }
    }
    return image
}

/// Each quadrant's centre within `tolerance` levels per channel of the expected picture's:
/// HEVC, AV1 and lossy WebP store colour at half resolution.
func assertQuadrantsMatch(_ image: RGBAImage, _ expected: RGBAImage, tolerance: Int = 24, _ message: String = "",
                          file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(PixelSize(width: image.width, height: image.height), PixelSize(width: expected.width, height: expected.height),
                   message, file: file, line: line)
    guard image.width == expected.width, image.height == expected.height else { return }
    for (fx, fy) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
        let x = expected.width * fx / 4, y = expected.height * fy / 4
        let got = image[x, y], want = expected[x, y]
        let difference = max(abs(Int(got.red) - Int(want.red)), abs(Int(got.green) - Int(want.green)), abs(Int(got.blue) - Int(want.blue)))
        XCTAssertLessThanOrEqual(difference, tolerance, "\(message) at (\(x), \(y)): \(got) for \(want)", file: file, line: line)
    }
}
