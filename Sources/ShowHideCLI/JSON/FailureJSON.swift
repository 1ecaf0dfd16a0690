import Foundation
import Imaging

/// One file that could not be used, in JSON; `photo` is the catalogue's id where the file is a catalogued photo.
struct FailureJSON: Encodable, Equatable {
    var photo: Int64?
    var path: String
    var reason: String
}
