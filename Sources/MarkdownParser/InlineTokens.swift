import DocumentModel

/// One piece of an inline sequence while Pandoc syntax is recognised on top of cmark's tree:
/// a byte of text with where it was written, or an already converted inline.
///
/// cmark-gfm leaves `[`, `]{…}` and trailing `{…}` as text and has already resolved code spans,
/// links, autolinks and raw HTML into nodes, so bracketed spans and attribute lists are found on
/// a byte stream of one nesting level of cmark's tree: nothing inside a code span or a link
/// destination can ever be read as syntax. cmark merges escaped characters and decoded entities
/// into the surrounding text node (`cmark_consolidate_text_nodes`), so each text literal is
/// walked alongside its source line with CommonMark's own rules (spec 0.31.2 §2.4 backslash
/// escapes, §2.5 entity and numeric character references) to mark the bytes written escaped or
/// as a reference: those are text, never syntax. All syntax bytes are ASCII and never split a
/// UTF-8 scalar.
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

/// Decodes entity and numeric character references exactly as cmark-gfm does, by asking cmark
/// (one tiny parse per distinct reference, cached per document).
final class EntityCache {
    private var decoded: [[UInt8]: [UInt8]] = [:]

    /// The bytes cmark makes of `reference` (`&amp;`, `&#123;`); the reference itself when
    /// cmark does not know it (an unknown name stays text).
    func decode(_ reference: [UInt8]) -> [UInt8] {
        if let known = decoded[reference] { return known }
        let result = CmarkTree.inlineText(of: reference) ?? reference
        decoded[reference] = result
        return result
    }
}

/// Span and attribute recognition over inline pieces of one nesting level.
struct InlineSyntax {
    let file: String
    /// Source lines as cmark saw them (index = line − 1), to align literals with the source.
    let lines: SourceLines
    /// Whether punctuation smart punctuation would change is kept as written where it is
    /// escaped or a character reference (``KeptPunctuation``): true when the document has smart
    /// punctuation on.
    var keepsEscapedPunctuation = false
    let entities = EntityCache()
    /// The source line last copied (``sourceLine(_:)``).
    let lastLine = LastLine()

    /// The line copied last, by number: the pieces of a paragraph on one long line, met in one
    /// nesting level after another (each emphasis its own), share one copy of it.
    final class LastLine {
        var number = -1
        var bytes: [UInt8] = []
    }

    /// Source line `number` (1-based) as cmark saw it, empty past the lines; the last one asked
    /// for is kept, so a long line is copied once for all the pieces on it.
    func sourceLine(_ number: Int) -> [UInt8] {
        if lastLine.number != number {
            lastLine.number = number
            lastLine.bytes = number >= 1 && number <= lines.count ? lines[number - 1] : []
        }
        return lastLine.bytes
    }

    /// Longest attribute list looked for after `]`, a link, an image or a code span (bounds the
    /// work on pathological input: each attempt reads at most this many bytes).
    static let maxAttributeLength = 2048
    /// Farthest a text node's source column is looked for from the column cmark reports.
    static let maxColumnShift = 128
    /// Deepest span nesting recognised.
    static let maxSpanDepth = 32

    /// Converts pieces to inlines: bracketed spans, attributes on links, images and code spans,
    /// raw inlines (`` `x`{=latex} ``, dropped) and, when `heading`, the heading's trailing
    /// attribute list (and the closing `#`s before it) recognised; adjacent text merged, empty
    /// text dropped.
    func finish(_ pieces: [InlinePiece], heading: Bool) -> Finished {
        let undefinedNotes = undefinedNotes(in: pieces)
        guard needsTokens(pieces, heading: heading) else {
            var finished = Finished(inlines: Self.merge(keepsEscapedPunctuation ? pieces.map(keepingEscapes) : pieces))
            finished.found.undefinedNotes = undefinedNotes
            return finished
        }
        var found = Found(undefinedNotes: undefinedNotes)
        var tokens = latexCommands(superscripts(spans(escapedSpaces(tokenize(pieces)), found: &found)), found: &found)
        // A `^[` left is a note never closed — unless a superscript took its `^` (`^[^`).
        for index in tokens.indices.dropFirst() {
            if case .byte(UInt8(ascii: "["), _, _, false) = tokens[index], let note = noteOpened(tokens, at: index) {
                let column = lines.sourceColumn(line: Int(note.line) - 1, column: Int(note.column))
                found.unclosedNotes.append(SourceLocation(file: file, line: Int(note.line), column: column))
            }
        }
        var attributes: Attributes?
        if heading {
            attributes = extractTrailingAttributes(&tokens)
            if attributes != nil { removeClosingHashes(&tokens) }
        }
        return Finished(inlines: inlines(tokens[...]), attributes: attributes, found: found)
    }

