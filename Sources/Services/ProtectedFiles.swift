import Catalogue
import Foundation

/// Files no command may write over, whatever its policy for a name that is taken: the library's own
/// (its catalogue, variants and thumbnails) and the photos it catalogues. An export named after the
/// catalogue, or an inspiration page named after a photo, would destroy what showhide keeps.
public struct ProtectedFiles: Sendable {
    private let catalogue: any PhotoCatalogue
    private let libraryDirectory: String
    private let fileSystem: any FileSystem

    public init(catalogue: any PhotoCatalogue, libraryDirectory: String, fileSystem: any FileSystem) {
        self.catalogue = catalogue
        self.libraryDirectory = libraryDirectory
        self.fileSystem = fileSystem
    }

    /// Why nothing may be written at `path` (an absolute path), in words; nil when something may.
    /// Links are followed: a link to the catalogue is the catalogue.
    public func reason(against path: String) throws -> String? {
        try libraryReason(against: path) ?? photoReason(against: path, resolved: fileSystem.resolvingLinks(path))
    }

    /// Why nothing may be written at `path`, new or not: it is one of the library's own files, or in one of
    /// its own folders (`variants/`, whose files no row records `gallery check --repair` deletes); nil
    /// when it is not. Asks nothing of the catalogue.
    public func libraryReason(against path: String) -> String? {
        let library = fileSystem.resolvingLinks(libraryDirectory)
        guard LibraryFolder.isOwn(fileSystem.resolvingLinks(path), inLibrary: library) else { return nil }
        return "it is one of the library's own files (\(library))"
    }

    /// Why no file may be written into `folder`: it is one of the library's own folders or inside one;
    /// nil when files may be.
    public func folderReason(against folder: String) -> String? {
        let library = fileSystem.resolvingLinks(libraryDirectory)
        guard LibraryFolder.isOwnFolder(fileSystem.resolvingLinks(folder), inLibrary: library) else { return nil }
        return "it is one of the library's own folders (\(library)), whose files showhide keeps and deletes"
    }

    /// Why nothing may be written at `path`: it is a catalogued photo's file (by its own path, as a
    /// duplicate, or through a link); nil when it is not.
    public func photoReason(against path: String) throws -> String? {
        try photoReason(against: path, resolved: fileSystem.resolvingLinks(path))
    }

    private func photoReason(against path: String, resolved: String) throws -> String? {
        for candidate in Set([path, resolved]).sorted() {
            // The scope also holds photos in a folder of that name, and those with it as a duplicate path.
            for photo in try catalogue.photos(matching: PhotoQuery(paths: [candidate])) {
                if try photo.path == candidate || catalogue.photo(id: photo.id)?.duplicatePaths.contains(candidate) == true {
                    return "it is the file of photo \(photo.id), which the catalogue holds"
                }
            }
        }
        // A memory card's FAT or exFAT takes IMG_0001.JPG for img_0001.jpg: a name that is a catalogued
        // photo's but for case is refused where a file of it is there (asked only then).
        guard fileSystem.exists(resolved) else { return nil }
        let folder = (resolved as NSString).deletingLastPathComponent, name = (resolved as NSString).lastPathComponent.lowercased()
        for photo in try catalogue.photos(matching: PhotoQuery(paths: [folder]))
        where (photo.path as NSString).deletingLastPathComponent == folder && (photo.path as NSString).lastPathComponent.lowercased() == name {
            return "its name is that of photo \(photo.id) but for case: on a disk that does not tell case apart, the same file"
        }
        return nil
    }

    /// `path`, or `ProtectedFileError` when nothing may be written there.
    @discardableResult
    public func refusing(_ path: String) throws -> String {
        if let reason = try reason(against: path) { throw ProtectedFileError(path: path, reason: reason) }
        return path
    }
}

/// A file a command was asked to write over that showhide keeps (`ProtectedFiles`).
public struct ProtectedFileError: Error, Equatable, LocalizedError {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var errorDescription: String? { "will not write over \(path): \(reason); name another file" }
}
