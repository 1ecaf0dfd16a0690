import Foundation
import Imaging
import Services

/// Shows inspections as a table (with failures on standard error) or as JSON.
struct InspectionPresenter {
    let console: Console

    struct InspectionJSON: Encodable {
        var path: String
        var format: String
        var width: Int
        var height: Int
        var fileSize: Int
        var exif: ExifMetadata?
    }

    struct ReportJSON: Encodable {
        var photos: [InspectionJSON]
        var failures: [FailureJSON]
    }

    func present(_ inspections: [PhotoInspection], failures: [PhotoError], asJSON: Bool) throws {
        if asJSON {
            let report = ReportJSON(
                photos: inspections.map {
                    InspectionJSON(
                        path: $0.path, format: $0.format.rawValue, width: $0.pixelSize.width,
                        height: $0.pixelSize.height, fileSize: $0.fileSize, exif: $0.exif
                    )
                },
                failures: failures.map { FailureJSON(path: $0.path, reason: $0.reason) }
            )
            console.printJSON(try JSONOutput.encode(report))
            return
        }
        if !inspections.isEmpty {
            var table = TextTable(headers: ["FILE", "FORMAT", "PIXELS", "CAMERA", "TAKEN"], fits: [.elide, .keep, .keep, .elide, .keep])
            for inspection in inspections {
                table.append([
                    inspection.path,
                    inspection.format.displayName,
                    inspection.uprightSize.description,
                    inspection.exif?.cameraName ?? "-",
                    inspection.exif?.takenAt?.iso8601 ?? "-",
                ])
            }
            console.print(table)
        }
        for failure in failures {
            console.warn("showhide: \(failure.path): \(failure.reason)")
        }
        if !failures.isEmpty {
            console.warn("\(inspections.count) readable, \(failures.count) failed")
        }
    }
}
