import ArgumentParser
import Catalogue
import Foundation
import Services
@testable import ShowHideCLI
import XCTest

/// Arguments as users type them: negative numbers reach validation and get a sentence, not
/// "Missing value"; impossible days and colourless splash targets are refused with the reason.
final class ArgumentTests: XCTestCase {
    func message<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> String {
        do {
            _ = try command.parse(arguments)
            return "accepted"
        } catch {
            return command.message(for: error)
        }
    }

    func testNegativeAndZeroNumbersAreValuesThatValidationExplains() {
        XCTAssertEqual(message(ListCommand.self, ["--limit", "-1"]), "--limit takes 1 or more, not -1.")
        XCTAssertEqual(message(ListCommand.self, ["--limit", "0"]), "--limit takes 1 or more, not 0.")
        XCTAssertEqual(message(InspireCommand.self, ["--limit", "-3"]), "--limit takes 1 or more, not -3.")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--tolerance", "-5"]), "--tolerance and --feather take degrees from 0 to 180.")
        XCTAssertEqual(message(SearchCommand.self, ["--colour", "#D01020", "--within", "-3"]), "--within takes a ΔE00 above 0 and at most 100.")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--jobs", "-2"]), "--jobs must be at least 1, not -2.")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--hue", "-10"]), "accepted", "a hue of −10° is 350°")
        XCTAssertEqual(message(ListCommand.self, ["--limit", "3"]), "accepted")
    }

    func testDaysAMonthDoesNotHaveAreRefused() {
        XCTAssertEqual(message(ListCommand.self, ["--since", "2008-02-30"]), "--since 2008-02-30: February 2008 has no day 30 (it has 29).")
        XCTAssertEqual(message(ListCommand.self, ["--until", "2023-04-31"]), "--until 2023-04-31: April 2023 has no day 31 (it has 30).")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2023-02-29"]), "--since 2023-02-29: February 2023 has no day 29 (it has 28).")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2023-13-01"]), "--since 2023-13-01: there is no month 13.")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2023-1-01"]), "--since takes a day as YYYY-MM-DD, not '2023-1-01'.")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2024-02-29"]), "accepted", "a leap day")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2000-02-29"]), "accepted", "2000 was a leap year")
        XCTAssertEqual(message(ListCommand.self, ["--since", "1900-02-29"]), "--since 1900-02-29: February 1900 has no day 29 (it has 28).")
    }

    func testAColourWithoutHueIsNoSplashTarget() {
        for grey in ["grey", "white", "black", "#808080"] {
            XCTAssertTrue(message(ProcessCommand.self, ["--all", "--colour", grey]).hasPrefix("'\(grey)' has no hue to keep (C* 0)"), grey)
        }
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--colour", "red"]), "accepted")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--colour", "brown"]), "accepted", "brown has a hue")
        XCTAssertTrue(message(ExportCommand.self, ["--colour", "grey", "--to", "/out"]).contains("has no hue to keep"))
        XCTAssertEqual(message(ExportCommand.self, ["--colour", "grey", "--to", "/out", "--variant", "original"]), "accepted",
                       "the originals of grey photos are a fine export")
    }
}

final class CountedTests: XCTestCase {
    func testOneIsSingularAndEveryOtherNumberPlural() {
        XCTAssertEqual(counted(1, "photo"), "1 photo")
        XCTAssertEqual(counted(0, "photo"), "0 photos")
        XCTAssertEqual(counted(2, "variant file"), "2 variant files")
        XCTAssertEqual(counted(3, "child", plural: "children"), "3 children")
    }
}

/// `--library` before the subcommand, and the errors no command handled.
final class RootCommandTests: XCTestCase {
    func testTheLibraryOptionMovesAfterTheSubcommand() {
        XCTAssertEqual(LibraryArgument.movedToSubcommand(["--library", "/l", "gallery", "list", "--json"]),
                       ["gallery", "list", "--json", "--library", "/l"])
        XCTAssertEqual(LibraryArgument.movedToSubcommand(["gallery", "--library=/l", "list"]), ["gallery", "list", "--library=/l"])
        XCTAssertEqual(LibraryArgument.movedToSubcommand(["gallery", "import", "a", "--", "--library", "b"]),
                       ["gallery", "import", "a", "--", "--library", "b"], "after -- it is a file name")
        XCTAssertEqual(LibraryArgument.movedToSubcommand(["--library", "/l", "gallery", "import", "--", "-x"]),
                       ["gallery", "import", "--library", "/l", "--", "-x"])
        XCTAssertEqual(LibraryArgument.movedToSubcommand(["gallery", "list", "--library"]), ["gallery", "list", "--library"],
                       "a missing value is left for the parser to explain")
    }

