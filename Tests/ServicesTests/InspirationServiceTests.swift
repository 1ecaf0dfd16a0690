import Catalogue
import ColourScience
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

/// Makes "variants" that are fake photos of one grey, recorded in the catalogue as processing would.
final class FakeVariantMaker: VariantMaking, @unchecked Sendable {
    let files: FakeFileSystem
    let catalogue: FakeCatalogue
    var calls = 0

    init(files: FakeFileSystem, catalogue: FakeCatalogue) {
        self.files = files
        self.catalogue = catalogue
    }

    func process(_ photos: [CataloguedPhoto], options: ProcessingOptions, progress: any ImportProgress,
                 interruption: any Interruption) async throws -> ProcessingSummary {
        calls += 1
        catalogue.add(photos)
        for photo in photos {
            for spec in VariantSpec.specs(for: photo, options: options) ?? [] {
                let path = "/library/variants/\(photo.id)-\(spec.kind.rawValue).jpg"
                files[path] = FakePhoto.data(width: 1200, height: 900, seed: path, colour: "#777777")
                try catalogue.recordVariant(spec.record(path: path, fileSize: 1, pixelSize: PixelSize(width: 1200, height: 900), sha256: "",
                                                        createdAt: Date()))
            }
        }
        return ProcessingSummary()
    }
}

