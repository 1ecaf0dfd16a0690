import Archives
import Catalogue
import CatalogueSQLite
import Codecs
import Foundation
import Imaging
import Services
import WebGallery

/// Everything a command needs from the outside world, and the one place services are made from
/// it. `live()` is the one place where the real implementations are chosen; tests use `.fake`
/// (TestSupport) or build their own with fakes and spies.
public struct AppEnvironment: Sendable {
    public var console: Console
    public var fileSystem: any FileSystem
    public var decoder: any ImageDecoding
    public var encoder: any ImageEncoding
    public var exifReader: any ExifReading
    public var hasher: any ContentHashing
    public var clock: any WallClock
    /// Runs the per-photo jobs of import, analysis and processing.
    public var jobRunner: any JobRunner
    /// Opens the catalogue in a library folder, creating it only when the opening allows.
    public var openCatalogue: @Sendable (String, CatalogueOpening) throws -> any PhotoCatalogue
    /// Opens the thumbnail cache of a library folder (made on first use).
    public var openThumbnailCache: @Sendable (String) -> any ThumbnailCache = { SQLiteThumbnailCache(libraryDirectory: $0) }
    /// The process's environment variables.
    public var variables: [String: String]
    /// The home folder, for the default library location.
    public var homeDirectory: String
    /// The working directory, to make relative paths absolute.
    public var currentDirectory: String
    public var processorCount: Int
    /// Starts a zip archive for an export (path, what to do when it exists, entries' modification time).
    public var makeZip: @Sendable (String, ConflictPolicy, Date) throws -> any ExportDestination
    /// Starts listening for Ctrl-C, for a command that stops cleanly when asked (import).
    public var listenForInterruption: @Sendable () -> any Interruption = { NoInterruption() }
    /// Serves the web gallery at an address until Ctrl-C (`showhide serve`); calls back with the port
    /// once it listens.
    public var serveGallery: @Sendable (GalleryServer, _ host: String, _ port: Int, _ onRunning: @escaping @Sendable (Int) async -> Void) async throws
        -> Void = { server, host, port, onRunning in try await server.run(host: host, port: port, onRunning: onRunning) }
    /// Opens an address in the user's browser (`serve --open`).
    public var openInBrowser: @Sendable (String) -> Void = { _ in }
    /// This computer's name on the network, for an address another computer can open (`serve --host 0.0.0.0`).
    public var hostName: @Sendable () -> String = { ProcessInfo.processInfo.hostName }
    /// A new secret: 32 random bytes as hex.
    public var newSecret: @Sendable () -> String = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    public init(
        console: Console, fileSystem: any FileSystem, decoder: any ImageDecoding,
        encoder: any ImageEncoding, exifReader: any ExifReading, hasher: any ContentHashing, clock: any WallClock,
        jobRunner: any JobRunner, openCatalogue: @escaping @Sendable (String, CatalogueOpening) throws -> any PhotoCatalogue,
        variables: [String: String], homeDirectory: String, currentDirectory: String, processorCount: Int,
        makeZip: @escaping @Sendable (String, ConflictPolicy, Date) throws -> any ExportDestination
    ) {
        self.console = console
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.exifReader = exifReader
        self.hasher = hasher
        self.clock = clock
        self.jobRunner = jobRunner
        self.openCatalogue = openCatalogue
        self.variables = variables
        self.homeDirectory = homeDirectory
        self.currentDirectory = currentDirectory
        self.processorCount = processorCount
        self.makeZip = makeZip
    }

