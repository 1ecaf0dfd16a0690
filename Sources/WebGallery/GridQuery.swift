import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// What a request asked for that the gallery cannot give, in words: a 400 or a 404 with this text.
public enum GalleryRequestError: Error, Equatable, Sendable {
    /// A query parameter or a path part that is not what it should be (400).
    case invalid(String)
    /// No photo with this id, or no such page (404).
    case notFound(String)
    /// A change this gallery may not make (403): the catalogue is read-only.
    case forbidden(String)

    public var message: String {
        switch self {
        case let .invalid(message), let .notFound(message), let .forbidden(message): return message
        }
    }
}

/// The query string as the browser sent it: `a=1&b=x+y`, each value percent-decoded, `+` a space (a
/// form's GET); a parameter given twice keeps its last value.
struct QueryParameters: Equatable {
    private var pairs: [(name: String, value: String)] = []

    static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool { lhs.pairs.elementsEqual(rhs.pairs, by: ==) }

    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            pairs.append((decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : ""))
        }
    }

    /// The parameter's last value, trimmed; nil when it is absent or blank.
    subscript(_ name: String) -> String? {
        pairs.last { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every value the parameter was given, in order, trimmed, blanks left out (`id=3&id=8`).
    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map { $0.value.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// How the grid is ordered.
public enum GridSort: String, CaseIterable, Sendable {
    /// Newest taken first.
    case date
    /// Closest to the chosen colour first (the colour search's ranking).
    case colour
    /// Highest splash potential first (the inspiration score).
    case inspiration
}

/// The grid's filters, sort and page, from a query string: every view of the grid is a URL.
public struct GridQuery: Equatable, Sendable {
    /// The colour text as given ("red", "#1f5aa6"), and what it means.
    public var colourText: String?
    public var colour: ColourTarget?
    /// Only photos whose accent is the colour.
    public var accentOnly = false
    /// The least share of the frame (percent) the colour covers.
    public var minimumCoverage: Double = 0
    /// The largest share (percent): a tenth when the colour was said as "a small accent", else all of it.
    public var largestCoverage: Double = 100
    public var since: String?
    public var until: String?
    public var camera: String?
    /// A folder (or file) the photos are in, at any depth.
    public var folder: String?
    /// As asked; nil: closest first when a colour is chosen, else newest first.
    public var sortAsked: GridSort?
    public var sort: GridSort { sortAsked ?? (colour == nil ? .date : .colour) }
    /// 1-based.
    public var page = 1

    public static let pageSize = 60
    /// The last page a query may ask for: 60 × 2,000 photos are more than anyone pages through.
    public static let lastPage = 2_000

    public init() {}

    /// Reads and checks the parameters `colour`, `accent`, `coverage`, `since`, `until`, `camera`,
    /// `folder`, `sort` and `page`.
    /// - Throws: `GalleryRequestError.invalid` saying which parameter is wrong and what it takes.
    public init(query: String?) throws(GalleryRequestError) {
        let parameters = QueryParameters(query)
        if let text = parameters["colour"] ?? parameters["color"] {
            // A colour picker's "#rrggbb", a hand-typed one without its "#", or words as `gallery search` takes
            // them: "orange as a small accent".
            guard let phrase = ColourPhrase(parsing: text) else { throw .invalid("colour: " + ColourPhrase.whyNot(text)) }
            colourText = text
            colour = phrase.target
            accentOnly = phrase.accentOnly
            largestCoverage = phrase.largestCoverage
        }
        if let accent = parameters["accent"] {
            switch accent.lowercased() {
            case "1", "on", "true", "yes": accentOnly = true
            case "0", "off", "false", "no": accentOnly = false
            default: throw .invalid("accent: takes on or off.")
            }
        }
        if let coverage = parameters["coverage"] {
            guard let value = Double(coverage), (0...100).contains(value) else {
                throw .invalid("coverage: takes a percentage from 0 to 100.")
            }
            minimumCoverage = value
        }
        since = try Self.day(parameters["since"], "since")
        until = try Self.day(parameters["until"], "until")
        if let since, let until, since > until { throw .invalid("since: \(since) is after until: \(until).") }
        // Trimmed, and a blank is no filter: " " would match the space between every make and model.
        if let camera = parameters["camera"]?.trimmingCharacters(in: .whitespacesAndNewlines), !camera.isEmpty {
            guard camera.count <= 100 else { throw .invalid("camera: at most 100 characters.") }
            guard !camera.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .invalid("camera: takes some text of the make or model, without control characters.")
            }
            self.camera = camera
        }
        if let folder = parameters["folder"] {
            guard folder.hasPrefix("/"), folder.count <= 4096, !folder.contains("\0") else {
                throw .invalid("folder: give an absolute path, such as /home/me/Pictures/2024.")
            }
            self.folder = standardisedAsWritten(folder)
        }
        if let sort = parameters["sort"] {
            guard let value = GridSort(rawValue: sort.lowercased()) ?? (sort.lowercased() == "color" ? .colour : nil) else {
                throw .invalid("sort: takes date, colour or inspiration.")
            }
            sortAsked = value
        }
        if self.sort == .colour && colour == nil { throw .invalid("sort: colour needs a colour to be closest to.") }
        // Said, not ignored while the form still shows them filled in.
        if accentOnly && colour == nil { throw .invalid("accent: “as the accent” needs a colour to match: choose one, or untick it.") }
        if minimumCoverage > 0 && colour == nil { throw .invalid("coverage: “at least” a share of the picture needs a colour to measure: choose one.") }
        if minimumCoverage > largestCoverage {
            throw .invalid("coverage: at least \(Self.number(minimumCoverage))% is more than a small accent's \(Self.number(largestCoverage))%: no photo is both.")
        }
        if let page = parameters["page"] {
            guard let value = Int(page), (1...Self.lastPage).contains(value) else {
                throw .invalid("page: takes a whole number from 1 to \(Self.lastPage).")
            }
            self.page = value
        }
    }

    static func day(_ text: String?, _ name: String) throws(GalleryRequestError) -> String? {
        guard let text else { return nil }
        // As on the command line: a day that month has (no 2008-02-30).
        guard ExifDateTime.isDay(text) else { throw .invalid("\(name): give a day as YYYY-MM-DD.") }
        return text
    }

    /// The listing's filters for the catalogue: dates, camera, folder; no limit.
    public var photoQuery: PhotoQuery {
        PhotoQuery(takenSince: since, takenUntil: until, camera: camera, paths: folder.map { [$0] } ?? [], sort: .newest)
    }

    /// The query string of this view, with `changes` made (nil removes a parameter); defaults left out,
    /// so that equal views have equal URLs.
    public func queryString(_ changes: [String: String?] = [:]) -> String {
        var parameters: [(String, String?)] = [
            ("colour", colourText), ("accent", accentOnly ? "on" : nil),
            ("coverage", minimumCoverage > 0 ? Self.number(minimumCoverage) : nil),
            ("since", since), ("until", until), ("camera", camera), ("folder", folder),
            ("sort", sortAsked?.rawValue), ("page", page == 1 ? nil : String(page)),
        ]
        for (name, value) in changes {
            if let index = parameters.firstIndex(where: { $0.0 == name }) { parameters[index].1 = value } else { parameters.append((name, value)) }
        }
        let pairs = parameters.compactMap { name, value in value.map { "\(name)=\(Self.encoded($0))" } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Percent-encoded for a query value: only unreserved characters and `/` stay.
    static func encoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
