import Catalogue
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Services
import TestSupport
import WebGallery
import XCTest

/// A click on an accent candidate makes it the photo's subject, stored in the catalogue.
final class SubjectChoiceRouteTests: XCTestCase {
    var fixture: GalleryFixture!
    let sameOrigin: HTTPFields = [HTTPField.Name("Origin")!: "http://localhost", .contentType: "application/x-www-form-urlencoded"]

    override func setUpWithError() throws {
        fixture = try GalleryFixture()
    }

    func post(_ uri: String, _ body: String, headers: HTTPFields? = nil, settings: GallerySettings = GallerySettings(),
              _ check: @escaping @Sendable (TestResponse) throws -> Void) async throws {
        let headers = headers ?? sameOrigin
        try await fixture.test(settings) { client in
            try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) { try check($0) }
        }
    }

    func testAPhotoPageOffersTheOtherCandidatesAndAChoiceIsStoredAndShown() async throws {
        let bus = fixture.ids["bus"]!
        try await fixture.test { client in
            try await client.execute(uri: "/photos/\(bus)", method: .get) { response in
                XCTAssertTrue(response.text.contains(#"<input type="hidden" name="candidate" value="2">"#), response.text)
                XCTAssertFalse(response.text.contains(#"name="candidate" value="1""#), "the accent is not offered again")
                XCTAssertFalse(response.text.contains("let the eye choose again"))
            }
        }
        try await post("/photos/\(bus)/subject", "candidate=2") { response in
            XCTAssertEqual(response.status, .seeOther)
            XCTAssertEqual(response.headers[.location], "/photos/\(bus)")
        }
        let colours = try XCTUnwrap(try fixture.catalogue.photo(id: bus)?.facts.colours)
        XCTAssertEqual(colours.accent?.name, .blue)
        XCTAssertTrue(colours.subjectChosen)
        try await fixture.test { client in
            try await client.execute(uri: "/photos/\(bus)", method: .get) { response in
                XCTAssertTrue(response.text.contains("· chosen by you"))
                XCTAssertTrue(response.text.contains(#"name="candidate" value="1""#), "the eye's accent is offered back")
                XCTAssertTrue(response.text.contains("let the eye choose again"))
            }
        }
        try await post("/api/photos/\(bus)/subject", "candidate=eye") { response in
            XCTAssertEqual(response.status, .ok)
            let photo = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            XCTAssertEqual((photo["accent"] as? [String: Any])?["name"] as? String, "red")
            XCTAssertNil(photo["subjectChosen"])
        }
        XCTAssertEqual(try fixture.catalogue.photo(id: bus)?.facts.colours?.subjectChosen, false)
    }

    func testAWrongChoiceIsA400AndNothingChanges() async throws {
        let bus = fixture.ids["bus"]!
        let cases: [(String, String, HTTPResponse.Status, String)] = [
            ("/photos/\(bus)/subject", "candidate=3", .badRequest, "has 2 accent candidates, not a candidate 3"),
            ("/photos/\(bus)/subject", "candidate=9", .badRequest, "candidate: give a candidate&#39;s rank, 1 to 3, or eye."),
            ("/photos/\(bus)/subject", "", .badRequest, "candidate: give"),
            ("/photos/999/subject", "candidate=1", .notFound, "There is no photo 999 in the catalogue."),
            ("/api/photos/\(bus)/subject", "candidate=two", .badRequest, "candidate: give a candidate's rank"),
            ("/photos/\(bus)/subject", String(repeating: "x", count: 20_000), .badRequest, "larger than the gallery takes"),
        ]
        for (uri, body, status, message) in cases {
            try await post(uri, body) { response in
                XCTAssertEqual(response.status, status, "\(uri) \(body.prefix(20))")
                XCTAssertTrue(response.text.contains(message), "\(uri): \(response.text)")
            }
        }
        XCTAssertEqual(try fixture.catalogue.photo(id: bus)?.facts.colours?.subjectChosen, false)
    }

    func testAChoiceFromAnotherSiteOrOnAReadOnlyCatalogueIsRefused() async throws {
        let bus = fixture.ids["bus"]!
        try await post("/photos/\(bus)/subject", "candidate=2", headers: [HTTPField.Name("Origin")!: "http://evil.example"]) { response in
            XCTAssertEqual(response.status, .forbidden)
        }
        try await post("/photos/\(bus)/subject", "candidate=2", settings: GallerySettings(readOnly: true)) { response in
            XCTAssertEqual(response.status, .forbidden)
            XCTAssertTrue(response.text.contains("read-only"))
        }
        try await fixture.test(GallerySettings(readOnly: true)) { client in
            try await client.execute(uri: "/photos/\(bus)", method: .get) { response in
                XCTAssertFalse(response.text.contains("<form method=\"post\""), "a read-only gallery offers no change")
            }
        }
        XCTAssertEqual(try fixture.catalogue.photo(id: bus)?.facts.colours?.subjectChosen, false)
    }
}
