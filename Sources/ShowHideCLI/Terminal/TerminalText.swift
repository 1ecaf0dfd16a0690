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

    /// Control characters (C0, DEL, C1) written out: `\e`, `\n`, `\r`, `\t`, else `\xNN`; and the
    /// bidirectional embeddings, overrides and isolates (`\u{202E}`), which make `bidi\u{202E}gpj.exe` read as
    /// `bidiexe.jpg` and turn a table's columns around (a direction mark alone moves no text: it stays).
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
            default: scalar.value > 0xFF ? String(format: "\\u{%04X}", scalar.value) : String(format: "\\x%02X", scalar.value)
            }
            result.append(contentsOf: written.unicodeScalars)
        }
        return String(result)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// The columns `text` takes once rendered: escapes counted as written, marks as nothing, a wide
    /// character (an emoji, a CJK ideograph) as two.
    static func width(_ text: String) -> Int {
        var width = 0
        var inMark = false
        for character in escaped(text) {
            if character == markStart { inMark = true } else if character == markEnd { inMark = false } else if !inMark {
                width += columns(of: character)
            }
        }
        return width
    }

    /// The columns a character takes in a terminal: none for a format character or a combining mark
    /// standing alone (a zero-width space, a direction mark); two for emoji shown as pictures (`1️⃣` too)
    /// and for the East Asian wide and full-width blocks (Unicode's East_Asian_Width W and F, by their
    /// main ranges); else one.
    static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        guard first.value >= 0x300 else { return 1 }
        switch first.properties.generalCategory {
        case .format, .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        guard first.value >= 0x1100 else { return 1 }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to `width` columns by dropping its middle: "IMG_2024…0001.jpg". A path keeps its file's
    /// name whole when that leaves a column of the folders: "/h…/truncated-trunc50.png", not "/home/me/…runc50.png".
    static func elided(_ text: String, to width: Int) -> String {
        let text = escaped(text)
        guard Self.width(text) > width, width >= 3 else { return text }
        var tail = (width - 1) / 2
        if let slash = text.lastIndex(of: "/") {
            let name = Self.width(String(text[slash...]))
            if name > tail && name <= width - 2 { tail = name }
        }
        let head = width - 1 - tail
        return String(leading(text, columns: head)) + "…" + String(leading(String(text.reversed()), columns: tail).reversed())
    }

    /// The longest start of `text` that takes at most `columns` columns.
    static func leading(_ text: String, columns: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            used += Self.columns(of: text[index])
            guard used <= columns else { break }
            end = text.index(after: index)
        }
        return text[..<end]
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
                let piece = leading(cut, columns: max(width, columns(of: cut.first!)))
                lines.append(String(piece))
                word = String(cut[piece.endIndex...])
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
