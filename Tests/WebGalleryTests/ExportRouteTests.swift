import Catalogue
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Services
import TestSupport
@testable import WebGallery
import XCTest

/// Records what the grid asked to download, and leaves a zip where it was told.
final class ExporterSpy: GalleryExporting, @unchecked Sendable {
    let files: FakeFileSystem
    /// Photos whose picture cannot be made, as when their file is gone.
    var failing: Set<PhotoID> = []
    /// The zip's bytes, when not a short text naming how many pictures it holds.
    var zipBytes: Data?
    private let lock = NSLock()
    private var asked: [(photos: [PhotoID], path: String)] = []
    var calls: [(photos: [PhotoID], path: String)] { lock.withLock { asked } }

    init(files: FakeFileSystem) {
        self.files = files
    }

    func exportShowVariants(of photos: [CataloguedPhoto], toZip path: String) async throws -> ExportSummary {
        lock.withLock { asked.append((photos.map(\.id), path)) }
        // A show picture of each photo with an accent, as the export makes.
        let pictured = photos.filter { $0.facts.colours?.accent != nil && !failing.contains($0.id) }
        try files.writeAtomically(zipBytes ?? Data("PK zip of \(pictured.count)".utf8), to: path)
        var summary = ExportSummary()
        summary.files = pictured.map { ExportedFile(file: "\($0.id)_show.jpg", photo: $0.id, originalPath: $0.path, variant: .show,
                                                    parameters: nil, size: 1, width: 1, height: 1, sha256: "") }
        summary.failures = photos.filter { failing.contains($0.id) }.map { ($0.id, $0.path, "the file is gone") }
        return summary
    }
}

