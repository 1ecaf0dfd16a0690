import Catalogue
import ColourScience
import Foundation
import Imaging

/// What an export writes for each photo.
public enum ExportVariant: String, CaseIterable, Sendable, Codable {
    case show, hide, original
}

/// The format of exported files: the source's, or one for all.
public enum ExportFormat: String, CaseIterable, Sendable {
    case same, jpeg, png, webp
}

/// What to do when a file name is taken already.
public enum ConflictPolicy: String, CaseIterable, Sendable {
    /// Add `_2`, `_3`, … to the new file's name.
    case unique
    /// Replace the file that is there.
    case overwrite
    /// Keep the file that is there and write nothing: how an interrupted export is resumed.
    case skip
}

public struct ExportOptions: Sendable {
    public var variants: [ExportVariant]
    public var format: ExportFormat
    /// JPEG quality of re-encoded files and of variants made on the way.
    public var quality: Int
    /// Largest long side, in pixels; nil keeps the full size.
    public var maximumLongSide: Int?
    public var stripGPS: Bool
    public var template: FileNameTemplate
    public var onConflict: ConflictPolicy
    /// Write `manifest.csv` beside `manifest.json`.
    public var csvManifest: Bool
    /// Work out what would be written, and write and make nothing.
    public var dryRun: Bool
    /// How missing variants are made (target, tolerance, …; its quality is `quality`).
    public var processing: ProcessingOptions

    public init(variants: [ExportVariant] = [.show], format: ExportFormat = .same, quality: Int = 90, maximumLongSide: Int? = nil,
                stripGPS: Bool = false, template: FileNameTemplate = try! FileNameTemplate(FileNameTemplate.standard),
                onConflict: ConflictPolicy = .unique, csvManifest: Bool = false, dryRun: Bool = false,
                processing: ProcessingOptions = ProcessingOptions()) {
        self.variants = variants
        self.format = format
        self.quality = quality
        self.maximumLongSide = maximumLongSide
        self.stripGPS = stripGPS
        self.template = template
        self.onConflict = onConflict
        self.csvManifest = csvManifest
        self.dryRun = dryRun
        var processing = processing
        processing.quality = quality
        self.processing = processing
    }
}

/// Where exported files go: a folder or an archive. Files are handed over one at a time, so nothing
/// holds more than one file's bytes.
public protocol ExportDestination: AnyObject {
    /// The folder or archive, for messages.
    var location: String { get }
    /// Whether a file is at `name` already.
    func contains(_ name: String) -> Bool
    /// The bytes of the file already at `name`, when there is one (a resumed export keeps it).
    func existing(_ name: String) throws -> Data?
    /// The size of the file at `name`, without reading it; nil when there is none.
    func size(of name: String) -> Int?
    /// Writes a file; in a folder under a temporary name renamed into place.
    func write(_ data: Data, as name: String) throws
    /// `body`, while no other export to this destination writes its manifest (an archive is its own export's alone).
    func whileLockingManifest(_ body: () throws -> Void) throws
    /// Completes the destination (an archive is renamed into place).
    func finish() throws
    /// Removes what an export that failed had started (an archive's temporary file).
    func abandon()
    /// Whether part of it is worth keeping when the export is interrupted: a folder's files are, with a
    /// manifest of them; an archive is written whole or not at all.
    var keepsAPart: Bool { get }
}

/// Makes show and hide variants: the processing service, or a fake in tests.
public protocol VariantMaking: Sendable {
    func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress,
                 interruption: any Interruption) async throws -> ProcessingSummary
}

extension VariantMaking {
    public func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress) async throws -> ProcessingSummary {
        try await process(photos, options: options, progress: progress, interruption: NoInterruption())
    }
}

extension ProcessingService: VariantMaking {}

/// One file of an export, as its manifest lists it.
public struct ExportedFile: Equatable, Sendable, Codable {
    public var file: String
    public var photo: PhotoID
    public var originalPath: String
    public var variant: ExportVariant
    /// The splash parameters of a show or hide file.
    public var parameters: [String: Double]?
    /// How a show or hide file was made: "object" or "hue" (nil for an original, and in manifests written
    /// before it was recorded).
    public var method: String?
    public var size: Int
    public var width: Int
    public var height: Int
    public var sha256: String
    /// Already there, not written by this run: resumed with `--on-conflict skip`, the same bytes found
    /// under its name, or listed by an earlier export into the same folder.
    public var kept: Bool

