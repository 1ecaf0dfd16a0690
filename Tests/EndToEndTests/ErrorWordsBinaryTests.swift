import Foundation
import TestSupport
import XCTest

/// Every way a command fails that users have met says what went wrong, with which file, in words:
/// never a Foundation error dump, SQLite's messages or a statement.
final class ErrorWordsBinaryTests: XCTestCase {
    var directory: URL!
    var library: String { directory.appendingPathComponent("library").path }
    var photos: URL { directory.appendingPathComponent("photos") }
    let binary = ShowhideBinary()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-words-\(UUID().uuidString)")
        try LibraryFixture.writePhotos(3, into: photos)
        XCTAssertEqual(try binary.run(["gallery", "import", photos.path, "--library", library]).status, 0)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    static let leaks = ["Domain=", "UserInfo", "SQLite error", "while executing", "SELECT ", "NSCocoaError", "Error("]

    func assertInWords(_ arguments: [String], status: Int32, saying expected: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try binary.run(arguments)
        let text = run.output + run.errors
        XCTAssertEqual(run.status, status, "\(arguments): \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(expected), "\(arguments): \(text)", file: file, line: line)
        for leak in Self.leaks { XCTAssertFalse(text.contains(leak), "\(arguments): \(leak) in \(text)", file: file, line: line) }
    }

    func testEveryFailureUsersMetIsSaidInWords() throws {
        try FileManager.default.removeItem(at: photos.appendingPathComponent("photo0.jpg"))
        let out = directory.appendingPathComponent("out").path
        let blocker = directory.appendingPathComponent("blocker").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))

        try assertInWords(["gallery", "process", "1", "--library", library], status: 1,
                          saying: "photo0.jpg: the file is gone: import its new place, or forget it with showhide gallery remove 1")
        try assertInWords(["export", "--id", "1", "--to", out, "--library", library], status: 1,
                          saying: "photo0.jpg: the file is gone: import its new place, or forget it with showhide gallery remove 1")
        try assertInWords(["inspect", directory.path + "/nonexistent.jpg"], status: 1,
                          saying: "nonexistent.jpg: cannot read the file: no such file or directory")
        try assertInWords(["inspect", photos.path], status: 1, saying: "it is a folder: inspect reads photo files, and showhide gallery import imports a folder")
        try assertInWords(["gallery", "list", "--library", blocker], status: 69,
                          saying: "the library \(blocker) is a file, not a folder")
        try assertInWords(["inspire", "--html", blocker + "/page.html", "--library", library], status: 73,
                          saying: "cannot create \(blocker)/page.html: not a directory")
        try assertInWords(["export", "--all", "--to", blocker + "/out", "--library", library], status: 73,
                          saying: "cannot create the folder \(blocker)")
        try assertInWords(["gallery", "show", "99", "--library", library], status: 2, saying: "no photo with id 99 in the catalogue")
        try assertInWords(["gallery", "list", "--limit", "0", "--library", library], status: 64, saying: "--limit takes 1 or more, not 0.")
    }
}
