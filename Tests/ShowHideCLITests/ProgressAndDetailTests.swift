import Catalogue
import Foundation
import Imaging
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class ProgressAndDetailTests: XCTestCase {
    func testTheProgressLineShowsCountRateAndETA() {
        XCTAssertEqual(ProgressBar.line(completed: 25, total: 100, elapsed: 5, width: 10), "[==>       ] 25/100  5.0/s  ETA 0:15")
        XCTAssertEqual(ProgressBar.line(completed: 100, total: 100, elapsed: 10, width: 10), "[==========] 100/100  10.0/s")
        XCTAssertEqual(ProgressBar.line(completed: 0, total: 0, elapsed: 0, width: 4), "[====] 0/0  0.0/s")
        // Narrowed to the terminal: the whole line where it fits in all but the last column, a shorter bar, the counts alone.
        let whole = ProgressBar.line(completed: 25, total: 100, elapsed: 5, width: 30)
        XCTAssertEqual(ProgressBar.fitted(completed: 25, total: 100, elapsed: 5, columns: nil), whole)
        XCTAssertEqual(ProgressBar.fitted(completed: 25, total: 100, elapsed: 5, columns: whole.count + 1), whole)
        XCTAssertEqual(ProgressBar.fitted(completed: 25, total: 100, elapsed: 5, columns: 40), "[===>         ] 25/100  5.0/s  ETA 0:15")
        XCTAssertEqual(ProgressBar.fitted(completed: 25, total: 100, elapsed: 5, columns: 20), "25/100")
        XCTAssertEqual(ProgressBar.fitted(completed: 1234, total: 99999, elapsed: 3, columns: 10), "1234", "no total cut to 9999")
        XCTAssertEqual(ProgressBar.fitted(completed: 1234, total: 99999, elapsed: 3, columns: 4), "")
        for columns in [10, 20, 31, 40, 59, 80] {
            XCTAssertLessThan(ProgressBar.fitted(completed: 1234, total: 99999, elapsed: 3, columns: columns).count, columns)
        }
    }

    func testTheProgressBarRedrawsAtMostTenTimesASecond() {
        let spy = SpyConsole(errorsIsTerminal: true)
        let clock = FakeClock()
        let bar = ProgressBar(console: spy.console, clock: clock)
        bar.update(completed: 0, total: 10)
        bar.update(completed: 1, total: 10) // too soon: not drawn
        clock.advance(by: 0.2)
        bar.update(completed: 2, total: 10)
        bar.update(completed: 10, total: 10) // the end is always drawn
        bar.finish()
        XCTAssertEqual(spy.errors.text.components(separatedBy: "\r").filter { !$0.isEmpty }.count, 4)
        XCTAssertFalse(spy.errors.text.contains(" 1/10"))
    }

    func testTheProgressBarUsesNoTerminalControlButTheCarriageReturn() {
        let spy = SpyConsole(errorsIsTerminal: true)
        let clock = FakeClock()
        let bar = ProgressBar(console: spy.console, clock: clock)
        bar.update(completed: 0, total: 1000)
        clock.advance(by: 1)
        bar.update(completed: 500, total: 1000)
        clock.advance(by: 1)
        bar.update(completed: 1000, total: 1000) // no ETA now: shorter than the line before
        bar.finish()
        let text = spy.errors.text
        XCTAssertFalse(text.contains("\u{1B}"), "a dumb terminal shows no escape")
        let lines = text.components(separatedBy: "\r").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(lines[1].contains("ETA"))
        XCTAssertLessThan(lines[2].trimmingCharacters(in: .whitespaces).count, lines[1].count)
        XCTAssertEqual(lines[2].count, lines[1].count, "the shorter line is padded over the longer one")
        XCTAssertEqual(lines[3], String(repeating: " ", count: lines[2].trimmingCharacters(in: .whitespaces).count),
                       "the end blanks the last line, to write on")
        XCTAssertTrue(text.hasSuffix("\r"))
    }

    func testAFinishedBarThatNeverDrewWritesNothing() {
        let spy = SpyConsole(errorsIsTerminal: true)
        ProgressBar(console: spy.console, clock: FakeClock()).finish()
        XCTAssertEqual(spy.errors.text, "")
    }

    func testExposuresAndNumbersReadAsPhotographersWriteThem() {
        XCTAssertEqual(PhotoPresenter.exposure(1.0 / 250), "1/250 s")
        XCTAssertEqual(PhotoPresenter.exposure(2.5), "2.5 s")
        XCTAssertEqual(PhotoPresenter.exposure(1), "1 s")
        XCTAssertEqual(PhotoPresenter.number(35), "35")
        XCTAssertEqual(PhotoPresenter.number(7.1), "7.1")
    }

    func testTheDetailViewShowsGPSAndDuplicatesAndTags() throws {
        let spy = SpyConsole()
        let photo = CataloguedPhoto(
            id: 7, path: "/p/a.jpg", stamp: FileStamp(size: 10, modifiedAtNanoseconds: 0),
            facts: PhotoFacts(sha256: "ab", format: .jpeg, pixelSize: PixelSize(width: 2, height: 1), exif: ExifMetadata(
                lens: "50mm", exposureTime: 0.01, fNumber: 2.8, iso: 200, focalLength: 50, orientation: .up,
                gps: GPSPosition(latitude: 1.5, longitude: -2.25, altitude: 3), allTags: ["IFD0.Make": "X"]), xmp: "<x:xmpmeta/>"),
            importedAt: Date(timeIntervalSince1970: 0), duplicatePaths: ["/q/a.jpg"],
            variants: [Variant(photoID: 7, kind: "show", parameters: #"{"feather":10,"hue":34.5,"method":"object","minimumChroma":12,"quality":90,"tolerance":12}"#,
                               path: "/v/show-1.jpg", fileSize: 1, pixelSize: PixelSize(width: 2, height: 1), sha256: "", createdAt: Date()),
                       Variant(photoID: 7, kind: "show", parameters: #"{"feather":10,"hue":200,"minimumChroma":12,"tolerance":30}"#,
                               path: "/v/show-2.png", fileSize: 1, pixelSize: PixelSize(width: 2, height: 1), sha256: "", createdAt: Date())])
        try PhotoPresenter(console: spy.console).presentDetail(photo, asJSON: false)
        let text = spy.output.text
        for expected in ["variant       show 2×1, object mode, hue 34.5°, tolerance 12°, feather 10°, chroma from 12, quality 90: /v/show-1.jpg",
                         "variant       show 2×1, hue mode, hue 200°, tolerance 30°, feather 10°, chroma from 12: /v/show-2.png","GPS           1.500000, -2.250000, 3.0 m", "duplicate     /q/a.jpg", "exposure      1/100 s",
                         "f-number      f/2.8", "ISO           200", "focal length  50 mm", "lens          50mm",
                         "EXIF tags", "  IFD0.Make: X", "imported      1970-01-01T00:00:00Z", "XMP           12 bytes (in full with --json)"] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        spy.output.clear()
        try PhotoPresenter(console: spy.console).presentDetail(photo, asJSON: true)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [String: Any])
        XCTAssertEqual(json["xmp"] as? String, "<x:xmpmeta/>")

        // On a terminal of 50 columns, a long value goes on under itself.
        let narrow = SpyConsole(width: 50)
        try PhotoPresenter(console: narrow.console).presentDetail(photo, asJSON: false)
        XCTAssertTrue(narrow.output.lines.allSatisfy { $0.count <= 50 }, narrow.output.text)
        XCTAssertTrue(narrow.output.text.contains("variant       show 2×1, object mode, hue 34.5°,\n"
                                                  + "              tolerance 12°, feather 10°, chroma\n"
                                                  + "              from 12, quality 90: /v/show-1.jpg\n"), narrow.output.text)
        spy.output.clear()
        try PhotoPresenter(console: spy.console).presentList([photo], asJSON: true)
        XCTAssertFalse(spy.output.text.contains("xmpmeta"), "a listing leaves it out")
    }
}
