import Catalogue
import ColourScience
import Foundation
import XCTest

/// The catalogue in memory, for service tests: the same rules as SQLiteCatalogue in plain Swift,
/// plus a switch that makes a chosen write fail, to test interruption.
public final class FakeCatalogue: PhotoCatalogue, @unchecked Sendable {
    public struct InjectedFailure: Error, LocalizedError {
        public var errorDescription: String? { "injected write failure" }
    }

    struct State {
        var photos: [PhotoID: CataloguedPhoto] = [:]
        var failures: [String: ImportFailure] = [:]
        /// Files an import left out by their content, with their stamps.
        var leftOut: [String: FileStamp] = [:]
        var nextID: PhotoID = 1
        var stale: Set<PhotoID> = []
    }

    private let lock = NSRecursiveLock()
    private var state = State()
    private var writeCount = 0
    /// The 1-based number of the write transaction that throws instead of committing.
    public var failingWrite: Int?

    /// What `isReadOnly` says: a catalogue this user may only read.
    public var readOnly = false

    public init() {}

    public var isReadOnly: Bool { readOnly }

    public var writes: Int { lock.withLock { writeCount } }
    public var allPhotos: [CataloguedPhoto] { lock.withLock { state.photos.values.sorted { $0.id < $1.id } } }

    /// Puts photos in as they are, with their own ids: a test's library made without an import.
    public func add(_ photos: [CataloguedPhoto]) {
        lock.withLock {
            for photo in photos {
                state.photos[photo.id] = photo
                state.nextID = max(state.nextID, photo.id + 1)
            }
        }
    }

    public func knownStamps() throws -> [String: FileStamp] {
        lock.withLock {
            var stamps: [String: FileStamp] = [:]
            for photo in state.photos.values where photo.facts.colours != nil {
                stamps[photo.path] = photo.stamp
                for duplicate in photo.duplicatePaths { stamps[duplicate] = duplicateStamps[duplicate] }
            }
            return stamps
        }
    }

    private var duplicateStamps: [String: FileStamp] = [:]
    public func leftOutStamps() throws -> [String: FileStamp] {
        lock.withLock { state.leftOut }
    }

    /// How many times a content was looked up (`content(withSHA256:)`).
    public var contentLookups: Int { lock.withLock { contentLookupCount } }
    private var contentLookupCount = 0

    public func content(withSHA256 sha256: String) throws -> CatalogueContent? {
        lock.withLock {
            contentLookupCount += 1
            if variantRows.contains(where: { $0.sha256 == sha256 }) { return .variant }
            return state.photos.values.contains { $0.facts.sha256 == sha256 && $0.facts.colours != nil } ? .photo : nil
        }
    }

