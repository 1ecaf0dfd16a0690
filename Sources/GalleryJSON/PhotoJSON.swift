import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// The documented JSON of one catalogued photo (Docs/Usage.md).
public struct PhotoJSON: Encodable {
    public var id: Int64
    public var path: String
    public var sha256: String
    public var format: String
    public var width: Int
    public var height: Int
    public var fileSize: Int64
    public var importedAt: String
    public var exif: ExifMetadata?
    /// Only in `gallery show`.
    public var duplicatePaths: [String]?
    /// Every EXIF tag as text; only in `gallery show`.
    public var exifTags: [String: String]?
    /// The XMP packet; only in `gallery show`, when the photo has one.
    public var xmp: String?
    public var palette: [PaletteJSON]?
    public var dominant: DominantJSON?
    /// Present (possibly null) once the photo's colours are analysed.
    public var accent: AccentJSON??
    /// "ordinary", "colour target" or "busy scene" (neither of the last two has an accent), once analysed.
    public var scene: String?
    /// True when the accent is a person's choice among the candidates (absent otherwise).
    public var subjectChosen: Bool?
    /// The accent candidates, most salient first; only in `gallery show`.
    public var candidates: [CandidateJSON]?
    /// Only in `gallery show`.
    public var variants: [VariantJSON]?

    public struct CandidateJSON: Encodable {
        public var hex: String
        public var name: String
        public var hue: Double
        public var coverage: Double
        public var saliency: Double
        public var contrast: Double
        public var regions: Int
        public var compactness: Double
        public var texture: Double
    }

    public struct PaletteJSON: Encodable {
        public var hex: String
        public var lab: [Double]
        public var weight: Double
        public var name: String
    }

    public struct DominantJSON: Encodable {
        public var hex: String
        public var name: String
    }

    public struct AccentJSON: Encodable {
        public var hex: String
        public var name: String
        public var hue: Double
        public var coverage: Double
    }

    public static func rounded(_ value: Double, _ places: Double = 4) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

    public init(_ photo: CataloguedPhoto, detailed: Bool = false) {
        id = photo.id
        path = photo.path
        sha256 = photo.facts.sha256
        format = photo.facts.format.rawValue
        width = photo.facts.pixelSize.width
        height = photo.facts.pixelSize.height
        fileSize = photo.stamp.size
        importedAt = ISO8601.string(photo.importedAt)
        exif = photo.facts.exif.map(photo.facts.format.exifWithOrientationLeft)
        if detailed {
            duplicatePaths = photo.duplicatePaths
            exifTags = photo.facts.exif?.allTags ?? [:]
            variants = photo.variants.map(VariantJSON.init)
            xmp = photo.facts.xmp
        }
        if let colours = photo.facts.colours {
            palette = colours.palette.map {
                PaletteJSON(hex: $0.hex, lab: [$0.lab.l, $0.lab.a, $0.lab.b].map { Self.rounded($0, 2) },
                            weight: Self.rounded($0.weight), name: $0.name.rawValue)
            }
            dominant = colours.dominant.map { DominantJSON(hex: $0.hex, name: $0.name.rawValue) }
            scene = colours.scene.rawValue
            subjectChosen = colours.subjectChosen ? true : nil
            accent = .some(colours.accent.map {
                AccentJSON(hex: $0.hex, name: $0.name.rawValue, hue: Self.rounded($0.hue, 1), coverage: Self.rounded($0.coverage))
            })
            if detailed {
                candidates = colours.candidates.map {
                    CandidateJSON(hex: $0.hex, name: $0.name.rawValue, hue: Self.rounded($0.hue, 1), coverage: Self.rounded($0.coverage),
                                  saliency: Self.rounded($0.saliency, 3), contrast: Self.rounded($0.contrast, 1), regions: $0.regions,
                                  compactness: Self.rounded($0.compactness, 3), texture: Self.rounded($0.texture, 2))
                }
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, path, sha256, format, width, height, fileSize, importedAt, exif, duplicatePaths, exifTags, xmp
        case palette, dominant, accent, scene, subjectChosen, candidates, variants
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(path, forKey: .path)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(importedAt, forKey: .importedAt)
        try container.encodeIfPresent(exif, forKey: .exif)
        try container.encodeIfPresent(duplicatePaths, forKey: .duplicatePaths)
        try container.encodeIfPresent(exifTags, forKey: .exifTags)
        try container.encodeIfPresent(xmp, forKey: .xmp)
        try container.encodeIfPresent(palette, forKey: .palette)
        try container.encodeIfPresent(dominant, forKey: .dominant)
        // A photo without a chromatic colour has "accent": null.
        if let accent { try container.encode(accent, forKey: .accent) }
        try container.encodeIfPresent(scene, forKey: .scene)
        try container.encodeIfPresent(subjectChosen, forKey: .subjectChosen)
        try container.encodeIfPresent(candidates, forKey: .candidates)
        try container.encodeIfPresent(variants, forKey: .variants)
    }
}
