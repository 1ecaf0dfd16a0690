import ArgumentParser
import Catalogue
import Foundation
import Services

/// `showhide gallery backup FILE [--overwrite] [--json]`
struct BackupCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the catalogue into a file, safely while other commands use it.",
        discussion: """
        SQLite's online backup copies the catalogue as it is at one moment, even during an import; the copy \
        is checked with SQLite's integrity check before it takes its name. This is the way to copy a catalogue \
        (copying the file by hand during a write can tear it). To restore, put the copy in a library folder \
        as catalogue.sqlite. Variant files are not copied: `gallery process` makes them again. \
        Exit status 73 when the file cannot be written or exists (without --overwrite).
        """
    )

    @Argument(help: ArgumentHelp("The file to write the copy into.", valueName: "file"))
    var file: String

    @Flag(name: .long, help: "Replace the file if it exists.")
    var overwrite = false

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if file.isEmpty { throw ValidationError("Name the file to write the backup into.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let path = environment.absolutePath(file)
        // The catalogue's own files are refused by the backup itself, by inode too, in words of its own; the
        // library's other files here (its thumbnails, a file in variants/ that check --repair would delete),
        // and a photo when it would be written over.
        let libraryDirectory = library.directory(in: environment)
        let protected = environment.protectedFiles(catalogue: catalogue, libraryDirectory: libraryDirectory)
        let resolved = environment.fileSystem.resolvingLinks(path)
        let namesTheCatalogue = (resolved as NSString).deletingLastPathComponent == environment.fileSystem.resolvingLinks(libraryDirectory)
            && (resolved as NSString).lastPathComponent.hasPrefix(LibraryFolder.catalogue)
        if let reason = try namesTheCatalogue ? nil : overwrite ? protected.reason(against: path) : protected.libraryReason(against: path) {
            throw ProtectedFileError(path: path, reason: reason)
        }
        let backup = try catalogue.backup(to: path, replacing: overwrite)
        try BackupPresenter(console: environment.console).present(backup, asJSON: json)
    }
}