    public init(file: String, photo: PhotoID, originalPath: String, variant: ExportVariant, parameters: [String: Double]?,
                method: String? = nil, size: Int, width: Int, height: Int, sha256: String, kept: Bool = false) {
        self.file = file
        self.photo = photo
        self.originalPath = originalPath
        self.variant = variant
        self.parameters = parameters
        self.method = method
        self.size = size
        self.width = width
        self.height = height
        self.sha256 = sha256
        self.kept = kept
    }
}

public struct ExportSummary: Sendable {
    /// Every file of the export, written or kept, in the order written.
    public var files: [ExportedFile] = []
    /// With `dryRun`: the files that would be written, and whether each needs its variant made first.
    public var planned: [(file: String, photo: PhotoID, variant: ExportVariant, needsMaking: Bool)] = []
    /// Photos left out of show and hide because they have no accent colour.
    public var withoutAccent: [PhotoID] = []
    public var failures: [(photoID: PhotoID, path: String, reason: String)] = []
    public var madeVariants = 0
    public var seconds = 0.0
    /// Stopped by Ctrl-C: a folder keeps the files written and a manifest of them; an archive is not written.
    public var interrupted = false
    /// Every photo failed and no earlier export's manifest was there: no zip or folder was made.
    public var madeNothing = false

    public var written: [ExportedFile] { files.filter { !$0.kept } }
    public var kept: [ExportedFile] { files.filter(\.kept) }
    public var bytesWritten: Int { written.reduce(0) { $0 + $1.size } }

    public init() {}
}

/// What an export will take and write, worked out before it starts.
public struct ExportEstimate: Equatable, Sendable {
    /// Photos with at least one file to write.
    public var photos = 0
    public var files = 0
    /// About how many bytes the files weigh.
    public var bytes: Int64 = 0
    /// Photos with no file to write: show and hide asked for, and no accent colour to keep.
    public var withoutAccent = 0
    /// Files that are variants not made yet: the export makes and records them first.
    public var variantsToMake = 0

    public init(photos: Int = 0, files: Int = 0, bytes: Int64 = 0, withoutAccent: Int = 0, variantsToMake: Int = 0) {
        self.photos = photos
        self.files = files
        self.bytes = bytes
        self.withoutAccent = withoutAccent
        self.variantsToMake = variantsToMake
    }
}

/// Errors of an export as a whole (a photo that fails is recorded and the export goes on).
public enum ExportError: LocalizedError, Equatable {
    case badTemplate(String, String)
    case destinationExists(String)
    case cannotWrite(String, String)
    /// A folder's export stopped by a file it could not write (a full disk, a name the disk does not take):
    /// the files written before are kept, and listed in its manifest when that could still be written.
    case stoppedPartWay(String, String, kept: Int, listed: Bool)
    /// The destination's manifest from an earlier export cannot be read, so it cannot be merged.
    case unreadableManifest(String, String)

    public var errorDescription: String? {
        switch self {
        case let .badTemplate(template, reason): return "the file name template '\(template)' is wrong: \(reason)"
        case let .destinationExists(path): return "\(path) exists already: choose another name, or --on-conflict overwrite"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        case let .stoppedPartWay(path, reason, kept, listed):
            let files = kept == 1 ? "the file" : "the \(kept) files"
            return "cannot write \(path): \(reason). The export stopped there: \(files) written before it \(kept == 1 ? "is" : "are") kept"
                + (listed ? " and listed in its manifest" : "")
                + "; \(Self.isFull(reason) ? "make room, then" : "once that is mended,") run the same command with --on-conflict skip to go on"
        case let .unreadableManifest(path, reason):
            return "\(path) is not a manifest showhide can read (\(reason)), so this export cannot add to it: "
                + "move it away, or export to another folder; nothing was written"
        }
    }

    /// Whether a write failed for want of room (ENOSPC, EDQUOT), by the system's words for it.
    static func isFull(_ reason: String) -> Bool {
        let reason = reason.lowercased()
        return reason.contains("no space left") || reason.contains("quota exceeded")
    }
}

