@testable import Catalogue
import ColourScience
import Foundation
import Imaging
import XCTest

final class ColourSearchTests: XCTestCase {
    var catalogue: SQLiteCatalogue!
    let stamp = FileStamp(size: 1, modifiedAtNanoseconds: 1)
    let day = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        catalogue = try SQLiteCatalogue.inMemory()
    }

    func entry(_ hex: String, _ weight: Double) -> PaletteEntry {
        let lab = Lab(RGBA(parsing: hex)!)
        return PaletteEntry(lab: lab, weight: weight, name: ColourName.nearest(to: lab))
    }

    func accent(_ hex: String, coverage: Double) -> Accent {
        let lab = Lab(RGBA(parsing: hex)!)
        return Accent(lab: lab, hue: lab.lch.h, coverage: coverage, name: ColourName.nearest(to: lab))
    }

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

    func testColoursRoundTripThroughTheCatalogue() throws {
        let colours = ColourAnalysis(palette: [entry("#808080", 0.9), entry("#CC141E", 0.1)], accent: accent("#CC141E", coverage: 0.1))
        let id = try add("bus", colours.palette, accent: colours.accent)
        let stored = try XCTUnwrap(try catalogue.photo(id: id)?.facts.colours)
        XCTAssertEqual(stored, colours)
        XCTAssertEqual(stored.dominant?.name, .grey)
        XCTAssertEqual(try catalogue.photos(matching: PhotoQuery()).first?.facts.colours, colours)
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
        XCTAssertFalse(try catalogue.containsPhoto(withSHA256: String(repeating: "a", count: 64)))
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

    func testTheSearchBoxHoldsEveryColourWithinTheDistance() {
        // Random colours near random targets: whatever ΔE00 calls close must fall inside the box.
        var generator = SplitMix(seed: 42)
        for _ in 0..<50_000 {
            let target = Lab(l: generator.next(0, 100), a: generator.next(-110, 110), b: generator.next(-110, 110))
            let within = generator.next(1, 25)
            let candidate = Lab(l: target.l + generator.next(-3 * within, 3 * within),
                                a: target.a + generator.next(-6 * within, 6 * within),
                                b: target.b + generator.next(-6 * within, 6 * within))
            guard (0...100).contains(candidate.l), deltaE2000(target, candidate) <= within else { continue }
            let region = ColourRepository.searchRegion(around: target, within: within)
            XCTAssertTrue(region.l.contains(candidate.l) && region.a.contains(candidate.a) && region.b.contains(candidate.b),
                          "\(candidate) within \(within) of \(target) is outside the box")
            let chroma = candidate.a * candidate.a + candidate.b * candidate.b
            XCTAssertTrue(chroma >= region.chroma.lowerBound * region.chroma.lowerBound
                          && chroma <= region.chroma.upperBound * region.chroma.upperBound, "\(candidate) outside the chroma ring")
            if let sector = region.sector {
                let fromSide = sector.from.0 * candidate.b - sector.from.1 * candidate.a
                let toSide = candidate.a * sector.to.1 - candidate.b * sector.to.0
                XCTAssertTrue(fromSide >= -0.5 && toSide >= -0.5, "\(candidate) within \(within) of \(target) is outside the hue sector")
            }
        }
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
