import Catalogue
import ColourScience
import Foundation
import Imaging

/// Which colour a splash keeps.
public enum SplashTarget: Equatable, Sendable {
    /// Each photo's own accent colour (photos without one are skipped).
    case accent
    /// Each photo's accent candidate of this rank, as `gallery show` lists them: 1 is the most salient
    /// (whether or not it stands out), 2 and 3 the runners-up (photos with fewer are skipped).
    case candidate(Int)
    /// A CIELAB hue angle in degrees.
    case hue(Double)
    /// The hue of a colour.
    case colour(Lab)
}

extension SplashTarget {
    /// The name of the colour a photo's variants keep under this target; nil when it has none.
    public func colourName(of colours: ColourAnalysis?) -> ColourName? {
        switch self {
        case .accent: return colours?.accent?.name
        case let .candidate(rank): return colours.flatMap { $0.candidates.indices.contains(rank - 1) ? $0.candidates[rank - 1].name : nil }
        case let .hue(degrees): return ColourName.nearest(to: LCh(l: 60, c: 60, h: degrees).lab)
        case let .colour(lab): return ColourName.nearest(to: lab)
        }
    }
}

/// How variants are made.
public struct ProcessingOptions: Equatable, Sendable {
    public var target: SplashTarget
    /// Whole objects (the default) or each pixel by its hue.
    public var method: SplashMethod
    public var tolerance: Double
    public var feather: Double
    public var minimumChroma: Double
    /// JPEG quality of JPEG variants.
    public var quality: Int
    public var kinds: [SplashMode]
    /// Photos processed at once: by default one; the product gives its cores' count (`AppEnvironment`).
    public var jobs: Int

    public init(target: SplashTarget = .accent, method: SplashMethod = .object, tolerance: Double = SplashParameters.defaultTolerance,
                feather: Double = SplashParameters.defaultFeather, minimumChroma: Double = SplashParameters.defaultMinimumChroma,
                quality: Int = 90, kinds: [SplashMode] = SplashMode.allCases,
                jobs: Int = 1) {
        self.target = target
        self.method = method
        self.tolerance = tolerance
        self.feather = feather
        self.minimumChroma = minimumChroma
        self.quality = quality
        self.kinds = kinds
        self.jobs = max(1, jobs)
    }
}

/// What processing did.
public struct ProcessingSummary: Equatable, Sendable {
    /// Variant files written and recorded.
    public var made: [Variant] = []
    /// Variants that already existed with the same parameters.
    public var unchanged = 0
    /// Photos left alone, with the reason (no accent colour).
    public var skipped: [(photoID: PhotoID, reason: String)] = []
    /// Photos that could not be processed, with the reason.
    public var failures: [(photoID: PhotoID, path: String, reason: String)] = []
    public var seconds: Double = 0
    /// Stopped by Ctrl-C before every photo was done: what was made is kept.
    public var interrupted = false
    /// Photos looked at: all of those asked for, unless interrupted or stopped.
    public var photosDone = 0
    /// Why no more photos were started, when a variant could not be written for want of room: every
    /// other photo would fail the same way.
    public var stoppedForRoom: String?

    public init() {}

    public static func == (lhs: ProcessingSummary, rhs: ProcessingSummary) -> Bool {
        lhs.made == rhs.made && lhs.unchanged == rhs.unchanged && lhs.seconds == rhs.seconds && lhs.interrupted == rhs.interrupted
            && lhs.skipped.map(\.photoID) == rhs.skipped.map(\.photoID) && lhs.failures.map(\.photoID) == rhs.failures.map(\.photoID)
    }
}

/// Makes the show and hide variants of photos at full resolution, upright, and records them, each
/// where its `VariantSpec` puts it: written under a temporary name and renamed into place before its
/// row is recorded.
public struct ProcessingService: Sendable {
    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let encoder: any ImageEncoding
    private let exifReader: any ExifReading
    private let hasher: any ContentHashing
    private let catalogue: any PhotoCatalogue
    private let clock: any WallClock
    private let variantsDirectory: String
    private let jobRunner: any JobRunner

    public init(fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding,
                exifReader: any ExifReading, hasher: any ContentHashing, catalogue: any PhotoCatalogue,
                clock: any WallClock, jobRunner: any JobRunner, libraryDirectory: String) {
        self.jobRunner = jobRunner
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.exifReader = exifReader
        self.hasher = hasher
        self.catalogue = catalogue
        self.clock = clock
        self.variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
    }

