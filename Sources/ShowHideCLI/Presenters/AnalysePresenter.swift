import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Services

/// The end of an analysis: the photos whose accent changed, the failures, and one summary line; or JSON.
struct AnalysePresenter {
    let console: Console

    struct SummaryJSON: Encodable {
        var analysed: Int
        var accentsChanged: [ChangeJSON]
        var failures: [FailureJSON]
        var thumbnailsMade: Int
        var seconds: Double
        var interrupted: Bool
    }

    struct ChangeJSON: Encodable {
        var id: Int64
        var before: String?
        var after: String?
    }

    /// - Parameter scopeIsEmpty: whether a scope was given that holds no catalogued photo.
    func present(_ summary: AnalysisSummary, asJSON: Bool, scopeIsEmpty: Bool = false) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(SummaryJSON(
                analysed: summary.analysed,
                accentsChanged: summary.accentsChanged.map { ChangeJSON(id: $0.photoID, before: $0.before?.rawValue, after: $0.after?.rawValue) },
                failures: summary.failures.map { FailureJSON(path: $0.path, reason: $0.reason) },
                thumbnailsMade: summary.thumbnailsMade,
                seconds: (summary.seconds * 1000).rounded() / 1000, interrupted: summary.interrupted)))
            sayInterruption(summary)
            return
        }
        for change in summary.accentsChanged {
            console.print("photo \(change.photoID): accent \(change.before?.rawValue ?? "none") → \(change.after?.rawValue ?? "none")")
        }
        for failure in summary.failures {
            console.warn("failed: photo \(failure.photoID) \(failure.path): \(failure.reason)")
        }
        if summary.thumbnailsMade > 0 { console.print("made \(counted(summary.thumbnailsMade, "missing thumbnail"))") }
        if summary.analysed == 0 && summary.failures.isEmpty {
            console.print(scopeIsEmpty ? "Nothing to analyse: no catalogued photo is in this scope."
                          : "Nothing to analyse: every photo's colours are up to date.")
            return
        }
        console.print("analysed \(counted(summary.analysed, "photo")), \(counted(summary.accentsChanged.count, "accent")) changed, "
            + "failed \(summary.failures.count)" + String(format: " in %.2f s", summary.seconds))
        sayInterruption(summary)
    }

    private func sayInterruption(_ summary: AnalysisSummary) {
        if summary.interrupted {
            console.warn("interrupted: the colours found are kept; run the same command to go on")
        }
    }
}
