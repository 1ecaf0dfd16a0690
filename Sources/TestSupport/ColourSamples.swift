import ColourScience
import Imaging

extension PaletteEntry {
    /// A palette entry of this sRGB colour and weight, named as the analyser names it.
    public static func sample(_ hex: String, _ weight: Double) -> PaletteEntry {
        let lab = Lab(RGBA(parsing: hex)!)
        return PaletteEntry(lab: lab, weight: weight, name: ColourName.nearest(to: lab))
    }
}

extension Accent {
    /// An accent of this sRGB colour covering this share of the frame, named as the analyser names it.
    public static func sample(_ hex: String, coverage: Double) -> Accent {
        let lab = Lab(RGBA(parsing: hex)!)
        return Accent(lab: lab, hue: lab.lch.h, coverage: coverage, name: ColourName.nearest(to: lab))
    }
}
