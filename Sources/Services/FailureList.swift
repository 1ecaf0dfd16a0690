import Catalogue

/// The files and folders an import could not read, as the catalogue keeps them, and forgetting them.
public struct FailureList: Sendable {
    private let catalogue: any PhotoCatalogue

    public init(catalogue: any PhotoCatalogue) {
        self.catalogue = catalogue
    }

    /// Forgets the failures of these files or folders (absolute paths; every failure when none is given).
    /// - Returns: the paths forgotten.
    /// - Throws: `CatalogueError`.
    @discardableResult
    public func clear(within paths: [String] = []) throws -> [String] {
        let cleared = try catalogue.failures().map(\.path).filter { failed in
            paths.isEmpty || paths.contains { path(failed, isWithin: $0) }
        }
        try catalogue.write { writer in try cleared.forEach(writer.clearFailure) }
        return cleared
    }
}