    public func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        writeCount += 1
        let saved = (state, duplicateStamps, variantRows)
        let writer = Writer(catalogue: self)
        do {
            let result = try body(writer)
            if writeCount == failingWrite { throw InjectedFailure() }
            return result
        } catch {
            (state, duplicateStamps, variantRows) = saved // roll back, as a transaction would
            throw error
        }
    }

    /// Every photo, in id order, or those needing analysis, or those whose own path is one of the
    /// query's paths or under it, a page of them by the query's offset and limit; other filters are
    /// SQLite's business (a filtered query fails the test).
    public func photos(matching query: PhotoQuery) throws -> [CataloguedPhoto] {
        if query.takenSince != nil || query.takenUntil != nil || query.camera != nil {
            XCTFail("FakeCatalogue does not filter; use SQLiteCatalogue for listings")
        }
        lock.withLock { pages.append(query.offset..<(query.limit.map { query.offset + $0 } ?? .max)) }
        var photos = query.needingAnalysis ? try photosNeedingAnalysis() : allPhotos
        if !query.paths.isEmpty {
            photos = photos.filter { photo in query.paths.contains { photo.path == $0 || photo.path.hasPrefix($0 + "/") } }
        }
        return Array(photos.dropFirst(query.offset).prefix(query.limit ?? .max))
    }

    /// The pages of photos asked for, in order (offset to offset + limit).
    public var photoPagesAsked: [Range<Int>] { lock.withLock { pages } }
    private var pages: [Range<Int>] = []

    /// With its variants, as `SQLiteCatalogue.photo(id:)` gives it.
    public func photo(id: PhotoID) throws -> CataloguedPhoto? {
        lock.withLock {
            state.photos[id].map { photo in
                var photo = photo
                photo.variants = variantRows.filter { $0.photoID == id }
                return photo
            }
        }
    }

    /// Photos a test marks as analysed by earlier rules (setting their colours clears the mark).
    public var analysedByEarlierRules: Set<PhotoID> {
        get { lock.withLock { state.stale } }
        set { lock.withLock { state.stale = newValue } }
    }

    public func photosNeedingAnalysis() throws -> [CataloguedPhoto] {
        allPhotos.filter { $0.facts.colours == nil || analysedByEarlierRules.contains($0.id) }
    }

    public func search(_ search: ColourSearch) throws -> [ColourMatch] {
        XCTFail("FakeCatalogue does not search; use SQLiteCatalogue")
        return []
    }

    private var variantRows: [Variant] = []

    public func variant(of photoID: PhotoID, kind: String, parameters: String) throws -> Variant? {
        lock.withLock { variantRows.first { $0.photoID == photoID && $0.kind == kind && $0.parameters == parameters } }
    }

    @discardableResult
    public func recordVariant(_ variant: Variant) throws -> Variant? {
        try lock.withLock {
            // As the catalogue's foreign key: no variant of a photo that is not there.
            guard state.photos[variant.photoID] != nil else { throw CatalogueError.photoGone(id: variant.photoID) }
            let replaced = variantRows.first { $0.photoID == variant.photoID && $0.kind == variant.kind && $0.parameters == variant.parameters }
            variantRows.removeAll { $0.photoID == variant.photoID && $0.kind == variant.kind && $0.parameters == variant.parameters }
            variantRows.append(variant)
            return replaced
        }
    }


    /// Every recorded variant.
    public var variants: [Variant] { lock.withLock { variantRows } }

    public func allVariants() throws -> [Variant] { variants }

    public func removeVariant(atPath path: String) throws {
        lock.withLock { variantRows.removeAll { $0.path == path } }
    }

    /// What `integrityCheck()` says.
    public var integrity = "ok"

    public func integrityCheck() throws -> String { integrity }

    /// The fake keeps no file to copy: a backup through it is a mistake in the test.
    public func backup(to path: String, replacing: Bool) throws -> CatalogueBackup {
        preconditionFailure("FakeCatalogue cannot back up; use SQLiteCatalogue for backups")
    }

    public func failures() throws -> [ImportFailure] {
        lock.withLock { state.failures.values.sorted { $0.path < $1.path } }
    }

    struct Writer: CatalogueWriting {
        let catalogue: FakeCatalogue

        func photo(withSHA256 sha256: String) throws -> PhotoLocation? {
            catalogue.state.photos.values.first { $0.facts.sha256 == sha256 }.map { PhotoLocation(id: $0.id, path: $0.path) }
        }

        func photoID(atPath path: String) throws -> PhotoID? {
            catalogue.state.photos.values.first { $0.path == path || $0.duplicatePaths.contains(path) }?.id
        }

        func insertPhoto(path: String, stamp: FileStamp, facts: PhotoFacts, importedAt: Date) throws -> PhotoID {
            XCTAssertNil(try photo(withSHA256: facts.sha256), "content inserted twice")
            XCTAssertNil(try photoID(atPath: path), "path inserted twice")
            let id = catalogue.state.nextID
            catalogue.state.nextID += 1
            catalogue.state.photos[id] = CataloguedPhoto(id: id, path: path, stamp: stamp, facts: facts, importedAt: importedAt)
            return id
        }

        func movePhoto(_ id: PhotoID, to path: String, stamp: FileStamp) throws {
            catalogue.state.photos[id]?.duplicatePaths.removeAll { $0 == path }
            catalogue.state.photos[id]?.path = path
            catalogue.state.photos[id]?.stamp = stamp
        }

        func addDuplicatePath(_ path: String, of id: PhotoID, stamp: FileStamp, notedAt: Date) throws {
            catalogue.state.photos[id]?.duplicatePaths.append(path)
            catalogue.duplicateStamps[path] = stamp
        }

        func updateStamp(ofPath path: String, to stamp: FileStamp) throws {
            if let id = catalogue.state.photos.values.first(where: { $0.path == path })?.id { catalogue.state.photos[id]?.stamp = stamp }
            if catalogue.duplicateStamps[path] != nil { catalogue.duplicateStamps[path] = stamp }
        }

        func detachPath(_ path: String) throws -> DetachedPath {
            let wasDuplicate = catalogue.state.photos.values.contains { $0.duplicatePaths.contains(path) }
            for id in catalogue.state.photos.keys { catalogue.state.photos[id]?.duplicatePaths.removeAll { $0 == path } }
            catalogue.duplicateStamps[path] = nil
            guard let photo = catalogue.state.photos.values.first(where: { $0.path == path }) else { return DetachedPath(held: wasDuplicate) }
            if let heir = photo.duplicatePaths.first {
                catalogue.state.photos[photo.id]?.path = heir
                catalogue.state.photos[photo.id]?.stamp = catalogue.duplicateStamps[heir]!
                catalogue.state.photos[photo.id]?.duplicatePaths.removeFirst()
                catalogue.duplicateStamps[heir] = nil
                return DetachedPath(held: true)
            }
            let variants = catalogue.variantRows.filter { $0.photoID == photo.id }.map(\.path).sorted()
            try removePhoto(photo.id)
            return DetachedPath(held: true, forgottenVariants: variants, forgottenContent: photo.facts.sha256)
        }

        func removeVariant(atPath path: String) throws {
            catalogue.variantRows.removeAll { $0.path == path }
        }

        func removePhoto(_ id: PhotoID) throws -> [String] {
            for path in catalogue.state.photos[id]?.duplicatePaths ?? [] { catalogue.duplicateStamps[path] = nil }
            catalogue.state.photos[id] = nil
            let variants = catalogue.variantRows.filter { $0.photoID == id }.map(\.path).sorted()
            catalogue.variantRows.removeAll { $0.photoID == id }
            return variants
        }

        /// A subject the person chose stays the accent, as the real catalogue keeps it apart from the analysis.
        func setColours(_ colours: ColourAnalysis, of id: PhotoID) throws {
            guard catalogue.state.photos[id] != nil else { throw CatalogueError.photoGone(id: id) }
            var colours = colours
            if let previous = catalogue.state.photos[id]?.facts.colours, previous.subjectChosen {
                colours.accent = previous.accent
                colours.subjectChosen = true
            }
            catalogue.state.photos[id]?.facts.colours = colours
            catalogue.state.stale.remove(id)
        }

        /// Only the fake's simple case: the subject becomes the accent of the colours as they are.
        func chooseSubject(_ subject: Accent?, of id: PhotoID, at date: Date) throws {
            guard let subject else { return XCTFail("FakeCatalogue does not give a choice back; use SQLiteCatalogue") }
            catalogue.state.photos[id]?.facts.colours?.accent = subject
            catalogue.state.photos[id]?.facts.colours?.subjectChosen = true
        }

        func recordFailure(_ failure: ImportFailure) throws {
            catalogue.state.failures[failure.path] = failure
        }

        func clearFailure(atPath path: String) throws {
            catalogue.state.failures[path] = nil
        }

        func recordLeftOut(path: String, stamp: FileStamp) throws {
            catalogue.state.leftOut[path] = stamp
        }

        func clearLeftOut(atPath path: String) throws {
            catalogue.state.leftOut[path] = nil
        }
    }
}

