import ColourScience
import Imaging
import TestSupport
import XCTest

/// Straight seams: where a show picture's kept colour jumps along a line the photo does not draw.
final class SeamTests: XCTestCase {
    /// A smooth gradient of hue from 30° (orange) on the left to 110° (yellow-green) on the right, light
    /// rising with it, and a soft orange-red disc (its edge fading into the ground over 40 pixels): the
    /// photo draws no line anywhere. 800 × 600, the size the seam measure is defined at.
    static func gradientWithASoftObject() -> RGBAImage {
        var image = TestImage.solid(.black, width: 800, height: 600)
        let centre = (x: 300.0, y: 320.0), radius = 110.0, fade = 40.0
        for y in 0..<600 {
            for x in 0..<800 {
                let along = Double(x) / 799
                let ground = LCh(l: 58 + 12 * along + 4 * Double(y) / 599, c: 42, h: 30 + 80 * along)
                let distance = ((Double(x) - centre.x) * (Double(x) - centre.x) + (Double(y) - centre.y) * (Double(y) - centre.y)).squareRoot()
                let inside = min(max((radius + fade / 2 - distance) / fade, 0), 1)
                let object = LCh(l: 52, c: 66, h: 42)
                let mixed = Lab(l: ground.lab.l + (object.lab.l - ground.lab.l) * inside, a: ground.lab.a + (object.lab.a - ground.lab.a) * inside,
                                b: ground.lab.b + (object.lab.b - ground.lab.b) * inside)
                image[x, y] = mixed.rgba
            }
        }
        return image
    }

    func testAnObjectSplashOfAGradientSceneHasNoSeam() {
        let image = Self.gradientWithASoftObject()
        for hue in [42.0, 60] {
            let show = Splash(parameters: SplashParameters(hue: hue, method: .object), image: image).apply(.show, to: image)
            let seams = SeamMeasure().seams(original: image, show: show)
            XCTAssertEqual(seams, [], "hue \(hue): the kept colour fades where the photo is smooth, along no straight line")
        }
    }

    func testAStraightCutThroughASmoothGroundIsASeamAndOneAlongTheRealEdgeIsNot() throws {
        // A smooth orange gradient, its right part greyed from column 500 on: a seam the photo does not have.
        var photo = TestImage.solid(.black, width: 800, height: 600)
        for y in 0..<600 {
            for x in 0..<800 { photo[x, y] = LCh(l: 50 + 20 * Double(x) / 799, c: 50, h: 55).lab.rgba }
        }
        var cut = photo
        for y in 0..<600 {
            for x in 500..<800 { cut[x, y] = Lab(l: Lab(photo[x, y]).l, a: 0, b: 0).rgba }
        }
        let measure = SeamMeasure()
        let seams = measure.seams(original: photo, show: cut)
        XCTAssertTrue(measure.isSeamed(seams))
        XCTAssertTrue(seams.allSatisfy { $0.vertical && abs($0.position - 500) <= 3 }, "\(seams)")
        XCTAssertEqual(seams.map(\.length).max(), 600 - 2 * measure.border)

        // The same cut where the photo itself changes colour at column 500 (a wall meets a door): no seam.
        var edged = photo
        for y in 0..<600 {
            for x in 500..<800 { edged[x, y] = LCh(l: 40, c: 30, h: 250).lab.rgba }
        }
        var edgedCut = edged
        for y in 0..<600 {
            for x in 0..<500 { edgedCut[x, y] = Lab(l: Lab(edged[x, y]).l, a: 0, b: 0).rgba }
        }
        XCTAssertEqual(measure.seams(original: edged, show: edgedCut), [])
        // A fade over 40 pixels instead of a cut: no seam either.
        var faded = photo
        for y in 0..<600 {
            for x in 480..<800 {
                let kept = max(0, 1 - Double(x - 480) / 40)
                let lab = Lab(photo[x, y])
                faded[x, y] = Lab(l: lab.l, a: lab.a * kept, b: lab.b * kept).rgba
            }
        }
        XCTAssertEqual(measure.seams(original: photo, show: faded), [])
        // A cut 30 pixels long, under the 40 a seam runs at least: none; 60 long: one.
        for (rows, seamed) in [(285..<315, false), (270..<330, true)] {
            var short = photo
            for y in rows {
                for x in 500..<800 { short[x, y] = Lab(l: Lab(photo[x, y]).l, a: 0, b: 0).rgba }
            }
            let found = measure.seams(original: photo, show: short).filter(\.vertical)
            XCTAssertEqual(!found.isEmpty, seamed, "\(rows.count) rows: \(found)")
        }
    }
}
