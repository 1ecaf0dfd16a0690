import Catalogue
import Foundation
import GalleryJSON
import Imaging
import Services

/// What a check found, a line per kind of problem and one per file; or JSON.
struct CheckPresenter {
    let console: Console

    struct ReportJSON: Encodable {
        var integrity: String
        var photos: Int
        var missingPhotos: [PhotoJSON]
        var changedPhotos: [PhotoJSON]
        var variantsWithoutFiles: [String]
        var movedVariants: [String]
        var strayVariantFiles: [String]
        var recentUnrecordedFiles: [String]
        var removedVariantRows: Int
        var removedStrayFiles: Int
        var movedVariantRows: Int
        var missingThumbnails: [PhotoJSON]
        var strayThumbnails: [String]
        var unreadableThumbnails: String?
        var madeThumbnails: Int
        var removedStrayThumbnails: Int
        var forgottenPhotos: [PhotoJSON]
        var movedPhotos: [PhotoJSON]
        var clean: Bool

        struct PhotoJSON: Encodable {
            var id: Int64
            var path: String
            /// A missing photo's duplicates that are still there.
            var copies: [String]?
        }
    }

    func present(_ report: CheckReport, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(ReportJSON(
                integrity: report.integrity, photos: report.photos,
                missingPhotos: report.missingPhotos.map { .init(id: $0.id, path: $0.path, copies: $0.copies) },
                changedPhotos: report.changedPhotos.map { .init(id: $0.id, path: $0.path) },
                variantsWithoutFiles: report.variantsWithoutFiles.map(\.path), movedVariants: report.movedVariants.map(\.path),
                strayVariantFiles: report.strayVariantFiles, recentUnrecordedFiles: report.recentUnrecordedFiles,
                removedVariantRows: report.removedVariantRows, removedStrayFiles: report.removedStrayFiles,
                movedVariantRows: report.movedVariantRows,
                missingThumbnails: report.missingThumbnails.map { .init(id: $0.id, path: $0.path) }, strayThumbnails: report.strayThumbnails,
                unreadableThumbnails: report.unreadableThumbnails,
                madeThumbnails: report.madeThumbnails, removedStrayThumbnails: report.removedStrayThumbnails,
                forgottenPhotos: report.forgotten.removed.map { .init(id: $0.id, path: $0.path) },
                movedPhotos: report.forgotten.moved.map { .init(id: $0.id, path: $0.path) }, clean: report.isClean)))
            return
        }
        say("integrity: \(report.integrity)")
        guard report.isSound else {
            say("the catalogue is damaged: restore it from a backup (showhide gallery backup makes one); nothing else was checked")
            return
        }
        for photo in report.forgotten.removed { say("repaired: forgot photo \(photo.id) \(photo.path) (its file was gone)") }
        for photo in report.forgotten.moved {
            say("repaired: photo \(photo.id) now at its duplicate \(photo.path) (its file was gone)")
        }
        say("photos: \(report.photos), missing files \(report.missingPhotos.count), changed since import \(report.changedPhotos.count)")
        for photo in report.missingPhotos {
            // Which copy remove --missing makes the photo's file is the catalogue's choice: with several, none is named as it.
            let copies = switch photo.copies.count {
            case 0: ""
            case 1: " (the same photo is at \(photo.copies[0]): gallery remove --missing makes that its file)"
            default: " (the same photo is still at \(photo.copies.count) places, such as \(photo.copies[0]): "
                + "gallery remove --missing makes one of them its file)"
            }
            say("  missing: photo \(photo.id) \(photo.path)" + copies)
        }
        for photo in report.changedPhotos { say("  changed: photo \(photo.id) \(photo.path) (import it again)") }
        say("variants: \(report.variantsWithoutFiles.count) without a file, \(counted(report.strayVariantFiles.count, "stray file"))")
        for variant in report.variantsWithoutFiles {
            let elsewhere = report.recordedElsewhere.contains(variant.path)
                ? " (recorded in another library's folder, whose file is that library's: this one has none)" : ""
            say("  no file: photo \(variant.photoID) \(variant.kind) \(variant.path)" + elsewhere)
        }
        for path in report.strayVariantFiles { say("  stray: \(path)") }
        if !report.recentUnrecordedFiles.isEmpty {
            say("  \(counted(report.recentUnrecordedFiles.count, "file")) not recorded yet, written in the last "
                + "\(Int(CatalogueCheck.recentFileAge / 60)) minutes: "
                + "most likely variants another showhide is making; left as they are (check again later)")
        }
        if !report.movedVariants.isEmpty {
            say("  \(counted(report.movedVariants.count, "variant")) moved with the library folder (recorded at their old place)"
                + (report.movedVariantRows > 0 ? "" : "; --repair records the new one"))
        }
        if report.movedVariantRows > 0 { say("repaired: recorded the new place of \(counted(report.movedVariantRows, "variant"))") }
        if report.removedVariantRows + report.removedStrayFiles > 0 {
            say("repaired: removed \(counted(report.removedVariantRows, "variant row")) and \(counted(report.removedStrayFiles, "stray file"))")
        }
        say("thumbnails: \(report.missingThumbnails.count) missing, \(report.strayThumbnails.count) stray")
        if let reason = report.unreadableThumbnails {
            say("  the thumbnails cannot be read: \(reason)" + (report.thumbnailsDamaged ? "; --repair makes them anew" : "; check again once that is mended"))
        }
        if report.madeThumbnails + report.removedStrayThumbnails > 0 {
            say("repaired: made \(counted(report.madeThumbnails, "thumbnail")), removed \(counted(report.removedStrayThumbnails, "stray thumbnail"))")
        }
    }

    /// A line of the report; on a terminal, broken to its width, the rest under the line's own indent
    /// and two more (a long path or reason), where the terminal would carry it on at the left edge.
    private func say(_ text: String) {
        let indent = text.prefix { $0 == " " }.count
        for (index, line) in console.fitted(String(text.dropFirst(indent)), after: indent + 2).enumerated() {
            console.print(String(repeating: " ", count: index == 0 ? indent : indent + 2) + line)
        }
    }
}
