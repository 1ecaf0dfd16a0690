import ArgumentParser

/// A command that runs in an `AppEnvironment`: the live one when the process runs it, a fake one in tests.
protocol EnvironmentCommand: AsyncParsableCommand {
    func run(in environment: AppEnvironment) async throws
}

extension EnvironmentCommand {
    func run() async throws {
        try await run(in: .live())
    }
}
