import ArgumentParser
import Catalogue
import Foundation
import Imaging
import Services

/// `showhide gallery …`: the catalogue.
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Import photos into the catalogue and look at what it holds.",
        subcommands: [ImportCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self, ProcessCommand.self, AnalyseCommand.self, RemoveCommand.self, VariantsCommand.self, BackupCommand.self,
                      CheckCommand.self, FailuresCommand.self]
    )
}

/// `showhide gallery import PATH...`
struct ImportCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the JPEG, PNG, HEIC, AVIF, WebP and TIFF photos in folders (recursively) or files into the catalogue.",
        discussion: """
        Files already catalogued with the same path, size and modification time are skipped unread, \
        and so are hidden files and folders and the library folder's own (its variants). \
        A moved or renamed photo keeps its entry; the same content at two paths is one photo. \
        A file that failed before and has not changed since is not read again: it is counted as still \
        failing, and is no new failure. Ctrl-C stops the import where it is: what was read is kept, and \
        the same command goes on from there. \
        Exit status 1 when some files failed (they are listed; with --strict, also when some are still \
        failing), 66 when a folder or file named does not exist (nothing is imported), 69 when the \
        catalogue cannot be opened, 130 when interrupted.
        """
    )

    @Argument(help: "Folders or files to import.")
    var paths: [String] = []

    @Flag(name: .long, help: "Exit with status 1 when files that failed before still fail, not only for new failures.")
    var strict = false

    @OptionGroup var jobs: JobsOptions

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to import.") }
    }

    func run(in environment: AppEnvironment) async throws {
        let roots = paths.map(environment.absolutePath)
        let missing = roots.filter { !environment.fileSystem.exists($0) }
        guard missing.isEmpty else { throw MissingInput(paths: missing) }
        let catalogue = try library.openCatalogue(in: environment, opening: .creatingWhenMissing)
        let service = environment.importService(catalogue: catalogue, libraryDirectory: library.directory(in: environment))
        let summary = try await service.importPhotos(
            from: roots,
            options: ImportOptions(jobs: jobs.count(in: environment)),
            progress: environment.progress(),
            interruption: environment.listenForInterruption()
        )
        try ImportPresenter(console: environment.console).present(summary, asJSON: json)
        if summary.interrupted { throw ExitStatus.interrupted }
        if summary.failed > 0 || (strict && !summary.stillFailing.isEmpty) { throw ExitStatus.someFilesFailed }
    }
}

/// `showhide gallery list`
struct ListCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the catalogued photos."
    )

    @OptionGroup var filters: PhotoFilterOptions

    @Option(name: .long, help: "Order: taken, imported, name or newest.")
    var sort: PhotoSort = .taken

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let photos = try catalogue.photos(matching: filters.query(in: environment, sort: sort))
        filters.scope.sayPathsThatAreNowhere(in: environment, catalogue: catalogue)
        try PhotoPresenter(console: environment.console).presentList(photos, asJSON: json, gone: json ? [] : environment.gone(photos))
    }
}

extension PhotoSort: ExpressibleByArgument {}

/// Which photos a command works on: those in some folders or files, taken between two days, by a
/// camera. Every command that works on many photos takes it.
struct ScopeOptions: ParsableArguments {
    @Option(name: .customLong("in"), parsing: .upToNextOption, help: ArgumentHelp(
        "Only photos in these folders (at any depth) or at these paths; several allowed.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only photos taken on or after this day.", valueName: "YYYY-MM-DD"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only photos taken on or before this day.", valueName: "YYYY-MM-DD"))
    var until: String?

    @Option(name: .long, help: "Only photos whose camera make or model contains this text.")
    var camera: String?

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, !Self.isDay(value) { throw ValidationError(Self.whyNotADay(value, option: name)) }
        }
        if let since, let until, since > until { throw ValidationError("--since \(since) is after --until \(until): no day is both.") }
        if paths.contains(where: \.isEmpty) { throw ValidationError("--in takes a folder or a file, not an empty path.") }
        if cameraText?.isEmpty == true { throw ValidationError("--camera takes some text of the make or model, not nothing.") }
    }

