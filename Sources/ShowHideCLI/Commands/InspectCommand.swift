import ArgumentParser
import Foundation
import Services

/// `showhide inspect FILE...`: decodes files and reports what they are, touching no catalogue.
struct InspectCommand: EnvironmentCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode photo files and print their format, size and EXIF data, without importing them."
    )

    @Argument(help: "JPEG or PNG files to inspect.")
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
        let presenter = InspectionPresenter(console: environment.console)
        try presenter.present(inspections, failures: failures, asJSON: json)
        if !failures.isEmpty { throw ExitStatus.someFilesFailed }
    }
}
