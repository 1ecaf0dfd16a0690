import ArgumentParser
import Catalogue
import CAllocator
import Foundation
import Imaging

/// `showhide`: the root command.
@available(macOS 10.15, *)
public struct ShowHideCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "showhide",
        abstract: "A photo gallery manager that finds each photo's colours and makes show and hide variants.",
        discussion: """
        Exit statuses: 0 success; 1 some files could not be read or processed (they are listed); \
        2 not found; 64 wrong arguments; 65 the catalogue is damaged; 66 a folder or file named does not exist; \
        69 the catalogue could not be opened; \
        73 an export could not be written; 74 the output could not be written (a full disk, a closed output); \
        130 interrupted (what was done is kept). \
        Every command's help: man showhide; the whole manual (JSON keys, the web gallery, the eye's rules): share/doc/showhide/Usage.md beside it (scripts/install puts both in place).
        """,
        version: "\(version) (commit \(buildCommit))",
        subcommands: [GalleryCommand.self, ExportCommand.self, InspireCommand.self, InspectCommand.self, ServeCommand.self]
    )

    /// showhide's version; the commit is added at build time.
    public static let version = "0.2.0"

    public init() {}
}

extension ShowHideCommand {
    /// Parses the process's arguments and runs the chosen command. An error the command did not
    /// handle is said in words on standard error and ends the process with its documented status.
    public static func run() async {
        // Photos are decoded and processed one after another, each into buffers of the same sizes:
        // the allocator keeps freed memory for the next photo instead of faulting fresh pages in.
        _ = sh_allocator_keep_freed_memory()
        // Written as every diagnostic is: a standard error that cannot be written (closed, a full disk) loses
        // the message, not the status (FileHandle's own write traps).
        let errors = FileDescriptorOutput(descriptor: STDERR_FILENO)
        let code = await run(CommandLine.arguments.dropFirst().map { $0 }) { errors.write($0 + "\n") }
        Foundation.exit(code.rawValue)
    }

    /// Runs the command named by `arguments`; what goes wrong goes to `warn`. Returns the exit status.
    /// Help, the version and completion scripts go to `say` (standard output, whose failure is said and ends the process, 74).
    static func run(_ arguments: [String], warn: (String) -> Void,
                    say: (String) -> Void = { FileDescriptorOutput(descriptor: STDOUT_FILENO).write($0 + "\n") }) async -> ExitCode {
        let arguments = LibraryArgument.movedToSubcommand(arguments)
        if let unknown = CommandNames.unknown(in: arguments) ?? OptionNames.unknownShort(in: arguments) {
            warn(unknown)
            return ExitStatus.usage
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // ArgumentParser may say another fault before an unknown option: a mistyped name is said first.
            // (Help, the version and a completion script end the parse too, successfully: options of its own.)
            if exitCode(for: error) != ExitStatus.success, let unknown = OptionNames.unknown(in: arguments) {
                warn(unknown)
                return ExitStatus.usage
            }
            return reportParsing(error, warn: warn, say: say)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
            return ExitStatus.success
        } catch let error as ExitCode {
            return error
        } catch let error where error is CleanExit || error is ValidationError || isArgumentParsers(error) {
            return reportParsing(error, warn: warn, say: say)
        } catch {
            warn("showhide: \(error.plainDescription)")
            return ExitStatus.of(error)
        }
    }

    /// ArgumentParser's own errors (its help command throws one to print the help).
    private static func isArgumentParsers(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// Help, version and usage errors as ArgumentParser words them.
    private static func reportParsing(_ error: any Error, warn: (String) -> Void, say: (String) -> Void) -> ExitCode {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if code == ExitStatus.success { say(message) } else { warn(message) }
        }
        return code
    }
}

/// A command name that does not exist, in `showhide galery list`, `showhide gallery serach` or
/// `showhide help nosuch`: ArgumentParser says "Unexpected argument", or of the help shows the
/// nearest help it has and succeeds. Said with the commands there and the likeliest one meant.
enum CommandNames {
    static func unknown(in arguments: [String]) -> String? {
        let isHelp = arguments.first == "help"
        var subcommands = ShowHideCommand.configuration.subcommands
        var path = ["showhide"]
        for name in arguments.dropFirst(isHelp ? 1 : 0) {
            // An option: a command's own (its value may follow), or a help or version flag.
            if name.hasPrefix("-") {
                if isHelp { continue } else { break }
            }
            // A leaf command takes what follows as its arguments.
            if subcommands.isEmpty && !isHelp { return nil }
            let names = subcommands.map(Self.name)
            let next = subcommands.first { Self.answers($0, to: name) }?.configuration.subcommands
            let scope = path.joined(separator: " ")
            guard let found = next else {
                if names.isEmpty { return "showhide: '\(scope)' has no commands under it; see '\(scope) --help'." }
                let meant = likeliestName(name, among: names).map { "did you mean '\(scope) \($0)'? " }
                    ?? elsewhere(name).map { "did you mean '\($0)'? " } ?? ""
                return "showhide: there is no command '\(scope) \(name)'; \(meant)the commands are \(names.joined(separator: ", ")) "
                    + "(see '\(scope) --help')."
            }
            subcommands = found
            path.append(name)
        }
        return nil
    }