/// A thumbnail cache in memory; `failing` makes every call throw, as a damaged cache file would.
public final class FakeThumbnailCache: ThumbnailCache, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: Data] = [:]
    private var keeps = 0
    public var failing = false
    /// What a failing cache throws: by default, what a damaged file makes it throw.
    public var failure = CatalogueError.damaged(path: "/library/thumbnails.sqlite")
    /// How many times `reset` was called.
    public private(set) var resets = 0

    public init(_ stored: [String: Data] = [:]) {
        self.stored = stored
    }

    /// What is kept, by content.
    public var jpegs: [String: Data] { lock.withLock { stored } }
    /// How many times `keep` was called with something to keep: one transaction each.
    public var keepCalls: Int { lock.withLock { keeps } }

    public func jpeg(forSHA256 sha256: String) throws -> Data? {
        try lock.withLock {
            if failing { throw failure }
            return stored[sha256]
        }
    }

    public func keep(_ jpegs: [String: Data]) throws {
        try lock.withLock {
            if failing { throw failure }
            guard !jpegs.isEmpty else { return }
            keeps += 1
            stored.merge(jpegs) { kept, _ in kept }
        }
    }

    public func keptSHA256s() throws -> Set<String> {
        try lock.withLock {
            if failing { throw failure }
            return Set(stored.keys)
        }
    }

    public func forget(_ sha256s: Set<String>) throws {
        try lock.withLock {
            if failing { throw failure }
            for sha256 in sha256s { stored[sha256] = nil }
        }
    }

    public func reset() throws {
        lock.withLock {
            resets += 1
            stored = [:]
            failing = false
        }
    }
}
