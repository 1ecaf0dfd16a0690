import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The end of an export: a summary line and the failures, what would be written, or JSON.
struct ExportPresenter {
    let console: Console

    struct PlannedJSON: Encodable {
        var file: String
        var photo: Int64
        var variant: String
        var needsMaking: Bool
    }

    struct SummaryJSON: Encodable {
        var destination: String
        var dryRun: Bool
        var files: [ExportedFile]
        var planned: [PlannedJSON]
        var written: Int
        var kept: Int
        var bytes: Int
        var madeVariants: Int
        var withoutAccent: [Int64]
        var failures: [FailureJSON]
        var seconds: Double
        var interrupted: Bool
    }

    /// - Parameter keepsAPart: whether the destination kept what was written when interrupted (a folder does).
    func present(_ summary: ExportSummary, destination: String, dryRun: Bool, asJSON: Bool, keepsAPart: Bool = true) throws {
        // An archive cut short is taken away: none of the files in it were exported.
        let takenAway = summary.interrupted && !keepsAPart
        if asJSON {
            let json = SummaryJSON(
                destination: destination, dryRun: dryRun, files: takenAway ? [] : summary.files,
                planned: summary.planned.map { PlannedJSON(file: $0.file, photo: $0.photo, variant: $0.variant.rawValue, needsMaking: $0.needsMaking) },
                written: takenAway ? 0 : summary.written.count, kept: takenAway ? 0 : summary.kept.count, bytes: takenAway ? 0 : summary.bytesWritten,
                madeVariants: summary.madeVariants, withoutAccent: summary.withoutAccent,
                failures: summary.failures.map { FailureJSON(photo: $0.photoID, path: $0.path, reason: $0.reason) },
                seconds: (summary.seconds * 100).rounded() / 100, interrupted: summary.interrupted)
            console.printJSON(try JSONOutput.encode(json))
            sayInterruption(summary, keepsAPart: keepsAPart)
            return
        }
        if dryRun {
            for planned in summary.planned {
                console.print("would write \(planned.file) (photo \(planned.photo), \(planned.variant.rawValue)"
                              + (planned.needsMaking ? ", variant to be made)" : ")"))
            }
            let withoutAccent = summary.withoutAccent.count
            console.print("would write \(counted(summary.planned.count, "file")) to \(destination)"
                          + (withoutAccent == 0 ? "" : "; \(counted(withoutAccent, "photo")) \(withoutAccent == 1 ? "has" : "have") no accent colour"))
            return
        }
        for failure in summary.failures {
            console.warn("failed: photo \(failure.photoID) \(failure.path): \(failure.reason)")
        }
        let exported = takenAway
            ? "exported no file to \(destination) (it held \(counted(summary.written.count, "file")) when interrupted), "
            // A folder may have been there before (its files are the user's): nothing was written to it.
            : summary.madeNothing ? (keepsAPart ? "exported no file to \(destination), " : "exported no file (\(destination) not made), ")
            : "exported \(counted(summary.written.count, "file")) (\(Self.size(Int64(summary.bytesWritten)))) to \(destination), "
        console.print(exported
                      + "made \(counted(summary.madeVariants, "variant")), kept \(summary.kept.count), "
                      + "without an accent \(summary.withoutAccent.count), failed \(summary.failures.count) "
                      + "in \(String(format: "%.2f", summary.seconds)) s")
        sayInterruption(summary, keepsAPart: keepsAPart)
    }

    private func sayInterruption(_ summary: ExportSummary, keepsAPart: Bool) {
        if summary.interrupted {
            console.warn(keepsAPart
                ? "interrupted: the files written are kept, and listed in its manifest; run the same command to go on"
                : "interrupted: the zip file is not written (an archive is made whole or not at all); the variants made are kept")
        }
    }

    /// Bytes as people read them: "56 bytes", "340 kB", "116.2 MB", "2.4 GB".
    static func size(_ bytes: Int64) -> String {
        switch bytes {
        case ..<1_000: return "\(bytes) bytes"
        case ..<1_000_000: return "\(bytes / 1_000) kB"
        case ..<1_000_000_000: return String(format: "%.1f MB", Double(bytes) / 1_000_000)
        default: return String(format: "%.1f GB", Double(bytes) / 1_000_000_000)
        }
    }
}
