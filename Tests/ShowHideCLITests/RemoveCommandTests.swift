import ArgumentParser
import Catalogue
import Foundation
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class RemoveCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    let catalogue = FakeCatalogue()

    override func setUp() async throws {
        files["/lib/a.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "a", colour: "#D01020")
        files["/lib/b.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "b", colour: "#1F5AA6")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        .fake(console: spy.console, files: files, catalogue: catalogue)
    }

    func testValidationSaysWhatToGive() {
        XCTAssertThrowsError(try RemoveCommand.parse([])) { error in
            XCTAssertEqual(RemoveCommand.message(for: error), "Name the photos to remove: their ids, a scope (--in, --since, --until, --camera), or --missing.")
        }
        XCTAssertThrowsError(try RemoveCommand.parse(["1", "--missing"])) { error in
            XCTAssertEqual(RemoveCommand.message(for: error), "Give ids or --missing, not both.")
        }
    }

    func testRemovingByIdSaysWhatWentAndCountsInTheSingular() throws {
        try RemoveCommand.parse(["1"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["removed photo 1: /lib/a.jpg", "removed 1 photo and 0 variant files"])
        XCTAssertEqual(catalogue.allPhotos.map(\.id), [2])
    }

    /// A dry run says what would go, and the catalogue and files are as they were.
    func testADryRunSaysWhatWouldGoAndChangesNothing() throws {
        try RemoveCommand.parse(["--in", "/lib", "--dry-run"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["would remove photo 1: /lib/a.jpg", "would remove photo 2: /lib/b.jpg",
                                          "would remove 2 photos and 0 variant files; nothing was changed"])
        XCTAssertEqual(catalogue.allPhotos.map(\.id), [1, 2])
        spy.output.clear()
        try RemoveCommand.parse(["1", "--dry-run", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["dryRun"] as? Bool, true)
        XCTAssertEqual((json["removed"] as? [[String: Any]])?.map { $0["path"] as? String }, ["/lib/a.jpg"])
        spy.output.clear()
        files["/lib/b.jpg"] = nil
        try RemoveCommand.parse(["--missing", "--dry-run"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["would remove photo 2: /lib/b.jpg", "would remove 1 photo and 0 variant files; nothing was changed"])
        XCTAssertEqual(catalogue.allPhotos.map(\.id), [1, 2], "nothing forgotten")
    }

    func testMissingFilesAsJSON() throws {
        files["/lib/b.jpg"] = nil
        try RemoveCommand.parse(["--missing", "--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual((json["removed"] as? [[String: Any]])?.map { $0["path"] as? String }, ["/lib/b.jpg"])
        XCTAssertEqual((json["moved"] as? [Any])?.count, 0)
        XCTAssertEqual(json["variantFilesDeleted"] as? Int, 0)
    }

    func testPresenterNamesMovedPhotosForgottenDuplicatesAndFilesLeftBehind() {
        var summary = RemovalSummary()
        summary.moved = [(3, "/copy/c.jpg")]
        summary.forgottenDuplicates = ["/old/d.jpg"]
        summary.variantFilesDeleted = 2
        summary.variantFilesLeft = [("/library/variants/x.jpg", "permission denied")]
        XCTAssertNoThrow(try RemovePresenter(console: spy.console).present(summary, asJSON: false))
        XCTAssertEqual(spy.output.lines, ["photo 3 now at its duplicate /copy/c.jpg (its file was gone)",
                                          "forgot duplicate path /old/d.jpg (its file was gone)",
                                          "removed 0 photos and 2 variant files"])
        XCTAssertEqual(spy.errors.lines, ["could not delete variant file /library/variants/x.jpg: permission denied "
                                          + "(`gallery check --repair` removes it later)"])
    }
}
