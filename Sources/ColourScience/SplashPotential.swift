import Foundation
import Imaging

/// How striking a photo's show picture would be, worked out from its stored analysis alone (no
/// decoding): one clear accent that stands out, keeping a modest share of the frame in colour, in
/// few compact regions, in contrast with the greyed rest, in a scene that is not a riot of hues but
/// has colour for the show picture to take away, in a picture large enough to look at.
/// Score = 100 × p × photographic × resolution, p the learned inspiration model's probability that a
/// person would call the photo worth a splash (`LearnedWeights.inspiration`), from the logarithms of
/// the other terms: a weighted product of them, its weights fitted from labels (Docs/Quality.md,
/// "Learned weights"). Photographic and resolution are gates, not fitted: every labelled photo is a
/// photograph of a fair size, so the labels cannot say what a logo or a thumbnail is worth.
public struct SplashPotential: Equatable, Sendable {
    /// 0–100.
    public var score: Double
    /// From the accent's chroma: 0 at C* 20 (barely a colour), rising smoothly to 1 at C* 70.
    public var vividness: Double
    /// From the share of the frame kept in colour: 1 from 1.5% to 20%, falling to 0 at 0.15% (a speck)
    /// and at 50% (a show picture that is mostly colour is no splash).
    public var size: Double
    /// From the kept regions: 1 for one compact subject, less for a colour spread over the frame or
    /// broken into many pieces.
    public var focus: Double
    /// From the ΔE00 between the accent and what surrounds it: 0 at 8, 1 at 45.
    public var contrast: Double
    /// 1 for a scene of up to three saturated hue families; a colour chart, a market or a toy shop
    /// (five or more) falls towards 0.
    public var calm: Double
    /// 1 for a colour with the shading and texture of a photographed thing; towards 0 for a flat
    /// colour a program filled (a square, a chart): 0 at a mean L* step of 0, 1 from 0.3.
    public var photographic: Double
    /// How much the accent stands out of its own scene: its saliency (0–1), low for a sky or a wall
    /// at the edge of the frame.
    public var standout: Double
    /// How much colour the show picture takes away from the rest: 0.3 when the rest is already grey
    /// (show ≈ original), 1 from a mean C* of 12 over the frame in the palette's colours of other
    /// hues (more than 30° from the accent's) and near-greys (C* under 10, which no splash keeps).
    public var change: Double
    /// 0 for a thumbnail (0.03 megapixels, about 200 × 150), 1 from 0.3 megapixels.
    public var resolution: Double
    /// A short human reason naming what made the score: "one compact vivid red subject (6% of the
    /// frame), strong contrast, calm scene".
    public var reason: String

    /// nil for a photo without an accent that stands out: it has nothing to splash.
    public init?(_ colours: ColourAnalysis, pixelSize: PixelSize, model: LogisticModel = LearnedWeights.inspiration) {
        guard let accent = colours.accent else { return nil }
        let chroma = accent.lab.lch.c
        let coverage = min(max(accent.coverage, 0), 1)
        let vividness = smoothstep((chroma - 20) / 50)
        let size = smoothstep(log10(max(coverage, 1e-6) / 0.001_5)) * (1 - smoothstep((coverage - 0.2) / 0.3))
        let focus = (0.5 + 0.5 * min(max(accent.compactness, 0), 1)) / (1 + 0.15 * Double(max(0, accent.regions - 2)))
        let contrast = smoothstep((accent.contrast - 8) / 37)
        let excess = Double(max(0, colours.hueFamilies - 3))
        let calm = exp(-0.7 * excess * excess)
        let photographic = smoothstep(accent.texture / 0.3)
        let standout = min(max(accent.saliency, 0), 1)
        let otherChroma = colours.palette.filter { $0.lab.lch.c < 10 || Hue.distance($0.lab.lch.h, accent.lab.lch.h) > 30 }
            .reduce(0) { $0 + $1.weight * $1.lab.lch.c }
        let change = 0.3 + 0.7 * smoothstep((otherChroma - 2) / 10)
        let megapixels = Double(pixelSize.width) * Double(pixelSize.height) / 1e6
        let resolution = smoothstep(log10(max(megapixels, 1e-6) / 0.03))
        self.vividness = vividness
        self.size = size
        self.focus = focus
        self.contrast = contrast
        self.calm = calm
        self.photographic = photographic
        self.standout = standout
        self.change = change
        self.resolution = resolution
        reason = Self.reason(accent: accent, chroma: chroma, coverage: coverage, size: size, focus: focus, contrast: contrast,
                             calm: calm, photographic: photographic, change: change, resolution: resolution, pixelSize: pixelSize)
        let features = Self.features(vividness: vividness, size: size, focus: focus, contrast: contrast, calm: calm,
                                     standout: standout, change: change)
        score = (1000 * model.probability(features) * photographic * resolution).rounded() / 10
    }

    /// The names of `features`' entries.
    public static let featureNames = ["log vividness", "log size", "log focus", "log contrast", "log calm", "log standout", "log change"]

    /// The inspiration model's inputs: each term's logarithm (a hundredth added, so that a term of 0 weighs
    /// a lot but not without end).
    public var features: [Double] {
        Self.features(vividness: vividness, size: size, focus: focus, contrast: contrast, calm: calm, standout: standout, change: change)
    }

    static func features(vividness: Double, size: Double, focus: Double, contrast: Double, calm: Double, standout: Double,
                         change: Double) -> [Double] {
        [vividness, size, focus, contrast, calm, standout, change].map { log($0 + 0.01) }
    }

    static func reason(accent: Accent, chroma: Double, coverage: Double, size: Double, focus: Double, contrast: Double,
                       calm: Double, photographic: Double, change: Double, resolution: Double, pixelSize: PixelSize) -> String {
        let vivid = chroma >= 60 ? "vivid" : (chroma >= 40 ? "saturated" : "soft")
        let percent = coverage * 100
        let share = percent < 1 ? String(format: "%.1f%%", percent) : "\(Int(percent.rounded()))%"
        let subject = accent.regions <= 1 ? "one" : (accent.regions <= 3 ? "a few" : "many")
        let shape = focus >= 0.75 ? "compact " : (focus < 0.5 ? "scattered " : "")
        let subjects = accent.regions <= 1 ? "subject" : "subjects"
        var parts = ["\(subject) \(shape)\(vivid) \(accent.name.rawValue) \(subjects) (\(share) of the frame)"]
        if size < 0.5 { parts.append(coverage < 0.015 ? "too small to carry the picture" : "too large to stand out") }
        parts.append(contrast >= 0.6 ? "strong contrast" : (contrast >= 0.25 ? "some contrast" : "little contrast"))
        parts.append(calm >= 0.9 ? "calm scene" : "busy scene of many colours")
        if photographic < 0.5 { parts.append("a flat colour, as drawn by a program") }
        if change < 0.6 { parts.append("little other colour for the show picture to take away") }
        if resolution < 0.5 { parts.append("too small a picture (\(pixelSize.width) × \(pixelSize.height))") }
        return parts.joined(separator: ", ")
    }
}
