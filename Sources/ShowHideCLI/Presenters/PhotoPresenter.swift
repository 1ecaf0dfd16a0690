import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// Photo listings and single photos, as tables or JSON.
struct PhotoPresenter {
    let console: Console

    /// - Parameter gone: the photos whose file is not at its path (an unmounted drive, a file deleted), marked.
    func presentList(_ photos: [CataloguedPhoto], asJSON: Bool, gone: Set<PhotoID> = []) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(photos.map { PhotoJSON($0) }))
            return
        }
        guard !photos.isEmpty else {
            console.warn("The catalogue has no photos that match.")
            return
        }
        var table = TextTable(headers: ["ID", "FILE", "TAKEN", "CAMERA", "PIXELS", "COLOURS"], fits: [.keep, .elide, .keep, .elide, .keep, .wrap])
        for photo in photos {
            table.append([
                String(photo.id),
                Self.fileName(photo, gone: gone),
                photo.facts.exif?.takenAt.map { $0.iso8601.replacingOccurrences(of: "T", with: " ").prefix(19).description } ?? "-",
                photo.facts.exif?.cameraName ?? "-",
                photo.facts.pixelSize.description,
                ColourText(console: console).summary(photo.facts.colours),
            ])
        }
        console.print(table)
        Self.sayGone(gone, console: console)
    }

    /// A listed photo's file name, marked when its file is gone.
    static func fileName(_ photo: CataloguedPhoto, gone: Set<PhotoID>) -> String {
        (photo.path as NSString).lastPathComponent + (gone.contains(photo.id) ? " (file gone)" : "")
    }

    /// After a listing: how many of its photos have no file at their path, and where to look.
    /// - Parameter how: how the photos were given ("listed", "shown").
    static func sayGone(_ gone: Set<PhotoID>, console: Console, how: String = "listed") {
        guard !gone.isEmpty else { return }
        console.warn("\(counted(gone.count, "photo")) \(how) here \(gone.count == 1 ? "has" : "have") no file at \(gone.count == 1 ? "its path" : "their paths") "
                     + goneFilesHint)
    }

    /// What to do about photos whose file is gone, said after each count of them.
    static let goneFilesHint = "(gallery check lists them; gallery remove --missing forgets them)"

    /// Several photos' details: one after another, a blank line between; in JSON an array (one photo
    /// alone is the object itself, as `show ID` has always printed).
    /// - Parameter gone: the photos whose file is not at its path, marked.
    func presentDetails(_ photos: [CataloguedPhoto], asJSON: Bool, gone: Set<PhotoID> = []) throws {
        guard photos.count != 1 else { return try presentDetail(photos[0], asJSON: asJSON, gone: gone) }
        if asJSON {
            console.printJSON(try JSONOutput.encode(photos.map { PhotoJSON($0, detailed: true) }))
            return
        }
        for (index, photo) in photos.enumerated() {
            if index > 0 { console.print("") }
            try presentDetail(photo, asJSON: false, gone: gone)
        }
    }

    func presentDetail(_ photo: CataloguedPhoto, asJSON: Bool, gone: Set<PhotoID> = []) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(PhotoJSON(photo, detailed: true)))
            return
        }
        let exif = photo.facts.exif
        var rows: [(String, String?)] = [
            ("id", String(photo.id)),
            ("path", photo.path + (gone.contains(photo.id) ? " (file gone)" : "")),
            ("format", photo.facts.format.displayName),
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
            ("orientation", exif?.orientation.map { written in
                let left = photo.facts.format.orientationLeft(written) ?? written
                return left == written ? String(left.rawValue) : "\(left.rawValue) (EXIF says \(written.rawValue): the decoder turned it)"
            }),
            ("GPS", exif?.gps.map { gps in
                var text = String(format: "%.6f, %.6f", gps.latitude, gps.longitude)
                if let altitude = gps.altitude { text += String(format: ", %.1f m", altitude) }
                return text
            }),
        ]
        rows.append(("XMP", photo.facts.xmp.map { "\($0.utf8.count) bytes (in full with --json)" }))
        rows += photo.duplicatePaths.map { ("duplicate", $0) }
        let colourText = ColourText(console: console)
        if let colours = photo.facts.colours {
            rows.append(("dominant", colours.dominant.map { colourText.describe(hex: $0.hex, name: $0.name, share: $0.weight) }))
            rows.append(("accent", colours.accent.map { colourText.describe(hex: $0.hex, name: $0.name, share: $0.coverage)
                + String(format: ", hue %.0f°", $0.hue) + (colours.subjectChosen ? ", chosen by you" : "") }
                ?? "none (\(Self.noAccentReason(colours.scene)))"))
            rows += colours.candidates.map {
                ("candidate", colourText.describe(hex: $0.hex, name: $0.name, share: $0.coverage) + String(format: ", saliency %.2f", $0.saliency))
            }
            rows += colours.palette.map { ("palette", colourText.describe(hex: $0.hex, name: $0.name, share: $0.weight)) }
        }
        rows += photo.variants.map { ("variant", "\($0.kind) \($0.pixelSize), \(VariantSpec.describe(key: $0.parameters)): \($0.path)") }
        let present = rows.compactMap { label, value in value.map { (label, $0) } }
        let width = present.map(\.0.count).max() ?? 0
        for (label, value) in present {
            // On a terminal, a long value goes on under itself rather than under the labels.
            for (index, line) in console.fitted(value, after: width + 2).enumerated() {
                console.print((index == 0 ? console.bold(label.padding(toLength: width, withPad: " ", startingAt: 0)) : String(repeating: " ", count: width))
                              + "  " + line)
            }
        }
        if let tags = exif?.allTags, !tags.isEmpty {
            console.print(console.bold("EXIF tags"))
            for key in tags.keys.sorted() {
                for (index, line) in console.fitted("\(key): \(tags[key]!)", after: 4).enumerated() { console.print((index == 0 ? "  " : "    ") + line) }
            }
        }
    }

    /// Why a photo has no accent, as `gallery show` says it.
    static func noAccentReason(_ scene: SceneKind) -> String {
        switch scene {
        case .ordinary: return "no colour stands out"
        case .colourTarget: return "a colour target: a chart of patches, nothing to splash"
        case .busy: return "a busy scene: many colours, no single subject"
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
