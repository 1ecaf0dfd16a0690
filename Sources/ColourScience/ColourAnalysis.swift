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

/// The colour a person would single out in a photo.
public struct Accent: Equatable, Sendable {
    public var lab: Lab
    /// Hue angle in degrees, 0–360 (CIELAB h).
    public var hue: Double
    /// Share of the photo's pixels in the accent's hue window, 0–1.
    public var coverage: Double
    public var name: ColourName

    public init(lab: Lab, hue: Double, coverage: Double, name: ColourName) {
        self.lab = lab
        self.hue = hue
        self.coverage = coverage
        self.name = name
    }

    public var hex: String { lab.hex }
}

/// Everything showhide knows of a photo's colours.
public struct ColourAnalysis: Equatable, Sendable {
    /// Up to eight entries, heaviest first.
    public var palette: [PaletteEntry]
    /// nil when the photo has no chromatic colour (a grey, black or white scene).
    public var accent: Accent?
    /// How much of the photo each basic colour term covers, 0–1, over all its colours (the palette
    /// before it is cut to eight entries), so that a small red object counts even in a busy photo.
    public var nameWeights: [ColourName: Double]

    /// Name weights default to the palette's own.
    public init(palette: [PaletteEntry], accent: Accent?, nameWeights: [ColourName: Double]? = nil) {
        self.palette = palette
        self.accent = accent
        self.nameWeights = nameWeights ?? palette.reduce(into: [:]) { $0[$1.name, default: 0] += $1.weight }
    }

    /// The heaviest palette entry, achromatic ones included: a photo of snow is white.
    public var dominant: PaletteEntry? { palette.first }

}
