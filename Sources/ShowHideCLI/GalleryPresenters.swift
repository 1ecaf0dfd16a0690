import Catalogue
import ColourScience
import Foundation
import Imaging
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
    var palette: [PaletteJSON]?
    var dominant: DominantJSON?
    /// Present (possibly null) once the photo's colours are analysed.
    var accent: AccentJSON??
    /// The accent candidates, most salient first; only in `gallery show`.
    var candidates: [CandidateJSON]?
    /// Only in `gallery show`.
    var variants: [VariantJSON]?

    struct CandidateJSON: Encodable {
        var hex: String
        var name: String
        var hue: Double
        var coverage: Double
        var saliency: Double
        var contrast: Double
        var regions: Int
        var compactness: Double
        var texture: Double
    }

    struct PaletteJSON: Encodable {
        var hex: String
        var lab: [Double]
        var weight: Double
        var name: String
    }

    struct DominantJSON: Encodable {
        var hex: String
        var name: String
    }

    struct AccentJSON: Encodable {
        var hex: String
        var name: String
        var hue: Double
        var coverage: Double
    }

    static func rounded(_ value: Double, _ places: Double = 4) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

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
            variants = photo.variants.map(VariantJSON.init)
        }
        if let colours = photo.facts.colours {
            palette = colours.palette.map {
                PaletteJSON(hex: $0.hex, lab: [$0.lab.l, $0.lab.a, $0.lab.b].map { Self.rounded($0, 2) },
                            weight: Self.rounded($0.weight), name: $0.name.rawValue)
            }
            dominant = colours.dominant.map { DominantJSON(hex: $0.hex, name: $0.name.rawValue) }
            accent = .some(colours.accent.map {
                AccentJSON(hex: $0.hex, name: $0.name.rawValue, hue: Self.rounded($0.hue, 1), coverage: Self.rounded($0.coverage))
            })
            if detailed {
                candidates = colours.candidates.map {
                    CandidateJSON(hex: $0.hex, name: $0.name.rawValue, hue: Self.rounded($0.hue, 1), coverage: Self.rounded($0.coverage),
                                  saliency: Self.rounded($0.saliency, 3), contrast: Self.rounded($0.contrast, 1), regions: $0.regions,
                                  compactness: Self.rounded($0.compactness, 3), texture: Self.rounded($0.texture, 2))
                }
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, path, sha256, format, width, height, fileSize, importedAt, exif, duplicatePaths, exifTags
        case palette, dominant, accent, candidates, variants
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(path, forKey: .path)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(importedAt, forKey: .importedAt)
        try container.encodeIfPresent(exif, forKey: .exif)
        try container.encodeIfPresent(duplicatePaths, forKey: .duplicatePaths)
        try container.encodeIfPresent(exifTags, forKey: .exifTags)
        try container.encodeIfPresent(palette, forKey: .palette)
        try container.encodeIfPresent(dominant, forKey: .dominant)
        // A photo without a chromatic colour has "accent": null.
        if let accent { try container.encode(accent, forKey: .accent) }
        try container.encodeIfPresent(candidates, forKey: .candidates)
        try container.encodeIfPresent(variants, forKey: .variants)
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
        var unsupported: [UnsupportedJSON]
    }

    struct UnsupportedJSON: Encodable {
        var path: String
        var format: String
    }

    func present(_ summary: ImportSummary, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(SummaryJSON(
                found: summary.found, imported: summary.imported, unchanged: summary.unchanged, moved: summary.moved,
                duplicates: summary.duplicates, skipped: summary.skipped, failed: summary.failed,
                seconds: (summary.seconds * 1000).rounded() / 1000,
                failures: summary.failures.map { FailureJSON(path: $0.path, reason: $0.reason) },
                unsupported: summary.unsupported.map { UnsupportedJSON(path: $0.path, format: $0.format) }
            )))
            return
        }
        for failure in summary.failures {
            console.warn("failed: \(failure.path): \(failure.reason)")
        }
        for file in summary.unsupported {
            console.warn("unsupported: \(file.path): \(file.format), which showhide does not read yet")
        }
        console.print(line(summary))
    }

    func line(_ summary: ImportSummary) -> String {
        var parts = [
            "imported \(summary.imported)", "unchanged \(summary.unchanged)", "moved \(summary.moved)",
            "duplicates \(summary.duplicates)", "failed \(summary.failed)",
        ]
        if !summary.unsupported.isEmpty {
            let formats = Set(summary.unsupported.map(\.format)).sorted().joined(separator: ", ")
            parts.append("unsupported \(summary.unsupported.count) (\(formats): not read yet)")
        }
        if summary.skipped > 0 { parts.append("skipped \(summary.skipped) (not photos)") }
        return parts.joined(separator: ", ") + String(format: " in %.2f s", summary.seconds)
    }
}

