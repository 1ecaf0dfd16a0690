import ArgumentParser
import ColourScience
import Foundation
import Services

extension SplashMethod: ExpressibleByArgument {}

/// How show and hide variants are made: the options `gallery process`, `export` and `inspire` share.
struct SplashOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "object: whole objects of the colour; hue: every pixel of its hue, wherever it is.", valueName: "mode"))
    var mode: SplashMethod = .object

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Splash each photo's accent candidate of this rank instead of its accent (2 and 3: the runners-up that `gallery show` lists).",
        valueName: "n"))
    var accentRank: Int?

    @Option(name: .long, parsing: .unconditional, help: "Hue distance kept fully, in degrees.")
    var tolerance: Double = SplashParameters.defaultTolerance

    @Option(name: .long, parsing: .unconditional, help: "Hue distance over which the colour fades to grey, in degrees.")
    var feather: Double = SplashParameters.defaultFeather

    @Option(name: .long, parsing: .unconditional, help: "Chroma (C*) under which a pixel counts as grey.")
    var minChroma: Double = SplashParameters.defaultMinimumChroma

    func validate() throws {
        if let accentRank, !(1...3).contains(accentRank) { throw ValidationError("--accent-rank takes 1, 2 or 3.") }
        // (A range holds no NaN: "nan" and "inf", which Double reads, are refused here too.)
        if !SplashParameters.degreesRange.contains(tolerance) || !SplashParameters.degreesRange.contains(feather) {
            throw ValidationError("--tolerance and --feather take degrees from 0 to 180.")
        }
        if !SplashParameters.minimumChromaRange.contains(minChroma) { throw ValidationError("--min-chroma takes a chroma (C*) from 0 to 150.") }
    }

    /// Refuses a `--hue` that is no angle: NaN or infinity (any other number is one, −10° being 350°).
    static func requireAngle(_ hue: Double?) throws {
        if let hue, !hue.isFinite { throw ValidationError("--hue takes a CIELAB hue angle in degrees, such as 30 or 210.") }
    }

    /// Each photo's accent, or its candidate of `--accent-rank`; `given` (a colour or hue the user
    /// named) instead when there is one — and then no rank may be given.
    func target(given: SplashTarget?) throws -> SplashTarget {
        if let given {
            if accentRank != nil { throw ValidationError("Give --accent-rank or a colour or hue to keep, not both.") }
            return given
        }
        return accentRank.map { .candidate($0) } ?? .accent
    }

    /// Refuses a colour to keep that has no hue — grey, black, white, or a colour of C* under 10 —
    /// since a splash keeps a hue, and such a target would keep nothing or noise; `typed` is what the
    /// user wrote.
    static func requireHue(_ target: SplashTarget?, typed: String?) throws {
        guard case let .colour(lab)? = target, lab.lch.c < 10 else { return }
        throw ValidationError("'\(typed ?? lab.hex)' has no hue to keep (C* \(Int(lab.lch.c.rounded()))): a splash keeps a hue; "
            + "choose a colour such as red or #1f5aa6.")
    }

    func processing(target: SplashTarget, quality: Int = 90, jobs: Int) -> ProcessingOptions {
        ProcessingOptions(target: target, method: mode, tolerance: tolerance, feather: feather, minimumChroma: minChroma,
                          quality: quality, jobs: jobs)
    }
}
