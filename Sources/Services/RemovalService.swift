import Catalogue
import Foundation

/// What removing photos did.
public struct RemovalSummary: Sendable {
    /// Photos the catalogue no longer holds, with the path each had.
    public var removed: [(id: PhotoID, path: String)] = []
    /// Photos whose file was gone but a duplicate of it is not: each now lives at that duplicate.
    public var moved: [(id: PhotoID, path: String)] = []
    /// Duplicate paths forgotten because their files are gone, or lie in the scope forgotten (their photo stays).
    public var forgottenDuplicates: [String] = []
    /// Why paths were forgotten while their photos stayed, for people: "its file was gone", or
    /// "forgotten with its folder" when a scope was.
    public var why = "its file was gone"
    /// Variant files deleted with their photos.
    public var variantFilesDeleted = 0
    /// Variant files that could not be deleted (the rows are gone; `gallery check --repair` removes
    /// such stray files later), with the reason.
    public var variantFilesLeft: [(path: String, reason: String)] = []
    /// A dry run: what would be forgotten, with nothing written or deleted (`moved` then names the paths
    /// the photo would still have, of which the catalogue takes the first recorded).
    public var dryRun = false
    /// In a dry run, the variant files that would be deleted.
    public var variantFilesToDelete = 0

    public init() {}
}

/// Forgets photos: the ones named, or those whose files are gone. The rows (EXIF, colours,
/// duplicates, variant records) go in one transaction; the variant files are deleted after it
/// commits, so an interruption never leaves a row pointing at a deleted file. The originals are
/// never touched.
public struct RemovalService: Sendable {
    private let fileSystem: any FileSystem
    private let catalogue: any PhotoCatalogue
    private let variantsDirectory: String
    private let thumbnails: (any ThumbnailCache)?

    /// - Parameter thumbnails: the library's thumbnails, from which a removed photo's is taken too (nil: none).
    public init(fileSystem: any FileSystem, catalogue: any PhotoCatalogue, libraryDirectory: String, thumbnails: (any ThumbnailCache)? = nil) {
        self.variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
        self.fileSystem = fileSystem
        self.catalogue = catalogue
        self.thumbnails = thumbnails
    }

    /// Removes these photos (as `catalogue.photo(id:)` returns them, with their variants); with `dryRun`,
    /// says what would go and changes nothing.
    public func remove(_ photos: [CataloguedPhoto], dryRun: Bool = false) throws -> RemovalSummary {
        var summary = RemovalSummary()
        summary.dryRun = dryRun
        summary.removed = photos.map { ($0.id, $0.path) }
        if dryRun {
            summary.variantFilesToDelete = variantFiles(of: photos).count
            return summary
        }
        let variants = try catalogue.write { writer in try photos.flatMap { try writer.removePhoto($0.id) } }
        deleteFiles(of: photos, variants: variants, into: &summary)
        return summary
    }

    /// Forgets what the catalogue holds in some folders or files (`paths`, absolute) of these photos
    /// (as `catalogue.photo(id:)` returns them): their paths there are forgotten; a photo with a
    /// duplicate path elsewhere moves to it and keeps its variants (the copies outside are still
    /// photos); a photo with none elsewhere is removed.
    public func remove(_ photos: [CataloguedPhoto], within paths: [String], dryRun: Bool = false) throws -> RemovalSummary {
        try forget(photos, why: "its path there forgotten with its folder", dryRun: dryRun) { candidate in
            paths.contains { path(candidate, isWithin: $0) }
        }
    }

    /// Forgets every path whose file is gone, of the photos `scope` holds (all of them by default): a
    /// photo whose file is gone moves to a duplicate that still exists, and is removed when none
    /// does; a gone duplicate path is forgotten.
    public func removeMissing(in scope: PhotoQuery = PhotoQuery(sort: .imported), dryRun: Bool = false) throws -> RemovalSummary {
        let photos = try catalogue.photos(matching: scope).compactMap { try catalogue.photo(id: $0.id) }
        return try forget(photos, why: "its file was gone", dryRun: dryRun) { !fileSystem.exists($0) }
    }

    /// Forgets the paths of `photos` that `forgotten` names, in one transaction: a photo whose own
    /// path goes moves to a duplicate path that stays (its content is still there), and is removed
    /// when none does; then the removed photos' variant files are deleted.
    private func forget(_ photos: [CataloguedPhoto], why: String, dryRun: Bool = false, _ forgotten: (String) -> Bool) throws -> RemovalSummary {
        var summary = RemovalSummary()
        summary.why = why
        summary.dryRun = dryRun
        var gone: [CataloguedPhoto] = []
        var moved: [PhotoID] = []
        // What goes, decided once: written, or in a dry run only said.
        let plan = photos.map { photo in (photo: photo, duplicates: photo.duplicatePaths.filter(forgotten), own: forgotten(photo.path)) }
        for (photo, duplicates, own) in plan {
            summary.forgottenDuplicates += duplicates
            guard own else { continue }
            if duplicates.count < photo.duplicatePaths.count {
                moved.append(photo.id)
                if dryRun { summary.moved.append((photo.id, photo.duplicatePaths.filter { !duplicates.contains($0) }.joined(separator: ", "))) }
            } else {
                summary.removed.append((photo.id, photo.path))
                gone.append(photo)
            }
        }
        if dryRun {
            summary.variantFilesToDelete = variantFiles(of: gone).count
            return summary
        }
        let staying = Set(moved)
        let variants = try catalogue.write { writer in
            var variants: [String] = []
            for (photo, duplicates, own) in plan {
                for path in duplicates { try writer.detachPath(path) }
                guard own else { continue }
                if staying.contains(photo.id) { try writer.detachPath(photo.path) } else { variants += try writer.removePhoto(photo.id) }
            }
            return variants
        }
        summary.moved = try moved.compactMap { id in try catalogue.photo(id: id).map { (id, $0.path) } }
        deleteFiles(of: gone, variants: variants, into: &summary)
        return summary
    }

    /// The files, in this library, of these photos' variants (a copied library's rows may still name the original's).
    private func variantFiles(of photos: [CataloguedPhoto]) -> [String] {
        variantFiles(recordedAt: photos.flatMap(\.variants).map(\.path))
    }

    private func variantFiles(recordedAt paths: [String]) -> [String] {
        paths.compactMap { VariantSpec.file(recordedAt: $0, inVariants: variantsDirectory) }
    }

    /// - Parameter variants: the variant paths the removal forgot, read as it removed them (a variant made
    ///   meanwhile by another process is among them, where `photos` were read before).
    private func deleteFiles(of photos: [CataloguedPhoto], variants: [String], into summary: inout RemovalSummary) {
        let outcome = fileSystem.removeVariantFiles(variantFiles(recordedAt: variants), inVariants: variantsDirectory)
        summary.variantFilesDeleted = outcome.removed
        summary.variantFilesLeft = outcome.left
        // A cache the gallery can fill again: one that cannot be written leaves strays `check --repair` takes away.
        try? thumbnails?.forget(Set(photos.map(\.facts.sha256)))
    }
}