    /// The command `arguments` name (the root when they name none), and its words after `showhide`.
    static func command(in arguments: [String]) -> (command: any ParsableCommand.Type, path: [String]) {
        var command: any ParsableCommand.Type = ShowHideCommand.self
        var path: [String] = []
        for name in arguments {
            guard !name.hasPrefix("-"),
                  let next = command.configuration.subcommands.first(where: { Self.answers($0, to: name) }) else { break }
            command = next
            path.append(name)
        }
        return (command, path)
    }

    /// A command's name as typed: its own, or the one ArgumentParser derives from its type.
    static func name(of command: any ParsableCommand.Type) -> String { command._commandName }

    /// Whether `command` is the one `typed` names, by its name or an alias (`analyze`).
    static func answers(_ command: any ParsableCommand.Type, to typed: String) -> Bool {
        name(of: command) == typed || command.configuration.aliases.contains(typed)
    }

    /// `search` for `showhide gallery search`: a command of that name one level down.
    static func elsewhere(_ name: String) -> String? {
        for group in ShowHideCommand.configuration.subcommands
        where group.configuration.subcommands.contains(where: { Self.answers($0, to: name) }) {
            return "showhide \(Self.name(of: group)) \(name)"
        }
        return nil
    }
}

/// A long option the command does not take, in `showhide gallery search --colur red`: said as
/// unknown, with the likeliest one meant, whatever else is wrong with the arguments.
enum OptionNames {
    static func unknown(in arguments: [String]) -> String? {
        let (command, path) = CommandNames.command(in: arguments)
        let known = longNames(of: command)
        guard known.count > 1 else { return nil }
        let options = arguments[path.count...].prefix { $0 != "--" }.filter { $0.hasPrefix("--") && $0.count > 2 }
        guard let typed = options.map(optionName).first(where: { !known.contains($0) })
        else { return nil }
        // A beginning typed (`--min`) means the names it begins, before a name one letter away (`--in`).
        let begun = typed.count >= 2 ? known.filter { $0.hasPrefix(typed) } : []
        let meant = (1...3).contains(begun.count) ? " Did you mean " + begun.map { "'--\($0)'" }.joined(separator: " or ") + "?"
            : likeliestName(typed, among: known).map { " Did you mean '--\($0)'?" } ?? ""
        return "Error: Unknown option '--\(typed)'.\(meant)\n" + usage(of: command, path: path)
    }

    /// A word with one dash that is neither `-h` nor a number (`--limit -1` reaches the command's own
    /// check): no command has other short options, so `gallery import -dash` is a file named so, which
    /// ArgumentParser read as `-d -a -s -h` and answered with the help. Said before parsing, with how to
    /// name such a file.
    static func unknownShort(in arguments: [String]) -> String? {
        let (command, path) = CommandNames.command(in: arguments)
        guard let typed = arguments[path.count...].prefix(while: { $0 != "--" }).first(where: { word in
            word.hasPrefix("-") && !word.hasPrefix("--") && word.count > 1 && word != "-h" && Double(word) == nil
        }) else { return nil }
        return "Error: Unknown option '\(typed)'. A file or folder whose name begins with a dash is named ./\(typed) "
            + "(or after --).\n" + usage(of: command, path: path)
    }

    /// `colour` of `--colour` or `--colour=red`.
    static func optionName(_ word: String) -> String {
        String(word.dropFirst(2).prefix { $0 != "=" })
    }

    /// The lines after an error, as ArgumentParser ends its own: the command's usage and where its help is.
    static func usage(of command: any ParsableCommand.Type, path: [String]) -> String {
        "Usage: " + ShowHideCommand.usageString(for: command)
            + "\n  See '\((["showhide"] + path).joined(separator: " ")) --help' for more information."
    }

    /// Every long name of `command`'s options and flags, `--help` and `--version` among them, as
    /// ArgumentParser describes the command.
    static func longNames(of command: any ParsableCommand.Type) -> [String] {
        arguments(of: command).flatMap(\.longNames) + ["help"]
    }

    /// A command's arguments as ArgumentParser describes them (`--experimental-dump-help`).
    struct Argument: Decodable {
        struct Name: Decodable { var kind: String, name: String }
        var names: [Name]?
        var longNames: [String] { (names ?? []).filter { $0.kind == "long" }.map(\.name) }
    }

    static func arguments(of command: any ParsableCommand.Type) -> [Argument] {
        struct Description: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            var command: Command
        }
        return (try? JSONDecoder().decode(Description.self, from: Data(command._dumpHelp().utf8)))?.command.arguments ?? []
    }
}

/// `--library DIR` may be given before the subcommand (`showhide --library X gallery list`); the
/// commands that take it declare it themselves, so it is moved after the subcommand's name.
enum LibraryArgument {
    static func movedToSubcommand(_ arguments: [String]) -> [String] {
        var rest: [String] = []
        var moved: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            if argument == "--library", index + 1 < arguments.endIndex {
                moved += [argument, arguments[index + 1]]
                index += 2
                continue
            }
            if argument.hasPrefix("--library=") { moved.append(argument) } else { rest.append(argument) }
            index += 1
        }
        guard !moved.isEmpty else { return arguments }
        let terminator = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: moved, at: terminator)
        return rest
    }
}
