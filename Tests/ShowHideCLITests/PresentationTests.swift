import Catalogue
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import TestSupport
import XCTest

final class PresentationTests: XCTestCase {
    func testTablesPadEveryColumnButTheLast() {
        var table = TextTable(headers: ["ID", "NAME"])
        table.append(["1", "a"])
        table.append(["1234", "bb"])
        XCTAssertEqual(table.render(), ["ID    NAME", "1     a", "1234  bb"])
        XCTAssertEqual(table.render(bold: { "*\($0)*" }).first, "*ID    NAME*")
    }

    func testBoldOnlyWithColour() {
        XCTAssertEqual(SpyConsole(usesColour: false).console.bold("x"), "x")
        XCTAssertEqual(SpyConsole(usesColour: true).console.bold("x"), "\u{1B}[1mx\u{1B}[0m")
    }

    func testNoColourIsHonoured() {
        XCTAssertFalse(Console.standard(environment: ["NO_COLOR": "1"]).usesColour)
        XCTAssertFalse(Console.standard(environment: ["TERM": "dumb"]).usesColour)
    }

    func testCameraNamesDoNotRepeatTheMake() {
        XCTAssertEqual(ExifMetadata(make: "Canon", model: "Canon EOS 40D").cameraName, "Canon EOS 40D")
        XCTAssertEqual(ExifMetadata(make: "NIKON CORPORATION", model: "NIKON D70").cameraName, "NIKON CORPORATION NIKON D70")
        XCTAssertEqual(ExifMetadata(make: "Jolla").cameraName, "Jolla")
        XCTAssertEqual(ExifMetadata(model: "Caplio RR330").cameraName, "Caplio RR330")
        XCTAssertNil(ExifMetadata().cameraName)
    }

    func testPresenterShowsTheUprightSizeAndDashesForMissingValues() throws {
        let spy = SpyConsole()
        let inspection = PhotoInspection(path: "p.png", format: .png, fileSize: 10, pixelSize: PixelSize(width: 4, height: 3),
                                         exif: ExifMetadata(orientation: .left), analysisImage: TestImage.solid(.red))
        try InspectionPresenter(console: spy.console).present([inspection], failures: [], asJSON: false)
        XCTAssertEqual(spy.output.lines.last, "p.png  PNG     3×4     -       -")
    }

    func testPresenterWithOnlyFailuresPrintsNoTable() throws {
        let spy = SpyConsole()
        try InspectionPresenter(console: spy.console).present([], failures: [.notAPhoto(path: "t.txt")], asJSON: false)
        XCTAssertEqual(spy.output.text, "")
        XCTAssertEqual(spy.errors.lines.first, "showhide: t.txt: not a JPEG or PNG file (unrecognised first bytes)")
    }

    func testEXIFJSONUsesTheDocumentedKeys() throws {
        let exif = ExifMetadata(make: "M", model: "X", lens: "L", takenAt: ExifDateTime(exif: "2020:01:02 03:04:05", offset: "+01:00"),
                                exposureTime: 0.5, fNumber: 2, iso: 200, focalLength: 35, orientation: .down,
                                gps: GPSPosition(latitude: 1.5, longitude: -2.5, altitude: 10))
        let json = try JSONOutput.encode(ExifJSON(exif))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["make", "model", "lens", "takenAt", "exposureTime", "fNumber", "iso", "focalLength", "orientation", "gps"])
        XCTAssertEqual(object["takenAt"] as? String, "2020-01-02T03:04:05+01:00")
        XCTAssertEqual(object["orientation"] as? Int, 3)
        XCTAssertEqual((object["gps"] as? [String: Double])?["longitude"], -2.5)
    }

    func testLiveEnvironmentIsWiredWithTheRealImplementations() {
        let live = AppEnvironment.live()
        XCTAssertTrue(live.fileSystem is LocalFileSystem)
        XCTAssertEqual(String(describing: type(of: live.decoder)), "ImageCodec")
        XCTAssertEqual(String(describing: type(of: live.exifReader)), "LibExifReader")
    }
}

/// `gallery backup` through a real SQLite catalogue in a temporary folder.
final class BackupCommandTests: XCTestCase {
    let spy = SpyConsole()
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testTheCopyHoldsThePhotosAndIsSaidInOneLine() async throws {
        let files = FakeFileSystem()
        files["/lib/red.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "red", colour: "#D01020")
        let library = directory.appendingPathComponent("library").path
        var environment = AppEnvironment.fake(console: spy.console, files: files, catalogue: try SQLiteCatalogue.inMemory())
        environment.openCatalogue = { try SQLiteCatalogue(libraryDirectory: $0, opening: $1) }
        try await ImportCommand.parse(["/lib", "--library", library]).run(in: environment)
        spy.output.clear()

        let copy = directory.appendingPathComponent("copy.sqlite").path
        try BackupCommand.parse([copy, "--library", library]).run(in: environment)
        XCTAssertEqual(spy.output.lines.count, 1)
        XCTAssertTrue(spy.output.text.hasPrefix("backed up 1 photo to \(copy) (0."), spy.output.text)
        XCTAssertTrue(spy.output.text.hasSuffix(" MB); its integrity check passed\n"), spy.output.text)
        let restored = directory.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copy, toPath: restored.appendingPathComponent("catalogue.sqlite").path)
        let catalogue = try SQLiteCatalogue(libraryDirectory: restored.path, opening: .existingOnly)
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).map(\.path), ["/lib/red.jpg"])

        XCTAssertThrowsError(try BackupCommand.parse([copy, "--library", library]).run(in: environment)) { error in
            XCTAssertEqual(error as? CatalogueError, .backupExists(path: copy))
        }
        XCTAssertThrowsError(try BackupCommand.parse([""])) { error in
            XCTAssertEqual(BackupCommand.message(for: error), "Name the file to write the backup into.")
        }
    }
}
