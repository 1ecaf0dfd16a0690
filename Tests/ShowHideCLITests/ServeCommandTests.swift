import ArgumentParser
import Catalogue
import CatalogueSQLite
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import WebGallery
import XCTest

final class ServeCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()

    /// Where the command asked to serve, and with what settings.
    final class ServerSpy: @unchecked Sendable {
        let lock = NSLock()
        var calls: [(host: String, port: Int, settings: GallerySettings)] = []
        var opened: [String] = []
    }

    func environment(_ spyServer: ServerSpy, catalogue: any PhotoCatalogue, failure: (any Error)? = nil) throws -> AppEnvironment {
        var environment = AppEnvironment.fake(console: spy.console, files: files, catalogue: catalogue)
        environment.serveGallery = { server, host, port, onRunning in
            spyServer.lock.withLock { spyServer.calls.append((host, port, server.settings)) }
            if let failure { throw failure }
            await onRunning(port == 0 ? 43_210 : port)
        }
        environment.openInBrowser = { url in spyServer.lock.withLock { spyServer.opened.append(url) } }
        return environment
    }

    func testValidation() {
        let refused: [([String], String)] = [
            (["--port", "70000"], "--port takes a port from 1 to 65535 (or 0 for any free port)."),
            (["--port", "-1"], "--port takes a port from 1 to 65535 (or 0 for any free port)."),
            (["--port=-1"], "--port takes a port from 1 to 65535 (or 0 for any free port)."),
            (["--host", ""], "--host takes an address, such as 0.0.0.0 or 192.168.1.20."),
            (["--host", "a b"], "--host takes an address, such as 0.0.0.0 or 192.168.1.20."),
            (["--host", "0.0.0.0/24"], "--host takes an address, such as 0.0.0.0 or 192.168.1.20."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try ServeCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(ServeCommand.message(for: error), message, "\(arguments)")
            }
        }
    }

    func testServesOnLoopbackWithoutATokenAndSaysWhere() async throws {
        let server = ServerSpy()
        try await ServeCommand.parse(["--port", "0", "--open"]).run(in: try environment(server, catalogue: try SQLiteCatalogue.inMemory()))
        XCTAssertEqual(server.calls.map(\.host), ["127.0.0.1"])
        XCTAssertEqual(server.calls.map(\.port), [0])
        XCTAssertNil(server.calls[0].settings.accessToken)
        XCTAssertEqual(server.calls[0].settings.allowedHostNames, GallerySettings.loopbackNames)
        XCTAssertFalse(server.calls[0].settings.readOnly)
        XCTAssertEqual(spy.output.text, "serving /library at http://127.0.0.1:43210/; Ctrl-C stops\n")
        XCTAssertEqual(server.opened, ["http://127.0.0.1:43210/"])
        XCTAssertEqual(spy.errors.text, "")
        XCTAssertTrue(files.writtenPaths.isEmpty, "no token is made for loopback")
    }

    func testAnotherAddressNeedsATokenKeptInTheLibraryAndWarns() async throws {
        let server = ServerSpy()
        let catalogue = try SQLiteCatalogue.inMemory()
        try await ServeCommand.parse(["--host", "0.0.0.0"]).run(in: try environment(server, catalogue: catalogue))
        let token = String(repeating: "5e", count: 32)
        XCTAssertEqual(server.calls[0].settings.accessToken, token)
        XCTAssertNil(server.calls[0].settings.allowedHostNames)
        XCTAssertEqual(try files.contents(of: "/library/serve-token"), Data((token + "\n").utf8))
        XCTAssertEqual(files.privatePaths, ["/library/serve-token"], "a secret, readable by its owner alone")
        XCTAssertTrue(spy.errors.text.contains("warning: the gallery is reachable from the network at 0.0.0.0"), spy.errors.text)
        XCTAssertEqual(spy.output.text, "serving /library at http://studio:8080/?token=\(token); Ctrl-C stops\n",
                       "another computer opens this one's name, not 0.0.0.0")

        // The token kept is the one used next time; kept by an earlier showhide for all to read, it is kept privately now.
        let kept = String(repeating: "a1", count: 32)
        try files.writeAtomically(Data(kept.utf8), to: "/library/serve-token")
        try await ServeCommand.parse(["--host", "::"]).run(in: try environment(server, catalogue: catalogue))
        XCTAssertEqual(server.calls[1].settings.accessToken, kept)
        XCTAssertEqual(files.privatePaths, ["/library/serve-token"])
        XCTAssertTrue(spy.output.text.contains("http://studio:8080/?token=\(kept)"), spy.output.text)
    }

    func testAPortThatCannotBeUsedExits69() async throws {
        let server = ServerSpy()
        do {
            try await ServeCommand.parse(["--port", "8080"]).run(in: try environment(server, catalogue: try SQLiteCatalogue.inMemory(),
                                                                                     failure: GalleryServerError.cannotListen(host: "127.0.0.1", port: 8080, reason: "Address already in use")))
            XCTFail("expected exit 69")
        } catch let error as ExitCode {
            XCTAssertEqual(error, ExitStatus.unavailable)
        }
        XCTAssertEqual(spy.errors.text, "showhide: cannot listen on 127.0.0.1 port 8080: address already in use; give another with --port\n")
    }
}
