import DocumentModel

/// One piece of an inline sequence while Pandoc syntax is recognised on top of cmark's tree:
/// a byte of text with where it was written, or an already converted inline.
///
/// cmark-gfm leaves `[`, `]{…}` and trailing `{…}` as text (and merges escaped characters into
/// the surrounding text node), so bracketed spans and heading attributes are found on a byte
/// stream of one nesting level. All syntax bytes are ASCII and never split a UTF-8 scalar.
enum InlineToken {
    /// `inert`: written escaped (`\[`) or as an entity (`&#91;`), so never syntax.
    case byte(UInt8, line: Int32, column: Int32, inert: Bool)
    case node(Inline)
}

/// A text piece of an inline sequence before tokenising: cmark's literal and its start.
struct TextPiece {
    var text: String
    var line: Int
    var column: Int
}

enum InlinePiece {
    case text(TextPiece)
    case node(Inline)
}

/// Span and heading-attribute recognition over inline pieces of one nesting level.
struct InlineSyntax {
    let file: String
    /// Source lines as cmark saw them (index = line − 1), to align literals with the source.
    let lines: SourceLines

    /// Longest attribute list looked for after `]` (bounds the work on pathological input).
    static let maxAttributeLength = 2048
    /// Deepest span nesting recognised.
    static let maxSpanDepth = 32

    /// Converts pieces to inlines: heading attributes (when `heading`) and bracketed spans
    /// recognised, adjacent text merged, empty text dropped.
    func finish(_ pieces: [InlinePiece], heading: Bool) -> ([Inline], Attributes?) {
        guard needsTokens(pieces, heading: heading) else { return (Self.merge(pieces), nil) }
        var tokens = tokenize(pieces)
        var attributes: Attributes?
        if heading { attributes = extractTrailingAttributes(&tokens) }
        return (spans(tokens), attributes)
    }

    /// Fast path: only tokenise when a `]` and a `{` occur, or a heading ends with `}`.
    private func needsTokens(_ pieces: [InlinePiece], heading: Bool) -> Bool {
        var close = false, brace = false
        for case .text(let t) in pieces {
            for b in t.text.utf8 {
                if b == UInt8(ascii: "]") { close = true } else if b == UInt8(ascii: "{") { brace = true }
            }
        }
        if close && brace { return true }
        if heading, case .text(let t)? = pieces.last {
            return t.text.utf8.reversed().first(where: { !AttributeListParser.isSpace($0) }) == UInt8(ascii: "}")
        }
        return false
    }

    static func merge(_ pieces: [InlinePiece]) -> [Inline] {
        var result: [Inline] = []
        for piece in pieces {
            switch piece {
            case .text(let t): appendText(t.text, to: &result)
            case .node(.text(let s)): appendText(s, to: &result)
            case .node(let n): result.append(n)
            }
        }
        return result
    }

    static func appendText(_ s: String, to result: inout [Inline]) {
        guard !s.isEmpty else { return }
        if case .text(let previous)? = result.last {
            result[result.count - 1] = .text(previous + s)
        } else {
            result.append(.text(s))
        }
    }

    /// Bytes with source columns, recovered by walking the literal alongside its source line:
    /// `\x` in the source is one escaped byte of the literal, `&…;` an entity.
    func tokenize(_ pieces: [InlinePiece]) -> [InlineToken] {
        var tokens: [InlineToken] = []
        for piece in pieces {
            switch piece {
            case .node(let n): tokens.append(.node(n))
            case .text(let t):
                let literal = Array(t.text.utf8)
                let source: [UInt8] = (t.line >= 1 && t.line <= lines.count) ? lines[t.line - 1] : []
                var s = t.column - 1  // index into source
                var synced = s >= 0
                var k = 0
                while k < literal.count {
                    let b = literal[k]
                    let column = Int32(max(s + 1, 1))
                    if synced, s < source.count, source[s] == b {
                        tokens.append(.byte(b, line: Int32(t.line), column: column, inert: false))
                        s += 1; k += 1
                    } else if synced, s + 1 < source.count, source[s] == UInt8(ascii: "\\"), source[s + 1] == b {
                        tokens.append(.byte(b, line: Int32(t.line), column: column, inert: true))
                        s += 2; k += 1
                    } else if synced, s < source.count, source[s] == UInt8(ascii: "&"),
                              let semicolon = source[s...].prefix(40).firstIndex(of: UInt8(ascii: ";")) {
                        // An entity decodes to one scalar (rarely two): mark that scalar inert.
                        let scalarLength = Self.utf8Length(leading: b)
                        for j in k..<min(k + scalarLength, literal.count) {
                            tokens.append(.byte(literal[j], line: Int32(t.line), column: column, inert: true))
                        }
                        k += scalarLength
                        s = semicolon + 1
                    } else {
                        // Lost the alignment (tabs, extension rewrites): keep the line, stop columns.
                        synced = false
                        tokens.append(.byte(b, line: Int32(t.line), column: column, inert: false))
                        k += 1
                    }
                }
            }
        }
        return tokens
    }

