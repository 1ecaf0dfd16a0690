import ColourScience
import Foundation

/// What forgetting a path did (`CatalogueWriting.detachPath`).
public struct DetachedPath: Equatable, Sendable {
    /// Whether a photo held the path, as its own or as a duplicate.
    public var held: Bool
    /// The paths of the variants of a photo removed with it (it had no other path): their records are
    /// gone, not their files.
    public var forgottenVariants: [String]
    /// The content (SHA-256) of the photo removed with the path, whose thumbnail goes with it; nil when none was.
    public var forgottenContent: String?

    public init(held: Bool, forgottenVariants: [String] = [], forgottenContent: String? = nil) {
        self.held = held
        self.forgottenVariants = forgottenVariants
        self.forgottenContent = forgottenContent
    }
}

/// What holds a content in the catalogue (`PhotoCatalogue.content(withSHA256:)`).
public enum CatalogueContent: Equatable, Sendable {
    /// A show or hide picture showhide made.
    case variant
    /// A photo whose colours are analysed.
    case photo
}

/// Changes to the catalogue, made inside one transaction by `PhotoCatalogue.write`.
public protocol CatalogueWriting {
    /// The photo with this content, if any.
    func photo(withSHA256 sha256: String) throws -> PhotoLocation?
    /// The photo that `path` belongs to, as its own path or as a duplicate.
    func photoID(atPath path: String) throws -> PhotoID?
    /// A new photo at `path`; returns its id.
    @discardableResult
    func insertPhoto(path: String, stamp: FileStamp, facts: PhotoFacts, importedAt: Date) throws -> PhotoID
    /// The photo's file was moved or renamed to `path`.
    func movePhoto(_ id: PhotoID, to path: String, stamp: FileStamp) throws
    /// `path` holds the same content as photo `id`.
    func addDuplicatePath(_ path: String, of id: PhotoID, stamp: FileStamp, notedAt: Date) throws
    /// The file at `path` was touched but its content is the same.
    func updateStamp(ofPath path: String, to stamp: FileStamp) throws
    /// `path` no longer holds what the catalogue says: forget it. A photo whose own path this was
    /// moves to one of its duplicates, or is removed when it has none.
    @discardableResult
    func detachPath(_ path: String) throws -> DetachedPath
    /// Forgets a photo: its row and everything that hangs on it (EXIF, colours, duplicate paths,
    /// variant records; not the variant files).
    /// - Returns: the paths of the variants its removal forgot (their files are the caller's to delete), as
    ///   they are when it is removed: a variant another process recorded meanwhile among them.
    @discardableResult
    func removePhoto(_ id: PhotoID) throws -> [String]
    /// Forgets the variant recorded at `path` (not its file).
    func removeVariant(atPath path: String) throws
    /// Replaces the photo's colour analysis (palette, dominant, accent, name weights).
    func setColours(_ colours: ColourAnalysis, of id: PhotoID) throws
    /// Makes `subject` (one of the photo's accent candidates) its accent from now on, whatever later
    /// analyses find; nil gives the choice back to the eye.
    func chooseSubject(_ subject: Accent?, of id: PhotoID, at date: Date) throws
    func recordFailure(_ failure: ImportFailure) throws
    func clearFailure(atPath path: String) throws
    /// Notes that an import left out the file at `path`, as it is (`stamp`): a picture showhide made.
    func recordLeftOut(path: String, stamp: FileStamp) throws
    /// Forgets that the file at `path` was left out (it is something else now, or gone).
    func clearLeftOut(atPath path: String) throws
}

/// The catalogue as services see it: no SQL, no GRDB. Every method throws `CatalogueError` when the
/// catalogue cannot be used (damaged, read-only for a write, busy, its disk full), never a database error.
public protocol PhotoCatalogue: Sendable {
    /// The stamp of every path the catalogue knows completely (photos whose colours are analysed,
    /// and their duplicates): the paths an import may skip unread.
    func knownStamps() throws -> [String: FileStamp]
    /// The stamp of every file an import left out by its content (`CatalogueWriting.recordLeftOut`).
    func leftOutStamps() throws -> [String: FileStamp]
    /// What the catalogue holds with this content, in one look: a variant showhide made (a show or hide
    /// picture), else a photo whose colours are analysed; nil when neither.
    func content(withSHA256 sha256: String) throws -> CatalogueContent?
    /// Runs `body` in one transaction: all of it is written, or none.
    /// - Parameter body: the writes; an error it throws rolls them all back and is rethrown as it is.
    /// - Returns: what `body` returned.
    /// - Throws: `body`'s own errors, or `CatalogueError`.
    func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T
    /// The photos that pass the query's filters, in its order, at most its limit.
    /// - Parameter query: days taken, camera text, limit and order.
    func photos(matching query: PhotoQuery) throws -> [CataloguedPhoto]
    /// The photo with this id, with its EXIF, colours, duplicate paths and variants; nil when there is none.
    func photo(id: PhotoID) throws -> CataloguedPhoto?
    /// Photos whose colours the current rules did not analyse (never, or earlier rules did), in id order.
    func photosNeedingAnalysis() throws -> [CataloguedPhoto]
    /// The files and folders that could not be imported, by path.
    func failures() throws -> [ImportFailure]
    /// Photos ranked by how well they match a colour, best first.
    /// - Parameter search: the colour (a name or CIELAB), whether only the accent counts, the largest
    ///   ΔE00 that matches, the least coverage, and the photo filters.
    func search(_ search: ColourSearch) throws -> [ColourMatch]
    /// The variant of this kind made with these parameters, if any.
    func variant(of photoID: PhotoID, kind: String, parameters: String) throws -> Variant?
    /// Records a variant whose file is already in place (replacing a row for the same photo, kind and parameters).
    /// - Returns: the row it replaced, if any.
    @discardableResult
    func recordVariant(_ variant: Variant) throws -> Variant?
    /// Every recorded variant, by photo.
    func allVariants() throws -> [Variant]
    /// Forgets the variant recorded at `path` (its file is gone).
    func removeVariant(atPath path: String) throws
    /// SQLite's `PRAGMA integrity_check`: "ok", or what is wrong.
    func integrityCheck() throws -> String
    /// Copies the catalogue as it is at one moment (writers may go on) into a new file at `path`,
    /// checks the copy's integrity, and only then gives it that name.
    /// - Parameter replacing: whether a file already at `path` may be replaced.
    /// - Throws: `CatalogueError.backupExists`, `.cannotWriteBackup`, or the catalogue's own errors.
    func backup(to path: String, replacing: Bool) throws -> CatalogueBackup
    /// Whether this process may only read the catalogue (a read-only mount, another user's library).
    var isReadOnly: Bool { get }
}

extension PhotoCatalogue {
    public var isReadOnly: Bool { false }
}

/// What a backup copied.
public struct CatalogueBackup: Equatable, Sendable {
    public var path: String
    public var photos: Int
    public var bytes: Int

    public init(path: String, photos: Int, bytes: Int) {
        self.path = path
        self.photos = photos
        self.bytes = bytes
    }
}
