import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// Runs the built `showhide` binary as a user would.
final class BinaryTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    let binary = ShowhideBinary()

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ShowhideBinary.Run {
        try binary.run(arguments, environment: environment)
    }

    func write(_ data: Data, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    func testAnOutputThatCannotBeWrittenIsSaidInWordsWithItsStatus() throws {
        // /dev/full: every write fails with "no space left on device", as a full disk's would.
        let library = directory.appendingPathComponent("library").path
        let png = try write(try ImageCodec().encode(TestImage.twoByTwo(.red, .green, .blue, .white), as: .png, options: EncodeOptions()), "a.png")
        XCTAssertEqual(try run(["gallery", "import", png, "--library", library]).status, 0)
        let full = try binary.run(["gallery", "list", "--library", library], launcher: ["/bin/sh", "-c", #"exec "$0" "$@" > /dev/full"#])
        XCTAssertEqual(full.status, 74)
        XCTAssertEqual(full.errors, "showhide: cannot write the output: no space left on device\n", "no trap, no stack")
        let help = try binary.run(["gallery", "--help"], launcher: ["/bin/sh", "-c", #"exec "$0" "$@" > /dev/full"#])
        XCTAssertEqual(help.status, 74, "the help too")
        XCTAssertEqual(help.errors, "showhide: cannot write the output: no space left on device\n")
    }

    func testAnErrorOutputThatCannotBeWrittenLosesTheMessageNotTheStatus() throws {
        let library = directory.appendingPathComponent("library").path
        let missing = directory.appendingPathComponent("missing").path
        for (arguments, status) in [(["gallery", "list", "--frob"], Int32(64)), (["gallery", "import", missing, "--library", library], 66)] {
            for redirection in ["2> /dev/full", "2>&-"] {
                let result = try binary.run(arguments, launcher: ["/bin/sh", "-c", #"exec "$0" "$@" "# + redirection])
                XCTAssertEqual(result.reason, .exit, "\(arguments) \(redirection): no trap")
                XCTAssertEqual(result.status, status, "\(arguments) \(redirection)")
            }
        }
    }

    func testHelpListsTheCommands() throws {
        let result = try run(["--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("inspect"), result.output)
        XCTAssertTrue(result.output.contains("Exit statuses"), result.output)
    }

    func testInspectsGeneratedPhotosAndSurvivesBrokenOnes() throws {
        let codec = ImageCodec()
        let jpeg = try write(try codec.encode(TestImage.gradient(width: 64, height: 48), as: .jpeg,
                                              options: EncodeOptions(exif: ExifFixture.camera().encoded())), "camera.jpg")
        let png = try write(try codec.encode(TestImage.twoByTwo(.red, .green, .blue, .white), as: .png, options: EncodeOptions()), "tiny.PNG")
        let truncated = try write(try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(300), "cut.jpg")
        let random = try write(Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), "noise.jpg")
        let empty = try write(Data(), "empty.png")
        let missing = directory.appendingPathComponent("missing.jpg").path

        let result = try run(["inspect", "--json", jpeg, png, truncated, random, empty, missing])

        XCTAssertEqual(result.reason, .exit, "the process exits, it does not crash")
        XCTAssertEqual(result.status, 1, "some files failed")
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let photos = try XCTUnwrap(report["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.map { $0["path"] as? String }, [jpeg, png])
        XCTAssertEqual((photos[0]["exif"] as? [String: Any])?["model"] as? String, "FX-100")
        XCTAssertEqual(photos[1]["format"] as? String, "png")
        let failures = try XCTUnwrap(report["failures"] as? [[String: String]])
        XCTAssertEqual(failures.map { $0["path"] }, [truncated, random, empty, missing])
        XCTAssertTrue(failures[0]["reason"]?.contains("ends too early") == true, "\(failures[0])")
        XCTAssertEqual(failures[1]["reason"], "not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
        XCTAssertEqual(failures[2]["reason"], "the file is empty")
        XCTAssertTrue(failures[3]["reason"]?.hasPrefix("cannot read the file") == true)
    }

    func testAllGoodFilesExitZeroWithATable() throws {
        let png = try write(try ImageCodec().encode(TestImage.solid(.blue, width: 3, height: 2), as: .png, options: EncodeOptions()), "blue.png")
        let result = try run(["inspect", png], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("PNG     3×2"), result.output)
        XCTAssertFalse(result.output.contains("\u{1B}["), "no colour codes")
    }

    func testAWrongArgumentExitsWithTheUsageStatus() throws {
        let result = try run(["inspect"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.errors.contains("Name at least one file"), result.errors)
    }
}

/// The `showhide` built beside this test bundle, run as a separate process.
struct ShowhideBinary {
    struct Run {
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
        var errors: String
    }

    var url: URL {
        var url = Bundle(for: BinaryTests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("showhide")
        if !FileManager.default.fileExists(atPath: url.path) {
            url = Bundle.main.bundleURL.appendingPathComponent("showhide")
        }
        return url
    }

    /// This process's environment with `extra` on top. Under `scripts/asan` the binary gets its own
    /// sanitizer options (leaks detected in it, not in the test process: see scripts/asan).
    /// A value that takes the variable out of the environment rather than setting it.
    static let unset = "\u{0}unset"

    static func environment(merging extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        for (name, value) in extra where value == unset { environment[name] = nil }
        if let options = environment["SHOWHIDE_BINARY_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = options }
        return environment
    }

    /// Runs showhide, directly or through a `launcher` command (`setpriv --reuid=65534 …`).
    func run(_ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
             launcher: [String] = []) throws -> Run {
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? url
        let arguments = launcher.isEmpty ? arguments : launcher.dropFirst() + [url.path] + arguments
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.arguments = arguments
        process.environment = Self.environment(merging: environment)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, reason: process.terminationReason,
                   output: String(decoding: outputData, as: UTF8.self), errors: String(decoding: errorData, as: UTF8.self))
    }
}

extension BinaryTests {
    func testVersionNamesTheCommitItWasBuiltFrom() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0)
        let pattern = #"^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}( with local changes)?|unknown)\)\n$"#
        XCTAssertNotNil(result.output.range(of: pattern, options: .regularExpression), result.output)
    }

    /// libheif and the codecs it loads are loaded by the first HEIF file, not at start, and libtiff and
    /// its compressors by the first TIFF: a command that meets none does not pay for them (the HEIC
    /// photos of OrientationBinaryTests load libheif, the TIFFs of the import tests libtiff).
    func testLibheifAndLibtiffAreNotLoadedAtStart() throws {
        // glibc's loader lists what it would load, and stops.
        let listed = try run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        XCTAssertEqual(listed.status, 0, listed.errors)
        XCTAssertTrue(listed.output.contains("libjpeg.so"), listed.output)
        XCTAssertFalse(listed.output.contains("libheif"), listed.output)
        XCTAssertFalse(listed.output.contains("libde265"), listed.output)
        XCTAssertFalse(listed.output.contains("libtiff"), listed.output)
        XCTAssertFalse(listed.output.contains("libLerc"), listed.output)
    }

    static let commands = [["gallery", "import"], ["gallery", "list"], ["gallery", "search"], ["gallery", "show"],
                           ["gallery", "process"], ["gallery", "analyse"], ["gallery", "remove"], ["gallery", "variants"],
                           ["gallery", "backup"], ["gallery", "check"], ["gallery", "failures"], ["export"], ["inspire"], ["inspect"]]

    func testHelpShowsEachDefaultOnceAndPointsToTheManual() throws {
        XCTAssertTrue(try run(["--help"]).output.contains("man showhide"))
        for command in Self.commands {
            let help = try run(command + ["--help"])
            XCTAssertEqual(help.status, 0, "\(command)")
            // Each option's entry: from a line starting "  -" to the next.
            let entries = help.output.components(separatedBy: "\n  -")
            for entry in entries {
                let defaults = entry.components(separatedBy: "default").count - 1
                XCTAssertLessThanOrEqual(defaults, 1, "\(command): \(entry)")
            }
            XCTAssertFalse(help.output.contains("Docs/"), "\(command): an installed user has no Docs folder")
        }
    }

    func testCompletionScriptsAreGenerated() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, shell)
            XCTAssertTrue(result.output.contains("gallery"), shell)
        }
    }
}
