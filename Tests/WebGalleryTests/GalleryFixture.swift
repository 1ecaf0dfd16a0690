import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Hummingbird
import HummingbirdTesting
import Imaging
import Services
import TestSupport
import WebGallery
import XCTest

/// A small catalogue for route tests: a real in-memory SQLite catalogue, photo files in a fake file
/// system, fake codecs. `bus` has a red accent and both variants; `sea` a blue accent; `snow` none.
final class GalleryFixture: @unchecked Sendable {
    let catalogue: SQLiteCatalogue
    let fileSystem = FakeFileSystem()
    let decoder = FakePhotoCodec()
    let encoder = RecordingEncoder()
    let library = "/library"
    var ids: [String: PhotoID] = [:]
    let variantMaker = VariantMakerSpy()
    let thumbnails = FakeThumbnailCache()
    /// The server's log, line by line.
    let log = LoggedLines()

    init() throws {
        catalogue = try SQLiteCatalogue.inMemory()
        try add("bus", [entry("#808080", 0.85), entry("#CC141E", 0.1), entry("#1F5AA6", 0.05)], accent: accent("#CC141E", coverage: 0.1),
                camera: "Canon EOS", taken: "2020:01:01 10:00:00")
        try add("sea", [entry("#1F5AA6", 0.7), entry("#F0F0F0", 0.3)], accent: accent("#1F5AA6", coverage: 0.3),
                camera: "Nikon", taken: "2022:01:01 10:00:00")
        try add("snow", [entry("#FAFAFA", 1)], taken: "2021:01:01 10:00:00")
        for kind in ["show", "hide"] {
            let path = "\(library)/variants/b0/b05/\(kind)-1.jpg"
            try fileSystem.writeAtomically(Data("\(kind) picture".utf8), to: path)
            try catalogue.recordVariant(Variant(photoID: ids["bus"]!, kind: kind, parameters: #"{"method":"object"}"#, path: path,
                                                fileSize: 12, pixelSize: PixelSize(width: 40, height: 30), sha256: "v" + kind,
                                                createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
        }
    }

    func entry(_ hex: String, _ weight: Double) -> PaletteEntry { .sample(hex, weight) }

    func accent(_ hex: String, coverage: Double) -> Accent { .sample(hex, coverage: coverage) }

    func add(_ name: String, _ palette: [PaletteEntry], accent: Accent? = nil, camera: String? = nil, taken: String? = nil,
             folder: String = "/photos") throws {
        let exif = ExifMetadata(make: camera, takenAt: taken.flatMap { ExifDateTime(exif: $0) })
        let sha = String(repeating: "0", count: 56) + String(format: "%08x", ids.count + 1)
        let path = "\(folder)/\(name).jpg"
        try fileSystem.writeAtomically(FakePhoto.data(width: 1200, height: 800, seed: name, colour: accent?.hex ?? "#808080"), to: path)
        fileSystem.setStamp(FileStamp(size: 100, modifiedAtNanoseconds: 1), for: path)  // as the catalogue records it
        // The palette's chromatic colours are the candidates, the accent first.
        let others = palette.filter { $0.lab.lch.c > 15 && $0.hex != accent?.hex }.map { Accent.sample($0.hex, coverage: $0.weight) }
        let facts = PhotoFacts(sha256: sha, format: .jpeg, pixelSize: PixelSize(width: 1200, height: 800), exif: exif,
                               colours: ColourAnalysis(palette: palette, accent: accent, candidates: (accent.map { [$0] } ?? []) + others))
        ids[name] = try catalogue.write {
            try $0.insertPhoto(path: path, stamp: FileStamp(size: 100, modifiedAtNanoseconds: 1), facts: facts,
                               importedAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(ids.count)))
        }
    }

    func server(_ settings: GallerySettings = GallerySettings()) -> GalleryServer {
        GalleryServer(catalogue: catalogue, fileSystem: fileSystem, decoder: decoder, encoder: encoder, clock: FakeClock(), variantMaker: variantMaker, thumbnailCache: thumbnails, libraryDirectory: library,
                      settings: settings, log: { [log] in log.append($0) })
    }

    /// Runs `body` against the gallery's router, no socket.
    @discardableResult
    func test<Value: Sendable>(_ settings: GallerySettings = GallerySettings(),
                               _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: server(settings).router()).test(.router, body)
    }
}

/// Lines written from any thread.
final class LoggedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

/// Records what "Make variants" asked for; fails the test when it was not expected.
final class VariantMakerSpy: VariantMaking, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(photos: [PhotoID], options: ProcessingOptions)] = []
    var expected = false

    var made: [(photos: [PhotoID], options: ProcessingOptions)] { lock.withLock { calls } }

    func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress,
                 interruption: any Interruption) async throws -> ProcessingSummary {
        if !expected { XCTFail("unexpected processing of \(photos.map(\.id))") }
        lock.withLock { calls.append((photos.map(\.id), options)) }
        return ProcessingSummary()
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
