import Catalogue
import ColourScience
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class RemovalServiceTests: XCTestCase {
    let files = FakeFileSystem()
    let catalogue = FakeCatalogue()

    /// Imports fake photos, then records a show variant of each, with its file.
    func importLibrary(_ paths: [String]) async throws -> [String: CataloguedPhoto] {
        for path in paths { files[path] = FakePhoto.data(width: 8, height: 6, seed: path, colour: "#D01020") }
        _ = try await ImportService(fileSystem: files, decoder: FakePhotoCodec(), exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                    catalogue: catalogue, clock: FakeClock(), jobRunner: InlineJobRunner()).importPhotos(from: ["/photos"])
        for photo in catalogue.allPhotos {
            let path = "/library/variants/\(photo.id)/show.jpg"
            files[path] = Data([1])
            try catalogue.recordVariant(Variant(photoID: photo.id, kind: "show", parameters: "{}", path: path, fileSize: 1,
                                                pixelSize: PixelSize(width: 8, height: 6), sha256: "", createdAt: Date()))
        }
        return Dictionary(uniqueKeysWithValues: try catalogue.allPhotos.map { ($0.path, try XCTUnwrap(try catalogue.photo(id: $0.id))) })
    }

    func testRemovingNamedPhotosForgetsThemAndDeletesTheirVariantFilesNotTheirOriginals() async throws {
        let photos = try await importLibrary(["/photos/a.jpg", "/photos/b.jpg"])
        let a = try XCTUnwrap(photos["/photos/a.jpg"]), b = try XCTUnwrap(photos["/photos/b.jpg"])

        let thumbnails = FakeThumbnailCache()
        try thumbnails.keep([a.facts.sha256: Data([1]), b.facts.sha256: Data([2])])

        let summary = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library", thumbnails: thumbnails).remove([a])

        XCTAssertEqual(Set(thumbnails.jpegs.keys), [b.facts.sha256], "its thumbnail goes with it: check finds no stray")
        XCTAssertEqual(summary.removed.map(\.id), [a.id])
        XCTAssertEqual(summary.removed.map(\.path), ["/photos/a.jpg"])
        XCTAssertEqual(summary.variantFilesDeleted, 1)
        XCTAssertEqual(catalogue.allPhotos.map(\.id), [b.id])
        XCTAssertEqual(catalogue.variants.map(\.photoID), [b.id])
        XCTAssertNil(files["/library/variants/\(a.id)/show.jpg"])
        XCTAssertNotNil(files["/library/variants/\(b.id)/show.jpg"])
        XCTAssertEqual(files.removedFolders, ["/library/variants/\(a.id)"], "the folder its variants leave empty")
        XCTAssertNotNil(files["/photos/a.jpg"], "the original is never touched")
    }

    func testAVariantMadeAfterThePhotoWasReadIsDeletedWithIt() async throws {
        // `process` in another shell records a variant between the listing and the removal: its row went with
        // the photo, its file stayed until a check --repair.
        let photos = try await importLibrary(["/photos/a.jpg"])
        let a = try XCTUnwrap(photos["/photos/a.jpg"])
        let late = "/library/variants/\(a.id)/hide.jpg"
        files[late] = Data([2])
        try catalogue.recordVariant(Variant(photoID: a.id, kind: "hide", parameters: "{}", path: late, fileSize: 1,
                                            pixelSize: PixelSize(width: 8, height: 6), sha256: "", createdAt: Date()))
        let summary = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").remove([a])
        XCTAssertEqual(summary.variantFilesDeleted, 2)
        XCTAssertNil(files[late])
        XCTAssertNil(files["/library/variants/\(a.id)/show.jpg"])
    }

    func testMissingPhotosAreRemovedMovedToALivingDuplicateOrLoseTheirGoneDuplicates() async throws {
        // c.jpg and c-copy.jpg hold the same content: one photo with a duplicate path.
        files["/photos/c-copy.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "/photos/c.jpg", colour: "#D01020")
        files["/photos/d-copy.jpg"] = FakePhoto.data(width: 8, height: 6, seed: "/photos/d.jpg", colour: "#D01020")
        let photos = try await importLibrary(["/photos/a.jpg", "/photos/b.jpg", "/photos/c.jpg", "/photos/d.jpg"])
        let a = try XCTUnwrap(photos["/photos/a.jpg"]), b = try XCTUnwrap(photos["/photos/b.jpg"])
        let c = try XCTUnwrap(photos["/photos/c-copy.jpg"] ?? photos["/photos/c.jpg"])
        let d = try XCTUnwrap(photos["/photos/d-copy.jpg"] ?? photos["/photos/d.jpg"])
        XCTAssertEqual(c.duplicatePaths.count, 1)
        files["/photos/a.jpg"] = nil                       // gone: removed
        files[c.path] = nil                                // gone, its duplicate is not: moves there
        let living = c.duplicatePaths[0]
        files[d.duplicatePaths[0]] = nil                   // a gone duplicate: forgotten, the photo stays

        // A dry run first: the same decisions, said; nothing written or deleted.
        let writesBefore = files.writtenPaths.count
        let dry = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").removeMissing(dryRun: true)
        XCTAssertTrue(dry.dryRun)
        XCTAssertEqual(dry.removed.map(\.id), [a.id])
        XCTAssertEqual(dry.moved.map(\.id), [c.id])
        XCTAssertEqual(dry.moved.map(\.path), [living], "the path it would keep")
        XCTAssertEqual(dry.forgottenDuplicates, [d.duplicatePaths[0]])
        XCTAssertEqual(dry.variantFilesToDelete, 1)
        XCTAssertEqual(dry.variantFilesDeleted, 0)
        XCTAssertEqual(Set(catalogue.allPhotos.map(\.id)), [a.id, b.id, c.id, d.id], "nothing forgotten")
        XCTAssertEqual(try catalogue.photo(id: d.id)?.duplicatePaths.count, 1)
        XCTAssertNotNil(files["/library/variants/\(a.id)/show.jpg"], "nothing deleted")
        XCTAssertEqual(files.writtenPaths.count, writesBefore)

        let summary = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").removeMissing()

        XCTAssertEqual(summary.removed.map(\.id), [a.id])
        XCTAssertEqual(summary.moved.map(\.id), [c.id])
        XCTAssertEqual(summary.moved.map(\.path), [living])
        XCTAssertEqual(summary.forgottenDuplicates, [d.duplicatePaths[0]])
        XCTAssertEqual(summary.variantFilesDeleted, 1)
        XCTAssertEqual(Set(catalogue.allPhotos.map(\.id)), [b.id, c.id, d.id])
        XCTAssertEqual(try catalogue.photo(id: c.id)?.path, living)
        XCTAssertEqual(try catalogue.photo(id: d.id)?.duplicatePaths, [])
        XCTAssertNotNil(files["/library/variants/\(c.id)/show.jpg"], "a moved photo keeps its variants")

        let again = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").removeMissing()
        XCTAssertTrue(again.removed.isEmpty && again.moved.isEmpty && again.forgottenDuplicates.isEmpty)
    }

    func testAVariantFileThatCannotBeDeletedIsReportedAndTheRowsAreStillGone() async throws {
        let photos = try await importLibrary(["/photos/a.jpg"])
        let a = try XCTUnwrap(photos["/photos/a.jpg"])
        files.undeletable = ["/library/variants/\(a.id)/show.jpg"]

        let summary = try RemovalService(fileSystem: files, catalogue: catalogue, libraryDirectory: "/library").remove([a])

        XCTAssertEqual(summary.variantFilesDeleted, 0)
        XCTAssertEqual(summary.variantFilesLeft.map(\.path), ["/library/variants/\(a.id)/show.jpg"])
        XCTAssertEqual(summary.variantFilesLeft.first?.reason, "permission denied")
        XCTAssertEqual(files.removedFolders, [], "its folder still holds the file")
        XCTAssertEqual(catalogue.allPhotos.count, 0)
    }
}
