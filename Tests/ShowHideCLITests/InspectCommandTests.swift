import ArgumentParser
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import ColourScience
import XCTest

final class InspectCommandTests: XCTestCase {
    let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 1])
    let spy = SpyConsole()
    let decoder = StubDecoder()
    let exifReader = StubExifReader()

    func environment(files: [String: Data]) -> AppEnvironment {
        .fake(console: spy.console, files: FakeFileSystem(files: files), catalogue: FakeCatalogue(), decoder: decoder,
              encoder: UnusedEncoder(), exifReader: exifReader, variables: [:])
    }

    func stubPhoto() {
        decoder.stub(jpegBytes, with: .success(DecodedImage(
            format: .jpeg, originalSize: PixelSize(width: 640, height: 480), image: TestImage.solid(.red))))
        exifReader.stub(jpegBytes, with: .success(ExifMetadata(
            make: "Canon", model: "Canon EOS 40D", takenAt: ExifDateTime(exif: "2008:05:30 15:56:01"), iso: 100)))
    }

    func testNeedsAtLeastOneFile() {
        XCTAssertThrowsError(try InspectCommand.parse([])) { error in
            XCTAssertEqual(InspectCommand.exitCode(for: error), ExitStatus.usage)
            XCTAssertTrue(InspectCommand.message(for: error).contains("Name at least one file"))
        }
    }

    func testPrintsATableOfReadableFiles() throws {
        stubPhoto()
        let command = try InspectCommand.parse(["a.jpg"])
        try command.run(in: environment(files: ["a.jpg": jpegBytes]))
        XCTAssertEqual(spy.output.lines, [
            "FILE   FORMAT  PIXELS   CAMERA         TAKEN",
            "a.jpg  JPEG    640×480  Canon EOS 40D  2008-05-30T15:56:01",
        ])
        XCTAssertEqual(spy.errors.text, "")
    }

    func testListsFailuresOnStandardErrorAndExitsWithStatusOne() throws {
        stubPhoto()
        let command = try InspectCommand.parse(["a.jpg", "bad.jpg"])
        XCTAssertThrowsError(try command.run(in: environment(files: ["a.jpg": jpegBytes, "bad.jpg": Data("x".utf8)]))) { error in
            XCTAssertEqual(error as? ExitCode, ExitStatus.someFilesFailed)
        }
        XCTAssertEqual(spy.output.lines.count, 2)
        XCTAssertEqual(spy.errors.lines, [
            "showhide: bad.jpg: not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)",
            "1 readable, 1 failed",
        ])
    }

    func testPrintsDocumentedJSON() throws {
        stubPhoto()
        let command = try InspectCommand.parse(["a.jpg", "bad.jpg", "--json"])
        XCTAssertThrowsError(try command.run(in: environment(files: ["a.jpg": jpegBytes, "bad.jpg": Data()])))
        let json = try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any]
        let photos = try XCTUnwrap(json?["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.count, 1)
        XCTAssertEqual(photos[0]["path"] as? String, "a.jpg")
        XCTAssertEqual(photos[0]["format"] as? String, "jpeg")
        XCTAssertEqual(photos[0]["width"] as? Int, 640)
        XCTAssertEqual(photos[0]["height"] as? Int, 480)
        XCTAssertEqual(photos[0]["fileSize"] as? Int, 5)
        let exif = try XCTUnwrap(photos[0]["exif"] as? [String: Any])
        XCTAssertEqual(exif["make"] as? String, "Canon")
        XCTAssertEqual(exif["takenAt"] as? String, "2008-05-30T15:56:01")
        XCTAssertEqual(exif["iso"] as? Int, 100)
        XCTAssertNil(exif["gps"], "absent when the file has none")
        // The eye's judgement and its reasons: a frame of one red has a red candidate and no accent.
        let eye = try XCTUnwrap(photos[0]["eye"] as? [String: Any])
        XCTAssertEqual(eye["scene"] as? String, "ordinary")
        XCTAssertTrue(eye["accent"] is NSNull, "a colour filling the frame is none")
        XCTAssertEqual(eye["accentThreshold"] as? Double, LearnedWeights.accent.threshold)
        XCTAssertNotNil(eye["colourTargetProbability"] as? Double)
        XCTAssertNotNil(eye["busySceneProbability"] as? Double)
        let sceneFeatures = try XCTUnwrap(eye["sceneFeatures"] as? [String: Any])
        XCTAssertEqual(Set(sceneFeatures.keys), ["hueFamilies", "hueEntropy", "meanChroma", "mixedCells", "spreadHues", "vividRegions",
                                                  "scatteredFamilies", "chromaticPieces", "edgeDensity", "latticePatches"])
        let candidates = try XCTUnwrap(eye["candidates"] as? [[String: Any]])
        XCTAssertEqual(candidates.first?["name"] as? String, "red")
        let features = try XCTUnwrap(candidates.first?["features"] as? [String: Any])
        XCTAssertEqual(features["coverage"] as? Double, 1)
        XCTAssertEqual(features["edgeShare"] as? Double, 1)
        XCTAssertNotNil(candidates.first?["probability"] as? Double)
        XCTAssertGreaterThan(try XCTUnwrap(features["coverage"] as? Double), AccentFinder.largestShare, "why it is none: it fills the frame")
        let failures = try XCTUnwrap(json?["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.first?["path"] as? String, "bad.jpg")
        XCTAssertEqual(failures.first?["reason"] as? String, "the file is empty")
        XCTAssertEqual(spy.errors.text, "", "JSON mode keeps standard error for real errors")
    }

    func testTheRootCommandKnowsTheSubcommand() throws {
        let parsed = try ShowHideCommand.parseAsRoot(["inspect", "x.jpg", "--json"])
        let inspect = try XCTUnwrap(parsed as? InspectCommand)
        XCTAssertEqual(inspect.files, ["x.jpg"])
        XCTAssertTrue(inspect.json)
    }
}
