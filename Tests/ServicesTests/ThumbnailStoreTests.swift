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
    lazy var store = ThumbnailStore(fileSystem: files, decoder: decoder, encoder: encoder, libraryDirectory: "/library")
    let sha = "ab" + String(repeating: "0", count: 62)

    func photo(_ path: String) -> CataloguedPhoto {
        CataloguedPhoto(id: 1, path: path, stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                        facts: PhotoFacts(sha256: sha, format: .jpeg, pixelSize: PixelSize(width: 4000, height: 3000), exif: nil),
                        importedAt: Date())
    }

    func testAThumbnailIsKeptByContentHashAt320PixelsUpright() throws {
        XCTAssertEqual(store.path(forSHA256: sha), "/library/thumbnails/ab/\(sha).jpg")
        try store.keep(from: TestImage.solid(.red, width: 500, height: 375), sha256: sha)
        XCTAssertEqual(encoder.encoded.map { "\($0.image.width)x\($0.image.height) \($0.format) q\($0.options.quality)" }, ["320x240 jpeg q80"])
        XCTAssertEqual(files.writtenPaths, ["/library/thumbnails/ab/\(sha).jpg"])
        XCTAssertTrue(store.exists(for: photo("/p/a.jpg")))

        try store.keep(from: TestImage.solid(.red, width: 500, height: 375), sha256: sha)
        XCTAssertEqual(encoder.encoded.count, 1, "one already there is not made again")
    }

    func testASmallImageIsNotEnlarged() throws {
        try store.keep(from: TestImage.solid(.red, width: 200, height: 100), sha256: sha)
        XCTAssertEqual(encoder.encoded.map(\.image.width), [200])
    }

    func testAMissingThumbnailIsMadeFromThePhotoAndKept() throws {
        try files.writeAtomically(FakePhoto.data(width: 4000, height: 3000, seed: "a"), to: "/p/a.jpg")
        let data = try store.thumbnail(of: photo("/p/a.jpg"))
        XCTAssertEqual(String(decoding: data, as: UTF8.self).prefix(12), "jpeg 320x240")
        XCTAssertTrue(files.writtenPaths.contains(store.path(forSHA256: sha)))
        XCTAssertEqual(try store.thumbnail(of: photo("/p/a.jpg")), data)
        XCTAssertEqual(decoder.decodeCount, 1)
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
    }
}
