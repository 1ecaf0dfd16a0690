import ColourScience
import Foundation
import Imaging
import Services

/// The splash a photo page previews or makes: its controls as query parameters (`mode`, `tolerance`,
/// `feather`, `minChroma`, `candidate`), the defaults those of `gallery process`.
public struct SplashQuery: Equatable, Sendable {
    public var method: SplashMethod = .object
    public var tolerance = SplashParameters.defaultTolerance
    public var feather = SplashParameters.defaultFeather
    public var minimumChroma = SplashParameters.defaultMinimumChroma
    /// The accent candidate to keep (1–3); nil: the photo's accent.
    public var candidate: Int?

    public init() {}

    /// - Throws: `GalleryRequestError.invalid` naming the parameter and what it takes.
    public init(query: String?) throws(GalleryRequestError) {
        let parameters = QueryParameters(query)
        if let mode = parameters["mode"] {
            guard let method = SplashMethod(rawValue: mode.lowercased()) else { throw .invalid("mode: takes object or hue.") }
            self.method = method
        }
        // As `gallery process` takes them.
        tolerance = try Self.number(parameters["tolerance"], "tolerance", in: SplashParameters.degreesRange, otherwise: tolerance)
        feather = try Self.number(parameters["feather"], "feather", in: SplashParameters.degreesRange, otherwise: feather)
        minimumChroma = try Self.number(parameters["minChroma"], "minChroma", in: SplashParameters.minimumChromaRange, otherwise: minimumChroma)
        if let text = parameters["candidate"], text != "accent" {
            guard let rank = Int(text), (1...3).contains(rank) else { throw .invalid("candidate: takes accent, or a rank from 1 to 3.") }
            candidate = rank
        }
    }

    static func number(_ text: String?, _ name: String, in range: ClosedRange<Double>, otherwise: Double) throws(GalleryRequestError) -> Double {
        guard let text else { return otherwise }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .invalid("\(name): takes a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)).")
        }
        return value
    }

    /// What processing takes: the same parameters `gallery process` would be given.
    public func processing(jobs: Int = 1) -> ProcessingOptions {
        ProcessingOptions(target: candidate.map { .candidate($0) } ?? .accent, method: method, tolerance: tolerance, feather: feather,
                          minimumChroma: minimumChroma, jobs: jobs)
    }

    /// The query string of these controls, defaults left out.
    public var queryString: String {
        var pairs: [String] = []
        if method != .object { pairs.append("mode=\(method.rawValue)") }
        if tolerance != SplashParameters.defaultTolerance { pairs.append("tolerance=\(GridQuery.number(tolerance))") }
        if feather != SplashParameters.defaultFeather { pairs.append("feather=\(GridQuery.number(feather))") }
        if minimumChroma != SplashParameters.defaultMinimumChroma { pairs.append("minChroma=\(GridQuery.number(minimumChroma))") }
        if let candidate { pairs.append("candidate=\(candidate)") }
        return pairs.joined(separator: "&")
    }
}

/// Photos decoded once at screen size and kept, a few at a time, for previews and live splashes: the
/// slider's next position needs no new decode of a 12-megapixel file.
final class WorkingCopies: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [(key: String, image: RGBAImage)] = []
    let capacity: Int

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// The copy kept under `key` (the photo's content hash), or the one `make` gives, then kept.
    func image(for key: String, make: () throws -> RGBAImage) rethrows -> RGBAImage {
        if let found = lock.withLock({ () -> RGBAImage? in
            guard let index = images.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = images.remove(at: index)
            images.append(entry)
            return entry.image
        }) {
            return found
        }
        let image = try make()
        lock.withLock {
            images.removeAll { $0.key == key }
            images.append((key, image))
            if images.count > capacity { images.removeFirst(images.count - capacity) }
        }
        return image
    }

    var count: Int { lock.withLock { images.count } }
}
