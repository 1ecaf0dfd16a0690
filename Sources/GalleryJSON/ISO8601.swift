import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
