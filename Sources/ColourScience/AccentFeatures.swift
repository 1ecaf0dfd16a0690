import Foundation

/// What the eye measures of one candidate colour of a photo (one hue family's vivid core): the
/// inputs of the learned accent model, `LearnedWeights.accent`.
public struct AccentFeatures: Equatable, Sendable, Codable {
    /// Mean C* of its pixels.
    public var chroma: Double
    /// L* of its chroma-weighted colour.
    public var lightness: Double
    /// Its hue, degrees (CIELAB h of its chroma-weighted colour): people single out a red or a yellow
    /// more readily than the green of leaves or the blue of a sky.
    public var hue: Double
    /// Share of the frame, 0–1.
    public var coverage: Double
    /// ΔE00 against a ring around it.
    public var contrast: Double
    /// 1 gathered in one place, 0 spread over the frame.
    public var compactness: Double
    /// Share of the frame's edge pixels it holds: a sky, a sea, a meadow holds much of it.
    public var edgeShare: Double
    /// Mean L* step between neighbouring pixels: shading and texture of a photographed thing.
    public var texture: Double
    /// Regions making up most of it.
    public var regions: Int
    /// All its regions larger than a speck.
    public var pieces: Int
    /// The product of hand-set terms the eye ranked by before it learned (vividness × contrast × size ×
    /// figure × focus, `AccentFinder.score`): one feature among the others now.
    public var saliency: Double
    /// Saturated hue families in the whole photo.
    public var hueFamilies: Int
    /// Its chroma over that of the photo's most chromatic candidate.
    public var relativeChroma: Double
    /// Its coverage over that of the photo's largest candidate.
    public var relativeCoverage: Double
    /// How far its centre lies from the frame's, in half-diagonals: 0 in the middle, 1 in a corner.
    public var offCentre: Double

    public init(chroma: Double, lightness: Double, hue: Double, coverage: Double, contrast: Double, compactness: Double, edgeShare: Double,
                texture: Double, regions: Int, pieces: Int, saliency: Double, hueFamilies: Int, relativeChroma: Double = 1,
                relativeCoverage: Double = 1, offCentre: Double = 0) {
        self.offCentre = offCentre
        self.chroma = chroma
        self.lightness = lightness
        self.hue = hue
        self.coverage = coverage
        self.contrast = contrast
        self.compactness = compactness
        self.edgeShare = edgeShare
        self.texture = texture
        self.regions = regions
        self.pieces = pieces
        self.saliency = saliency
        self.hueFamilies = hueFamilies
        self.relativeChroma = relativeChroma
        self.relativeCoverage = relativeCoverage
    }

    /// The names of `vector`'s entries.
    public static let names = [
        "chroma", "lightness", "log coverage", "log coverage squared", "contrast", "compactness", "edge share", "log texture",
        "log regions", "log saliency", "hue families", "relative chroma", "log relative coverage", "hue cosine", "hue sine",
        "double hue cosine", "double hue sine", "off centre", "warm dullness",
    ]

    /// The model's inputs: the measures on scales where a weighted sum makes sense (sizes by their
    /// logarithm, with its square so that a size can be too small and too large).
    public var vector: [Double] {
        let logCoverage = log10(max(coverage, 1e-5)), radians = hue * .pi / 180
        return [
            chroma / 50, lightness / 50, logCoverage, (logCoverage + 2) * (logCoverage + 2), contrast / 20, compactness, edgeShare,
            log1p(texture), log(Double(max(regions, 1))), log10(saliency + 1e-3), Double(min(hueFamilies, 12)) / 5,
            relativeChroma, log10(max(relativeCoverage, 1e-4)), cos(radians), sin(radians), cos(2 * radians), sin(2 * radians),
            offCentre,
            // Skin, wood, stone and earth: warm hues (near 55°) at low chroma, which the hue terms
            // and the chroma term apart cannot single out; whether they matter is the fit's to say.
            exp(-pow(Hue.distance(hue, 55) / 25, 2)) * max(0, 1 - chroma / 45),
        ]
    }
}
