@testable import Catalogue
@testable import CatalogueSQLite
import ColourScience
import Foundation
import Imaging
import TestSupport
import XCTest

/// Every rule services rely on, checked against a catalogue: the same checks run against SQLite and
/// against `FakeCatalogue`, so the fake cannot drift from the real thing.
struct CatalogueContract {
    let catalogue: any PhotoCatalogue
    let time = Date(timeIntervalSince1970: 1_700_000_000)

    func stamp(_ size: Int64) -> FileStamp { FileStamp(size: size, modifiedAtNanoseconds: size * 1_000) }

    func insert(_ path: String, sha: String, colours: ColourAnalysis? = nil) throws -> PhotoID {
        try catalogue.write { try $0.insertPhoto(path: path, stamp: stamp(10), facts: .sample(sha: sha, colours: colours), importedAt: time) }
    }

    /// A new photo is known by its content at once, and skipped by later imports once its colours are written.
    func newPhotosAndTheirColours() throws {
        let id = try insert("/p/a.jpg", sha: "a")
        XCTAssertEqual(try catalogue.write { try $0.photo(withSHA256: PhotoFacts.sample(sha: "a").sha256) },
                       PhotoLocation(id: id, path: "/p/a.jpg"))
        XCTAssertEqual(try catalogue.write { try $0.photoID(atPath: "/p/a.jpg") }, id)
        XCTAssertNil(try catalogue.content(withSHA256: PhotoFacts.sample(sha: "a").sha256), "not analysed yet")
        XCTAssertNil(try catalogue.knownStamps()["/p/a.jpg"], "an import must read it again")
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [id])

        try catalogue.write { try $0.setColours(.greyWithRed, of: id) }