/// Exports photos and their variants: makes the missing variants through the processing service,
/// names each file from the template, converts and downsizes when asked, and hands files one by one
/// to the destination, then writes the manifest.
public struct ExportService: Sendable {
    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let encoder: any ImageEncoding
    private let exifReader: any ExifReading
    private let hasher: any ContentHashing
    private let catalogue: any PhotoCatalogue
    private let clock: any WallClock
    private let variantMaker: any VariantMaking
    /// The library's own variants folder: a variant is read from there only (`variantFile(recordedAt:inVariants:)`).
    private let variantsDirectory: String

    public init(fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding, exifReader: any ExifReading,
                hasher: any ContentHashing, catalogue: any PhotoCatalogue, clock: any WallClock, variantMaker: any VariantMaking,
                libraryDirectory: String) {
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.exifReader = exifReader
        self.hasher = hasher
        self.catalogue = catalogue
        self.clock = clock
        self.variantMaker = variantMaker
        self.variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
    }

    public static let manifestName = "manifest.json"
    public static let csvManifestName = "manifest.csv"

    /// Exports `photos` and their variants into `destination`: missing variants are made through the
    /// variant maker, each file is named from the template and converted or made smaller when asked,
    /// then the manifest is written. A photo that fails is recorded and the export goes on.
    /// - Parameters:
    ///   - photos: the photos to export, in the order their files are written.
    ///   - options: what of each photo, in which format and size, named how, and what to do with a taken name.
    ///   - destination: a folder or a zip file; finished at the end, abandoned if the export throws.
    ///   - progress: told after each photo.
    /// - Returns: the files written (or, in a dry run, planned), kept and failed.
    /// - Throws: `ExportError` when the destination cannot be written, and the catalogue's errors.
    public func export(_ photos: [CataloguedPhoto], options: ExportOptions, to destination: any ExportDestination,
                       progress: any ImportProgress = SilentProgress(),
                       interruption: any Interruption = NoInterruption()) async throws -> ExportSummary {
        let start = clock.now()
        var summary = ExportSummary()
        // An earlier export's manifest is merged with this one's, so it is read before anything is
        // made or written: one that cannot be read stops the export with nothing done.
        let previous = try Self.previousManifest(in: destination)
        let previousByName = Dictionary(previous.map { ($0.file, $0) }, uniquingKeysWith: { _, last in last })
        let hadCSV = destination.contains(Self.csvManifestName)
        let kinds = options.variants.compactMap { SplashMode(rawValue: $0.rawValue) }
        let photos = photos.sorted { $0.id < $1.id }
        var failed: Set<PhotoID> = []
        if !kinds.isEmpty && !options.dryRun {
            var processing = options.processing
            processing.kinds = kinds
            let made = try await variantMaker.process(photos, options: processing, progress: SilentProgress(), interruption: interruption)
            summary.madeVariants = made.made.count
            for failure in made.failures {
                summary.failures.append((failure.photoID, failure.path, failure.reason))
                failed.insert(failure.photoID)
            }
        }
        var used: Set<String> = [Self.manifestName, Self.csvManifestName]
        var done = 0
        let total = photos.count(where: { !failed.contains($0.id) }) * options.variants.count
        progress.update(completed: 0, total: total)
        // Whether the manifest of this export is written.
        var listed = false
        func writeManifests() throws {
            // Read again, merged and written while no other export to this folder does the same: one that
            // finished meanwhile wrote its files into the manifest, which this one would otherwise write over.
            try destination.whileLockingManifest {
                let latest = (try? Self.previousManifest(in: destination)) ?? previous
                let latestNames = Set(latest.map(\.file))
                let earlier = latest + previous.filter { !latestNames.contains($0.file) }
                // An earlier file is listed only while its name holds a file of the size it listed: one replaced
                // since, by other bytes, almost always weighs otherwise, and hashing every earlier file of a
                // large folder at each export would read it all.
                let manifest = Self.merged(previous: earlier, current: summary.files) { destination.size(of: $0.file) == $0.size }
                try destination.write(try Self.manifestJSON(manifest), as: Self.manifestName)
                listed = true
                // A CSV manifest from before (or another export's) is kept in step with the JSON one, asked for or not.
                if options.csvManifest || hadCSV || destination.contains(Self.csvManifestName) {
                    try destination.write(Self.manifestCSV(manifest), as: Self.csvManifestName)
                }
            }
        }
        do {
            for photo in photos where !failed.contains(photo.id) {
                // Ctrl-C: no photo is started; the one written so far is whole.
                if interruption.isRequested {
                    summary.interrupted = true
                    break
                }
                for variant in options.variants {
                    defer {
                        done += 1
                        progress.update(completed: done, total: total)
                    }
                    guard let source = source(of: photo, variant, options) else {
                        if !summary.withoutAccent.contains(photo.id) { summary.withoutAccent.append(photo.id) }
                        continue
                    }
                    let name = claimName(for: photo, variant, source: source, options: options, used: &used, in: destination)
                    if options.dryRun {
                        summary.planned.append((name, photo.id, variant, source.path == nil))
                        continue
                    }
                    do {
                        if options.onConflict == .skip, let existing = try destination.existing(name) {
                            // Listed by an earlier export and still its bytes: that entry says what the file is,
                            // where this photo may have changed since (edited and imported again).
                            if var listed = previousByName[name], listed.size == existing.count, listed.sha256 == hasher.sha256(existing) {
                                listed.kept = true
                                summary.files.append(listed)
                            } else {
                                summary.files.append(file(name, photo, variant, source, data: existing, pixelSize: outputSize(source, options),
                                                          kept: true))
                            }
                            continue
                        }
                        let (data, pixelSize) = try output(of: photo, source, options: options)
                        let place = try placement(of: data, named: name, policy: options.onConflict, used: &used, in: destination)
                        if !place.alreadyThere { try destination.write(data, as: place.name) }
                        summary.files.append(file(place.name, photo, variant, source, data: data, pixelSize: pixelSize,
                                                  kept: place.alreadyThere))
                    } catch let error as ExportError {
                        throw error
                    } catch {
                        summary.failures.append((photo.id, source.path ?? photo.path, error.plainDescription))
                    }
                }
            }
            progress.finish()
            // Every photo failed: a zip or a folder of an empty manifest would be no export.
            summary.madeNothing = !options.dryRun && !summary.interrupted && summary.files.isEmpty && previous.isEmpty
            if options.dryRun || (summary.interrupted && !destination.keepsAPart) || summary.madeNothing {
                // Nothing was written, or an archive cut short: what was started is taken away.
                destination.abandon()
            } else {
                try writeManifests()
                try destination.finish()
            }
        } catch let ExportError.cannotWrite(path, reason) where destination.keepsAPart && !summary.written.isEmpty {
            // A folder keeps what was written, as after Ctrl-C: listed when the disk still takes the manifest.
            progress.finish()
            try? writeManifests()
            throw ExportError.stoppedPartWay(path, reason, kept: summary.written.count, listed: listed)
        } catch {
            progress.finish()
            destination.abandon()
            throw error
        }
        summary.seconds = clock.now().timeIntervalSince(start)
        return summary
    }

