@testable import Services
import XCTest

final class FileNameTemplateTests: XCTestCase {
    let values = ["id": "7", "name": "IMG_0042", "date": "2021-06-01", "time": "10-20-30", "camera": "Canon EOS 5D",
                  "colour": "red", "variant": "show", "ext": "jpg"]

    func render(_ template: String, _ changes: [String: String] = [:]) throws -> String {
        try FileNameTemplate(template).render(values.merging(changes) { $1 })
    }

    func testTheStandardTemplate() throws {
        XCTAssertEqual(try render(FileNameTemplate.standard), "2021-06-01_IMG_0042_show.jpg")
        XCTAssertEqual(try render("{camera}/{date}/{time}_{id}_{colour}.{ext}"), "Canon_EOS_5D/2021-06-01/10-20-30_7_red.jpg")
    }

    func testHostileValuesStayInsideTheDestination() throws {
        let hostile = ["../../etc/passwd", "/abs/olute", "..", ".", "a\u{0}b", "x/../../y", "\\windows\\path", "CON:*?\"<>|",
                       String(repeating: "é", count: 500), "\u{FFFD}\u{FFFD}", "", " ", "-rf", "line\nbreak"]
        for value in hostile {
            for field in ["name", "camera"] {
                let name = try render("{\(field)}_{variant}.{ext}", [field: value])
                XCTAssertFalse(name.hasPrefix("/"), name)
                XCTAssertFalse(name.split(separator: "/").contains { $0 == ".." || $0 == "." || $0.hasPrefix(".") }, name)
                XCTAssertFalse(name.contains("/"), "a value never makes a folder: \(name)")
                XCTAssertFalse(name.contains { $0.isNewline || $0 == "\u{0}" || $0 == "\\" || $0 == ":" }, name)
                XCTAssertTrue(name.hasSuffix(".jpg"), name)
                XCTAssertLessThanOrEqual(name.utf8.count, FileNameTemplate.componentLimit, name)
                XCTAssertGreaterThan(name.count, 4, name)
            }
        }
        XCTAssertEqual(try render("{name}.{ext}", ["name": "../../etc/passwd"]), "etc_passwd.jpg")
        XCTAssertEqual(try render("{name}.{ext}", ["name": ".."]), "photo-7.jpg", "nothing left: a name from the id")
    }

    func testTheTemplateItselfCannotEscapeEither() throws {
        XCTAssertEqual(try render("/../{name}.{ext}"), "IMG_0042.jpg")
        XCTAssertEqual(try render("../../{camera}/./{name}"), "Canon_EOS_5D/IMG_0042.jpg", "the extension is added when missing")
        XCTAssertEqual(try render(".hidden_{name}.{ext}"), "hidden_IMG_0042.jpg")
        XCTAssertEqual(try render(String(repeating: "long", count: 100) + ".{ext}").utf8.count, FileNameTemplate.componentLimit)
    }

    func testWrongTemplatesAreRefused() {
        XCTAssertThrowsError(try FileNameTemplate("")) { XCTAssertEqual($0 as? ExportError, .badTemplate("", "it is empty")) }
        XCTAssertThrowsError(try FileNameTemplate("{nmae}.{ext}")) { error in
            XCTAssertTrue(error.localizedDescription.contains("{nmae} is not a field"), error.localizedDescription)
        }
        XCTAssertThrowsError(try FileNameTemplate("{name")) { error in
            XCTAssertEqual(error as? ExportError, .badTemplate("{name", "a { is not closed"))
        }
    }

    func testNumberedNamesGoBeforeTheExtension() {
        XCTAssertEqual(FileNameTemplate.numbered("a/b.c/x.jpg", 2), "a/b.c/x_2.jpg")
        XCTAssertEqual(FileNameTemplate.numbered("a.b/x", 3), "a.b/x_3")
        XCTAssertEqual(FileNameTemplate.numbered("/tmp/set.zip", 2), "/tmp/set_2.zip")
    }
}
