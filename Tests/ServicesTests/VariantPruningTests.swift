import Catalogue
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class VariantPruningTests: XCTestCase {
    let files = FakeFileSystem()
    let catalogue = FakeCatalogue()

    func variant(_ photo: PhotoID, _ kind: String, hue: Int, at second: Double) -> Variant {
        Variant(photoID: photo, kind: kind, parameters: #"{"hue":\#(hue)}"#, path: "/library/variants/\(photo)-\(kind)-\(hue).jpg", fileSize: 1,
                pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: Date(timeIntervalSince1970: second))
    }

    func testEachPhotoKeepsTheParameterSetMadeLast() {
        let old = [variant(1, "show", hue: 10, at: 1), variant(1, "hide", hue: 10, at: 1)]
        let new = [variant(1, "show", hue: 30, at: 5), variant(1, "hide", hue: 30, at: 5)]
        let other = [variant(2, "show", hue: 10, at: 9)]
        XCTAssertEqual(VariantPruning.superseded(among: old + new + other), old.sorted { $0.path < $1.path })
        // A set remade later (its show again) is the newest, whatever order its rows came in.
        let remade = variant(1, "show", hue: 10, at: 7)
        XCTAssertEqual(Set(VariantPruning.superseded(among: new + [remade]).map(\.path)), Set(new.map(\.path)))
        XCTAssertEqual(VariantPruning.superseded(among: []), [])
        // Two sets made in the same second: the later key is kept, whatever order the rows came in.
        let tied = [variant(3, "show", hue: 10, at: 4), variant(3, "show", hue: 20, at: 4)]
        XCTAssertEqual(VariantPruning.superseded(among: tied).map(\.path), ["/library/variants/3-show-10.jpg"])
        XCTAssertEqual(VariantPruning.superseded(among: tied.reversed()).map(\.path), ["/library/variants/3-show-10.jpg"])
    }

    func testPruningForgetsTheRowsThenDeletesTheFilesOfThePhotosAsked() throws {
        let all = [variant(1, "show", hue: 10, at: 1), variant(1, "show", hue: 30, at: 5),
                   variant(2, "show", hue: 10, at: 1), variant(2, "show", hue: 30, at: 5)]
        catalogue.add([1, 2].map { id in
            CataloguedPhoto(id: id, path: "/p/\(id).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                            facts: PhotoFacts(sha256: String(repeating: "\(id)", count: 64), format: .jpeg,
                                              pixelSize: PixelSize(width: 1, height: 1), exif: nil, colours: nil),
                            importedAt: Date())
        })
        for variant in all {
            try catalogue.recordVariant(variant)
            files[variant.path] = Data([1])
        }
        files.undeletable = ["/library/variants/1-show-10.jpg"]

        let summary = try VariantPruning(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").prune(photos: [1])

        XCTAssertEqual(summary.removed.map(\.path), ["/library/variants/1-show-10.jpg"])
        XCTAssertEqual(summary.filesLeft.map(\.path), ["/library/variants/1-show-10.jpg"], "named, and left for check --repair")
        XCTAssertEqual(Set(catalogue.variants.map(\.path)), ["/library/variants/1-show-30.jpg", "/library/variants/2-show-10.jpg", "/library/variants/2-show-30.jpg"])

        files.undeletable = []
        let everyone = try VariantPruning(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").prune(photos: nil)
        XCTAssertEqual(everyone.removed.map(\.path), ["/library/variants/2-show-10.jpg"])
        XCTAssertNil(files["/library/variants/2-show-10.jpg"])
        XCTAssertNotNil(files["/library/variants/2-show-30.jpg"])
    }
}