    static func utf8Length(leading b: UInt8) -> Int {
        switch b {
        case 0..<0x80: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0...: 4
        default: 1
        }
    }

    func location(_ token: InlineToken) -> SourceLocation? {
        guard case .byte(_, let line, let column, _) = token, line > 0 else { return nil }
        return SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    /// Bytes of the run of byte tokens starting at `start`, at most `limit` long.
    private func bytes(_ tokens: [InlineToken], from start: Int, limit: Int) -> [UInt8] {
        var result: [UInt8] = []
        var i = start
        while i < tokens.count, result.count < limit, case .byte(let b, _, _, _) = tokens[i] {
            result.append(b); i += 1
        }
        return result
    }

    /// Removes a trailing `{…}` (Pandoc heading attributes) and the spaces before it.
    func extractTrailingAttributes(_ tokens: inout [InlineToken]) -> Attributes? {
        var end = tokens.count
        while end > 0, case .byte(let b, _, _, _) = tokens[end - 1], AttributeListParser.isSpace(b) { end -= 1 }
        guard end > 0, case .byte(UInt8(ascii: "}"), _, _, _) = tokens[end - 1] else { return nil }
        // Try each `{` from the right: quoted values may hold braces.
        var k = end - 1
        while k > 0, end - k < Self.maxAttributeLength {
            k -= 1
            guard case .byte(let b, _, _, let inert) = tokens[k] else { return nil }
            guard b == UInt8(ascii: "{"), !inert else { continue }
            let candidate = bytes(tokens, from: k, limit: end - k)
            guard let parsed = AttributeListParser.parse(candidate), parsed.end == candidate.count else { continue }
            let attributes = parsed.attributes { [tokens] offset in location(tokens[k + offset]) }
            tokens.removeSubrange(k...)
            while case .byte(let b, _, _, _)? = tokens.last, AttributeListParser.isSpace(b) { tokens.removeLast() }
            return attributes
        }
        return nil
    }

    /// Recognises `[…]{attributes}` at this level (nesting with a stack of openers; brackets
    /// must balance, as in Pandoc) and returns the merged inlines.
    func spans(_ tokens: [InlineToken]) -> [Inline] {
        var output: [InlineToken] = []
        var openers: [Int] = []
        // Brackets beyond the nesting limit stay literal (balanced by `ignored`), so span
        // nesting, and the recursion over it later, stays bounded.
        var ignored = 0
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if case .byte(let b, _, _, false) = token {
                if b == UInt8(ascii: "[") {
                    if openers.count < Self.maxSpanDepth { openers.append(output.count) } else { ignored += 1 }
                } else if b == UInt8(ascii: "]"), ignored > 0 {
                    ignored -= 1
                } else if b == UInt8(ascii: "]"), let opener = openers.popLast() {
                    if i + 1 < tokens.count, case .byte(UInt8(ascii: "{"), _, _, false) = tokens[i + 1] {
                        let candidate = bytes(tokens, from: i + 1, limit: Self.maxAttributeLength)
                        if let parsed = AttributeListParser.parse(candidate) {
                            let base = i + 1
                            let attributes = parsed.attributes { offset in location(tokens[base + offset]) }
                            let children = Self.inlines(output[(opener + 1)...])
                            output.removeSubrange(opener...)
                            output.append(.node(.span(attributes, children)))
                            i = base + parsed.end
                            continue
                        }
                    }
                }
            }
            output.append(token)
            i += 1
        }
        return Self.inlines(output[...])
    }

    /// Tokens back to inlines: byte runs become merged text.
    static func inlines(_ tokens: ArraySlice<InlineToken>) -> [Inline] {
        var result: [Inline] = []
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { appendText(String(decoding: run, as: UTF8.self), to: &result); run.removeAll() }
        }
        for token in tokens {
            switch token {
            case .byte(let b, _, _, _): run.append(b)
            case .node(.text(let s)): flush(); appendText(s, to: &result)
            case .node(let n): flush(); result.append(n)
            }
        }
        flush()
        return result
    }
}
