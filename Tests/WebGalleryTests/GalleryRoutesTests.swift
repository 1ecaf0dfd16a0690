import Catalogue
import CatalogueSQLite
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Imaging
import Logging
import Services
import TestSupport
@testable import WebGallery
import XCTest

final class GalleryRoutesTests: XCTestCase {
    var fixture: GalleryFixture!

    override func setUpWithError() throws {
        fixture = try GalleryFixture()
    }

    /// The names of the photos a grid page links, in order.
    static func photoLinks(_ html: String) -> [String] {
        html.components(separatedBy: "<div class=\"cell\">").dropFirst().compactMap { cell in
            cell.range(of: #"alt="[^"]+""#, options: .regularExpression).map { String(cell[$0].dropFirst(5).dropLast(1)) }
        }
    }

    func get(_ uri: String, headers: HTTPFields = [:], settings: GallerySettings = GallerySettings(),
             _ check: @escaping @Sendable (TestResponse) throws -> Void) async throws {
        try await fixture.test(settings) { client in
            try await client.execute(uri: uri, method: .get, headers: headers) { try check($0) }
        }
    }

    // MARK: The grid

    func testTheGridShowsEveryPhotoNewestTakenFirstWithItsThumbnail() async throws {
        try await get("/") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertEqual(Self.photoLinks(response.text), ["sea.jpg", "snow.jpg", "bus.jpg"])
            XCTAssertTrue(response.text.contains(#"<img src="/photos/1/thumbnail""#))
            XCTAssertTrue(response.text.contains("red 10%"), "a photo's caption names its accent and its share")
        }
    }

    func testARedSwatchShowsOnlyRedPhotosAndLinksItsOwnToggle() async throws {
        try await get("/?colour=red") { response in
            XCTAssertEqual(Self.photoLinks(response.text), ["bus.jpg"])
            XCTAssertTrue(response.text.contains(#"class="swatch selected" href="/""#), "the chosen swatch clears the colour")
            XCTAssertTrue(response.text.contains(#"href="/?colour=blue""#))
        }
        try await get("/?colour=red&accent=on&coverage=5&camera=canon") { response in
            XCTAssertTrue(response.text.contains(#"class="swatch selected" href="/?camera=canon""#),
                          "the accent and coverage go with the colour: without one they are refused")
            XCTAssertTrue(response.text.contains(#"href="/?colour=blue&amp;accent=on&amp;coverage=5&amp;camera=canon""#), response.text)
        }
        try await get("/?colour=%231f5aa6&accent=on") { response in
            XCTAssertEqual(Self.photoLinks(response.text), ["sea.jpg"])
            XCTAssertTrue(response.text.contains(##"value="#1f5aa6""##), "the field keeps what was typed")
        }
    }

    func testEveryFilterNarrowsTheGrid() async throws {
        let cases: [(String, [String])] = [
            ("/?camera=canon", ["bus.jpg"]),
            ("/?since=2021-01-01", ["sea.jpg", "snow.jpg"]),
            ("/?until=2021-06-30", ["snow.jpg", "bus.jpg"]),
            ("/?folder=/photos", ["sea.jpg", "snow.jpg", "bus.jpg"]),
            ("/?folder=/elsewhere", []),
            ("/?colour=blue&coverage=50", ["sea.jpg"]),
            ("/?colour=red&coverage=50", []),
            ("/?sort=inspiration", ["bus.jpg", "sea.jpg", "snow.jpg"]),
            ("/?colour=grey&sort=inspiration", ["bus.jpg"]),
            ("/?colour=grey&sort=date", ["bus.jpg"]),
            ("/?camera=&since=&colour=", ["sea.jpg", "snow.jpg", "bus.jpg"]),
            ("/?camera=%20canon%20", ["bus.jpg"]),
            // The colour said as words, as `gallery search` takes it: sea's blue accent covers 30%, bus's red 10%.
            ("/?colour=blue%20as%20the%20accent", ["sea.jpg"]),
            ("/?colour=blue%20as%20a%20small%20accent", []),
            ("/?colour=red%20as%20a%20small%20accent", ["bus.jpg"]),
            ("/?colour=grey%20as%20the%20accent", []),
        ]
        for (uri, expected) in cases {
            try await get(uri) { response in
                XCTAssertEqual(response.status, .ok, uri)
                XCTAssertEqual(Self.photoLinks(response.text), expected, uri)
            }
        }
    }

    func testAColourSaidAsWordsTicksAsTheAccentAndKeepsTheWords() async throws {
        try await get("/?colour=blue%20as%20a%20small%20accent") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertTrue(response.text.contains(#"name="colour" value="blue as a small accent""#), response.text)
            XCTAssertTrue(response.text.contains(#"name="accent" value="on" checked"#))
        }
    }

    func testTheGridHasAHeadingAndSaysWhichColourIsChosen() async throws {
        try await get("/?colour=red") { response in
            XCTAssertTrue(response.text.contains(#"<h1 class="visually-hidden">Photos</h1>"#), "a page's heading for screen readers")
            XCTAssertTrue(response.text.contains(#"data-colour="red" aria-current="true""#))
            XCTAssertFalse(response.text.contains(#"data-colour="blue" aria-current"#))
        }
    }

    func testAnEmptyGridSaysWhyItIsEmpty() async throws {
        try await get("/?folder=/elsewhere") { response in
            XCTAssertTrue(response.text.contains(#"<p class="empty">No photo matches these filters.</p>"#), response.text)
        }
        try await get("/?camera=canon&page=9") { response in
            XCTAssertTrue(response.text.contains(#"<p class="empty">There is no page 9 of these photos. <a href="/?camera=canon">The first page</a>.</p>"#),
                          response.text)
        }
        let empty = GalleryServer(catalogue: try SQLiteCatalogue.inMemory(), fileSystem: FakeFileSystem(), decoder: FakePhotoCodec(),
                                  encoder: RecordingEncoder(), clock: FakeClock(), variantMaker: nil, thumbnailCache: FakeThumbnailCache(), libraryDirectory: "/l")
        try await Application(router: empty.router()).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                XCTAssertTrue(response.text.contains("The catalogue holds no photo yet: showhide gallery import FOLDER imports some."))
            }
        }
    }

    func testAPageOfExactlyTheSizeLinksNoNextAndOneMoreDoes() async throws {
        let size = GridQuery.pageSize
        func add(_ count: Int) throws {
            for _ in 0..<count {
                try fixture.add("red\(fixture.ids.count)", [fixture.entry("#808080", 0.5), fixture.entry("#CC141E", 0.5)],
                                accent: fixture.accent("#CC141E", coverage: 0.5))
            }
        }
        func hasNext(_ uri: String) async throws -> Bool {
            try await fixture.test { client in
                try await client.execute(uri: uri, method: .get) { response in response.text.contains(#"rel="next""#) }
            }
        }
        try add(size - 3)  // the three of the fixture and these: a page's worth exactly, 58 of them red
        for uri in ["/", "/?sort=inspiration", "/?sort=date"] {
            let next = try await hasNext(uri)
            XCTAssertFalse(next, uri)
        }
        try add(2)  // 62 photos, 60 of them red
        let redNext = try await hasNext("/?colour=red")
        XCTAssertFalse(redNext, "60 red photos: one page")
        let plainNext = try await hasNext("/")
        XCTAssertTrue(plainNext, "62 photos: two pages")
        try add(1)
        let moreRed = try await hasNext("/?colour=red")
        XCTAssertTrue(moreRed, "61 red photos: two pages")
        try await get("/api/photos?colour=red") { response in
            XCTAssertEqual(response.headers[HTTPField.Name("Next-Page")!], "2", "never the page asked for: a client would ask it again")
        }
    }

    func testTheUndatedFollowTheDatedInTheNewestOrderOfAColour() async throws {
        try fixture.add("undated-red", [fixture.entry("#CC141E", 1)], accent: fixture.accent("#CC141E", coverage: 1))
        try await get("/?colour=red&sort=date") { response in
            XCTAssertEqual(Self.photoLinks(response.text), ["bus.jpg", "undated-red.jpg"], "dated first, though imported before")
        }
    }

    func testPagesLinkTheNextAndThePreviousAndKeepTheFilters() async throws {
        for index in 0..<(GridQuery.pageSize + 5) {
            try fixture.add("extra\(index)", [fixture.entry("#CC141E", 1)], accent: fixture.accent("#CC141E", coverage: 1),
                            taken: "2019:01:01 10:00:00")
        }
        try await get("/?colour=red") { response in
            XCTAssertEqual(Self.photoLinks(response.text).count, GridQuery.pageSize)
            XCTAssertTrue(response.text.contains(#"href="/?colour=red&amp;page=2" rel="next""#))
            XCTAssertFalse(response.text.contains("rel=\"prev\""))
        }
        try await get("/?colour=red&page=2") { response in
            XCTAssertEqual(Self.photoLinks(response.text).count, 6)
            XCTAssertTrue(response.text.contains(#"href="/?colour=red" rel="prev""#))
            XCTAssertFalse(response.text.contains("rel=\"next\""))
        }
        try await get("/?page=2") { response in
            XCTAssertEqual(Self.photoLinks(response.text).count, 8)
            XCTAssertEqual(Self.photoLinks(response.text).last, "extra0.jpg", "the same day: the earliest imported last")
        }
        // By inspiration, the photos with nothing to splash (the snow) follow the ranked ones on the last page.
        try await get("/?sort=inspiration") { response in
            XCTAssertEqual(Self.photoLinks(response.text).count, GridQuery.pageSize)
            XCTAssertFalse(Self.photoLinks(response.text).contains("snow.jpg"))
            XCTAssertTrue(response.text.contains(#"rel="next""#))
        }
        try await get("/?sort=inspiration&page=2") { response in
            XCTAssertEqual(Self.photoLinks(response.text).count, 8)
            XCTAssertEqual(Self.photoLinks(response.text).last, "snow.jpg")
            XCTAssertFalse(response.text.contains(#"rel="next""#))
        }
        // A page that starts among them: every one shown once, newest first (the snow, of 2021, first).
        for index in 0..<GridQuery.pageSize {
            try fixture.add(String(format: "grey%03d", index), [fixture.entry("#808080", 1)], taken: "2018:01:01 10:00:00")
        }
        var unranked: [String] = []
        for page in [2, 3] {
            let text = try await fixture.test(GallerySettings()) { client in
                try await client.execute(uri: "/?sort=inspiration&page=\(page)", method: .get).text
            }
            unranked += Self.photoLinks(text).filter { $0.hasPrefix("grey") || $0 == "snow.jpg" }
        }
        XCTAssertEqual(unranked.count, GridQuery.pageSize + 1)
        XCTAssertEqual(Set(unranked).count, unranked.count, "none twice")
        XCTAssertEqual(unranked.first, "snow.jpg")
        XCTAssertEqual(unranked.last, "grey000.jpg", "the same day: the earliest imported last")
    }

    func testAWrongParameterIsAClear400() async throws {
        let cases: [(String, String)] = [
            ("/?colour=zzz", "is not a colour"),
            ("/?camera=a%00b", "camera: takes some text of the make or model, without control characters."),
            ("/?coverage=101", "coverage: takes a percentage"),
            ("/?since=2021-13-01", "since: give a day as YYYY-MM-DD"),
            ("/?since=2008-02-30", "since: give a day as YYYY-MM-DD"),
            ("/?until=2021-02-29", "until: give a day as YYYY-MM-DD"),
            ("/?since=+2021-1-01", "since: give a day as YYYY-MM-DD"),
            ("/?since=2022-01-01&until=2021-01-01", "is after until"),
            ("/?page=0", "page: takes a whole number"),
            ("/?page=2001", "page: takes a whole number from 1 to 2000."),
            ("/?camera=" + String(repeating: "c", count: 101), "camera: at most 100 characters."),
            ("/?page=abc", "page: takes a whole number"),
            ("/?sort=size", "sort: takes date, colour or inspiration"),
            ("/?sort=colour", "sort: colour needs a colour"),
            ("/?folder=relative/path", "folder: give an absolute path"),
            ("/?accent=maybe", "accent: takes on or off"),
            ("/?accent=on", "accent: “as the accent” needs a colour to match"),
            ("/?coverage=50&camera=canon", "coverage: “at least” a share of the picture needs a colour"),
            ("/photos/abc", "A photo&#39;s id is a whole number"),
            ("/photos/0", "A photo&#39;s id is a whole number from 1"),
            ("/photos/1/variants/other", "A variant is show or hide"),
            ("/?coverage=100.5&colour=red", "coverage: takes a percentage"),
            ("/?colour=red%20as%20a%20small%20accent&coverage=20", "coverage: at least 20% is more than a small accent&#39;s 10%: no photo is both."),
            ("/?colour=red%20as%20a%20huge%20accent", "is not a colour search showhide understands"),
        ]
        for (uri, message) in cases {
            try await get(uri) { response in
                XCTAssertEqual(response.status, .badRequest, uri)
                XCTAssertTrue(response.text.contains(message), "\(uri): \(response.text)")
            }
        }
        // Their ends are still allowed: a single day, the last page, a camera of 100 characters.
        // And what the form sends with no colour chosen: coverage 0, the accent unticked.
        for uri in ["/?since=2021-06-01&until=2021-06-01", "/?page=2000", "/?camera=" + String(repeating: "c", count: 100),
                    "/?colour=&coverage=0&camera=canon", "/?colour=red&accent=on&coverage=5", "/?colour=red&coverage=100",
                    "/?colour=red&sort=color"] {
            try await get(uri) { response in XCTAssertNotEqual(response.status, .badRequest, uri) }
        }
        // "Back" keeps the other filters and leaves out the one refused.
        try await get("/?camera=canon&colour=zzz&page=2") { response in
            XCTAssertTrue(response.text.contains(#"<a href="/?camera=canon">Back, without that</a>"#), response.text)
        }
        try await get("/?color=zzz&camera=canon") { response in
            XCTAssertTrue(response.text.contains(#"<a href="/?camera=canon">Back, without that</a>"#), "the other spelling too, or Back loops")
        }
        try await get("/photos/abc") { response in
            XCTAssertTrue(response.text.contains(#"<a href="/">Back to the photos</a>"#))
        }
        try await get("/api/photos?page=-1") { response in
            XCTAssertEqual(response.status, .badRequest)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            XCTAssertEqual(object["status"] as? Int, 400)
            XCTAssertEqual(object["error"] as? String, "page: takes a whole number from 1 to 2000.")
        }
    }

    // MARK: A photo

    func testAPhotoPageShowsPaletteAccentCandidatesVariantsAndCamera() async throws {
        let id = fixture.ids["bus"]!
        try await get("/photos/\(id)") { response in
            XCTAssertEqual(response.status, .ok)
            let html = response.text
            XCTAssertTrue(html.contains(#"<img src="/photos/\#(id)/preview""#))
            XCTAssertTrue(html.contains(#"<img src="/photos/\#(id)/splash/show" alt="bus.jpg, show" data-splash="show">"#), html)
            XCTAssertTrue(html.contains(#"<img src="/photos/\#(id)/splash/hide" alt="bus.jpg, hide" data-splash="hide">"#))
            XCTAssertTrue(html.contains(#"<li>Made, object mode: <a href="/photos/\#(id)/variants/show?set=1">show</a> "#
                                        + #"<a href="/photos/\#(id)/variants/hide?set=1">hide</a> (the newest)</li>"#), html)
            XCTAssertTrue(html.contains(#"<form class="make" method="post" action="/photos/\#(id)/variants">"#))
            XCTAssertTrue(html.contains("<dt>accent</dt>"))
            XCTAssertTrue(html.contains("<h2>Palette</h2>"))
            XCTAssertTrue(html.contains("<h2>Accent candidates</h2>"))
            XCTAssertTrue(html.contains("#CC141E"))
            XCTAssertTrue(html.contains("<dt>camera</dt><dd>Canon EOS</dd>"))
            XCTAssertTrue(html.contains("the accent"), "the candidate that is the accent is marked")
            XCTAssertTrue(html.contains(#"href="/photos/\#(id)/original""#))
        }
        try await get("/photos/\(fixture.ids["snow"]!)") { response in
            XCTAssertTrue(response.text.contains("Nothing to splash with these settings: no accent colour (no colour stands out).</p>"),
                          "a photo without an accent says so, and offers no candidate it has not: \(response.text)")
            XCTAssertTrue(response.text.contains("<dt>accent</dt><dd>none: no colour stands out</dd>"), "as gallery show says it")
            XCTAssertTrue(response.text.contains("No show and hide variants made yet."))
            XCTAssertFalse(response.text.contains("data-splash"))
            XCTAssertFalse(response.text.contains("Make variants"))
        }
        // A variant whose file is gone is neither linked nor served.
        try fixture.fileSystem.remove("/library/variants/b0/b05/show-1.jpg")
        try await get("/photos/\(id)") { response in
            XCTAssertFalse(response.text.contains(#"/variants/show?"#))
            XCTAssertTrue(response.text.contains(#"<a href="/photos/\#(id)/variants/hide?set=1">hide</a>"#))
        }
        try await get("/photos/\(id)/variants/show") { response in
            XCTAssertEqual(response.status, .notFound)
            XCTAssertTrue(response.text.contains("show variant is recorded, but its file is gone: Make variants on its page makes it again."),
                          "not said as never made")
        }
    }

    func testAFileNameIsGivenAsciiAndUTF8() {
        XCTAssertEqual(GalleryServer.inline(named: "Été \"1\".heic"),
                       "inline; filename=\"_t_ _1_.heic\"; filename*=UTF-8''%C3%89t%C3%A9%20%221%22.heic")
    }

    func testAPhotoWhoseFileIsGoneOrChangedSaysSo() async throws {
        let bus = fixture.ids["bus"]!, sea = fixture.ids["sea"]!
        try await get("/photos/\(bus)") { response in
            XCTAssertFalse(response.text.contains("since it was imported") || response.text.contains("file is gone"), "as imported: nothing to say")
            XCTAssertTrue(response.text.contains("/photos/\(bus)/preview"))
        }
        try fixture.fileSystem.remove("/photos/bus.jpg")
        try await get("/photos/\(bus)") { response in
            XCTAssertTrue(response.text.contains("file is gone from /photos/bus.jpg: nothing can be shown or made of it."), response.text)
            XCTAssertFalse(response.text.contains("/photos/\(bus)/preview"), "no broken picture")
            XCTAssertFalse(response.text.contains("data-splash"))
            XCTAssertFalse(response.text.contains("Make variants"))
        }
        fixture.fileSystem.setStamp(FileStamp(size: 999, modifiedAtNanoseconds: 5), for: "/photos/sea.jpg")
        try await get("/photos/\(sea)") { response in
            XCTAssertTrue(response.text.contains("file changed since it was imported: the pictures show it as it is now"))
            XCTAssertTrue(response.text.contains("/photos/\(sea)/preview"))
        }
    }

    func testAnUnknownPhotoIs404() async throws {
        for uri in ["/photos/999", "/photos/999/thumbnail", "/photos/999/original", "/api/photos/999"] {
            try await get(uri) { response in
                XCTAssertEqual(response.status, .notFound, uri)
                XCTAssertTrue(response.text.contains("There is no photo 999 in the catalogue."), uri)
            }
        }
        try await get("/photos/\(fixture.ids["snow"]!)/variants/show") { response in
            XCTAssertEqual(response.status, .notFound)
            XCTAssertTrue(response.text.contains("has no show variant yet"))
        }
        try await get("/no/such/page") { response in
            XCTAssertEqual(response.status, .notFound)
            XCTAssertTrue(response.text.contains("There is no page at this address."))
        }
    }

    /// The server's log says of a request that failed what its page said, after the time of day: no
    /// framework's labels, request ids or Swift values.
    func testTheLogSaysWhatFailedInTheWordsOfItsPage() async throws {
        try await get("/photos/abc") { XCTAssertEqual($0.status, .badRequest) }
        try await get("/no/such/page") { XCTAssertEqual($0.status, .notFound) }
        let time = GalleryServer.timeOfDay(FakeClock().now())
        XCTAssertEqual(fixture.log.lines, [time + " GET /photos/abc: 400 A photo's id is a whole number from 1, as the grid links it.",
                                           time + " GET /no/such/page: 404 There is no page at this address."])
        XCTAssertEqual(GalleryServer.timeOfDay(Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 9, minute: 5,
                                                                                           second: 7))!), "09:05:07")
        let said = LoggedLines()
        var logger = Logger(label: "framework") { _ in GalleryLogHandler(say: { said.append($0) }) }
        logger.logLevel = .warning
        logger.info("Server started")
        logger.error("cannot accept a connection", metadata: ["hb.request.id": "12"])
        XCTAssertEqual(said.lines, ["cannot accept a connection"], "the framework's warnings and errors, its words alone")
    }

    func testAnAVIFOriginalIsServedAsAVIFAndAHEICAsHEIF() async throws {
        var ids: [String: PhotoID] = [:]
        // The box: its size, "ftyp", the major brand, a minor version, then the compatible brands.
        let files = [("phone.avif", "avif", "mif1miaf"), ("phone.heic", "heic", "mif1heic"), ("general.avif", "mif1", "avifmiaf"),
                     ("general.heic", "mif1", "heicmiaf")]
        for (index, (name, major, compatible)) in files.enumerated() {
            let path = "/photos/\(name)"
            try fixture.fileSystem.writeAtomically(Data([0, 0, 0, 0x18]) + Data("ftyp\(major)".utf8) + Data(repeating: 0, count: 4)
                                                   + Data(compatible.utf8) + Data(repeating: 0, count: 20), to: path)
            ids[name] = try fixture.catalogue.write {
                try $0.insertPhoto(path: path, stamp: FileStamp(size: 32, modifiedAtNanoseconds: 1),
                                   facts: PhotoFacts(sha256: String(repeating: "abcd".map(String.init)[index], count: 64), format: .heif,
                                                     pixelSize: PixelSize(width: 4, height: 3), exif: nil),
                                   importedAt: Date(timeIntervalSince1970: 1_700_000_000))
            }
        }
        try await get("/photos/\(ids["phone.avif"]!)/original") { response in
            XCTAssertEqual(response.headers[.contentType], "image/avif", "shown by the browser, not downloaded as HEIF")
        }
        try await get("/photos/\(ids["phone.heic"]!)/original") { response in
            XCTAssertEqual(response.headers[.contentType], "image/heif")
        }
        try await get("/photos/\(ids["general.avif"]!)/original") { response in
            XCTAssertEqual(response.headers[.contentType], "image/avif", "a general major brand, AVIF among the compatible ones")
        }
        try await get("/photos/\(ids["general.heic"]!)/original") { response in
            XCTAssertEqual(response.headers[.contentType], "image/heif")
        }
    }

    func testEachSetOfVariantsMadeIsLinkedAsAPairTheNewestFirst() async throws {
        let id = fixture.ids["bus"]!
        // A red show picture made since by an export, with other parameters: no hide of its set.
        let path = "\(fixture.library)/variants/b0/b05/show-2a.jpg"
        try fixture.fileSystem.writeAtomically(Data("red show".utf8), to: path)
        try fixture.catalogue.recordVariant(Variant(photoID: id, kind: "show", parameters: #"{"hue":35.4,"method":"object"}"#, path: path,
                                                    fileSize: 8, pixelSize: PixelSize(width: 40, height: 30), sha256: "red",
                                                    createdAt: Date(timeIntervalSince1970: 1_800_000_000)))
        try await get("/photos/\(id)") { response in
            let html = response.text
            XCTAssertTrue(html.contains(#"<li>Made, object mode, hue 35.4°: <a href="/photos/\#(id)/variants/show?set=2a">show</a>  (the newest)</li>"#),
                          html)
            XCTAssertTrue(html.contains(#"<li>Made, object mode: <a href="/photos/\#(id)/variants/show?set=1">show</a> "#
                                        + #"<a href="/photos/\#(id)/variants/hide?set=1">hide</a></li>"#), "the earlier pair stays a pair")
        }
        try await get("/photos/\(id)/variants/show") { response in XCTAssertEqual(response.text, "red show", "without a set: the newest") }
        try await get("/photos/\(id)/variants/show?set=1") { response in XCTAssertEqual(response.text, "show picture") }
        try await get("/photos/\(id)/variants/hide?set=2a") { response in
            XCTAssertEqual(response.status, .notFound, "that set has no hide picture")
            XCTAssertTrue(response.text.contains("has no hide variant made with those parameters."), response.text)
        }
    }

    func testTheTabsIconIsServedAndTheAddressBrowsersAskForItLeadsThere() async throws {
        try await get("/") { response in
            XCTAssertTrue(response.text.contains(#"<link rel="icon" href="/static/icon.svg" type="image/svg+xml">"#))
        }
        try await get("/static/icon.svg") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "image/svg+xml")
            XCTAssertTrue(response.text.hasPrefix("<svg "), response.text)
        }
        try await get("/favicon.ico") { response in
            XCTAssertEqual(response.status, .seeOther, "not a 404 logged at every visit")
            XCTAssertEqual(response.headers[.location], "/static/icon.svg")
        }
    }

    func testAThumbnailOrOriginalTheBrowserHasIsNotSentAgainAndAnOriginalComesInPartsAsAsked() async throws {
        let id = fixture.ids["bus"]!
        let thumbnailTag = try await fixture.test { client in
            try await client.execute(uri: "/photos/\(id)/thumbnail", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                return try XCTUnwrap(response.headers[.eTag])
            }
        }
        try await get("/photos/\(id)/thumbnail", headers: [.ifNoneMatch: thumbnailTag]) { response in
            XCTAssertEqual(response.status, .notModified)
            XCTAssertEqual(response.body.readableBytes, 0, "no picture again")
        }
        try await get("/photos/\(id)/thumbnail", headers: [.ifNoneMatch: "\"other\""]) { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.eTag], GalleryServer.tag(of: Data(buffer: response.body)), "the tag names the bytes sent")
        }
        XCTAssertEqual(GalleryServer.tag(of: Data("abc".utf8)), "\"ba7816bf8f01cfea414140de5dae2223\"", "half of SHA-256, as content is named")

        let original = try fixture.fileSystem.contents(of: "/photos/bus.jpg")
        let originalTag = try await fixture.test { client in
            try await client.execute(uri: "/photos/\(id)/original", method: .get) { response in
                XCTAssertEqual(response.headers[.acceptRanges], "bytes")
                return try XCTUnwrap(response.headers[.eTag])
            }
        }
        XCTAssertEqual(originalTag, "\"100-1\"", "the file's size and time, as the catalogue records them: known without reading it")
        fixture.fileSystem.resetReads()
        try await get("/photos/\(id)/original", headers: [.ifNoneMatch: originalTag]) { response in
            XCTAssertEqual(response.status, .notModified)
        }
        XCTAssertEqual(fixture.fileSystem.readPaths, [], "a 304 reads nothing")
        try await get("/photos/\(id)/original", headers: [.range: "bytes=2-5"]) { response in
            XCTAssertEqual(response.status, .partialContent)
            XCTAssertEqual(response.headers[.contentRange], "bytes 2-5/\(original.count)")
            XCTAssertEqual(Data(buffer: response.body), original[2..<6])
        }
        try await get("/photos/\(id)/original", headers: [.range: "bytes=-3"]) { response in
            XCTAssertEqual(Data(buffer: response.body), original.suffix(3))
        }
        try await get("/photos/\(id)/original", headers: [.range: "bytes=\(original.count)-"]) { response in
            XCTAssertEqual(response.status, .rangeNotSatisfiable)
            XCTAssertEqual(response.headers[.contentRange], "bytes */\(original.count)")
        }
        try await get("/photos/\(id)/original", headers: [.range: "bytes=2-\(Int.max)"]) { response in
            XCTAssertEqual(response.status, .partialContent)
            XCTAssertEqual(Data(buffer: response.body), original.dropFirst(2))
        }
        XCTAssertEqual(GalleryServer.byteRange("bytes=0-1,4-5", of: 10), .whole, "several ranges: the whole")
        XCTAssertEqual(GalleryServer.byteRange("bytes=5-2", of: 10), .whole)
        XCTAssertEqual(GalleryServer.byteRange("bytes=8-20", of: 10), .part(8..<10))
        XCTAssertEqual(GalleryServer.byteRange("items=0-1", of: 10), .whole)
        XCTAssertEqual(GalleryServer.byteRange("bytes=2-\(Int.max)", of: 10), .part(2..<10), "an end past any file: to the last byte")
        XCTAssertEqual(GalleryServer.byteRange("bytes=-\(Int.max)", of: 10), .part(0..<10))
    }

    func testPicturesAreServedByIdWithTheirTypes() async throws {
        let id = fixture.ids["bus"]!
        let original = try fixture.fileSystem.contents(of: "/photos/bus.jpg")
        try await get("/photos/\(id)/original") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "image/jpeg")
            XCTAssertEqual(response.headers[.contentDisposition], "inline; filename=\"bus.jpg\"; filename*=UTF-8''bus.jpg",
                           "saved under its own name")
            XCTAssertEqual(Data(buffer: response.body), original)
        }
        try await get("/photos/\(id)/variants/hide") { response in
            XCTAssertEqual(response.text, "hide picture")
            XCTAssertEqual(response.headers[.cacheControl], "private, no-cache", "made again under the same address")
        }
        try await get("/photos/\(id)/preview") { response in
            XCTAssertEqual(response.headers[.contentType], "image/jpeg")
            XCTAssertTrue(response.text.hasPrefix("jpeg 1200x800"), "a photo smaller than the preview is not enlarged: \(response.text)")
        }
    }

    func testAThumbnailIsMadeOnceAndKeptByContent() async throws {
        let id = fixture.ids["sea"]!
        try await get("/photos/\(id)/thumbnail") { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "image/jpeg")
            XCTAssertTrue(response.text.hasPrefix("jpeg 320x213"), response.text)
        }
        XCTAssertEqual(Array(fixture.thumbnails.jpegs.keys), [String(repeating: "0", count: 56) + "00000002"])
        try await get("/photos/\(id)/thumbnail") { response in
            XCTAssertTrue(response.text.hasPrefix("jpeg 320x213"))
        }
        XCTAssertEqual(fixture.decoder.decodeCount, 1, "the second request reads the kept thumbnail")
    }

    func testAPhotoWhoseFileIsGoneSaysSo() async throws {
        try fixture.fileSystem.remove("/photos/sea.jpg")
        fixture.fileSystem.expectedMissing = ["/photos/sea.jpg"]
        try await get("/photos/\(fixture.ids["sea"]!)/original") { response in
            XCTAssertEqual(response.status, .notFound)
            XCTAssertTrue(response.text.contains("cannot read the file"), response.text)
            XCTAssertTrue(response.text.contains("gallery check"))
        }
    }

    // MARK: Inspiration

    func testInspirationRanksThePhotosWithAnAccentAndLinksEach() async throws {
        let bus = fixture.ids["bus"]!
        try await get("/inspire") { response in
            XCTAssertEqual(response.status, .ok)
            let html = response.text
            XCTAssertTrue(html.contains(#"<a href="/photos/\#(bus)">bus.jpg</a>"#))
            XCTAssertTrue(html.contains("#1"))
            XCTAssertFalse(html.contains("snow.jpg"), "a photo without an accent is not offered")
            XCTAssertFalse(html.contains("Only the photos"))
            XCTAssertFalse(html.contains("left out"), "every file is there")
        }
        try await get("/inspire?colour=red&camera=canon") { response in
            XCTAssertTrue(response.text.contains(#"Only the photos whose accent is red, from cameras matching “canon” · <a href="/inspire">all of them</a>"#),
                          "a filtered list says so")
        }
        try await get("/inspire?since=2001-01-01&until=2030-12-31&folder=/photos") { response in
            XCTAssertTrue(response.text.contains("Only the photos taken since 2001-01-01, taken until 2030-12-31, in /photos · "), response.text)
        }
    }

    func testInspirationLeavesOutAPhotoWhoseFileIsGoneAsInspireDoes() async throws {
        let bus = fixture.ids["bus"]!, sea = fixture.ids["sea"]!
        fixture.fileSystem["/photos/bus.jpg"] = nil
        try await get("/inspire") { response in
            let html = response.text
            XCTAssertFalse(html.contains(#"href="/photos/\#(bus)""#), "no link to a page that says the file is gone")
            XCTAssertTrue(html.contains(#"<span class="rank">#1</span> <a href="/photos/\#(sea)">sea.jpg</a>"#), "the next takes its place")
            XCTAssertTrue(html.contains("1 photo whose file is gone is left out: <code>showhide gallery check</code> lists them"), html)
        }
        try await get("/api/inspire") { response in
            let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            XCTAssertEqual(entries.compactMap { ($0["photo"] as? [String: Any])?["id"] as? Int }, [Int(sea)], "as inspire --json lists them")
            XCTAssertEqual(entries.map { $0["rank"] as? Int }, [1])
        }
        // Every file gone (a drive not mounted): said so, not that no photo has an accent; beyond the limit, no further.
        let unmounted = GalleryPages().inspiration([], gone: InspirationService.mostPassedOver, readOnly: false)
        XCTAssertTrue(unmounted.contains("1000 photos whose files are gone are left out, and no more were looked at: "), unmounted)
        XCTAssertFalse(unmounted.contains("No photo has an accent colour"))
        XCTAssertTrue(GalleryPages().inspiration([], readOnly: false).contains("No photo has an accent colour to splash yet."))
    }

    func testInspirationListsAtMostAHundred() async throws {
        for index in 0..<100 {
            try fixture.add("red\(index)", [fixture.entry("#808080", 0.9), fixture.entry("#CC141E", 0.1)], accent: fixture.accent("#CC141E", coverage: 0.1))
        }
        try await get("/api/inspire") { response in
            let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            XCTAssertEqual(entries.count, 100, "of 102 with an accent")
        }
    }

    func testConsecutiveShotsOfOneSceneAreOneEntryOfInspiration() async throws {
        try fixture.add("bus-again", [fixture.entry("#808080", 0.9), fixture.entry("#CC141E", 0.1)],
                        accent: fixture.accent("#CB151F", coverage: 0.1), camera: "Canon EOS", taken: "2020:01:01 10:01:00")
        let again = fixture.ids["bus-again"]!
        try await get("/inspire") { response in
            let html = response.text
            XCTAssertTrue(html.contains("1 more shot of this scene:"), html)
            XCTAssertTrue(html.contains(##"<a href="/photos/\##(again)" title="#"##), "the other shot links to its page")
            XCTAssertFalse(html.contains(#"<a href="/photos/\#(again)">bus-again.jpg</a>"#), "and is no entry of its own")
        }
    }

    // MARK: The API

    func testTheAPIGivesTheCommandLinesShapes() async throws {
        try await get("/api/photos") { response in
            XCTAssertEqual(response.headers[.contentType], "application/json; charset=utf-8")
            let photos = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            XCTAssertEqual(photos.map { $0["path"] as? String }, ["/photos/sea.jpg", "/photos/snow.jpg", "/photos/bus.jpg"])
            XCTAssertEqual(Set(photos[0].keys), ["id", "path", "sha256", "format", "width", "height", "fileSize", "importedAt",
                                                 "exif", "palette", "dominant", "accent", "scene"])
        }
        try await get("/api/photos?colour=red") { response in
            let matches = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            XCTAssertEqual(matches.count, 1)
            XCTAssertEqual((matches[0]["match"] as? [String: Any])?["name"] as? String, "red")
        }
        try await get("/api/photos/\(fixture.ids["bus"]!)") { response in
            let photo = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            XCTAssertEqual((photo["variants"] as? [Any])?.count, 2)
            XCTAssertNotNil(photo["candidates"])
        }
        try await get("/api/inspire") { response in
            let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            XCTAssertEqual(entries.first?["rank"] as? Int, 1)
            XCTAssertNotNil(entries.first?["terms"])
        }
    }

    func testAPIPagesSayWhetherAnotherFollows() async throws {
        for index in 0..<GridQuery.pageSize {
            try fixture.add("extra\(index)", [fixture.entry("#777777", 1)])
        }
        try await get("/api/photos") { response in
            XCTAssertEqual(response.headers[HTTPField.Name("Next-Page")!], "2")
        }
        try await get("/api/photos?page=2") { response in
            XCTAssertNil(response.headers[HTTPField.Name("Next-Page")!])
        }
    }
}