        XCTAssertEqual(try catalogue.content(withSHA256: PhotoFacts.sample(sha: "a").sha256), .photo)
        XCTAssertEqual(try catalogue.knownStamps()["/p/a.jpg"], stamp(10))
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.colours?.accent?.name, .red)
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [])
    }

    /// A photo's XMP packet is kept with it and shown with the photo.
    func xmpIsKept() throws {
        var facts = PhotoFacts.sample(sha: "x")
        facts.xmp = "<x:xmpmeta dc:subject=\"tram\"/>"
        let id = try catalogue.write { try $0.insertPhoto(path: "/p/x.jpg", stamp: stamp(10), facts: facts, importedAt: time) }
        let plain = try insert("/p/y.jpg", sha: "y")
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.xmp, "<x:xmpmeta dc:subject=\"tram\"/>")
        XCTAssertNil(try catalogue.photo(id: plain)?.facts.xmp)
    }

    /// A moved photo keeps its id and takes the new path and stamp.
    func movedPhotosKeepTheirID() throws {
        let id = try insert("/p/old.jpg", sha: "b", colours: .greyWithRed)
        try catalogue.write { try $0.movePhoto(id, to: "/q/new.jpg", stamp: stamp(20)) }
        let photo = try XCTUnwrap(try catalogue.photo(id: id))
        XCTAssertEqual(photo.path, "/q/new.jpg")
        XCTAssertEqual(photo.stamp, stamp(20))
        XCTAssertEqual(try catalogue.write { try $0.photoID(atPath: "/p/old.jpg") }, nil)
        XCTAssertEqual(try catalogue.write { try $0.photoID(atPath: "/q/new.jpg") }, id)
    }

    /// A duplicate path is noted on its photo, known to imports, and takes over when the photo's path goes.
    func duplicatesTakeOverAPathThatGoes() throws {
        let id = try insert("/p/one.jpg", sha: "c", colours: .greyWithRed)
        try catalogue.write { try $0.addDuplicatePath("/p/two.jpg", of: id, stamp: stamp(30), notedAt: time) }
        XCTAssertEqual(try catalogue.photo(id: id)?.duplicatePaths, ["/p/two.jpg"])
        XCTAssertEqual(try catalogue.knownStamps()["/p/two.jpg"], stamp(30))
        XCTAssertEqual(try catalogue.write { try $0.photoID(atPath: "/p/two.jpg") }, id)

        try catalogue.write { try $0.detachPath("/p/one.jpg") }
        let photo = try XCTUnwrap(try catalogue.photo(id: id), "the duplicate keeps the photo")
        XCTAssertEqual(photo.path, "/p/two.jpg")
        XCTAssertEqual(photo.stamp, stamp(30))
        XCTAssertEqual(photo.duplicatePaths, [])

        try catalogue.write { try $0.detachPath("/p/two.jpg") }
        XCTAssertNil(try catalogue.photo(id: id), "its last path gone, the photo goes")
    }

    /// Failures are kept by path, replaced when the same path fails again, and cleared.
    func failuresByPath() throws {
        try catalogue.write { try $0.recordFailure(ImportFailure(path: "/p/bad.jpg", reason: "first", failedAt: time)) }
        try catalogue.write { try $0.recordFailure(ImportFailure(path: "/p/bad.jpg", reason: "second", failedAt: time)) }
        try catalogue.write { try $0.recordFailure(ImportFailure(path: "/p/also.jpg", reason: "other", failedAt: time)) }
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/p/also.jpg", "/p/bad.jpg"])
        XCTAssertEqual(try catalogue.failures().last?.reason, "second")
        try catalogue.write { try $0.clearFailure(atPath: "/p/bad.jpg") }
        XCTAssertEqual(try catalogue.failures().map(\.path), ["/p/also.jpg"])
    }

    /// One variant per photo, kind and parameters; removed by path, and with its photo.
    func variantsAndRemoval() throws {
        let id = try insert("/p/v.jpg", sha: "d", colours: .greyWithRed)
        func variant(_ kind: String, _ parameters: String, _ path: String) -> Variant {
            Variant(photoID: id, kind: kind, parameters: parameters, path: path, fileSize: 5,
                    pixelSize: PixelSize(width: 40, height: 30), sha256: String(repeating: "e", count: 64), createdAt: time)
        }
        try catalogue.recordVariant(variant("show", "{\"hue\":10}", "/l/show1.jpg"))
        try catalogue.recordVariant(variant("show", "{\"hue\":10}", "/l/show2.jpg"))
        try catalogue.recordVariant(variant("hide", "{\"hue\":10}", "/l/hide1.jpg"))
        XCTAssertEqual(try catalogue.variant(of: id, kind: "show", parameters: "{\"hue\":10}")?.path, "/l/show2.jpg", "the same key replaces")
        XCTAssertEqual(try catalogue.allVariants().map(\.path).sorted(), ["/l/hide1.jpg", "/l/show2.jpg"])
        XCTAssertEqual(try catalogue.photo(id: id)?.variants.count, 2)

        try catalogue.removeVariant(atPath: "/l/hide1.jpg")
        XCTAssertEqual(try catalogue.allVariants().map(\.path), ["/l/show2.jpg"])

        try catalogue.write { try $0.removePhoto(id) }
        XCTAssertNil(try catalogue.photo(id: id))
        XCTAssertEqual(try catalogue.allVariants(), [], "a photo's variants go with it")
        XCTAssertNil(try catalogue.content(withSHA256: PhotoFacts.sample(sha: "d").sha256))
        XCTAssertThrowsError(try catalogue.recordVariant(variant("show", "{\"hue\":10}", "/l/late.jpg")),
                             "a variant made while its photo was removed") { error in
            XCTAssertEqual(error as? CatalogueError, .photoGone(id: id))
        }
        XCTAssertEqual(try catalogue.allVariants(), [])
        XCTAssertThrowsError(try catalogue.write { try $0.setColours(ColourAnalysis(palette: [], accent: nil), of: id) },
                             "colours found while the photo was removed") { error in
            XCTAssertEqual(error as? CatalogueError, .photoGone(id: id))
        }
        XCTAssertEqual(try insert("/p/next.jpg", sha: "e"), id + 1,
                       "a removed photo's id is never given out again: an id from an old listing or export names no other photo")
    }

    struct Abandoned: Error {}

    /// A write that throws leaves nothing behind.
    func writesAreAllOrNothing() throws {
        let kept = try insert("/p/kept.jpg", sha: "9", colours: .greyWithRed)
        try catalogue.recordVariant(Variant(photoID: kept, kind: "show", parameters: "{}", path: "/l/kept.jpg", fileSize: 1,
                                            pixelSize: PixelSize(width: 1, height: 1), sha256: String(repeating: "e", count: 64),
                                            createdAt: time))
        XCTAssertThrowsError(try catalogue.write { writer in
            _ = try writer.insertPhoto(path: "/p/half.jpg", stamp: stamp(1), facts: .sample(sha: "f"), importedAt: time)
            try writer.recordFailure(ImportFailure(path: "/p/half2.jpg", reason: "r", failedAt: time))
            try writer.removeVariant(atPath: "/l/kept.jpg")
            try writer.removePhoto(kept)
            throw Abandoned()
        })
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).map(\.id), [kept])
        XCTAssertEqual(try catalogue.failures(), [])
        XCTAssertEqual(try catalogue.allVariants().map(\.path), ["/l/kept.jpg"])
    }
}

final class SQLiteCatalogueContractTests: XCTestCase {
    func contract() throws -> CatalogueContract { CatalogueContract(catalogue: try SQLiteCatalogue.inMemory()) }
    func testNewPhotosAndTheirColours() throws { try contract().newPhotosAndTheirColours() }
    func testXMPIsKept() throws { try contract().xmpIsKept() }
    func testMovedPhotosKeepTheirID() throws { try contract().movedPhotosKeepTheirID() }
    func testDuplicatesTakeOverAPathThatGoes() throws { try contract().duplicatesTakeOverAPathThatGoes() }
    func testFailuresByPath() throws { try contract().failuresByPath() }
    func testVariantsAndRemoval() throws { try contract().variantsAndRemoval() }
    func testWritesAreAllOrNothing() throws { try contract().writesAreAllOrNothing() }
}

final class FakeCatalogueContractTests: XCTestCase {
    func contract() -> CatalogueContract { CatalogueContract(catalogue: FakeCatalogue()) }
    func testNewPhotosAndTheirColours() throws { try contract().newPhotosAndTheirColours() }
    func testXMPIsKept() throws { try contract().xmpIsKept() }
    func testMovedPhotosKeepTheirID() throws { try contract().movedPhotosKeepTheirID() }
    func testDuplicatesTakeOverAPathThatGoes() throws { try contract().duplicatesTakeOverAPathThatGoes() }
    func testFailuresByPath() throws { try contract().failuresByPath() }
    func testVariantsAndRemoval() throws { try contract().variantsAndRemoval() }
    func testWritesAreAllOrNothing() throws { try contract().writesAreAllOrNothing() }
}
