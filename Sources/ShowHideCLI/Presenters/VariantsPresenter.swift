import Catalogue
import Foundation
import GalleryJSON
import Services

/// Variants as a table (what made each), or what pruning removed; or JSON.
struct VariantsPresenter {
    let console: Console

    struct PruneJSON: Encodable {
        var removed: [VariantJSON]
        var filesLeft: [FailureJSON]
    }

    /// - Parameters:
    ///   - files: the file shown for each recorded path (this library's, or the path said as having none).
    ///   - photos: the ids asked about, to name them when they have none.
    func present(_ variants: [Variant], asJSON: Bool, files: [String: String] = [:], photos: [Int64] = []) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(variants.map(VariantJSON.init)))
            return
        }
        guard !variants.isEmpty else {
            let ids = photos.map(String.init)
            let said = switch ids.count {
            case 0: "No variants have been made yet"
            case 1: "Photo \(ids[0]) has no variants yet"
            default: "Photos \(ids.joined(separator: ", ")) have no variants yet"
            }
            console.warn("\(said): `\((["showhide gallery process"] + ids).joined(separator: " "))` makes them.")
            return
        }
        var table = TextTable(headers: ["PHOTO", "KIND", "SIZE", "MADE WITH", "CREATED", "FILE"], fits: [.keep, .keep, .keep, .wrap, .keep, .elide])
        for variant in variants {
            table.append([String(variant.photoID), variant.kind, variant.pixelSize.description, VariantSpec.describe(key: variant.parameters),
                          ISO8601.string(variant.createdAt), files[variant.path] ?? variant.path])
        }
        console.print(table)
    }

    func present(_ summary: PruneSummary, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(PruneJSON(removed: summary.removed.map(VariantJSON.init),
                                                          filesLeft: summary.filesLeft.map { FailureJSON(path: $0.path, reason: $0.reason) })))
            return
        }
        for variant in summary.removed {
            console.print("removed photo \(variant.photoID) \(variant.kind) (\(VariantSpec.describe(key: variant.parameters))): "
                          + (summary.filesHere[variant.path] ?? "\(variant.path) (no file of it in this library: nothing deleted)"))
        }
        for left in summary.filesLeft {
            console.warn("could not delete \(left.path): \(left.reason) (`gallery check --repair` removes it later)")
        }
        console.print("removed \(counted(summary.removed.count, "variant")); each photo keeps its newest parameter set")
    }
}
