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

    /// Whether the top-level block `item`, ending at source line `line` (1-based), may be
    /// continued by the next non-blank line of `lines` as a definition list: a one-line
    /// paragraph followed by a marker line (its definition), or a definition list followed by a
    /// marker line or a line indented four columns (a continuation). The scan keeps such blocks
    /// in one segment.
    static func continues(
        after item: CmarkConverter.BlockItem?, line: Int, lines: SourceLines, fences: Set<Int> = []
    ) -> Bool {
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
            // A definition opening with a fenced code block, its marker made a space.
            if fences.contains(index) { return true }
            let marker = bytes[offset] == UInt8(ascii: ":") || bytes[offset] == UInt8(ascii: "~")
            let spaced = offset + 1 < bytes.count && (bytes[offset + 1] == 0x20 || bytes[offset + 1] == 0x09)
            return column <= 2 && marker && spaced
        }
        return false
    }

    /// `text` with the marker of each definition that opens with a block (`: ````, `~ ~~~`,
    /// `: - item`, `: 1. item`, `: > quote`, `: ## Heading`: the block at most three columns in,
    /// on the line after a one-line term or a definition, or after a blank line after one) made
    /// a space, so that cmark-gfm reads the block as a block (otherwise the marker line is a
    /// paragraph's: a closing fence then opens a code block that runs to the end of the
    /// document, and a list's later items leave the definition); and those lines (1-based from
    /// `firstLine`), whose blocks the converter makes definitions. Nil when there is none. One
    /// byte for one byte: every line and column stays as written.
    static func rewritingOpenings(_ text: String, firstLine: Int) -> (text: String, lines: Set<Int>)? {
        var text = text
        // The markers' offsets, found in the text's own bytes (a copy of a long text costs its
        // length; most texts have no such marker).
        let markers = text.withUTF8 { openingMarkers(in: $0, firstLine: firstLine) }
        guard !markers.isEmpty else { return nil }
        var bytes = Array(text.utf8)
        for marker in markers { bytes[marker.offset] = 0x20 }
        return (String(decoding: bytes, as: UTF8.self), Set(markers.map(\.line)))
    }

    /// The byte offsets and lines of the markers ``rewritingOpenings(_:firstLine:)`` makes spaces.
    private static func openingMarkers(
        in bytes: UnsafeBufferPointer<UInt8>, firstLine: Int
    ) -> [(offset: Int, line: Int)] {
        var markers: [(offset: Int, line: Int)] = []
        // The code fence open (its character and length); what the last two lines were, and
        // whether the current line may belong to a definition (a marker line came before it,
        // with only its lines, blank lines and lines indented four columns since).
        var open: (character: UInt8, length: Int)?
        var previous = OpeningLine.blank
        var beforePrevious = OpeningLine.blank
        var inDefinition = false
        var start = 0
        var line = firstLine
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var indent = start
            while indent < end, indent - start < 4, bytes[indent] == 0x20 { indent += 1 }
            let blank = bytes[start..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            func fence(at offset: Int) -> (character: UInt8, length: Int, rest: Slice<UnsafeBufferPointer<UInt8>>)? {
                guard offset < end, bytes[offset] == UInt8(ascii: "`") || bytes[offset] == UInt8(ascii: "~") else {
                    return nil
                }
                var run = offset
                while run < end, bytes[run] == bytes[offset] { run += 1 }
                return run - offset >= 3 ? (bytes[offset], run - offset, bytes[run..<end]) : nil
            }
            let marker =
                indent - start <= 2 && indent + 1 < end
                && (bytes[indent] == UInt8(ascii: ":") || bytes[indent] == UInt8(ascii: "~"))
                && (bytes[indent + 1] == 0x20 || bytes[indent + 1] == 0x09)
            var current = blank ? OpeningLine.blank : .other
            if let fenceOpen = open {
                if indent - start < 4, let close = fence(at: indent), close.character == fenceOpen.character,
                    close.length >= fenceOpen.length, close.rest.allSatisfy({ $0 == 0x20 || $0 == 0x0D })
                {
                    open = nil
                }
                current = .other
            } else if indent - start < 4, let opening = fence(at: indent) {
                open = (opening.character, opening.length)
                inDefinition = false
            } else if marker {
                // After a term (one line, after a blank line or the text's start) or a line of a
                // definition, directly or after a blank line: the compact and loose forms.
                let compact = previous == .term || (inDefinition && previous != .blank)
                let loose = previous == .blank && (beforePrevious == .term || inDefinition)
                var content = indent + 1
                while content < end, bytes[content] == 0x20 { content += 1 }
                if compact || loose, content > indent + 1, content - start <= 3 {
                    if let opening = fence(at: content) {
                        markers.append((indent, line))
                        open = (opening.character, opening.length)
                    } else if opensBlock(bytes[content..<end], interrupting: !loose) {
                        markers.append((indent, line))
                    }
                }
                inDefinition = true
            } else if !blank, indent - start < 4, previous == .blank {
                // A paragraph (or another block) begins: a term if it is one line of text.
                let opener = bytes[indent] == UInt8(ascii: "<") || opensBlock(bytes[indent..<end], interrupting: false)
                current = opener ? .other : .term
                inDefinition = false
            }
            beforePrevious = previous
            previous = current
            start = end + 1
            line += 1
        }
        return markers
    }

    /// What a line is to ``openingMarkers(in:firstLine:)``.
    private enum OpeningLine {
        case blank
        /// A line of text after a blank line (or the text's start): a term, if the next line
        /// is a definition's or blank.
        case term
        case other
    }

    /// Whether `content`, what follows a definition's marker and its spaces, opens a block
    /// that cmark-gfm starts there: a list item (`-`, `+`, `*` or a number of up to nine
    /// digits with `.` or `)`, then a space or tab; a numbered item only from 1 when it
    /// `interrupting` a term's paragraph, and no empty item there), a block quote (`>`), or an
    /// ATX heading (one to six `#`, then a space, a tab or the line's end). A thematic break
    /// (`* * *`) is none: it is a rule.
    private static func opensBlock(_ content: Slice<UnsafeBufferPointer<UInt8>>, interrupting: Bool) -> Bool {
        guard let first = content.first else { return false }
        func spaceOrEnd(_ index: Int) -> Bool {
            index >= content.endIndex || content[index] == 0x20 || content[index] == 0x09 || content[index] == 0x0D
        }
        func restIsBlank(after index: Int) -> Bool {
            content[index...].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        }
        switch first {
        case UInt8(ascii: ">"):
            return true
        case UInt8(ascii: "#"):
            var run = content.startIndex
            while run < content.endIndex, content[run] == first { run += 1 }
            return run - content.startIndex <= 6 && spaceOrEnd(run)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            let start = content.startIndex
            guard start + 1 < content.endIndex, content[start + 1] == 0x20 || content[start + 1] == 0x09 else {
                return false
            }
            let marks = content.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
            let rule = first != UInt8(ascii: "+") && marks.count >= 3 && marks.allSatisfy { $0 == first }
            return !rule && !(interrupting && restIsBlank(after: start + 1))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var run = content.startIndex
            while run < content.endIndex, content[run] >= UInt8(ascii: "0"), content[run] <= UInt8(ascii: "9") {
                run += 1
            }
            guard run - content.startIndex <= 9, run < content.endIndex,
                content[run] == UInt8(ascii: ".") || content[run] == UInt8(ascii: ")"), run + 1 < content.endIndex,
                content[run + 1] == 0x20 || content[run + 1] == 0x09
            else { return false }
            let one = content[content.startIndex..<run].drop { $0 == UInt8(ascii: "0") }.elementsEqual([
                UInt8(ascii: "1")
            ])
            return !interrupting || (one && !restIsBlank(after: run + 1))
        default:
            return false
        }
    }
}

