import ArgumentParser
import Catalogue
import Foundation
import Imaging
import Services

/// `showhide gallery check [--repair] [--json]`
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the catalogue against the disk: integrity, missing or changed photos, lost or stray variants.",
        discussion: """
        Changes nothing unless --repair is given; a repair removes only variant rows whose files are gone and \
        files under the library's variants folder that no row records. Missing and changed photos are reported, \
        not removed (import the folder again to analyse changed files), unless --forget-missing is given too. \
        Exit status 1 when something is left wrong; 65 when the catalogue itself is damaged (restore a backup).
        """
    )

    @Flag(name: .long, help: "Remove variant rows without files and stray variant files.")
    var repair = false

    @Flag(name: .long, help: "With --repair: forget the photos whose files are gone (as `gallery remove --missing`).")
    var forgetMissing = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if forgetMissing && !repair { throw ValidationError("--forget-missing is a repair: give --repair too.") }
    }

    func run() async throws {
        try run(in: .live())
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue: any PhotoCatalogue
        do {
            catalogue = try environment.openCatalogue(library.directory(in: environment), .existingOnly)
        } catch CatalogueError.damaged {
            // Too damaged to open: that is the check's finding, not a failure to run it.
            var report = CheckReport()
            report.integrity = "damaged beyond reading (SQLite cannot open its tables)"
            try CheckPresenter(console: environment.console).present(report, asJSON: json)
            throw ExitStatus.damaged
        } catch {
            environment.console.warn("showhide: \(error.plainDescription)")
            throw ExitStatus.of(error)
        }
        let report = try CatalogueCheck(fileSystem: environment.fileSystem, catalogue: catalogue,
                                        libraryDirectory: library.directory(in: environment)).run(repair: repair, forgetMissing: forgetMissing)
        try CheckPresenter(console: environment.console).present(report, asJSON: json)
        if !report.isSound { throw ExitStatus.damaged }
        if !report.isClean { throw ExitStatus.someFilesFailed }
    }
}

/// What a check found, a line per kind of problem and one per file; or JSON.
struct CheckPresenter {
    let console: Console

    struct ReportJSON: Encodable {
        var integrity: String
        var photos: Int
        var missingPhotos: [PhotoJSON]
        var changedPhotos: [PhotoJSON]
        var variantsWithoutFiles: [String]
        var strayVariantFiles: [String]
        var removedVariantRows: Int
        var removedStrayFiles: Int
        var forgottenPhotos: [PhotoJSON]
        var movedPhotos: [PhotoJSON]
        var clean: Bool

        struct PhotoJSON: Encodable {
            var id: Int64
            var path: String
        }
    }

    func present(_ report: CheckReport, asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(ReportJSON(
                integrity: report.integrity, photos: report.photos,
                missingPhotos: report.missingPhotos.map { .init(id: $0.id, path: $0.path) },
                changedPhotos: report.changedPhotos.map { .init(id: $0.id, path: $0.path) },
                variantsWithoutFiles: report.variantsWithoutFiles.map(\.path), strayVariantFiles: report.strayVariantFiles,
                removedVariantRows: report.removedVariantRows, removedStrayFiles: report.removedStrayFiles,
                forgottenPhotos: report.forgotten.removed.map { .init(id: $0.id, path: $0.path) },
                movedPhotos: report.forgotten.moved.map { .init(id: $0.id, path: $0.path) }, clean: report.isClean)))
            return
        }
        console.print("integrity: \(report.integrity)")
        guard report.isSound else {
            console.print("the catalogue is damaged: restore it from a backup (showhide gallery backup makes one); nothing else was checked")
            return
        }
        for photo in report.forgotten.removed { console.print("repaired: forgot photo \(photo.id) \(photo.path) (its file was gone)") }
        for photo in report.forgotten.moved {
            console.print("repaired: photo \(photo.id) now at its duplicate \(photo.path) (its file was gone)")
        }
        console.print("photos: \(report.photos), missing files \(report.missingPhotos.count), changed since import \(report.changedPhotos.count)")
        for photo in report.missingPhotos { console.print("  missing: photo \(photo.id) \(photo.path)") }
        for photo in report.changedPhotos { console.print("  changed: photo \(photo.id) \(photo.path) (import it again)") }
        console.print("variants: \(report.variantsWithoutFiles.count) without a file, \(report.strayVariantFiles.count) stray files")
        for variant in report.variantsWithoutFiles { console.print("  no file: photo \(variant.photoID) \(variant.kind) \(variant.path)") }
        for path in report.strayVariantFiles { console.print("  stray: \(path)") }
        if report.removedVariantRows + report.removedStrayFiles > 0 {
            console.print("repaired: removed \(counted(report.removedVariantRows, "variant row")) and \(counted(report.removedStrayFiles, "stray file"))")
        }
    }
}
