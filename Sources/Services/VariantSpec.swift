import Catalogue
import ColourScience
import Foundation
import Imaging

/// One variant of one photo, as processing makes it, the catalogue keys it and the library files it:
/// show or hide, the splash (method, hue, tolerance, feather, minimum chroma) and the JPEG quality,
/// and from these the canonical key and the file's place under the library. The one owner of
/// variant parameters: processing, export, inspiration and the catalogue check ask it.
public struct VariantSpec: Equatable, Sendable {
    public var photoID: PhotoID
    /// The content hash of the photo: its variants' folder.
    public var sha256: String
    public var kind: SplashMode
    public var splash: SplashParameters
    /// The variants' format: the photo's, or JPEG for a HEIF photo.
    public var format: ImageFormat
    /// JPEG quality; nil for PNG variants, which have none.
    public var quality: Int?

    public init(photo: CataloguedPhoto, kind: SplashMode, splash: SplashParameters, quality: Int) {
        photoID = photo.id
        sha256 = photo.facts.sha256
        self.kind = kind
        self.splash = splash
        format = photo.facts.format.variantFormat
        self.quality = format == .jpeg ? quality : nil
    }

    /// The specs of a photo's variants under `options`, one per kind asked for; nil when the photo has
    /// nothing to splash for the target (`nothingToSplash` says why).
    public static func specs(for photo: CataloguedPhoto, options: ProcessingOptions) -> [VariantSpec]? {
        splash(for: photo, options: options).map { splash in
            options.kinds.map { VariantSpec(photo: photo, kind: $0, splash: splash, quality: options.quality) }
        }
    }

    /// The spec of one kind of a photo's variants under `options`; nil when it has nothing to splash.
    public static func spec(for photo: CataloguedPhoto, kind: SplashMode, options: ProcessingOptions) -> VariantSpec? {
        splash(for: photo, options: options).map { VariantSpec(photo: photo, kind: kind, splash: $0, quality: options.quality) }
    }

    /// The splash a photo's variants use under `options`, its numbers to a tenth and its hue in
    /// [0, 360); nil when the photo has no colour for the target.
    public static func splash(for photo: CataloguedPhoto, options: ProcessingOptions) -> SplashParameters? {
        let hue: Double
        switch options.target {
        case .accent:
            guard let accent = photo.facts.colours?.accent else { return nil }
            hue = accent.hue
        case let .candidate(rank):
            guard let candidates = photo.facts.colours?.candidates, candidates.indices.contains(rank - 1) else { return nil }
            hue = candidates[rank - 1].hue
        case let .hue(degrees): hue = degrees
        case let .colour(lab): hue = lab.lch.h
        }
        func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        // Rounded, then wrapped: 359.96° is 0°, as are 360° and -360°, so that each names one key and one file.
        var wrapped = tenth(hue).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return SplashParameters(hue: wrapped + 0,
                                tolerance: tenth(options.tolerance), feather: tenth(options.feather),
                                minimumChroma: tenth(options.minimumChroma), method: options.method)
    }

    /// Why a photo of the kind `scene` has nothing to splash for `target`.
    public static func nothingToSplash(_ target: SplashTarget, scene: SceneKind = .ordinary) -> String {
        if case let .candidate(rank) = target { return "no accent candidate of rank \(rank)" }
        switch scene {
        case .ordinary: return "no accent colour (no colour stands out)"
        case .colourTarget: return "no accent colour (a colour target)"
        case .busy: return "no accent colour (a busy scene)"
        }
    }

    /// The catalogue's key: the canonical text of the parameters, equal text for an equal variant.
    /// Hue-mode variants keep the text they had before object mode existed, so that their records
    /// still match. Object-mode keys carry the object mask's revision: when the mask is made another
    /// way, its variants are made again rather than found already made (the earlier ones are kept).
    public var key: String {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        var text = "{\"feather\":\(number(splash.feather)),\"hue\":\(number(splash.hue)),"
        if splash.method == .object { text += "\"method\":\"object\"," }
        text += "\"minimumChroma\":\(number(splash.minimumChroma)),"
        if let quality { text += "\"quality\":\(quality)," }
        if splash.method == .object { text += "\"revision\":\(Self.objectMaskRevision)," }
        return text + "\"tolerance\":\(number(splash.tolerance))}"
    }

