import ArgumentParser
import ColourScience
import Foundation
import Services

/// `showhide inspect FILE...`: decodes files and reports what they are, touching no catalogue.
struct InspectCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode photo files and print their format, size and EXIF data, without importing them.",
        discussion: "With --json, each photo also says how the eye judged it: its scene, its candidate colours with what was measured of them, and each learned model's probability."
    )

    @Argument(help: "JPEG, PNG, HEIC, AVIF, WebP or TIFF files to inspect.")
    var files: [String] = []

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one file to inspect.") }
    }

    func run(in environment: AppEnvironment) throws {
        let inspector = environment.photoInspector()
        var inspections: [PhotoInspection] = []
        var failures: [PhotoError] = []
        for file in files {
            do {
                inspections.append(try inspector.inspect(path: file))
            } catch {
                failures.append(error)
            }
        }
        // The eye's reasons only where they are shown: the table has no room for them.
        let analyser = ColourAnalyser()
        let explanations = json ? Dictionary(inspections.map { ($0.path, analyser.explain($0.analysisImage)) },
                                             uniquingKeysWith: { first, _ in first }) : [:]
        let presenter = InspectionPresenter(console: environment.console)
        try presenter.present(inspections, failures: failures, asJSON: json, explanations: explanations)
        if !failures.isEmpty { throw ExitStatus.someFilesFailed }
    }
}
