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
        XCTAssertEqual(message(SearchCommand.self, ["--colour", "red", "--within", "-3"]), "--within takes a ΔE00 above 0 and at most 100.")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--jobs", "-2"]), "--jobs must be at least 1, not -2.")
        XCTAssertEqual(message(ProcessCommand.self, ["--all", "--hue", "-10"]), "accepted", "a hue of −10° is 350°")
        XCTAssertEqual(message(ListCommand.self, ["--limit", "3"]), "accepted")
    }

    func testDaysAMonthDoesNotHaveAreRefused() {
        XCTAssertEqual(message(ListCommand.self, ["--since", "2008-02-30"]), "--since takes a day as YYYY-MM-DD, not '2008-02-30'.")
        XCTAssertEqual(message(ListCommand.self, ["--until", "2023-04-31"]), "--until takes a day as YYYY-MM-DD, not '2023-04-31'.")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2023-02-29"]), "--since takes a day as YYYY-MM-DD, not '2023-02-29'.")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2024-02-29"]), "accepted", "a leap day")
        XCTAssertEqual(message(ListCommand.self, ["--since", "2000-02-29"]), "accepted", "2000 was a leap year")
        XCTAssertEqual(message(ListCommand.self, ["--since", "1900-02-29"]), "--since takes a day as YYYY-MM-DD, not '1900-02-29'.")
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

    func testHelpForACommandThatDoesNotExistIsAUsageError() async {
        var warnings: [String] = []
        let unknown = await ShowHideCommand.run(["help", "nosuch"]) { warnings.append($0) }
        XCTAssertEqual(unknown, ExitStatus.usage)
        XCTAssertEqual(warnings, ["showhide: there is no command 'showhide nosuch'; the commands are gallery, export, inspire, inspect, serve "
            + "(see 'showhide --help')."])
        warnings = []
        let unknownUnder = await ShowHideCommand.run(["help", "gallery", "imprt"]) { warnings.append($0) }
        XCTAssertEqual(unknownUnder, ExitStatus.usage)
        XCTAssertTrue(warnings.first?.hasPrefix("showhide: there is no command 'showhide gallery imprt'; the commands are import, list,") == true,
                      "\(warnings)")
        warnings = []
        let belowALeaf = await ShowHideCommand.run(["help", "inspire", "x"]) { warnings.append($0) }
        XCTAssertEqual(belowALeaf, ExitStatus.usage)
        XCTAssertEqual(warnings, ["showhide: 'showhide inspire' has no commands under it; see 'showhide inspire --help'."])
        warnings = []
        let alias = await ShowHideCommand.run(["help", "gallery", "analyze"]) { warnings.append($0) }
        XCTAssertEqual(alias, ExitStatus.success, "an alias is a command's name too")
        XCTAssertEqual(warnings, [])
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
