import Crypto
import Foundation

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
