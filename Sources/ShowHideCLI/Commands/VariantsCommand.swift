import ArgumentParser
import Catalogue
import Foundation
import Services

/// `showhide gallery variants [ID...] [--prune] [--json]`
struct VariantsCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "variants",
        abstract: "List the variants made of photos (all, or the ids named), or prune them to the newest parameter set.",
        discussion: """
        Every parameter set processing was given makes its own variants, and all are kept. --prune keeps, for each \
        photo, the parameter set made last and forgets the others: their catalogue rows, then their files.
        """
    )

    @Argument(help: "Ids of the photos (as `gallery list` shows them); all photos without ids.")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Keep only each photo's newest parameter set; forget the other variants and delete their files.")
    var prune = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let photos = ids.isEmpty ? nil : Set(try ids.map { try environment.photo(id: $0, in: catalogue).id })
        let presenter = VariantsPresenter(console: environment.console)
        if prune {
            let summary = try environment.variantPruning(catalogue: catalogue, libraryDirectory: library.directory(in: environment)).prune(photos: photos)
            try presenter.present(summary, asJSON: json)
        } else {
            let variants = try catalogue.allVariants().filter { photos?.contains($0.photoID) ?? true }
            // Each variant's file in this library: a library moved, copied or restored from a backup keeps rows
            // naming the old place (the JSON gives them as recorded).
            let folder = VariantSpec.directory(inLibrary: library.directory(in: environment))
            let files = json ? [:] : Dictionary(variants.map { variant in
                (variant.path, environment.fileSystem.variantFile(recordedAt: variant.path, inVariants: folder)
                    ?? variant.path + " (no file of it in this library)")
            }, uniquingKeysWith: { first, _ in first })
            try presenter.present(variants, asJSON: json, files: files, photos: ids)
        }
    }
}
