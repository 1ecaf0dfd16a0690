import Catalogue
import ColourScience
import CatalogueSQLite
import Foundation
import GalleryJSON
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
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
        let plain = SpyConsole(usesColour: false)
        plain.console.print(plain.console.bold("x"))
        XCTAssertEqual(plain.output.text, "x\n")
        let coloured = SpyConsole(usesColour: true)
        coloured.console.print(coloured.console.bold("x"))
        XCTAssertEqual(coloured.output.text, "\u{1B}[1mx\u{1B}[0m\n")
    }

    func testColourOnlyOnATerminalAndNeverWithNO_COLOROrADumbTerminal() {
        let terminal: (Int32) -> Bool = { _ in true }
        XCTAssertTrue(Console.standard(environment: [:], isTerminal: terminal).usesColour)
        XCTAssertFalse(Console.standard(environment: ["NO_COLOR": "1"], isTerminal: terminal).usesColour)
        XCTAssertTrue(Console.standard(environment: ["NO_COLOR": ""], isTerminal: terminal).usesColour, "an empty NO_COLOR is unset")
        XCTAssertFalse(Console.standard(environment: ["TERM": "dumb"], isTerminal: terminal).usesColour)
        XCTAssertFalse(Console.standard(environment: [:], isTerminal: { _ in false }).usesColour)
        XCTAssertTrue(Console.standard(environment: [:], isTerminal: { $0 == STDERR_FILENO }).errorsIsTerminal)
        XCTAssertFalse(Console.standard(environment: [:], isTerminal: { $0 == STDERR_FILENO }).usesColour)
    }

    func testTablesFitTheTerminalOrCOLUMNSAndPipesGetWholeLines() {
        let terminal: (Int32) -> Bool = { _ in true }
        XCTAssertEqual(Console.standard(environment: [:], isTerminal: terminal, terminalWidth: { _ in 100 }).width, 100)
        XCTAssertEqual(Console.standard(environment: ["COLUMNS": "72"], isTerminal: terminal, terminalWidth: { _ in 100 }).width, 72)
        XCTAssertEqual(Console.standard(environment: ["COLUMNS": "x"], isTerminal: terminal, terminalWidth: { _ in 100 }).width, 100)
        XCTAssertEqual(Console.standard(environment: ["COLUMNS": "0"], isTerminal: terminal, terminalWidth: { _ in 100 }).width, 100,
                       "no width is no width: the terminal's")
        XCTAssertNil(Console.standard(environment: [:], isTerminal: { _ in false }, terminalWidth: { _ in 100 }).width)
        XCTAssertEqual(Console.standard(environment: ["COLUMNS": "60"], isTerminal: { _ in false }).width, 60,
                       "COLUMNS set by hand is honoured in a pipe too")
        // The progress bar's line fits standard error's terminal, whatever standard output is.
        let errorsOnly: (Int32) -> Bool = { $0 == STDERR_FILENO }
        XCTAssertEqual(Console.standard(environment: [:], isTerminal: errorsOnly, terminalWidth: { $0 == STDERR_FILENO ? 44 : nil }).errorsWidth, 44)
        XCTAssertEqual(Console.standard(environment: ["COLUMNS": "40"], isTerminal: errorsOnly, terminalWidth: { _ in 44 }).errorsWidth, 40)
        XCTAssertNil(Console.standard(environment: ["COLUMNS": "40"], isTerminal: { _ in false }).errorsWidth, "no bar is drawn there")
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

    func testAListKeepsEachDateWholeAtAnyWidthATableIsDrawnAt() throws {
        // At 70–90 columns the date broke into its day and its time on two lines.
        let photo = CataloguedPhoto(id: 12, path: "/photos/2005/summer/a-long-name-of-a-photo.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                    facts: PhotoFacts(sha256: String(repeating: "a", count: 64), format: .jpeg, pixelSize: PixelSize(width: 3072, height: 2304),
                                                      exif: ExifMetadata(make: "Eastman Kodak Company", model: "KODAK CX7530 ZOOM DIGITAL CAMERA",
                                                                         takenAt: ExifDateTime(exif: "2005:08:13 09:47:23")),
                                                      colours: ColourAnalysis(palette: [.sample("#808080", 0.9), .sample("#C01020", 0.1)],
                                                                              accent: .sample("#C01020", coverage: 0.1))),
                                    importedAt: Date(timeIntervalSince1970: 0))
        for width in [60, 70, 80, 90] {
            let spy = SpyConsole(width: width)
            try PhotoPresenter(console: spy.console).presentList([photo], asJSON: false)
            XCTAssertTrue(spy.output.lines.contains { $0.contains("2005-08-13 09:47:23") }, "\(width):\n\(spy.output.text)")
            XCTAssertTrue(spy.output.lines.allSatisfy { $0.count <= width }, "\(width):\n\(spy.output.text)")
        }
    }

    func testPresenterWithOnlyFailuresPrintsNoTable() throws {
        let spy = SpyConsole()
        try InspectionPresenter(console: spy.console).present([], failures: [.notAPhoto(path: "t.txt")], asJSON: false)
        XCTAssertEqual(spy.output.text, "")
        XCTAssertEqual(spy.errors.lines.first, "showhide: t.txt: not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)")
    }

    func testEXIFJSONUsesTheDocumentedKeys() throws {
        let exif = ExifMetadata(make: "M", model: "X", lens: "L", takenAt: ExifDateTime(exif: "2020:01:02 03:04:05", offset: "+01:00"),
                                exposureTime: 0.5, fNumber: 2, iso: 200, focalLength: 35, orientation: .down,
                                gps: GPSPosition(latitude: 1.5, longitude: -2.5, altitude: 10), allTags: ["IFD0.Make": "M"])
        let json = try JSONOutput.encode(exif)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["make", "model", "lens", "takenAt", "exposureTime", "fNumber", "iso", "focalLength", "orientation", "gps"])
        XCTAssertEqual(object["takenAt"] as? String, "2020-01-02T03:04:05+01:00")
        XCTAssertEqual(object["orientation"] as? Int, 3)
        XCTAssertEqual((object["gps"] as? [String: Double])?["longitude"], -2.5)
        let bare = try JSONSerialization.jsonObject(with: Data(try JSONOutput.encode(ExifMetadata(iso: 100)).utf8)) as? [String: Any]
        XCTAssertEqual(bare?.keys.sorted(), ["iso"], "values the file lacks are absent, not null")
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
        // A photo catalogued where a backup really could be written: the temporary folder.
        let photo = directory.appendingPathComponent("blue.jpg").path
        files[photo] = FakePhoto.data(width: 8, height: 6, seed: "blue", colour: "#1F5AA6")
        try await ImportCommand.parse([photo, "--library", library]).run(in: environment)
        XCTAssertThrowsError(try BackupCommand.parse([photo, "--overwrite", "--library", library]).run(in: environment)) { error in
            XCTAssertEqual((error as? ProtectedFileError)?.reason, "it is the file of photo 2, which the catalogue holds")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: photo), "no backup written at the photo's path")
        XCTAssertThrowsError(try BackupCommand.parse([""])) { error in
            XCTAssertEqual(BackupCommand.message(for: error), "Name the file to write the backup into.")
        }
    }
}

