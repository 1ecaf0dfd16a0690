import ColourScience
import XCTest

final class CIEDE2000Tests: XCTestCase {
    /// Sharma, Wu and Dalal (2005), Table 1: L1 a1 b1 L2 a2 b2 ΔE00, kL = kC = kH = 1.
    static let referencePairs: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
        (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
        (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
        (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
        (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
        (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
        (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
        (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
        (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
        (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
        (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
        (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
        (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
        (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
        (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
        (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
        (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
        (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
        (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
    ]

    func testAllThirtyFourReferencePairsInBothOrders() {
        XCTAssertEqual(Self.referencePairs.count, 34)
        for (index, pair) in Self.referencePairs.enumerated() {
            let first = Lab(l: pair.0, a: pair.1, b: pair.2), second = Lab(l: pair.3, a: pair.4, b: pair.5)
            XCTAssertEqual(deltaE2000(first, second), pair.6, accuracy: 1e-4, "pair \(index + 1)")
            XCTAssertEqual(deltaE2000(second, first), pair.6, accuracy: 1e-4, "pair \(index + 1) reversed")
        }
    }

    func testTheLowerBoundNeverExceedsTheDifferenceAndIsExactForGreys() {
        // A fixed pseudo-random walk over the whole CIELAB range, and the 34 reference pairs.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var pairs = Self.referencePairs.map { (Lab(l: $0.0, a: $0.1, b: $0.2), Lab(l: $0.3, a: $0.4, b: $0.5)) }
        // Two blues of almost the same chroma and hue, where rounding once put ΔE an ulp under the bound.
        pairs.append((Lab(l: 54.77323416636165, a: -3.113677238088793, b: -79.32903146176834),
                      Lab(l: 56.66444112916855, a: -3.113677263783625, b: -79.32903139533916)))
        for _ in 0..<20_000 {
            pairs.append((Lab(l: next(0...100), a: next(-128...127), b: next(-128...127)),
                          Lab(l: next(0...100), a: next(-128...127), b: next(-128...127))))
        }
        for (first, second) in pairs {
            XCTAssertLessThanOrEqual(deltaE2000LowerBound(first, second), deltaE2000(first, second), "\(first) \(second)")
        }
        // A grey and a red of the same lightness: the chroma term alone rules the red out from 12.
        XCTAssertGreaterThan(deltaE2000LowerBound(Lab(l: 50, a: 0, b: 0), LCh(l: 50, c: 60, h: 30).lab), 12)
        // Two greys differ in lightness only, which the bound measures whole.
        XCTAssertEqual(deltaE2000LowerBound(Lab(l: 20, a: 0, b: 0), Lab(l: 70, a: 0, b: 0)),
                       deltaE2000(Lab(l: 20, a: 0, b: 0), Lab(l: 70, a: 0, b: 0)), accuracy: 1e-9)
    }

    func testAColourIsNoDistanceFromItself() {
        let colour = Lab(l: 53.2, a: 80.1, b: 67.2)
        XCTAssertEqual(deltaE2000(colour, colour), 0)
        XCTAssertEqual(deltaE2000(Lab(l: 50, a: 0, b: 0), Lab(l: 50, a: 0, b: 0)), 0)
    }

    func testTheLowerBoundHoldsForTwoBluesWhereTheRotationTermIsStrongest() {
        // Near hue 275° at high chroma R_T is near −√3, and ΔE² falls to a quarter of the chroma term's
        // square: a bound any larger would rule out a nearer reference colour when naming.
        let first = Lab(l: 55, a: 4.4349, b: -54.8209), second = Lab(l: 55, a: 5.3394, b: -56.7494)
        XCTAssertLessThanOrEqual(deltaE2000LowerBound(first, second), deltaE2000(first, second))
        XCTAssertLessThanOrEqual(deltaE2000LowerBound(second, first), deltaE2000(second, first))
    }
}
