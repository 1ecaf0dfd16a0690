import Catalogue
import Foundation
import Imaging

/// Small upright JPEG copies of photos for the web gallery's grid, kept in the library folder under
/// `thumbnails/`, one per content (`ab/abcdef….jpg`, by SHA-256): a photo at two paths has one
/// thumbnail, and a moved photo keeps its own. Made from the analysis decode at import, or on first
/// request for photos imported before thumbnails existed.
public struct ThumbnailStore: Sendable {
    /// Long side of a thumbnail: sharp in a grid cell of 160 CSS pixels on a screen of twice the density.
    public static let longSide = 320
    /// JPEG quality: small files; a thumbnail is looked at small.
    public static let quality = 80

    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let encoder: any ImageEncoding
    public let directory: String

    public init(fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding, libraryDirectory: String) {
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        directory = Self.directory(inLibrary: libraryDirectory)
    }

    /// The folder of thumbnails in a library folder.
    public static func directory(inLibrary libraryDirectory: String) -> String {
        (libraryDirectory as NSString).appendingPathComponent("thumbnails")
    }

    /// Where the thumbnail of the content with this SHA-256 lives.
    public func path(forSHA256 sha256: String) -> String {
        "\(directory)/\(sha256.prefix(2))/\(sha256).jpg"
    }

    public func exists(for photo: CataloguedPhoto) -> Bool {
        fileSystem.exists(path(forSHA256: photo.facts.sha256))
    }

    /// The photo's thumbnail: read when it is there, else made from the photo's file and kept.
    /// - Throws: `PhotoError` when the photo's file cannot be read or decoded; a thumbnail that cannot be
    ///   kept (a read-only library) is still returned.
    public func thumbnail(of photo: CataloguedPhoto) throws -> Data {
        let path = path(forSHA256: photo.facts.sha256)
        if fileSystem.exists(path), let data = try? fileSystem.contents(of: path), !data.isEmpty { return data }
        let original: Data
        do {
            original = try fileSystem.contents(of: photo.path)
        } catch {
            throw PhotoError.unreadable(path: photo.path, reason: error.plainDescription)
        }
        let decoded: DecodedImage
        do {
            decoded = try decoder.decode(original, options: DecodeOptions(minimumLongSide: Self.longSide, appliesOrientation: true))
        } catch {
            throw PhotoError.undecodable(path: photo.path, reason: error.plainDescription)
        }
        let data = try encoded(decoded.image)
        try? fileSystem.writeAtomically(data, to: path)
        return data
    }

    /// Keeps a thumbnail made from an upright image of the photo already decoded (import's analysis
    /// decode), unless one is there.
    public func keep(from image: RGBAImage, sha256: String) throws {
        let path = path(forSHA256: sha256)
        guard !fileSystem.exists(path) else { return }
        try fileSystem.writeAtomically(try encoded(image), to: path)
    }

    func encoded(_ image: RGBAImage) throws -> Data {
        let small = image.quicklyDownscaled(toLongSide: Self.longSide)
        return try encoder.encode(small, as: .jpeg, options: EncodeOptions(quality: Self.quality))
    }
}
