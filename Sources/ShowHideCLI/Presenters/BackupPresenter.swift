import Catalogue
import Foundation
import GalleryJSON

/// "backed up 40 photos to FILE (1.2 MB); its integrity check passed", or JSON.
struct BackupPresenter {
    let console: Console

    struct BackupJSON: Encodable {
        var path: String
        var photos: Int
        var bytes: Int
        var integrity = "ok"
    }

    func present(_ backup: CatalogueBackup, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(BackupJSON(path: backup.path, photos: backup.photos, bytes: backup.bytes)))
            return
        }
        let megabytes = String(format: "%.1f MB", Double(backup.bytes) / 1_000_000)
        console.print("backed up \(counted(backup.photos, "photo")) to \(backup.path) (\(megabytes)); its integrity check passed")
    }
}
