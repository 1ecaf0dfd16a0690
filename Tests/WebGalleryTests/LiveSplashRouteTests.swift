import Catalogue
import ColourScience
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Imaging
import Services
import TestSupport
@testable import WebGallery
import XCTest

/// The photo page's controls: show and hide previewed live from a working copy, then made for real.
final class LiveSplashRouteTests: XCTestCase {
    var fixture: GalleryFixture!
    static let sameOrigin: HTTPFields = [HTTPField.Name("Origin")!: "http://localhost", .contentType: "application/x-www-form-urlencoded"]

    override func setUpWithError() throws {
        fixture = try GalleryFixture()
    }

    func testTheControlsParametersAreCheckedAndKeptInTheirQuery() throws {
        let query = try SplashQuery(query: "mode=hue&tolerance=20&feather=5.5&minChroma=30&candidate=2")
        XCTAssertEqual(query.method, .hue)
        XCTAssertEqual(query.queryString, "mode=hue&tolerance=20&feather=5.5&minChroma=30&candidate=2")
        XCTAssertEqual(try SplashQuery(query: "candidate=accent&tolerance=12").queryString, "", "defaults are left out")
        let options = query.processing()
        XCTAssertEqual(options.target, .candidate(2))
        XCTAssertEqual([options.tolerance, options.feather, options.minimumChroma], [20, 5.5, 30])
        for (text, message) in [("mode=paint", "mode: takes object or hue."), ("tolerance=181", "tolerance: takes a number from 0 to 180."),
                                ("feather=-1", "feather: takes a number from 0 to 180."), ("minChroma=nan", "minChroma: takes a number from 0 to 150."),
                                ("candidate=4", "candidate: takes accent, or a rank from 1 to 3.")] {
            XCTAssertThrowsError(try SplashQuery(query: text)) { error in
                XCTAssertEqual((error as? GalleryRequestError)?.message, message, text)
            }
        }
    }

