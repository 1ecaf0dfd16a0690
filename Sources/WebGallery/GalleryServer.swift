import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import HTTPTypes
import Hummingbird
import Imaging
import Logging
import NIOCore
import Services

/// How the gallery is reached and what it may do.
public struct GallerySettings: Sendable {
    /// The catalogue cannot be written: the pages say so, and nothing offers to change it.
    public var readOnly: Bool
    /// When set, every request must carry it (a `token` query parameter once, then a cookie): the
    /// gallery is bound to an address other computers reach.
    public var accessToken: String?
    /// The host names a request may be addressed to (its `Host` header without the port); nil: any. On
    /// loopback this refuses pages fetched through a name that merely points at 127.0.0.1 (DNS rebinding).
    public var allowedHostNames: Set<String>?

    /// The names of this machine's loopback address.
    public static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]", "::1"]

    public init(readOnly: Bool = false, accessToken: String? = nil, allowedHostNames: Set<String>? = nil) {
        self.readOnly = readOnly
        self.accessToken = accessToken
        self.allowedHostNames = allowedHostNames
    }
}

/// Why the gallery could not be served, in words.
public enum GalleryServerError: Error, Equatable, LocalizedError {
    case cannotListen(host: String, port: Int, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotListen(host, port, reason):
            return "cannot listen on \(host) port \(port): \(reason.prefix(1).lowercased() + reason.dropFirst())"
                + (port == 0 ? "" : "; give another with --port")
        }
    }
}

/// Makes a zip of photos' show variants (made when missing) at a path, as `showhide export --zip` does.
public protocol GalleryExporting: Sendable {
    func exportShowVariants(of photos: [CataloguedPhoto], toZip path: String) async throws -> ExportSummary
}

/// The web gallery: its routes over the catalogue, thumbnails and variants. Photos and variants are
/// served by id, never by a path from the request; every page is rendered by templates that escape
/// what they insert.
public struct GalleryServer: Sendable {
    let catalogue: any PhotoCatalogue
    let fileSystem: any FileSystem
    let decoder: any ImageDecoding
    let encoder: any ImageEncoding
    let clock: any WallClock
    let variantMaker: (any VariantMaking)?
    let exporter: (any GalleryExporting)?
    let thumbnails: ThumbnailStore
    let workingCopies = WorkingCopies()
    let libraryDirectory: String
    /// Where the server's log goes: standard error.
    let log: @Sendable (String) -> Void
    public let settings: GallerySettings
    let pages = GalleryPages()

    /// Long side of the preview on a photo's page.
    public static let previewLongSide = 1600

    public init(catalogue: any PhotoCatalogue, fileSystem: any FileSystem, decoder: any ImageDecoding, encoder: any ImageEncoding,
                clock: any WallClock, variantMaker: (any VariantMaking)?, exporter: (any GalleryExporting)? = nil,
                thumbnailCache: any ThumbnailCache, libraryDirectory: String, settings: GallerySettings = GallerySettings(),
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.log = log
        self.catalogue = catalogue
        self.clock = clock
        self.variantMaker = variantMaker
        self.exporter = exporter
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.libraryDirectory = libraryDirectory
        self.settings = settings
        thumbnails = ThumbnailStore(cache: thumbnailCache, fileSystem: fileSystem, decoder: decoder, encoder: encoder)
    }