extension CmarkConverter {
    /// Attaches `text`, an indented code block's (blocks indented four spaces, the indentation
    /// removed), to the last definition of the definition list before it in `items`, parsed as
    /// the definition's own blocks; their warnings join the conversion's. The blocks and
    /// warnings are located from `location` (the code block's). False, `items` unchanged, when
    /// no definition list comes before it.
    ///
    /// The text is parsed after the document's link reference and footnote definitions
    /// (``definitions``, the prefix windows are parsed after), so a link, image or note cited
    /// inside a definition resolves against definitions written anywhere in the document; the
    /// notes it cites take this conversion's numbers (``numberOfNestedNote(_:at:)``).
    mutating func attachContinuation(
        _ text: String, at location: SourceLocation?, to items: inout [CmarkConverter.BlockItem]
    ) -> Bool {
        guard case .block(var previous)? = items.last, case .definitionList(var list) = previous.kind,
            let definitions = list.last?.definitions, !definitions.isEmpty,
            PandocDefinitions.nesting < CmarkConverter.maxDepth
        else { return false }
        // Definitions are looked up only by text that may cite one (`[`).
        let prefix = text.containsUTF8Byte(UInt8(ascii: "[")) ? citedDefinitions(in: text) : nil
        var input = [UInt8(ascii: "\n")] + (prefix?.bytes ?? [])
        input += Array(text.utf8)
        // A blank first line: a continuation starting with `---` is a thematic break or a
        // setext underline, never front matter. The prefix's lines follow it.
        let firstTextLine = 2 + (prefix?.lines ?? 0)
        let parsed = PandocDefinitions.$nesting.withValue(PandocDefinitions.nesting + 1) {
            MarkdownParser.parse(String(decoding: input, as: UTF8.self), file: file, lazily: false)
        }
        // Each text line's indentation (and container markers) in the file, so a location in the
        // parse — a block's, an image's, a formula's, an attribute's — is the file's line and column.
        let indentation = location.map { location in
            RelocatedBlocks.indentation(
                of: text,
                fileLine: { index in
                    let line = location.line + index  // the file's, as `source.lines` counts them
                    return line >= 1 && line <= source.lines.count ? source.lines.slice(line - 1) : nil
                }, fallback: location.column - 1)
        }
        func shifted(_ inner: SourceLocation?) -> SourceLocation? {
            guard let inner, let location else { return inner ?? location }
            let index = inner.line - firstTextLine
            let indent = indentation.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? location.column - 1
            return SourceLocation(file: location.file, line: location.line + index, column: indent + inner.column)
        }
        func isText(_ inner: SourceLocation?) -> Bool { (inner?.line ?? firstTextLine) >= firstTextLine }
        var nestedNumbers: [String: Int] = [:]
        var newLabels: [String] = []
        var inlineNotes: [(label: String, nested: Int)] = []
        var blocks: [Block] = []
        // A note's label and number in the file's numbering. An inline note's label names its
        // place in the parse; it is made to name its place in the file.
        func renamed(_ label: String, _ nested: Int, citedAt line: Int?) -> (String, Int) {
            if InlineSyntax.InlineNote.isLabel(label) {
                guard let place = InlineSyntax.InlineNote.place(ofLabel: label, in: file).flatMap(shifted) else {
                    return (label, nested)
                }
                let fileLabel = InlineSyntax.InlineNote.label(line: Int32(place.line), column: Int32(place.column))
                if nestedNumbers[fileLabel] == nil {
                    nestedNumbers[fileLabel] = nested
                    inlineNotes.append((fileLabel, nested))
                }
                return (fileLabel, numberOfNestedNote(fileLabel, at: NotePlace(line: place.line, column: place.column)))
            }
            let key = Self.normalizedLabel(label)
            if nestedNumbers[key] == nil {
                nestedNumbers[key] = nested
                if footnoteNumbers[key] == nil, footnoteLabels == nil { newLabels.append(key) }
            }
            return (label, numberOfNestedNote(label, at: line.map { NotePlace(line: $0, column: .max) }))
        }
        for inner in parsed.document.blocks where isText(inner.location) {
            // The line each note is cited at: its block's in the file.
            let line = shifted(inner.location)?.line
            blocks += PandocDefinitions.renamingNotes([inner]) { renamed($0, $1, citedAt: line) }
                .map { RelocatedBlocks.relocated($0, shifted) }
        }
        // A note cited only here is one the document's own tree dropped (cmark-gfm keeps cited
        // definitions only): its blocks come from this parse, but in the windowed scan, which
        // converts every cited definition itself.
        if mode != .replay, !convertsCitedNotesItself {
            for key in newLabels where treeNoteNumbers[key] == nil {
                guard let nested = nestedNumbers[key], let noteBlocks = parsed.document.footnotes[nested] else {
                    continue
                }
                footnoteDefinitions.append(
                    (key, noteBlocks.map { relocated($0, sourceLines: prefix?.sourceLines ?? []) }))
            }
        }
        // An inline note's text is the continuation's own: its blocks come from this parse.
        if mode != .replay {
            var index = 0
            while index < inlineNotes.count {
                let (label, nested) = inlineNotes[index]
                index += 1
                guard let noteBlocks = parsed.document.footnotes[nested] else { continue }
                let line = InlineSyntax.InlineNote.place(ofLabel: label, in: file)?.line
                footnoteDefinitions.append(
                    (
                        label,
                        PandocDefinitions.renamingNotes(noteBlocks) { renamed($0, $1, citedAt: line) }
                            .map { RelocatedBlocks.relocated($0, shifted) }
                    ))
            }
        }
        diagnostics += parsed.diagnostics.filter { isText($0.location) }.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.location = shifted(diagnostic.location)
            return diagnostic
        }
        list[list.count - 1].definitions[definitions.count - 1] += blocks
        previous.kind = .definitionList(list)
        items[items.count - 1] = .block(previous)
        return true
    }

    /// The definitions `text` may cite (``CitedDefinitions``) as a prefix to parse it after,
    /// with the source line (1-based) of each of its lines, nil for the lines it adds.
    private mutating func citedDefinitions(in text: String) -> (bytes: [UInt8], lines: Int, sourceLines: [Int?])? {
        guard let definitions else { return nil }
        if definitionIndex == nil { definitionIndex = CitedDefinitions(prefix: definitions.bytes) }
        guard let cited = definitionIndex?.prefix(citedIn: text) else { return nil }
        // A line of the cited prefix → its line in the whole prefix → its source line.
        var sourceLines: [Int?] = []
        for run in cited.runs {
            sourceLines += run.map { SourceWindows.sourceLine(ofPrefixLine: $0, runs: definitions.runs) }
            sourceLines.append(nil)
        }
        return (cited.bytes, cited.lines, sourceLines)
    }

    /// `block`, parsed in a definition's continuation after a prefix whose lines come from
    /// `sourceLines`, located at its line in the file (nil when it is not the prefix's).
    private func relocated(_ block: Block, sourceLines: [Int?]) -> Block {
        RelocatedBlocks.relocated(block) { inner in
            // The continuation's text starts with a blank line, then the prefix.
            let index = inner.line - 2
            guard sourceLines.indices.contains(index), let line = sourceLines[index] else { return nil }
            return SourceLocation(file: inner.file, line: line, column: inner.column)
        }
    }

    /// The number of the note `label`, cited inside a definition's blocks (parsed on their own)
    /// or inline (`^[…]`), as this conversion numbers the document's references: the scan's
    /// number in a window
    /// (``footnoteLabels``); the number already given; else the next in document order, or
    /// cmark-gfm's number for the label in the whole tree (``treeNoteNumbers``), or one past
    /// every number cmark-gfm gave.
    /// `place` (in the file, nil when unknown) is where it is cited, kept while cmark-gfm's tree
    /// numbers the notes (a note cites another) so that ``finishNoteNumbers()`` can put the
    /// note in its place.
    mutating func numberOfNestedNote(_ label: String, at place: NotePlace? = nil) -> Int {
        let key = Self.normalizedLabel(label)
        if let labels = footnoteLabels {
            if let known = labels[key] { return known }
            unresolvedFootnote = true
            return (labels.values.max() ?? 0) + 1
        }
        if !numbersNotesInOrder, let place {
            nestedNoteFirstPlaces[key] = min(nestedNoteFirstPlaces[key] ?? place, place)
        }
        if let known = footnoteNumbers[key] { return known }
        let number: Int
        if numbersNotesInOrder {
            number = footnoteNumbers.count + 1
        } else if let inTree = treeNoteNumbers[key] {
            number = inTree
        } else {
            number = max(treeNoteNumbers.count, footnoteNumbers.values.max() ?? 0) + 1
        }
        footnoteNumbers[key] = number
        return number
    }
}

