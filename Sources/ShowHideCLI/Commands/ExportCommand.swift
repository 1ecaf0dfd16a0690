import ArgumentParser
import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// `showhide export (ID… | --colour C | --in PATH… | --all) (--to DIR | --zip FILE) …`
struct ExportCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export photos and their show and hide variants to a folder or a zip file.",
        discussion: """
        Variants that are missing are made on the way and recorded in the catalogue. File names come from \
        --template (fields {id} {name} {date} {time} {camera} {colour} {variant} {ext}; a / makes folders); \
        values from EXIF are made safe. Nothing is overwritten unless --on-conflict overwrite. A manifest.json \
        (and manifest.csv with --manifest csv) lists every file with its photo, variant, parameters, size and SHA-256.
        """
    )

    @Argument(help: ArgumentHelp("Ids of the photos to export (as `gallery list` shows them).", valueName: "id"))
    var bareIDs: [Int64] = []

    @Option(name: .customLong("id"), parsing: .upToNextOption, help: ArgumentHelp(
        "Photos to export, as the bare ids are: --id 113 88 is 113 88.", valueName: "id"))
    var idOptions: [Int64] = []

    @Flag(name: .long, help: "Export every photo (those of the scope, when one is given).")
    var all = false

    @Option(name: ColourArgument.names, help: ArgumentHelp(
        "Export the photos of this colour, as `gallery search` finds them: a name, #RRGGBB, #RGB or rgb(r,g,b), or as words "
            + "(\"orange as a small accent\").", valueName: "colour"),
        transform: ColourArgument.phrase)
    var colour: ColourPhrase?

    @Flag(name: .long, help: "With --colour: match only each photo's accent colour.")
    var accent = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With --colour: besides the photos whose accent it is, those it covers this share of (default 10).", valueName: "percent"))
    var minCoverage: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "With a #RRGGBB or rgb() --colour: the largest CIEDE2000 difference that matches (default \(ColourArgument.defaultWithinText)).",
        valueName: "ΔE00"))
    var within: Double?

    @Option(name: .long, parsing: .unconditional, help: "Variants keep this CIELAB hue angle (degrees) instead of each photo's accent (or --colour).")
    var hue: Double?

    @OptionGroup var splash: SplashOptions

    @OptionGroup var filters: PhotoFilterOptions

    @Option(name: .long, help: ArgumentHelp("What to export of each photo: show, hide, original or all; several by "
                                            + "repeating it or with commas (--variant show,hide). (default: show)", valueName: "variant"))
    var variant: [ExportVariantChoice] = []

    @Option(name: .long, help: ArgumentHelp("Write the files into this folder (made when missing).", valueName: "dir"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("Write the files into this zip file.", valueName: "file"))
    var zip: String?

    @Option(name: .long, help: ArgumentHelp("File format: same (as the photo), jpeg, png or webp.", valueName: "format"))
    var format = ExportFormat.same

    @Option(name: .long, parsing: .unconditional, help: "JPEG and WebP quality of files that are re-encoded and of variants made on the way, 1–100.")
    var quality = 90

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Make photos larger than this smaller: the long side in pixels.", valueName: "px"))
    var maxSize: Int?

    @Flag(name: .long, help: "Leave out the GPS position from the EXIF of exported files.")
    var stripGPS = false

    @Option(name: .long, help: ArgumentHelp("File names, from these fields: {id} {name} {date} {time} {camera} {colour} {variant} {ext}.",
                                            valueName: "template"))
    var template = FileNameTemplate.standard

    @Option(name: .long, help: ArgumentHelp("When a file name is taken: unique (add _2, _3, …), overwrite, or skip (resume).",
                                            valueName: "policy"))
    var onConflict = ConflictPolicy.unique

    @Option(name: .long, help: ArgumentHelp("The manifest: json, or csv for manifest.csv as well.", valueName: "kind"))
    var manifest = ManifestKind.json

    @Flag(name: .long, help: "Print what would be written, and write and make nothing.")
    var dryRun = false

    @OptionGroup var jobs: JobsOptions

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    /// The photos named by id, bare or after --id, in the order given.
    var ids: [Int64] { bareIDs + idOptions }

    var variants: [ExportVariant] { ExportVariantChoice.variants(variant) }

    var colourTarget: ColourTarget? { colour?.target }

    /// What the variants keep: the hue asked for, else the colour the photos were chosen for (so that
    /// an export of orange photos keeps their orange), else each photo's accent or its candidate.
    func variantTarget() throws -> SplashTarget {
        try splash.target(given: hue.map { .hue($0) } ?? colourTarget.map { .colour($0.lab) })
    }

    func validate() throws {
        let selections = (ids.isEmpty ? 0 : 1) + (all ? 1 : 0) + (colour == nil ? 0 : 1)
        if selections == 0 && filters.scope.isEmpty {
            throw ValidationError("Choose the photos: their ids, --colour C, a scope (--in, --since, --until, --camera), or --all.")
        }
        if selections > 1 { throw ValidationError("Give only one of ids, --all and --colour.") }
        try SplashOptions.requireAngle(hue)
        if !ids.isEmpty && !filters.scope.isEmpty { throw ValidationError("Give ids or a scope (--in, --since, --until, --camera), not both.") }
        if !ids.isEmpty && filters.limit != nil { throw ValidationError("--limit caps a scope, --colour or --all; with ids, name fewer.") }
        if (to == nil) == (zip == nil) { throw ValidationError("Give --to DIR or --zip FILE (one of them).") }
        if !(1...100).contains(quality) { throw ValidationError("--quality takes 1 to 100.") }
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1 pixel.") }
        if let colour { try ColourArgument.validate(within: within, target: colour.target, typed: colour.colourText) } else if within != nil {
            throw ValidationError("--within goes with --colour.")
        }
        if let minCoverage {
            guard colour != nil else { throw ValidationError("--min-coverage goes with --colour.") }
            guard (0...100).contains(minCoverage) else { throw ValidationError("--min-coverage takes a percentage from 0 to 100.") }
        }
        let target = try variantTarget()
        // Originals alone may be of any colour; show and hide variants need a hue to keep.
        if variants.contains(where: { $0 != .original }) { try SplashOptions.requireHue(target, typed: colour?.colourText) }
        do {
            _ = try FileNameTemplate(template)
        } catch {
            throw ValidationError("--template: \(error.plainDescription).")
        }
    }

    func run(in environment: AppEnvironment) async throws {
        let catalogue = try library.openCatalogue(in: environment)
        let photos = try select(from: catalogue, environment)
        if ids.isEmpty { filters.scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue) }
        let options = ExportOptions(
            variants: variants, format: format, quality: quality, maximumLongSide: maxSize,
            stripGPS: stripGPS, template: try FileNameTemplate(template), onConflict: onConflict,
            csvManifest: manifest == .csv, dryRun: dryRun,
            processing: splash.processing(target: try variantTarget(), quality: quality, jobs: jobs.count(in: environment)))
        let service = environment.exportService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        let estimate = service.estimate(photos, options: options)
        // Nothing to write: no zip or folder is made (a zip of a manifest alone was written, as export_2.zip when taken).
        guard estimate.files > 0 || dryRun else {
            environment.console.warn("Nothing to export: " + (photos.isEmpty ? "no catalogued photo is in this scope."
                : (photos.count == 1 ? "the photo has no" : "none of the \(photos.count) photos has an") + " accent colour to make a show "
                    + "or hide picture of (gallery show says why; --variant original exports the photos themselves)."))
            if json {
                try ExportPresenter(console: environment.console).present(ExportSummary(), destination: environment.absolutePath(to ?? zip!),
                                                                         dryRun: false, asJSON: true, keepsAPart: true)
            }
            return
        }
        // Variants not made yet would each fail on a catalogue this user may only read.
        if estimate.variantsToMake > 0 && !dryRun {
            try library.refuseReadOnly(catalogue, in: environment,
                                       why: "\(counted(estimate.variantsToMake, "variant")) to export \(estimate.variantsToMake == 1 ? "is" : "are") not made yet",
                                       instead: "--variant original exports the photos themselves")
        }
        do {
            let protected = environment.protectedFiles(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
            if let to, let reason = protected.folderReason(against: environment.absolutePath(to)) {
                throw ExportError.cannotWrite(environment.absolutePath(to), reason + "; export to a folder of your own")
            }
            // Said before "exporting …", where each file failed with "not a directory".
            if let to, environment.fileSystem.stamp(of: environment.absolutePath(to)) != nil {
                throw ExportError.cannotWrite(environment.absolutePath(to), "it is a file, not a folder; name the folder to export into, "
                                              + "or give --zip to write a zip file")
            }
            let destination: any ExportDestination = if let to {
                FolderDestination(directory: environment.absolutePath(to), fileSystem: environment.fileSystem, protected: protected)
            } else {
                try environment.makeZip(try protected.refusing(environment.absolutePath(zip!)), options.onConflict, environment.clock.now())
            }
            // Said before anything is made or written, so that an export larger than meant can be
            // stopped; naming the zip file chosen (`set_2.zip` when `set.zip` is taken).
            environment.console.warn("\(dryRun ? "would export" : "exporting") \(counted(estimate.photos, "photo")): "
                                     + "\(counted(estimate.files, "file")), about \(ExportPresenter.size(estimate.bytes)), "
                                     + "to \(destination.location)"
                                     + (estimate.withoutAccent == 0 ? "" : " (\(counted(estimate.withoutAccent, "photo")) without an accent colour)"))
            let summary = try await service.export(photos, options: options, to: destination, progress: environment.progress(),
                                                   interruption: environment.listenForInterruption())
            try ExportPresenter(console: environment.console).present(summary, destination: destination.location,
                                                                     dryRun: dryRun, asJSON: json, keepsAPart: destination.keepsAPart)
            if summary.interrupted { throw ExitStatus.interrupted }
            if !summary.failures.isEmpty { throw ExitStatus.someFilesFailed }
        } catch let error as ExportError {
            environment.console.warn("showhide: \(error.plainDescription)")
            throw ExitStatus.cannotCreate
        }
    }

    /// With `--colour`: the photos whose accent it is, then, unless `--accent`, those it covers at least
    /// `--min-coverage` of (`ColourSelection`); the first `--limit` of them.
    private func select(from catalogue: any PhotoCatalogue, _ environment: AppEnvironment) throws -> [CataloguedPhoto] {
        if let target = colourTarget {
            return try ColourSelection(target: target, accentOnly: accent || colour?.accentOnly == true, within: within ?? ColourSearch.defaultWithin,
                                       minimumCoverage: minCoverage.map { $0 / 100 }, largestCoverage: (colour?.largestCoverage ?? 100) / 100,
                                       filters: filters.query(in: environment)).photos(in: catalogue)
        }
        if !ids.isEmpty { return try ids.map { try environment.photo(id: $0, in: catalogue) } }
        return try catalogue.photos(matching: filters.query(in: environment, sort: .imported))
    }
}
