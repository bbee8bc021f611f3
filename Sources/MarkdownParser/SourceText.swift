import DocumentModel

/// A Pandoc fenced-div fence line (`::: {.note}`, `::: note`, `:::`) found by the pre-pass.
struct DivFence {
    enum Kind { case open(Attributes), close }
    var kind: Kind
    var location: SourceLocation
    /// The fence as written, after any container prefix: restored when the marker that replaced
    /// it does not end up as an HTML block of its own (inside code, a paragraph, an HTML block).
    var original: String
}

/// The source prepared for cmark-gfm, line for line with the original so that every line number
/// cmark reports is a line number of the file.
///
/// - YAML front matter lines are blanked (their text is returned separately).
/// - Each div fence line keeps its container prefix (`> `, indentation) and has the fence
///   replaced by a one-line HTML comment marker, `<!--typeset-div:N-->`. CommonMark HTML
///   blocks of type 2 start with `<!--`, may interrupt a paragraph and end on the line holding
///   `-->` (CommonMark spec 0.30, §4.6), so each marker becomes its own `html_block` node in
///   whatever container the fence was written in. The converter rebuilds the nesting from them.
///   Fenced code is not skipped here on purpose: a marker that lands in code, in a paragraph
///   or inside another HTML block is put back verbatim, which is always correct, whereas a
///   line-based guess of code fences inside containers is not.
struct SourceText {
    /// The text given to cmark-gfm.
    var cmarkInput: [UInt8]
    /// `cmarkInput` split at `\n` (index = line − 1): for labels and escapes at a position.
    var lines: [[UInt8]]
    /// Div fences by marker number.
    var fences: [Int: DivFence] = [:]
    /// The marker comment's name, made unique against the input.
    var markerName: String
    /// The front matter text between the fences and the source line of its first line.
    var frontMatter: (text: [UInt8], firstLine: Int)?

    init(_ text: String, file: String) {
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        if lines.isEmpty { lines = [[]] }

        var name = "typeset-div"
        while text.contains(name) { name += "x" }
        markerName = name

        // Front matter: `---` on the first line, not followed by a blank line (Pandoc's rule, so
        // a document opening with a thematic break is not swallowed), up to a `---`/`...` line.
        var bodyStart = 0
        if Self.trimmed(lines[0]) == Array("---".utf8), lines.count > 1, !Self.trimmed(lines[1]).isEmpty {
            if let close = lines.indices.dropFirst().first(where: {
                let t = Self.trimmed(lines[$0]); return t == Array("---".utf8) || t == Array("...".utf8)
            }) {
                let yaml = lines[1..<close].joined(separator: [0x0A])
                frontMatter = (Array(yaml), 2)
                for i in 0...close { lines[i] = [] }
                bodyStart = close + 1
            }
        }

        var count = 0
        for index in bodyStart..<lines.count {
            guard let (prefixLength, fence) = Self.divFence(lines[index], line: index + 1, file: file) else { continue }
            count += 1
            fences[count] = fence
            lines[index] = Array(lines[index][0..<prefixLength]) + Array("<!--\(name):\(count)-->".utf8)
        }
        self.lines = lines
        cmarkInput = Array(lines.joined(separator: [0x0A]))
    }

    /// The marker number if `text` (an HTML block or inline literal) is exactly one marker.
    func markerNumber(in text: String) -> Int? {
        var t = Substring(text)
        while let c = t.first, c.isWhitespace { t.removeFirst() }
        while let c = t.last, c.isWhitespace { t.removeLast() }
        let head = "<!--\(markerName):"
        guard t.hasPrefix(head), t.hasSuffix("-->") else { return nil }
        let digits = t.dropFirst(head.count).dropLast(3)
        guard let n = Int(digits), fences[n] != nil else { return nil }
        return n
    }

    /// `text` with every marker replaced by the fence it stands for.
    func restoringFences(in text: String) -> String {
        guard !fences.isEmpty, text.contains("<!--\(markerName):") else { return text }
        var result = text
        for (n, fence) in fences {
            result = result.replacingAll("<!--\(markerName):\(n)-->", with: fence.original)
        }
        return result
    }

    /// Recognises a fence line: optional container prefix (spaces, tabs, `>`), 3+ colons,
    /// then nothing (close), a word (`::: note`) or an attribute list, optionally followed by
    /// more colons (Pandoc allows `::: note :::`). Returns the prefix length and the fence.
    static func divFence(_ line: [UInt8], line number: Int, file: String) -> (Int, DivFence)? {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 || line[i] == UInt8(ascii: ">") { i += 1 }
        let prefix = i
        var colons = 0
        while i < line.count, line[i] == UInt8(ascii: ":") { i += 1; colons += 1 }
        guard colons >= 3 else { return nil }
        var rest = Array(line[i...])
        let restStart = i
        let original = String(decoding: trimmedEnd(Array(line[prefix...])), as: UTF8.self)
        let location = SourceLocation(file: file, line: number, column: prefix + 1)
        // Leading whitespace of `rest`.
        var lead = 0
        while lead < rest.count, rest[lead] == 0x20 || rest[lead] == 0x09 { lead += 1 }
        rest = trimmedEnd(rest)
        while let last = rest.last, last == UInt8(ascii: ":") { rest.removeLast() }
        rest = trimmedEnd(rest)
        if rest.count <= lead {
            // Only colons: a closing fence (trailing colons of an opening one need a name).
            return (prefix, DivFence(kind: .close, location: location, original: original))
        }
        let body = Array(rest[lead...])
        let bodyColumn = restStart + lead + 1  // 1-based column of body[0]
        if body.first == UInt8(ascii: "{") {
            guard let parsed = AttributeListParser.parse(body), parsed.end == body.count else { return nil }
            let attributes = parsed.attributes { offset in
                SourceLocation(file: file, line: number, column: bodyColumn + offset)
            }
            return (prefix, DivFence(kind: .open(attributes), location: location, original: original))
        }
        // `::: name`: one word, used as a class.
        guard body.allSatisfy({ AttributeListParser.isNameByte($0) && $0 != UInt8(ascii: ":") }) else { return nil }
        let word = String(decoding: body, as: UTF8.self)
        let attributes = Attributes(
            classes: [word], location: SourceLocation(file: file, line: number, column: bodyColumn))
        return (prefix, DivFence(kind: .open(attributes), location: location, original: original))
    }

    static func trimmed(_ b: [UInt8]) -> [UInt8] { trimmedEnd(b) }

    static func trimmedEnd(_ b: [UInt8]) -> [UInt8] {
        var end = b.count
        while end > 0, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
        return Array(b[0..<end])
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation in this module).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
