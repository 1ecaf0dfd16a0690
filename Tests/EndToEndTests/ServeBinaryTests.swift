import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `showhide serve` as a user runs it: a real socket on loopback, imports beside it, Ctrl-C.
final class ServeBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    var library: String { directory.appendingPathComponent("library").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-serve-\(UUID().uuidString)")
        try LibraryFixture.writePhotos(12, into: directory.appendingPathComponent("first"))
        let imported = try binary.run(["gallery", "import", directory.appendingPathComponent("first").path, "--library", library])
        XCTAssertEqual(imported.status, 0, imported.errors)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }


    func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func testServesTheCatalogueShowsNewImportsAndStopsOnCtrlC() async throws {
        let running = try RunningShowhide(binary, ["serve", "--port", "0", "--library", library], outputFolder: directory)
        let base = try XCTUnwrap(running.servingAddress(), running.wait().errors)
        XCTAssertTrue(base.hasPrefix("http://127.0.0.1:"), base)

        let grid = try await get(base)
        XCTAssertEqual(grid.status, 200)
        XCTAssertEqual(grid.body.components(separatedBy: "class=\"cell\"").count - 1, 12)
        let photos = try await get(base + "api/photos")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(photos.body.utf8)) as? [Any])?.count, 12)
        let thumbnail = try await get(base + "photos/1/thumbnail")
        XCTAssertEqual(thumbnail.status, 200)

        // An import beside the server: its photos are on the next page load.
        try LibraryFixture.writePhotos(5, into: directory.appendingPathComponent("second"), size: 64)
        let more = try binary.run(["gallery", "import", directory.appendingPathComponent("second").path, "--library", library])
        XCTAssertEqual(more.status, 0, more.errors)
        let after = try await get(base + "api/photos")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(after.body.utf8)) as? [Any])?.count, 17)

        kill(running.process.processIdentifier, SIGINT)
        let stopped = running.wait()
        XCTAssertEqual(stopped.status, 0, stopped.errors)
        XCTAssertEqual(stopped.reason, .exit, "it ended itself, not killed by the signal")
    }

    func testAPortInUseExits69() async throws {
        let first = try RunningShowhide(binary, ["serve", "--port", "0", "--library", library], outputFolder: directory)
        let base = try XCTUnwrap(first.servingAddress(), first.wait().errors)
        let port = try XCTUnwrap(base.split(separator: ":").last.map { String($0.dropLast()) })
        let second = try binary.run(["serve", "--port", port, "--library", library])
        XCTAssertEqual(second.status, 69)
        XCTAssertEqual(second.errors, "showhide: cannot listen on 127.0.0.1 port \(port): address already in use; give another with --port\n",
                       "the system's reason in words, not NIO's description of its call")
        kill(first.process.processIdentifier, SIGTERM)
        XCTAssertEqual(first.wait().status, 0)
    }

    func testAnAddressThatIsNoneOfThisComputersExits69InWords() throws {
        let run = try binary.run(["serve", "--host", "no-such-host.invalid", "--port", "0", "--library", library])
        XCTAssertEqual(run.status, 69)
        XCTAssertTrue(run.errors.hasPrefix("showhide: cannot listen on no-such-host.invalid port 0: no such address on this computer"), run.errors)
        XCTAssertFalse(run.errors.contains("SocketAddressError"), run.errors)
    }
}