    /// The file an export copies or converts: the original, or a variant (nil path: not made yet).
    struct Source {
        var path: String?
        var format: ImageFormat
        var pixelSize: PixelSize
        var parameters: [String: Double]?
        var method: String?
        /// The file's size when it exists; else about what a variant of the photo weighs (its original's).
        var bytes: Int64
        /// A variant's XMP mark, kept when it is encoded again (`ShowhidePictureMark`); nil for an original.
        var mark: String? = nil
    }

    /// How many photos and files an export of `photos` takes, and about how many bytes it writes,
    /// from the catalogue alone (no file is read): a file copied as it is weighs what it weighs; one
    /// made smaller, in another format, or a variant not made yet, about its source's bytes scaled by
    /// its pixels.
    public func estimate(_ photos: [CataloguedPhoto], options: ExportOptions) -> ExportEstimate {
        var estimate = ExportEstimate()
        for photo in photos {
            var any = false
            for variant in options.variants {
                guard let source = source(of: photo, variant, options) else { continue }
                let output = outputSize(source, options)
                let share = Double(output.width * output.height) / Double(max(1, source.pixelSize.width * source.pixelSize.height))
                let format = outputFormat(source, options)
                estimate.files += 1
                if variant != .original && source.path == nil { estimate.variantsToMake += 1 }
                if format != source.format {
                    // Another format weighs what that format makes of the pixels, not what the source weighed.
                    estimate.bytes += Int64((Double(output.width * output.height) * Self.bytesPerPixel(format, quality: options.quality)).rounded())
                } else {
                    estimate.bytes += output == source.pixelSize ? source.bytes : Int64((Double(source.bytes) * share).rounded())
                }
                any = true
            }
            if any { estimate.photos += 1 } else { estimate.withoutAccent += 1 }
        }
        return estimate
    }

