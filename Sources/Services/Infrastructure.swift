import Crypto
import Foundation
import Synchronization

/// Hashes file contents.
public protocol ContentHashing: Sendable {
    /// SHA-256 of `data` as 64 lower-case hex digits.
    func sha256(_ data: Data) -> String
}

/// SHA-256 through swift-crypto.
public struct CryptoHasher: ContentHashing {
    public init() {}

    public func sha256(_ data: Data) -> String {
        let digest = SHA256.hash(data: data)
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// The time of day, injected so tests control it.
public protocol WallClock: Sendable {
    func now() -> Date
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Ctrl-C (SIGINT) as an interruption, and so SIGTERM (`kill`, `timeout`) and SIGHUP (a terminal
/// closed): the first asks the command to stop where it is and say what it did; a second ends the
/// process at once (status 128 + the signal), as Ctrl-C usually does. Made only by the commands that
/// can stop cleanly, so every other command keeps the default.
///
/// A plain signal handler that counts into an atomic: whichever thread the signal lands on, the
/// count is set before the handler returns (a dispatch source on Linux reads a `signalfd`, which
/// needs the signal blocked in every thread, and threads started before it do not block it).
public final class InterruptSignal: Interruption {
    public init() {
        // Set (and so made) here, before the handler can run: a global's first use runs its setup,
        // which must not happen inside a signal handler.
        interruptRequests.store(0, ordering: .relaxed)
        for stopping in Self.signals where !Self.isIgnored(stopping) { signal(stopping, interruptHandler) }
    }

    /// Whether the process was started with `signal` ignored: `nohup` ignores SIGHUP, a shell's
    /// background job SIGINT, and a command run so must go on through them as it did.
    static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The signals that ask a command to stop.
    public static let signals = [SIGINT, SIGTERM, SIGHUP]

    public var isRequested: Bool { interruptRequests.load(ordering: .relaxed) > 0 }
}

/// Ctrl-Cs received since an `InterruptSignal` was made.
private let interruptRequests = Atomic<Int>(0)

/// Async-signal-safe: an atomic add, and `_exit` on the second.
private func interruptHandler(_ signal: Int32) {
    if interruptRequests.wrappingAdd(1, ordering: .relaxed).oldValue > 0 { _exit(128 + signal) }
}
