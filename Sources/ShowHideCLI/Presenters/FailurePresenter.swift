import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Services

/// The recorded import failures.
struct FailurePresenter {
    let console: Console

    struct FailureRecordJSON: Encodable {
        var path: String
        var reason: String
        var failedAt: String
    }

    func present(_ failures: [ImportFailure], asJSON: Bool) throws {
        if asJSON {
            console.printJSON(try JSONOutput.encode(failures.map {
                FailureRecordJSON(path: $0.path, reason: $0.reason, failedAt: ISO8601.string($0.failedAt))
            }))
            return
        }
        guard !failures.isEmpty else {
            console.warn("No import failures.")
            return
        }
        var table = TextTable(headers: ["PATH", "REASON"], fits: [.elide, .wrap])
        failures.forEach { table.append([$0.path, $0.reason]) }
        console.print(table)
    }
}
