import ArgumentParser
import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Imaging
import Services
@testable import ShowHideCLI
import CLITestSupport
import XCTest

final class InspireCommandTests: XCTestCase {
    let spy = SpyConsole()
    let files = FakeFileSystem()
    var catalogue: SQLiteCatalogue!

    override func setUp() async throws {
        catalogue = try SQLiteCatalogue.inMemory()
        files["/lib/red.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "red", make: "Canon", takenAt: "2020:05:06 07:08:09", colour: "#D01020")
        files["/lib/grey.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "grey", colour: "#808080")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
    }

    func environment() -> AppEnvironment {
        let catalogue = self.catalogue!
        return .fake(console: spy.console, files: files, catalogue: catalogue, encoder: FakePhotoEncoder(), currentDirectory: "/work")
    }

    /// An entry for the page, with whatever a hostile file could put in its name and EXIF.
    func hostileEntry() throws -> InspirationEntry {
        let red = Lab(RGBA(parsing: "#D01020")!)
        let colours = ColourAnalysis(palette: [PaletteEntry(lab: Lab(l: 50, a: 0, b: 0), weight: 0.9, name: .grey),
                                               PaletteEntry(lab: red, weight: 0.1, name: .red)],
                                     accent: Accent(lab: red, hue: red.lch.h, coverage: 0.1, name: .red))
        let exif = ExifMetadata(make: "Evil", model: "<script>alert(1)</script>", lens: "\" onerror=\"alert(2)")
        let photo = CataloguedPhoto(id: 7, path: "/p/a\"b<i>&amp;.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                    facts: PhotoFacts(sha256: String(repeating: "b", count: 64), format: .jpeg,
                                                      pixelSize: PixelSize(width: 10, height: 8), exif: exif, colours: colours),
                                    importedAt: Date())
        return InspirationEntry(rank: 1, photo: photo, potential: try XCTUnwrap(SplashPotential(colours, pixelSize: photo.facts.pixelSize)))
    }

    func testValidation() {
        let refused: [([String], String)] = [
            (["--colour", "teal"], "The value 'teal' is invalid for '--colour <colour>': 'teal' is not a colour: give a name (black, white, grey, red, orange, yellow, green, blue, purple, pink, brown; or gray), #RRGGBB, #RGB or rgb(r,g,b)."),
            (["--json", "--html", "/p.html"], "Give --json or --html, not both."),
            (["--html", "/lib/red.jpg"], "--html names the web page to write: give a file name ending in .html, not '/lib/red.jpg'."),
            (["--gallery", "http://127.0.0.1:9000/"], "--gallery is for the page of --html."),
            (["--html", "/p.html", "--gallery", "127.0.0.1:9000"], "--gallery takes the gallery's address, such as http://127.0.0.1:8080/."),
            (["--html", "/p.html", "--gallery", "file:///tmp"], "--gallery takes the gallery's address, such as http://127.0.0.1:8080/."),
            (["--html", "/p.html", "--gallery", "http:/p"], "--gallery takes the gallery's address, such as http://127.0.0.1:8080/."),
            (["--limit", "-1"], "--limit takes 1 or more, not -1."),
        ]
        for (arguments, message) in refused {
            XCTAssertThrowsError(try InspireCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(InspireCommand.message(for: error), message, "\(arguments)")
            }
        }
    }

    func testTheListInTheTerminalAndAsJSON() async throws {
        try await InspireCommand.parse([]).run(in: environment())
        XCTAssertEqual(spy.output.lines.count, 2, spy.output.text)
        XCTAssertTrue(spy.output.lines[0].hasPrefix("#  ID  FILE"), spy.output.text)
        XCTAssertTrue(spy.output.lines[1].contains("red.jpg"), spy.output.text)
        XCTAssertTrue(spy.output.lines[1].contains("vivid red subject"), spy.output.text)
        spy.output.clear()

        try await InspireCommand.parse(["--json"]).run(in: environment())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.count, 1, "the grey photo has nothing to splash")
        XCTAssertEqual(json[0]["rank"] as? Int, 1)
        let terms = try XCTUnwrap(json[0]["terms"] as? [String: Double])
        XCTAssertEqual(Set(terms.keys), ["vividness", "size", "focus", "contrast", "calm", "photographic", "standout", "change",
                                         "resolution"])
        XCTAssertEqual((json[0]["photo"] as? [String: Any])?["path"] as? String, "/lib/red.jpg")
        spy.output.clear()

        try await InspireCommand.parse(["--colour", "blue"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, [])
        XCTAssertEqual(spy.errors.lines, ["No photo with a blue accent would make a striking splash."])
    }

    func testAPhotoWhoseFileIsGoneIsLeftOutAndSaidAndTheNextTakesItsPlace() async throws {
        files["/lib/orange.jpg"] = FakePhoto.data(width: 900, height: 600, seed: "orange", colour: "#E07010")
        try await ImportCommand.parse(["/lib"]).run(in: environment())
        spy.output.clear()
        try await InspireCommand.parse(["--json"]).run(in: environment())
        let both = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        let first = try XCTUnwrap((both.first?["photo"] as? [String: Any])?["path"] as? String)
        let second = try XCTUnwrap((both.last?["photo"] as? [String: Any])?["path"] as? String)
        XCTAssertEqual(both.count, 2)
        spy.output.clear()
        try await InspireCommand.parse(["--json", "--limit", "1"]).run(in: environment())
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])?.count, 1, "--limit 1 lists one")
        try files.remove(first)
        spy.output.clear()

        try await InspireCommand.parse(["--json", "--limit", "1"]).run(in: environment())

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(spy.output.text.utf8)) as? [[String: Any]])
        XCTAssertEqual(json.map { ($0["photo"] as? [String: Any])?["path"] as? String }, [second], "the next in the ranking takes its place")
        XCTAssertEqual(json.first?["rank"] as? Int, 1)
        XCTAssertEqual(spy.errors.lines, ["showhide: left out 1 photo whose file is gone (gallery check lists them; "
                                          + "gallery remove --missing forgets them)"])
        // Named by --in, the photo is in the catalogue though its file is not on disk: that is no mistyped path.
        spy.errors.clear()
        try await InspireCommand.parse(["--in", first]).run(in: environment())
        XCTAssertFalse(spy.errors.text.contains("no such folder or file"), spy.errors.text)
        XCTAssertTrue(spy.errors.text.contains("left out 1 photo whose file is gone"), spy.errors.text)
    }

    func testThePageAndItsPicturesAreWrittenAndLinkedRelatively() async throws {
        try await InspireCommand.parse(["--html", "site/my page.html"]).run(in: environment())
        XCTAssertEqual(spy.output.lines, ["wrote /work/site/my page.html: 1 photo, pictures in my page_files/"])
        let page = String(decoding: try XCTUnwrap(files["/work/site/my page.html"]), as: UTF8.self)
        let sources = try NSRegularExpression(pattern: "src=\"([^\"]*)\"").matches(in: page, range: NSRange(page.startIndex..., in: page))
            .map { String(page[Range($0.range(at: 1), in: page)!]) }
        XCTAssertEqual(sources.count, 3, "original, show and hide")
        for source in sources {
            let path = try XCTUnwrap(source.removingPercentEncoding)
            XCTAssertFalse(path.hasPrefix("/"), "relative: \(source)")
            XCTAssertNotNil(files["/work/site/" + path], "\(source) resolves beside the page")
        }
        XCTAssertEqual(page.components(separatedBy: "<article").count - 1, 1)
        let links = try NSRegularExpression(pattern: "href=\"([^\"]*)\"").matches(in: page, range: NSRange(page.startIndex..., in: page))
            .map { String(page[Range($0.range(at: 1), in: page)!]) }
        let photo = try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(sort: .imported)).first { $0.path == "/lib/red.jpg" })
        XCTAssertEqual(links, ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/photos/\(photo.id)",
                               "file://" + photo.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!],
                       "the gallery, the photo's page in it, and the original file")
    }

    func testThePageLinksToTheGalleryAtTheAddressGiven() async throws {
        try await InspireCommand.parse(["--html", "/work/p.html", "--gallery", "http://nas.local:9000"]).run(in: environment())
        let page = String(decoding: try XCTUnwrap(files["/work/p.html"]), as: UTF8.self)
        let photo = try XCTUnwrap(try catalogue.photos(matching: PhotoQuery(sort: .imported)).first { $0.path == "/lib/red.jpg" })
        XCTAssertTrue(page.contains("href=\"http://nas.local:9000/photos/\(photo.id)\""), page)
    }

    func testTheWarningOfPhotosWhoseFileIsGoneSaysWhenItLookedNoFurther() {
        XCTAssertEqual(InspireCommand.goneWarning(InspirationService.mostPassedOver),
                       "showhide: left out 1000 photos whose file is gone and looked no further (a drive not mounted?) "
                       + "(gallery check lists them; gallery remove --missing forgets them)")
        XCTAssertFalse(InspireCommand.goneWarning(999).contains("no further"))
    }

    func testThePageLinksPhotosUnderTheGallerysPathWithItsAccessToken() {
        XCTAssertEqual(InspirationPage.link(to: "photos/3", in: "http://studio:8080/?token=abc123"), "http://studio:8080/photos/3?token=abc123",
                       "the address serve --host prints: the token after the photo's path, not the path after the token")
        XCTAssertEqual(InspirationPage.link(to: "photos/3", in: "http://studio:8080?token=abc#top"), "http://studio:8080/photos/3?token=abc")
        XCTAssertEqual(InspirationPage.link(to: "photos/3", in: "https://nas.local/showhide"), "https://nas.local/showhide/photos/3")
        XCTAssertEqual(InspirationPage.link(to: "photos/3", in: "http://127.0.0.1:8080/"), "http://127.0.0.1:8080/photos/3")
    }

    func testAPageOfOnePhotoOrNoneSaysSo() throws {
        let one = InspirationPage.render([try hostileEntry()], pictures: [:], generated: Date(timeIntervalSince1970: 0))
        XCTAssertTrue(one.contains("<p>1 photo whose show and hide pictures would stand out, best first · made 1970-01-01</p>"))
        XCTAssertFalse(one.contains("No photo of these"))
        let none = InspirationPage.render([], pictures: [:], generated: Date(timeIntervalSince1970: 0))
        XCTAssertTrue(none.contains("<p>0 photos whose show and hide"))
        XCTAssertTrue(none.contains("No photo of these has an accent colour worth a splash"), "not an empty page")
    }

    func testEveryTextFromAFileIsEscaped() throws {
        let page = InspirationPage.render([try hostileEntry()], pictures: [7: InspirationImages(original: "f/7-original.jpg")],
                                          generated: Date(timeIntervalSince1970: 0))
        XCTAssertFalse(page.contains("<script"), "no script element")
        XCTAssertFalse(page.contains("<i>"))
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the camera model shows as text")
        XCTAssertTrue(page.contains("alt=\"a&quot;b&lt;i&gt;&amp;amp;.jpg\""), "attributes are escaped too")
        XCTAssertFalse(page.contains("\" onerror=\""))
        XCTAssertTrue(page.contains("no variant"), "missing variants are said, not broken images")
        // Every element the page opens it closes (void elements aside).
        for tag in ["article", "figure", "div", "dl", "p", "span", "main", "header"] {
            XCTAssertEqual(page.components(separatedBy: "<\(tag)").count, page.components(separatedBy: "</\(tag)>").count, tag)
        }
    }

    func testThePageIsNeverWrittenOverAFileThatIsNotOneOfItsPages() async throws {
        files["/work/notes.html"] = Data("my notes".utf8)
        do {
            try await InspireCommand.parse(["--html", "notes.html"]).run(in: environment())
            XCTFail("a page of the user's own is not replaced")
        } catch let error as InspirationPageError {
            XCTAssertEqual(error, .notAPage("/work/notes.html"))
            XCTAssertEqual(ExitStatus.of(error), ExitStatus.cannotCreate)
        }
        XCTAssertEqual(files["/work/notes.html"], Data("my notes".utf8))

        files["/work/p_files/7-show.jpg"] = Data("mine".utf8)
        do {
            try await InspireCommand.parse(["--html", "p.html"]).run(in: environment())
            XCTFail("pictures of the user's own are not replaced")
        } catch let error as InspirationPageError {
            XCTAssertEqual(error, .foreignPictures("/work/p_files", page: "/work/p.html"))
        }
        XCTAssertEqual(files["/work/p_files/7-show.jpg"], Data("mine".utf8))
        XCTAssertNil(files["/work/p.html"])
        XCTAssertEqual(spy.output.lines, [])

        files["/work/q_files"] = Data("a file".utf8)
        do {
            try await InspireCommand.parse(["--html", "q.html"]).run(in: environment())
            XCTFail("a file where the pictures' folder goes")
        } catch let error as InspirationPageError {
            XCTAssertEqual(error, .picturesFolderIsAFile("/work/q_files"))
            XCTAssertEqual(error.localizedDescription, "/work/q_files is a file, where the page's pictures would go in a folder of that name: "
                           + "name another page (nothing was written)")
        }
    }

    func testThePageIsNeverWrittenIntoTheLibrarysOwnFolders() async throws {
        do {
            try await InspireCommand.parse(["--html", "/library/variants/p.html"]).run(in: environment())
            XCTFail("written where check --repair deletes it")
        } catch let error as ProtectedFileError {
            XCTAssertEqual(error, ProtectedFileError(path: "/library/variants/p.html", reason: "it is one of the library's own files (/library)"))
            XCTAssertEqual(ExitStatus.of(error), ExitStatus.cannotCreate)
        }
        XCTAssertFalse(files.writtenPaths.contains { $0.contains("p.html") || $0.contains("p_files") }, "\(files.writtenPaths)")
    }

    func testAPageWrittenBeforeIsReplaced() async throws {
        try await InspireCommand.parse(["--html", "p.html"]).run(in: environment())
        try await InspireCommand.parse(["--html", "p.html"]).run(in: environment())
        XCTAssertEqual(spy.output.lines.count, 2)
        // A page from before the generator was named, known by its title.
        files["/work/old.html"] = Data("<!DOCTYPE html><title>Inspiration · showhide</title>".utf8)
        try await InspireCommand.parse(["--html", "old.html"]).run(in: environment())
        let page = String(decoding: try XCTUnwrap(files["/work/old.html"]), as: UTF8.self)
        XCTAssertTrue(page.contains("<meta name=\"generator\" content=\"showhide inspire\">"))
    }
}
