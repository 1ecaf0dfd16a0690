import Catalogue
import Foundation
import Imaging

/// Small upright JPEG copies of photos for the web gallery's grid, kept by content in the library's
/// thumbnail cache. Import makes each new photo's from the decode that analyses it; the gallery makes
/// those of photos imported before on first request, and `gallery analyse` and `gallery check --repair`
/// make those missing.
public struct ThumbnailStore: Sendable {
    /// Long side of a thumbnail: sharp in a grid cell of 160 CSS pixels on a screen of twice the density.
    public static let longSide = 320
    /// JPEG quality: small files; a thumbnail is looked at small.
    public static let quality = 80

    public let cache: any ThumbnailCache
    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let encoder: any ImageEncoding

    public init(cache: any ThumbnailCache, fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding) {
        self.cache = cache
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
    }

    /// The photo's thumbnail: read when it is kept, else made from the photo's file and kept.
    /// - Throws: `PhotoError` when the photo's file cannot be read or decoded. A cache that cannot be
    ///   read or written (damaged, read-only) costs the time of making the thumbnail again, nothing else.
    public func thumbnail(of photo: CataloguedPhoto) throws -> Data {
        if let kept = try? cache.jpeg(forSHA256: photo.facts.sha256), !kept.isEmpty { return kept }
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
        let jpeg = try self.jpeg(from: decoded.image)
        try? cache.keep([photo.facts.sha256: jpeg])
        return jpeg
    }

    /// Keeps a thumbnail made from an upright image of the photo already decoded (analysis's decode).
    public func keep(from image: RGBAImage, sha256: String) throws {
        try cache.keep([sha256: try jpeg(from: image)])
    }

    /// The thumbnail of an upright image of a photo, made but not kept: import makes them on many
    /// cores and keeps a batch's at once.
    public func jpeg(from image: RGBAImage) throws -> Data {
        let small = image.quicklyDownscaled(toLongSide: Self.longSide)
        return try encoder.encode(small, as: .jpeg, options: EncodeOptions(quality: Self.quality))
    }
}
