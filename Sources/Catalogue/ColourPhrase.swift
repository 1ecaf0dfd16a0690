import Foundation

/// A colour to search for with how it should stand in a photo, as a person says it: "orange", "orange
/// as the accent", "orange as a small accent", "a small orange accent", "#1f5aa6 as an accent".
public struct ColourPhrase: Equatable, Sendable {
    /// The colour as typed, for messages.
    public var colourText: String
    public var target: ColourTarget
    /// Said "as the accent" (or "… accent"): only each photo's accent matches.
    public var accentOnly: Bool
    /// Said "small": the accent covers at most `smallAccentPercent` of the photo.
    public var small: Bool

    /// What "small" means, as Docs/Usage.md has it: at most a tenth of the photo.
    public static let smallAccentPercent = 10.0

    /// The largest share of the photo (percent) the phrase lets the colour cover.
    public var largestCoverage: Double { small ? Self.smallAccentPercent : 100 }

    private static let articles: Set<String> = ["a", "an", "the"]
    /// The words a phrase says besides its colour.
    private static let phraseWords = articles.union(["as", "accent", "small"])

    public init?(parsing text: String) {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let (colourWords, accentOnly, small) = Self.split(words), !colourWords.isEmpty else { return nil }
        // The colour's own words as typed: "rgb(31, 90, 166)" is one colour of three words.
        let colourText = colourWords.joined(separator: " ")
        guard let target = ColourTarget(parsing: colourText) else { return nil }
        self.colourText = colourText
        self.target = target
        self.accentOnly = accentOnly
        self.small = small
    }

    /// The colour's words and what the rest says: "… as [a|an|the] [small] accent", "[a] [small] … accent", or nothing more.
    private static func split(_ words: [String]) -> (colour: [String], accentOnly: Bool, small: Bool)? {
        guard words.last == "accent" else { return words.contains("accent") || words.contains("small") ? nil : (words, false, false) }
        var rest = Array(words.dropLast())
        let small = rest.last == "small"
        if let asIndex = rest.lastIndex(of: "as") {
            var said = Array(rest[(asIndex + 1)...])
            if said.first.map(articles.contains) == true { said.removeFirst() }
            guard said == (small ? ["small"] : []) else { return nil }
            return (Array(rest[..<asIndex]), true, small)
        }
        // "a small orange accent", "orange accent"
        if rest.first.map(articles.contains) == true { rest.removeFirst() }
        let smallFirst = rest.first == "small"
        if smallFirst { rest.removeFirst() }
        return (rest, true, smallFirst)
    }

    /// Why `text` is no colour phrase, in words a person can act on.
    public static func whyNot(_ text: String) -> String {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.contains("accent") || words.contains("as") || words.contains("small") else { return ColourTarget.whyNot(text) }
        let colour = words.prefix { !phraseWords.contains($0) }.joined(separator: " ")
        if !colour.isEmpty, ColourTarget(parsing: colour) == nil { return ColourTarget.whyNot(colour) }
        return "'\(text.prefix(60))' is not a colour search showhide understands: say a colour (orange, #1f5aa6), "
            + "'orange as the accent' or 'orange as a small accent'."
    }
}
