import Foundation

/// What a library folder holds of showhide's own, by name, in one place: the catalogue opens, checks and
/// backs up these, and import leaves them out of the photos it finds when a folder imported holds the
/// library. Anything else in the folder is the user's.
public enum LibraryFolder {
    /// The catalogue (SQLite, with its `-wal`, `-shm` and `.migration-lock` beside it).
    public static let catalogue = "catalogue.sqlite"
    /// The thumbnails the web gallery shows (SQLite, with its files beside it).
    public static let thumbnails = "thumbnails.sqlite"
    /// The show and hide variants, `<two hex>/<hash>/<file>`.
    public static let variants = "variants"
    /// The web gallery's downloads while they are made.
    public static let exports = "exports"
    /// The web gallery's access token, for an address other than this computer's.
    public static let accessToken = "serve-token"
    /// The folder of thumbnails an earlier showhide kept.
    public static let oldThumbnails = "thumbnails"

    /// `name`'s place in the library folder `directory`.
    public static func path(_ name: String, inLibrary directory: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// Whether `path` is one of showhide's own files in the library folder `directory` (both spelt alike).
    public static func isOwn(_ path: String, inLibrary directory: String) -> Bool {
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(folder) && isOwn(path.dropFirst(folder.count))
    }

    /// Whether `folder` is one of showhide's own folders in the library folder `directory` (both spelt
    /// alike), or inside one: every file there is showhide's.
    public static func isOwnFolder(_ folder: String, inLibrary directory: String) -> Bool {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        guard folder.hasPrefix(base) else { return false }
        let relative = folder.dropFirst(base.count)
        return ownFolders.contains { relative == $0 || relative.hasPrefix($0 + "/") }
    }

    /// The folders whose every file is showhide's.
    private static let ownFolders = [variants, exports, oldThumbnails]

    /// Whether `relative`, a path inside a library folder, is one of showhide's own files there.
    public static func isOwn(_ relative: Substring) -> Bool {
        if ownFolders.contains(where: { relative.hasPrefix($0 + "/") }) { return true }
        return !relative.contains("/") && ([catalogue, thumbnails].contains(where: relative.hasPrefix) || relative == accessToken)
    }
}
