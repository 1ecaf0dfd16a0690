import Foundation

/// Export file names from a template such as `{date}_{name}_{variant}.{ext}`. Field values come from
/// file names and EXIF, which anyone can write: every character that is not safe in a file name is
/// replaced, and no value or template can make an absolute path, a `..`, a hidden file or an empty
/// name. A `/` in the template itself makes folders (`{camera}/{date}_{name}.{ext}`).
public struct FileNameTemplate: Equatable, Sendable {
    public static let standard = "{date}_{name}_{variant}.{ext}"
    public static let fields: Set<String> = ["id", "name", "date", "time", "camera", "colour", "variant", "ext"]
    /// Longest a field's value may be, in characters, and a path component, in UTF-8 bytes (ext4 allows 255).
    static let fieldLimit = 64
    static let componentLimit = 200

    public let text: String
    /// The template read once: literal text and fields, in order.
    private let parts: [Part]

    private enum Part: Equatable, Sendable {
        case literal(String)
        case field(String)
    }

    public init(_ text: String) throws(ExportError) {
        guard !text.isEmpty else { throw .badTemplate(text, "it is empty") }
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { throw .badTemplate(text, "a { is not closed") }
            let field = String(rest[rest.index(after: open)..<close])
            guard Self.fields.contains(field) else {
                throw .badTemplate(text, "{\(field)} is not a field (fields: \(Self.fields.sorted().map { "{\($0)}" }.joined(separator: ", ")))")
            }
            parts += [.literal(String(rest[..<open])), .field(field)]
            rest = rest[rest.index(after: close)...]
        }
        self.text = text
        self.parts = parts + [.literal(String(rest))]
    }

    /// The relative path for these values (keys as in `fields`; `ext` without its dot). Always ends in
    /// `.ext`, and is never empty, absolute or outside the destination.
    public func render(_ values: [String: String]) -> String {
        let rendered = parts.map { part -> String in
            switch part {
            case let .literal(text): return text
            case let .field(field): return Self.safe(values[field] ?? "")
            }
        }.joined()
        let ext = Self.safe(values["ext"] ?? "")
        let suffix = ext.isEmpty ? "" : "." + ext
        var raw = rendered.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // The file's own name is judged without its extension: a name of only ".jpg" is no name.
        var stem = raw.popLast() ?? ""
        if !suffix.isEmpty && stem.hasSuffix(suffix) { stem.removeLast(suffix.count) }
        stem = Self.component(stem)
        if stem.isEmpty { stem = Self.safe("photo-\(values["id"] ?? "")") }
        let folders = raw.map(Self.component).filter { !$0.isEmpty }
        return (folders + [Self.limited(stem + suffix, keeping: suffix)]).joined(separator: "/")
    }

    /// A value with anything but letters, digits, `-`, `_`, `.` and `+` replaced by `_`, runs of `_`
    /// collapsed, and at most `fieldLimit` characters.
    static func safe(_ value: String) -> String {
        String(replacingUnsafe(String(value.prefix(fieldLimit * 4))).prefix(fieldLimit))
    }

    static func replacingUnsafe(_ text: String) -> String {
        var result = ""
        for character in text {
            let next: Character = character.isLetter || character.isNumber || "-_.+".contains(character) ? character : "_"
            if next == "_" && result.last == "_" { continue }
            result.append(next)
        }
        return result
    }

    /// One path component: safe characters, no leading dots (no hidden files, no `.` or `..`), no
    /// leading or trailing `_`.
    static func component(_ text: String) -> String {
        var component = replacingUnsafe(text)
        while component.hasPrefix(".") || component.hasPrefix("_") { component.removeFirst() }
        while component.hasSuffix("_") { component.removeLast() }
        return component
    }

    /// Cut to `componentLimit` UTF-8 bytes, keeping the extension.
    static func limited(_ name: String, keeping suffix: String) -> String {
        guard name.utf8.count > componentLimit else { return name }
        var stem = String(name.dropLast(suffix.count))
        while stem.utf8.count + suffix.utf8.count > componentLimit { stem.removeLast() }
        return stem + suffix
    }

    /// `name` with `_2`, `_3`, … before its extension.
    public static func numbered(_ name: String, _ number: Int) -> String {
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        if let dot = name[slash...].lastIndex(of: "."), dot > slash {
            return String(name[..<dot]) + "_\(number)" + String(name[dot...])
        }
        return name + "_\(number)"
    }
}