    /// One nesting level's inlines with the Pandoc syntax recognised in them.
    struct Finished {
        var inlines: [Inline]
        /// A heading's trailing attribute list.
        var attributes: Attributes? = nil
        /// The notes and references found on the way (``spans(_:found:)``).
        var found = Found()
    }

    /// What ``spans(_:found:)`` finds beside the spans.
    struct Found {
        /// The inline notes `^[…]`, in order: each stands in the inlines as a reference
        /// labelled ``InlineNote/label(line:column:)`` with number 0, for the converter to number.
        var notes: [InlineNote] = []
        /// Where each `^[` with no closing `]` is written (set as text).
        var unclosedNotes: [SourceLocation] = []
        /// Each reference link `[text][label]` or `[label][]` whose label no definition names
        /// (cmark-gfm sets it as text): as written, and where its `[` is.
        var unresolvedReferences: [(written: String, location: SourceLocation?)] = []
        /// Each footnote reference `[^label]` no definition names (cmark-gfm sets it as text):
        /// as written, and where its `[` is. Brackets written escaped (`\[^x\]`) make none.
        var undefinedNotes: [(written: String, location: SourceLocation?)] = []
        /// Each raw LaTeX command with a braced argument that is not one of
        /// ``LaTeXTextCommands``' (`\cite{key}`), left as written.
        var latexCommands: [(name: String, location: SourceLocation?)] = []
        /// Each raw inline for a format other than HTML and TeX (`` `x`{=openxml} ``), left
        /// out: its format and where its `{` is.
        var rawFormats: [(format: String, location: SourceLocation?)] = []
    }

    /// Pandoc's inline note (Pandoc manual, "Extension: inline_notes"): `^[` … `]`, brackets
    /// balanced, its text the note's paragraph.
    struct InlineNote {
        /// The label its reference and its definition share: made of where its `^` is written,
        /// which no written label `[^…]` can be (a label holds no `[`).
        var label: String
        var content: [Inline]
        var location: SourceLocation?

        /// The label of the note whose `^` is written at `line` and `column` (1-based).
        static func label(line: Int32, column: Int32) -> String { "^[\(line):\(column)" }

        /// Whether `label` is an inline note's.
        static func isLabel(_ label: String) -> Bool { label.hasPrefix("^[") }

        /// Where the `^` of the note labelled `label` is written in `file`; nil for another label.
        static func place(ofLabel label: String, in file: String) -> SourceLocation? {
            guard isLabel(label) else { return nil }
            let numbers = label.dropFirst(2).split(separator: ":").compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            return SourceLocation(file: file, line: numbers[0], column: numbers[1])
        }
    }

    /// The footnote references `[^label]` left as text in `pieces` (a label of 1 to 100 bytes
    /// with no space), each at its `[`: only brackets and a caret written as themselves make
    /// one. The pieces are tokenised only when a text holds `[^`.
    private func undefinedNotes(in pieces: [InlinePiece]) -> [(written: String, location: SourceLocation?)] {
        let holdsOne = pieces.contains { piece in
            guard case .text(let textPiece) = piece, textPiece.text.containsUTF8Byte(UInt8(ascii: "^")) else {
                return false
            }
            return textPiece.text.withUTF8Bytes { bytes in
                bytes.indices.dropFirst().contains {
                    bytes[$0 - 1] == UInt8(ascii: "[") && bytes[$0] == UInt8(ascii: "^")
                }
            }
        }
        guard holdsOne else { return [] }
        let tokens = tokenize(pieces)
        var found: [(written: String, location: SourceLocation?)] = []
        var index = 0
        while index + 3 < tokens.count {
            defer { index += 1 }
            guard case .byte(UInt8(ascii: "["), _, _, false) = tokens[index],
                case .byte(UInt8(ascii: "^"), _, _, false) = tokens[index + 1]
            else { continue }
            var label: [UInt8] = []
            var end = index + 2
            while end < tokens.count, label.count <= 100, case .byte(let byte, _, _, let inert) = tokens[end],
                byte != 0x20, byte != 0x09, inert || byte != UInt8(ascii: "]")
            {
                label.append(byte)
                end += 1
            }
            guard !label.isEmpty, label.count <= 100, end < tokens.count,
                case .byte(UInt8(ascii: "]"), _, _, false) = tokens[end]
            else { continue }
            found.append(("[^" + String(decoding: label, as: UTF8.self) + "]", location(tokens[index])))
            index = end
        }
        return found
    }

