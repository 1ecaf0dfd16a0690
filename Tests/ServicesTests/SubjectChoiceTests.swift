import Catalogue
import ColourScience
import Foundation
import Imaging
@testable import Services
import TestSupport
import XCTest

final class SubjectChoiceTests: XCTestCase {
    let catalogue = FakeCatalogue()
    let red = Accent.sample("#CC141E", coverage: 0.1), blue = Accent.sample("#1F5AA6", coverage: 0.06)
    var id: PhotoID = 0

    override func setUpWithError() throws {
        let colours = ColourAnalysis(palette: [.sample("#808080", 0.84), .sample("#CC141E", 0.1), .sample("#1F5AA6", 0.06)],
                                     accent: red, candidates: [red, blue])
        id = try catalogue.write {
            try $0.insertPhoto(path: "/p/bus.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                               facts: PhotoFacts(sha256: String(repeating: "a", count: 64), format: .jpeg,
                                                 pixelSize: PixelSize(width: 4000, height: 3000), exif: nil, colours: colours),
                               importedAt: Date(timeIntervalSince1970: 0))
        }
    }

    func testTheChosenCandidateIsTheAccentThatProcessingAndInspirationUse() throws {
        let chosen = try SubjectChoice(catalogue: catalogue, clock: FakeClock()).choose(candidate: 2, of: id)
        XCTAssertEqual(chosen.facts.colours?.accent, blue)
        XCTAssertEqual(chosen.facts.colours?.subjectChosen, true)
        // Processing and export resolve the accent through VariantSpec; inspiration ranks by it.
        let spec = try XCTUnwrap(VariantSpec.spec(for: chosen, kind: .show, options: ProcessingOptions()))
        XCTAssertEqual(spec.splash.hue, (blue.hue * 10).rounded() / 10, accuracy: 0.001)
        XCTAssertTrue(try XCTUnwrap(InspirationService.rank([chosen]).first).potential.reason.contains("blue"))
    }

    func testWhatCannotBeChosenSaysWhy() throws {
        let choice = SubjectChoice(catalogue: catalogue, clock: FakeClock())
        XCTAssertThrowsError(try choice.choose(candidate: 3, of: id)) { error in
            XCTAssertEqual(error as? SubjectChoiceError, .noCandidate(id, rank: 3, candidates: 2))
            XCTAssertEqual(error.localizedDescription, "Photo \(id) has 2 accent candidates, not a candidate 3.")
        }
        XCTAssertThrowsError(try choice.choose(candidate: 1, of: 99)) { error in
            XCTAssertEqual(error.localizedDescription, "There is no photo 99 in the catalogue.")
        }
        let grey = try catalogue.write {
            try $0.insertPhoto(path: "/p/new.jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                               facts: PhotoFacts(sha256: String(repeating: "b", count: 64), format: .jpeg,
                                                 pixelSize: PixelSize(width: 40, height: 30), exif: nil),
                               importedAt: Date(timeIntervalSince1970: 0))
        }
        XCTAssertThrowsError(try choice.choose(candidate: 1, of: grey)) { error in
            XCTAssertEqual(error as? SubjectChoiceError, .notAnalysed(grey))
            XCTAssertTrue(error.localizedDescription.contains("gallery analyse"))
        }
        XCTAssertEqual(SubjectChoiceError.noCandidate(1, rank: 2, candidates: 1).localizedDescription,
                       "Photo 1 has 1 accent candidate, not a candidate 2.")
    }
}

final class NearDuplicateTests: XCTestCase {
    func photo(_ id: PhotoID, camera: String = "Canon", taken: String?, accent hex: String) -> InspirationEntry {
        let accent = Accent.sample(hex, coverage: 0.08)
        let colours = ColourAnalysis(palette: [.sample("#808080", 0.92), .sample(hex, 0.08)], accent: accent)
        let photo = CataloguedPhoto(id: id, path: "/p/\(id).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                    facts: PhotoFacts(sha256: String(repeating: "\(id % 10)", count: 64), format: .jpeg,
                                                      pixelSize: PixelSize(width: 4000, height: 3000),
                                                      exif: ExifMetadata(make: camera, takenAt: taken.flatMap { ExifDateTime(exif: $0) }),
                                                      colours: colours),
                                    importedAt: Date(timeIntervalSince1970: 0))
        return InspirationEntry(rank: Int(id), photo: photo, potential: SplashPotential(colours, pixelSize: photo.facts.pixelSize)!)
    }

    func testConsecutiveShotsOfOneSceneAreGroupedUnderTheBestRanked() {
        let entries = [
            photo(1, taken: "2024:05:01 10:00:00", accent: "#CC141E"),
            photo(2, taken: "2024:05:01 12:00:00", accent: "#CC141E"),           // the same colour, two hours later
            photo(3, taken: "2024:05:01 10:01:30", accent: "#C8161F"),           // 90 s after 1, the same red: one scene
            photo(4, camera: "Nikon", taken: "2024:05:01 10:00:10", accent: "#CC141E"),  // another camera
            photo(5, taken: "2024:05:01 10:00:20", accent: "#1F5AA6"),           // another colour
            photo(6, taken: nil, accent: "#CC141E"),                             // no date: alone
            photo(7, taken: "2024:05:01 10:03:00", accent: "#CC141E"),           // 90 s after 3: joins through it
        ]
        XCTAssertEqual(InspirationService.groupingNearDuplicates(entries).map { $0.map(\.photo.id) }, [[1, 3, 7], [2], [4], [5], [6]])
    }

    func testShotsAMinuteApartAcrossTheEndOfAMonthOrAYearAreOneScene() {
        // Months counted as 31 days put 30 April 23:59:30 and 1 May 00:00:30 a day apart.
        for (first, second) in [("2024:04:30 23:59:30", "2024:05:01 00:00:30"), ("2023:02:28 23:59:30", "2023:03:01 00:00:30"),
                                ("2024:02:29 23:59:30", "2024:03:01 00:00:30"), ("2023:12:31 23:59:30", "2024:01:01 00:00:30")] {
            let entries = [photo(1, taken: first, accent: "#CC141E"), photo(2, taken: second, accent: "#CC141E")]
            XCTAssertEqual(InspirationService.groupingNearDuplicates(entries).count, 1, "\(first) and \(second)")
        }
        XCTAssertEqual(InspirationService.days(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(InspirationService.days(year: 2000, month: 3, day: 1), 11_017)
        XCTAssertEqual(InspirationService.days(year: 1969, month: 12, day: 31), -1)
    }
}
