import Foundation

/// Where the web gallery's thumbnails are kept: one small JPEG per photo content, by SHA-256, so a
/// photo at two paths has one and a moved photo keeps its own. A cache: each can be made again from
/// the photo's file, so a thumbnail that cannot be kept or read costs time, never a photo.
public protocol ThumbnailCache: Sendable {
    /// The JPEG kept for this content; nil when none is.
    func jpeg(forSHA256 sha256: String) throws -> Data?
    /// Keeps these JPEGs by content, in one transaction; one already kept for a content is kept as it is.
    func keep(_ jpegs: [String: Data]) throws
    /// The contents that have a thumbnail.
    func keptSHA256s() throws -> Set<String>
    /// Forgets the thumbnails of these contents.
    func forget(_ sha256s: Set<String>) throws
    /// Forgets every thumbnail and starts anew: a cache that cannot be read (damaged) is remade, not mended.
    func reset() throws
}