    private func source(of photo: CataloguedPhoto, _ variant: ExportVariant, _ options: ExportOptions) -> Source? {
        guard let kind = SplashMode(rawValue: variant.rawValue) else {
            return Source(path: photo.path, format: photo.facts.format, pixelSize: photo.facts.pixelSize, parameters: nil,
                          bytes: photo.stamp.size)
        }
        guard let spec = VariantSpec.spec(for: photo, kind: kind, options: options.processing) else { return nil }
        // A row naming another library's file (a copy or a restored backup) has no file here: it is made again.
        let made = ((try? catalogue.variant(spec)) ?? nil).flatMap { variant in
            fileSystem.variantFile(recordedAt: variant.path, inVariants: variantsDirectory).map { (path: $0, variant: variant) }
        }
        return Source(path: made?.path, format: photo.facts.format.variantFormat, pixelSize: made?.variant.pixelSize ?? photo.facts.pixelSize,
                      parameters: VariantSpec.parameterValues(ofKey: spec.key), method: spec.splash.method.rawValue,
                      bytes: made?.variant.fileSize ?? photo.stamp.size, mark: ShowhidePictureMark.packet(kind.rawValue))
    }

    /// About what a photo's pixel weighs once written as `format`, as measured on 40 photos of colour-dev2
    /// (Docs/Usage.md): PNG 1.1 bytes and their show and hide variants 0.9 (1.0 taken for both), JPEG at
    /// quality 90 0.21, WebP 0.15.
    static func bytesPerPixel(_ format: ImageFormat, quality: Int) -> Double {
        switch format {
        case .png: 1.0
        case .webp: quality >= 90 ? 0.15 : 0.1
        default: quality >= 90 ? 0.21 : 0.15
        }
    }

    private func outputFormat(_ source: Source, _ options: ExportOptions) -> ImageFormat {
        switch options.format {
        case .same:
            // showhide does not write HEIF or TIFF: such an original that must change (made smaller,
            // or its GPS position taken out) becomes a JPEG.
            guard !source.format.isWritten else { return source.format }
            let smaller = options.maximumLongSide.map { max(source.pixelSize.width, source.pixelSize.height) > $0 } ?? false
            return smaller || options.stripGPS ? .jpeg : source.format
        case .jpeg: return .jpeg
        case .png: return .png
        case .webp: return .webp
        }
    }

    /// The size a file will have: the source's, made smaller to the largest long side.
    private func outputSize(_ source: Source, _ options: ExportOptions) -> PixelSize {
        options.maximumLongSide.map(source.pixelSize.fitting(longSide:)) ?? source.pixelSize
    }

    /// The usual extension of `format`; for a HEIF or TIFF original copied as it is, the photo's own
    /// (an AVIF stays .avif, a HEIF .heif, a TIFF .tiff).
    private func fileExtension(_ format: ImageFormat, photoPath: String) -> String {
        let own = (photoPath as NSString).pathExtension.lowercased()
        let ownExtensions: [ImageFormat: Set<String>] = [.heif: ["heic", "heif", "hif", "avif"], .tiff: ["tif", "tiff"]]
        return ownExtensions[format]?.contains(own) == true ? own : format.fileExtension
    }

