/// The file formats showhide reads and writes, recognised by their first bytes, never by name.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case jpeg
    case png
    /// HEIC and AVIF: a HEIF container of HEVC or AV1 pictures. Read, never written: their variants are JPEGs.
    case heif
    case webp
    /// Read, never written: variants of TIFF photos are JPEGs.
    case tiff

    // Start-of-image alone, as libjpeg checks: a file cut after it is a broken JPEG, not an unknown file.
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8]
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The brands of HEIF files of HEVC pictures (HEIC), and of AV1 pictures (AVIF).
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"], av1Brands: Set<String> = ["avif", "avis"]
    /// The major brands of HEIF files whose primary image is a picture libheif decodes (HEVC, AV1), with
    /// the general ones that say only that a file is HEIF.
    static let heifBrands = hevcBrands.union(av1Brands).union(["mif1", "msf1", "heif"])

    /// Whether a HEIF file starting with `head` holds AV1 pictures (AVIF): by the `ftyp` box's major brand,
    /// or, for a general one (`mif1`), by its compatible brands.
    public static func isAVIF<Bytes: Collection>(_ head: Bytes) -> Bool where Bytes.Element == UInt8 {
        let bytes = Array(head.prefix(256))
        guard bytes.count >= 16 else { return false }
        let boxSize = min(bytes.count, Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]))
        let brands = ([8] + Array(stride(from: 16, to: boxSize - 3, by: 4))).map { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) }
        if av1Brands.contains(brands[0]) { return true }
        if hevcBrands.contains(brands[0]) { return false }
        return brands.contains(where: av1Brands.contains) && !brands.contains(where: hevcBrands.contains)
    }

    /// How many leading bytes `sniff` needs at most.
    public static let signatureLength = 12

    /// The format whose signature `bytes` start with, or nil.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        // Classic TIFF in either byte order, however short (a cut one is a truncated TIFF); camera raw
        // files built on TIFF are told apart by `UnsupportedPhotoFormat`, which needs the name's extension as well.
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        let head = Array(bytes.prefix(signatureLength))
        guard head.count == 12 else { return nil }
        if String(decoding: head[4..<8], as: UTF8.self) == "ftyp", heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return .heif
        }
        if String(decoding: head[0..<4], as: UTF8.self) == "RIFF", String(decoding: head[8..<12], as: UTF8.self) == "WEBP" {
            return .webp
        }
        return nil
    }

    /// The format's name for people.
    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .heif: return "HEIF"
        case .webp: return "WebP"
        case .tiff: return "TIFF"
        }
    }

    /// Whether a photo of this format is turned upright by its EXIF orientation. A HEIF photo is
    /// turned by its container (`irot`, `imir`) as it is decoded; its EXIF orientation, which phones
    /// write to say the same, must not turn it again.
    public var isTurnedByExif: Bool { self != .heif }

    /// The turn a viewer must still give a photo of this format, as showhide stores and decodes it,
    /// whose EXIF says `exifOrientation`: that, except for HEIF, which libheif turns and mirrors by
    /// the container's own `irot` and `imir` — what HEIF readers follow instead of the EXIF tag
    /// (MIAF), and what phones write alike — so nothing is left to do. nil when the file says nothing.
    public func orientationLeft(_ exifOrientation: Orientation?) -> Orientation? {
        exifOrientation.map { isTurnedByExif ? $0 : .up }
    }

    /// `exif` as every JSON gives it with a photo of this format: the stored size's companion, its
    /// orientation the turn still left (`orientationLeft`).
    public func exifWithOrientationLeft(_ exif: ExifMetadata) -> ExifMetadata {
        var exif = exif
        exif.orientation = orientationLeft(exif.orientation)
        return exif
    }

    /// Whether showhide writes files of this format.
    public var isWritten: Bool { self != .heif && self != .tiff }

    /// Whether files of this format that showhide writes carry the photo's EXIF block.
    public var carriesExif: Bool { self == .jpeg || self == .webp }

    /// The format of a variant made from a photo of this format: JPEG for what showhide does not write.
    public var variantFormat: ImageFormat { isWritten ? self : .jpeg }

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .heif: return "heic"
        case .webp: return "webp"
        case .tiff: return "tif"
        }
    }
}

/// Photo formats showhide recognises but does not read, by their first bytes (and, for camera raw
/// files built on TIFF, the name's extension, as their first bytes are TIFF's: read as TIFF, such a
/// file would give its small preview, not the photo).
public enum UnsupportedPhotoFormat {
    /// How many leading bytes `sniff` needs at most.
    public static let signatureLength = 16

    /// TIFF-based camera raw formats, by extension.
    private static let tiffRawExtensions: Set<String> = [
        "nef", "nrw", "arw", "srf", "sr2", "dng", "pef", "erf", "3fr", "kdc", "dcr", "mos", "iiq", "rwl", "srw", "mef",
    ]

    /// The format's name for people ("camera raw (NEF)"), or nil when `bytes` start
    /// like none of them.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes, fileExtension: String) -> String? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(signatureLength))
        func ascii(_ range: Range<Int>) -> String? {
            head.count >= range.upperBound ? String(decoding: head[range], as: UTF8.self) : nil
        }
        let raw = fileExtension.lowercased()
        if ascii(4..<8) == "ftyp", let brand = ascii(8..<12) {
            switch brand {
            case "crx ": return "camera raw (CR3)"
            default: return nil
            }
        }
        if ascii(0..<15) == "FUJIFILMCCD-RAW" { return "camera raw (RAF)" }
        if head.starts(with: [0x49, 0x49, 0x52, 0x4F]) || head.starts(with: [0x49, 0x49, 0x52, 0x53]) { return "camera raw (ORF)" }
        if head.starts(with: [0x49, 0x49, 0x55, 0x00]) { return "camera raw (RW2)" }
        let tiff = head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        guard tiff else { return nil }
        if ascii(8..<10) == "CR" { return "camera raw (CR2)" }
        return tiffRawExtensions.contains(raw) ? "camera raw (\(raw.uppercased()))" : nil
    }
}
