@testable import ColourScience
import Imaging
import XCTest

final class ColourNameTests: XCTestCase {
    func testSkippingReferencesByTheLowerBoundFindsTheSameNearestAsTryingEvery() {
        // Every 17th sRGB level on each channel: 4,096 colours, from black to white through every hue.
        let levels = stride(from: 0, through: 255, by: 17).map { UInt8($0) }
        var compared = 0
        for red in levels {
            for green in levels {
                for blue in levels {
                    let colour = Lab(RGBA(red: red, green: green, blue: blue))
                    var best = ColourName.grey, bestDistance = Double.infinity
                    for reference in ColourName.referenceLabs {
                        let distance = deltaE2000(colour, reference.lab)
                        if distance < bestDistance { (best, bestDistance) = (reference.name, distance) }
                    }
                    XCTAssertEqual(ColourName.nearestReference(to: colour, among: ColourName.referenceLabs), best, "\(red) \(green) \(blue)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 4_096)
    }

    func testAPaleColourCountsTowardsItsHueNameOnlyInPart() {
        // A mauve dusk sky (C* 23): pink by the rule, but 3 of the 10 C* above pink's least chroma.
        let dusk = LCh(l: 63, c: 23, h: 330).lab
        XCTAssertEqual(ColourName.nearest(to: dusk), .pink)
        let shares = ColourName.shares(of: dusk)
        XCTAssertEqual(shares.map(\.name).first, .pink)
        XCTAssertEqual(shares[0].share, 0.3, accuracy: 0.01)
        XCTAssertEqual(shares.count, 2)
        XCTAssertTrue([.white, .grey, .brown].contains(shares[1].name), "the rest goes to the neutral name: \(shares[1].name)")
        XCTAssertEqual(shares.reduce(0) { $0 + $1.share }, 1, accuracy: 1e-12)
        // Most of the way up the margin is still in part: 8 of the 10.
        let paleRose = ColourName.shares(of: LCh(l: 63, c: 28, h: 330).lab)
        XCTAssertEqual(paleRose.first?.name, .pink)
        XCTAssertEqual(paleRose.first?.share ?? 0, 0.8, accuracy: 0.01)
        // Vivid colours and neutrals count wholly towards their names.
        for colour in [LCh(l: 55, c: 60, h: 350).lab, LCh(l: 50, c: 45, h: 250).lab, Lab(l: 50, a: 0, b: 0)] {
            let whole = ColourName.shares(of: colour)
            XCTAssertEqual(whole.count, 1)
            XCTAssertEqual(whole[0].name, ColourName.nearest(to: colour))
            XCTAssertEqual(whole[0].share, 1)
        }
    }

    func testTheEdgesOfTheNamesHold() {
        // An olive-yellow in shade (h 92°), which the nearest reference calls green: yellow by its hue.
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 40, c: 35, h: 92).lab), .yellow)
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 40, c: 35, h: 130).lab), .green)
        // A pale sky blue of C* 22 is blue (its least chroma is 20), a grey-blue of C* 18 is not.
        XCTAssertEqual(ColourName.nearest(to: LCh(l: 75, c: 22, h: 240).lab), .blue)
        XCTAssertNotEqual(ColourName.nearest(to: LCh(l: 75, c: 18, h: 240).lab), .blue)
        // Nine tenths of the pale margin up counts nine tenths.
        let almost = ColourName.shares(of: LCh(l: 63, c: 29, h: 330).lab)
        XCTAssertEqual(almost.first?.name, .pink)
        XCTAssertEqual(almost.first?.share ?? 0, 0.9, accuracy: 0.01)
    }

    func testEveryReferenceColourIsChromaticEnoughForItsName() {
        for (name, references) in ColourName.references {
            for reference in references {
                XCTAssertGreaterThanOrEqual(Lab(reference).lch.c, ColourName.minimumChroma[name] ?? 0, "\(name) \(reference.hex)")
            }
        }
    }

    func testPaleAndNearNeutralTonesAreNotHueNames() {
        // Peach, cream, tan and beige: near the pink, yellow and orange references in ΔE00, but too dull.
        for hex in ["#E7BFB5", "#ECD5AC", "#C6A679", "#D8C3A5", "#5E6B4E", "#8B6784"] {
            let name = ColourName.nearest(to: Lab(RGBA(parsing: hex)!))
            XCTAssertTrue([.white, .grey, .brown].contains(name), "\(hex) is \(name)")
        }
        // The same hues with enough chroma keep their names.
        for (hex, name) in [("#F08080", ColourName.pink), ("#F2C14E", .yellow), ("#D2883C", .orange), ("#4E7D2E", .green)] {
            XCTAssertEqual(ColourName.nearest(to: Lab(RGBA(parsing: hex)!)), name, hex)
        }
    }

    func testNeighboursOfEachFocalColourKeepItsName() {
        // Colours a few ΔE00 from each focal colour, in every direction.
        for name in ColourName.allCases {
            let focal = name.focalLab
            for (dl, da, db) in [(2.0, 0.0, 0.0), (-2.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0.0, -2.0, 0.0), (0.0, 0.0, 2.0), (0.0, 0.0, -2.0)] {
                let neighbour = Lab(l: focal.l + dl, a: focal.a + da, b: focal.b + db)
                XCTAssertEqual(ColourName.nearest(to: neighbour), name, "\(name) moved by (\(dl), \(da), \(db))")
            }
        }
    }

    func testEverydayColoursGetTheirEverydayNames() {
        // Olive (#808000) has the yellow primary's hue, h 103°: it is a yellow in shade, as a rapeseed field
        // under cloud, by the yellow–green limit the accent labels chose; olive drab (#6B8E23, h 120°) is green.
        let expectations: [(String, ColourName)] = [
            ("#FF0000", .red), ("#B22222", .red), ("#FFA500", .orange), ("#FF7F50", .orange), ("#FFFF00", .yellow),
            ("#FFD700", .yellow), ("#808000", .yellow), ("#008000", .green), ("#228B22", .green), ("#6B8E23", .green),
            ("#556B2F", .green), ("#9ACD32", .green), ("#0000FF", .blue), ("#000080", .blue), ("#87CEEB", .blue),
            ("#1F5AA6", .blue), ("#800080", .purple), ("#8A2BE2", .purple), ("#FFC0CB", .pink), ("#FF69B4", .pink),
            ("#8B4513", .brown), ("#A0522D", .brown), ("#000000", .black),
            ("#111111", .black), ("#FFFFFF", .white), ("#F5F5F5", .white), ("#808080", .grey), ("#A9A9A9", .grey),
            ("#555555", .grey),
        ]
        for (hex, name) in expectations {
            XCTAssertEqual(ColourName.nearest(to: Lab(RGBA(parsing: hex)!)), name, hex)
        }
    }

    func testGrayIsGreyAndCaseDoesNotMatter() {
        XCTAssertEqual(ColourName(parsing: "gray"), .grey)
        XCTAssertEqual(ColourName(parsing: " Grey "), .grey)
        XCTAssertEqual(ColourName(parsing: "RED"), .red)
        XCTAssertNil(ColourName(parsing: "teal"))
    }

    func testOnlyHueNamesNeedChromaAndNamesSortInTheirOrder() {
        XCTAssertEqual(Set(ColourName.minimumChroma.keys), [.red, .orange, .yellow, .green, .blue, .purple, .pink])
        XCTAssertLessThan(ColourName.black, ColourName.brown)
    }
}