    private func claimName(for photo: CataloguedPhoto, _ variant: ExportVariant, source: Source, options: ExportOptions,
                           used: inout Set<String>, in destination: any ExportDestination) -> String {
        let taken = photo.facts.exif?.takenAt
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let base = ((photo.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let values = [
            "id": String(photo.id),
            "name": base,
            "date": taken.map { "\($0.year)-\(two($0.month))-\(two($0.day))" } ?? "undated",
            "time": taken.map { "\(two($0.hour))-\(two($0.minute))-\(two($0.second))" } ?? "untimed",
            "camera": photo.facts.exif?.model ?? photo.facts.exif?.make ?? "unknown-camera",
            "colour": options.processing.target.colourName(of: photo.facts.colours)?.rawValue ?? "no-accent",
            "variant": variant.rawValue,
            "ext": fileExtension(outputFormat(source, options), photoPath: photo.path),
        ]
        let wanted = options.template.render(values)
        var name = wanted
        var number = 1
        // Names are unique within one export whatever the policy; the policy decides about files already
        // there, once their bytes are known (a dry run, which makes none, takes the next free name).
        while used.contains(name) || (options.dryRun && options.onConflict == .unique && destination.contains(name)) {
            number += 1
            name = FileNameTemplate.numbered(wanted, number)
        }
        used.insert(name)
        return name
    }

    /// Where a file's bytes go. A file of the same bytes already under its name, or under one of its
    /// `_2`, `_3`, … names that `unique` would have chosen before (an export run again), is kept as it
    /// is: nothing is written. A file of other bytes under the name is replaced with `overwrite`, and
    /// with `unique` the bytes go to the first numbered name that is free.
    private func placement(of data: Data, named name: String, policy: ConflictPolicy, used: inout Set<String>,
                           in destination: any ExportDestination) throws -> (name: String, alreadyThere: Bool) {
        var candidate = name
        var number = 1
        while true {
            if let existing = try destination.existing(candidate) {
                if existing == data {
                    used.insert(candidate)
                    return (candidate, true)
                }
                if policy != .unique { return (candidate, false) }
            } else if candidate == name || !used.contains(candidate) {
                used.insert(candidate)
                return (candidate, false)
            }
            repeat {
                number += 1
                candidate = FileNameTemplate.numbered(name, number)
            } while used.contains(candidate)
        }
    }

    /// The manifest an earlier export left in the destination (none: empty).
    static func previousManifest(in destination: any ExportDestination) throws -> [ExportedFile] {
        guard let data = try destination.existing(manifestName) else { return [] }
        guard let files = manifestFiles(data) else {
            throw ExportError.unreadableManifest((destination.location as NSString).appendingPathComponent(manifestName),
                                                 "its JSON is not a list of exported files")
        }
        return files
    }

    /// The files a manifest's bytes list; nil when they are no export's manifest.
    static func manifestFiles(_ data: Data) -> [ExportedFile]? {
        try? JSONDecoder().decode([ExportedFile].self, from: data)
    }

    /// The files the destination holds after this export: the earlier manifest's that are still there as
    /// listed and that this export did not write again (marked kept), then this export's.
    static func merged(previous: [ExportedFile], current: [ExportedFile], holds: (ExportedFile) -> Bool) -> [ExportedFile] {
        let names = Set(current.map(\.file))
        let carried = previous.filter { !names.contains($0.file) && holds($0) }.map { file in
            var file = file
            file.kept = true
            return file
        }
        return carried + current
    }

    /// The bytes to write: the source as it is when nothing needs changing, else decoded, made
    /// smaller and encoded, with the photo's EXIF (orientation 1, GPS removed when asked) in JPEGs and WebPs.
    private func output(of photo: CataloguedPhoto, _ source: Source, options: ExportOptions) throws -> (Data, PixelSize) {
        guard let path = source.path else { throw NotMade() }
        let data = try fileSystem.contents(of: path)
        let format = outputFormat(source, options)
        let size = outputSize(source, options)
        let unchanged = format == source.format && size == source.pixelSize
        // Only the GPS to remove: the EXIF block changes, the image data stays the file's own.
        if unchanged, options.stripGPS, format == .jpeg, let stripped = exifReader.removingGPS(fromJPEG: data) {
            return (stripped, source.pixelSize)
        }
        // A position the block cannot lose in place is left out by encoding the photo again.
        let hasGPS = options.stripGPS && format.carriesExif && (try? exifReader.readExif(from: data))?.gps != nil
        guard !unchanged || hasGPS else {
            return (data, source.pixelSize)
        }
        var image = try decoder.decode(data, options: DecodeOptions(appliesOrientation: true)).image
        if let limit = options.maximumLongSide { image = image.downscaled(toLongSide: limit) }
        var exif = format.carriesExif ? exifReader.uprightExifBlock(from: data) : nil
        if options.stripGPS, let block = exif { exif = exifReader.removingGPS(from: block) }
        let encoded = try encoder.encode(image, as: format, options: EncodeOptions(quality: options.quality, exif: exif, xmp: source.mark))
        return (encoded, PixelSize(width: image.width, height: image.height))
    }

    private func file(_ name: String, _ photo: CataloguedPhoto, _ variant: ExportVariant, _ source: Source, data: Data,
                      pixelSize: PixelSize, kept: Bool) -> ExportedFile {
        ExportedFile(file: name, photo: photo.id, originalPath: photo.path, variant: variant, parameters: source.parameters, method: source.method,
                     size: data.count, width: pixelSize.width, height: pixelSize.height, sha256: hasher.sha256(data), kept: kept)
    }

    /// A variant that processing did not make (its failure is reported by processing).
    struct NotMade: LocalizedError {
        var errorDescription: String? { "its variant could not be made" }
    }

    static func manifestJSON(_ files: [ExportedFile]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(files)
    }

    static func manifestCSV(_ files: [ExportedFile]) -> Data {
        func field(_ text: String) -> String {
            text.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var lines = ["file,photo,original_path,variant,parameters,method,size,width,height,sha256,kept"]
        for file in files {
            let parameters = file.parameters.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";") } ?? ""
            lines.append([field(file.file), String(file.photo), field(file.originalPath), file.variant.rawValue, field(parameters),
                          file.method ?? "", String(file.size), String(file.width), String(file.height), file.sha256, String(file.kept)].joined(separator: ","))
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }
}

/// Files written into a folder, each under a temporary name and renamed into place.
public final class FolderDestination: ExportDestination {
    public let location: String
    private let fileSystem: any FileSystem
    private let protected: ProtectedFiles?

    /// - Parameter protected: files not to write over (a photo whose folder is the destination); a
    ///   name that is one fails that file alone.
    public init(directory: String, fileSystem: any FileSystem, protected: ProtectedFiles? = nil) {
        location = directory
        self.fileSystem = fileSystem
        self.protected = protected
    }

    private func path(_ name: String) -> String { (location as NSString).appendingPathComponent(name) }

    public func contains(_ name: String) -> Bool {
        fileSystem.exists(path(name))
    }

    /// - Throws: `ProtectedFileError` when the file there is a catalogued photo's own: it is no export to
    ///   keep or list (an original exported into its own folder under its own name).
    public func existing(_ name: String) throws -> Data? {
        guard contains(name) else { return nil }
        if name != ExportService.manifestName, let reason = try protected?.photoReason(against: path(name)) {
            throw ProtectedFileError(path: path(name), reason: reason)
        }
        return try fileSystem.contents(of: path(name))
    }

    public func size(of name: String) -> Int? {
        fileSystem.stamp(of: path(name)).map { Int($0.size) }
    }

    public func write(_ data: Data, as name: String) throws {
        // A library's own file is refused even where there is none yet (`--template catalogue.sqlite`);
        // a photo's only where it is there to be written over, for that asks the catalogue.
        if let reason = try protected?.libraryReason(against: path(name)) ?? (contains(name) ? protected?.photoReason(against: path(name)) : nil) {
            throw ProtectedFileError(path: path(name), reason: reason)
        }
        do {
            try fileSystem.writeAtomically(data, to: path(name))
        } catch let error as FileWriteError where error.what.hasSuffix(path(name)) {
            // "cannot write PATH: …" said once; "cannot create the folder …" is said whole.
            throw ExportError.cannotWrite(path(name), error.reason)
        } catch {
            throw ExportError.cannotWrite(path(name), error.plainDescription)
        }
    }

    public func whileLockingManifest(_ body: () throws -> Void) throws {
        try fileSystem.whileLocking(location, body)
    }

    public func finish() throws {}
    public var keepsAPart: Bool { true }

    public func abandon() {}
}
