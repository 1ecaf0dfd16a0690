import Catalogue
import ColourScience
import Foundation
import Imaging
import Services
import TestSupport
import XCTest

final class VariantSpecTests: XCTestCase {
    func photo(format: ImageFormat = .png, colours: ColourAnalysis? = nil) -> CataloguedPhoto {
        CataloguedPhoto(id: 7, path: "/p", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                        facts: PhotoFacts(sha256: "ab12" + String(repeating: "c", count: 60), format: format,
                                          pixelSize: PixelSize(width: 1, height: 1), exif: nil, colours: colours),
                        importedAt: Date())
    }

    func hue(_ photo: CataloguedPhoto, _ target: SplashTarget) -> Double? {
        VariantSpec.spec(for: photo, kind: .show, options: ProcessingOptions(target: target))?.splash.hue
    }

    func testTargetsAreNormalisedIntoTheSplash() throws {
        let photo = photo()
        XCTAssertNil(VariantSpec.specs(for: photo, options: ProcessingOptions()), "no accent, no target: nothing to splash")
        XCTAssertEqual(hue(photo, .hue(-10)), 350)
        XCTAssertEqual(hue(photo, .hue(725.04)), 5)
        for whole in [0, 360, -360, 359.96, 720, -0.04] {
            let wrapped = try XCTUnwrap(hue(photo, .hue(whole)))
            XCTAssertEqual(wrapped, 0, "\(whole)")
            XCTAssertEqual(wrapped.sign, .plus, "\(whole): no key of -0")
        }
        XCTAssertEqual(hue(photo, .hue(-0.05)), 359.9)
        let blue = Lab(RGBA(red: 0, green: 0, blue: 255))
        XCTAssertEqual(try XCTUnwrap(hue(photo, .colour(blue))), blue.lch.h, accuracy: 0.05)
        let spec = try XCTUnwrap(VariantSpec.spec(for: photo, kind: .hide,
                                                  options: ProcessingOptions(target: .hue(34.54), tolerance: 12.04, feather: 9.96)))
        XCTAssertEqual(spec.splash, SplashParameters(hue: 34.5, tolerance: 12, feather: 10, minimumChroma: 12, method: .object))
    }

    func testTheKeyIsTheCanonicalTextOfTheParametersAndPNGsHaveNoQuality() throws {
        let options = ProcessingOptions(target: .hue(34.5), method: .hue, tolerance: 12, feather: 10, minimumChroma: 12, quality: 90)
        let jpeg = try XCTUnwrap(VariantSpec.spec(for: photo(format: .jpeg), kind: .show, options: options))
        let png = try XCTUnwrap(VariantSpec.spec(for: photo(format: .png), kind: .show, options: options))
        XCTAssertEqual(jpeg.key, #"{"feather":10,"hue":34.5,"minimumChroma":12,"quality":90,"tolerance":12}"#)
        XCTAssertEqual(png.key, #"{"feather":10,"hue":34.5,"minimumChroma":12,"tolerance":12}"#)
        XCTAssertEqual(VariantSpec.parameterValues(ofKey: jpeg.key),
                       ["feather": 10, "hue": 34.5, "minimumChroma": 12, "quality": 90, "tolerance": 12])
        XCTAssertEqual(VariantSpec.parameterValues(ofKey: "not json"), [:])
    }

    func testAnAccentCandidateOfAnyRankCanBeTheTargetAndObjectVariantsSayTheirMethod() throws {
        let red = Lab(RGBA(red: 210, green: 20, blue: 30)), green = Lab(RGBA(red: 40, green: 150, blue: 50))
        let candidates = [Accent(lab: red, hue: red.lch.h, coverage: 0.05, name: .red),
                          Accent(lab: green, hue: green.lch.h, coverage: 0.6, name: .green, saliency: 0.02)]
        let photo = photo(colours: ColourAnalysis(palette: [], accent: candidates[0], candidates: candidates))
        XCTAssertEqual(try XCTUnwrap(hue(photo, .candidate(1))), red.lch.h, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(hue(photo, .candidate(2))), green.lch.h, accuracy: 0.05)
        XCTAssertEqual(hue(photo, .candidate(1)), hue(photo, .accent))
        XCTAssertNil(hue(photo, .candidate(3)))
        XCTAssertEqual(VariantSpec.nothingToSplash(.candidate(3)), "no accent candidate of rank 3")
        XCTAssertEqual(VariantSpec.nothingToSplash(.accent), "no accent colour (no colour stands out)")
        XCTAssertEqual(VariantSpec.nothingToSplash(.accent, scene: .colourTarget), "no accent colour (a colour target)")
        XCTAssertEqual(VariantSpec.nothingToSplash(.accent, scene: .busy), "no accent colour (a busy scene)")
        let object = try XCTUnwrap(VariantSpec.spec(for: photo, kind: .show, options: ProcessingOptions()))
        let hueOnly = try XCTUnwrap(VariantSpec.spec(for: photo, kind: .show, options: ProcessingOptions(method: .hue)))
        XCTAssertEqual(object.splash.method, .object)
        XCTAssertTrue(object.key.contains(#""method":"object""#), object.key)
        XCTAssertTrue(object.key.hasSuffix(#""revision":17,"tolerance":12}"#), "variants of the earlier object mask are made again: \(object.key)")
        XCTAssertFalse(hueOnly.key.contains("method"), "hue variants keep the key they had before object mode")
    }

    func testOneSpecPerKindAskedFor() throws {
        let specs = try XCTUnwrap(VariantSpec.specs(for: photo(), options: ProcessingOptions(target: .hue(20), kinds: [.hide, .show])))
        XCTAssertEqual(specs.map(\.kind), [.hide, .show])
        XCTAssertEqual(Set(specs.map(\.key)).count, 1, "show and hide share their parameters")
    }

    func testTheFileLivesUnderThePhotosHashNamedByKindAndKeyHash() throws {
        let hasher = CryptoHasher()
        let spec = try XCTUnwrap(VariantSpec.spec(for: photo(format: .jpeg), kind: .hide, options: ProcessingOptions(target: .hue(20))))
        let directory = VariantSpec.directory(inLibrary: "/library")
        XCTAssertEqual(directory, "/library/variants")
        let path = spec.path(inVariants: directory, hasher: hasher)
        XCTAssertEqual(path, "/library/variants/ab/ab12\(String(repeating: "c", count: 60))/hide-\(hasher.sha256(Data(spec.key.utf8)).prefix(10)).jpg")
        let other = try XCTUnwrap(VariantSpec.spec(for: photo(format: .jpeg), kind: .hide, options: ProcessingOptions(target: .hue(21))))
        XCTAssertNotEqual(other.path(inVariants: directory, hasher: hasher), path, "each parameter set has its own file")
    }

    func testTheRecordCarriesTheKeyAndKindTheCatalogueFindsItBy() throws {
        let catalogue = FakeCatalogue()
        catalogue.add([photo()])
        let spec = try XCTUnwrap(VariantSpec.spec(for: photo(), kind: .show, options: ProcessingOptions(target: .hue(20))))
        XCTAssertNil(try catalogue.variant(spec))
        let record = spec.record(path: "/v.png", fileSize: 3, pixelSize: PixelSize(width: 2, height: 1), sha256: "f", createdAt: Date())
        XCTAssertEqual(record.kind, "show")
        XCTAssertEqual(record.parameters, spec.key)
        try catalogue.recordVariant(record)
        XCTAssertEqual(try catalogue.variant(spec)?.path, "/v.png")
    }
}