    /// Every route, behind the middleware that checks the host, the token and the origin, adds the
    /// security headers and turns errors into pages.
    public func router() -> Router<BasicRequestContext> {
        // HTTP asks HEAD wherever GET works: each GET route answers it too, without the body.
        let router = Router(options: .autoGenerateHeadEndpoints)
        // A catalogue there when the gallery started and gone since: the library was moved or deleted. Another
        // file in its place (a backup restored): the gallery still has the one it opened, deleted, where what
        // it shows is out of date and what it changes is lost.
        let catalogueFile = LibraryFolder.path(LibraryFolder.catalogue, inLibrary: libraryDirectory)
        let opened = fileSystem.identity(of: catalogueFile)
        let libraryGone: @Sendable () -> String? = { [fileSystem, libraryDirectory] in
            guard let opened else { return nil }
            guard let now = fileSystem.identity(of: catalogueFile) else {
                return "The library \(libraryDirectory) was moved or deleted while the gallery ran: stop it (Ctrl-C) and start it where the library is now."
            }
            guard now == opened else {
                return "The catalogue of \(libraryDirectory) was replaced while the gallery ran (a backup restored?): "
                    + "stop the gallery (Ctrl-C) and start it again to show the catalogue there now."
            }
            return nil
        }
        router.middlewares.add(GalleryGuard(settings: settings, pages: pages, libraryGone: libraryGone, say: { self.say($0) }))
        router.get("/") { request, _ in try self.grid(request) }
        router.get("/inspire") { request, _ in try self.inspiration(request) }
        router.get("/photos/:id") { request, context in try self.photoPage(try Self.id(context), request: request) }
        router.get("/photos/:id/splash/:kind") { request, context in
            try self.splash(try Self.id(context), kind: context.parameters.get("kind") ?? "", request: request)
        }
        router.post("/photos/:id/variants") { request, context in
            let (photo, query) = try await self.makeVariants(request, id: try Self.id(context))
            let parameters = query.queryString
            return Response(status: .seeOther, headers: [.location: "/photos/\(photo.id)" + (parameters.isEmpty ? "" : "?" + parameters)])
        }
        router.get("/photos/:id/thumbnail") { request, context in try self.thumbnail(try Self.id(context), request: request) }
        router.get("/photos/:id/preview") { _, context in try self.preview(try Self.id(context)) }
        router.get("/photos/:id/original") { request, context in try self.original(try Self.id(context), request: request) }
        router.get("/photos/:id/variants/:kind") { request, context in
            try self.variant(try Self.id(context), kind: context.parameters.get("kind") ?? "", set: QueryParameters(request.uri.query)["set"])
        }
        router.post("/export") { request, _ in try await self.export(request) }
        router.get("/api/photos") { request, _ in try self.apiPhotos(request) }
        router.get("/api/photos/:id") { _, context in try Self.json(PhotoJSON(try self.photo(try Self.id(context)), detailed: true)) }
        router.get("/api/inspire") { request, _ in try self.apiInspiration(request) }
        router.post("/photos/:id/subject") { request, context in
            let photo = try await self.chooseSubject(request, id: try Self.id(context))
            return Response(status: .seeOther, headers: [.location: "/photos/\(photo.id)"])
        }
        router.post("/api/photos/:id/subject") { request, context in
            try Self.json(PhotoJSON(try await self.chooseSubject(request, id: try Self.id(context)), detailed: true))
        }
        router.get("/static/gallery.css") { _, _ in Self.asset(GalleryAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/gallery.js") { _, _ in Self.asset(GalleryAssets.javaScript, type: "text/javascript; charset=utf-8") }
        router.get("/static/icon.svg") { _, _ in Self.asset(GalleryAssets.icon, type: "image/svg+xml") }
        // Asked for by browsers whatever the page names: the page's icon, not a 404 logged at every visit.
        router.get("/favicon.ico") { _, _ in Response(status: .seeOther, headers: [.location: "/static/icon.svg"]) }
        return router
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM.
    /// - Parameter onRunning: called with the port once the server listens (0 asks for any free port).
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        removeAbandonedDownloads()
        // The framework's own log says only what goes wrong, in the gallery's lines (not its labels and ids).
        var logger = Logger(label: "showhide serve") { _ in GalleryLogHandler(say: { self.say($0) }) }
        logger.logLevel = .warning
        let application = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
        do {
            try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let error as IOError {
            // NIO says which system call failed and its errno; a person needs the system's reason.
            throw GalleryServerError.cannotListen(host: host, port: port, reason: systemErrorReason(error.errnoCode))
        } catch let error as SocketAddressError.UnknownHost {
            throw GalleryServerError.cannotListen(host: host, port: port, reason: "no such address on this computer (\(error.errorDescription.lowercased()))")
        } catch is SocketAddressError {
            throw GalleryServerError.cannotListen(host: host, port: port, reason: "not an address this computer can listen on")
        }
    }

    /// Says `text` in the server's log, after the time of day.
    func say(_ text: String) {
        log(Self.timeOfDay(clock.now()) + " " + text)
    }

    /// `14:06:36`, in this computer's time zone.
    static func timeOfDay(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    // MARK: Pages

    func grid(_ request: Request) throws -> Response {
        let query = try GridQuery(query: request.uri.query)
        let page = try GalleryBrowser(catalogue: catalogue).page(query)
        return Self.html(pages.grid(page, query: query, canExport: exporter != nil && !settings.readOnly, readOnly: settings.readOnly))
    }

    func inspiration(_ request: Request) throws -> Response {
        let query = try GridQuery(query: request.uri.query)
        let (entries, gone) = try inspirationEntries(query)
        return Self.html(pages.inspiration(entries, query: query, gone: gone, readOnly: settings.readOnly))
    }

    func photoPage(_ id: PhotoID, request: Request) throws -> Response {
        let splash = try SplashQuery(query: request.uri.query)
        let photo = try photo(id)
        // The keep menu cannot show a rank the photo does not have: said, not shown as "the accent".
        let count = photo.facts.colours?.candidates.count ?? 0
        if let rank = splash.candidate, rank > count {
            throw GalleryRequestError.invalid("candidate: photo \(id) has \(count == 0 ? "no accent candidate" : count == 1 ? "1 accent candidate" : "\(count) accent candidates"), "
                                              + "not \(rank).")
        }
        // The file as it is on disk now: gone, or other than the one analysed, it is said on the page.
        let onDisk = fileSystem.stamp(of: photo.path)
        let fileState: GalleryPages.FileState = onDisk == nil ? .gone : onDisk == photo.stamp ? .asImported : .changed
        return Self.html(pages.photo(withVariantFiles(photo), splash: splash, fileState: fileState,
                                     canMakeVariants: variantMaker != nil && !settings.readOnly, readOnly: settings.readOnly))
    }

    // MARK: Changes

    /// The form's `candidate`: a rank (1–3) makes that candidate the photo's subject; `eye` gives the
    /// choice back to the eye.
    func chooseSubject(_ request: Request, id: PhotoID) async throws -> CataloguedPhoto {
        guard !settings.readOnly else { throw GalleryRequestError.forbidden("This catalogue is read-only: no subject can be chosen.") }
        let form = QueryParameters(String(buffer: try await Self.body(of: request)))
        let candidate = form["candidate"]
        let rank = candidate.flatMap(Int.init)
        guard candidate == "eye" || rank.map({ (1...3).contains($0) }) == true else {
            throw GalleryRequestError.invalid("candidate: give a candidate's rank, 1 to 3, or eye.")
        }
        do {
            return try SubjectChoice(catalogue: catalogue, clock: clock).choose(candidate: rank, of: id)
        } catch let error as SubjectChoiceError {
            switch error {
            case .noPhoto: throw GalleryRequestError.notFound(error.localizedDescription)
            default: throw GalleryRequestError.invalid(error.localizedDescription)
            }
        }
    }

    /// "Make variants": processing of this photo with the form's parameters, as `gallery process` does.
    func makeVariants(_ request: Request, id: PhotoID) async throws -> (CataloguedPhoto, SplashQuery) {
        guard !settings.readOnly else { throw GalleryRequestError.forbidden("This catalogue is read-only: no variants can be made.") }
        guard let variantMaker else { throw GalleryRequestError.forbidden("This gallery does not make variants.") }
        let query = try SplashQuery(query: String(buffer: try await Self.body(of: request)))
        let photo = try photo(id)
        let summary = try await variantMaker.process([photo], options: query.processing(), progress: SilentProgress())
        if let failure = summary.failures.first { throw PhotoError.undecodable(path: failure.path, reason: failure.reason) }
        if let skipped = summary.skipped.first { throw GalleryRequestError.invalid("Photo \(id): \(skipped.reason).") }
        return (try self.photo(id), query)
    }

    /// The most photos one download takes.
    static let exportLimit = 500

    /// The photos ticked in the grid (`id=3&id=8…`), their show variants in a zip made by the export
    /// service (with its manifest), sent as a download; the zip is made in the library's `exports/`
    /// and removed once read.
    func export(_ request: Request) async throws -> Response {
        guard !settings.readOnly else { throw GalleryRequestError.forbidden("This catalogue is read-only: no variants can be made to export.") }
        guard let exporter else { throw GalleryRequestError.forbidden("This gallery does not export.") }
        var ids: [PhotoID] = []
        for text in QueryParameters(String(buffer: try await Self.body(of: request))).all("id") {
            guard let id = PhotoID(text), id > 0 else { throw GalleryRequestError.invalid("id: a photo's id is a whole number from 1.") }
            if !ids.contains(id) { ids.append(id) }
        }
        guard (1...Self.exportLimit).contains(ids.count) else {
            throw GalleryRequestError.invalid("Tick between 1 and \(Self.exportLimit) photos to download.")
        }
        // A photo removed since the page was shown (another shell's `gallery remove`) is said with the others
        // that made no picture, and the rest are offered, where the whole download answered 404.
        var photos: [CataloguedPhoto] = [], removed: [PhotoID] = []
        for id in ids {
            if let photo = try catalogue.photo(id: id) { photos.append(photo) } else { removed.append(id) }
        }
        guard !photos.isEmpty else {
            throw GalleryRequestError.notFound(removed.count == 1 ? "There is no photo \(removed[0]) in the catalogue."
                                               : "None of the ticked photos is in the catalogue any more: reload the page.")
        }
        let path = LibraryFolder.path(LibraryFolder.exports, inLibrary: libraryDirectory) + "/gallery-\(UUID().uuidString).zip"
        let summary = try await exporter.exportShowVariants(of: photos, toZip: path)
        // Sent, the zip is taken away by its body once written out; otherwise here.
        var sent = false
        defer { if !sent { try? fileSystem.remove(path) } }
        // A photo without an accent has no show picture: the file is named for the pictures it holds.
        let pictures = summary.files.count
        guard pictures > 0 else {
            // Made for none: each photo had no accent, or its picture could not be made (its file gone, …).
            if let failure = summary.failures.first {
                throw GalleryRequestError.invalid("No show picture could be made: photo \(failure.photoID), \(failure.reason).")
            }
            throw GalleryRequestError.invalid(photos.count == 1 ? "This photo has no accent colour to splash: there is no show picture to download."
                                              : "None of these photos has an accent colour to splash: there is no show picture to download.")
        }
        // Some ticked photos made none (a file gone, one that no longer decodes): said, with the rest to download,
        // rather than a zip that leaves them out in silence.
        guard summary.failures.isEmpty && removed.isEmpty else {
            let made = summary.files.map(\.photo).reduce(into: [PhotoID]()) { if !$0.contains($1) { $0.append($1) } }
            let failures = summary.failures.map { (id: $0.photoID, path: Optional($0.path), reason: $0.reason) }
                + removed.map { (id: $0, path: String?.none, reason: "no longer in the catalogue (removed since the page was shown)") }
            return Self.html(pages.partialDownload(failures: failures, made: made, readOnly: settings.readOnly), status: .conflict)
        }
        guard let size = fileSystem.stamp(of: path)?.size else { throw GalleryRequestError.notFound("The download's zip file was taken away before it was sent: tick the photos again.") }
        var response = Response(status: .ok, headers: [.contentType: "application/zip", .cacheControl: "no-store"],
                                body: Self.streaming(path, size: size, fileSystem: fileSystem))
        sent = true
        response.headers[.contentDisposition] = "attachment; filename=\"showhide-show-\(pictures)-\(pictures == 1 ? "photo" : "photos").zip\""
        return response
    }

    /// How much of a download's zip is read and sent at a time.
    static let downloadPart = 1 << 20

    /// The file at `path`, `size` bytes, sent a part at a time (a zip of 500 large photos is gigabytes:
    /// read whole, it was held in memory twice, and failed past the 1 GB a file may be read whole), then
    /// removed, sent or not.
    static func streaming(_ path: String, size: Int64, fileSystem: any FileSystem) -> ResponseBody {
        ResponseBody(contentLength: Int(size)) { writer in
            defer { try? fileSystem.remove(path) }
            var offset: Int64 = 0
            while offset < size {
                let part = try fileSystem.part(of: path, from: offset, count: downloadPart)
                guard !part.isEmpty else { throw GalleryRequestError.invalid("The download's zip file ended early.") }
                try await writer.write(ByteBuffer(bytes: part))
                offset += Int64(part.count)
            }
            try await writer.finish(nil)
        }
    }

    /// How old a download's zip in `exports/` must be to be one a killed server left, not one being sent.
    static let abandonedDownloadAge: TimeInterval = 60 * 60

    /// Takes away the zips of downloads a server killed mid-way left in `exports/` (each is removed once
    /// sent); those of the last hour may be another server's on the same library, still being made.
    func removeAbandonedDownloads() {
        let folder = LibraryFolder.path(LibraryFolder.exports, inLibrary: libraryDirectory)
        let before = Int64((clock.now().timeIntervalSince1970 - Self.abandonedDownloadAge) * 1e9)
        // Only a download's own names, right in the folder: gallery-<UUID>.zip, and its temporary files.
        for file in fileSystem.walk([folder]).files where file.stamp.modifiedAtNanoseconds < before
            && (file.path as NSString).deletingLastPathComponent == folder && Self.isDownloadsName((file.path as NSString).lastPathComponent) {
            try? fileSystem.remove(file.path)
        }
    }

    static func isDownloadsName(_ name: String) -> Bool {
        guard name.hasPrefix("gallery-"), name.count >= 8 + 36 + 4 else { return false }
        let rest = name.dropFirst(8)
        return UUID(uuidString: String(rest.prefix(36))) != nil && rest.dropFirst(36).hasPrefix(".zip")
    }

    /// A form's body: small, or refused.
    static func body(of request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: 16_384)
        } catch {
            throw GalleryRequestError.invalid("The form is larger than the gallery takes.")
        }
    }

    // MARK: Pictures, by id

    /// Tagged by its bytes: a browser asks again after a minute and gets 304, not the picture, when it has it.
    func thumbnail(_ id: PhotoID, request: Request) throws -> Response {
        let data = try thumbnails.thumbnail(of: try photo(id))
        let tag = Self.tag(of: data)
        if Self.browser(request, has: tag) { return Self.notModified(tag) }
        var response = Self.image(data, type: "image/jpeg")
        response.headers[.eTag] = tag
        return response
    }

    /// Whether the request's `If-None-Match` names `tag`: the browser has those bytes.
    static func browser(_ request: Request, has tag: String) -> Bool {
        let asked = (request.headers[.ifNoneMatch] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return asked.contains(tag) || asked.contains("*")
    }

    /// 304: the browser's copy, tagged `tag`, is the one to show.
    static func notModified(_ tag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: tag, .cacheControl: briefly])
    }

    /// An entity tag of `data`: the first half of its SHA-256, as the catalogue names content.
    static func tag(of data: Data) -> String {
        "\"" + CryptoHasher().sha256(data).prefix(32) + "\""
    }

    /// What a `Range` header asks of `count` bytes: one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), none
    /// that can be served (416), or the whole (no header, several ranges, or one that is not understood).
    enum ByteRange: Equatable {
        case whole
        case part(Range<Int>)
        case unsatisfiable
    }

    static func byteRange(_ header: String?, of count: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = spec[0].isEmpty ? nil : Int(spec[0]), last = spec[1].isEmpty ? nil : Int(spec[1])
        switch (first, last) {
        case let (start?, end):
            guard (spec[1].isEmpty || end != nil), start >= 0 else { return .whole }
            if let end, end < start { return .whole }
            guard start < count else { return .unsatisfiable }
            // Clamped before the one is added: an end of Int.max would overflow, and a trap stops the server.
            return .part(start..<(min(end ?? count - 1, count - 1) + 1))
        case let (nil, suffix?) where spec[0].isEmpty:
            guard suffix > 0, count > 0 else { return .unsatisfiable }
            return .part(max(0, count - suffix)..<count)
        default:
            return .whole
        }
    }

    /// The photo upright as a JPEG of at most `previewLongSide` px: every browser shows it, whatever the
    /// original's format (HEIF, TIFF) or orientation.
    func preview(_ id: PhotoID) throws -> Response {
        Self.image(try encoder.encode(try workingCopy(of: try photo(id)), as: .jpeg, options: EncodeOptions(quality: 85)), type: "image/jpeg")
    }

    /// The photo upright at screen size, decoded once and kept among the last few.
    func workingCopy(of photo: CataloguedPhoto) throws -> RGBAImage {
        try workingCopies.image(for: photo.facts.sha256) {
            let data = try originalData(of: photo)
            do {
                let decoded = try decoder.decode(data, options: DecodeOptions(minimumLongSide: Self.previewLongSide, appliesOrientation: true))
                return decoded.image.quicklyDownscaled(toLongSide: Self.previewLongSide)
            } catch {
                throw PhotoError.undecodable(path: photo.path, reason: error.plainDescription)
            }
        }
    }

    /// The show or hide picture the controls ask for, at screen size, from the working copy: what
    /// `gallery process` with the same parameters would make, smaller.
    func splash(_ id: PhotoID, kind: String, request: Request) throws -> Response {
        guard let mode = SplashMode(rawValue: kind) else { throw GalleryRequestError.invalid("A splash is show or hide.") }
        let query = try SplashQuery(query: request.uri.query)
        let photo = try photo(id)
        guard let parameters = VariantSpec.splash(for: photo, options: query.processing()) else {
            let scene = photo.facts.colours?.scene ?? .ordinary
            throw GalleryRequestError.notFound("Photo \(id) has nothing to splash: \(VariantSpec.nothingToSplash(query.processing().target, scene: scene)).")
        }
        let image = try workingCopy(of: photo)
        let rows = Splash(parameters: parameters, image: image).rows(mode, of: image)
        // Asked again each time: the same address shows another picture once a subject is chosen.
        let options = EncodeOptions(quality: 85, xmp: ShowhidePictureMark.packet(mode.rawValue))
        return Self.image(try encoder.encode(rows, as: .jpeg, options: options), type: "image/jpeg", cache: Self.revalidated)
    }

    /// The file's bytes, tagged by its size and time (a 304 reads nothing), in part when a `Range` asks
    /// (a large download goes on where it stopped).
    func original(_ id: PhotoID, request: Request) throws -> Response {
        let photo = try photo(id)
        let tag = fileSystem.stamp(of: photo.path).map { "\"\($0.size)-\($0.modifiedAtNanoseconds)\"" }
        if let tag, Self.browser(request, has: tag) { return Self.notModified(tag) }
        let data = try originalData(of: photo)
        var response = Self.image(data, type: ImageFormat.mediaType(of: data, format: photo.facts.format))
        // Saved under its own name, not "original".
        response.headers[.contentDisposition] = Self.inline(named: (photo.path as NSString).lastPathComponent)
        response.headers[.acceptRanges] = "bytes"
        if let tag { response.headers[.eTag] = tag }
        switch Self.byteRange(request.headers[.range], of: data.count) {
        case .whole:
            return response
        case let .part(range):
            response.status = .partialContent
            response.headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)"
            response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: data[data.startIndex + range.lowerBound..<data.startIndex + range.upperBound]))
            return response
        case .unsatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(data.count)", .acceptRanges: "bytes"])
        }
    }

    /// `inline` with the file's name: plain ASCII for every browser, and RFC 5987's UTF-8 form for the rest.
    static func inline(named name: String) -> String {
        let plain = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? plain
        return "inline; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }

    /// Pictures whose address stays while what it shows changes (a subject chosen, variants made again).
    static let revalidated = "private, no-cache"

    /// The newest recorded variant of this kind, read only from inside the library's variants folder.
    /// - Parameter set: the set of parameters (`VariantSpec.parameterSetName`) whose variant is asked for; nil, the newest.
    func variant(_ id: PhotoID, kind: String, set: String? = nil) throws -> Response {
        guard SplashMode(rawValue: kind) != nil else { throw GalleryRequestError.invalid("A variant is show or hide.") }
        let photo = try photo(id)
        let asked = { (variant: Variant) in variant.kind == kind && (set == nil || VariantSpec.parameterSetName(ofFile: variant.path) == set) }
        // Recorded under another place when the library folder was moved or copied: the same file in this one.
        guard let variant = withVariantFiles(photo).variants.last(where: asked),
              let place = VariantSpec.file(recordedAt: variant.path, inVariants: VariantSpec.directory(inLibrary: libraryDirectory)),
              let data = try? fileSystem.contents(of: place) else {
            if photo.variants.contains(where: asked) {
                throw GalleryRequestError.notFound("Photo \(id)'s \(kind) variant is recorded, but its file is gone: "
                                                   + "Make variants on its page makes it again.")
            }
            throw GalleryRequestError.notFound("Photo \(id) has no \(kind) variant \(set == nil ? "yet" : "made with those parameters").")
        }
        return Self.image(data, type: place.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg", cache: Self.revalidated)
    }

    /// `photo` with only the variants whose files this library holds: one whose file is gone is neither
    /// linked nor served (`gallery check` reports it).
    func withVariantFiles(_ photo: CataloguedPhoto) -> CataloguedPhoto {
        let variants = VariantSpec.directory(inLibrary: libraryDirectory)
        var photo = photo
        photo.variants.removeAll { fileSystem.variantFile(recordedAt: $0.path, inVariants: variants) == nil }
        return photo
    }

    func originalData(of photo: CataloguedPhoto) throws -> Data {
        do {
            return try fileSystem.contents(of: photo.path)
        } catch {
            throw PhotoError.unreadable(path: photo.path, reason: error.plainDescription)
        }
    }

    // MARK: The API: the shapes of the command line's --json

    func apiPhotos(_ request: Request) throws -> Response {
        let query = try GridQuery(query: request.uri.query)
        let page = try GalleryBrowser(catalogue: catalogue).page(query)
        if query.colour != nil {
            return try Self.json(page.items.compactMap { $0.match.map(SearchResultJSON.init) }, nextPage: page.hasNextPage ? query.page + 1 : nil)
        }
        return try Self.json(page.items.map { PhotoJSON($0.photo) }, nextPage: page.hasNextPage ? query.page + 1 : nil)
    }

    func apiInspiration(_ request: Request) throws -> Response {
        try Self.json(try inspirationEntries(try GridQuery(query: request.uri.query)).entries.map(InspirationEntryJSON.init))
    }

    /// The inspiration list: the photos of the filters, ranked, at most 100, as `inspire` lists them: a
    /// photo whose file is gone can be splashed no more, and the next takes its place (how many, `gone`).
    func inspirationEntries(_ query: GridQuery) throws -> (entries: [InspirationEntry], passedOver: Int) {
        let ranking = try InspirationService.ranking(in: catalogue, matching: query.photoQuery, colour: query.colour)
        return try InspirationService.entries(ranking, first: Self.inspirationLimit, in: catalogue) { fileSystem.exists($0.path) }
    }

    static let inspirationLimit = 100

    // MARK: Helpers

    func photo(_ id: PhotoID) throws -> CataloguedPhoto {
        guard let photo = try catalogue.photo(id: id) else { throw GalleryRequestError.notFound("There is no photo \(id) in the catalogue.") }
        return photo
    }

    static func id(_ context: BasicRequestContext) throws -> PhotoID {
        guard let text = context.parameters.get("id"), let id = PhotoID(text), id > 0 else {
            throw GalleryRequestError.invalid("A photo's id is a whole number from 1, as the grid links it.")
        }
        return id
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ value: some Encodable, nextPage: Int? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let nextPage { headers[HTTPField.Name("Next-Page")!] = String(nextPage) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: try JSONOutput.encode(value))))
    }

    /// How long a browser keeps a picture before it asks again (with its tag, where it has one).
    static let briefly = "private, max-age=60"

    static func image(_ data: Data, type: String, cache: String = briefly) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: cache],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "private, max-age=300"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

extension ImageFormat {
    /// The media type of a photo file's bytes: a HEIF file of AV1 pictures is AVIF, which browsers show,
    /// where they download what is called HEIF.
    static func mediaType(of data: Data, format: ImageFormat) -> String {
        format == .heif && isAVIF(data) ? "image/avif" : format.mediaType
    }

    /// The media type a browser is told.
    var mediaType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .heif: return "image/heif"
        case .webp: return "image/webp"
        case .tiff: return "image/tiff"
        }
    }
}
