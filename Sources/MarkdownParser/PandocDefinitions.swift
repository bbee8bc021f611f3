import DocumentModel

/// Pandoc's definition lists (Pandoc manual, "Definition lists"). The compact form: a
/// paragraph whose first line is the term and whose later lines start with `:` or `~` and a
/// space or tab, one definition each (a line without the marker continues the definition
/// before it). The loose form: a one-line paragraph (the term), then paragraphs starting with
/// a marker (one definition each), each followed by blocks indented four spaces (the
/// definition's own paragraphs, lists and code). cmark-gfm has no extension for them, so they
/// are recognised on the converted blocks: cmark-gfm reads the indented blocks as one indented
/// code block, whose text (the blocks with four columns of indentation removed) is parsed again.
enum PandocDefinitions {
    /// The term and the definitions' inlines of `inlines`, a paragraph's; nil when it is no
    /// definition list. `lineStartsWithColon(n)` tells whether the paragraph's line n (0 its
    /// first) starts with `:` as written (not escaped).
    static func item(_ inlines: [Inline], lineStartsWithColon: (Int) -> Bool) -> (
        term: [Inline], definitions: [[Inline]]
    )? {
        let lines = inlines.split(omittingEmptySubsequences: false) { $0 == .softBreak }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[0].contains(.lineBreak),
            definitionContent(Array(lines[0])) == nil || !lineStartsWithColon(0)
        else { return nil }
        var definitions: [[Inline]] = []
        for (offset, line) in lines.enumerated().dropFirst() {
            if let content = definitionContent(Array(line)), lineStartsWithColon(offset) {
                definitions.append(content)
            } else if definitions.isEmpty {
                return nil
            } else {
                definitions[definitions.count - 1] += [.softBreak] + line
            }
        }
        return (Array(lines[0]), definitions)
    }

    /// The line without its `: ` marker, or nil when it has none (or nothing follows it).
    static func definitionContent(_ line: [Inline]) -> [Inline]? {
        guard case .text(let text)? = line.first,
            [": ", ":\t", "~ ", "~\t"].contains(where: { text.hasPrefix($0) })
        else { return nil }
        let rest = text.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        var content = Array(line.dropFirst())
        if !rest.isEmpty { content.insert(.text(String(rest)), at: 0) }
        return content.isEmpty ? nil : content
    }

    /// The definitions of `inlines`, a paragraph whose first line starts with a marker (a loose
    /// definition, or several in compact form); nil when it does not.
    static func definitions(_ inlines: [Inline], lineStartsWithMarker: (Int) -> Bool) -> [[Inline]]? {
        let lines = inlines.split(omittingEmptySubsequences: false) { $0 == .softBreak }
        var definitions: [[Inline]] = []
        for (offset, line) in lines.enumerated() {
            if let content = definitionContent(Array(line)), lineStartsWithMarker(offset) {
                definitions.append(content)
            } else if definitions.isEmpty {
                return nil
            } else {
                definitions[definitions.count - 1] += [.softBreak] + line
            }
        }
        return definitions
    }

    /// Attaches `definitions` to the block before them in `items`: a one-line paragraph becomes
    /// the term of a new definition list, a definition list gains them in its last item.
    /// False, `items` unchanged, when the block before is neither.
    static func attach(_ definitions: [[Block]], to items: inout [CmarkConverter.BlockItem]) -> Bool {
        guard case .block(var previous)? = items.last else { return false }
        switch previous.kind {
        case .paragraph(let term):
            guard isTerm(term) else { return false }
            previous.kind = .definitionList([DefinitionItem(term: term, definitions: definitions)])
        case .definitionList(var list):
            guard !list.isEmpty else { return false }
            list[list.count - 1].definitions += definitions
            previous.kind = .definitionList(list)
        default:
            return false
        }
        items[items.count - 1] = .block(previous)
        return true
    }

    /// Whether `inlines`, a paragraph's, can be a term: one line, not empty.
    static func isTerm(_ inlines: [Inline]) -> Bool {
        !inlines.isEmpty && !inlines.contains(.softBreak) && !inlines.contains(.lineBreak)
    }

    /// How many definitions deep the current parse is (a continuation's text is parsed again
    /// inside its definition's parse); continuations deeper than the converter's nesting limit
    /// stay code blocks.
    @TaskLocal static var nesting = 0

    /// Attaches `text`, an indented code block's (blocks indented four spaces, the indentation
    /// removed), to the last definition of the definition list before it in `items`, parsed as
    /// the definition's own blocks; their warnings join `diagnostics`. The blocks and warnings
    /// are located from `location` (the code block's). False, `items` unchanged, when no
    /// definition list comes before it.
    static func attachContinuation(
        _ text: String, file: String, at location: SourceLocation?, to items: inout [CmarkConverter.BlockItem],
        diagnostics: inout [Diagnostic]
    ) -> Bool {
        guard case .block(var previous)? = items.last, case .definitionList(var list) = previous.kind,
            let definitions = list.last?.definitions, !definitions.isEmpty, nesting < CmarkConverter.maxDepth
        else { return false }
        // A blank first line: a continuation starting with `---` is a thematic break or a
        // setext underline, never front matter.
        let parsed = $nesting.withValue(nesting + 1) {
            MarkdownParser.parse("\n" + text, file: file, lazily: false)
        }
        func shifted(_ inner: SourceLocation?) -> SourceLocation? {
            guard let inner, let location else { return inner ?? location }
            return SourceLocation(
                file: location.file, line: location.line + inner.line - 2, column: location.column + inner.column - 1)
        }
        let blocks = parsed.document.blocks.map { block in
            var block = block
            block.location = shifted(block.location)
            return block
        }
        diagnostics += parsed.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.location = shifted(diagnostic.location)
            return diagnostic
        }
        list[list.count - 1].definitions[definitions.count - 1] += blocks
        previous.kind = .definitionList(list)
        items[items.count - 1] = .block(previous)
        return true
    }

    /// Whether the top-level block `item`, ending at source line `line` (1-based), may be
    /// continued by the next non-blank line of `lines` as a definition list: a one-line
    /// paragraph followed by a marker line (its definition), or a definition list followed by a
    /// marker line or a line indented four columns (a continuation). The scan keeps such blocks
    /// in one segment.
    static func continues(after item: CmarkConverter.BlockItem?, line: Int, lines: SourceLines) -> Bool {
        guard case .block(let block)? = item else { return false }
        let isList: Bool
        switch block.kind {
        case .paragraph(let inlines):
            guard isTerm(inlines) else { return false }
            isList = false
        case .definitionList: isList = true
        default: return false
        }
        var index = line
        while index < lines.count {
            let bytes = lines[index]
            index += 1
            var column = 0
            var offset = 0
            while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 {
                column = bytes[offset] == 0x09 ? (column / 4 + 1) * 4 : column + 1
                offset += 1
            }
            guard offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D else { continue }
            if isList, column >= 4 { return true }
            let marker = bytes[offset] == UInt8(ascii: ":") || bytes[offset] == UInt8(ascii: "~")
            let spaced = offset + 1 < bytes.count && (bytes[offset + 1] == 0x20 || bytes[offset + 1] == 0x09)
            return column <= 2 && marker && spaced
        }
        return false
    }
}
