import ArgumentParser
import Catalogue
import CatalogueSQLite
import Foundation
import Imaging
import Services

/// `--library DIR`, shared by every command that uses the catalogue.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The library folder holding the catalogue.",
        discussion: "Default: $SHOWHIDE_LIBRARY, else $XDG_DATA_HOME/showhide, else ~/.local/share/showhide.",
        valueName: "dir"))
    var library: String?

    /// An empty `--library` (a script's unset variable) would otherwise mean the default catalogue: the
    /// user's own, which a command meant for another library must not touch.
    func validate() throws {
        if let library, library.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--library needs a folder; an empty one would mean the default catalogue. Give the folder, or leave the option out.")
        }
    }

    /// Where the library is: the option, else SHOWHIDE_LIBRARY, else the XDG data folder.
    func directory(in environment: AppEnvironment) -> String {
        if let library { return environment.absolutePath(library) }
        if let variable = environment.variables["SHOWHIDE_LIBRARY"], !variable.isEmpty {
            return environment.absolutePath(variable)
        }
        // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
        if let data = environment.variables["XDG_DATA_HOME"], data.hasPrefix("/") {
            return (data as NSString).appendingPathComponent("showhide")
        }
        return (environment.homeDirectory as NSString).appendingPathComponent(".local/share/showhide")
    }

    /// A command that changes the catalogue refuses, before any work, one this user may only read: said as
    /// such (exit 69), rather than as each photo's failure to write.
    /// - Parameters:
    ///   - why: what of the command would change it, said first ("1 variant to export is not made yet").
    ///   - instead: what may be done instead, said last.
    func refuseReadOnly(_ catalogue: any PhotoCatalogue, in environment: AppEnvironment, why: String? = nil, instead: String? = nil) throws {
        guard catalogue.isReadOnly else { return }
        let error = CatalogueError.readOnly(path: SQLiteCatalogue.path(inLibrary: directory(in: environment)))
        environment.console.warn("showhide: " + (why.map { "\($0), and " } ?? "") + error.plainDescription + (instead.map { " (\($0))" } ?? ""))
        throw ExitStatus.of(error)
    }

    /// The opened catalogue; created only by `opening: .creatingWhenMissing` (import). When it cannot
    /// be opened, the reason goes to standard error and the command ends (exit 69, or 65 when damaged).
    func openCatalogue(in environment: AppEnvironment, opening: CatalogueOpening = .existingOnly) throws -> any PhotoCatalogue {
        // Set but empty, as `--library ''` is refused: the default catalogue is the user's own.
        if library == nil, let variable = environment.variables["SHOWHIDE_LIBRARY"], variable.trimmingCharacters(in: .whitespaces).isEmpty {
            environment.console.warn("showhide: SHOWHIDE_LIBRARY is set but empty, which would mean the default catalogue: "
                                     + "name the library folder in it, or unset it")
            throw ExitStatus.usage
        }
        let directory = directory(in: environment)
        // The arguments reach Swift as text: bytes that are not UTF-8 become U+FFFD, which names another folder
        // (import made one beside the library).
        if directory.contains("\u{FFFD}") {
            environment.console.warn("showhide: the library folder \(directory) has a name that is \(notUTF8), "
                                     + "so it cannot be opened by it: rename the folder")
            throw ExitStatus.usage
        }
        do {
            return try environment.openCatalogue(directory, opening)
        } catch {
            environment.console.warn("showhide: \(error.plainDescription)")
            throw ExitStatus.of(error)
        }
    }
}