    /// Makes the show and hide variants of `photos` that are not made yet with these parameters: each
    /// photo is read, checked against its stored SHA-256 and decoded once; its variants are written
    /// under temporary names, renamed into place, then recorded.
    /// - Parameters:
    ///   - photos: the photos to process.
    ///   - options: what the variants keep (accent, candidate, colour or hue), the splash's method and
    ///     tolerances, the JPEG quality and how many photos are processed at once.
    ///   - progress: told after each photo.
    ///   - interruption: once requested (Ctrl-C), no photo is started; those started are finished.
    /// - Returns: the variants made, those already made, the photos skipped (no accent) and failed.
    /// - Throws: the catalogue's errors (`CatalogueError`); a photo's own failure is in the summary.
    public func process(_ photos: [CataloguedPhoto], options: ProcessingOptions = ProcessingOptions(),
                        progress: any ImportProgress = SilentProgress(),
                        interruption: any Interruption = NoInterruption()) async throws -> ProcessingSummary {
        let start = clock.now()
        removeLeftovers(of: photos)
        var summary = ProcessingSummary()
        progress.update(completed: 0, total: photos.count)
        var completed = 0
        let stop = StopWhenFull(interruption)
        try await jobRunner.forEach(photos, jobs: options.jobs, interruption: stop,
                                    job: { self.attempt($0, options: options) }) { photo, result in
            switch result {
            case let .success(outcome):
                summary.made += outcome.made
                summary.unchanged += outcome.unchanged
                if let reason = outcome.skipped { summary.skipped.append((photo.id, reason)) }
            case let .failure(failure):
                summary.failures.append((photo.id, photo.path, failure.reason))
                if ExportError.isFull(failure.reason) { stop.full(failure.reason) }
            }
            completed += 1
            progress.update(completed: completed, total: photos.count)
        }
        progress.finish()
        summary.stoppedForRoom = stop.fullReason
        summary.interrupted = completed < photos.count && stop.fullReason == nil
        summary.photosDone = completed
        summary.made.sort { ($0.photoID, $0.kind) < ($1.photoID, $1.kind) }
        summary.failures.sort { $0.photoID < $1.photoID }
        summary.skipped.sort { $0.photoID < $1.photoID }
        summary.seconds = clock.now().timeIntervalSince(start)
        return summary
    }

    /// The user's interruption, or a disk found full: no photo is started after either.
    private final class StopWhenFull: Interruption, @unchecked Sendable {
        private let interruption: any Interruption
        private let lock = NSLock()
        private var reason: String?

        init(_ interruption: any Interruption) { self.interruption = interruption }

        var isRequested: Bool { interruption.isRequested || fullReason != nil }
        var fullReason: String? { lock.withLock { reason } }
        func full(_ reason: String) { lock.withLock { self.reason = self.reason ?? reason } }
    }

    struct Outcome {
        var made: [Variant] = []
        var unchanged = 0
        var skipped: String?
    }

    struct PhotoFailure: Error {
        var reason: String
    }

    func attempt(_ photo: CataloguedPhoto, options: ProcessingOptions) -> Result<Outcome, PhotoFailure> {
        do {
            return .success(try process(photo, options: options))
        } catch {
            return .failure(error)
        }
    }

    /// Whether `variant`'s file is in this library, so that it need not be made again. One recorded under
    /// another place (the library folder moved, renamed, copied or restored) counts only when the same
    /// file is in this library's variants folder, and its record then says so; a file at the old place
    /// is another library's.
    func hasItsFile(_ variant: Variant) -> Bool {
        // Of the size recorded: a file cut short (a power cut after its rename, before the disk had its
        // bytes: renames are not synced) is made again, not served as the variant.
        guard let file = VariantSpec.file(recordedAt: variant.path, inVariants: variantsDirectory),
              fileSystem.stamp(of: file)?.size == variant.fileSize else {
            return false
        }
        guard file != variant.path else { return true }
        var followed = variant
        followed.path = file
        return (try? catalogue.recordVariant(followed)) != nil
    }

