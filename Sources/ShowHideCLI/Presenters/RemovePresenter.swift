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
        var dryRun: Bool
        var variantFilesToDelete: Int
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
                variantFilesLeft: summary.variantFilesLeft.map { FailureJSON(path: $0.path, reason: $0.reason) },
                dryRun: summary.dryRun, variantFilesToDelete: summary.variantFilesToDelete)))
            return
        }
        if summary.dryRun {
            for photo in summary.removed { console.print("would remove photo \(photo.id): \(photo.path)") }
            for photo in summary.moved { console.print("would keep photo \(photo.id) at its other path \(photo.path) (\(summary.why))") }
            for path in summary.forgottenDuplicates { console.print("would forget duplicate path \(path) (\(summary.why))") }
            console.print("would remove \(counted(summary.removed.count, "photo")) and \(counted(summary.variantFilesToDelete, "variant file")); "
                          + "nothing was changed")
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
