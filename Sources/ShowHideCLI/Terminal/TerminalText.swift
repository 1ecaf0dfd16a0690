import Foundation

/// Text on its way to a terminal. Every control character in it (a file name's ESC or newline, a
/// hostile EXIF string's) is shown escaped (`\e`, `\n`, `\x07`); only the styles showhide itself
/// asks for, marked with a key no file name can know, become ANSI sequences.
struct TerminalText {
    /// Starts and ends a style mark: `start key code end`.
    static let markStart: Character = "\u{E000}"
    static let markEnd: Character = "\u{E001}"

    /// Random for each console: text from outside cannot forge a mark.
    let key: String

    init(key: String = String(UInt64.random(in: .min ... .max), radix: 36)) {
        self.key = key
    }

    /// A mark for the SGR code `code` ("1" bold, "0" reset, "48;2;r;g;b" a background).
    func mark(_ code: String) -> String {
        "\(Self.markStart)\(key)\(code)\(Self.markEnd)"
    }

    /// `text` as the terminal should receive it: control characters escaped, marks made ANSI.
    func rendered(_ text: String) -> String {
        var result = ""
        var rest = Substring(Self.escaped(text))
        let prefix = "\(Self.markStart)\(key)"
        while let start = rest.range(of: prefix) {
            result += rest[..<start.lowerBound]
            let afterKey = rest[start.upperBound...]
            guard let end = afterKey.firstIndex(of: Self.markEnd) else { break }
            result += "\u{1B}[" + afterKey[..<end] + "m"
            rest = afterKey[afterKey.index(after: end)...]
        }
        return result + rest
    }

    /// Control characters (C0, DEL, C1) written out: `\e`, `\n`, `\r`, `\t`, else `\xNN`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            let written: String = switch scalar {
            case "\u{1B}": "\\e"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: String(format: "\\x%02X", scalar.value)
            }
            result.append(contentsOf: written.unicodeScalars)
        }
        return String(result)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The columns `text` takes once rendered: escapes counted as written, marks as nothing.
    static func width(_ text: String) -> Int {
        var width = 0
        var inMark = false
        for character in escaped(text) {
            if character == markStart { inMark = true } else if character == markEnd { inMark = false } else if !inMark { width += 1 }
        }
        return width
    }

    /// `text` cut to `width` columns by dropping its middle: "IMG_2024…0001.jpg".
    static func elided(_ text: String, to width: Int) -> String {
        let text = escaped(text)
        guard text.count > width, width >= 3 else { return text }
        let tail = (width - 1) / 2, head = width - 1 - tail
        return text.prefix(head) + "…" + text.suffix(tail)
    }

    /// `text` broken into lines of at most `width` columns, between words where it can be.
    static func wrapped(_ text: String, to width: Int) -> [String] {
        guard width > 0, Self.width(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            // A word holding a style mark (a swatch) is never cut: it would cut the mark.
            while Self.width(word) > width && !word.contains(Self.markStart) {
                if !line.isEmpty { lines.append(line); line = "" }
                let cut = escaped(word)
                lines.append(String(cut.prefix(width)))
                word = String(cut.dropFirst(width))
            }
            if line.isEmpty { line = word } else if Self.width(line) + 1 + Self.width(word) <= width { line += " " + word } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
