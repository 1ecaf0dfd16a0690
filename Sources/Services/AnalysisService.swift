import Catalogue
import ColourScience
import Foundation
import Imaging

/// What analysing photos again did.
public struct AnalysisSummary: Sendable {
    /// Photos whose colours were analysed and stored.
    public var analysed = 0
    /// Of those, the photos whose accent changed (another colour name, one where there was none, or none).
    public var accentsChanged: [(photoID: PhotoID, before: ColourName?, after: ColourName?)] = []
    /// Photos that could not be analysed, with the reason; their stored colours are left as they were.
    public var failures: [(photoID: PhotoID, path: String, reason: String)] = []
    /// Thumbnails made for photos catalogued without one.
    public var thumbnailsMade = 0
    public var seconds: Double = 0
    /// Stopped by Ctrl-C (or SIGTERM, SIGHUP): the batches written are kept.
    public var interrupted = false

    public init() {}
}

/// Analyses the colours of catalogued photos again: after the rules changed (a catalogue keeps what
/// earlier rules found until then), or on request. One read and one scaled decode per photo, on
/// several cores; only the colours are replaced — the EXIF, paths and variants stay as they are.
/// Results are written in batches, so an interrupted run keeps what it had done.
public struct AnalysisService: Sendable {
    private let fileSystem: any FileSystem
    private let inspector: PhotoInspector
    private let hasher: any ContentHashing
    private let catalogue: any PhotoCatalogue
    private let clock: any WallClock
    private let analyser: ColourAnalyser
    private let jobRunner: any JobRunner
    private let thumbnails: ThumbnailStore?

    /// - Parameter thumbnails: where the photos' thumbnails are kept: those missing are made, from the
    ///   analysis decode for the photos analysed; nil: none are made.
    public init(fileSystem: any FileSystem, decoder: any ImageDecoding, exifReader: any ExifReading, hasher: any ContentHashing,
                catalogue: any PhotoCatalogue, clock: any WallClock, jobRunner: any JobRunner,
                analyser: ColourAnalyser = ColourAnalyser(), maximumPixelCount: Int = DecodeOptions.defaultMaximumPixelCount,
                thumbnails: ThumbnailStore? = nil) {
        self.jobRunner = jobRunner
        self.thumbnails = thumbnails
        self.fileSystem = fileSystem
        inspector = PhotoInspector(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader, maximumPixelCount: maximumPixelCount)
        self.hasher = hasher
        self.catalogue = catalogue
        self.clock = clock
        self.analyser = analyser
    }

    /// Finds the colours of `photos` again by the current rules: each file is read once, checked
    /// against its stored SHA-256 and decoded once at analysis size; EXIF and variants are untouched.
    /// - Parameters:
    ///   - photos: the catalogued photos to analyse again.
    ///   - jobs: how many photos are read and analysed at once.
    ///   - batchSize: photos whose colours are written in one transaction (an interrupted run keeps its batches).
    ///   - progress: told after each photo.
    /// - Returns: the photos whose accent changed, and those that could not be read (missing, changed, undecodable).
    /// - Throws: the catalogue's errors (`CatalogueError`); a photo's own failure is in the summary, not thrown.
    public func analyse(_ photos: [CataloguedPhoto], jobs: Int, batchSize: Int = 64,
                        progress: any ImportProgress = SilentProgress(),
                        interruption: any Interruption = NoInterruption()) async throws -> AnalysisSummary {
        let start = clock.now()
        var summary = AnalysisSummary()
        progress.update(completed: 0, total: photos.count)
        var batch: [(CataloguedPhoto, ColourAnalysis)] = []
        var completed = 0
        try await jobRunner.forEach(photos, jobs: jobs, interruption: interruption, job: { self.colours(of: $0) }) { photo, result in
            switch result {
            case let .success(colours): batch.append((photo, colours))
            case let .failure(error): summary.failures.append((photo.id, photo.path, error.reason))
            }
            if batch.count >= batchSize {
                try store(batch, into: &summary)
                batch.removeAll(keepingCapacity: true)
            }
            completed += 1
            progress.update(completed: completed, total: photos.count)
        }
        try store(batch, into: &summary)
        progress.finish()
        summary.interrupted = completed < photos.count
        summary.accentsChanged.sort { $0.photoID < $1.photoID }
        summary.failures.sort { $0.photoID < $1.photoID }
        summary.seconds = clock.now().timeIntervalSince(start)
        return summary
    }

    /// The photo's colours by the current rules, from its file — which must still hold what was imported.
    func colours(of photo: CataloguedPhoto) -> Result<ColourAnalysis, PhotoError> {
        let data: Data
        guard fileSystem.exists(photo.path) else {
            return .failure(.unreadable(path: photo.path, reason: "the file is gone since it was imported: import its new place instead, "
                                        + "or forget it with showhide gallery remove \(photo.id)"))
        }
        do {
            data = try fileSystem.contents(of: photo.path)
        } catch {
            return .failure(.unreadable(path: photo.path, reason: error.plainDescription))
        }
        guard hasher.sha256(data) == photo.facts.sha256 else {
            return .failure(.undecodable(path: photo.path, reason: "the file has changed since it was imported: import it again instead"))
        }
        do {
            let image = try inspector.analysisDecode(of: data, path: photo.path).image
            try? thumbnails?.keep(from: image, sha256: photo.facts.sha256)
            return .success(analyser.analyse(image))
        } catch {
            return .failure(error)
        }
    }

    /// Makes the thumbnails missing among `photos` (catalogued before thumbnails existed), `jobs` at once;
    /// a photo whose file cannot be used is left for `gallery check` to report.
    /// - Returns: how many were made.
    public func makeMissingThumbnails(of photos: [CataloguedPhoto], jobs: Int) async throws -> Int {
        guard let thumbnails else { return 0 }
        var made = 0
        let kept = try thumbnails.cache.keptSHA256s()
        try await jobRunner.forEach(photos.filter { !kept.contains($0.facts.sha256) }, jobs: jobs, job: { photo in
            (try? thumbnails.thumbnail(of: photo)) != nil
        }) { _, madeOne in
            if madeOne { made += 1 }
        }
        return made
    }

    private func store(_ batch: [(CataloguedPhoto, ColourAnalysis)], into summary: inout AnalysisSummary) throws {
        guard !batch.isEmpty else { return }
        // A photo removed by another command meanwhile has nothing left to analyse; the rest of its batch is kept.
        let gone = try catalogue.write { writer in
            var gone: Set<PhotoID> = []
            for (photo, colours) in batch {
                do {
                    try writer.setColours(colours, of: photo.id)
                } catch CatalogueError.photoGone {
                    gone.insert(photo.id)
                }
            }
            return gone
        }
        summary.analysed += batch.count - gone.count
        for (photo, colours) in batch where !gone.contains(photo.id) {
            // A subject the person chose stays theirs: its accent is what the catalogue says now, read back.
            let before = photo.facts.colours?.accent?.name
            let after = photo.facts.colours?.subjectChosen == true ? try catalogue.photo(id: photo.id)?.facts.colours?.accent?.name
                : colours.accent?.name
            if before != after { summary.accentsChanged.append((photo.id, before, after)) }
        }
    }
}
