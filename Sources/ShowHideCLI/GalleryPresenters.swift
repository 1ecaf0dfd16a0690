import Catalogue
import Foundation
import Services

/// The documented JSON of one catalogued photo (Docs/Usage.md).
struct PhotoJSON: Encodable {
    var id: Int64
    var path: String
    var sha256: String
    var format: String
    var width: Int
    var height: Int
    var fileSize: Int64
    var importedAt: String
    var exif: ExifJSON?
    /// Only in `gallery show`.
    var duplicatePaths: [String]?
    /// Every EXIF tag as text; only in `gallery show`.
    var exifTags: [String: String]?

    init(_ photo: CataloguedPhoto, detailed: Bool = false) {
        id = photo.id
        path = photo.path
        sha256 = photo.facts.sha256
        format = photo.facts.format.rawValue
        width = photo.facts.pixelSize.width
        height = photo.facts.pixelSize.height
        fileSize = photo.stamp.size
        importedAt = ISO8601.string(photo.importedAt)
        exif = photo.facts.exif.map(ExifJSON.init)
        if detailed {
            duplicatePaths = photo.duplicatePaths
            exifTags = photo.facts.exif?.allTags ?? [:]
        }
    }
}

enum ISO8601 {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// The end of an import: one summary line, failures on standard error; or JSON.
struct ImportPresenter {
    let console: Console

    struct SummaryJSON: Encodable {
        var found: Int
        var imported: Int
        var unchanged: Int
        var moved: Int
        var duplicates: Int
        var skipped: Int
        var failed: Int
        var seconds: Double
        var failures: [FailureJSON]
    }

    func present(_ summary: ImportSummary, asJSON: Bool) throws {
        if asJSON {
            console.print(try JSONOutput.encode(SummaryJSON(
                found: summary.found, imported: summary.imported, unchanged: summary.unchanged, moved: summary.moved,
                duplicates: summary.duplicates, skipped: summary.skipped, failed: summary.failed,
                seconds: (summary.seconds * 1000).rounded() / 1000,
                failures: summary.failures.map { FailureJSON(path: $0.path, reason: $0.reason) }
            )))
            return
        }
        for failure in summary.failures {
            console.warn("failed: \(failure.path): \(failure.reason)")
        }
        console.print(line(summary))
    }

    func line(_ summary: ImportSummary) -> String {
        var parts = [
            "imported \(summary.imported)", "unchanged \(summary.unchanged)", "moved \(summary.moved)",
            "duplicates \(summary.duplicates)", "failed \(summary.failed)",
        ]
        if summary.skipped > 0 { parts.append("skipped \(summary.skipped) (not photos)") }
        return parts.joined(separator: ", ") + String(format: " in %.2f s", summary.seconds)
    }
}

/// Photo listings and single photos, as tables or JSON.
struct PhotoPresenter {
    let console: Console

    func presentList(_ photos: [CataloguedPhoto], asJSON: Bool) throws {
        if asJSON {
            console.print(try JSONOutput.encode(photos.map { PhotoJSON($0) }))
            return
        }
        guard !photos.isEmpty else {
            console.warn("The catalogue has no photos that match.")
            return
        }
        var table = TextTable(headers: ["ID", "FILE", "TAKEN", "CAMERA", "PIXELS"])
        for photo in photos {
            table.append([
                String(photo.id),
                (photo.path as NSString).lastPathComponent,
                photo.facts.exif?.takenAt.map { $0.iso8601.replacingOccurrences(of: "T", with: " ").prefix(19).description } ?? "-",
                photo.facts.exif?.cameraName ?? "-",
                photo.facts.pixelSize.description,
            ])
        }
        table.render(bold: console.bold).forEach(console.print)
    }

