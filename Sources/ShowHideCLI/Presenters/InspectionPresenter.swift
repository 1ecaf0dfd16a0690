import ColourScience
import Foundation
import GalleryJSON
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
        /// Why the eye judged the photo as it did.
        var eye: EyeJSON?
    }

    /// The eye's measures and its learned models' probabilities, for a person to see why.
    struct EyeJSON: Encodable {
        var scene: String
        var colourTargetProbability: Double
        var busySceneProbability: Double
        var sceneFeatures: SceneFeatures
        var accent: String?
        var accentThreshold: Double
        var candidates: [CandidateJSON]

        struct CandidateJSON: Encodable {
            var name: String
            var hex: String
            var probability: Double
            var features: AccentFeatures
        }

        enum CodingKeys: String, CodingKey {
            case scene, colourTargetProbability, busySceneProbability, sceneFeatures, accent, accentThreshold, candidates
        }

        /// As synthesised, but with `"accent": null` for a photo without one.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(scene, forKey: .scene)
            try container.encode(colourTargetProbability, forKey: .colourTargetProbability)
            try container.encode(busySceneProbability, forKey: .busySceneProbability)
            try container.encode(sceneFeatures, forKey: .sceneFeatures)
            try container.encode(accent, forKey: .accent)
            try container.encode(accentThreshold, forKey: .accentThreshold)
            try container.encode(candidates, forKey: .candidates)
        }

        init(_ explanation: EyeExplanation) {
            scene = explanation.scene.rawValue
            colourTargetProbability = PhotoJSON.rounded(explanation.colourTargetProbability, 3)
            busySceneProbability = PhotoJSON.rounded(explanation.busySceneProbability, 3)
            sceneFeatures = explanation.sceneFeatures
            accent = explanation.accent?.name.rawValue
            accentThreshold = explanation.threshold
            candidates = explanation.candidates.map {
                CandidateJSON(name: $0.accent.name.rawValue, hex: $0.accent.hex, probability: PhotoJSON.rounded($0.accent.saliency, 3),
                              features: $0.features)
            }
        }
    }

    struct ReportJSON: Encodable {
        var photos: [InspectionJSON]
        var failures: [FailureJSON]
    }

    /// `explanations` holds the eye's judgement of each inspection (by path), for JSON.
    func present(_ inspections: [PhotoInspection], failures: [PhotoError], asJSON: Bool,
                 explanations: [String: EyeExplanation] = [:]) throws {
        if asJSON {
            let report = ReportJSON(
                photos: inspections.map {
                    InspectionJSON(
                        path: $0.path, format: $0.format.rawValue, width: $0.pixelSize.width,
                        height: $0.pixelSize.height, fileSize: $0.fileSize, exif: $0.exif.map($0.format.exifWithOrientationLeft), eye: explanations[$0.path].map(EyeJSON.init)
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
