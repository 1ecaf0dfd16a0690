import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// A variant in the photo JSON.
struct VariantJSON: Encodable {
    /// The id of the photo it was made from.
    var photo: Int64
    var kind: String
    var path: String
    var width: Int
    var height: Int
    var params: [String: Double]
    /// "object" or "hue": how the splash chose what keeps its colour.
    var method: String

    init(_ variant: Variant) {
        photo = variant.photoID
        kind = variant.kind
        path = variant.path
        width = variant.pixelSize.width
        height = variant.pixelSize.height
        params = VariantSpec.parameterValues(ofKey: variant.parameters)
        method = variant.parameters.contains(#""method":"object""#) ? "object" : "hue"
    }
}
