import Catalogue
import Foundation
import GalleryJSON
import Services

/// What removing did: each photo removed or moved, then one summary line; or JSON.
struct RemovePresenter {
    let console: Console

    struct SummaryJSON: Encodable {
        var removed: [PhotoPathJSON]
        var moved: [PhotoPathJSON]
        var forgottenDuplicates: [String]
        var variantFilesDeleted: Int
        var variantFilesLeft: [FailureJSON]
    }

    struct PhotoPathJSON: Encodable {
        var id: Int64
        var path: String
    }

    func present(_ summary: RemovalSummary, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(SummaryJSON(
                removed: summary.removed.map { PhotoPathJSON(id: $0.id, path: $0.path) },
                moved: summary.moved.map { PhotoPathJSON(id: $0.id, path: $0.path) },
                forgottenDuplicates: summary.forgottenDuplicates,
                variantFilesDeleted: summary.variantFilesDeleted,
                variantFilesLeft: summary.variantFilesLeft.map { FailureJSON(path: $0.path, reason: $0.reason) })))
            return
        }
        for photo in summary.removed { console.print("removed photo \(photo.id): \(photo.path)") }
        for photo in summary.moved { console.print("photo \(photo.id) now at its duplicate \(photo.path) (\(summary.why))") }
        for path in summary.forgottenDuplicates { console.print("forgot duplicate path \(path) (\(summary.why))") }
        for left in summary.variantFilesLeft {
            console.warn("could not delete variant file \(left.path): \(left.reason) (`gallery check --repair` removes it later)")
        }
        console.print("removed \(counted(summary.removed.count, "photo")) and \(counted(summary.variantFilesDeleted, "variant file"))")
    }
}
