import Foundation
import Imaging

/// One file that could not be used, in JSON.
struct FailureJSON: Encodable, Equatable {
    var path: String
    var reason: String
}
