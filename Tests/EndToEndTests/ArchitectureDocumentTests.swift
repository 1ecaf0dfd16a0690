import Foundation
import XCTest

/// Docs/Architecture.md's module table says what each module depends on; Package.swift decides.
/// The two must agree, so that the page cannot drift from the package.
final class ArchitectureDocumentTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Target {
        var name: String
        var type: String
        var targets: Set<String>
        var products: [(name: String, package: String)]
    }

    /// The package's targets as SwiftPM reads Package.swift.
    func packageTargets() throws -> [String: Target] {
        // Its own scratch folder: the running `swift test` holds the package's build folder locked.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", Self.packageRoot.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "swift package dump-package")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var targets: [String: Target] = [:]
        for entry in try XCTUnwrap(json["targets"] as? [[String: Any]]) {
            let name = try XCTUnwrap(entry["name"] as? String)
            var target = Target(name: name, type: entry["type"] as? String ?? "", targets: [], products: [])
            for dependency in entry["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any], let dependencyName = byName.first as? String {
                    target.targets.insert(dependencyName)
                } else if let product = dependency["product"] as? [Any], let productName = product.first as? String {
                    target.products.append((productName, product.count > 1 ? product[1] as? String ?? "" : ""))
                }
            }
            targets[name] = target
        }
        return targets
    }

    /// Each table row: the modules it names, and its "depends on" cell.
    func documentRows() throws -> [(modules: [String], dependsOn: String)] {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("Docs/Architecture.md"), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            return (Self.backticked(cells[1]), cells[cells.count - 2])
        }
    }

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    func testTheModuleTableMatchesPackageSwift() throws {
        let targets = try packageTargets()
        let rows = try documentRows()
        XCTAssertFalse(rows.isEmpty)
        var described: Set<String> = []
        for row in rows {
            let documented = Set(Self.backticked(row.dependsOn))
            for module in row.modules {
                described.insert(module)
                guard let target = targets[module] else {
                    XCTFail("Architecture.md describes \(module), which Package.swift does not have")
                    continue
                }
                XCTAssertEqual(documented, target.targets, "the modules \(module) depends on")
                for product in target.products {
                    let cell = row.dependsOn.lowercased()
                    XCTAssertTrue(cell.contains(product.name.lowercased()) || cell.contains(product.package.lowercased())
                                  || (product.name == "GRDBSQLite" && cell.contains("grdb")),
                                  "\(module) depends on \(product.name) (\(product.package)), which the table does not say")
                }
            }
        }
        let libraries = targets.values.filter { ["regular", "system"].contains($0.type) || $0.name == "showhide" }.map(\.name)
        for library in libraries where library != "CJPEGFixtures" {
            XCTAssertTrue(described.contains(library), "Architecture.md's table has no row for \(library)")
        }
    }
}
