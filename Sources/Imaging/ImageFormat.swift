/// The file formats showhide reads and writes, recognised by their first bytes, never by name.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case jpeg
    case png

    // Start-of-image alone, as libjpeg checks: a file cut after it is a broken JPEG, not an unknown file.
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8]
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How many leading bytes `sniff` needs at most.
    public static let signatureLength = 8

    /// The format whose signature `bytes` start with, or nil.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        return nil
    }

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        }
    }
}
