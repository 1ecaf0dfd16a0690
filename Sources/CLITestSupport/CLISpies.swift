import ArgumentParser
import Catalogue
import Foundation
import Imaging
import Services
import ShowHideCLI
@_exported import TestSupport
import XCTest

/// Collects what a presenter or command writes.
public final class SpyOutput: TextOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [String] = []

    public init() {}

    public func write(_ text: String) {
        lock.lock()
        chunks.append(text)
        lock.unlock()
    }

    /// Forgets what was written.
    public func clear() {
        lock.withLock { chunks.removeAll() }
    }

    /// Everything written, joined.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return chunks.joined()
    }

    /// Everything written, split into lines (without the final empty one).
    public var lines: [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// A console whose two streams are spies.
public struct SpyConsole {
    public let output = SpyOutput()
    public let errors = SpyOutput()
    public let console: Console

    /// - Parameter width: the terminal's columns (nil: a pipe, whole lines).
    public init(errorsIsTerminal: Bool = false, usesColour: Bool = false, width: Int? = nil) {
        console = Console(output: output, errors: errors, errorsIsTerminal: errorsIsTerminal, usesColour: usesColour, width: width)
    }
}

extension AppEnvironment {
    /// The environment command tests run in: fake photos and EXIF, a fixed clock, this catalogue
    /// whatever folder is asked for, the library at /library, two cores, and zips that must not be made.
    public static func fake(console: Console, files: FakeFileSystem, catalogue: any PhotoCatalogue,
                            decoder: any ImageDecoding = FakePhotoCodec(), encoder: any ImageEncoding = RecordingEncoder(),
                            exifReader: any ExifReading = FakeExifReader(), clock: any WallClock = FakeClock(),
                            variables: [String: String] = ["SHOWHIDE_LIBRARY": "/library"],
                            thumbnails: FakeThumbnailCache = FakeThumbnailCache(),
                            currentDirectory: String = "/") -> AppEnvironment {
        var environment = AppEnvironment(
            console: console, fileSystem: files, decoder: decoder, encoder: encoder, exifReader: exifReader,
            hasher: CryptoHasher(), clock: clock, jobRunner: InlineJobRunner(), openCatalogue: { _, _ in catalogue },
            variables: variables,
            homeDirectory: "/home/user", currentDirectory: currentDirectory, processorCount: 2,
            makeZip: { path, _, _ in
                XCTFail("unexpected zip \(path)")
                throw UnexpectedZip()
            })
        environment.openThumbnailCache = { _ in thumbnails }
        environment.serveGallery = { _, host, port, _ in XCTFail("unexpected server at \(host):\(port)") }
        environment.openInBrowser = { XCTFail("unexpected browser at \($0)") }
        environment.newSecret = { String(repeating: "5e", count: 32) }
        environment.hostName = { "studio" }
        return environment
    }

    struct UnexpectedZip: Error {}
}

/// Runs a command's `body`, which must end by throwing the exit status `status`.
public func assertExits(with status: ExitCode, _ why: String, file: StaticString = #filePath, line: UInt = #line,
                        _ body: () async throws -> Void) async {
    do {
        try await body()
        XCTFail("exited 0: \(why)", file: file, line: line)
    } catch let exit as ExitCode {
        XCTAssertEqual(exit, status, why, file: file, line: line)
    } catch {
        XCTFail("\(error), not exit status \(status.rawValue): \(why)", file: file, line: line)
    }
}
