@testable import Catalogue
@testable import CatalogueSQLite
import ColourScience
import Foundation
import GRDB
import Imaging
import XCTest

final class ColourSearchTests: XCTestCase {
    var catalogue: SQLiteCatalogue!
    let stamp = FileStamp(size: 1, modifiedAtNanoseconds: 1)
    let day = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        catalogue = try SQLiteCatalogue.inMemory()
    }

    func entry(_ hex: String, _ weight: Double) -> PaletteEntry { .sample(hex, weight) }

    func accent(_ hex: String, coverage: Double) -> Accent { .sample(hex, coverage: coverage) }

    @discardableResult
    func add(_ name: String, _ palette: [PaletteEntry], accent: Accent? = nil, camera: String? = nil, taken: String? = nil) throws -> PhotoID {
        let exif = camera == nil && taken == nil ? nil : ExifMetadata(make: camera, takenAt: taken.flatMap { ExifDateTime(exif: $0) })
        let facts = PhotoFacts(sha256: String(repeating: "0", count: 56) + String(format: "%08x", abs(name.hashValue) % 0xFFFF_FFFF),
                               format: .jpeg, pixelSize: PixelSize(width: 4, height: 3), exif: exif,
                               colours: ColourAnalysis(palette: palette, accent: accent))
        return try catalogue.write { try $0.insertPhoto(path: "/p/\(name).jpg", stamp: stamp, facts: facts, importedAt: day) }
    }

    func makeLibrary() throws {
        try add("bus", [entry("#808080", 0.9), entry("#CC141E", 0.1)], accent: accent("#CC141E", coverage: 0.1), camera: "Canon", taken: "2020:01:01 10:00:00")
        try add("roses", [entry("#D01020", 0.6), entry("#206020", 0.4)], accent: accent("#D01020", coverage: 0.6), camera: "Nikon", taken: "2021:06:01 10:00:00")
        try add("sea", [entry("#1F5AA6", 0.7), entry("#F0F0F0", 0.3)], accent: accent("#1F5AA6", coverage: 0.7), camera: "Canon", taken: "2022:01:01 10:00:00")
        try add("snow", [entry("#FAFAFA", 1)])
        try add("orange-dot", [entry("#707070", 0.97), entry("#FF8C00", 0.03)], accent: accent("#FF8C00", coverage: 0.03))
    }

    func names(_ matches: [ColourMatch]) -> [String] {
        matches.map { ($0.photo.path as NSString).lastPathComponent.replacingOccurrences(of: ".jpg", with: "") }
    }

    func testAColourPhraseSaysTheColourAndHowItStands() throws {
        let cases: [(String, ColourTarget, Bool, Bool)] = [
            ("orange", .name(.orange), false, false),
            ("Orange as the accent", .name(.orange), true, false),
            ("orange as an accent", .name(.orange), true, false),
            ("orange as accent", .name(.orange), true, false),
            ("orange  as a small   accent", .name(.orange), true, true),
            ("a small orange accent", .name(.orange), true, true),
            ("orange accent", .name(.orange), true, false),
            ("rgb(31, 90, 166) as a small accent", .colour(Lab(RGBA(red: 31, green: 90, blue: 166))), true, true),
        ]
        for (text, target, accentOnly, small) in cases {
            let phrase = try XCTUnwrap(ColourPhrase(parsing: text), text)
            XCTAssertEqual(phrase.target, target, text)
            XCTAssertEqual([phrase.accentOnly, phrase.small], [accentOnly, small], text)
        }
        for text in ["", "accent", "small accent", "as a small accent", "orange as", "orange as a large accent", "accent orange",
                     "orange small", "orange as the the accent", "teal as the accent"] {
            XCTAssertNil(ColourPhrase(parsing: text), text)
        }
        XCTAssertEqual(ColourPhrase(parsing: "rgb(31, 90, 166) accent")?.colourText, "rgb(31, 90, 166)")
        XCTAssertEqual(ColourPhrase.whyNot("teal"), ColourTarget.whyNot("teal"), "a colour alone is explained as a colour")
        XCTAssertEqual(ColourPhrase.whyNot("#12 as the accent"), ColourTarget.whyNot("#12"))
        XCTAssertTrue(ColourPhrase.whyNot("accent").hasSuffix("'orange as the accent' or 'orange as a small accent'."))
    }

    func testWhyATypedColourIsNotOneSaysWhatWouldBe() {
        XCTAssertEqual(ColourTarget.whyNot("organge"), "'organge' is not a colour: did you mean orange? The names are black, white, grey, "
            + "red, orange, yellow, green, blue, purple, pink, brown (or gray); or give #RRGGBB, #RGB or rgb(r,g,b).")
        XCTAssertTrue(ColourTarget.whyNot("Reds").hasPrefix("'Reds' is not a colour: did you mean red?"))
        XCTAssertEqual(ColourTarget.whyNot("rgb(300,0,0)"),
                       "'rgb(300,0,0)' is not a colour: rgb(r,g,b) takes three whole numbers from 0 to 255, such as rgb(31,90,166).")
        XCTAssertEqual(ColourTarget.whyNot("#12345"), "'#12345' is not a colour: #RRGGBB takes six hex digits (#1F5AA6), #RGB three (#F00).")
        XCTAssertEqual(ColourTarget.whyNot("violet"), "'violet' is not a colour: give a name (black, white, grey, red, orange, yellow, green, "
            + "blue, purple, pink, brown; or gray), #RRGGBB, #RGB or rgb(r,g,b).")
        XCTAssertNil(ColourTarget(parsing: "organge"))
        // Three bare hex digits are as often a word: 'bad' is no #BBAADD.
        XCTAssertNil(ColourTarget(parsing: "bad"))
        XCTAssertEqual(ColourTarget.whyNot("bad"), "'bad' is not a colour: three hex digits need their # (#bad), as a word could be meant.")
        XCTAssertEqual(ColourTarget(parsing: "#bad"), .colour(Lab(RGBA(red: 0xBB, green: 0xAA, blue: 0xDD))))
        XCTAssertEqual(editDistance("organge", "orange"), 1)
    }

    func testColoursRoundTripThroughTheCatalogue() throws {
        let colours = ColourAnalysis(palette: [entry("#808080", 0.9), entry("#CC141E", 0.1)], accent: accent("#CC141E", coverage: 0.1))
        let id = try add("bus", colours.palette, accent: colours.accent)
        let stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored, colours)
        XCTAssertEqual(stored.dominant?.name, .grey)
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).first?.facts.colours, colours)
    }

    func testAChosenSubjectIsTheAccentUntilGivenBackAndOutlivesANewAnalysis() throws {
        let red = accent("#CC141E", coverage: 0.1), blue = accent("#1F5AA6", coverage: 0.05)
        let colours = ColourAnalysis(palette: [entry("#808080", 0.85), entry("#CC141E", 0.1), entry("#1F5AA6", 0.05)], accent: red,
                                     candidates: [red, blue])
        let id = try add("bus", colours.palette, accent: red)
        try catalogue.write { try $0.setColours(colours, of: id) }
        try catalogue.write { try $0.chooseSubject(blue, of: id, at: day) }
        var stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored.accent, blue)
        XCTAssertTrue(stored.subjectChosen)
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).first?.facts.colours?.accent, blue, "listings say the same")

        // A new analysis measures the candidates again: the nearest to the choice stands for it.
        let blueAgain = Accent(lab: Lab(l: blue.lab.l + 1, a: blue.lab.a, b: blue.lab.b), hue: blue.hue, coverage: 0.06, name: .blue)
        try catalogue.write { try $0.setColours(ColourAnalysis(palette: colours.palette, accent: red, candidates: [red, blueAgain]), of: id) }
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.colours?.accent, blueAgain)
        // When no candidate is near any more, the chosen colour itself is the accent.
        try catalogue.write { try $0.setColours(ColourAnalysis(palette: colours.palette, accent: red, candidates: [red]), of: id) }
        stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored.accent?.lab, blue.lab)
        XCTAssertEqual(stored.accent?.name, .blue)

        try catalogue.write { try $0.chooseSubject(nil, of: id, at: day) }
        stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored.accent, red)
        XCTAssertFalse(stored.subjectChosen)
    }

    func testReplacingColoursKeepsTheIndexesInStep() throws {
        let id = try add("x", [entry("#CC141E", 1)], accent: accent("#CC141E", coverage: 1))
        try catalogue.write { try $0.setColours(ColourAnalysis(palette: [entry("#1F5AA6", 1)], accent: nil), of: id) }
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#CC141E")!)))), [])
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#CC141E")!)), accentOnly: true)), [])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.blue)))), ["x"])
        try catalogue.write { try $0.detachPath("/p/x.jpg") }
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#1F5AA6")!)))), [], "deleted with the photo")
    }

    func testPhotosWithoutColoursAreNotKnownSoTheNextImportAnalysesThem() throws {
        try catalogue.write { writer in
            try writer.insertPhoto(path: "/old.jpg", stamp: stamp, facts: .sample(sha: "a", colours: nil), importedAt: day)
        }
        XCTAssertEqual(try catalogue.knownStamps(), [:])
        XCTAssertNil(try catalogue.content(withSHA256: String(repeating: "a", count: 64)))
    }

    func testPhotosAnalysedByEarlierRulesAreNotKnownSoTheNextImportAnalysesThemAgain() throws {
        try catalogue.write { writer in
            try writer.insertPhoto(path: "/old.jpg", stamp: stamp, facts: .sample(sha: "a"), importedAt: day)
        }
        XCTAssertEqual(try catalogue.knownStamps().count, 1)
        try catalogue.writer.write { try $0.execute(sql: "UPDATE photo_colour SET analysis_version = 1") }
        XCTAssertEqual(try catalogue.knownStamps(), [:])
        XCTAssertNil(try catalogue.content(withSHA256: String(repeating: "a", count: 64)))
    }

    func testTheKindOfSceneIsStoredAndAnUnknownKindIsACorruptRow() throws {
        var chart = ColourAnalysis.greyWithRed
        chart.accent = nil
        chart.scene = .colourTarget
        let id = try catalogue.write { writer in
            try writer.insertPhoto(path: "/chart.jpg", stamp: stamp, facts: .sample(sha: "a", colours: chart), importedAt: day)
        }
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.colours?.scene, .colourTarget)
        try catalogue.write { try $0.setColours(.greyWithRed, of: id) }
        XCTAssertEqual(try catalogue.photo(id: id)?.facts.colours?.scene, .ordinary)
        try catalogue.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE photo_colour SET scene = 'poster'")
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        XCTAssertThrowsError(try catalogue.photo(id: id)) { error in
            guard case .corruptRow(let table, let reason)? = error as? CatalogueError else { return XCTFail("\(error)") }
            XCTAssertEqual(table, "photo_colour")
            XCTAssertTrue(reason.contains("poster"), reason)
        }
    }

    func testPhotosNeedingAnalysisAreThoseNeverOrEarlierAnalysedInIdOrder() throws {
        let (current, earlier, never) = try catalogue.write { writer in
            (try writer.insertPhoto(path: "/current.jpg", stamp: stamp, facts: .sample(sha: "a"), importedAt: day),
             try writer.insertPhoto(path: "/earlier.jpg", stamp: stamp, facts: .sample(sha: "b"), importedAt: day),
             try writer.insertPhoto(path: "/never.jpg", stamp: stamp, facts: .sample(sha: "c", colours: nil), importedAt: day))
        }
        try catalogue.writer.write { try $0.execute(sql: "UPDATE photo_colour SET analysis_version = 1 WHERE photo_id = ?", arguments: [earlier]) }
        let needing = try catalogue.photosNeedingAnalysis()
        XCTAssertEqual(needing.map(\.id), [earlier, never])
        XCTAssertFalse(needing.map(\.id).contains(current))
        XCTAssertNotNil(needing[0].facts.colours, "what the earlier rules found is there until it is replaced")

        try catalogue.write { try $0.setColours(.greyWithRed, of: earlier) }
        XCTAssertEqual(try catalogue.photosNeedingAnalysis().map(\.id), [never])
    }

    func testRemovingAPhotoTakesEverythingThatHangsOnItAndNothingElse() throws {
        let red = try add("red", [entry("#808080", 0.9), entry("#D01020", 0.1)], accent: accent("#D01020", coverage: 0.1), camera: "Canon")
        let kept = try add("kept", [entry("#808080", 0.9), entry("#D01020", 0.1)], accent: accent("#D01020", coverage: 0.1))
        try catalogue.write { try $0.addDuplicatePath("/copy.jpg", of: red, stamp: stamp, notedAt: day) }
        try catalogue.recordVariant(Variant(photoID: red, kind: "show", parameters: "{}", path: "/v/show.jpg", fileSize: 1,
                                            pixelSize: PixelSize(width: 1, height: 1), sha256: "", createdAt: day))

        try catalogue.write { try $0.removePhoto(red) }

        XCTAssertNil(try catalogue.photo(id: red))
        XCTAssertEqual(try catalogue.allVariants(), [])
        XCTAssertNil(try catalogue.knownStamps()["/copy.jpg"], "its duplicate path is forgotten")
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .name(.red))).map(\.photo.id), [kept])
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true)).map(\.photo.id), [kept])
        let leftovers = try catalogue.writer.read { db in
            try ["exif", "photo_colour", "palette_entry", "accent_candidate", "colour_name_weight", "palette_cell", "accent_cell"]
                .map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0) WHERE photo_id = ?", arguments: [red]) ?? -1 }
        }
        XCTAssertEqual(leftovers, [0, 0, 0, 0, 0, 0, 0], "EXIF, colours and the colour grid go with it")
        XCTAssertNotNil(try catalogue.photo(id: kept)?.facts.colours?.accent)
    }

    func testAccentCandidatesAndHueFamiliesRoundTrip() throws {
        let red = Lab(RGBA(red: 210, green: 20, blue: 30)), green = Lab(RGBA(red: 60, green: 140, blue: 60))
        let candidates = [
            Accent(lab: red, hue: red.lch.h, coverage: 0.05, name: .red, saliency: 0.6, contrast: 50, regions: 2, compactness: 0.8),
            Accent(lab: green, hue: green.lch.h, coverage: 0.7, name: .green, saliency: 0.02, contrast: 9, regions: 1, compactness: 0.1),
        ]
        let colours = ColourAnalysis(palette: [], accent: candidates[0], nameWeights: [:], candidates: candidates, hueFamilies: 3)
        let id = try catalogue.write { writer in
            try writer.insertPhoto(path: "/p.jpg", stamp: stamp, facts: .sample(sha: "b", colours: colours), importedAt: day)
        }
        let stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored.candidates, candidates)
        XCTAssertEqual(stored.accent, candidates[0], "the accent carries its reasons")
        XCTAssertEqual(stored.hueFamilies, 3)
    }

    func testANameMatchShowsThePhotosOwnColourOfThatNameNotAStandIn() throws {
        // Red weighs 5% of the photo by its whole analysis, but no palette entry is red: the red candidate is its red.
        let red = Lab(RGBA(red: 212, green: 56, blue: 47)), grey = Lab(RGBA(red: 128, green: 128, blue: 128))
        let candidate = Accent(lab: red, hue: red.lch.h, coverage: 0.05, name: .red, saliency: 0.6, contrast: 50, regions: 1, compactness: 0.8)
        let colours = ColourAnalysis(palette: [PaletteEntry(lab: grey, weight: 1, name: .grey)], accent: candidate,
                                     nameWeights: [.red: 0.05, .grey: 0.95], candidates: [candidate], hueFamilies: 1)
        try catalogue.write { try $0.insertPhoto(path: "/p/bike.jpg", stamp: stamp, facts: .sample(sha: "c", colours: colours), importedAt: day) }
        let match = try XCTUnwrap(try catalogue.search(ColourSearch(target: .name(.red), minimumCoverage: 0.01)).first)
        XCTAssertEqual(match.matchedLab.hex, red.hex, "not red's focal colour, \(ColourName.red.focalLab.hex)")
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .name(.grey), minimumCoverage: 0.01)).first?.matchedLab.hex, grey.hex)
    }

    func testSearchByNameRanksByTheNamesShareOfThePalette() throws {
        try makeLibrary()
        let matches = try catalogue.search(ColourSearch(target: .name(.red)))
        XCTAssertEqual(names(matches), ["roses", "bus"])
        XCTAssertEqual(matches[0].coverage, 0.6, accuracy: 1e-9)
        XCTAssertEqual(matches[0].matchedName, .red)
        XCTAssertNil(matches[0].deltaE)
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.white)))), ["snow", "sea"])
    }

    func testSearchByNameHonoursCoverageFiltersAndLimit() throws {
        try makeLibrary()
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), minimumCoverage: 0.2))), ["roses"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), filters: PhotoQuery(camera: "canon")))), ["bus"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), filters: PhotoQuery(takenSince: "2021-01-01")))), ["roses"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), filters: PhotoQuery(limit: 1)))), ["roses"])
    }

    func testSearchByAccentNameFindsASmallAccent() throws {
        try makeLibrary()
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.orange), accentOnly: true))), ["orange-dot"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true))), ["roses", "bus"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true,
                                                               filters: PhotoQuery(camera: "nikon")))), ["roses"])
    }

    func testAnAccentSearchMatchesTheSubjectAPersonChoseNotTheEyesAccent() throws {
        try makeLibrary()
        let bus = try XCTUnwrap(try catalogue.photos(matching: PhotoQuery()).first { $0.path == "/p/bus.jpg" })
        // The bus's blue sign, 20% of the frame, made its subject on the web gallery's page.
        try catalogue.write { try $0.chooseSubject(accent("#1F5AA6", coverage: 0.2), of: bus.id, at: day) }
        let blue = Lab(RGBA(parsing: "#1F5AA6")!), red = Lab(RGBA(parsing: "#E02030")!)

        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.blue), accentOnly: true))), ["sea", "bus"], "by name")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true))), ["roses"], "its eye's red no more")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.blue), accentOnly: true, filters: PhotoQuery(limit: 1)))), ["sea"],
                       "ranked with the others by coverage, then cut")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.blue), accentOnly: true, maximumCoverage: 0.5))), ["bus"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.blue), accentOnly: true, filters: PhotoQuery(camera: "nikon")))), [],
                       "the filters hold for it too")
        let byColour = try catalogue.search(ColourSearch(target: .colour(blue), accentOnly: true))
        XCTAssertEqual(names(byColour), ["sea", "bus"], "by colour")
        XCTAssertEqual(byColour.last?.coverage ?? 0, 0.2, accuracy: 1e-9)
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(red), accentOnly: true, within: 12))), ["roses"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(blue), accentOnly: true, minimumCoverage: 0.5))), ["sea"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red)))), ["roses", "bus"], "a palette search is unchanged")

        // Given back to the eye: red again.
        try catalogue.write { try $0.chooseSubject(nil, of: bus.id, at: day) }
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true))), ["roses", "bus"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(blue), accentOnly: true))), ["sea"])
    }

    /// "Red as a small accent": the largest share the match may cover, by every kind of search.
    func testAMaximumCoverageLeavesOutTheLargerMatches() throws {
        try makeLibrary()
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), maximumCoverage: 0.2))), ["bus"], "by name")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), accentOnly: true, maximumCoverage: 0.2))), ["bus"],
                       "by accent name")
        let red = Lab(RGBA(parsing: "#E02030")!)
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(red), within: 12))), ["roses", "bus"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(red), within: 12, maximumCoverage: 0.2))), ["bus"], "by colour")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(red), accentOnly: true, within: 12, maximumCoverage: 0.2))), ["bus"],
                       "by accent colour")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), minimumCoverage: 0.2, maximumCoverage: 0.2))), [])
    }

    func testSearchByColourRanksByCloseShare() throws {
        try makeLibrary()
        let matches = try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#1F5AA6")!))))
        XCTAssertEqual(names(matches), ["sea"])
        XCTAssertEqual(try XCTUnwrap(matches[0].deltaE), 0, accuracy: 0.01)
        XCTAssertEqual(matches[0].coverage, 0.7, accuracy: 1e-9)
        let reds = try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#C81020")!))))
        XCTAssertEqual(names(reds), ["roses", "bus"])
        XCTAssertLessThan(try XCTUnwrap(reds[1].deltaE), 12)
    }

    func testSearchByColourHonoursWithinCoverageAndAccent() throws {
        try makeLibrary()
        let target = Lab(RGBA(parsing: "#E02030")!)
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(target), within: 1))), [])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(target), minimumCoverage: 0.5))), ["roses"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#FF8C00")!)), accentOnly: true))), ["orange-dot"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#808080")!)), accentOnly: true))), [],
                       "grey is never an accent")
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(target), accentOnly: true, filters: PhotoQuery(limit: 1)))), ["roses"])
    }

    func testAColourMatchSaysTheShareOfEveryEntryWithinAndTheHeaviestOfANameAndTiesByID() throws {
        // Two blues within the distance: the match covers both (0.7), not only the closer one.
        try add("blues", [entry("#1F5AA6", 0.4), entry("#2060A8", 0.3), entry("#F0F0F0", 0.3)])
        let blue = try XCTUnwrap(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#1F5AA6")!)))).first)
        XCTAssertEqual(blue.coverage, 0.7, accuracy: 1e-9)
        // A name's match shows the photo's heaviest colour of that name.
        try add("reds", [entry("#A01010", 0.1), entry("#CC141E", 0.5), entry("#F0F0F0", 0.4)])
        let red = try XCTUnwrap(try catalogue.search(ColourSearch(target: .name(.red))).first)
        XCTAssertLessThan(Lab(RGBA(parsing: "#CC141E")!).distance(to: red.matchedLab), 0.5, "\(red.matchedLab)")
        // A share at the least coverage asked for is taken.
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .name(.red), minimumCoverage: 0.6))), ["reds"])
        // Equal scores: the photo catalogued first comes first, on every page alike.
        try add("twin-b", [entry("#2E8B57", 1)])
        try add("twin-a", [entry("#2E8B57", 1)])
        let twins = try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#2E8B57")!))))
        XCTAssertEqual(names(twins), ["twin-b", "twin-a"])
        XCTAssertLessThan(twins[0].photo.id, twins[1].photo.id)
    }

    func testPureWhiteAndBlackAreFoundAtTheEndsOfTheGrid() throws {
        // #FFFFFF is L* 100.000004: in the grid's last row of cells, which the search must read.
        try add("white", [entry("#FFFFFF", 1)])
        try add("black", [entry("#000000", 1)])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#FFFFFF")!))))), ["white"])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(Lab(RGBA(parsing: "#000000")!))))), ["black"])
    }

    func testTheDefaultDistanceIsSixAndTypedColoursAreReadStrictly() throws {
        XCTAssertEqual(ColourSearch(target: .name(.red)).within, 6)
        let target = Lab(l: 50, a: 40, b: 20)
        // An entry about 6.5 away by CIEDE2000 is not found without a wider distance.
        var far = target
        while deltaE2000(target, far) < 6.5 { far.a += 0.05 }
        try add("far", [PaletteEntry(lab: far, weight: 1, name: .red)])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(target)))), [])
        XCTAssertEqual(names(try catalogue.search(ColourSearch(target: .colour(target), within: 7))), ["far"])
        // Hex digits only, and rgb() in any case; a name three edits away is offered nothing.
        XCTAssertNil(RGBA(parsing: "#+12345"))
        XCTAssertNil(RGBA(parsing: "-12345"))
        XCTAssertNotNil(RGBA(parsing: "RGB(10,20,30)"))
        XCTAssertFalse(ColourTarget.whyNot("brownish").contains("did you mean"), ColourTarget.whyNot("brownish"))
    }

    func testTheGridCellsOfASearchHoldEveryColourWithinTheDistance() {
        // Random colours near random targets (a third of them near grey, where CIEDE2000 jumps, and many
        // in the blues, where it bends most): whatever ΔE00 calls close must be in a cell the search reads.
        var generator = SplitMix(seed: 42)
        var checked = 0
        for round in 0..<60 {
            let grey = round % 3 == 0
            let target = Lab(l: generator.next(0, 100), a: grey ? generator.next(-4, 4) : generator.next(-90, 90),
                             b: grey ? generator.next(-4, 4) : generator.next(-110, 90))
            let within = generator.next(1, 16)
            let cells = Dictionary(uniqueKeysWithValues: LabGrid.cells(near: target, within: within).map { ($0.number, $0.nearest) })
            for _ in 0..<4_000 {
                let candidate = Lab(l: target.l + generator.next(-2 * within, 2 * within),
                                    a: target.a + generator.next(-4 * within, 4 * within),
                                    b: target.b + generator.next(-4 * within, 4 * within))
                // The grid spans a* and b* of -128…128, which holds every sRGB colour (|a*|, |b*| < 110).
                guard (0...100).contains(candidate.l), abs(candidate.a) < 128, abs(candidate.b) < 128,
                      deltaE2000(target, candidate) <= within else { continue }
                checked += 1
                let distance = deltaE2000(target, candidate)
                guard let nearest = cells[LabGrid.cell(of: candidate)] else {
                    XCTFail("\(candidate) within \(within) of \(target) is in no cell read")
                    continue
                }
                XCTAssertLessThanOrEqual(nearest, distance, "the cell of \(candidate) claims no colour nearer than \(nearest)")
            }
        }
        XCTAssertGreaterThan(checked, 20_000, "the test must look at many close colours")
    }

    func testTheGridReadsFewCellsAwayFromTheTarget() {
        // The point of the grid: a search near one blue reads a few hundred cells, not the blues.
        let target = Lab(RGBA(parsing: "#1F5AA6")!)
        let cells = LabGrid.cells(near: target, within: 6).map(\.number)
        XCTAssertGreaterThan(cells.count, 20)
        XCTAssertLessThan(cells.count, 1000)
        XCTAssertTrue(cells.contains(LabGrid.cell(of: target)))
        XCTAssertFalse(cells.contains(LabGrid.cell(of: Lab(RGBA(parsing: "#1F5AFF")!))), "a far brighter blue is not read")
    }

    func testEachRoundReadsInEachCellTheSharesThatCanScoreItsThreshold() throws {
        let cells = [LabGrid.Cell(number: 1, nearest: 0), LabGrid.Cell(number: 2, nearest: 3), LabGrid.Cell(number: 3, nearest: 6)]
        func decode(_ json: String) throws -> [[Double]] { try JSONDecoder().decode([[Double]].self, from: Data(json.utf8)) }
        // A share w in a cell at least d away scores at most w (1 − d / 6).
        XCTAssertEqual(try decode(ColourRepository.roundCells(cells, within: 6, threshold: 0.5, ceiling: 2)), [[1, 0.5, 2], [2, 1, 2]],
                       "only a whole-photo colour can score 0.5 three units away; nothing can at six")
        XCTAssertEqual(try decode(ColourRepository.roundCells(cells, within: 6, threshold: 0.25, ceiling: 0.5)),
                       [[1, 0.25, 0.5], [2, 0.5, 1]])
        XCTAssertEqual(try decode(ColourRepository.roundCells(cells, within: 6, threshold: 0, ceiling: 0.25)),
                       [[1, 0, 0.25], [2, 0, 0.5], [3, 0, 2]], "the last round reads the rest, the farthest cell whole")
    }

    func testColourSearchRanksAsABruteForceRankingDoes() throws {
        // Photos of random palettes; the grid, its rounds and early stop must give the ranking that scoring
        // every entry of every photo gives.
        var generator = SplitMix(seed: 11)
        var palettes: [PhotoID: [PaletteEntry]] = [:]
        for index in 0..<400 {
            var remaining = 1.0
            let palette: [PaletteEntry] = (0..<5).map { rank in
                let weight = rank == 4 ? remaining : remaining * generator.next(0.2, 0.7)
                remaining -= weight
                let lab = LCh(l: generator.next(20, 80), c: generator.next(0, 70), h: generator.next(200, 320)).lab
                return PaletteEntry(lab: lab, weight: weight, name: ColourName.nearest(to: lab))
            }.sorted { $0.weight > $1.weight }
            palettes[try add("random-\(index)", palette)] = palette
        }
        for (hex, within) in [("#1F5AA6", 6.0), ("#5A4FA0", 12.0), ("#7F7F90", 8.0)] {
            let target = Lab(RGBA(parsing: hex)!)
            let expected = palettes.compactMap { id, palette -> (PhotoID, Double)? in
                let scores = palette.map { ($0.weight, deltaE2000(target, $0.lab)) }.filter { $0.1 <= within }
                    .map { $0.0 * (1 - $0.1 / (within + 1e-9)) }
                return scores.max().map { (id, $0) }
            }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(10)
            XCTAssertGreaterThan(expected.count, 5, "the test needs matches for \(hex)")
            let found = try catalogue.search(ColourSearch(target: .colour(target), within: within, filters: PhotoQuery(limit: 10)))
            XCTAssertEqual(found.map(\.photo.id), expected.map(\.0), "\(hex) within \(within)")
            for (match, (_, score)) in zip(found, expected) { XCTAssertEqual(match.score, score, accuracy: 1e-9) }
        }
    }

    func testSQLiteNumbersCellsAsTheGridDoes() throws {
        var generator = SplitMix(seed: 7)
        let palette = (0..<8).map { _ in
            PaletteEntry(lab: Lab(l: generator.next(0, 100), a: generator.next(-100, 100), b: generator.next(-110, 100)),
                         weight: 0.125, name: .grey)
        }
        let corners = [PaletteEntry(lab: Lab(l: 0, a: -128, b: -128), weight: 0.5, name: .black),
                       PaletteEntry(lab: Lab(l: 100, a: 0, b: 0), weight: 0.5, name: .white)]
        let first = try add("random", palette, accent: accent("#1F5AA6", coverage: 0.2))
        let second = try add("corners", corners)
        let stored = try catalogue.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT photo_id, rank, cell FROM palette_cell ORDER BY photo_id, rank")
                .map { [$0["photo_id"], $0["rank"], $0["cell"]] as [Int] }
        }
        let expected = palette.enumerated().map { [Int(first), $0.offset, LabGrid.cell(of: $0.element.lab)] }
            + corners.enumerated().map { [Int(second), $0.offset, LabGrid.cell(of: $0.element.lab)] }
        XCTAssertEqual(stored, expected)
        let accentCell = try catalogue.writer.read { try Int.fetchOne($0, sql: "SELECT cell FROM accent_cell") }
        XCTAssertEqual(accentCell, LabGrid.cell(of: Lab(RGBA(parsing: "#1F5AA6")!)))
    }

    func testTheGridFollowsUpdatesAndDeletes() throws {
        let id = try add("x", [entry("#CC141E", 0.5), entry("#1F5AA6", 0.5)], accent: accent("#CC141E", coverage: 0.5))
        func gridRows() throws -> [Int] {
            try catalogue.writer.read { db in
                [try Int.fetchOne(db, sql: "SELECT count(*) FROM palette_cell")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM accent_cell")!]
            }
        }
        XCTAssertEqual(try gridRows(), [2, 1])
        try catalogue.writer.write { db in
            try db.execute(sql: "UPDATE palette_entry SET lab_l = 90, lab_a = 0, lab_b = 0 WHERE rank = 0")
            try db.execute(sql: "UPDATE photo_colour SET accent_l = 90, accent_a = 0, accent_b = 0")
        }
        let cells = try catalogue.writer.read { try Int.fetchAll($0, sql: "SELECT cell FROM palette_cell UNION ALL SELECT cell FROM accent_cell") }
        let white = LabGrid.cell(of: Lab(l: 90, a: 0, b: 0))
        XCTAssertEqual(cells.filter { $0 == white }.count, 2, "the updated entry and accent moved to their new cell")
        XCTAssertEqual(try gridRows(), [2, 1])
        try catalogue.writer.write { try $0.execute(sql: "UPDATE photo_colour SET accent_l = NULL, accent_a = NULL, accent_b = NULL") }
        XCTAssertEqual(try gridRows(), [2, 0], "a photo that loses its accent leaves the accent grid")
        try catalogue.writer.write { try $0.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [id]) }
        XCTAssertEqual(try gridRows(), [0, 0])
    }

    func testMigratingACatalogueFromBeforeTheGridFillsIt() throws {
        let queue = try DatabaseQueue(configuration: SQLiteCatalogue.configuration())
        try Schema.migrator().migrate(queue, upTo: "0002_colours")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO photo (id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
                VALUES (1, '/p/a.jpg', printf('%064d', 1), 1, 1, 'jpeg', 4, 3, '2024-01-01 00:00:00.000'),
                       (2, '/p/b.jpg', printf('%064d', 2), 1, 1, 'jpeg', 4, 3, '2024-01-01 00:00:00.000');
                INSERT INTO palette_entry VALUES (1, 0, 39.4, 8.0, -48.0, '#1F5AA6', 0.7, 'blue'), (1, 1, 95, 0, 0, '#F0F0F0', 0.3, 'white'),
                                                 (2, 0, 50, 0, 0, '#777777', 1, 'grey');
                INSERT INTO photo_colour (photo_id, accent_l, accent_a, accent_b, accent_hex, accent_hue, accent_coverage, accent_name)
                VALUES (1, 39.4, 8.0, -48.0, '#1F5AA6', 279.5, 0.7, 'blue');
                INSERT INTO photo_colour (photo_id, dominant_hex, dominant_name) VALUES (2, '#777777', 'grey');
                """)
        }
        try Schema.migrator().migrate(queue)
        let catalogue = try SQLiteCatalogue(writer: queue, path: ":memory:")
        let matches = try catalogue.search(ColourSearch(target: .colour(Lab(l: 39.4, a: 8.0, b: -48.0))))
        XCTAssertEqual(matches.map(\.photo.id), [1])
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .colour(Lab(l: 39.4, a: 8.0, b: -48.0)), accentOnly: true)).map(\.photo.id), [1])
        XCTAssertEqual(try catalogue.search(ColourSearch(target: .colour(Lab(l: 50, a: 0, b: 0)))).map(\.photo.id), [2])
        let rows = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM palette_cell") }
        XCTAssertEqual(rows, 3)
    }
}

/// A small deterministic random generator, so the property test is the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ low: Double, _ high: Double) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return low + (high - low) * Double(z >> 11) / Double(1 << 53)
    }
}
