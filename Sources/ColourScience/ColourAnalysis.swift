import Foundation
import Imaging

/// One colour of a photo's palette.
public struct PaletteEntry: Equatable, Sendable {
    public var lab: Lab
    /// Share of the photo's pixels, 0–1.
    public var weight: Double
    public var name: ColourName

    public init(lab: Lab, weight: Double, name: ColourName) {
        self.lab = lab
        self.weight = weight
        self.name = name
    }

    public var hex: String { lab.hex }
}

/// A colour a person would single out in a photo, and why it stands out.
public struct Accent: Equatable, Sendable {
    /// The mean colour of the regions it covers.
    public var lab: Lab
    /// The hue a splash of this accent keeps, degrees 0–360 (CIELAB h): that of its most prominent
    /// region, which may lie a few degrees from `lab`'s when the family joins a subject with
    /// duller, scattered shades of nearby hue (a fruit and the out-of-focus streak behind it).
    public var hue: Double
    /// Share of the whole photo its regions cover, 0–1.
    public var coverage: Double
    public var name: ColourName
    /// How likely a person would single it out, 0–1: the learned accent model's probability (`AccentFinder.judge`).
    public var saliency: Double
    /// ΔE00 between its regions and what surrounds them.
    public var contrast: Double
    /// How many regions make up most of it.
    public var regions: Int
    /// 1 for a colour gathered in one place, 0 for one spread over the whole frame.
    public var compactness: Double
    /// The mean change of L* between neighbouring pixels of its regions: a unit or more for a lit,
    /// shaded, textured object, near 0 for a flat colour a program filled (a logo, a chart, a square).
    public var texture: Double

    public init(lab: Lab, hue: Double, coverage: Double, name: ColourName, saliency: Double = 1, contrast: Double = 40,
                regions: Int = 1, compactness: Double = 1, texture: Double = 10) {
        self.lab = lab
        self.hue = hue
        self.coverage = coverage
        self.name = name
        self.saliency = saliency
        self.contrast = contrast
        self.regions = regions
        self.compactness = compactness
        self.texture = texture
    }

    public var hex: String { lab.hex }
}

/// Everything showhide knows of a photo's colours.
public struct ColourAnalysis: Equatable, Sendable {
    /// The version of the rules that make an analysis: a catalogue analyses again the photos
    /// analysed by an earlier one (1: accents by share and chroma; 2: accents by saliency; 3: the
    /// accent's splash hue from its most prominent region; 4: learned judgements of accents, scenes
    /// and names, `LearnedWeights`; 5: a pale colour counts only in part towards its name's weight,
    /// `ColourName.shares`; 6: the accent model also weighs a candidate's warm dullness, the skin,
    /// wood and stone a person does not single out; 7: the models' λ and thresholds chosen by a
    /// cross-validation repeated 40 times, not 4; 8: yellow and green told apart by hue, so an olive,
    /// a yellow in shade, is yellow).
    public static let rulesVersion = 8

    /// Up to eight entries, heaviest first.
    public var palette: [PaletteEntry]
    /// The colour that stands out; nil when none does (a grey scene, a meadow, a door filling the frame).
    public var accent: Accent?
    /// Up to three chromatic colours, most salient first, whether or not they stand out: the accent
    /// (when there is one) first.
    public var candidates: [Accent]
    /// How many distinct saturated hue families the whole photo holds: 1–2 for a subject on its
    /// ground, 6 or more for a colour chart, a market or a toy shop.
    public var hueFamilies: Int
    /// How much of the photo each basic colour term covers, 0–1, over all its colours (the palette
    /// before it is cut to eight entries), so that a small red object counts even in a busy photo; a
    /// pale colour counts towards its hue name only in part (`ColourName.shares`).
    public var nameWeights: [ColourName: Double]
    /// An ordinary scene, or one with no accent worth splashing: a colour target, a busy scene.
    public var scene: SceneKind
    /// The accent is a person's choice among the candidates (the web gallery's photo page), not the eye's.
    public var subjectChosen = false

    /// Name weights default to the palette's own.
    public init(palette: [PaletteEntry], accent: Accent?, nameWeights: [ColourName: Double]? = nil, candidates: [Accent]? = nil,
                hueFamilies: Int = 0, scene: SceneKind = .ordinary) {
        self.palette = palette
        self.scene = scene
        self.accent = accent
        self.candidates = candidates ?? accent.map { [$0] } ?? []
        self.hueFamilies = hueFamilies
        self.nameWeights = nameWeights ?? palette.reduce(into: [:]) { $0[$1.name, default: 0] += $1.weight }
    }

    /// The heaviest palette entry, achromatic ones included: a photo of snow is white.
    public var dominant: PaletteEntry? { palette.first }

}
