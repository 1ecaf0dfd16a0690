import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The end of an import: one summary line, failures on standard error; or JSON.
struct ImportPresenter {
    let console: Console

    struct SummaryJSON: Encodable {
        var found: Int
        var imported: Int
        var unchanged: Int
        var moved: Int
        var changed: Int
        var duplicates: Int
        var skipped: Int
        var showhidePictures: Int
        var failed: Int
        var seconds: Double
        var failures: [FailureJSON]
        var stillFailing: [FailureJSON]
        var unsupported: [UnsupportedJSON]
        var interrupted: Bool
        var thumbnailsNotKept: Int
        var vanished: Int
    }

    struct UnsupportedJSON: Encodable {
        var path: String
        var format: String
    }

    func present(_ summary: ImportSummary, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(SummaryJSON(
                found: summary.found, imported: summary.imported, unchanged: summary.unchanged, moved: summary.moved,
                changed: summary.changed, duplicates: summary.duplicates, skipped: summary.skipped,
                showhidePictures: summary.showhidePictures, failed: summary.failed,
                seconds: (summary.seconds * 1000).rounded() / 1000,
                failures: summary.failures.map { FailureJSON(path: $0.path, reason: $0.reason) },
                stillFailing: summary.stillFailing.map { FailureJSON(path: $0.path, reason: $0.reason) },
                unsupported: summary.unsupported.map { UnsupportedJSON(path: $0.path, format: $0.format) },
                interrupted: summary.interrupted, thumbnailsNotKept: summary.thumbnailsNotKept,
                vanished: summary.vanished
            )))
            sayNotices(summary)
            return
        }
        for failure in summary.failures {
            console.warn("failed: \(failure.path): \(failure.reason)")
        }
        for file in summary.unsupported {
            console.warn("unsupported: \(file.path): \(file.format), which showhide does not read yet")
        }
        console.print(line(summary))
        sayNotices(summary)
    }

    /// What follows the summary on standard error, JSON or not: thumbnails not kept, an interruption.
    private func sayNotices(_ summary: ImportSummary) {
        if let reason = summary.thumbnailsNotKeptReason {
            console.warn("\(counted(summary.thumbnailsNotKept, "thumbnail")) could not be kept (\(reason)); the photos are imported, "
                         + "and the web gallery makes their thumbnails when it first shows them")
        }
        if summary.interrupted {
            console.warn("interrupted: what was read is kept (\(counted(summary.imported, "photo")) imported); "
                         + "run the same command again to go on from there")
        }
    }

    func line(_ summary: ImportSummary) -> String {
        var parts = [
            "imported \(summary.imported)", "unchanged \(summary.unchanged)", "moved \(summary.moved)",
            "duplicates \(summary.duplicates)", "failed \(summary.failed)",
        ]
        if summary.changed > 0 {
            parts.append("changed \(summary.changed) (edited in place: catalogued anew; what they held before, "
                         + "when no copy of it is left, forgotten with its variants)")
        }
        if !summary.stillFailing.isEmpty {
            parts.append("still failing \(summary.stillFailing.count) (unchanged: `gallery failures` lists them)")
        }
        if !summary.unsupported.isEmpty {
            let formats = Set(summary.unsupported.map(\.format)).sorted().joined(separator: ", ")
            parts.append("unsupported \(summary.unsupported.count) (\(formats): not read yet)")
        }
        if summary.skipped > 0 { parts.append("skipped \(summary.skipped) (not photos)") }
        if summary.vanished > 0 {
            parts.append("gone while read \(summary.vanished) (moved or deleted during the import: the next import finds them where they went)")
        }
        if summary.showhidePictures > 0 {
            parts.append("left out \(summary.showhidePictures) (pictures showhide made: show and hide pictures, an export's or an inspiration page's)")
        }
        return parts.joined(separator: ", ") + String(format: " in %.2f s", summary.seconds)
    }
}
