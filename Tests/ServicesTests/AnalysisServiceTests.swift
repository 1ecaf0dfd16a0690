import Catalogue
import ColourScience
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

final class AnalysisServiceTests: XCTestCase {
    let files = FakeFileSystem()
    let codec = FakePhotoCodec()
    let catalogue = FakeCatalogue()
    let clock = FakeClock()
    /// Shows how many photos were analysed at once.
    let jobRunner = OverlapProbe(meeting: 2)
    /// What the earlier rules are made to have found: a green accent.
    let earlier = ColourAnalysis(palette: [], accent: Accent(lab: Lab(l: 50, a: -40, b: 30), hue: 143, coverage: 0.5, name: .green))

    /// No EXIF reader stub is set up: analysing again must not read EXIF.
    func service() -> AnalysisService {
        AnalysisService(fileSystem: files, decoder: codec, exifReader: StubExifReader(), hasher: CryptoHasher(), catalogue: catalogue,
                        clock: clock, jobRunner: jobRunner)
    }

    /// Imports red photos (with EXIF), then makes them look analysed by earlier rules that found green.
    func importAnalysedByEarlierRules(_ names: [String]) async throws -> [CataloguedPhoto] {
        for name in names { files["/photos/\(name)"] = FakePhoto.data(width: 40, height: 30, seed: name, make: "Canon", colour: "#D01020") }
        _ = try await ImportService(fileSystem: files, decoder: codec, exifReader: FakeExifReader(), hasher: CryptoHasher(),
                                    catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner()).importPhotos(from: ["/photos"])
        try catalogue.write { writer in try catalogue.allPhotos.forEach { try writer.setColours(earlier, of: $0.id) } }
        catalogue.analysedByEarlierRules = Set(catalogue.allPhotos.map(\.id))
        return try catalogue.photosNeedingAnalysis()
    }

    func testPhotosAnalysedByEarlierRulesGetTheCurrentRulesColoursAndKeepTheirExifAndVariants() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg"])
        let id = photos[0].id
        let variant = Variant(photoID: id, kind: "show", parameters: "{}", path: "/library/v.jpg", fileSize: 1,
                              pixelSize: PixelSize(width: 40, height: 30), sha256: "", createdAt: Date())
        try catalogue.recordVariant(variant)

        let summary = try await service().analyse(photos, jobs: 2)

        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.failures.count, 0)
        XCTAssertEqual(summary.accentsChanged.map(\.photoID), [id])
        XCTAssertEqual(summary.accentsChanged.first?.before, .green)
        XCTAssertEqual(summary.accentsChanged.first?.after, .red)
        let stored = try XCTUnwrap(try catalogue.photo(id: id))
        XCTAssertEqual(stored.facts.colours?.accent?.name, .red)
        XCTAssertEqual(stored.facts.exif, photos[0].facts.exif, "EXIF is not read again or changed")
        XCTAssertEqual(stored.path, photos[0].path)
        XCTAssertEqual(catalogue.variants, [variant], "variants' records are kept")
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [])
    }

    func testAPhotoRemovedWhileItIsAnalysedIsLeftOutAndTheRestOfItsBatchKept() async throws {
        // Before, the foreign key failed the batch's transaction: nothing of it was kept, and the command stopped (69).
        let photos = try await importAnalysedByEarlierRules(["a.jpg", "b.jpg", "c.jpg"])
        let removed = try XCTUnwrap(photos.first { $0.path == "/photos/b.jpg" })
        files.beforeRead = { [catalogue] path in
            if path == removed.path { try? catalogue.write { try $0.removePhoto(removed.id) } }
        }
        let summary = try await service().analyse(photos, jobs: 1)
        XCTAssertEqual(summary.analysed, 2)
        XCTAssertEqual(summary.accentsChanged.map(\.photoID).sorted(), photos.map(\.id).filter { $0 != removed.id }.sorted())
        XCTAssertNil(try catalogue.photo(id: removed.id))
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [])
    }

    func testAChosenSubjectIsNoAccentChangedAsItStaysTheAccent() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg"])
        try catalogue.write { try $0.chooseSubject(earlier.accent, of: photos[0].id, at: Date()) }
        let summary = try await service().analyse(try catalogue.photosNeedingAnalysis(), jobs: 1)
        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.accentsChanged.count, 0, "the analysis found red, but the person's green stays the accent")
        XCTAssertEqual(try catalogue.photo(id: photos[0].id)?.facts.colours?.accent?.name, .green)
    }

    func testPhotosAreAnalysedAsManyAtOnceAsThereAreJobs() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])

        let summary = try await service().analyse(photos, jobs: 2)

        XCTAssertEqual(summary.analysed, 4)
        XCTAssertEqual(jobRunner.maximumInFlight, 2)
    }

    func testOneJobAnalysesOnePhotoAtATime() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg", "b.jpg", "c.jpg"])

        let summary = try await service().analyse(photos, jobs: 1)

        XCTAssertEqual(summary.analysed, 3)
        XCTAssertEqual(jobRunner.maximumInFlight, 1)
    }

    func testAPhotoWhoseAccentStaysTheSameIsAnalysedButNotListedAsChanged() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg"])
        let once = try await service().analyse(photos, jobs: 1)
        XCTAssertEqual(once.accentsChanged.count, 1)

        let again = try await service().analyse([try XCTUnwrap(try catalogue.photo(id: photos[0].id))], jobs: 1)

        XCTAssertEqual(again.analysed, 1)
        XCTAssertEqual(again.accentsChanged.count, 0)
    }

    func testAChangedOrMissingFileFailsAndKeepsItsColoursWhileTheOthersAreAnalysed() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg", "b.jpg", "c.jpg"])
        files["/photos/a.jpg"] = FakePhoto.data(width: 40, height: 30, seed: "edited", colour: "#1F5AA6")
        files["/photos/b.jpg"] = nil
        files.expectedMissing = ["/photos/b.jpg"]

        let summary = try await service().analyse(photos, jobs: 3)

        XCTAssertEqual(summary.analysed, 1)
        XCTAssertEqual(summary.failures.map(\.path), ["/photos/a.jpg", "/photos/b.jpg"])
        XCTAssertEqual(summary.failures[0].reason, "the file has changed since it was imported: import it again instead")
        XCTAssertTrue(summary.failures[1].reason.contains("the file is gone since it was imported: import its new place instead"),
                      summary.failures[1].reason)
        let byPath = Dictionary(uniqueKeysWithValues: catalogue.allPhotos.map { ($0.path, $0) })
        XCTAssertEqual(byPath["/photos/a.jpg"]?.facts.colours, earlier)
        XCTAssertEqual(byPath["/photos/b.jpg"]?.facts.colours, earlier)
        XCTAssertEqual(byPath["/photos/c.jpg"]?.facts.colours?.accent?.name, .red)
    }

    func testAnInterruptedRunKeepsTheBatchesItHadWritten() async throws {
        let photos = try await importAnalysedByEarlierRules(["a.jpg", "b.jpg"])
        catalogue.failingWrite = catalogue.writes + 2

        do {
            _ = try await service().analyse(photos, jobs: 1, batchSize: 1)
            XCTFail("the second write fails")
        } catch is FakeCatalogue.InjectedFailure {}

        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [photos[1].id], "the first photo's colours were stored")
    }
}