    /// The object mask's revision: 17, seeds and growth only where the photo is in focus, near a step of
    /// its colours, unless almost none of the colour is (a butterfly's blurred olive ground was seeded and
    /// kept); 16, the cut learns the object's colours first mostly from the seeds (a
    /// lawn that a few specks seeded was learnt as the object and kept); 15, a small piece the frame cuts is
    /// dropped only beyond the cut's reach of the pieces that stay (a petal the frame crops beside the flower
    /// was greyed); 14, the object cut on 8 neighbours, its boundary costed by its length at any angle (on 4,
    /// through a smooth stretch a box or a stair was its cheapest line); 13, where the photo draws no line at
    /// a region's end the carrying, not the fade, ends it, weighing each pixel with the splash's chroma gate
    /// halved (the shaded side of a fruit went grey down the fade of the cut); 12, a region carries on beyond
    /// its cut by the change of the raster averaged over 3 × 3 (a peel's pits stopped the colour at the cut's
    /// straight line); 11, growth into shade reads its steps on the raster averaged over 3 × 3 (a peel's pits
    /// stopped it halfway), climbs no more than a slack over its whole way, and reaches pixels half as
    /// chromatic and saturated as growth asks (shade dulls as it darkens); 10, growth goes on into the
    /// object's shade where shade has turned its hue beyond the window (an orange's shaded peel), in smooth
    /// steps, each no lighter and no more chromatic; 9, the kept map eased into a ramp wherever it steps and
    /// the photo draws no line of its own (smooth, or a line among as strong parallel ones, read over as much
    /// of the picture whatever the photo's size); 8, a region carries on beyond its cut where the photo is
    /// smooth and its colour goes on (a glow fades, not a box); 7, its edges also fade where the photo's edge
    /// does not stand out of the texture beside it; 6, its edges fade where the photo draws none (no seam
    /// where a cut ends in a smooth stretch); 5, its raster at 256 px on the long side (320 before); 4,
    /// growth also by saturation, two rounds of the object cut, other colours grey inside the object; 3,
    /// regions grown within the hue window, refined by an object cut, without the small pieces the frame
    /// cuts; 2, grown through the wider window (the keys of variants of grown regions alone have none).
    static let objectMaskRevision = 17

    /// How a key's variant was made: "object", or "hue" (every key from before object mode is one).
    public static func method(ofKey key: String) -> String {
        key.contains(#""method":"object""#) ? SplashMethod.object.rawValue : SplashMethod.hue.rawValue
    }

    /// The parameters a key holds, as a person reads them: "object mode, hue 34.5°, tolerance 12°,
    /// feather 10°, chroma from 12, quality 90". `gallery show`, `gallery variants` and the web gallery say them so.
    public static func describe(key: String) -> String {
        let values = parameterValues(ofKey: key)
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%g", value) }
        func degrees(_ name: String, _ label: String) -> String? { values[name].map { "\(label) \(number($0))°" } }
        let parts: [String?] = [
            method(ofKey: key) + " mode",
            degrees("hue", "hue"), degrees("tolerance", "tolerance"), degrees("feather", "feather"),
            values["minimumChroma"].map { "chroma from \(number($0))" }, values["quality"].map { "quality \(number($0))" },
        ]
        return parts.compactMap { $0 }.joined(separator: ", ")
    }

    /// The numeric parameters of a key by name (hue, tolerance, feather, minimumChroma, quality).
    public static func parameterValues(ofKey key: String) -> [String: Double] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(key.utf8)) as? [String: Any] else { return [:] }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// The folder of a library's variant files.
    public static func directory(inLibrary libraryDirectory: String) -> String {
        LibraryFolder.path(LibraryFolder.variants, inLibrary: libraryDirectory)
    }