final class ExportRouteTests: XCTestCase {
    var fixture: GalleryFixture!
    static let sameOrigin: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "same-origin", .contentType: "application/x-www-form-urlencoded"]

    override func setUpWithError() throws {
        fixture = try GalleryFixture()
    }

    func test(_ exporter: ExporterSpy?, settings: GallerySettings = GallerySettings(),
              _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let server = GalleryServer(catalogue: fixture.catalogue, fileSystem: fixture.fileSystem, decoder: fixture.decoder,
                                   encoder: fixture.encoder, clock: FakeClock(), variantMaker: nil, exporter: exporter,
                                   thumbnailCache: fixture.thumbnails, libraryDirectory: fixture.library, settings: settings)
        try await Application(router: server.router()).test(.router, body)
    }

    func testALargeZipIsSentAPartAtATimeAndThenTakenAway() async throws {
        // Read whole, a zip of 500 large photos was held in memory twice, and failed past 1 GB.
        let exporter = ExporterSpy(files: fixture.fileSystem)
        let zip = Data((0..<(2 * GalleryServer.downloadPart + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        exporter.zipBytes = zip
        let bus = fixture.ids["bus"]!
        try await test(exporter) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=\(bus)")) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentLength], String(zip.count))
                XCTAssertEqual(Data(buffer: response.body), zip)
            }
        }
        let path = try XCTUnwrap(exporter.calls.first?.path)
        XCTAssertEqual(fixture.fileSystem.partReads.filter { $0.path == path }.map(\.offset),
                       [0, Int64(GalleryServer.downloadPart), Int64(2 * GalleryServer.downloadPart)])
        XCTAssertFalse(fixture.fileSystem.exists(path), "taken away once sent")
    }

    func testTickedPhotosComeDownAsAZipOfTheirShowVariants() async throws {
        let exporter = ExporterSpy(files: fixture.fileSystem)
        let bus = fixture.ids["bus"]!, sea = fixture.ids["sea"]!
        try await test(exporter) { client in
            try await client.execute(uri: "/", method: .get) { response in
                XCTAssertTrue(response.text.contains(#"<form id="pick" class="pick" method="post" action="/export">"#))
                XCTAssertTrue(response.text.contains(#"<input type="checkbox" name="id" value="\#(bus)" form="pick""#))
            }
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin,
                                     body: ByteBuffer(string: "id=\(bus)&id=\(sea)&id=\(bus)")) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.contentType], "application/zip")
                XCTAssertEqual(response.headers[.contentDisposition], #"attachment; filename="showhide-show-2-photos.zip""#)
                XCTAssertEqual(response.text, "PK zip of 2")
            }
        }
        XCTAssertEqual(exporter.calls.map(\.photos), [[bus, sea]], "each photo once, in the order ticked")
        let snow = fixture.ids["snow"]!
        try await test(exporter) { client in
            // Named for the pictures it holds: the snow has no accent, so no show picture.
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=\(bus)&id=\(snow)")) {
                XCTAssertEqual($0.headers[.contentDisposition], #"attachment; filename="showhide-show-1-photo.zip""#)
            }
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=\(snow)")) {
                XCTAssertEqual($0.status, .badRequest)
                XCTAssertTrue($0.text.contains("This photo has no accent colour to splash"), $0.text)
            }
        }
        let path = try XCTUnwrap(exporter.calls.first?.path)
        XCTAssertTrue(path.hasPrefix("/library/exports/gallery-") && path.hasSuffix(".zip"), path)
        XCTAssertFalse(fixture.fileSystem.exists(path), "the zip is removed once sent")
    }

    /// An exporter whose zip cannot be written.
    struct UnwritableExporter: GalleryExporting {
        func exportShowVariants(of photos: [CataloguedPhoto], toZip path: String) async throws -> ExportSummary {
            throw FileWriteError("cannot create the folder /library/exports", reason: "Permission denied")
        }
    }

    /// An exporter that could make no picture: the photo's file is gone.
    struct NothingMadeExporter: GalleryExporting {
        func exportShowVariants(of photos: [CataloguedPhoto], toZip path: String) async throws -> ExportSummary {
            var summary = ExportSummary()
            summary.failures = photos.map { ($0.id, $0.path, "the file is gone") }
            return summary
        }
    }

    func testADownloadOfWhichNoPictureCouldBeMadeSaysWhy() async throws {
        let server = GalleryServer(catalogue: fixture.catalogue, fileSystem: fixture.fileSystem, decoder: fixture.decoder,
                                   encoder: fixture.encoder, clock: FakeClock(), variantMaker: nil, exporter: NothingMadeExporter(),
                                   thumbnailCache: fixture.thumbnails, libraryDirectory: fixture.library)
        let bus = fixture.ids["bus"]!
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=\(bus)")) { response in
                XCTAssertEqual(response.status, .badRequest)
                XCTAssertTrue(response.text.contains("No show picture could be made: photo \(bus), the file is gone."), response.text)
            }
        }
    }

    func testADownloadSomeOfWhosePhotosMadeNoPictureSaysWhichAndOffersTheRest() async throws {
        let exporter = ExporterSpy(files: fixture.fileSystem)
        let bus = fixture.ids["bus"]!, sea = fixture.ids["sea"]!
        exporter.failing = [bus]
        try await test(exporter) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=\(bus)&id=\(sea)")) { response in
                XCTAssertEqual(response.status, .conflict, "no zip that leaves a ticked photo out in silence")
                XCTAssertEqual(response.headers[.contentType], "text/html; charset=utf-8")
                let html = response.text
                XCTAssertTrue(html.contains(#"<li><a href="/photos/\#(bus)">bus.jpg</a> (photo \#(bus)): the file is gone</li>"#), html)
                XCTAssertTrue(html.contains(#"<form method="post" action="/export"><input type="hidden" name="id" value="\#(sea)">"#
                                            + #"<button type="submit">Download the other photo&#39;s show picture (.zip)</button></form>"#), html)
            }
        }
        XCTAssertEqual(fixture.fileSystem.walk(["\(fixture.library)/exports"]).files.map(\.path), [], "the zip made is taken away")
    }

    func testADownloadOfAPhotoRemovedSinceThePageWasShownOffersTheRest() async throws {
        // The whole download answered 404 (`There is no photo 999`) for one ticked photo another shell removed.
        let exporter = ExporterSpy(files: fixture.fileSystem)
        let sea = fixture.ids["sea"]!
        try await test(exporter) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=999&id=\(sea)")) { response in
                XCTAssertEqual(response.status, .conflict)
                let html = response.text
                XCTAssertTrue(html.contains("<li>photo 999: no longer in the catalogue (removed since the page was shown)</li>"), html)
                XCTAssertTrue(html.contains(#"<input type="hidden" name="id" value="\#(sea)">"#), html)
            }
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=998&id=999")) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertTrue(response.text.contains("None of the ticked photos is in the catalogue any more: reload the page."), response.text)
            }
        }
        XCTAssertEqual(exporter.calls.map(\.photos), [[sea]], "the photos still there, and nothing when none is")
    }

    func testADownloadThatCannotBeWrittenSaysWhyInWords() async throws {
        let server = GalleryServer(catalogue: fixture.catalogue, fileSystem: fixture.fileSystem, decoder: fixture.decoder,
                                   encoder: fixture.encoder, clock: FakeClock(), variantMaker: nil, exporter: UnwritableExporter(),
                                   thumbnailCache: fixture.thumbnails, libraryDirectory: fixture.library)
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=1")) { response in
                XCTAssertEqual(response.status, .internalServerError)
                XCTAssertTrue(response.text.contains("cannot create the folder /library/exports: Permission denied"), response.text)
            }
        }
    }

    func testADownloadOfNothingOrOfUnknownPhotosOrFromElsewhereIsRefused() async throws {
        let exporter = ExporterSpy(files: fixture.fileSystem)
        try await test(exporter) { client in
            let cases: [(String, HTTPFields, HTTPResponse.Status, String)] = [
                ("", Self.sameOrigin, .badRequest, "Tick between 1 and 500 photos"),
                ((1...501).map { "id=\($0)" }.joined(separator: "&"), Self.sameOrigin, .badRequest, "Tick between 1 and 500 photos"),
                ("id=abc", Self.sameOrigin, .badRequest, "id: a photo&#39;s id is a whole number from 1."),
                ("id=0", Self.sameOrigin, .badRequest, "id: a photo&#39;s id is a whole number from 1."),
                ("id=999", Self.sameOrigin, .notFound, "There is no photo 999"),
                ("id=1", [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], .forbidden, "own pages"),
            ]
            for (body, headers, status, message) in cases {
                try await client.execute(uri: "/export", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
                    XCTAssertEqual(response.status, status, body)
                    XCTAssertTrue(response.text.contains(message), "\(body): \(response.text)")
                }
            }
        }
        try await test(exporter, settings: GallerySettings(readOnly: true)) { client in
            try await client.execute(uri: "/", method: .get) { response in
                XCTAssertFalse(response.text.contains("form=\"pick\""), "a read-only gallery offers no download that makes variants")
            }
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=1")) { response in
                XCTAssertEqual(response.status, .forbidden)
            }
        }
        try await test(nil) { client in
            try await client.execute(uri: "/export", method: .post, headers: Self.sameOrigin, body: ByteBuffer(string: "id=1")) { response in
                XCTAssertEqual(response.status, .forbidden)
            }
        }
        XCTAssertTrue(exporter.calls.isEmpty)
    }
}
