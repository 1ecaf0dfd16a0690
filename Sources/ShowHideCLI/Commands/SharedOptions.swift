import ArgumentParser
import Catalogue
import ColourScience
import Services

/// `--jobs N`, shared by the commands that work on several photos at once.
struct JobsOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Photos worked on at once (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs).") }
    }

    /// The jobs asked for, else one per core.
    func count(in environment: AppEnvironment) -> Int {
        jobs ?? environment.processorCount
    }
}

/// A colour as typed after `--colour` (or `--color`): a name, #RRGGBB, #RGB or rgb(r,g,b), parsed and
/// explained the same way by every command that takes one.
struct ColourArgument: ExpressibleByArgument, Equatable {
    /// What was typed, for messages ("'grey' has no hue…").
    let text: String
    let target: ColourTarget

    init?(argument: String) {
        guard let target = ColourTarget(parsing: argument) else { return nil }
        text = argument
        self.target = target
    }

    /// Both spellings of the option.
    static let names: NameSpecification = [.customLong("colour"), .customLong("color")]

    static let defaultWithinText = String(format: "%g", ColourSearch.defaultWithin)

    /// A percentage as typed back to a person: "10%", "2.5%".
    static func percent(_ value: Double) -> String { String(format: "%g%%", value) }

    /// `--within` is a distance from a colour given as a value; a name covers its own range of colours.
    static func validate(within: Double?, target: ColourTarget, typed: String) throws {
        guard let within else { return }
        if case .name = target {
            throw ValidationError("--within is for a #RRGGBB or rgb() colour; a name such as '\(typed)' covers its own colours.")
        }
        guard within > 0, within <= 100 else { throw ValidationError("--within takes a ΔE00 above 0 and at most 100.") }
    }

    /// Parses a colour said as words ("orange as a small accent"), or explains what one may be.
    static func phrase(_ text: String) throws -> ColourPhrase {
        guard let phrase = ColourPhrase(parsing: text) else { throw ValidationError(ColourPhrase.whyNot(text)) }
        return phrase
    }

    /// Parses `text`, or explains what a colour may be.
    static func parse(_ text: String) throws -> ColourArgument {
        guard let colour = ColourArgument(argument: text) else {
            throw ValidationError(ColourTarget.whyNot(text))
        }
        return colour
    }
}

/// What one `export --variant` takes: a kind of file, several with commas (`show,hide`), or `all`.
struct ExportVariantChoice: ExpressibleByArgument, Equatable {
    let variants: [ExportVariant]

    init?(argument: String) {
        var chosen: [ExportVariant] = []
        for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let word = word.trimmingCharacters(in: .whitespaces).lowercased()
            if word == "all" {
                chosen += ExportVariant.allCases
            } else if let variant = ExportVariant(rawValue: word) {
                chosen.append(variant)
            } else {
                return nil
            }
        }
        variants = chosen
    }

    static var allValueStrings: [String] { ExportVariant.allCases.map(\.rawValue) + ["all"] }

    /// The kinds every `--variant` given asks for, each once, in the order files are written (show, hide,
    /// original); show when none is given.
    static func variants(_ choices: [ExportVariantChoice]) -> [ExportVariant] {
        let asked = Set(choices.flatMap(\.variants))
        return asked.isEmpty ? [.show] : ExportVariant.allCases.filter(asked.contains)
    }
}

/// What `export --manifest` takes: the JSON manifest alone, or a CSV one as well.
enum ManifestKind: String, CaseIterable, ExpressibleByArgument {
    case json, csv
}

extension ExportFormat: ExpressibleByArgument {}
extension ConflictPolicy: ExpressibleByArgument {}
