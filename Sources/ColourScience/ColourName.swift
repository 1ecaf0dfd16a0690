import Foundation
import Imaging

/// The eleven basic colour terms of Berlin and Kay, which every language with that many names shares.
public enum ColourName: String, CaseIterable, Sendable, Codable, Comparable {
    case black, white, grey, red, orange, yellow, green, blue, purple, pink, brown

    /// Accepts "gray" for grey, any case, surrounding blanks.
    public init?(parsing text: String) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        self.init(rawValue: word == "gray" ? "grey" : word)
    }

    public static func < (lhs: ColourName, rhs: ColourName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Reference colours of each term in sRGB: its focal colour and the lighter, darker and duller
    /// variants people still call by that name. A colour is named after the nearest reference (ΔE00).
    public static let references: [ColourName: [RGBA]] = [
        .black: [rgb(0, 0, 0), rgb(28, 28, 32), rgb(20, 24, 36)],
        .white: [rgb(255, 255, 255), rgb(235, 235, 230), rgb(240, 242, 248)],
        .grey: [rgb(70, 70, 70), rgb(110, 110, 112), rgb(150, 150, 150), rgb(190, 190, 188), rgb(120, 125, 135)],
        .red: [rgb(220, 20, 30), rgb(255, 0, 0), rgb(170, 20, 30), rgb(120, 15, 20), rgb(200, 60, 50), rgb(150, 50, 40),
               rgb(205, 90, 70)],
        .orange: [rgb(255, 140, 0), rgb(240, 110, 30), rgb(250, 170, 80), rgb(220, 120, 50)],
        .yellow: [rgb(255, 230, 0), rgb(255, 255, 0), rgb(240, 220, 90), rgb(250, 240, 150), rgb(220, 200, 40),
                  rgb(215, 165, 35)],
        .green: [rgb(0, 160, 0), rgb(0, 128, 0), rgb(40, 110, 40), rgb(120, 200, 80), rgb(0, 100, 60), rgb(150, 190, 120),
                 rgb(90, 110, 50)],
        .blue: [rgb(0, 70, 200), rgb(0, 0, 255), rgb(30, 40, 120), rgb(0, 0, 128), rgb(80, 150, 230), rgb(0, 120, 180),
                rgb(135, 206, 235), rgb(60, 90, 140), rgb(20, 30, 70)],
        .purple: [rgb(130, 40, 170), rgb(128, 0, 128), rgb(80, 30, 110), rgb(170, 110, 210), rgb(100, 60, 130)],
        .pink: [rgb(255, 150, 190), rgb(255, 192, 203), rgb(230, 80, 150), rgb(220, 130, 150)],
        .brown: [rgb(130, 80, 40), rgb(139, 69, 19), rgb(90, 55, 30), rgb(170, 120, 80), rgb(150, 110, 90), rgb(60, 40, 25)],
    ]

    private static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> RGBA {
        RGBA(red: red, green: green, blue: blue)
    }

    static let referenceLabs: [(name: ColourName, lab: Lab)] = ColourName.allCases.flatMap { name in
        references[name]!.map { (name, Lab($0)) }
    }

    /// The term a person would use for `colour`: the nearest reference's, except that a hue name
    /// needs enough chroma for its hue (`minimumChroma`). A duller colour takes the nearest of black,
    /// white, grey and brown: peach, cream, tan, beige and a grey-green shadow are not pink, yellow,
    /// orange or green.
    ///
    /// Brown is dark and dull: a colour whose nearest reference is brown but whose chroma is at least
    /// `boundaries.brownMaximumChroma` takes the nearest hue name instead (a tiger, a prawn or a
    /// squirrel in shadow is orange).
    ///
    /// Red, orange and yellow are told apart by hue alone (`boundaries.redOrangeHue`,
    /// `boundaries.orangeYellowHue`) when those limits are set: shade darkens an orange and dulls it,
    /// but leaves its hue, where the nearest reference would call it red or brown. Yellow and green are
    /// told apart by hue alone (`boundaries.yellowGreenHue`) in the same way: shade dulls a yellow to
    /// olive, which the nearest reference calls green (a rapeseed field under cloud).
    public static func nearest(to colour: Lab, boundaries: NameBoundaries = LearnedWeights.nameBoundaries) -> ColourName {
        var name = nearestReference(to: colour, among: referenceLabs)
        let lch = colour.lch
        if name == .brown && lch.c >= boundaries.brownMaximumChroma { name = nearestReference(to: colour, among: hueReferenceLabs) }
        if [.red, .orange, .yellow].contains(name), let redOrange = boundaries.redOrangeHue, let orangeYellow = boundaries.orangeYellowHue,
           lch.h >= 20, lch.h < 110 {
            name = lch.h < redOrange ? .red : (lch.h < orangeYellow ? .orange : .yellow)
        }
        if [.yellow, .green].contains(name), let yellowGreen = boundaries.yellowGreenHue, lch.h >= 80, lch.h < 150 {
            name = lch.h < yellowGreen ? .yellow : .green
        }
        guard let minimum = minimumChroma[name], lch.c < minimum else { return name }
        return nearestReference(to: colour, among: neutralReferenceLabs)
    }

    /// How much of a colour a name's weight in a photo counts (`ColourAnalysis.nameWeights`, which a
    /// search by name ranks by): its name wholly, except a hue name within `paleMargin` of its least
    /// chroma, which shares the colour with the neutral name it would take below it, in proportion.
    /// The name itself is `nearest`'s; only how much of a pale colour counts towards it changes, so
    /// that a photo of vivid pink outranks one of a mauve dusk as pink by the rule, but barely.
    public static func shares(of colour: Lab, boundaries: NameBoundaries = LearnedWeights.nameBoundaries)
        -> [(name: ColourName, share: Double)] {
        let name = nearest(to: colour, boundaries: boundaries)
        guard let minimum = minimumChroma[name] else { return [(name, 1)] }
        let clear = (colour.lch.c - minimum) / paleMargin
        guard clear < 1 else { return [(name, 1)] }
        return [(name, clear), (nearestReference(to: colour, among: neutralReferenceLabs), 1 - clear)]
    }

    /// How far (C*) above its least chroma a hue name counts wholly in a photo's name weights: from C*
    /// 30 on for blue and pink, 40 for the others.
    public static let paleMargin = 10.0

    /// Where one name ends and the next begins, measured against the accent labels by `scripts/fit-eye`.
    public struct NameBoundaries: Equatable, Sendable {
        /// A colour whose nearest reference is brown is named by its hue from this chroma (C*) on.
        public var brownMaximumChroma: Double
        /// CIELAB hue (degrees) from which a red is orange; nil: the nearest reference decides.
        public var redOrangeHue: Double?
        /// CIELAB hue from which an orange is yellow; nil: the nearest reference decides.
        public var orangeYellowHue: Double?

        /// CIELAB hue from which a yellow is green; nil: the nearest reference decides.
        public var yellowGreenHue: Double?

        public init(brownMaximumChroma: Double = .infinity, redOrangeHue: Double? = nil, orangeYellowHue: Double? = nil,
                    yellowGreenHue: Double? = nil) {
            self.brownMaximumChroma = brownMaximumChroma
            self.redOrangeHue = redOrangeHue
            self.orangeYellowHue = orangeYellowHue
            self.yellowGreenHue = yellowGreenHue
        }
    }

    /// The least chroma (C*) each hue name needs. Yellow, orange, red, green and purple: 30, since cream
    /// (C* 23) and tan (28) are not yellow or orange, nor a greyish mauve (21) purple; blue and pink: 20,
    /// since sky blue (26) and light pink (24) are, and peach (16) is not pink.
    public static let minimumChroma: [ColourName: Double] = [
        .red: 30, .orange: 30, .yellow: 30, .green: 30, .purple: 30, .blue: 20, .pink: 20,
    ]

    private static let neutralReferenceLabs = referenceLabs.filter { minimumChroma[$0.name] == nil }
    private static let hueReferenceLabs = referenceLabs.filter { minimumChroma[$0.name] != nil }

    static func nearestReference(to colour: Lab, among references: [(name: ColourName, lab: Lab)]) -> ColourName {
        var best = ColourName.grey
        var bestDistance = Double.infinity
        for reference in references {
            // Most references are too far in lightness or chroma to be nearest: the bound rules them
            // out without CIEDE2000's hue trigonometry (the naming was 3% of an import's CPU).
            if deltaE2000LowerBound(colour, reference.lab) >= bestDistance { continue }
            let distance = deltaE2000(colour, reference.lab)
            if distance < bestDistance {
                bestDistance = distance
                best = reference.name
            }
        }
        return best
    }

    /// The focal (first) reference colour, in CIELAB: where a search for the name aims.
    public var focalLab: Lab { Lab(Self.references[self]![0]) }
}
