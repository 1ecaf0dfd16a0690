import Catalogue
import ColourScience
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class ThumbnailStoreTests: XCTestCase {
    let files = FakeFileSystem()
    let decoder = FakePhotoCodec()
    let encoder = RecordingEncoder()
    let cache = FakeThumbnailCache()
    lazy var store = ThumbnailStore(cache: cache, fileSystem: files, decoder: decoder, encoder: encoder)
    let sha = "ab" + String(repeating: "0", count: 62)

    func photo(_ path: String) -> CataloguedPhoto {
        CataloguedPhoto(id: 1, path: path, stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                        facts: PhotoFacts(sha256: sha, format: .jpeg, pixelSize: PixelSize(width: 4000, height: 3000), exif: nil),
                        importedAt: Date())
    }

    func testAThumbnailIsAJPEGOf320PixelsKeptByContent() throws {
        try store.keep(from: TestImage.solid(.red, width: 500, height: 375), sha256: sha)
        XCTAssertEqual(encoder.encoded.map { "\($0.image.width)x\($0.image.height) \($0.format) q\($0.options.quality)" }, ["320x240 jpeg q80"])
        XCTAssertEqual(Array(cache.jpegs.keys), [sha])
        XCTAssertTrue(files.writtenPaths.isEmpty, "kept in the cache, not as a file a photo")
    }

    func testASmallImageIsNotEnlarged() throws {
        _ = try store.jpeg(from: TestImage.solid(.red, width: 200, height: 100))
        XCTAssertEqual(encoder.encoded.map(\.image.width), [200])
        XCTAssertTrue(cache.jpegs.isEmpty, "made, not kept")
    }

    func testAMissingThumbnailIsMadeFromThePhotoUprightAndKept() throws {
        try files.writeAtomically(FakePhoto.data(width: 4000, height: 3000, seed: "a"), to: "/p/a.jpg")
        let data = try store.thumbnail(of: photo("/p/a.jpg"))
        XCTAssertEqual(String(decoding: data, as: UTF8.self).prefix(12), "jpeg 320x240")
        XCTAssertEqual(decoder.decodedOptions.map(\.appliesOrientation), [true])
        XCTAssertEqual(cache.jpegs[sha], data)
        XCTAssertEqual(try store.thumbnail(of: photo("/p/a.jpg")), data)
        XCTAssertEqual(decoder.decodeCount, 1, "the second is read from the cache")
    }

    func testACacheThatFailsCostsOnlyTime() throws {
        try files.writeAtomically(FakePhoto.data(width: 4000, height: 3000, seed: "a"), to: "/p/a.jpg")
        cache.failing = true
        XCTAssertEqual(String(decoding: try store.thumbnail(of: photo("/p/a.jpg")), as: UTF8.self).prefix(12), "jpeg 320x240")
        XCTAssertEqual(String(decoding: try store.thumbnail(of: photo("/p/a.jpg")), as: UTF8.self).prefix(12), "jpeg 320x240")
        XCTAssertEqual(decoder.decodeCount, 2)
    }

    func testAPhotoThatCannotBeReadOrDecodedSaysWhich() throws {
        files.expectedMissing = ["/p/gone.jpg"]
        XCTAssertThrowsError(try store.thumbnail(of: photo("/p/gone.jpg"))) { error in
            guard case let .unreadable(path, _) = error as? PhotoError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/p/gone.jpg")
        }
        try files.writeAtomically(FakePhoto.broken(reason: "premature end of data"), to: "/p/broken.jpg")
        XCTAssertThrowsError(try store.thumbnail(of: photo("/p/broken.jpg"))) { error in
            XCTAssertEqual(error as? PhotoError, .undecodable(path: "/p/broken.jpg", reason: "premature end of data"))
        }
        XCTAssertTrue(cache.jpegs.isEmpty)
    }
}
