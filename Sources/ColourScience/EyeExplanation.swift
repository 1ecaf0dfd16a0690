import Foundation
import Imaging

/// Why the eye judged a photo as it did: what it measured and what each learned model made of it.
public struct EyeExplanation: Sendable {
    public var scene: SceneKind
    public var sceneFeatures: SceneFeatures
    /// The colour-target and busy-scene models' probabilities.
    public var colourTargetProbability: Double
    public var busySceneProbability: Double
    /// Every candidate, most likely the accent first; `saliency` is the accent model's probability.
    public var candidates: [(accent: Accent, features: AccentFeatures)]
    /// The probability from which a candidate is the accent.
    public var threshold: Double
    public var accent: Accent?
}

extension ColourAnalyser {
    /// The eye's judgement of `image` with its reasons (what `analyse` keeps of it is the accent, the
    /// first three candidates and the scene).
    public func explain(_ image: RGBAImage) -> EyeExplanation {
        let judgement = accentFinder.judge(LabRaster(image, longSide: rasterLongSide), limit: .max)
        let models = accentFinder.sceneModels
        return EyeExplanation(scene: judgement.sceneKind, sceneFeatures: judgement.scene,
                              colourTargetProbability: models.colourTarget.probability(judgement.scene.vector),
                              busySceneProbability: models.busy.probability(judgement.scene.vector), candidates: judgement.candidates,
                              threshold: judgement.threshold, accent: judgement.accent)
    }
}