    /// The real file system, libjpeg/libpng/libexif, SQLite, and this process's terminal and environment.
    public static func live() -> AppEnvironment {
        let process = ProcessInfo.processInfo
        let codec = ImageCodec()
        return AppEnvironment(
            console: .standard(environment: process.environment),
            fileSystem: LocalFileSystem(),
            decoder: codec,
            encoder: codec,
            exifReader: LibExifReader(),
            hasher: CryptoHasher(),
            clock: SystemClock(),
            jobRunner: InlineJobRunner(),
            openCatalogue: { try SQLiteCatalogue(libraryDirectory: $0, opening: $1) },
            variables: process.environment,
            // $HOME first, as every XDG tool does; the password database only when it is unset.
            homeDirectory: process.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? FileManager.default.homeDirectoryForCurrentUser.path,
            currentDirectory: FileManager.default.currentDirectoryPath,
            processorCount: process.activeProcessorCount,
            makeZip: { try ZipDestination(path: $0, onConflict: $1, modified: $2) }
        ).listening { InterruptSignal() }.opening { address in
            // The desktop's own choice of browser; when there is none, the address printed is enough.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", address]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        }
    }

    /// This environment, with `open` as the way to open an address in a browser.
    func opening(_ open: @escaping @Sendable (String) -> Void) -> AppEnvironment {
        var environment = self
        environment.openInBrowser = open
        return environment
    }

    /// This environment, with `listen` as the way to start listening for Ctrl-C.
    func listening(_ listen: @escaping @Sendable () -> any Interruption) -> AppEnvironment {
        var environment = self
        environment.listenForInterruption = listen
        return environment
    }

    func photoInspector() -> PhotoInspector {
        PhotoInspector(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader)
    }

    func processingService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> ProcessingService {
        ProcessingService(fileSystem: fileSystem, decoder: decoder, encoder: encoder, exifReader: exifReader, hasher: hasher,
                          catalogue: catalogue, clock: clock, jobRunner: jobRunner, libraryDirectory: libraryDirectory)
    }

    func analysisService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> AnalysisService {
        AnalysisService(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader, hasher: hasher, catalogue: catalogue, clock: clock,
                        jobRunner: jobRunner, thumbnails: thumbnailStore(libraryDirectory: libraryDirectory))
    }

    /// The ids of those of `photos` whose file is not at its path (a drive not mounted, a file deleted).
    func gone(_ photos: [CataloguedPhoto]) -> Set<PhotoID> {
        Set(photos.filter { !fileSystem.exists($0.path) }.map(\.id))
    }

    func removalService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> RemovalService {
        RemovalService(fileSystem: fileSystem, catalogue: catalogue, libraryDirectory: libraryDirectory,
                       thumbnails: openThumbnailCache(libraryDirectory))
    }

    func exportService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> ExportService {
        ExportService(fileSystem: fileSystem, decoder: decoder, encoder: encoder, exifReader: exifReader, hasher: hasher,
                      catalogue: catalogue, clock: clock,
                      variantMaker: processingService(catalogue: catalogue, libraryDirectory: libraryDirectory), libraryDirectory: libraryDirectory)
    }

    func inspirationService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> InspirationService {
        InspirationService(fileSystem: fileSystem, decoder: decoder, encoder: encoder, catalogue: catalogue,
                           variantMaker: processingService(catalogue: catalogue, libraryDirectory: libraryDirectory), libraryDirectory: libraryDirectory)
    }

    func protectedFiles(catalogue: any PhotoCatalogue, libraryDirectory: String) -> ProtectedFiles {
        ProtectedFiles(catalogue: catalogue, libraryDirectory: libraryDirectory, fileSystem: fileSystem)
    }

    func catalogueCheck(catalogue: any PhotoCatalogue, libraryDirectory: String) -> CatalogueCheck {
        CatalogueCheck(fileSystem: fileSystem, catalogue: catalogue, libraryDirectory: libraryDirectory,
                       thumbnails: thumbnailStore(libraryDirectory: libraryDirectory), clock: clock)
    }

    func variantPruning(catalogue: any PhotoCatalogue, libraryDirectory: String) -> VariantPruning {
        VariantPruning(fileSystem: fileSystem, catalogue: catalogue, libraryDirectory: libraryDirectory)
    }

    func galleryServer(catalogue: any PhotoCatalogue, libraryDirectory: String, settings: GallerySettings) -> GalleryServer {
        GalleryServer(catalogue: catalogue, fileSystem: fileSystem, decoder: decoder, encoder: encoder, clock: clock,
                      variantMaker: processingService(catalogue: catalogue, libraryDirectory: libraryDirectory),
                      exporter: GalleryZipExporter(environment: self, catalogue: catalogue, libraryDirectory: libraryDirectory),
                      thumbnailCache: openThumbnailCache(libraryDirectory),
                      libraryDirectory: libraryDirectory, settings: settings, log: { [console] in console.warn($0) })
    }

    func importService(catalogue: any PhotoCatalogue, libraryDirectory: String) -> ImportService {
        ImportService(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader,
                      hasher: hasher, catalogue: catalogue, clock: clock, jobRunner: jobRunner,
                      thumbnails: thumbnailStore(libraryDirectory: libraryDirectory),
                      // As the folders imported are written: absolute, `..` and links resolved.
                      libraryDirectory: absolutePath(libraryDirectory))
    }

    func thumbnailStore(libraryDirectory: String) -> ThumbnailStore {
        ThumbnailStore(cache: openThumbnailCache(libraryDirectory), fileSystem: fileSystem, decoder: decoder, encoder: encoder)
    }

    /// A progress bar on standard error when it is a terminal; nothing otherwise.
    func progress() -> any ImportProgress {
        console.errorsIsTerminal ? ProgressBar(console: console, clock: clock) : SilentProgress()
    }

    /// The photo with this id; an unknown id is said on standard error and ends the command (exit 2).
    func photo(id: PhotoID, in catalogue: any PhotoCatalogue) throws -> CataloguedPhoto {
        guard let photo = try catalogue.photo(id: id) else {
            console.warn("showhide: no photo with id \(id) in the catalogue")
            throw ExitStatus.notFound
        }
        return photo
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
        let standard = (absolute as NSString).standardizingPath
        return standard.isEmpty ? "/" : standard
    }

    /// `path` made absolute against the working directory, `.` and `..` taken away by name alone:
    /// symbolic links stay as written (`absolutePath` resolves them, as Foundation does on Linux).
    func absolutePathAsWritten(_ path: String) -> String {
        standardisedAsWritten((path.hasPrefix("/") ? "" : currentDirectory + "/") + path)
    }
}

/// The gallery's downloads: the export service writing the photos' show variants into a zip, as
/// `showhide export --zip` does, with its manifest.
struct GalleryZipExporter: GalleryExporting {
    let environment: AppEnvironment
    let catalogue: any PhotoCatalogue
    let libraryDirectory: String

    func exportShowVariants(of photos: [CataloguedPhoto], toZip path: String) async throws -> ExportSummary {
        let destination = try environment.makeZip(path, .overwrite, environment.clock.now())
        return try await environment.exportService(catalogue: catalogue, libraryDirectory: libraryDirectory)
            .export(photos, options: ExportOptions(variants: [.show], processing: ProcessingOptions(jobs: environment.processorCount)),
                    to: destination)
    }
}
