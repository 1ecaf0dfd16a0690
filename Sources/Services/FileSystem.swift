import Foundation

/// The file system as services see it, so tests can hand them a fake.
public protocol FileSystem: Sendable {
    /// The whole contents of the file at `path`.
    func contents(of path: String) throws -> Data
}

/// The real file system.
public struct LocalFileSystem: FileSystem {
    public init() {}

    public func contents(of path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
    }
}