/// Photo listings and single photos, as tables or JSON.
struct PhotoPresenter {
    let console: Console

    func presentList(_ photos: [CataloguedPhoto], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(photos.map { PhotoJSON($0) }))
            return
        }
        guard !photos.isEmpty else {
            console.warn("The catalogue has no photos that match.")
            return
        }
        var table = TextTable(headers: ["ID", "FILE", "TAKEN", "CAMERA", "PIXELS", "COLOURS"], fits: [.keep, .elide, .wrap, .elide, .keep, .wrap])
        for photo in photos {
            table.append([
                String(photo.id),
                (photo.path as NSString).lastPathComponent,
                photo.facts.exif?.takenAt.map { $0.iso8601.replacingOccurrences(of: "T", with: " ").prefix(19).description } ?? "-",
                photo.facts.exif?.cameraName ?? "-",
                photo.facts.pixelSize.description,
                ColourText(console: console).summary(photo.facts.colours),
            ])
        }
        console.print(table)
    }

    func presentDetail(_ photo: CataloguedPhoto, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(PhotoJSON(photo, detailed: true)))
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
        let colourText = ColourText(console: console)
        if let colours = photo.facts.colours {
            rows.append(("dominant", colours.dominant.map { colourText.describe(hex: $0.hex, name: $0.name, share: $0.weight) }))
            rows.append(("accent", colours.accent.map { colourText.describe(hex: $0.hex, name: $0.name, share: $0.coverage)
                + String(format: ", hue %.0f°", $0.hue) } ?? "none (no colour stands out)"))
            rows += colours.candidates.map {
                ("candidate", colourText.describe(hex: $0.hex, name: $0.name, share: $0.coverage) + String(format: ", saliency %.2f", $0.saliency))
            }
            rows += colours.palette.map { ("palette", colourText.describe(hex: $0.hex, name: $0.name, share: $0.weight)) }
        }
        rows += photo.variants.map { ("variant", "\($0.kind) \($0.pixelSize), \(Self.parameters(of: $0)): \($0.path)") }
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

    /// The parameters a variant was made with, as a person reads them: "object mode, hue 34.5°,
    /// tolerance 12°, feather 10°, chroma from 12, quality 90".
    static func parameters(of variant: Variant) -> String {
        let values = VariantSpec.parameterValues(ofKey: variant.parameters)
        func degrees(_ name: String, _ label: String) -> String? { values[name].map { "\(label) \(number($0))°" } }
        let parts: [String?] = [
            variant.parameters.contains(#""method":"object""#) ? "object mode" : "hue mode",
            degrees("hue", "hue"), degrees("tolerance", "tolerance"), degrees("feather", "feather"),
            values["minimumChroma"].map { "chroma from \(number($0))" }, values["quality"].map { "quality \(number($0))" },
        ]
        return parts.compactMap { $0 }.joined(separator: ", ")
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
            console.printJSON(try JSONOutput.encode(failures.map {
                FailureRecordJSON(path: $0.path, reason: $0.reason, failedAt: ISO8601.string($0.failedAt))
            }))
            return
        }
        guard !failures.isEmpty else {
            console.warn("No import failures.")
            return
        }
        var table = TextTable(headers: ["PATH", "REASON"], fits: [.elide, .wrap])
        failures.forEach { table.append([$0.path, $0.reason]) }
        console.print(table)
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

/// Colours as text: 24-bit ANSI swatches when colour is on, names and shares always.
struct ColourText {
    let console: Console

    /// Two cells painted in `hex`, or nothing without colour.
    func swatch(_ hex: String) -> String {
        guard console.usesColour, let rgba = RGBA(parsing: hex) else { return "" }
        // No-break spaces: a wrapped column keeps a swatch whole.
        return console.background("\u{00A0}\u{00A0}", red: rgba.red, green: rgba.green, blue: rgba.blue)
    }

    /// "▇▇ #CC141E red 6%".
    func describe(hex: String, name: ColourName, share: Double) -> String {
        let swatch = swatch(hex)
        return (swatch.isEmpty ? "" : swatch + " ") + "\(hex) \(name.rawValue) \(Self.percent(share))"
    }

    /// The palette as swatches, then the dominant and accent names.
    func summary(_ colours: ColourAnalysis?) -> String {
        guard let colours, let dominant = colours.dominant else { return "-" }
        let swatches = colours.palette.map { swatch($0.hex) }.joined()
        var text = dominant.name.rawValue
        if let accent = colours.accent { text += ", accent \(accent.name.rawValue) \(Self.percent(accent.coverage))" }
        return swatches.isEmpty ? text : swatches + " " + text
    }

    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value < 1 && value > 0 ? String(format: "%.1f%%", value) : String(format: "%.0f%%", value)
    }
}