    func presentDetail(_ photo: CataloguedPhoto, asJSON: Bool) throws {
        if asJSON {
            console.print(try JSONOutput.encode(PhotoJSON(photo, detailed: true)))
            return
        }
        let exif = photo.facts.exif
        var rows: [(String, String?)] = [
            ("id", String(photo.id)),
            ("path", photo.path),
            ("format", photo.facts.format.rawValue.uppercased()),
            ("pixels", photo.facts.pixelSize.description),
            ("file size", "\(photo.stamp.size) bytes"),
            ("sha256", photo.facts.sha256),
            ("imported", ISO8601.string(photo.importedAt)),
            ("camera", exif?.cameraName),
            ("lens", exif?.lens),
            ("taken", exif?.takenAt?.iso8601),
            ("exposure", exif?.exposureTime.map(Self.exposure)),
            ("f-number", exif?.fNumber.map { "f/" + Self.number($0) }),
            ("ISO", exif?.iso.map(String.init)),
            ("focal length", exif?.focalLength.map { Self.number($0) + " mm" }),
            ("orientation", exif?.orientation.map { String($0.rawValue) }),
            ("GPS", exif?.gps.map { gps in
                var text = String(format: "%.6f, %.6f", gps.latitude, gps.longitude)
                if let altitude = gps.altitude { text += String(format: ", %.1f m", altitude) }
                return text
            }),
        ]
        rows += photo.duplicatePaths.map { ("duplicate", $0) }
        let present = rows.compactMap { label, value in value.map { (label, $0) } }
        let width = present.map(\.0.count).max() ?? 0
        for (label, value) in present {
            console.print(console.bold(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value)
        }
        if let tags = exif?.allTags, !tags.isEmpty {
            console.print(console.bold("EXIF tags"))
            for key in tags.keys.sorted() {
                console.print("  \(key): \(tags[key]!)")
            }
        }
    }

    /// "1/250 s" for short exposures, "2.5 s" for long ones.
    static func exposure(_ seconds: Double) -> String {
        if seconds < 1, seconds > 0 { return "1/\(Int((1 / seconds).rounded())) s" }
        return number(seconds) + " s"
    }

    /// A number without a pointless ".0".
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}

/// The recorded import failures.
struct FailurePresenter {
    let console: Console

    struct FailureRecordJSON: Encodable {
        var path: String
        var reason: String
        var failedAt: String
    }

    func present(_ failures: [ImportFailure], asJSON: Bool) throws {
        if asJSON {
            console.print(try JSONOutput.encode(failures.map {
                FailureRecordJSON(path: $0.path, reason: $0.reason, failedAt: ISO8601.string($0.failedAt))
            }))
            return
        }
        guard !failures.isEmpty else {
            console.warn("No import failures.")
            return
        }
        var table = TextTable(headers: ["PATH", "REASON"])
        failures.forEach { table.append([$0.path, $0.reason]) }
        table.render(bold: console.bold).forEach(console.print)
    }
}

/// A one-line progress bar on standard error (only used when it is a terminal).
final class ProgressBar: ImportProgress, @unchecked Sendable {
    private let console: Console
    private let clock: any WallClock
    private let lock = NSLock()
    private var started: Date?
    private var lastDrawn: Date?
    private let width = 30

    init(console: Console, clock: any WallClock) {
        self.console = console
        self.clock = clock
    }

    func update(completed: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = clock.now()
        if started == nil { started = now }
        // Redraw at most ten times a second, and always at the end.
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, completed < total { return }
        lastDrawn = now
        console.errors.write("\r" + Self.line(completed: completed, total: total, elapsed: now.timeIntervalSince(started!), width: width))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if lastDrawn != nil { console.errors.write("\r\u{1B}[K") }
    }

    /// "[=========>          ]  120/500  24.0/s  ETA 0:16"
    static func line(completed: Int, total: Int, elapsed: TimeInterval, width: Int) -> String {
        let fraction = total > 0 ? Double(completed) / Double(total) : 1
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" + String(repeating: " ", count: width - filled - 1) : "")
        let rate = elapsed > 0 ? Double(completed) / elapsed : 0
        var text = "[\(bar)] \(completed)/\(total)"
        text += String(format: "  %.1f/s", rate)
        if rate > 0, completed < total {
            let remaining = Int((Double(total - completed) / rate).rounded())
            text += String(format: "  ETA %d:%02d", remaining / 60, remaining % 60)
        }
        return text
    }
}
