import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The end of processing: one summary line and the failures, or JSON.
struct ProcessPresenter {
    let console: Console

    struct SummaryJSON: Encodable {
        var photos: Int
        /// Photos looked at: `photos`, unless interrupted or stopped.
        var photosDone: Int
        var made: [VariantJSON]
        var unchanged: Int
        var skipped: [SkippedJSON]
        var failures: [FailureJSON]
        var seconds: Double
        var interrupted: Bool
        /// Why no more photos were started (a full disk); absent otherwise.
        var stoppedForRoom: String?
    }

    struct SkippedJSON: Encodable {
        var id: Int64
        var reason: String
    }

    func present(_ summary: ProcessingSummary, photos: Int, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(SummaryJSON(
                photos: photos, photosDone: summary.photosDone, made: summary.made.map(VariantJSON.init), unchanged: summary.unchanged,
                skipped: summary.skipped.map { SkippedJSON(id: $0.photoID, reason: $0.reason) },
                failures: summary.failures.map { FailureJSON(path: $0.path, reason: $0.reason) },
                seconds: (summary.seconds * 1000).rounded() / 1000, interrupted: summary.interrupted,
                stoppedForRoom: summary.stoppedForRoom)))
            sayNotices(summary)
            return
        }
        for skipped in summary.skipped {
            console.warn("skipped: photo \(skipped.photoID): \(skipped.reason)")
        }
        for failure in summary.failures {
            console.warn("failed: photo \(failure.photoID) \(failure.path): \(failure.reason)")
        }
        // Variants and photos each said as what they are: "made 20 variants of 26 photos, skipped 16" read as 26 photos given variants.
        let madeFor = Set(summary.made.map(\.photoID)).count
        // Interrupted, the photos looked at of those asked for: "2040 photos in 2.95 s" read as all of them done.
        let looked = summary.photosDone < photos ? "\(summary.photosDone) of \(counted(photos, "photo"))" : counted(photos, "photo")
        console.print(looked + String(format: " in %.2f s: ", summary.seconds)
            + "made \(counted(summary.made.count, "variant")) of \(counted(madeFor, "photo")), \(counted(summary.unchanged, "variant")) already there, "
            + "\(counted(summary.skipped.count, "photo")) skipped, \(summary.failures.count) failed")
        sayNotices(summary)
    }

    /// What follows the summary on standard error, JSON or not: an interruption, a stop for want of room.
    private func sayNotices(_ summary: ProcessingSummary) {
        if summary.interrupted {
            console.warn("interrupted: the variants made are kept (\(counted(summary.made.count, "variant"))); run the same command to go on")
        }
        if let reason = summary.stoppedForRoom {
            console.warn("stopped: a variant could not be written (\(reason)), so no more photos were started; the variants made are kept "
                         + "(\(counted(summary.made.count, "variant"))): make room, then run the same command to go on")
        }
    }
}
