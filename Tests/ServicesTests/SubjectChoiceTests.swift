import Catalogue
import ColourScience
import Foundation
import Imaging
import Services
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
