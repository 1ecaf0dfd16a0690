import Catalogue
import ColourScience
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Imaging
import TestSupport
@testable import WebGallery
import XCTest

final class GallerySafetyTests: XCTestCase {
    var fixture: GalleryFixture!

    override func setUpWithError() throws {
        fixture = try GalleryFixture()
    }

    func execute(_ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], settings: GallerySettings = GallerySettings(),
                 _ check: @escaping @Sendable (TestResponse) throws -> Void) async throws {
        try await fixture.test(settings) { client in
            try await client.execute(uri: uri, method: method, headers: headers) { try check($0) }
        }
    }

    func testTheZipsOfDownloadsAKilledServerLeftAreTakenAwayWhenOneStarts() throws {
        let exports = fixture.library + "/exports/"
        let now = Int64(FakeClock().now().timeIntervalSince1970 * 1e9)
        let old = "gallery-\(UUID().uuidString).zip", new = "gallery-\(UUID().uuidString).zip"
        for (name, age) in [(old, 2 * 3_600), (old + ".1.partial", 2 * 3_600), (new, 60), ("mine.zip", 2 * 3_600),
                            ("gallery-notes.zip", 2 * 3_600), ("sub/\(old)", 2 * 3_600)] {
            fixture.fileSystem[exports + name] = Data("zip".utf8)
            fixture.fileSystem.setStamp(FileStamp(size: 3, modifiedAtNanoseconds: now - Int64(age) * 1_000_000_000), for: exports + name)
        }
        fixture.server().removeAbandonedDownloads()
        XCTAssertEqual(Set(fixture.fileSystem.walk([exports]).files.map(\.path)),
                       Set([exports + new, exports + "mine.zip", exports + "gallery-notes.zip", exports + "sub/" + old]),
                       "one being sent by another server on the library is left, and no file not of a download's name, nor below the folder")
    }

    func testALibraryDeletedWhileTheGalleryRunsIsSaidNotServed() async throws {
        try fixture.fileSystem.writeAtomically(Data("SQLite".utf8), to: "/library/catalogue.sqlite")
        let router = fixture.server().router()
        let files = fixture.fileSystem
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
            }
            try files.remove("/library/catalogue.sqlite")
            try await client.execute(uri: "/", method: .get) { response in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertTrue(response.text.contains("The library /library was moved or deleted while the gallery ran"), response.text)
            }
            try await client.execute(uri: "/api/photos", method: .get) { response in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertTrue(response.text.contains("\"status\" : 503") || response.text.contains("\"status\":503"), response.text)
            }
        }
        XCTAssertTrue(fixture.log.lines.last?.hasSuffix("GET /api/photos: 503 The library /library was moved or deleted while the gallery ran: "
                                                        + "stop it (Ctrl-C) and start it where the library is now.") == true, "\(fixture.log.lines)")
    }

    /// A backup restored over the catalogue while the gallery runs: the gallery still has the file it opened,
    /// deleted, where what it shows is out of date and what it changes is lost. It says so, and serves nothing.
    func testACatalogueReplacedWhileTheGalleryRunsIsSaidNotServed() async throws {
        try fixture.fileSystem.writeAtomically(Data("SQLite".utf8), to: "/library/catalogue.sqlite")
        let router = fixture.server().router()
        let files = fixture.fileSystem
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/photos/1", method: .get) { XCTAssertEqual($0.status, .ok) }
            try files.writeAtomically(Data("SQLite".utf8), to: "/library/catalogue.sqlite")
            try await client.execute(uri: "/photos/1", method: .get) { response in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertTrue(response.text.contains("The catalogue of /library was replaced while the gallery ran (a backup restored?)"), response.text)
            }
            try await client.execute(uri: "/api/photos/1/subject", method: .post, headers: ExportRouteTests.sameOrigin) { response in
                XCTAssertEqual(response.status, .serviceUnavailable, "no change made to the file it opened")
            }
        }
    }

    func testEveryResponseCarriesTheSecurityHeaders() async throws {
        for uri in ["/", "/inspire", "/photos/1", "/photos/1/thumbnail", "/api/photos", "/static/gallery.js", "/no/such/page", "/?page=0"] {
            try await execute(uri) { response in
                let directives = (response.headers[.contentSecurityPolicy] ?? "").split(separator: ";")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                XCTAssertTrue(directives.contains("default-src 'none'"), uri)
                XCTAssertEqual(directives.filter { $0.hasPrefix("script-src") }, ["script-src 'self'"], "scripts only from the gallery: \(uri)")
                XCTAssertTrue(directives.contains("frame-ancestors 'none'"), uri)
                XCTAssertEqual(response.headers[.xContentTypeOptions], "nosniff", uri)
            }
        }
    }

    func testHEADAnswersAsGETWithoutTheBody() async throws {
        for uri in ["/", "/photos/1", "/photos/1/thumbnail", "/api/photos", "/static/gallery.js", "/no/such/page"] {
            try await fixture.test(GallerySettings()) { client in
                let got = try await client.execute(uri: uri, method: .get)
                try await client.execute(uri: uri, method: .head) { response in
                    XCTAssertEqual(response.status, got.status, uri)
                    XCTAssertEqual(response.headers[.contentType], got.headers[.contentType], uri)
                    XCTAssertEqual(response.headers[.contentLength], got.headers[.contentLength] ?? String(got.body.readableBytes), uri)
                    XCTAssertEqual(response.body.readableBytes, 0, uri)
                    XCTAssertEqual(response.headers[.xContentTypeOptions], "nosniff", uri)
                }
            }
        }
    }

    func testNoPageCarriesAScriptOfItsOwn() async throws {
        for uri in ["/", "/inspire", "/photos/1", "/photos/3", "/?colour=zzz", "/no/such/page"] {
            try await execute(uri) { response in
                let html = response.text
                let scripts = html.components(separatedBy: "<script").dropFirst()
                XCTAssertEqual(scripts.count, 1, uri)
                XCTAssertTrue(scripts.allSatisfy { $0.hasPrefix(#" src="/static/gallery.js" defer></script>"#) }, uri)
                XCTAssertNil(html.range(of: #"\son[a-z]+="#, options: .regularExpression), "\(uri) has an inline handler")
            }
        }
    }

    func testHostileNamesAndEXIFAreEscapedEverywhere() async throws {
        let hostile = #"<script>alert(1)</script>"#
        try fixture.add(hostile, [fixture.entry("#CC141E", 1)], accent: fixture.accent("#CC141E", coverage: 0.2),
                        camera: #""><img src=x onerror=alert(2)>"#, folder: "/photos/\"'&")
        let id = fixture.ids[hostile]!
        for uri in ["/", "/photos/\(id)", "/inspire", "/?camera=%3Cb%3E"] {
            try await execute(uri) { response in
                XCTAssertFalse(response.text.contains("<script>alert"), uri)
                XCTAssertFalse(response.text.contains("<img src=x"), uri)
                XCTAssertFalse(response.text.contains("<b>"), uri)
            }
        }
        try await execute("/photos/\(id)") { response in
            XCTAssertTrue(response.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;.jpg"))
            XCTAssertTrue(response.text.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        }
    }

    func testNoRequestReadsAFileOutsideTheCataloguesPhotosVariantsAndThumbnails() async throws {
        // Reading any other path fails the test (FakeFileSystem); each attempt must also be refused.
        let attempts = [
            "/photos/..%2f..%2fetc%2fpasswd", "/photos/%2e%2e/%2e%2e/etc/passwd", "/photos/../../etc/passwd",
            "/photos/1/original/..%2f..%2f..%2fetc%2fpasswd", "/photos//etc/passwd/original", "/photos/%2Fetc%2Fpasswd/original",
            "/photos/1/variants/..%2f..%2fcatalogue.sqlite", "/photos/1/variants/%2e%2e", "/static/..%2f..%2fPackage.swift",
            "/static/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/photos/1%00/original", "/api/photos/..%2f1",
            "/photos/-1/original", "/photos/99999999999999999999/original",
        ]
        for uri in attempts {
            try await execute(uri) { response in
                XCTAssertTrue([400, 404].contains(response.status.code), "\(uri): \(response.status)")
                XCTAssertFalse(response.text.contains("root:"), uri)
            }
        }
    }

    func testAVariantRowThatPointsOutsideTheLibraryIsNotServed() async throws {
        let id = fixture.ids["sea"]!
        try fixture.catalogue.recordVariant(Variant(photoID: id, kind: "show", parameters: "{}", path: "/etc/passwd", fileSize: 1,
                                                    pixelSize: PixelSize(width: 1, height: 1), sha256: "x",
                                                    createdAt: Date(timeIntervalSince1970: 0)))
        try await execute("/photos/\(id)/variants/show") { response in
            XCTAssertEqual(response.status, .notFound)
        }
        XCTAssertFalse(fixture.fileSystem.exists("/etc/passwd"))
    }

    func testAVariantRecordedBeforeTheLibraryFolderMovedIsServedFromItsNewPlaceOnly() async throws {
        let id = fixture.ids["bus"]!
        func recorded(_ kind: String, at path: String) throws {
            try fixture.catalogue.recordVariant(Variant(photoID: id, kind: kind, parameters: #"{"method":"object"}"#, path: path, fileSize: 12,
                                                        pixelSize: PixelSize(width: 40, height: 30), sha256: "v" + kind,
                                                        createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
        }
        try recorded("show", at: "/old-library/variants/b0/b05/show-1.jpg")
        try await execute("/photos/\(id)/variants/show") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.text, "show picture")
        }
        try recorded("hide", at: "/old-library/variants/../../etc/passwd")
        try await execute("/photos/\(id)/variants/hide") { response in
            XCTAssertEqual(response.status, .notFound)
        }
    }

    func testAChangeFromAnotherSiteIsRefused() async throws {
        try await execute("/", method: .post, headers: [HTTPField.Name("Origin")!: "http://evil.example"]) { response in
            XCTAssertEqual(response.status, .forbidden)
            XCTAssertTrue(response.text.contains("only from the gallery&#39;s own pages"))
        }
        try await execute("/api/photos", method: .post) { response in
            XCTAssertEqual(response.status, .forbidden, "a change without an origin is refused")
        }
        try await execute("/", method: .post, headers: [HTTPField.Name("Origin")!: "http://localhost"]) { response in
            XCTAssertNotEqual(response.status, .forbidden, "the gallery's own origin passes the check")
        }
        // A browser says where the request comes from: a form on the gallery's own page says same-origin
        // (and may send "Origin: null"); another site's says cross-site whatever its Origin claims.
        try await execute("/", method: .post, headers: [HTTPField.Name("Sec-Fetch-Site")!: "same-origin",
                                                        HTTPField.Name("Origin")!: "null"]) { response in
            XCTAssertNotEqual(response.status, .forbidden)
        }
        try await execute("/", method: .post, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site",
                                                        HTTPField.Name("Origin")!: "http://localhost"]) { response in
            XCTAssertEqual(response.status, .forbidden)
        }
    }

    func testAnUnknownHostNameIsRefusedOnLoopback() throws {
        let guardian = GalleryGuard(settings: GallerySettings(allowedHostNames: GallerySettings.loopbackNames), pages: GalleryPages())
        func request(_ authority: String) -> Request {
            Request(head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/"), body: .init(buffer: ByteBuffer()))
        }
        XCTAssertNil(guardian.refusal(of: request("127.0.0.1:8080")))
        XCTAssertNil(guardian.refusal(of: request("localhost:8080")))
        XCTAssertNil(guardian.refusal(of: request("[::1]:8080")))
        XCTAssertEqual(guardian.refusal(of: request("rebinding.example:8080"))?.status, .misdirectedRequest)
        XCTAssertEqual(guardian.refusal(of: request("127.0.0.1.evil.example"))?.status, .misdirectedRequest)
        let nameless = Request(head: HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/"), body: .init(buffer: ByteBuffer()))
        XCTAssertEqual(guardian.refusal(of: nameless)?.status, .misdirectedRequest, "no Host header: no name of its own")
    }

    func testAnAccessTokenIsAskedForOnceThenKeptInACookie() async throws {
        let token = String(repeating: "ab", count: 32)
        let settings = GallerySettings(accessToken: token)
        try await execute("/", settings: settings) { response in
            XCTAssertEqual(response.status, .unauthorized)
            XCTAssertTrue(response.text.contains("needs its access token"))
        }
        try await execute("/api/photos", settings: settings) { response in
            XCTAssertEqual(response.status, .unauthorized)
        }
        try await execute("/?token=wrong", settings: settings) { response in
            XCTAssertEqual(response.status, .unauthorized)
        }
        try await execute("/inspire?token=\(token)", settings: settings) { response in
            XCTAssertEqual(response.status, .seeOther)
            XCTAssertEqual(response.headers[.location], "/inspire")
            XCTAssertEqual(response.headers[.setCookie], "showhide_token=\(token); Path=/; HttpOnly; SameSite=Lax")
        }
        // A shared address keeps its filters: only the token leaves it.
        try await execute("/?colour=red&token=\(token)&page=2", settings: settings) { response in
            XCTAssertEqual(response.headers[.location], "/?colour=red&page=2")
        }
        // The redirect stays on this site, whatever the path: `//elsewhere` is another site's address to a browser.
        for path in ["//elsewhere.example/x", "/\\elsewhere.example/x"] {
            try await execute(path + "?token=\(token)", settings: settings) { response in
                XCTAssertEqual(response.headers[.location], "/elsewhere.example/x", path)
            }
        }
        try await execute("/", headers: [.cookie: "other=1; showhide_token=\(token)"], settings: settings) { response in
            XCTAssertEqual(response.status, .ok)
        }
        try await execute("/", headers: [.cookie: "showhide_token=\(token)x"], settings: settings) { response in
            XCTAssertEqual(response.status, .unauthorized)
        }
    }

    func testAReadOnlyCatalogueSaysSoOnEveryPage() async throws {
        for uri in ["/", "/photos/1", "/inspire"] {
            try await execute(uri, settings: GallerySettings(readOnly: true)) { response in
                XCTAssertTrue(response.text.contains("This catalogue is read-only"), uri)
            }
            try await execute(uri) { response in
                XCTAssertFalse(response.text.contains("read-only"), uri)
            }
        }
    }

    func testACatalogueThatFailsIsA503AndTheServerGoesOn() async throws {
        let server = GalleryServer(catalogue: BusyCatalogue(), fileSystem: fixture.fileSystem, decoder: fixture.decoder,
                                   encoder: fixture.encoder, clock: FakeClock(), variantMaker: nil,
                                   thumbnailCache: fixture.thumbnails, libraryDirectory: "/library")
        try await Application(router: server.router()).test(.router) { client in
            for uri in ["/", "/photos/1", "/inspire", "/api/photos"] {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .serviceUnavailable, uri)
                    XCTAssertTrue(response.text.contains("busy"), response.text)
                }
            }
            try await client.execute(uri: "/static/gallery.css", method: .get) { response in
                XCTAssertEqual(response.status, .ok, "a failed request does not take the server down")
            }
        }
    }
}

/// A catalogue that another process keeps busy: every call fails as SQLite's would.
struct BusyCatalogue: PhotoCatalogue {
    var busy: CatalogueError { .busy(path: "/library/catalogue.sqlite") }
    func knownStamps() throws -> [String: FileStamp] { throw busy }
    func content(withSHA256 sha256: String) throws -> CatalogueContent? { throw busy }
    func leftOutStamps() throws -> [String: FileStamp] { throw busy }
    func write<T>(_ body: (any CatalogueWriting) throws -> T) throws -> T { throw busy }
    func photos(matching query: PhotoQuery) throws -> [CataloguedPhoto] { throw busy }
    func photo(id: PhotoID) throws -> CataloguedPhoto? { throw busy }
    func photosNeedingAnalysis() throws -> [CataloguedPhoto] { throw busy }
    func failures() throws -> [ImportFailure] { throw busy }
    func search(_ search: ColourSearch) throws -> [ColourMatch] { throw busy }
    func variant(of photoID: PhotoID, kind: String, parameters: String) throws -> Variant? { throw busy }
    func recordVariant(_ variant: Variant) throws -> Variant? { throw busy }
    func allVariants() throws -> [Variant] { throw busy }
    func removeVariant(atPath path: String) throws { throw busy }
    func integrityCheck() throws -> String { throw busy }
    func backup(to path: String, replacing: Bool) throws -> CatalogueBackup { throw busy }
}
