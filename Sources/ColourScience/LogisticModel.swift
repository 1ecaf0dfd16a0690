import Foundation

/// A logistic regression over standardised features: p = 1 / (1 + e^−(b + Σ wᵢ (xᵢ − μᵢ) / σᵢ)).
/// The eye's judgements (is this colour the accent a person would pick, is this scene a colour
/// target or a busy one, is this photo worth a splash) are such models, fitted from labelled photos
/// by `scripts/fit-eye` (Docs/Quality.md), never set by hand.
public struct LogisticModel: Equatable, Sendable {
    /// The features' names, in order: documentation, and a check that the fit and the code agree.
    public var features: [String]
    public var means: [Double]
    public var scales: [Double]
    public var weights: [Double]
    public var bias: Double
    /// The probability from which the judgement is yes.
    public var threshold: Double

    public init(features: [String], means: [Double], scales: [Double], weights: [Double], bias: Double, threshold: Double) {
        self.features = features
        self.means = means
        self.scales = scales
        self.weights = weights
        self.bias = bias
        self.threshold = threshold
    }

    /// The model's probability for one feature vector, in the order of `features`.
    public func probability(_ values: [Double]) -> Double {
        1 / (1 + exp(-logit(values)))
    }

    /// The log-odds before the logistic function.
    public func logit(_ values: [Double]) -> Double {
        precondition(values.count == weights.count && means.count == weights.count && scales.count == weights.count,
                     "\(values.count) values for a model of \(weights.count) features: fit it again (scripts/fit-eye)")
        var sum = bias
        for index in values.indices {
            sum += weights[index] * (values[index] - means[index]) / scales[index]
        }
        return sum
    }
}
