/// The strings of a JSON text (RFC 8259 §7) with where each is written: its value decoded from
/// its escapes (`\u00e9`, `\"`, `\\`, a surrogate pair), the line and column of its opening
/// quote (from 1, in Unicode scalars as an editor counts them), and whether it is a member's
/// name. What a theme's problems quote is a decoded value; this finds where the file writes it,
/// escaped or not.
struct JSONStringTokens {
    struct Token {
        var value: String
        var line: Int
        var column: Int
        var isKey: Bool
    }

    let tokens: [Token]

    init(_ text: String) {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var line = 1
        var column = 1
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                column = 1
                index += 1
                continue
            }
            guard scalar == "\"" else {
                column += 1
                index += 1
                continue
            }
            let (value, end) = Self.string(scalars, from: index + 1)
            var next = end
            while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" || scalars[next] == "\r" {
                next += 1
            }
            tokens.append(
                Token(value: value, line: line, column: column, isKey: next < scalars.count && scalars[next] == ":"))
            // A string holds no line break (RFC 8259 §7: control characters are escaped).
            column += end - index
            index = end
        }
        self.tokens = tokens
    }

    /// The first string whose value is `value`, or that lists it among names parted by commas
    /// (`"Roboto, Inter"`).
    func first(naming value: String) -> Token? {
        tokens.first { $0.value == value }
            ?? tokens.first { token in
                token.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == value }
            }
    }

    /// The string decoded from `scalars[start...]` up to its closing quote, and the index after
    /// that quote (the end of the text when it is not closed).
    private static func string(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int) {
        var value = String.UnicodeScalarView()
        var index = start
        var pendingHigh: UInt32?
        while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n" {
            guard scalars[index] == "\\", index + 1 < scalars.count else {
                value.append(scalars[index])
                index += 1
                continue
            }
            let escaped = scalars[index + 1]
            index += 2
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "b": value.append("\u{8}")
            case "f": value.append("\u{C}")
            case "u":
                let hex = String(String.UnicodeScalarView(scalars[index..<min(index + 4, scalars.count)]))
                index = min(index + 4, scalars.count)
                guard let code = UInt32(hex, radix: 16) else { continue }
                if (0xD800...0xDBFF).contains(code) {
                    pendingHigh = code
                    continue
                }
                if (0xDC00...0xDFFF).contains(code), let high = pendingHigh {
                    let combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    if let scalar = Unicode.Scalar(combined) { value.append(scalar) }
                } else if let scalar = Unicode.Scalar(code) {
                    value.append(scalar)
                }
            default: value.append(escaped)
            }
            pendingHigh = nil
        }
        return (String(value), min(index + 1, scalars.count))
    }
}