    /// Fast path: only tokenise when some text holds a `{`, and a `]` or a node that takes
    /// attributes occurs, or a heading ends with `}`, or the text holds `^[` (an inline note) or
    /// `][` (a reference link cmark-gfm may have left as text).
    private func needsTokens(_ pieces: [InlinePiece], heading: Bool) -> Bool {
        var close = false
        var brace = false
        var carets = 0
        var bracketPair = false
        // A backslash before a letter: a LaTeX command, with an argument in braces or none.
        var command = false
        // A backslash before a space: a no-break space.
        var escapedSpace = false
        // The byte before, across text pieces: cmark-gfm ends a text node before a `[`.
        var previous: UInt8 = 0
        for piece in pieces {
            switch piece {
            case .text(let textPiece):
                textPiece.text.withUTF8Bytes { bytes in
                    for byte in bytes {
                        if byte == UInt8(ascii: "]") {
                            close = true
                        } else if byte == UInt8(ascii: "{") {
                            brace = true
                        } else if byte == UInt8(ascii: "^") {
                            carets += 1
                        } else if byte == UInt8(ascii: "["),
                            previous == UInt8(ascii: "^") || previous == UInt8(ascii: "]")
                        {
                            bracketPair = true
                        } else if previous == UInt8(ascii: "\\"), LaTeXTextCommands.isLetter(byte) {
                            command = true
                        } else if previous == UInt8(ascii: "\\"), byte == 0x20 {
                            escapedSpace = true
                        }
                        previous = byte
                    }
                }
            case .node(let node):
                if Self.takesAttributes(node) { close = true }
                previous = 0
            }
        }
        if (close && brace) || carets >= 2 || bracketPair || command || escapedSpace { return true }
        if heading, case .text(let textPiece)? = pieces.last {
            return textPiece.text.utf8.reversed().first(where: { !AttributeListParser.isSpace($0) })
                == UInt8(ascii: "}")
        }
        return false
    }

    /// Links (and autolinks), images and code spans take a Pandoc attribute list written
    /// directly after them.
    static func takesAttributes(_ inline: Inline) -> Bool {
        switch inline {
        case .link, .image, .code: true
        default: false
        }
    }

    static func merge(_ pieces: [InlinePiece]) -> [Inline] {
        var result: [Inline] = []
        for piece in pieces {
            switch piece {
            case .text(let textPiece): appendText(textPiece.text, to: &result)
            case .node(.text(let text)): appendText(text, to: &result)
            case .node(let node): result.append(node)
            }
        }
        return result
    }

    static func appendText(_ text: String, to result: inout [Inline]) {
        guard !text.isEmpty else { return }
        if case .text(let previous)? = result.last {
            result[result.count - 1] = .text(previous + text)
        } else {
            result.append(.text(text))
        }
    }

    /// `piece` with each byte smart punctuation would change that is written escaped (`\"`) or
    /// as a character reference (`&quot;`) replaced by its ``KeptPunctuation`` stand-in. Only a
    /// literal holding such a byte, on a line holding a `\` or `&`, is aligned with its source.
    func keepingEscapes(_ piece: InlinePiece) -> InlinePiece {
        guard case .text(var textPiece) = piece,
            textPiece.line >= 1, textPiece.line <= lines.count, lines.mayHoldEscapes(textPiece.line - 1),
            textPiece.text.withUTF8Bytes({ $0.contains(where: KeptPunctuation.isKept) })
        else { return piece }
        let literal = Array(textPiece.text.utf8)
        guard let (_, inert) = align(literal, in: sourceLine(textPiece.line), reportedColumn: textPiece.column)
        else { return piece }
        var kept: [UInt8] = []
        kept.reserveCapacity(literal.count + 8)
        for (index, byte) in literal.enumerated() {
            if inert[index], let standIn = KeptPunctuation.standIn(for: byte) {
                UTF8.encode(standIn) { kept.append($0) }
            } else {
                kept.append(byte)
            }
        }
        textPiece.text = String(decoding: kept, as: UTF8.self)
        return .text(textPiece)
    }

    // MARK: Tokens