    func testUsageErrorsAreArgumentParsersAndOtherErrorsAreSaidInWords() async {
        var warnings: [String] = []
        let usage = await ShowHideCommand.run(["gallery", "list", "--bogus"]) { warnings.append($0) }
        XCTAssertEqual(usage, ExitStatus.usage)
        XCTAssertTrue(warnings.first?.hasPrefix("Error: Unknown option '--bogus'") == true, "\(warnings)")
        warnings = []
        let help = await ShowHideCommand.run(["help", "gallery"]) { warnings.append($0) }
        XCTAssertEqual(help, ExitStatus.success)
        XCTAssertEqual(warnings, [])
    }

    func testACommandThatDoesNotExistIsAUsageErrorThatNamesTheLikeliestOne() async {
        func run(_ arguments: [String]) async -> (ExitCode, [String]) {
            var warnings: [String] = []
            let status = await ShowHideCommand.run(arguments) { warnings.append($0) }
            return (status, warnings)
        }
        let top = "the commands are gallery, export, inspire, inspect, serve (see 'showhide --help')."
        let cases: [([String], String)] = [
            (["help", "nosuch"], "showhide: there is no command 'showhide nosuch'; " + top),
            (["galery", "list"], "showhide: there is no command 'showhide galery'; did you mean 'showhide gallery'? " + top),
            (["search", "--colour", "red"], "showhide: there is no command 'showhide search'; did you mean 'showhide gallery search'? " + top),
            (["help", "search"], "showhide: there is no command 'showhide search'; did you mean 'showhide gallery search'? " + top),
            (["--library", "/l", "inspir"], "showhide: there is no command 'showhide inspir'; did you mean 'showhide inspire'? " + top),
            (["help", "inspire", "x"], "showhide: 'showhide inspire' has no commands under it; see 'showhide inspire --help'."),
        ]
        for (arguments, message) in cases {
            let (status, warnings) = await run(arguments)
            XCTAssertEqual(status, ExitStatus.usage, "\(arguments)")
            XCTAssertEqual(warnings, [message])
        }
        let (status, warnings) = await run(["gallery", "serach", "--colour", "red"])
        XCTAssertEqual(status, ExitStatus.usage)
        XCTAssertTrue(warnings.first?.hasPrefix("showhide: there is no command 'showhide gallery serach'; did you mean 'showhide gallery search'? "
            + "the commands are import, list,") == true, "\(warnings)")
        let alias = await run(["help", "gallery", "analyze"])
        XCTAssertEqual(alias.0, ExitStatus.success, "an alias is a command's name too")
        XCTAssertEqual(alias.1, [])
        XCTAssertNil(CommandNames.unknown(in: ["inspect", "photo.jpg", "help"]), "a command's own arguments are its own")
        XCTAssertNil(CommandNames.unknown(in: ["gallery", "--help"]))
        XCTAssertNil(likeliestName("zzzz", among: ["list", "show"]), "nothing near")
        XCTAssertEqual(editDistance("kitten", "sitting"), 3)
    }