    /// Where a variant recorded at `recorded` is now when its library folder was moved or renamed: the same
    /// `<two hex>/<hash>/<file>` under the library's `variantsDirectory` (nil when that is `recorded` itself,
    /// or `recorded` is no variant's path).
    public static func relocated(_ recorded: String, inVariants variantsDirectory: String) -> String? {
        let parts = (recorded as NSString).pathComponents
        guard parts.count >= 4 else { return nil }
        // Hex folders and a file name, as `path(inVariants:)` makes them: a row's `..` cannot lead out of the folder.
        let bucket = parts[parts.count - 3], hash = parts[parts.count - 2], name = parts[parts.count - 1]
        guard bucket.count == 2, hash.hasPrefix(bucket), (bucket + hash).allSatisfy(\.isHexDigit), name != "..", name != "." else { return nil }
        let moved = parts.suffix(3).reduce(variantsDirectory) { ($0 as NSString).appendingPathComponent($1) }
        return moved == recorded ? nil : moved
    }

    /// The file of a variant recorded at `recorded`, in this library: the same `<two hex>/<hash>/<file>`
    /// under its own variants folder (`relocated`), there or not; nil for a row naming no place in it. A
    /// library folder moved, renamed, copied or restored from a backup keeps rows naming the old place,
    /// whose file, when it is still there, is another library's: never this one's to read, keep or delete.
    public static func file(recordedAt recorded: String, inVariants variantsDirectory: String) -> String? {
        if let relocated = relocated(recorded, inVariants: variantsDirectory) { return relocated }
        let within = Services.path(recorded, isWithin: variantsDirectory) && !(recorded as NSString).pathComponents.contains("..")
        return within ? recorded : nil
    }

    /// The name of a variant file's set of parameters: the key's hash in `<kind>-<key hash>.<ext>`, the same
    /// for the show and the hide made together; nil for a name not made by `path(inVariants:hasher:)`.
    public static func parameterSetName(ofFile path: String) -> String? {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let dash = name.firstIndex(of: "-") else { return nil }
        let set = name[name.index(after: dash)...]
        return set.isEmpty || !set.allSatisfy({ $0.isLetter || $0.isNumber }) ? nil : String(set)
    }

    /// The variant's file: `<variants>/<first two hex of the photo's hash>/<hash>/<kind>-<key hash>.<ext>`,
    /// so renaming or moving an original does not lose its variants, and each parameter set has its own file.
    public func path(inVariants variantsDirectory: String, hasher: any ContentHashing) -> String {
        let keyHash = hasher.sha256(Data(key.utf8)).prefix(10)
        return (Self.folder(ofContent: sha256, inVariants: variantsDirectory) as NSString)
            .appendingPathComponent("\(kind.rawValue)-\(keyHash).\(format.fileExtension)")
    }

    /// The folder of one content's variants: `<variants>/<first two hex of its hash>/<hash>`.
    public static func folder(ofContent sha256: String, inVariants variantsDirectory: String) -> String {
        [String(sha256.prefix(2)), sha256].reduce(variantsDirectory) { ($0 as NSString).appendingPathComponent($1) }
    }

    /// The catalogue's record of this variant, its file written to `path`.
    public func record(path: String, fileSize: Int64, pixelSize: PixelSize, sha256 fileHash: String, createdAt: Date) -> Variant {
        Variant(photoID: photoID, kind: kind.rawValue, parameters: key, path: path, fileSize: fileSize, pixelSize: pixelSize,
                sha256: fileHash, createdAt: createdAt)
    }
}

extension PhotoCatalogue {
    /// The recorded variant a spec describes, if it was made.
    public func variant(_ spec: VariantSpec) throws -> Variant? {
        try variant(of: spec.photoID, kind: spec.kind.rawValue, parameters: spec.key)
    }
}

extension FileSystem {
    /// The file, in this library, of a variant recorded at `recorded` (`VariantSpec.file(recordedAt:inVariants:)`),
    /// when it is there.
    public func variantFile(recordedAt recorded: String, inVariants variantsDirectory: String) -> String? {
        VariantSpec.file(recordedAt: recorded, inVariants: variantsDirectory).flatMap { exists($0) ? $0 : nil }
    }
}