    /// The camera text without the spaces around it: a blank would match the space between every
    /// make and model, so every photo.
    var cameraText: String? { camera?.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// True when no option narrows the photos.
    var isEmpty: Bool { paths.isEmpty && since == nil && until == nil && camera == nil }

    /// "YYYY-MM-DD" with a real month and a day that month has (no 2008-02-30).
    static func isDay(_ text: String) -> Bool { ExifDateTime.isDay(text) }

    /// What is wrong with a day typed: its form, or, written right, a month or day the calendar lacks.
    static func whyNotADay(_ text: String, option: String) -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           parts[0].count == 4, parts[1].count == 2, parts[2].count == 2 {
            guard (1...12).contains(month) else { return "\(option) \(text): there is no month \(parts[1])." }
            let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                          "November", "December"]
            return "\(option) \(text): \(months[month - 1]) \(year) has no day \(day) (it has \(ExifDateTime.days(inMonth: month, of: year)))."
        }
        return "\(option) takes a day as YYYY-MM-DD, not '\(text)'."
    }

    /// Says which of the scope's `--in` paths are nowhere: not on this disk, and no photo catalogued
    /// under them (a path mistyped, the folder given relative to another one, an id after `--in`), though
    /// the others chose photos. A path that is gone but holds catalogued photos (an unmounted drive)
    /// chooses them, and is not said.
    func sayPathsThatAreNowhere(in environment: AppEnvironment, catalogue: any PhotoCatalogue) {
        for path in paths where !environment.fileSystem.exists(environment.absolutePath(path)) {
            let query = PhotoQuery(paths: Self.forms(of: path, in: environment), limit: 1, sort: .imported)
            guard (try? catalogue.photos(matching: query).isEmpty) ?? true else { continue }
            let id = path.allSatisfy(\.isNumber) ? " (an id? give ids before --in, whose paths run to the next option)" : ""
            environment.console.warn("showhide: --in \(path): no such folder or file, and no catalogued photo is under it" + id)
        }
    }

    /// A path typed as the catalogue may hold it: absolute with its links resolved, and as written.
    static func forms(of path: String, in environment: AppEnvironment) -> [String] {
        let resolved = environment.absolutePath(path), written = environment.absolutePathAsWritten(path)
        return resolved == written ? [resolved] : [resolved, written]
    }

    /// The query of this scope; paths made absolute against the working directory, as import stores
    /// them: with symbolic links resolved (a folder named through a link) and as written (a linked
    /// folder found inside a folder walked keeps the link's name in its photos' paths).
    func query(in environment: AppEnvironment, sort: PhotoSort = .taken, limit: Int? = nil) -> PhotoQuery {
        var absolute: [String] = []
        for path in paths {
            for form in Self.forms(of: path, in: environment) where !absolute.contains(form) {
                absolute.append(form)
            }
        }
        return PhotoQuery(takenSince: since, takenUntil: until, camera: cameraText, paths: absolute, limit: limit, sort: sort)
    }
}

/// A scope and a limit: what `list`, `search`, `process`, `export` and `inspire` take.
struct PhotoFilterOptions: ParsableArguments {
    @OptionGroup var scope: ScopeOptions

    @Option(name: .long, parsing: .unconditional, help: "At most this many photos.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes 1 or more, not \(limit).") }
    }

    func query(in environment: AppEnvironment, sort: PhotoSort = .taken, defaultLimit: Int? = nil) -> PhotoQuery {
        scope.query(in: environment, sort: sort, limit: limit ?? defaultLimit)
    }
}

/// `showhide gallery show ID...`
struct ShowCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show everything the catalogue knows about photos.",
        discussion: "With --json one photo is an object, several an array of them."
    )

    @Argument(help: "The photos' ids, as `gallery list` shows them.")
    var ids: [Int64] = []

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name the photos to show: their ids, as `gallery list` shows them.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        let photos = try ids.map { try environment.photo(id: $0, in: catalogue) }
        // Marked in the text only: the JSON is the catalogue's, as `list --json` is.
        let gone = environment.gone(photos)
        try PhotoPresenter(console: environment.console).presentDetails(photos, asJSON: json, gone: json ? [] : gone)
        PhotoPresenter.sayGone(gone, console: environment.console, how: "shown")
    }
}

/// `showhide gallery failures [--clear [PATH...]]`
struct FailuresCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "failures",
        abstract: "List the files and folders that could not be imported, with the reasons.",
        discussion: """
        A failure leaves the list when its file is imported, or is gone by the next import of its folder; \
        --clear forgets them all now, or those of the paths given.
        """
    )

    @Flag(name: .long, help: "Forget the failures (all, or those of the paths given), then list what is left.")
    var clear = false

    @Argument(help: "With --clear: the files or folders whose failures to forget.")
    var paths: [String] = []

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if !paths.isEmpty && !clear { throw ValidationError("Paths name failures to forget: give --clear too.") }
    }

    func run(in environment: AppEnvironment) throws {
        let catalogue = try library.openCatalogue(in: environment)
        if clear {
            let cleared = try FailureList(catalogue: catalogue).clear(within: paths.map(environment.absolutePath))
            if !json { environment.console.warn("cleared \(counted(cleared.count, "failure"))") }
        }
        try FailurePresenter(console: environment.console).present(try catalogue.failures(), asJSON: json)
    }
}
