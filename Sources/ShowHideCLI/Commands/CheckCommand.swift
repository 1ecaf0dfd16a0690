import ArgumentParser
import Catalogue
import Foundation
import Imaging
import Services

/// `showhide gallery check [--repair] [--json]`
struct CheckCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the catalogue against the disk: integrity, missing or changed photos, lost or stray variants.",
        discussion: """
        Changes nothing unless --repair is given; a repair removes only variant rows whose files are gone and \
        files under the library's variants folder that no row records, records where variants that moved with \
        the library folder are now, and makes missing thumbnails (a damaged thumbnail cache anew). \
        Missing and changed photos are reported, \
        not removed (import the folder again to analyse changed files), unless --forget-missing is given too. \
        With a scope (--in, --since, --until, --camera) only its photos and their variants are checked, and \
        stray files are not looked for. \
        Exit status 1 when something is left wrong; 65 when the catalogue itself is damaged (restore a backup).
        """
    )

    @Flag(name: .long, help: "Remove variant rows without files and stray variant files, record moved variants' place, make missing thumbnails.")
    var repair = false

    @Flag(name: .long, help: "With --repair: forget the photos whose files are gone (as `gallery remove --missing`).")
    var forgetMissing = false

    @OptionGroup var scope: ScopeOptions

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if forgetMissing && !repair { throw ValidationError("--forget-missing is a repair: give --repair too.") }
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
        if repair { try library.refuseReadOnly(catalogue, in: environment) }
        let report = try environment.catalogueCheck(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
            .run(repair: repair, forgetMissing: forgetMissing, scope: scope.isEmpty ? nil : scope.query(in: environment, sort: .imported))
        try CheckPresenter(console: environment.console).present(report, asJSON: json)
        if !report.isSound { throw ExitStatus.damaged }
        if !report.isClean { throw ExitStatus.someFilesFailed }
    }
}
