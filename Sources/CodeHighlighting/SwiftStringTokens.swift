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
        let spans = withRawStrings(spans, in: bytes)
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

    /// `spans` with each raw string (`#"…"#`, `##"…"##`, `#"""…"""#`) tokenized as Swift reads
    /// it: all string, its backslashes characters like any other, but for its delimiter's escapes,
    /// a backslash followed by as many `#` as open it: `\#(…)` an interpolation (the backslash,
    /// hashes and parentheses escapes, the expression between them in the text colour), `\#n`,
    /// `\#t` and the other escapes, `\#u{…}`. The definition read `\t` in `#"C:\temp"#` as an
    /// escape and `\(x)` as an interpolation, and `\#(name)` as string.
    static func withRawStrings(_ spans: [TokenSpan], in bytes: [UInt8]) -> [TokenSpan] {
        let raws = rawStrings(spans, in: bytes)
        guard !raws.isEmpty else { return spans }
        var out: [TokenSpan] = []
        var raw = 0
        var position = 0
        func emitRaw(_ region: (range: Range<Int>, hashes: Int)) {
            out += rawStringTokens(region.range, hashes: region.hashes, in: bytes)
            position = region.range.upperBound
        }
        for span in spans {
            // Raw strings that begin before this span.
            while raw < raws.count, raws[raw].range.lowerBound <= span.start {
                if let last = out.last, last.range.upperBound > raws[raw].range.lowerBound {
                    out[out.count - 1].length = raws[raw].range.lowerBound - last.start
                    if out[out.count - 1].length <= 0 { out.removeLast() }
                }
                emitRaw(raws[raw])
                raw += 1
            }
            let start = max(span.start, position)
            var end = span.range.upperBound
            if raw < raws.count { end = min(end, max(start, raws[raw].range.lowerBound)) }
            guard start < end else { continue }
            out.append(TokenSpan(start: start, length: end - start, token: span.token))
        }
        while raw < raws.count {
            emitRaw(raws[raw])
            raw += 1
        }
        return out
    }

    /// The raw strings of `bytes`: each `#`s, quotes (one or three) and the same back, the quote
    /// standing where the definition found a string; with the number of `#`s.
    private static func rawStrings(_ spans: [TokenSpan], in bytes: [UInt8]) -> [(range: Range<Int>, hashes: Int)] {
        let hash = UInt8(ascii: "#")
        let quote = UInt8(ascii: "\"")
        guard bytes.contains(hash) else { return [] }
        var found: [(range: Range<Int>, hashes: Int)] = []
        var spanIndex = 0
        func isString(_ offset: Int) -> Bool {
            while spanIndex < spans.count, spans[spanIndex].range.upperBound <= offset { spanIndex += 1 }
            return spanIndex < spans.count && spans[spanIndex].range.contains(offset)
                && spans[spanIndex].token != .comment
        }
        var index = 0
        while index < bytes.count {
            guard bytes[index] == hash, index == 0 || bytes[index - 1] != hash else {
                index += 1
                continue
            }
            let hashes = bytes[index...].prefix { $0 == hash }.count
            let open = index + hashes
            guard open < bytes.count, bytes[open] == quote, isString(open) else {
                index = open
                continue
            }
            let quotes = bytes[open...].prefix(3).allSatisfy { $0 == quote } && open + 2 < bytes.count ? 3 : 1
            let closing = [UInt8](repeating: quote, count: quotes) + [UInt8](repeating: hash, count: hashes)
            var end: Int?
            var search = open + quotes
            while search + closing.count <= bytes.count {
                if bytes[search] == quote, bytes[search..<(search + closing.count)].elementsEqual(closing) {
                    end = search + closing.count
                    break
                }
                // A one-quote raw string ends at its line.
                if quotes == 1, bytes[search] == UInt8(ascii: "\n") { break }
                search += 1
            }
            guard let end else {
                index = open + quotes
                continue
            }
            found.append((index..<end, hashes))
            index = end
        }
        return found
    }

    /// The tokens of the raw string `range` of `bytes` opened by `hashes` `#`s
    /// (``withRawStrings(_:in:)``).
    private static func rawStringTokens(_ range: Range<Int>, hashes: Int, in bytes: [UInt8]) -> [TokenSpan] {
        var tokens: [TokenSpan] = []
        var stringStart = range.lowerBound
        func string(to end: Int) {
            if end > stringStart {
                tokens.append(TokenSpan(start: stringStart, length: end - stringStart, token: .string))
            }
        }
        var index = range.lowerBound + hashes + 1
        while index < range.upperBound - hashes - 1 {
            let delimiter = index + 1 + hashes
            guard bytes[index] == UInt8(ascii: "\\"), delimiter < range.upperBound,
                bytes[(index + 1)..<delimiter].allSatisfy({ $0 == UInt8(ascii: "#") })
            else {
                index += 1
                continue
            }
            let next = bytes[delimiter]
            if next == UInt8(ascii: "("), let close = closingParenthesis(after: delimiter + 1, in: bytes),
                close < range.upperBound
            {
                string(to: index)
                tokens.append(TokenSpan(start: index, length: delimiter + 1 - index, token: .escape))
                tokens.append(TokenSpan(start: close, length: 1, token: .escape))
                index = close + 1
            } else if next == UInt8(ascii: "u"), let end = scalarEnd(after: delimiter + 1, in: bytes) {
                string(to: index)
                tokens.append(TokenSpan(start: index, length: end - index, token: .escape))
                index = end
            } else if Array("0\\tnr\"'".utf8).contains(next) {
                string(to: index)
                tokens.append(TokenSpan(start: index, length: delimiter + 1 - index, token: .escape))
                index = delimiter + 1
            } else {
                index += 1
                continue
            }
            stringStart = index
        }
        string(to: range.upperBound)
        return tokens
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
