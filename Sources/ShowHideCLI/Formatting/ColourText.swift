import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// Colours as text: 24-bit ANSI swatches when colour is on, names and shares always.
struct ColourText {
    let console: Console

    /// Two cells painted in `hex`, or nothing without colour.
    func swatch(_ hex: String) -> String {
        guard console.usesColour, let rgba = RGBA(parsing: hex) else { return "" }
        // No-break spaces: a wrapped column keeps a swatch whole.
        return console.background("\u{00A0}\u{00A0}", red: rgba.red, green: rgba.green, blue: rgba.blue)
    }

    /// "▇▇ #CC141E red 6%".
    func describe(hex: String, name: ColourName, share: Double) -> String {
        let swatch = swatch(hex)
        return (swatch.isEmpty ? "" : swatch + " ") + "\(hex) \(name.rawValue) \(Self.percent(share))"
    }

    /// The palette as swatches, then the dominant and accent names.
    func summary(_ colours: ColourAnalysis?) -> String {
        guard let colours, let dominant = colours.dominant else { return "-" }
        let swatches = colours.palette.map { swatch($0.hex) }.joined()
        var text = dominant.name.rawValue
        if let accent = colours.accent { text += ", accent \(accent.name.rawValue) \(Self.percent(accent.coverage))" }
        return swatches.isEmpty ? text : swatches + " " + text
    }

    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value < 1 && value > 0 ? String(format: "%.1f%%", value) : String(format: "%.0f%%", value)
    }
}