    /// Bytes with source columns and whether each was written escaped or as a reference.
    ///
    /// cmark reports a text node's start column relative to the paragraph's content, which is
    /// off on continuation lines (stripped indentation, a lazy line, a tab); the literal is
    /// therefore aligned at the reported column first and then at nearby columns within the
    /// line's leading whitespace and `>` markers. A literal that aligns nowhere keeps its text
    /// and has every byte marked inert: it can never be read as syntax.
    ///
    /// cmark-gfm 0.29 counts no line for a hard break written as a backslash at a line's end
    /// (`handle_backslash` in `inlines.c` makes the break without moving on a line), so a text
    /// node after such breaks reports a line too early: one that does not align there is
    /// aligned on each of the lines after it, up to one a break before it, from its start.
    func tokenize(_ pieces: [InlinePiece]) -> [InlineToken] {
        var tokens: [InlineToken] = []
        var source: [UInt8] = []
        var hardBreaks = 0
        for piece in pieces {
            switch piece {
            case .node(let node):
                if case .lineBreak = node { hardBreaks += 1 }
                tokens.append(.node(node))
            case .text(let textPiece):
                let literal = Array(textPiece.text.utf8)
                // Many pieces share a line: it is copied once.
                source = sourceLine(textPiece.line)
                var line = Int32(textPiece.line)
                var aligned = align(literal, in: source, reportedColumn: textPiece.column)
                var later = 0
                while aligned == nil, later < hardBreaks {
                    later += 1
                    source = sourceLine(textPiece.line + later)
                    aligned = align(literal, in: source, reportedColumn: 1)
                    if aligned != nil { line = Int32(textPiece.line + later) }
                }
                if aligned == nil { source = sourceLine(textPiece.line) }
                if let (start, inert) = aligned {
                    // Columns follow the source; an escaped or referenced byte takes the column of
                    // its `\` or `&`.
                    var sourceIndex = start
                    var literalIndex = 0
                    while literalIndex < literal.count {
                        let column = Int32(sourceIndex + 1)
                        if inert[literalIndex] {
                            if source[sourceIndex] == UInt8(ascii: "\\") {
                                tokens.append(.byte(literal[literalIndex], line: line, column: column, inert: true))
                                sourceIndex += 2
                                literalIndex += 1
                            } else {
                                let (length, decoded) = reference(in: source, at: sourceIndex)!
                                for j in 0..<decoded.count {
                                    tokens.append(
                                        .byte(literal[literalIndex + j], line: line, column: column, inert: true))
                                }
                                sourceIndex += length
                                literalIndex += decoded.count
                            }
                        } else {
                            tokens.append(.byte(literal[literalIndex], line: line, column: column, inert: false))
                            sourceIndex += 1
                            literalIndex += 1
                        }
                    }
                } else {
                    for byte in literal { tokens.append(.byte(byte, line: line, column: 0, inert: true)) }
                }
            }
        }
        return tokens
    }

    /// Where `literal` starts in `source` and which of its bytes were escaped or references;
    /// nil when it aligns at no candidate column.
    func align(_ literal: [UInt8], in source: [UInt8], reportedColumn: Int) -> (Int, [Bool])? {
        let reported = reportedColumn - 1
        var prefix = 0
        while prefix < source.count,
            source[prefix] == 0x20 || source[prefix] == 0x09 || source[prefix] == UInt8(ascii: ">")
        {
            prefix += 1
        }
        if reported >= 0, let inert = alignment(literal, source, from: reported) { return (reported, inert) }
        // Shifts: right by up to the stripped indentation, left by up to a container's
        // content offset (a lazy line), bounded so a long line costs no more than a short one.
        for d in 1...max(1, min(max(prefix, reported), Self.maxColumnShift)) {
            if d <= prefix, reported + d <= source.count, let inert = alignment(literal, source, from: reported + d) {
                return (reported + d, inert)
            }
            if reported - d >= 0, let inert = alignment(literal, source, from: reported - d) {
                return (reported - d, inert)
            }
        }
        return nil
    }

    /// The CommonMark walk of `source` from `start` that produces `literal`: `\` + ASCII
    /// punctuation is the punctuation, a known reference its decoded bytes, anything else
    /// itself. nil when the source does not produce the literal.
    private func alignment(_ literal: [UInt8], _ source: [UInt8], from start: Int) -> [Bool]? {
        var inert = [Bool](repeating: false, count: literal.count)
        var sourceIndex = start
        var literalIndex = 0
        while literalIndex < literal.count {
            guard sourceIndex < source.count else { return nil }
            let byte = source[sourceIndex]
            if byte == UInt8(ascii: "\\"), sourceIndex + 1 < source.count,
                Self.isASCIIPunctuation(source[sourceIndex + 1]),
                literal[literalIndex] == source[sourceIndex + 1]
            {
                inert[literalIndex] = true
                sourceIndex += 2
                literalIndex += 1
            } else if byte == UInt8(ascii: "&"), let (length, decoded) = reference(in: source, at: sourceIndex),
                literal.count - literalIndex >= decoded.count,
                literal[literalIndex..<(literalIndex + decoded.count)].elementsEqual(decoded)
            {
                for j in literalIndex..<(literalIndex + decoded.count) { inert[j] = true }
                sourceIndex += length
                literalIndex += decoded.count
            } else if byte == literal[literalIndex] {
                sourceIndex += 1
                literalIndex += 1
            } else {
                return nil
            }
        }
        return inert
    }

