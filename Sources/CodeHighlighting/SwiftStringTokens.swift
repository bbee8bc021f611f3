import Typography

/// Corrections to the tokens KSyntaxHighlighting 5.103's Swift definition gives the inside of
/// a string. The definition knows the escapes `\0 \\ \t \n \r \" \'` and marks every other
/// backslash as an error, so valid Swift was drawn in the error colour: an interpolation
/// `\(name)`, a Unicode scalar `\u{1F600}` (The Swift Programming Language, "Strings and
/// Characters": "Special Characters in String Literals", "String Interpolation"), and any
/// backslash inside a raw string `#"…"#`, where it is a character like any other
/// ("Extended String Delimiters"). Here:
/// - `\(` and the `)` that closes it are escapes, and the expression between them is set in
///   the text colour, as code inside the string;
/// - `\u{…}` (one to eight hexadecimal digits) is one escape;
/// - a backslash in a string opened by `#"` is part of the string;
/// - any other backslash the definition marks stays an error (`\q` is not Swift).
enum SwiftStringTokens {
    /// `spans` (the Swift definition's tokens of `bytes`, in order) corrected as above.
    static func corrected(_ spans: [TokenSpan], in bytes: [UInt8]) -> [TokenSpan] {
        guard spans.contains(where: { $0.token == .error }) else { return spans }
        var out: [TokenSpan] = []
        out.reserveCapacity(spans.count + 4)
        // Bytes before this are covered by `out`; spans starting before it are cut there.
        var covered = 0
        for (index, span) in spans.enumerated() {
            var span = span
            if span.start < covered {
                guard span.range.upperBound > covered else { continue }
                span = TokenSpan(start: covered, length: span.range.upperBound - covered, token: span.token)
            }
            guard span.token == .error, span.length == 2, bytes[span.start] == UInt8(ascii: "\\"),
                isInString(at: index, of: spans)
            else {
                out.append(span)
                continue
            }
            let next = bytes[span.start + 1]
            if opensRawString(at: index, of: spans, in: bytes) {
                out.append(TokenSpan(start: span.start, length: span.length, token: .string))
            } else if next == UInt8(ascii: "("), let close = closingParenthesis(after: span.range.upperBound, in: bytes)
            {
                out.append(TokenSpan(start: span.start, length: 2, token: .escape))
                out.append(TokenSpan(start: close, length: 1, token: .escape))
                covered = close + 1
            } else if next == UInt8(ascii: "u"), let end = scalarEnd(after: span.range.upperBound, in: bytes) {
                out.append(TokenSpan(start: span.start, length: end - span.start, token: .escape))
                covered = end
            } else {
                out.append(span)
            }
        }
        return out
    }

    /// Whether the span at `index` stands between two parts of a string (the spans beside it
    /// touch it and are strings).
    private static func isInString(at index: Int, of spans: [TokenSpan]) -> Bool {
        guard index > 0, index + 1 < spans.count else { return false }
        let before = spans[index - 1]
        let after = spans[index + 1]
        return before.token == .string && before.range.upperBound == spans[index].start && after.token == .string
            && after.start == spans[index].range.upperBound
    }

    /// Whether the string the span at `index` stands in was opened by `#"`: the first of the
    /// string spans touching one another before it starts right after a `#`.
    private static func opensRawString(at index: Int, of spans: [TokenSpan], in bytes: [UInt8]) -> Bool {
        var first = index
        while first > 0, spans[first - 1].range.upperBound == spans[first].start,
            spans[first - 1].token == .string || spans[first - 1].token == .error
        {
            first -= 1
        }
        let start = spans[first].start
        return start > 0 && bytes[start - 1] == UInt8(ascii: "#")
    }

    /// The offset of the `)` that closes an interpolation whose expression starts at `start`,
    /// on the same line; nil when the line has none.
    private static func closingParenthesis(after start: Int, in bytes: [UInt8]) -> Int? {
        var depth = 0
        var offset = start
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") {
            switch bytes[offset] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                if depth == 0 { return offset }
                depth -= 1
            default: break
            }
            offset += 1
        }
        return nil
    }

    /// The offset after the `}` of a Unicode scalar's `{…}` (one to eight hexadecimal digits)
    /// that starts at `start`; nil when none does.
    private static func scalarEnd(after start: Int, in bytes: [UInt8]) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var offset = start + 1
        while offset < bytes.count, offset - start <= 8, isHexDigit(bytes[offset]) { offset += 1 }
        guard offset > start + 1, offset < bytes.count, bytes[offset] == UInt8(ascii: "}") else { return nil }
        return offset + 1
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
