import Foundation

/// Errors of the pure image model.
public enum ImagingError: Error, Equatable, LocalizedError {
    case invalidDimensions(width: Int, height: Int)
    case bufferSizeMismatch(expected: Int, actual: Int)

    public var errorDescription: String? {
        switch self {
        case let .invalidDimensions(width, height):
            return "an image must be at least 1×1 pixels, not \(width)×\(height)"
        case let .bufferSizeMismatch(expected, actual):
            return "an image buffer needs \(expected) bytes but has \(actual)"
        }
    }
}