final class InspirationServiceTests: XCTestCase {
    func photo(_ id: PhotoID, palette: [(String, Double)], accent: (String, Double)?) -> CataloguedPhoto {
        let entries = palette.map { hex, weight in
            PaletteEntry(lab: Lab(RGBA(parsing: hex)!), weight: weight, name: ColourName.nearest(to: Lab(RGBA(parsing: hex)!)))
        }
        let accentColour = accent.map { hex, coverage in
            let lab = Lab(RGBA(parsing: hex)!)
            return Accent(lab: lab, hue: lab.lch.h, coverage: coverage, name: ColourName.nearest(to: lab))
        }
        return CataloguedPhoto(id: id, path: "/photos/\(id).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                               facts: PhotoFacts(sha256: String(repeating: "a", count: 64), format: .jpeg,
                                                 pixelSize: PixelSize(width: 4000, height: 3000), exif: nil,
                                                 colours: ColourAnalysis(palette: entries, accent: accentColour)),
                               importedAt: Date())
    }

    var library: [CataloguedPhoto] {
        [
            photo(1, palette: [("#2E8B2E", 1)], accent: ("#2E8B2E", 1)),                       // all green
            photo(2, palette: [("#808080", 0.64), ("#2E8B2E", 0.3), ("#D01020", 0.06)], accent: ("#D01020", 0.06)), // red bus, park
            photo(3, palette: [("#808080", 1)], accent: nil),                                  // grey
            photo(4, palette: [("#808080", 0.64), ("#2E8B2E", 0.3), ("#D01020", 0.06)], accent: ("#D01020", 0.06)), // the same
            photo(5, palette: [("#707070", 0.4), ("#3060B0", 0.3), ("#D09050", 0.3)], accent: ("#D09050", 0.3)), // soft orange awning
            photo(7, palette: [("#808080", 0.94), ("#D01020", 0.06)], accent: ("#D01020", 0.06)), // red bus in a grey street
            photo(6, palette: [], accent: nil),
        ]
    }

    func testRanksTheSmallVividAccentsFirstStablyAndLeavesOutPhotosWithNothingToSplash() {
        let ranked = InspirationService.rank(library)
        // The all-green photo's "accent" fills the frame (size 0: no splash), so it comes last; the bus in
        // an all-grey street, whose show picture would be the photo itself, scores under the same bus in
        // a park (the learned model decides where it stands against the soft orange awning).
        XCTAssertEqual(Array(ranked.map(\.photo.id).prefix(2)), [2, 4], "ties keep the id order")
        XCTAssertEqual(Set(ranked.map(\.photo.id)), [1, 2, 4, 5, 7], "grey photos are left out")
        XCTAssertEqual(ranked.last?.photo.id, 1)
        XCTAssertEqual(ranked.map(\.rank), [1, 2, 3, 4, 5])
        XCTAssertLessThan(ranked[4].potential.score, ranked[3].potential.score / 2)
        let score = Dictionary(ranked.map { ($0.photo.id, $0.potential.score) }, uniquingKeysWith: { first, _ in first })
        XCTAssertLessThan(score[7]!, score[2]!)
        XCTAssertEqual(ranked[0].potential.score, ranked[1].potential.score)
        XCTAssertEqual(InspirationService.rank(library, limit: 2).map(\.photo.id), [2, 4])
    }

    func testACatalogueIsRankedAChunkAtATimeAsWholeAndOnlyTheEntriesAskedForAreRead() throws {
        let catalogue = FakeCatalogue()
        try catalogue.write { writer in
            for photo in library.sorted(by: { $0.id < $1.id }) {
                var facts = photo.facts
                facts.sha256 = String(format: "%064x", photo.id)
                _ = try writer.insertPhoto(path: photo.path, stamp: photo.stamp, facts: facts, importedAt: photo.importedAt)
            }
        }
        let whole = InspirationService.rank(catalogue.allPhotos)
        let ranking = try InspirationService.ranking(in: catalogue, matching: PhotoQuery(), chunk: 3)
        XCTAssertEqual(ranking.map(\.photoID), whole.map(\.photo.id))
        XCTAssertEqual(ranking.map(\.potential), whole.map(\.potential))
        XCTAssertEqual(catalogue.photoPagesAsked, [0..<3, 3..<6, 6..<9], "three chunks, the last short")

        let entries = try InspirationService.entries(ranking, 1..<3, in: catalogue)
        XCTAssertEqual(entries.map(\.rank), [2, 3])
        XCTAssertEqual(entries.map(\.photo.id), Array(whole.map(\.photo.id)[1..<3]))
        XCTAssertEqual(try InspirationService.entries(ranking, 4..<60, in: catalogue).map(\.rank), [5], "a range past the end is cut")
        // Photos whose file is gone are passed over, the next numbered in their place, up to a limit (a drive not mounted).
        let gone = Set(whole.map(\.photo.id).prefix(2))
        let there = try InspirationService.entries(ranking, first: 2, in: catalogue) { !gone.contains($0.id) }
        XCTAssertEqual(there.entries.map(\.photo.id), Array(whole.map(\.photo.id)[2..<4]))
        XCTAssertEqual(there.entries.map(\.rank), [1, 2])
        XCTAssertEqual(there.passedOver, 2)
        let unmounted = try InspirationService.entries(ranking, first: 2, in: catalogue, passingOverAtMost: 3) { _ in false }
        XCTAssertEqual([unmounted.entries.count, unmounted.passedOver], [0, 3], "no further than the limit")
        XCTAssertEqual(try InspirationService.ranking(in: catalogue, matching: PhotoQuery(), colour: .name(.red), chunk: 100).map(\.photoID),
                       InspirationService.rank(catalogue.allPhotos, colour: .name(.red)).map(\.photo.id))
    }

    func testTheColourFilterMatchesTheAccentByNameOrCloseness() {
        XCTAssertEqual(InspirationService.rank(library, colour: .name(.red)).map(\.photo.id), [2, 4, 7])
        XCTAssertEqual(InspirationService.rank(library, colour: .colour(Lab(RGBA(parsing: "#D59552")!))).map(\.photo.id), [5])
        XCTAssertEqual(InspirationService.rank(library, colour: .name(.blue)).map(\.photo.id), [])
    }

    func testPicturesAreSmallJPEGsBesideThePageLinkedRelatively() async throws {
        let files = FakeFileSystem()
        let catalogue = FakeCatalogue()
        let encoder = RecordingEncoder()
        for photo in library { files[photo.path] = FakePhoto.data(width: 1200, height: 900, seed: photo.path) }
        let maker = FakeVariantMaker(files: files, catalogue: catalogue)
        let service = InspirationService(fileSystem: files, decoder: FakePhotoCodec(), encoder: encoder, catalogue: catalogue,
                                         variantMaker: maker, libraryDirectory: "/library")
        let entries = InspirationService.rank(library, limit: 2)

        let pictures = try await service.pictures(for: entries, pageDirectory: "/site", folder: "page_files")

        XCTAssertEqual(maker.calls, 1)
        XCTAssertEqual(pictures[2], InspirationImages(original: "page_files/2-original.jpg", show: "page_files/2-show.jpg",
                                                      hide: "page_files/2-hide.jpg"))
        XCTAssertEqual(Set(files.writtenPaths.filter { $0.hasPrefix("/site/") }),
                       Set(["2", "4"].flatMap { id in ["original", "show", "hide"].map { "/site/page_files/\(id)-\($0).jpg" } }))
        XCTAssertTrue(encoder.encoded.allSatisfy { max($0.image.width, $0.image.height) <= InspirationService.thumbnailSize })
        XCTAssertTrue(encoder.encoded.allSatisfy { $0.format == .jpeg })
        // The show and hide pictures say what made them; the originals' small copies are the photos'.
        let marks = encoder.encoded.map { $0.options.xmp.map { $0 == ShowhidePictureMark.packet("show") ? "show" : $0 == ShowhidePictureMark.packet("hide") ? "hide" : $0 } ?? "none" }
        XCTAssertEqual(marks.sorted(), ["hide", "hide", "none", "none", "show", "show"])
    }

    /// A page written again over an earlier one, with fewer photos: the earlier page's other pictures go,
    /// and any other file in the folder stays.
    func testAPageWrittenAgainLeavesNoPictureOfTheEarlierOne() async throws {
        let files = FakeFileSystem()
        let catalogue = FakeCatalogue()
        for photo in library { files[photo.path] = FakePhoto.data(width: 1200, height: 900, seed: photo.path) }
        let service = InspirationService(fileSystem: files, decoder: FakePhotoCodec(), encoder: RecordingEncoder(), catalogue: catalogue,
                                         variantMaker: FakeVariantMaker(files: files, catalogue: catalogue), libraryDirectory: "/library")
        _ = try await service.pictures(for: InspirationService.rank(library, limit: 2), pageDirectory: "/site", folder: "page_files")
        files["/site/page_files/notes.txt"] = Data("mine".utf8)
        files["/site/page_files/9-original.jpg.bak"] = Data("mine".utf8)
        _ = try await service.pictures(for: InspirationService.rank(library, limit: 1), pageDirectory: "/site", folder: "page_files")
        XCTAssertEqual(Set(files.walk(["/site/page_files"]).files.map(\.path)),
                       ["/site/page_files/2-original.jpg", "/site/page_files/2-show.jpg", "/site/page_files/2-hide.jpg",
                        "/site/page_files/notes.txt", "/site/page_files/9-original.jpg.bak"])
    }

    func testAReadOnlyCatalogueMakesNoVariantForThePage() async throws {
        let files = FakeFileSystem()
        let catalogue = FakeCatalogue()
        for photo in library { files[photo.path] = FakePhoto.data(width: 1200, height: 900, seed: photo.path) }
        let service = InspirationService(fileSystem: files, decoder: FakePhotoCodec(), encoder: RecordingEncoder(), catalogue: catalogue,
                                         variantMaker: UnexpectedVariantMaker(), libraryDirectory: "/library")
        let pictures = try await service.pictures(for: InspirationService.rank(library, limit: 1), pageDirectory: "/site", folder: "f",
                                                  makingMissing: false)
        XCTAssertEqual(pictures.values.map(\.original), ["f/2-original.jpg"])
        XCTAssertNil(pictures.values.first?.show, "none made, none shown")
    }

    /// A copy of the catalogue in another library folder names the first library's variant files: a page
    /// made there shows no show or hide picture it cannot make (read-only), not the other library's.
    func testAVariantRecordedInAnotherLibrarysFolderIsNotShown() async throws {
        let files = FakeFileSystem()
        let catalogue = FakeCatalogue()
        for photo in library { files[photo.path] = FakePhoto.data(width: 1200, height: 900, seed: photo.path) }
        _ = try await FakeVariantMaker(files: files, catalogue: catalogue).process(library, options: ProcessingOptions(), progress: SilentProgress())
        let service = InspirationService(fileSystem: files, decoder: FakePhotoCodec(), encoder: RecordingEncoder(), catalogue: catalogue,
                                         variantMaker: UnexpectedVariantMaker(), libraryDirectory: "/copy")
        files.resetReads()
        let pictures = try await service.pictures(for: InspirationService.rank(library, limit: 1), pageDirectory: "/site", folder: "f",
                                                  makingMissing: false)
        XCTAssertEqual(pictures.values.map(\.original), ["f/2-original.jpg"])
        XCTAssertNil(pictures.values.first?.show, "the first library's show picture is not this one's")
        XCTAssertFalse(files.readPaths.contains { $0.hasPrefix("/library/") }, "\(files.readPaths)")
    }

    func testAnEntryWhoseFileIsGoneHasNoPictures() async throws {
        let files = FakeFileSystem()
        files.expectedMissing = ["/photos/2.jpg"]
        let catalogue = FakeCatalogue()
        let service = InspirationService(fileSystem: files, decoder: FakePhotoCodec(), encoder: RecordingEncoder(), catalogue: catalogue,
                                         variantMaker: FakeVariantMaker(files: files, catalogue: catalogue), libraryDirectory: "/library")
        let pictures = try await service.pictures(for: InspirationService.rank(library, limit: 1), pageDirectory: "/site", folder: "f")
        XCTAssertEqual(pictures, [:])
    }
}
