import ColourScience
import Imaging
import TestSupport
import XCTest

final class SplashTests: XCTestCase {
    let red = RGBA.red, green = RGBA.green, blue = RGBA.blue, white = RGBA.white
    var redHue: Double { Lab(red).lch.h }

    func greyPixel(_ pixel: RGBA) -> RGBA {
        let value = Splash.grey(pixel)
        return RGBA(red: value, green: value, blue: value, alpha: pixel.alpha)
    }

    func testShowKeepsOnlyTheTargetColour() {
        let image = TestImage.twoByTwo(red, green, blue, white)
        let shown = Splash(parameters: SplashParameters(hue: redHue)).apply(.show, to: image)
        XCTAssertEqual(shown.rows, [[red, greyPixel(green)], [greyPixel(blue), white]])
    }

    func testHideTurnsOnlyTheTargetColourGrey() {
        let image = TestImage.twoByTwo(red, green, blue, white)
        let hidden = Splash(parameters: SplashParameters(hue: redHue)).apply(.hide, to: image)
        XCTAssertEqual(hidden.rows, [[greyPixel(red), green], [blue, white]])
    }

    func testGreyKeepsEachPixelsLightness() {
        // Rec. 709 luminance in linear light, encoded back: pure red is 127, green 220, blue 76.
        XCTAssertEqual(Splash.grey(red), 127)
        XCTAssertEqual(Splash.grey(green), 220)
        XCTAssertEqual(Splash.grey(blue), 76)
        XCTAssertEqual(Splash.grey(white), 255)
        for pixel in [red, green, blue, RGBA(red: 30, green: 90, blue: 160), RGBA(red: 200, green: 180, blue: 20)] {
            XCTAssertEqual(Lab(greyPixel(pixel)).l, Lab(pixel).l, accuracy: 0.5, "\(pixel)")
        }
    }

    func testGreyPixelsAreNeverKeptAsAColour() {
        // A warm grey's hue angle is red's, but it has no chroma: the gate closes.
        let warmGrey = RGBA(red: 140, green: 128, blue: 128)
        let splash = Splash(parameters: SplashParameters(hue: Lab(warmGrey).lch.h))
        XCTAssertEqual(splash.keepWeight(warmGrey), 0, accuracy: 1e-6)
        let shown = splash.apply(.show, to: TestImage.solid(warmGrey, width: 3, height: 3))
        XCTAssertEqual(Set(shown.pixels), [greyPixel(warmGrey)])
    }

    func testThreeByThreeShowsTheBlueAndKeepsTheWhite() {
        let image = TestImage.checkerboard(blue, white)
        let shown = Splash(parameters: SplashParameters(hue: Lab(blue).lch.h)).apply(.show, to: image)
        assertImagesEqual(shown, image, "blue is kept and white is already grey")
        let hidden = Splash(parameters: SplashParameters(hue: Lab(blue).lch.h)).apply(.hide, to: image)
        XCTAssertEqual(hidden.rows[0], [greyPixel(blue), white, greyPixel(blue)])
    }

