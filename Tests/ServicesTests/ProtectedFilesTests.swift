import Catalogue
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class ProtectedFilesTests: XCTestCase {
    let files = FakeFileSystem()
    let catalogue = FakeCatalogue()

    func protected() -> ProtectedFiles { ProtectedFiles(catalogue: catalogue, libraryDirectory: "/library", fileSystem: files) }

    /// Photos at /photos/red.jpg and /photos/sub/blue.jpg, with their files.
    func catalogueTwoPhotos() throws -> (red: PhotoID, blue: PhotoID) {
        try catalogue.write { writer in
            let stamp = FileStamp(size: 1, modifiedAtNanoseconds: 1)
            let red = try writer.insertPhoto(path: "/photos/red.jpg", stamp: stamp, facts: PhotoFacts(
                sha256: String(repeating: "a", count: 64), format: .jpeg, pixelSize: PixelSize(width: 1, height: 1), exif: nil), importedAt: Date())
            let blue = try writer.insertPhoto(path: "/photos/sub/blue.jpg", stamp: stamp, facts: PhotoFacts(
                sha256: String(repeating: "b", count: 64), format: .jpeg, pixelSize: PixelSize(width: 1, height: 1), exif: nil), importedAt: Date())
            files["/photos/red.jpg"] = Data("red".utf8)
            files["/photos/sub/blue.jpg"] = Data("blue".utf8)
            return (red, blue)
        }
    }

    func testALinkToAPhotoIsThePhoto() throws {
        let (red, _) = try catalogueTwoPhotos()
        files.links["/notes/favourite.jpg"] = "/photos/red.jpg"
        XCTAssertEqual(try protected().reason(against: "/notes/favourite.jpg"), "it is the file of photo \(red), which the catalogue holds")
    }

    func testANameAPhotosButForCaseIsRefusedOnlyWhereAFileOfItIsThereInThePhotosOwnFolder() throws {
        let (red, _) = try catalogueTwoPhotos()
        // A case-insensitive disk: the name finds the photo's file.
        files["/photos/RED.JPG"] = files["/photos/red.jpg"]
        XCTAssertEqual(try protected().reason(against: "/photos/RED.JPG"),
                       "its name is that of photo \(red) but for case: on a disk that does not tell case apart, the same file")
        // A case-sensitive disk, where no such file is there: a new file may be written.
        XCTAssertNil(try protected().reason(against: "/photos/Red.Jpg"))
        // The same name but for case in another folder than the photo's is another file.
        files["/photos/BLUE.JPG"] = Data("another".utf8)
        XCTAssertNil(try protected().reason(against: "/photos/BLUE.JPG"), "blue.jpg is in /photos/sub")
        XCTAssertNil(try protected().reason(against: "/elsewhere/new.zip"))
    }
}
