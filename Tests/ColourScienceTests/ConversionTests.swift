import ColourScience
import Imaging
import XCTest

final class ConversionTests: XCTestCase {
    func testSRGBTransferFunctionRoundTripsAndHasTheStandardKnee() {
        for value in stride(from: 0.0, through: 1.0, by: 0.01) {
            XCTAssertEqual(SRGB.encoded(SRGB.linear(value)), value, accuracy: 1e-12)
        }
        XCTAssertEqual(SRGB.linear(0.04045), 0.04045 / 12.92, accuracy: 1e-12)
        XCTAssertEqual(SRGB.linear(0.5), 0.214041, accuracy: 1e-6)
        XCTAssertEqual(SRGB.linearTable[255], 1, accuracy: 1e-12)
    }

    func testKnownColoursHaveTheirPublishedLabValues() {
        // Reference values for sRGB (D65) primaries and white.
        let expectations: [(RGBA, Lab)] = [
            (.white, Lab(l: 100, a: 0, b: 0)),
            (.black, Lab(l: 0, a: 0, b: 0)),
            (.red, Lab(l: 53.24, a: 80.09, b: 67.20)),
            (.green, Lab(l: 87.73, a: -86.18, b: 83.18)),
            (.blue, Lab(l: 32.30, a: 79.19, b: -107.86)),
            (RGBA(red: 128, green: 128, blue: 128), Lab(l: 53.59, a: 0, b: 0)),
        ]
        for (pixel, expected) in expectations {
            let lab = Lab(pixel)
            XCTAssertEqual(lab.l, expected.l, accuracy: 0.02, "\(pixel)")
            XCTAssertEqual(lab.a, expected.a, accuracy: 0.02, "\(pixel)")
            XCTAssertEqual(lab.b, expected.b, accuracy: 0.02, "\(pixel)")
        }
    }

    func testLabRoundTripsToTheSamePixel() {
        for red in stride(from: 0, through: 255, by: 17) {
            for green in stride(from: 0, through: 255, by: 51) {
                for blue in stride(from: 0, through: 255, by: 85) {
                    let pixel = RGBA(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    XCTAssertEqual(Lab(pixel).rgba, pixel)
                }
            }
        }
    }

    func testOutOfGamutColoursAreClamped() {
        XCTAssertEqual(Lab(l: 100, a: 120, b: 120).rgba.red, 255)
        XCTAssertEqual(Lab(l: 0, a: 0, b: 0).hex, "#000000")
    }

    func testLChIsThePolarFormOfLab() {
        let lch = Lab(l: 50, a: 0, b: 10).lch
        XCTAssertEqual(lch.c, 10, accuracy: 1e-12)
        XCTAssertEqual(lch.h, 90, accuracy: 1e-12)
        XCTAssertEqual(Lab(l: 50, a: 3, b: -4).lch.h, 306.87, accuracy: 0.01)
        let back = LCh(l: 50, c: 5, h: 306.87).lab
        XCTAssertEqual(back.a, 3, accuracy: 0.001)
        XCTAssertEqual(back.b, -4, accuracy: 0.001)
    }

    func testHuesEitherSideOfZeroAreNeighbours() {
        XCTAssertEqual(Hue.distance(355, 5), 10)
        XCTAssertEqual(Hue.distance(5, 355), 10)
        XCTAssertEqual(Hue.distance(0, 180), 180)
        XCTAssertEqual(Hue.distance(90, 100), 10)
        XCTAssertEqual(Hue.degrees(-.pi / 2), 270, accuracy: 1e-12)
    }

    func testHexAndRGBTextAreParsed() {
        XCTAssertEqual(RGBA(parsing: "#1f5aa6"), RGBA(red: 0x1F, green: 0x5A, blue: 0xA6))
        XCTAssertEqual(RGBA(parsing: "1F5AA6"), RGBA(red: 0x1F, green: 0x5A, blue: 0xA6))
        XCTAssertEqual(RGBA(parsing: "#f00"), .red)
        XCTAssertEqual(RGBA(parsing: "rgb(10, 20, 30)"), RGBA(red: 10, green: 20, blue: 30))
        for bad in ["#12345", "#GG0000", "rgb(1,2)", "rgb(1,2,300)", "red", "", "bad", "f00"] {
            XCTAssertNil(RGBA(parsing: bad), bad)
        }
        XCTAssertEqual(RGBA(red: 0x1F, green: 0x5A, blue: 0xA6).hex, "#1F5AA6")
        for value in UInt8.min...UInt8.max {
            let colour = RGBA(red: value, green: 255 - value, blue: value / 3)
            XCTAssertEqual(colour.hex, String(format: "#%02X%02X%02X", value, 255 - value, value / 3))
        }
    }

    func testAColourOnThePositiveAAxisHasHueZeroNotThreeSixty() {
        XCTAssertEqual(Hue.degrees(0), 0)
        XCTAssertEqual(Lab(l: 50, a: 20, b: 0).lch.h, 0)
        // Just below the axis: 360 − a hair rounds to 360 itself, which is 0°, not a hue past the circle.
        XCTAssertEqual(Hue.degrees(-1e-16), 0)
        XCTAssertEqual(Lab(l: 50, a: 1, b: -1e-16).lch.h, 0)
        XCTAssertEqual(Hue.degrees(-1e-9), 360 - 1e-9 * 180 / .pi, accuracy: 1e-12)
    }
}
