import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// A variant in the photo JSON.
public struct VariantJSON: Encodable {
    /// The id of the photo it was made from.
    public var photo: Int64
    public var kind: String
    public var path: String
    public var width: Int
    public var height: Int
    public var params: [String: Double]
    /// "object" or "hue": how the splash chose what keeps its colour.
    public var method: String
    /// When it was made, as the table shows it (ISO 8601, UTC).
    public var createdAt: String

    public init(_ variant: Variant) {
        photo = variant.photoID
        kind = variant.kind
        path = variant.path
        width = variant.pixelSize.width
        height = variant.pixelSize.height
        params = VariantSpec.parameterValues(ofKey: variant.parameters)
        method = VariantSpec.method(ofKey: variant.parameters)
        createdAt = ISO8601.string(variant.createdAt)
    }
}
