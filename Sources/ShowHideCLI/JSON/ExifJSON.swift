import Foundation
import Imaging

/// The documented JSON of a photo's EXIF data (Docs/Usage.md). Absent keys mean the file has no such value.
struct ExifJSON: Encodable, Equatable {
    struct GPS: Encodable, Equatable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    var make: String?
    var model: String?
    var lens: String?
    var takenAt: String?
    var exposureTime: Double?
    var fNumber: Double?
    var iso: Int?
    var focalLength: Double?
    var orientation: Int?
    var gps: GPS?

    init(_ exif: ExifMetadata) {
        make = exif.make
        model = exif.model
        lens = exif.lens
        takenAt = exif.takenAt?.iso8601
        exposureTime = exif.exposureTime
        fNumber = exif.fNumber
        iso = exif.iso
        focalLength = exif.focalLength
        orientation = exif.orientation?.rawValue
        gps = exif.gps.map { GPS(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) }
    }
}

extension ExifMetadata {
    /// "Make Model", without the make repeated when the model already starts with it.
    var cameraName: String? {
        let make = self.make ?? ""
        let model = self.model ?? ""
        if model.isEmpty { return make.isEmpty ? nil : make }
        if make.isEmpty || model.lowercased().hasPrefix(make.lowercased()) { return model }
        return "\(make) \(model)"
    }
}