    /// One photo: read and decode it once, then each missing variant.
    func process(_ photo: CataloguedPhoto, options: ProcessingOptions) throws(PhotoFailure) -> Outcome {
        var outcome = Outcome()
        guard let specs = VariantSpec.specs(for: photo, options: options), let splashParameters = specs.first?.splash else {
            outcome.skipped = VariantSpec.nothingToSplash(options.target, scene: photo.facts.colours?.scene ?? .ordinary)
            return outcome
        }
        var missing: [VariantSpec] = []
        // The row of each kind to make, as looked at (none, or one whose file is gone): another row found in
        // its place when recording was written meanwhile by another run at once.
        var seen: [SplashMode: Variant] = [:]
        for spec in specs {
            let existing = try? catalogue.variant(spec)
            if let existing, hasItsFile(existing) {
                outcome.unchanged += 1
            } else {
                missing.append(spec)
                seen[spec.kind] = existing
            }
        }
        guard !missing.isEmpty else { return outcome }

        guard fileSystem.exists(photo.path) else {
            throw PhotoFailure(reason: "the file is gone: import its new place, or forget it with showhide gallery remove \(photo.id)")
        }
        let data: Data
        let decoded: DecodedImage
        do {
            data = try fileSystem.contents(of: photo.path)
            decoded = try decoder.decode(data, options: DecodeOptions(appliesOrientation: true))
        } catch {
            throw PhotoFailure(reason: error.plainDescription)
        }
        guard hasher.sha256(data) == photo.facts.sha256 else {
            throw PhotoFailure(reason: "the file has changed since it was imported: import it again first")
        }
        let format = photo.facts.format.variantFormat
        let exif = format.carriesExif ? exifReader.uprightExifBlock(from: data) : nil
        // Each pixel's keep-weight worked out once for both variants; then each variant on its own core,
        // mixed as the encoder asks for rows: no copy of the photo is made, and show and hide take the
        // time of one.
        let image = decoded.image
        let keepWeights = Splash(parameters: splashParameters, image: image).keepWeights(of: image)
        let results = Self.concurrently(missing) { spec in
            Result { () throws -> (data: Data, sha256: String) in
                // Marked, so that a copy of it anywhere is never imported as a photo.
                let encodeOptions = EncodeOptions(quality: options.quality, exif: exif, xmp: ShowhidePictureMark.packet(spec.kind.rawValue))
                let data = try encoder.encode(keepWeights.rows(spec.kind), as: format, options: encodeOptions)
                return (data, hasher.sha256(data))
            }
        }
        for (spec, result) in zip(missing, results) {
            do {
                let encoded = try result.get()
                let path = spec.path(inVariants: variantsDirectory, hasher: hasher)
                try fileSystem.writeAtomically(encoded.data, to: path)
                let variant = spec.record(path: path, fileSize: Int64(encoded.data.count),
                                          pixelSize: PixelSize(width: image.width, height: image.height), sha256: encoded.sha256,
                                          createdAt: clock.now())
                let replaced: Variant?
                do {
                    replaced = try catalogue.recordVariant(variant)
                } catch CatalogueError.photoGone {
                    // Removed meanwhile (`gallery remove` in another shell): its variant would be a stray file.
                    _ = fileSystem.removeVariantFiles([path], inVariants: variantsDirectory)
                    outcome.made.removeAll { $0.photoID == photo.id }
                    outcome.skipped = "removed from the catalogue while it was processed"
                    return outcome
                }
                // Another `process` made the same file meanwhile: counted by that run, not twice.
                if let replaced, replaced != seen[spec.kind], replaced.sha256 == variant.sha256, replaced.path == variant.path {
                    outcome.unchanged += 1
                } else {
                    outcome.made.append(variant)
                }
            } catch {
                throw PhotoFailure(reason: error.plainDescription)
            }
        }
        return outcome
    }

    /// `work` on each item at once, results in the items' order.
    static func concurrently<Item: Sendable, Output>(_ items: [Item], _ work: @Sendable (Item) -> Output) -> [Output] {
        let slots = Slots<Output>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let output = work(items[index])
            slots.lock.withLock { slots.values[index] = output }
        }
        return slots.values.map { $0! }
    }

    /// Results filled in from several threads, under a lock.
    private final class Slots<Output>: @unchecked Sendable {
        let lock = NSLock()
        var values: [Output?]

        init(count: Int) {
            values = Array(repeating: nil, count: count)
        }
    }

    /// Temporary files a crash left behind in these photos' variant folders: only those no process is
    /// writing, for one may be another process's, being written now (a `process --all` while the gallery
    /// makes a photo's variants). Other folders' are left to `gallery check --repair`, so that a photo made
    /// from the gallery does not walk every variant.
    private func removeLeftovers(of photos: [CataloguedPhoto]) {
        let folders = Set(photos.map { VariantSpec.folder(ofContent: $0.facts.sha256, inVariants: variantsDirectory) })
        for file in fileSystem.walk(folders.sorted()).files where file.path.hasSuffix(partialFileSuffix) && !fileSystem.isBeingWritten(file.path) {
            try? fileSystem.remove(file.path)
        }
    }
}
