import Foundation

/// How striking a photo's show variant would be — one clearly chromatic accent that covers a modest
/// part of the frame against a rest that does not compete — worked out from its stored palette and
/// accent alone (no decoding). Score = 100 × vividness × size × calm.
public struct SplashPotential: Equatable, Sendable {
    /// 0–100.
    public var score: Double
    /// From the accent's chroma: 0 at C* 20 (barely a colour), rising smoothly to 1 at C* 80.
    public var vividness: Double
    /// From the accent's coverage: a bell over the logarithm of the share, 1 at 8% of the frame (a red
    /// bus in a street), 0.79 at 4% or 16%, 0.27 at 40%, 0.04 for the whole frame (a photo that is all
    /// green has nothing to single out); tiny accents under 3% fade out too.
    public var size: Double
    /// The share of the rest of the frame that is not strongly coloured in another hue: 1 for a grey
    /// street, low for a market stall of every colour.
    public var calm: Double
    /// A short human reason: "small vivid red accent (6% of frame) against a grey scene".
    public var reason: String

    /// Palette entries within this hue distance of the accent belong to it, not to the rest.
    static let accentHueWindow = 30.0

    /// nil for a photo without an accent colour: it has nothing to splash.
    public init?(_ colours: ColourAnalysis) {
        guard let accent = colours.accent else { return nil }
        let chroma = accent.lab.lch.c
        let coverage = min(max(accent.coverage, 0), 1)
        vividness = SplashParameters.smoothstep((chroma - 20) / 60)
        let octaves = log(max(coverage, 1e-6) / 0.08)
        size = SplashParameters.smoothstep(coverage / 0.03) * exp(-octaves * octaves / 2)
        let rest = colours.palette.filter { !Self.belongs($0, to: accent) }
        let competing = rest.reduce(0) { $0 + $1.weight * SplashParameters.smoothstep(($1.lab.lch.c - 12) / 30) }
        calm = 1 - min(1, competing / max(1 - coverage, 0.05))
        score = (100 * vividness * size * calm * 10).rounded() / 10
        reason = Self.reason(accent: accent, chroma: chroma, coverage: coverage, rest: rest, calm: calm)
    }

    static func belongs(_ entry: PaletteEntry, to accent: Accent) -> Bool {
        let lch = entry.lab.lch
        return lch.c >= 12 && Hue.distance(lch.h, accent.hue) <= accentHueWindow
    }

    static func reason(accent: Accent, chroma: Double, coverage: Double, rest: [PaletteEntry], calm: Double) -> String {
        let size = coverage < 0.1 ? "small" : (coverage < 0.25 ? "medium" : "large")
        let vivid = chroma >= 60 ? "vivid" : (chroma >= 40 ? "saturated" : "soft")
        let percent = coverage * 100
        let share = percent < 1 ? String(format: "%.1f%%", percent) : "\(Int(percent.rounded()))%"
        var text = "\(size) \(vivid) \(accent.name.rawValue) accent (\(share) of frame)"
        if let scene = rest.max(by: { $0.weight < $1.weight }) {
            if calm < 0.5 {
                text += " among other strong colours"
            } else if scene.lab.lch.c < 15 {
                text += " against a \(scene.name.rawValue) scene"
            } else {
                text += " against a mostly \(scene.name.rawValue) scene"
            }
        }
        return text
    }
}