    /// An entity or numeric character reference at `start` that cmark decodes (CommonMark §2.5):
    /// its length in the source and its decoded bytes.
    func reference(in source: [UInt8], at start: Int) -> (Int, [UInt8])? {
        guard start + 2 < source.count, source[start] == UInt8(ascii: "&") else { return nil }
        var cursor = start + 1
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) }
        func isAlnum(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) }
        if source[cursor] == UInt8(ascii: "#") {
            cursor += 1
            if cursor < source.count, source[cursor] | 0x20 == UInt8(ascii: "x") {
                cursor += 1
                let digits = cursor
                while cursor < source.count, cursor - digits < 7, isHex(source[cursor]) { cursor += 1 }
                guard cursor > digits, cursor - digits <= 6 else { return nil }
            } else {
                let digits = cursor
                while cursor < source.count, cursor - digits < 8, isDigit(source[cursor]) { cursor += 1 }
                guard cursor > digits, cursor - digits <= 7 else { return nil }
            }
        } else {
            guard isAlnum(source[cursor]), !isDigit(source[cursor]) else { return nil }
            while cursor < source.count, cursor - start <= 33, isAlnum(source[cursor]) { cursor += 1 }
        }
        guard cursor < source.count, source[cursor] == UInt8(ascii: ";") else { return nil }
        let raw = Array(source[start...cursor])
        let decoded = entities.decode(raw)
        guard decoded != raw else { return nil }
        return (raw.count, decoded)
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    func location(_ token: InlineToken) -> SourceLocation? {
        guard case .byte(_, let line, let column, _) = token, line > 0, column > 0 else { return nil }
        return SourceLocation(
            file: file, line: Int(line), column: lines.sourceColumn(line: Int(line) - 1, column: Int(column)))
    }

    /// What a raw inline `` `content`{=format} `` stands for, `brace` the token of its `{`:
    /// raw HTML (`html`) as raw HTML written in the text, raw TeX (`latex`, `tex`) as TeX
    /// written in the text (its text commands set in their style, ``LaTeXTextCommands``), as
    /// Pandoc's LaTeX writer keeps raw TeX in a PDF; any other format is left out, as Pandoc
    /// leaves out formats it does not write, and noted in `found`.
    func rawInline(_ content: String, format: String, at brace: InlineToken, found: inout Found) -> [InlineToken] {
        switch format.lowercased() {
        case "html", "html5":
            return [.node(.rawHTML(content, location: location(brace)))]
        case "latex", "tex":
            guard case .byte(_, let line, let column, _) = brace else { return [] }
            return tokenize([.text(TextPiece(text: content, line: Int(line), column: Int(column)))])
        default:
            found.rawFormats.append((format, location(brace)))
            return []
        }
    }

    /// The tokens as one byte array, index for index (an element is a 0 byte, which ends any
    /// attribute list): built once, so each attempt to parse a list reads it in place.
    static func flatBytes(_ tokens: [InlineToken]) -> [UInt8] {
        tokens.map { if case .byte(let byte, _, _, _) = $0 { byte } else { 0 } }
    }

    /// The attribute list whose non-inert `{` is token `index`, and the index past its `}`.
    private func attributeList(_ tokens: [InlineToken], _ flat: [UInt8], at index: Int) -> (
        AttributeListParser.Parsed, Int
    )? {
        guard index < tokens.count, case .byte(UInt8(ascii: "{"), _, _, false) = tokens[index] else { return nil }
        guard let parsed = AttributeListParser.parse(flat, at: index, limit: Self.maxAttributeLength),
            case .byte(_, _, _, false) = tokens[index + parsed.end - 1]
        else { return nil }
        return (parsed, index + parsed.end)
    }

    // MARK: Heading attributes

    /// Removes a trailing `{…}` (Pandoc heading attributes) and the spaces before it, when it
    /// names an id, a class or a `key=value` (bare words alone are text).
    func extractTrailingAttributes(_ tokens: inout [InlineToken]) -> Attributes? {
        var end = tokens.count
        while end > 0, case .byte(let byte, _, _, _) = tokens[end - 1], AttributeListParser.isSpace(byte) { end -= 1 }
        guard end > 0, case .byte(UInt8(ascii: "}"), _, _, false) = tokens[end - 1] else { return nil }
        // Try each `{` from the right: quoted values may hold braces.
        let flat = Array(Self.flatBytes(tokens)[..<end])
        var start = end - 1
        while start > 0, end - start < Self.maxAttributeLength {
            start -= 1
            guard case .byte(let byte, _, _, let inert) = tokens[start] else { return nil }
            guard byte == UInt8(ascii: "{"), !inert else { continue }
            guard let parsed = AttributeListParser.parse(flat, at: start), parsed.end == end - start, parsed.raw == nil
            else {
                continue
            }
            // Bare words alone (`## Placeholders like {bold}`) are the heading's text, as Pandoc
            // and GitHub read them: a heading's list names an id, a class or a `key=value`.
            guard parsed.id != nil || !parsed.classes.isEmpty || parsed.pairs.contains(where: { $0.value != nil })
            else { return nil }
            let attributes = parsed.attributes { [tokens] offset in location(tokens[start + offset]) }
            tokens.removeSubrange(start...)
            while case .byte(let byte, _, _, _)? = tokens.last, AttributeListParser.isSpace(byte) {
                tokens.removeLast()
            }
            return attributes
        }
        return nil
    }

    /// Removes an ATX heading's closing sequence left before its attributes
    /// (`## Text ## {#id}`): `#`s preceded by a space, or the whole content (CommonMark §4.2).
    func removeClosingHashes(_ tokens: inout [InlineToken]) {
        var hashesStart = tokens.count
        while hashesStart > 0, case .byte(UInt8(ascii: "#"), _, _, false) = tokens[hashesStart - 1] { hashesStart -= 1 }
        guard hashesStart < tokens.count else { return }
        if hashesStart > 0 {
            guard case .byte(let byte, _, _, _) = tokens[hashesStart - 1], AttributeListParser.isSpace(byte) else {
                return
            }
        }
        tokens.removeSubrange(hashesStart...)
        while case .byte(let byte, _, _, _)? = tokens.last, AttributeListParser.isSpace(byte) { tokens.removeLast() }
    }

    // MARK: Spans and attributed elements

    /// Recognises, in one pass, `[…]{attributes}` and Pandoc's inline note `^[…]` (nesting with
    /// a stack of openers; brackets must balance, as in Pandoc) and an attribute list written
    /// directly after a link, image or code span (the element is wrapped in a span carrying the
    /// list); `` `x`{=format} `` is a raw inline for another format and is dropped, as Pandoc
    /// drops formats it does not write. Returns the tokens with those folded into nodes; a
    /// note is a reference to it, its content in `found`. A `^[` is a note before it is a span,
    /// as Pandoc reads `^[x]{.a}`. A reference link cmark-gfm left as text is noted in `found`.
    func spans(_ tokens: [InlineToken], found: inout Found) -> [InlineToken] {
        let flat = Self.flatBytes(tokens)
        var output: [InlineToken] = []
        output.reserveCapacity(tokens.count)
        var openers: [Int] = []
        // Brackets beyond the nesting limit stay literal (balanced by `ignored`), so span
        // nesting, and the recursion over it later, stays bounded.
        var ignored = 0
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            switch token {
            case .node(let node) where Self.takesAttributes(node):
                if let (parsed, next) = attributeList(tokens, flat, at: i + 1) {
                    if let format = parsed.raw {
                        if case .code(let content) = node {
                            output += rawInline(content, format: format, at: tokens[i + 1], found: &found)
                            i = next
                            continue
                        }
                    } else {
                        let attributes = parsed.attributes { offset in location(tokens[i + 1 + offset]) }
                        output.append(.node(.span(attributes, [node])))
                        i = next
                        continue
                    }
                }
            case .byte(UInt8(ascii: "["), _, _, false):
                if openers.count < Self.maxSpanDepth { openers.append(output.count) } else { ignored += 1 }
            case .byte(UInt8(ascii: "]"), _, _, false):
                if ignored > 0 {
                    ignored -= 1
                } else if let opener = openers.popLast() {
                    if let note = noteOpened(output, at: opener) {
                        let label = InlineNote.label(line: note.line, column: note.column)
                        let content = contentInlines(output[(opener + 1)...], found: &found)
                        found.notes.append(
                            InlineNote(label: label, content: content, location: location(output[opener - 1])))
                        output.removeSubrange((opener - 1)...)
                        output.append(.node(.footnoteReference(label: label, number: 0)))
                        i += 1
                        continue
                    }
                    if let (parsed, next) = attributeList(tokens, flat, at: i + 1), parsed.raw == nil {
                        let attributes = parsed.attributes { offset in location(tokens[i + 1 + offset]) }
                        let children = contentInlines(output[(opener + 1)...], found: &found)
                        output.removeSubrange(opener...)
                        output.append(.node(.span(attributes, children)))
                        i = next
                        continue
                    }
                    if let reference = unresolvedReference(tokens, closing: i, output: output, opener: opener) {
                        found.unresolvedReferences.append(reference)
                    }
                }
            default: break
            }
            output.append(token)
            i += 1
        }
        return output
    }

    /// The source position of the `^` when the `[` at `output[opener]` opens an inline note:
    /// written directly after a `^` that is syntax (not `\^`), on the same line.
    private func noteOpened(_ output: [InlineToken], at opener: Int) -> (line: Int32, column: Int32)? {
        guard opener > 0, case .byte(UInt8(ascii: "^"), let line, let column, false) = output[opener - 1],
            case .byte(_, line, let bracketColumn, _) = output[opener], bracketColumn == column + 1, column > 0
        else { return nil }
        return (line, column)
    }

    /// The reference link `[text][label]` (or `[text][]`) whose text is `output[opener...]` and
    /// whose `]` is `tokens[closing]`, when cmark-gfm left it as text: its label names no
    /// definition. nil when no `[label]` follows directly, or the opener comes right after a
    /// letter or digit (`a[i][j]` is an index, not a link), or the text or label starts with
    /// `^` (a note's syntax, warned about as one).
    private func unresolvedReference(_ tokens: [InlineToken], closing: Int, output: [InlineToken], opener: Int)
        -> (written: String, location: SourceLocation?)?
    {
        guard closing + 1 < tokens.count, case .byte(UInt8(ascii: "["), _, _, false) = tokens[closing + 1] else {
            return nil
        }
        if opener > 0, case .byte(let before, _, _, _) = output[opener - 1],
            (0x30...0x39).contains(before) || (0x41...0x5A).contains(before) || (0x61...0x7A).contains(before)
        {
            return nil
        }
        var end = closing + 2
        var label: [UInt8] = []
        while end < tokens.count, end - closing <= 1000, case .byte(let byte, _, _, let inert) = tokens[end] {
            if !inert, byte == UInt8(ascii: "]") { break }
            if !inert, byte == UInt8(ascii: "[") { return nil }
            label.append(byte)
            end += 1
        }
        guard end < tokens.count, case .byte(UInt8(ascii: "]"), _, _, false) = tokens[end] else { return nil }
        let text = Self.inlines(output[(opener + 1)...], keepingEscapes: false).plainText
        guard !text.hasPrefix("^"), label.first != UInt8(ascii: "^"), !text.isEmpty || !label.isEmpty else {
            return nil
        }
        return ("[\(text)][\(String(decoding: label, as: UTF8.self))]", location(output[opener]))
    }

    /// The inlines of a bracketed span's or an inline note's content, with the superscripts and
    /// LaTeX text commands in it recognised: the passes over the level's tokens that find them
    /// come after its spans, which take their content first.
    private func contentInlines(_ tokens: ArraySlice<InlineToken>, found: inout Found) -> [Inline] {
        inlines(latexCommands(superscripts(Array(tokens)), found: &found)[...])
    }

    /// `tokens` with each space escaped by a backslash as written (`Dr.\ Smith`, `10\ km`) a
    /// no-break space, U+00A0, as Pandoc reads it (Pandoc manual, "Backslash escapes": "A
    /// backslash-escaped space is parsed as a nonbreaking space"). A backslash that is itself
    /// escaped (`\\ `) or a reference (`&#92; `) stays a backslash before a space, and so
    /// does one that ends a Windows path (`C:\ `, `dir\sub\ `: after a colon, or in a word
    /// that holds another backslash), and one that joins no word to the next (``endsWord(_:)``:
    /// `treat \ the same as /`, `Ctrl-\ now`, a line's first), which GitHub shows and Pandoc
    /// would lose.
    func escapedSpaces(_ tokens: [InlineToken]) -> [InlineToken] {
        var output: [InlineToken] = []
        output.reserveCapacity(tokens.count)
        var index = 0
        // Whether the word being read holds a backslash (one before the current token).
        var wordHoldsBackslash = false
        while index < tokens.count {
            if case .byte(let byte, _, _, _) = tokens[index] {
                if byte == 0x20 || byte == 0x09 { wordHoldsBackslash = false }
            } else {
                wordHoldsBackslash = false
            }
            if case .byte(UInt8(ascii: "\\"), let line, let column, false) = tokens[index], index + 1 < tokens.count,
                case .byte(0x20, _, _, _) = tokens[index + 1], !wordHoldsBackslash, Self.endsWord(output)
            {
                output.append(.byte(0xC2, line: line, column: column, inert: true))
                output.append(.byte(0xA0, line: line, column: column, inert: true))
                index += 2
                continue
            }
            if case .byte(UInt8(ascii: "\\"), _, _, _) = tokens[index] { wordHoldsBackslash = true }
            output.append(tokens[index])
            index += 1
        }
        return output
    }

    /// Whether the last of `tokens` ends a word that a no-break space after it would join to the
    /// next: a letter or figure (any non-ASCII character too: Hangul, a closing quote), a
    /// closing bracket or the punctuation that ends a word (`Dr.`, `p.`, `(a)`, `*`), or an
    /// inline (emphasis, code); not a space, a line's start, a colon (a drive's, `C:`), a
    /// hyphen, slash or opening bracket.
    private static func endsWord(_ tokens: [InlineToken]) -> Bool {
        switch tokens.last {
        case nil, .node(.softBreak)?, .node(.lineBreak)?: return false
        case .byte(let byte, _, _, _)?:
            let letterOrFigure =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if byte >= 0x80 || letterOrFigure { return true }
            return ".,;!?)]}'\"*_%".utf8.contains(byte)
        case .node?: return true
        }
    }

    /// Recognises Pandoc's superscript (Pandoc manual, "Extension: superscript, subscript"):
    /// `^` … `^` around at least one character and no whitespace (but a space escaped by a
    /// backslash, a no-break space) or line break, as `x^2^`; an escaped `\^` is text. The
    /// content keeps the elements already recognised in it.
    func superscripts(_ tokens: [InlineToken]) -> [InlineToken] {
        var output: [InlineToken] = []
        output.reserveCapacity(tokens.count)
        var index = 0
        while index < tokens.count {
            if case .byte(UInt8(ascii: "^"), _, _, false) = tokens[index],
                let close = superscriptEnd(tokens, opener: index)
            {
                let content = inlines(tokens[(index + 1)..<close])
                output.append(.node(.presentation(.superscript, content)))
                index = close + 1
                continue
            }
            output.append(tokens[index])
            index += 1
        }
        return output
    }

    /// The index of the `^` closing the superscript opened at `opener`; nil when whitespace, a
    /// line break or nothing comes first, or none follows within ``maxAttributeLength`` tokens.
    private func superscriptEnd(_ tokens: [InlineToken], opener: Int) -> Int? {
        var index = opener + 1
        while index < tokens.count, index - opener <= Self.maxAttributeLength {
            switch tokens[index] {
            case .byte(UInt8(ascii: "^"), _, _, false): return index > opener + 1 ? index : nil
            case .byte(let byte, _, _, _):
                // (A space escaped by a backslash is a no-break space by now: allowed.)
                if AttributeListParser.isSpace(byte) { return nil }
            case .node(.softBreak), .node(.lineBreak): return nil
            case .node(let node): if CmarkConverter.hasBreakingWhitespace(node.plainText) { return nil }
            }
            index += 1
        }
        return nil
    }

    /// Tokens back to inlines: byte runs become merged text.
    /// The inlines of `tokens`, escaped punctuation kept when ``keepsEscapedPunctuation``.
    func inlines(_ tokens: ArraySlice<InlineToken>) -> [Inline] {
        Self.inlines(tokens, keepingEscapes: keepsEscapedPunctuation)
    }

    /// The inlines of `tokens`: their bytes as text, adjacent text merged; with
    /// `keepingEscapes`, each escaped or referenced byte smart punctuation would change as its
    /// ``KeptPunctuation`` stand-in.
    static func inlines(_ tokens: ArraySlice<InlineToken>, keepingEscapes: Bool) -> [Inline] {
        var result: [Inline] = []
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty {
                appendText(String(decoding: run, as: UTF8.self), to: &result)
                run.removeAll()
            }
        }
        for token in tokens {
            switch token {
            case .byte(let byte, _, _, let inert):
                if keepingEscapes, inert, let standIn = KeptPunctuation.standIn(for: byte) {
                    UTF8.encode(standIn) { run.append($0) }
                } else {
                    run.append(byte)
                }
            case .node(.text(let text)):
                flush()
                appendText(text, to: &result)
            case .node(let node):
                flush()
                result.append(node)
            }
        }
        flush()
        return result
    }
}
