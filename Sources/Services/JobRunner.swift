/// Runs the services' per-photo jobs (read, decode, analyse or make variants). The live runner runs
/// each job where it is called; a test's runner can hold jobs back to see how many the service
/// started at once, on any number of cores.
public protocol JobRunner: Sendable {
    /// Runs `job` and gives back what it made.
    /// - Parameter job: one photo's work (reading, decoding, analysing or making variants); it reports
    ///   its own failures in its output rather than throwing.
    func run<Output: Sendable>(_ job: @escaping @Sendable () -> Output) async -> Output
}

/// Runs each job at once, on the task that asks.
public struct InlineJobRunner: JobRunner {
    public init() {}

    public func run<Output: Sendable>(_ job: @escaping @Sendable () -> Output) async -> Output { job() }
}

/// Whether the user asked a long command to stop (Ctrl-C): it then starts nothing more, keeps what
/// it has done, and says so.
public protocol Interruption: Sendable {
    var isRequested: Bool { get }
}

/// Never asked to stop.
public struct NoInterruption: Interruption {
    public init() {}
    public var isRequested: Bool { false }
}

extension JobRunner {
    /// `job` on each of `items`, at most `jobs` at a time, each started as soon as one finishes;
    /// `finished` is given each item and its output on the calling task, in the order they finish.
    /// Once `interruption` is requested no job is started; those started still finish.
    func forEach<Item: Sendable, Output: Sendable>(
        _ items: some Sequence<Item>, jobs: Int, interruption: any Interruption = NoInterruption(),
        job: @escaping @Sendable (Item) -> Output,
        finished: (Item, Output) throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Item, Output).self) { group in
            var next = items.makeIterator()
            func startNext() {
                guard !interruption.isRequested, let item = next.next() else { return }
                group.addTask { (item, await self.run { job(item) }) }
            }
            for _ in 0..<max(1, jobs) { startNext() }
            while let (item, output) = try await group.next() {
                startNext()
                try finished(item, output)
            }
        }
    }
}