    func testAMistypedOptionIsSaidAsUnknownWithTheLikeliestOneThoughARequiredOneIsMissingToo() async {
        func run(_ arguments: [String]) async -> (ExitCode, [String]) {
            var warnings: [String] = []
            let status = await ShowHideCommand.run(arguments) { warnings.append($0) }
            return (status, warnings)
        }
        let search = "Usage: " + ShowHideCommand.usageString(for: SearchCommand.self) + "\n  See 'showhide gallery search --help' for more information."
        let cases: [([String], String)] = [
            // Without the check, ArgumentParser says only that --colour is missing.
            (["gallery", "search", "--colur", "red"], "Error: Unknown option '--colur'. Did you mean '--colour'?\n" + search),
            (["--library", "/l", "gallery", "search", "red", "--limt=3"], "Error: Unknown option '--limt'. Did you mean '--limit'?\n" + search),
            (["gallery", "search", "--frobnicate"], "Error: Unknown option '--frobnicate'.\n" + search),
            // A beginning means the names it begins, not --in, one letter away.
            (["gallery", "search", "--colour", "red", "--min", "5"], "Error: Unknown option '--min'. Did you mean '--min-coverage'?\n" + search),
            (["gallery", "search", "--colour", "red", "--acc"], "Error: Unknown option '--acc'. Did you mean '--accent'?\n" + search),
            // A colour as words is the colour; given twice, it is said so.
            (["gallery", "search", "red", "--in", "/p", "/q", "--limit", "-1"], "Error: --limit takes 1 or more, not -1.\n" + search),
            (["gallery", "search", "--colour", "red", "--in", "/p", "/q", "--limit", "5", "blue"],
             "Error: Give the colour once: as words (blue) or after --colour, not both.\n" + search),
            (["gallery", "search", "--limit", "5"],
             "Error: Give a colour to look for: showhide gallery search orange, \"orange as a small accent\" or --colour #1f5aa6.\n" + search),
            // Without it, 'red' was said to be an invalid photo id.
            (["export", "--colur", "red", "--to", "/x"], "Error: Unknown option '--colur'. Did you mean '--colour'?\nUsage: "
                + ShowHideCommand.usageString(for: ExportCommand.self) + "\n  See 'showhide export --help' for more information."),
        ]
        for (arguments, message) in cases {
            let (status, warnings) = await run(arguments)
            XCTAssertEqual(status, ExitStatus.usage, "\(arguments)")
            XCTAssertEqual(warnings, [message])
        }
        XCTAssertTrue(OptionNames.unknown(in: ["export", "--all", "--to", "/x", "--min", "5"])?
            .hasPrefix("Error: Unknown option '--min'. Did you mean '--min-coverage' or '--min-chroma'?") == true, "the names it begins, all of them")
        XCTAssertNil(OptionNames.unknown(in: ["gallery", "search", "--colour", "red", "--color=blue", "--help", "--library", "/l"]))
        XCTAssertNil(OptionNames.unknown(in: ["gallery", "list", "--", "--colur"]), "after --, an argument is not an option")
        XCTAssertTrue(OptionNames.longNames(of: SearchCommand.self).contains("max-coverage"))
        // A word with one dash: a file's name, which ArgumentParser read as -d -a -s -h and answered with the help.
        let (status, warnings) = await run(["gallery", "import", "-dash"])
        XCTAssertEqual(status, ExitStatus.usage)
        XCTAssertEqual(warnings, ["Error: Unknown option '-dash'. A file or folder whose name begins with a dash is named ./-dash (or after --).\n"
                                  + "Usage: " + ShowHideCommand.usageString(for: ImportCommand.self)
                                  + "\n  See 'showhide gallery import --help' for more information."])
        for allowed in [["gallery", "list", "--limit", "-1"], ["gallery", "import", "--", "-dash"], ["gallery", "-h"], ["gallery", "import", "-"]] {
            XCTAssertNil(OptionNames.unknownShort(in: allowed), "\(allowed)")
        }
        // A command that takes paths of its own has no stray word: a wrong value is said as ArgumentParser says it.
        let jobs = await run(["gallery", "import", "/p", "--jobs", "x"])
        XCTAssertTrue(jobs.1.first?.hasPrefix("Error: The value 'x' is invalid for '--jobs") == true, "\(jobs.1)")
        // ArgumentParser's own options, which no command lists, are not unknown.
        for own in [["--generate-completion-script", "bash"], ["gallery", "--experimental-dump-help"]] {
            let (status, warnings) = await run(own)
            XCTAssertEqual(status, ExitStatus.success, "\(own)")
            XCTAssertEqual(warnings, [])
        }
    }

    func testEachErrorHasItsDocumentedStatus() {
        XCTAssertEqual(ExitStatus.of(CatalogueError.damaged(path: "/c")), ExitStatus.damaged)
        XCTAssertEqual(ExitStatus.of(CatalogueError.readOnly(path: "/c")), ExitStatus.unavailable)
        XCTAssertEqual(ExitStatus.of(ExportError.destinationExists("/x")), ExitStatus.cannotCreate)
        XCTAssertEqual(ExitStatus.of(FileWriteError("cannot write /x", reason: "no space left on device")), ExitStatus.cannotCreate)
        XCTAssertEqual(ExitStatus.of(ExitStatus.notFound), ExitStatus.notFound)
        XCTAssertEqual(ExitStatus.of(CocoaError(.fileNoSuchFile)), ExitStatus.someFilesFailed)
    }
}