    func testTheEdgeIsFeatheredNotCut() {
        let parameters = SplashParameters(hue: 100, tolerance: 20, feather: 10, minimumChroma: 0, chromaFeather: 1e-9)
        let vivid = { (hue: Double) in LCh(l: 60, c: 50, h: hue) }
        XCTAssertEqual(parameters.keepWeight(vivid(100)), 1)
        XCTAssertEqual(parameters.keepWeight(vivid(120)), 1)
        XCTAssertEqual(parameters.keepWeight(vivid(125)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(parameters.keepWeight(vivid(130)), 0)
        XCTAssertGreaterThan(parameters.keepWeight(vivid(123)), parameters.keepWeight(vivid(127)))
    }

    func testHuesEitherSideOfZeroAreNeighbours() {
        let parameters = SplashParameters(hue: 355, tolerance: 15, feather: 5)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 60, h: 5)), 1)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 60, h: 345)), 1)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 60, h: 180)), 0)
    }

    func testTheChromaGateOpensSmoothly() {
        let parameters = SplashParameters(hue: 40, minimumChroma: 10, chromaFeather: 10)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 5, h: 40)), 0)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 15, h: 40)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(parameters.keepWeight(LCh(l: 50, c: 25, h: 40)), 1)
    }

    func testAlphaIsKeptAndTheSizeIsUnchanged() {
        let image = TestImage.from(rows: [[RGBA(red: 0, green: 200, blue: 0, alpha: 90), RGBA(red: 255, green: 0, blue: 0, alpha: 10)]])
        let shown = Splash(parameters: SplashParameters(hue: redHue)).apply(.show, to: image)
        XCTAssertEqual(shown.pixels.map(\.alpha), [90, 10])
        XCTAssertEqual(shown.width, 2)
        XCTAssertEqual(shown[1, 0], RGBA(red: 255, green: 0, blue: 0, alpha: 10))
    }

    func testTheTableAgreesWithTheFormulaWithinQuantisation() {
        let parameters = SplashParameters(hue: 250)
        let splash = Splash(parameters: parameters)
        for pixel in [RGBA(red: 20, green: 60, blue: 200), RGBA(red: 100, green: 140, blue: 180), RGBA(red: 252, green: 252, blue: 252)] {
            let exact = parameters.keepWeight(Lab(RGBA(red: pixel.red & 0xFC | pixel.red >> 6, green: pixel.green & 0xFC | pixel.green >> 6,
                                                          blue: pixel.blue & 0xFC | pixel.blue >> 6)).lch)
            XCTAssertEqual(splash.keepWeight(pixel), exact, accuracy: 0.5 / 255 + 1e-9, "weights are stored in 8 bits: \(pixel)")
        }
    }

    func testTheHueModeTableAgreesWithTheFormulaForUnusualWindowsAndGates() {
        // The table skips the colour science where the gate or the window is sure (whole units of
        // chroma, whole degrees of hue): odd gates, narrow and wide windows, and the wrap at 0°.
        let windows = [SplashParameters(hue: 3, tolerance: 0, feather: 0.5, minimumChroma: 0, chromaFeather: 0.5),
                       SplashParameters(hue: 358.6, tolerance: 25.3, feather: 7, minimumChroma: 3.7, chromaFeather: 2.2),
                       SplashParameters(hue: 140, tolerance: 90, feather: 30, minimumChroma: 30.5, chromaFeather: 25),
                       SplashParameters(hue: 250, tolerance: 170, feather: 20, minimumChroma: 12, chromaFeather: 10)]
        let levels = Array(stride(from: 0, to: 64, by: 3))
        for parameters in windows {
            let splash = Splash(parameters: parameters)
            for red in levels {
                for green in levels {
                    for blue in levels {
                        let pixel = RGBA(red: UInt8(red << 2 | red >> 4), green: UInt8(green << 2 | green >> 4), blue: UInt8(blue << 2 | blue >> 4))
                        XCTAssertEqual(splash.keepWeight(pixel), parameters.keepWeight(Lab(pixel).lch), accuracy: 0.5 / 255 + 1e-4,
                                       "\(pixel) with \(parameters)")
                    }
                }
            }
        }
    }

    func testKeepWeightsAreEachPixelsWeightInTheShowForBothVariants() throws {
        let image = TestImage.distinctPixels(width: 23, height: 40)
        let splash = Splash(parameters: SplashParameters(hue: 120, tolerance: 30, feather: 20))
        let weights = splash.keepWeights(of: image)
        XCTAssertEqual(weights.weights, image.pixels.map { UInt8((splash.keepWeight($0) * 255).rounded()) })
        XCTAssertTrue(weights.weights.contains(0) && weights.weights.contains(255) && weights.weights.contains { $0 % 255 != 0 })
        // One set of weights makes both variants, each pixel its grey mixed by its weight in that variant.
        for mode in SplashMode.allCases { assertEachPixelIsItsGreyMixedByItsWeight(try weights.rows(mode).image(), image, splash, mode) }
    }

    func testRunsOfPixelsAVariantLeavesAsTheyAreAreCopiedAndTheRestMixed() throws {
        // Runs of a wholly kept red (the show copies them), of a blue outside the window (the hide copies
        // them) and of an orange partly kept, 1 to 17 pixels long, so that the runs' ends fall inside,
        // at and beyond the eight weights read at a time, and at the row's end.
        let kept = RGBA(red: 200, green: 30, blue: 30), other = RGBA(red: 20, green: 60, blue: 200)
        let partly = RGBA(red: 230, green: 120, blue: 30)
        let splash = Splash(parameters: SplashParameters(hue: Lab(kept).lch.h, tolerance: 10, feather: 40))
        XCTAssertEqual(splash.keepWeight(kept), 1)
        XCTAssertEqual(splash.keepWeight(other), 0)
        XCTAssertTrue((0.05...0.95).contains(splash.keepWeight(partly)), "\(splash.keepWeight(partly))")
        let lengths = [1, 7, 8, 9, 16, 17, 3]
        var image = try RGBAImage(width: 61, height: lengths.count * 3, filledWith: other)
        for row in 0..<image.height {
            var x = 0, segment = row
            while x < image.width {
                let length = lengths[segment % lengths.count], colour = [kept, other, partly][segment % 3]
                for column in x..<min(image.width, x + length) { image[column, row] = colour }
                x += length
                segment += 1
            }
        }
        for mode in SplashMode.allCases {
            let output = splash.apply(mode, to: image)
            assertEachPixelIsItsGreyMixedByItsWeight(output, image, splash, mode)
            for (pixel, made) in zip(image.pixels, output.pixels) where (mode == .show ? splash.keepWeight(pixel) : 1 - splash.keepWeight(pixel)) == 1 {
                XCTAssertEqual(made, pixel, "\(mode)")
            }
        }
    }

    func testEveryPixelOfALargeImageIsItsGreyMixedByItsWeight() {
        // Tall enough for several parallel bands; each pixel against the formula, to a level for rounding.
        let image = TestImage.distinctPixels(width: 61, height: 203)
        let splash = Splash(parameters: SplashParameters(hue: 30, tolerance: 40, feather: 30, minimumChroma: 5))
        for mode in SplashMode.allCases { assertEachPixelIsItsGreyMixedByItsWeight(splash.apply(mode, to: image), image, splash, mode) }
    }

    /// Each pixel of `output` against the formula, to a level for rounding: `image`'s pixel mixed with its
    /// grey by its weight in `mode`, its alpha kept.
    func assertEachPixelIsItsGreyMixedByItsWeight(_ output: RGBAImage, _ image: RGBAImage, _ splash: Splash, _ mode: SplashMode,
                                                 line: UInt = #line) {
        for (pixel, made) in zip(image.pixels, output.pixels) {
            let weight = mode == .show ? splash.keepWeight(pixel) : 1 - splash.keepWeight(pixel)
            let grey = Double(Splash.grey(pixel))
            func mixed(_ channel: UInt8) -> Double { grey + (Double(channel) - grey) * weight }
            XCTAssertEqual(Double(made.red), mixed(pixel.red), accuracy: 1, "\(mode) \(pixel)", line: line)
            XCTAssertEqual(Double(made.green), mixed(pixel.green), accuracy: 1, "\(mode) \(pixel)", line: line)
            XCTAssertEqual(Double(made.blue), mixed(pixel.blue), accuracy: 1, "\(mode) \(pixel)", line: line)
            XCTAssertEqual(made.alpha, pixel.alpha, line: line)
        }
    }

    func testRowsForAnEncoderAreTheVariantsRows() throws {
        let image = TestImage.distinctPixels(width: 19, height: 50)
        let splash = Splash(parameters: SplashParameters(hue: 200))
        for mode in SplashMode.allCases {
            let rows = splash.rows(mode, of: image)
            XCTAssertEqual(try rows.image(), splash.apply(mode, to: image))
            // A band from the middle, written where the encoder asks.
            var band = [UInt8](repeating: 0, count: 3 * image.rowStride)
            band.withUnsafeMutableBufferPointer { rows.fill(20..<23, $0.baseAddress!, image.rowStride) }
            XCTAssertEqual(band, Array(splash.apply(mode, to: image).bytes[20 * image.rowStride..<23 * image.rowStride]))
        }
    }

    func testASmallRedObjectInAGreenSceneIsTheOnlyColourLeft() {
        var image = TestImage.solid(RGBA(red: 40, green: 140, blue: 50), width: 20, height: 10)
        for x in 8..<12 { image[x, 5] = RGBA(red: 210, green: 25, blue: 30) }
        let shown = Splash(parameters: SplashParameters(hue: Lab(RGBA(red: 210, green: 25, blue: 30)).lch.h)).apply(.show, to: image)
        let coloured = shown.pixels.filter { Lab($0).lch.c > 5 }
        XCTAssertEqual(coloured.count, 4)
        XCTAssertEqual(shown[9, 5], RGBA(red: 210, green: 25, blue: 30))
    }
}
