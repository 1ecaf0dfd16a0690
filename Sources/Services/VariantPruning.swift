import Catalogue
import Foundation

/// What pruning variants did.
public struct PruneSummary: Sendable {
    /// The variants forgotten, their files deleted.
    public var removed: [Variant] = []
    /// Each removed variant's file in this library (deleted, unless `filesLeft` lists it), by the path
    /// its row recorded. A variant not here has none: gone already, or the row names another library's
    /// folder (a library restored from a backup or copied), whose file is that library's and left.
    public var filesHere: [String: String] = [:]
    /// Files that could not be deleted (their rows are gone; `gallery check --repair` removes them later).
    public var filesLeft: [(path: String, reason: String)] = []

    public init() {}
}

/// Keeps one parameter set of each photo's variants — the newest, the one made last — and forgets
/// the others: their rows in one transaction, then their files.
public struct VariantPruning: Sendable {
    private let fileSystem: any FileSystem
    private let catalogue: any PhotoCatalogue
    private let variantsDirectory: String

    public init(fileSystem: any FileSystem, catalogue: any PhotoCatalogue, libraryDirectory: String) {
        self.variantsDirectory = VariantSpec.directory(inLibrary: libraryDirectory)
        self.fileSystem = fileSystem
        self.catalogue = catalogue
    }

    /// The variants `prune` would forget among `variants`: per photo, every parameter set but the
    /// one whose latest variant is the newest (ties: the later key in sort order).
    public static func superseded(among variants: [Variant]) -> [Variant] {
        Dictionary(grouping: variants, by: \.photoID).values.flatMap { variants -> [Variant] in
            // Each parameter set by when its latest variant was made.
            let latest = Dictionary(variants.map { ($0.parameters, $0.createdAt) }, uniquingKeysWith: max)
            guard let newest = latest.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else { return [] }
            return variants.filter { $0.parameters != newest }
        }.sorted { ($0.photoID, $0.path) < ($1.photoID, $1.path) }
    }

    /// Prunes the variants of these photos (every photo's when `photos` is nil).
    public func prune(photos: Set<PhotoID>?) throws -> PruneSummary {
        let variants = try catalogue.allVariants().filter { photos?.contains($0.photoID) ?? true }
        var summary = PruneSummary()
        summary.removed = Self.superseded(among: variants)
        try catalogue.write { writer in
            for variant in summary.removed { try writer.removeVariant(atPath: variant.path) }
        }
        // Only this library's files: a copied library's rows may still name the original's.
        for variant in summary.removed {
            summary.filesHere[variant.path] = fileSystem.variantFile(recordedAt: variant.path, inVariants: variantsDirectory)
        }
        summary.filesLeft = fileSystem.removeVariantFiles(summary.filesHere.values.sorted(), inVariants: variantsDirectory).left
        return summary
    }
}