extension PandocDefinitions {
    /// `blocks` with each note reference's number replaced by `number(label, its number)`, in
    /// document order.
    static func renumberingNotes(_ blocks: [Block], _ number: (String, Int) -> Int) -> [Block] {
        renamingNotes(blocks) { ($0, number($0, $1)) }
    }

    static func renumberingNotes(_ inlines: [Inline], _ number: (String, Int) -> Int) -> [Inline] {
        renamingNotes(inlines) { ($0, number($0, $1)) }
    }

    /// `blocks` with each note reference's label and number replaced by `rename(label, its
    /// number)`, in document order.
    static func renamingNotes(_ blocks: [Block], _ rename: (String, Int) -> (String, Int)) -> [Block] {
        blocks.map { block in
            block.mappingChildren(blocks: { renamingNotes($0, rename) }, inlines: { renamingNotes($0, rename) })
        }
    }

    static func renamingNotes(_ inlines: [Inline], _ rename: (String, Int) -> (String, Int)) -> [Inline] {
        inlines.map { inline in
            switch inline {
            case .footnoteReference(let label, let nested):
                let (label, number) = rename(label, nested)
                return .footnoteReference(label: label, number: number)
            case .emphasis(let children): return .emphasis(renamingNotes(children, rename))
            case .strong(let children): return .strong(renamingNotes(children, rename))
            case .strikethrough(let children): return .strikethrough(renamingNotes(children, rename))
            case .link(let destination, let title, let children):
                return .link(destination: destination, title: title, children: renamingNotes(children, rename))
            case .span(let attributes, let children): return .span(attributes, renamingNotes(children, rename))
            case .presentation(let presentation, let children):
                return .presentation(presentation, renamingNotes(children, rename))
            default: return inline
            }
        }
    }
}
