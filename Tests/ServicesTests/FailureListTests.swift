import Catalogue
import Foundation
import Services
import TestSupport
import XCTest

final class FailureListTests: XCTestCase {
    func testFailuresAreForgottenWithinThePathsGivenOrAll() throws {
        let catalogue = FakeCatalogue()
        let paths = ["/photos/trip/a.jpg", "/photos/trip/deep/b.jpg", "/photos/tripod/c.jpg", "/elsewhere/d.jpg"]
        try catalogue.write { writer in
            for path in paths { try writer.recordFailure(ImportFailure(path: path, reason: "corrupt", failedAt: Date())) }
        }
        let list = FailureList(catalogue: catalogue)
        XCTAssertEqual(try list.clear(within: ["/photos/trip"]).sorted(), ["/photos/trip/a.jpg", "/photos/trip/deep/b.jpg"],
                       "a folder's own, not its namesake's")
        XCTAssertEqual(try catalogue.failures().map(\.path).sorted(), ["/elsewhere/d.jpg", "/photos/tripod/c.jpg"])
        XCTAssertEqual(try list.clear().sorted(), ["/elsewhere/d.jpg", "/photos/tripod/c.jpg"])
        XCTAssertEqual(try catalogue.failures(), [])
    }
}