    func testALiveSplashIsRenderedFromOneDecodeAtScreenSize() async throws {
        let bus = fixture.ids["bus"]!
        try await fixture.test { client in
            for uri in ["/photos/\(bus)/splash/show", "/photos/\(bus)/splash/hide?tolerance=30", "/photos/\(bus)/splash/show?mode=hue",
                        "/photos/\(bus)/preview"] {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .ok, uri)
                    XCTAssertEqual(response.headers[.contentType], "image/jpeg")
                    XCTAssertTrue(response.text.hasPrefix("jpeg 1200x800"), "\(uri): \(response.text)")
                    if uri.contains("/splash/") {
                        XCTAssertEqual(response.headers[.cacheControl], "private, no-cache", "a subject chosen changes the picture")
                    }
                }
            }
        }
        XCTAssertEqual(fixture.decoder.decodeCount, 1, "the working copy is decoded once")
        // The show picture keeps the accent's red in the middle of the fake photo, and greys the ground.
        let shown = try XCTUnwrap(fixture.encoder.encoded.first?.image)
        let centre = shown[600, 400], corner = shown[10, 10]
        XCTAssertGreaterThan(Int(centre.red) - Int(centre.green), 100, "\(centre)")
        XCTAssertEqual(Int(corner.red), Int(corner.green), accuracy: 2)
        // A splash saved from the browser says what made it; the preview is the photo's.
        XCTAssertEqual(fixture.encoder.encoded.map(\.options.xmp),
                       [ShowhidePictureMark.packet("show"), ShowhidePictureMark.packet("hide"), ShowhidePictureMark.packet("show"), nil])
    }

    func testASplashOfNothingOrAWrongParameterSaysWhy() async throws {
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("/photos/\(fixture.ids["snow"]!)/splash/show", .notFound, "has nothing to splash: no accent colour (no colour stands out)"),
            ("/photos/\(fixture.ids["bus"]!)/splash/show?candidate=3", .notFound, "no accent candidate of rank 3"),
            ("/photos/\(fixture.ids["bus"]!)/splash/both", .badRequest, "A splash is show or hide."),
            ("/photos/\(fixture.ids["bus"]!)/splash/show?tolerance=400", .badRequest, "tolerance: takes a number from 0 to 180."),
            ("/photos/\(fixture.ids["bus"]!)?mode=x", .badRequest, "mode: takes object or hue."),
            ("/photos/\(fixture.ids["bus"]!)?candidate=3", .badRequest, "candidate: photo \(fixture.ids["bus"]!) has 2 accent candidates, not 3."),
            ("/photos/\(fixture.ids["snow"]!)?candidate=1", .badRequest, "has no accent candidate, not 1."),
        ]
        try await fixture.test { client in
            for (uri, status, message) in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, status, uri)
                    XCTAssertTrue(response.text.contains(message), "\(uri): \(response.text)")
                }
            }
        }
    }

    func testThePageCarriesTheControlsIntoItsPicturesAndItsMakeForm() async throws {
        let bus = fixture.ids["bus"]!
        try await fixture.test { client in
            try await client.execute(uri: "/photos/\(bus)?tolerance=25&mode=hue", method: .get) { response in
                let html = response.text
                XCTAssertTrue(html.contains(#"src="/photos/\#(bus)/splash/show?mode=hue&amp;tolerance=25""#), html)
                XCTAssertTrue(html.contains(#"<input type="range" name="tolerance" min="0" max="180" step="1" value="25">"#))
                XCTAssertTrue(html.contains(#"<option value="hue" selected>hue</option>"#))
                XCTAssertTrue(html.contains(#"<input type="hidden" name="tolerance" value="25">"#))
                XCTAssertTrue(html.contains(#"<option value="2">candidate 2: blue #1F5AA6</option>"#))
            }
        }
    }

    func testMakeVariantsProcessesThePhotoWithTheFormsParameters() async throws {
        let bus = fixture.ids["bus"]!
        fixture.variantMaker.expected = true
        try await fixture.test { client in
            try await client.execute(uri: "/photos/\(bus)/variants", method: .post, headers: Self.sameOrigin,
                                     body: ByteBuffer(string: "candidate=2&mode=hue&tolerance=20&feather=10&minChroma=12")) { response in
                XCTAssertEqual(response.status, .seeOther)
                XCTAssertEqual(response.headers[.location], "/photos/\(bus)?mode=hue&tolerance=20&candidate=2")
            }
        }
        XCTAssertEqual(fixture.variantMaker.made.map(\.photos), [[bus]])
        let options = try XCTUnwrap(fixture.variantMaker.made.first?.options)
        XCTAssertEqual(options.target, .candidate(2))
        XCTAssertEqual(options.method, .hue)
        XCTAssertEqual(options.tolerance, 20)
    }

    func testMakeVariantsIsRefusedWhereNothingMayBeMade() async throws {
        let bus = fixture.ids["bus"]!
        try await fixture.test(GallerySettings(readOnly: true)) { client in
            try await client.execute(uri: "/photos/\(bus)/variants", method: .post, headers: Self.sameOrigin,
                                     body: ByteBuffer(string: "tolerance=20")) { response in
                XCTAssertEqual(response.status, .forbidden)
                XCTAssertTrue(response.text.contains("read-only"))
            }
            try await client.execute(uri: "/photos/\(bus)", method: .get) { response in
                XCTAssertFalse(response.text.contains("Make variants"))
            }
        }
        try await fixture.test { client in
            try await client.execute(uri: "/photos/\(bus)/variants", method: .post, headers: [HTTPField.Name("Origin")!: "http://evil.example"],
                                     body: ByteBuffer(string: "tolerance=20")) { response in
                XCTAssertEqual(response.status, .forbidden)
            }
            try await client.execute(uri: "/photos/\(bus)/variants", method: .post, headers: Self.sameOrigin,
                                     body: ByteBuffer(string: "tolerance=200")) { response in
                XCTAssertEqual(response.status, .badRequest)
            }
        }
        XCTAssertTrue(fixture.variantMaker.made.isEmpty)
    }

    func testTheWorkingCopiesKeepTheLastFew() throws {
        let copies = WorkingCopies(capacity: 2)
        var made = 0
        for key in ["a", "b", "a", "c", "a", "b"] {
            _ = copies.image(for: key) {
                made += 1
                return TestImage.solid(.red, width: 2, height: 2)
            }
        }
        XCTAssertEqual(made, 4, "a, b, c, then b again: c pushed it out; a was used last each time")
        XCTAssertEqual(copies.count, 2)
    }
}
