import ArgumentParser
import Catalogue
import Foundation
import Imaging
import Services
import WebGallery

/// `showhide serve [--port N] [--open] [--host ADDR]`
struct ServeCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Browse the catalogue in a web browser: the photos, their colours, show and hide, inspiration.",
        discussion: """
        Serves the catalogue at http://127.0.0.1:PORT/ until Ctrl-C, on this computer only. Imports made meanwhile \
        show on the next page load. --host binds another address, which other computers can reach: the gallery then \
        asks for an access token, printed once with its address and kept in the library folder (serve-token). \
        Exit status 69 when the catalogue cannot be opened or the port is taken.
        """
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
    var port = 8080

    @Flag(name: .long, help: "Open the gallery in the browser once it listens.")
    var open = false

    @Option(name: .long, help: ArgumentHelp(
        "Listen on this address instead of 127.0.0.1 (0.0.0.0: every network); the gallery then needs its access token.",
        valueName: "address"))
    var host: String?

    @OptionGroup var library: LibraryOptions

    static let tokenFileName = LibraryFolder.accessToken

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a port from 1 to 65535 (or 0 for any free port).") }
        if let host, host.isEmpty || host.contains(where: { $0.isWhitespace || $0 == "/" }) {
            throw ValidationError("--host takes an address, such as 0.0.0.0 or 192.168.1.20.")
        }
    }

    var isLoopback: Bool { host.map { GallerySettings.loopbackNames.contains($0.lowercased()) } ?? true }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        let directory = library.directory(in: environment)
        let address = host ?? "127.0.0.1"
        var settings = GallerySettings(readOnly: catalogue.isReadOnly)
        if isLoopback {
            settings.allowedHostNames = GallerySettings.loopbackNames
        } else {
            settings.accessToken = try accessToken(in: directory, environment: environment)
        }
        let console = environment.console
        let server = environment.galleryServer(catalogue: catalogue, libraryDirectory: directory, settings: settings)
        let open = open
        let settingsChosen = settings
        do {
            // Every network's address is no address to open: another computer opens this one's name.
            let shownHost = ["0.0.0.0", "::"].contains(address) ? environment.hostName() : address
            try await environment.serveGallery(server, address, port) { port in
                let shown = shownHost.contains(":") ? "[\(shownHost)]" : shownHost
                var url = "http://\(shown):\(port)/"
                if let token = settingsChosen.accessToken {
                    url += "?token=\(token)"
                    console.warn("showhide: warning: the gallery is reachable from the network at \(address); "
                                 + "it asks for its access token, which is in the address below and in \(directory)/\(Self.tokenFileName)")
                }
                console.print("serving \(directory) at \(url)" + (settingsChosen.readOnly ? " (read-only)" : "") + "; Ctrl-C stops")
                if open { environment.openInBrowser(url) }
            }
        } catch {
            console.warn("showhide: \(error.plainDescription)")
            throw ExitStatus.unavailable
        }
    }

    /// The library's access token: the one kept there, or a new one, kept where only its owner can read it
    /// (one kept by an earlier showhide, readable by everyone, is written again so).
    func accessToken(in directory: String, environment: AppEnvironment) throws -> String {
        let path = (directory as NSString).appendingPathComponent(Self.tokenFileName)
        var token = environment.newSecret()
        if environment.fileSystem.exists(path), let data = try? environment.fileSystem.contents(of: path),
           let kept = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), kept.count >= 32 {
            token = kept
        }
        do {
            try environment.fileSystem.writePrivately(Data((token + "\n").utf8), to: path)
        } catch {
            environment.console.warn("showhide: cannot keep the access token in \(path): \(error.plainDescription)")
            throw ExitStatus.cannotCreate
        }
        return token
    }
}