/// What reaches the terminal: control characters escaped, only showhide's own styles as ANSI.
final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreEscapedAndEverythingElseKept() {
        XCTAssertEqual(TerminalText.escaped("bad\u{1B}]0;pwned\u{07}\nname\t.jpg\r"), "bad\\e]0;pwned\\x07\\nname\\t.jpg\\r")
        XCTAssertEqual(TerminalText.escaped("\u{7F}\u{9B}\u{00}"), "\\x7F\\x9B\\x00")
        XCTAssertEqual(TerminalText.escaped("café, ΔE00 5 — 東京.jpg"), "café, ΔE00 5 — 東京.jpg")
        // A right-to-left override makes "bidi\u{202E}gpj.exe" read as "bidiexe.jpg" and turns a table around.
        XCTAssertEqual(TerminalText.escaped("bidi\u{202E}gpj.exe"), "bidi\\u{202E}gpj.exe")
        XCTAssertEqual(TerminalText.escaped("\u{2067}a\u{2069}\u{200F}"), "\\u{2067}a\\u{2069}\u{200F}")
        XCTAssertEqual(TerminalText.escaped("שלום.jpg"), "שלום.jpg", "right-to-left letters themselves are names")
    }

    func testOnlyMarksWithTheConsolesKeyBecomeStyles() {
        let text = TerminalText(key: "k1")
        let other = TerminalText(key: "k2")
        XCTAssertEqual(text.rendered(text.mark("1") + "x" + text.mark("0")), "\u{1B}[1mx\u{1B}[0m")
        XCTAssertEqual(text.rendered(other.mark("31") + "x"), "\u{E000}k231\u{E001}x", "a forged mark stays text")
        XCTAssertEqual(text.rendered("name\u{1B}[31m"), "name\\e[31m")
        XCTAssertEqual(text.rendered(text.mark("1")), "\u{1B}[1m")
        XCTAssertNotEqual(TerminalText().key, TerminalText().key)
    }

    func testWidthElisionAndWrapping() {
        let text = TerminalText(key: "k")
        XCTAssertEqual(TerminalText.width(text.mark("48;2;1;2;3") + "\u{00A0}\u{00A0}" + text.mark("0") + " red"), 6)
        XCTAssertEqual(TerminalText.width("a\nb"), 4, "an escape takes the columns it is written in")
        XCTAssertEqual(TerminalText.elided("IMG_20240101_0001.jpg", to: 13), "IMG_20…01.jpg")
        XCTAssertEqual(TerminalText.elided("short.jpg", to: 13), "short.jpg")
        // A path keeps its file's name whole where it fits beside a column of the folders.
        XCTAssertEqual(TerminalText.elided("/home/me/Pictures/old-phone/truncated-trunc50.png", to: 25), "/h…/truncated-trunc50.png")
        XCTAssertEqual(TerminalText.elided("/home/me/Pictures/old-phone/truncated-trunc50.png", to: 21), "/home/me/P…runc50.png",
                       "a name too long for it is cut as any text")
        XCTAssertEqual(TerminalText.wrapped("one vivid red subject (4% of the frame)", to: 14),
                       ["one vivid red", "subject (4% of", "the frame)"])
        XCTAssertEqual(TerminalText.wrapped("abcdefghijklmnop", to: 6), ["abcdef", "ghijkl", "mnop"])
        // Emoji and CJK take two columns each, as terminals draw them.
        XCTAssertEqual(TerminalText.width("café ☕ cup.png"), 15)
        XCTAssertEqual(TerminalText.width("👩‍👩‍👧 東京.jpg"), 11)
        XCTAssertEqual(TerminalText.width("❤️ x"), 4, "a heart shown as a picture")
        XCTAssertEqual(TerminalText.width("1️⃣ ©️"), 5, "a keycap and a sign shown as pictures")
        XCTAssertEqual(TerminalText.width("a\u{200B}b\u{200E}c"), 3, "a zero-width space and a direction mark take no column")
        XCTAssertEqual(TerminalText.width("e\u{301}"), 1, "a letter and its accent, one character")
        XCTAssertEqual(TerminalText.width("서울.jpg"), 8, "Hangul syllables take two columns each")
        XCTAssertEqual(TerminalText.elided("東京東京東京東京.jpg", to: 9), "東京….jpg")
        XCTAssertEqual(TerminalText.wrapped("東京東京東京", to: 5), ["東京", "東京", "東京"])
        let swatch = text.mark("48;2;1;2;3") + "\u{00A0}\u{00A0}" + text.mark("0")
        XCTAssertEqual(TerminalText.wrapped(String(repeating: swatch, count: 5) + " grey", to: 6),
                       [String(repeating: swatch, count: 5), "grey"], "a swatch is never cut")
    }

    func testATableFitsItsWidthByElidingAndWrapping() {
        var table = TextTable(headers: ["ID", "FILE", "WHY"], fits: [.keep, .elide, .wrap])
        table.append(["7", "IMG_20240101_000123456789.jpg", "one vivid red subject (4% of the frame), strong contrast"])
        table.append(["12", "b.jpg", "calm"])
        XCTAssertEqual(table.render(), [
            "ID  FILE                           WHY",
            "7   IMG_20240101_000123456789.jpg  one vivid red subject (4% of the frame), strong contrast",
            "12  b.jpg                          calm",
        ], "no width: whole lines")
        let fitted = table.render(width: 40)
        XCTAssertEqual(fitted, [
            "ID  FILE                 WHY",
            "7   IMG_20240…56789.jpg  one vivid red",
            "                         subject (4% of",
            "                         the frame),",
            "                         strong contrast",
            "12  b.jpg                calm",
        ])
        XCTAssertTrue(fitted.allSatisfy { $0.count <= 40 }, "\(fitted)")
        // A column is never made narrower than its heading.
        var headed = TextTable(headers: ["ID", "PHOTOGRAPH FILE"], fits: [.keep, .elide])
        headed.append(["1", "a_very_long_file_name_indeed.jpg"])
        XCTAssertEqual(headed.render(width: 19).first, "ID  PHOTOGRAPH FILE")
        let narrow = headed.render(width: 17)
        XCTAssertTrue(narrow.contains { $0.hasPrefix("PHOTOGRAPH FILE  ") }, "too narrow for the columns with their headings: records, \(narrow)")
        let records = table.render(width: 24)
        XCTAssertEqual(records, [
            "ID    7",
            "FILE  IMG_20240…6789.jpg",
            "WHY   one vivid red",
            "      subject (4% of the",
            "      frame), strong",
            "      contrast",
            "",
            "ID    12",
            "FILE  b.jpg",
            "WHY   calm",
        ], "too narrow for the columns at their floors: a record for each row")
        XCTAssertTrue(records.allSatisfy { $0.count <= 24 }, "\(records)")
        XCTAssertEqual(table.render(width: 30).first, "ID  FILE            WHY", "a table while its floors fit")
        XCTAssertEqual(table.render(width: 5)[1], "FILE  IMG_2….jpg", "values keep ten columns however narrow")
    }
}
