import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// The documented JSON of one catalogued photo (Docs/Usage.md).
struct PhotoJSON: Encodable {
    var id: Int64
    var path: String
    var sha256: String
    var format: String
    var width: Int
    var height: Int
    var fileSize: Int64
    var importedAt: String
    var exif: ExifMetadata?
    /// Only in `gallery show`.
    var duplicatePaths: [String]?
    /// Every EXIF tag as text; only in `gallery show`.
    var exifTags: [String: String]?
    /// The XMP packet; only in `gallery show`, when the photo has one.
    var xmp: String?
    var palette: [PaletteJSON]?
    var dominant: DominantJSON?
    /// Present (possibly null) once the photo's colours are analysed.
    var accent: AccentJSON??
    /// "ordinary", "colour target" or "busy scene" (neither of the last two has an accent), once analysed.
    var scene: String?
    /// The accent candidates, most salient first; only in `gallery show`.
    var candidates: [CandidateJSON]?
    /// Only in `gallery show`.
    var variants: [VariantJSON]?

    struct CandidateJSON: Encodable {
        var hex: String
        var name: String
        var hue: Double
        var coverage: Double
        var saliency: Double
        var contrast: Double
        var regions: Int
        var compactness: Double
        var texture: Double
    }

    struct PaletteJSON: Encodable {
        var hex: String
        var lab: [Double]
        var weight: Double
        var name: String
    }

    struct DominantJSON: Encodable {
        var hex: String
        var name: String
    }

    struct AccentJSON: Encodable {
        var hex: String
        var name: String
        var hue: Double
        var coverage: Double
    }

    static func rounded(_ value: Double, _ places: Double = 4) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

    init(_ photo: CataloguedPhoto, detailed: Bool = false) {
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
        case palette, dominant, accent, scene, candidates, variants
    }

    func encode(to encoder: any Encoder) throws {
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
        try container.encodeIfPresent(candidates, forKey: .candidates)
        try container.encodeIfPresent(variants, forKey: .variants)
    }
}
