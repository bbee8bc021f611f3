internal import CCmarkGFM
import DocumentModel
import Foundation

/// The cmark-gfm syntax extensions, registered once (registration is not thread-safe, and
/// Swift runs a `static let` initialiser exactly once, on first use).
enum CmarkExtensions {
    struct Handles: @unchecked Sendable {
        var all: [OpaquePointer]
        var tasklist: OpaquePointer?
    }

    static let handles: Handles = {
        cmark_gfm_core_extensions_ensure_registered()
        let names = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
        let all = names.compactMap { cmark_find_syntax_extension($0) }
        return Handles(all: all, tasklist: cmark_find_syntax_extension("tasklist"))
    }()
}

/// A parsed cmark-gfm tree, freed with its owner.
final class CmarkTree {
    let root: OpaquePointer
    static let lock = NSLock()

    /// Parses `bytes` with CommonMark + GFM extensions and footnotes. Smart punctuation is off:
    /// quotes stay as written.
    init?(_ bytes: [UInt8]) {
        // cmark-gfm keeps the inline parser's special characters in a process-wide table that
        // attaching an extension adds to and freeing a parser removes from: two parsers at once
        // on two threads lose `~~strikethrough~~` (seen in parallel tests). One at a time.
        CmarkTree.lock.lock()
        defer { CmarkTree.lock.unlock() }
        let handles = CmarkExtensions.handles
        let options =
            CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_UNSAFE | CMARK_OPT_SOURCEPOS
        guard let parser = cmark_parser_new(options) else { return nil }
        defer { cmark_parser_free(parser) }
        for ext in handles.all { cmark_parser_attach_syntax_extension(parser, ext) }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        guard let root = cmark_parser_finish(parser) else { return nil }
        self.root = root
    }

    deinit { cmark_node_free(root) }

    /// cmark-gfm's own plain-text rendering of `text` (`cmark_render_plaintext`, no line
    /// wrapping): the visible text a document must keep, for tests that compare with the PDF.
    static func plainText(of text: String) -> String {
        guard let tree = CmarkTree(Array(text.utf8)),
            let rendered = cmark_render_plaintext(tree.root, CMARK_OPT_DEFAULT, 0)
        else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// The words a reader must find in the PDF of `text`, in order, for tests that compare the
    /// two: of each top-level block, cmark-gfm's own plain-text rendering
    /// (`cmark_render_plaintext`), or for a raw HTML block the words `html` gives for its
    /// literal (libxml2's text of it, ``HTMLFragment/libxmlWords(of:hidden:)``).
    static func visibleWords(of text: String, html: (String) -> [String]) -> [String] {
        guard let tree = CmarkTree(Array(text.utf8)) else { return [] }
        var words: [String] = []
        var node = cmark_node_first_child(tree.root)
        while let block = node {
            node = cmark_node_next(block)
            if cmark_node_get_type(block) == CMARK_NODE_HTML_BLOCK {
                words += html(cmark_node_get_literal(block).map { String(cString: $0) } ?? "")
            } else if let rendered = cmark_render_plaintext(block, CMARK_OPT_DEFAULT, 0) {
                words += String(cString: rendered).split { $0.isWhitespace }.map(String.init)
                free(rendered)
            }
        }
        return words
    }

    /// The text cmark-gfm makes of `bytes` as the sole content of a paragraph (its first text
    /// node's literal): how cmark decodes an entity or numeric character reference. nil when
    /// the parse yields no text.
    static func inlineText(of bytes: [UInt8]) -> [UInt8]? {
        guard let tree = CmarkTree(bytes) else { return nil }
        guard let paragraph = cmark_node_first_child(tree.root), let text = cmark_node_first_child(paragraph),
            cmark_node_get_type(text) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(text)
        else { return nil }
        return Array(String(cString: literal).utf8)
    }
}

/// Converts a cmark-gfm tree into `Document` values, rebuilding fenced divs from the markers of
/// `SourceText` and recognising Pandoc attribute syntax on the way.
struct CmarkConverter {
    /// What a conversion is for.
    enum Mode {
        /// The whole tree at once.
        case eager
        /// The first pass over the whole tree: every diagnostic and footnote found, where each
        /// top-level segment starts and ends (``scanSegments(of:)``); the blocks are dropped.
        case scan
        /// A later conversion of part of the document (``SourceWindows``): values only
        /// (diagnostics were given by the scan and are dropped), footnote definitions skipped.
        case replay
    }
    let file: String
    let source: SourceText
    let syntax: InlineSyntax
    let mode: Mode
    /// Added to every line cmark-gfm reports: a window parsed after a prefix gives the file's lines.
    var lineDelta = 0
    /// In a window, footnote numbers come from the scan by label (cmark-gfm numbers the
    /// window's references only); nil: cmark-gfm's numbers.
    var footnoteLabels: [String: Int]?
    /// Set when a window's note reference has a label the scan did not number.
    var unresolvedFootnote = false
    /// A scan in windows numbers the notes itself, by first reference in document order (as
    /// cmark-gfm numbers them in the whole text when no note cites another): each window's
    /// parse numbers only its own references.
    var numbersNotesInOrder = false
    var diagnostics: [Diagnostic] = []
    /// Footnote definitions as found (label from the source, blocks).
    var footnoteDefinitions: [(label: String?, blocks: [Block])] = []
    /// Footnote numbers by normalised label, from the references.
    var footnoteNumbers: [String: Int] = [:]
    /// The document's link reference and footnote definitions as a prefix to parse before a
    /// part of the text (``SourceWindows/prefix(runs:lines:)``): its bytes, its line count and
    /// the runs of source lines (1-based) it is made of. A definition's indented blocks are
    /// parsed after it (``attachContinuation(_:at:to:)``).
    var definitions: (bytes: [UInt8], lines: Int, runs: [ClosedRange<Int>])? {
        didSet { definitionIndex = nil }
    }
    /// ``definitions`` by label, made at the first definition's indented blocks that may cite one.
    var definitionIndex: CitedDefinitions?
    /// Set on the windowed scan, which converts every cited note from a parse of the
    /// definitions itself (``SourceWindows/scanInWindows(_:lines:windowBytes:literalLines:cancellation:)``).
    var convertsCitedNotesItself = false
    /// cmark-gfm's note numbers by normalised label in the whole tree, when it numbers the
    /// notes (``learnTreeNoteNumbers(_:)``).
    var treeNoteNumbers: [String: Int] = [:]
    /// When a note cites another: where each note's first reference in the whole tree is
    /// written, by cmark-gfm's number (``learnTreeNoteNumbers(_:)``), for
    /// ``finishNoteNumbers()``.
    var treeNoteFirstPlaces: [Int: NotePlace] = [:]
    /// Where the first reference to each note (normalised label) is written when it is cited
    /// inside a definition's indented blocks or inline (`^[…]`), numbered by
    /// ``numberOfNestedNote(_:at:)`` while the tree numbers the rest.
    var nestedNoteFirstPlaces: [String: NotePlace] = [:]
    /// The inline notes `^[…]` of the block whose inlines are being converted, kept until its
    /// outermost inlines are done (``numberInlineNotes(_:numberedBefore:)``).
    var pendingInlineNotes: [InlineSyntax.InlineNote] = []
    /// Set while a block's inlines are converted (their nested elements' included).
    var convertingInlines = false
    /// Raw HTML blocks and inline tags become document values here (its warnings included).
    var html: RawHTML
    private var warnedDepth = false

    /// Deeper containers are flattened to plain text: keeps recursion (ours and the values'
    /// destructors) well inside a thread's stack whatever the input.
    static let maxDepth = 64

    init(file: String, source: SourceText, mode: Mode = .eager) {
        self.file = file
        self.source = source
        self.mode = mode
        self.syntax = InlineSyntax(
            file: file, lines: source.lines, keepsEscapedPunctuation: source.keepsEscapedPunctuation)
        self.html = RawHTML(file: file)
    }

    /// The file's line where `node` starts (0 when cmark-gfm does not know).
    private func startLine(_ node: OpaquePointer) -> Int {
        let line = Int(cmark_node_get_start_line(node))
        return line > 0 ? line + lineDelta : line
    }

    /// The displayed formula of a ```` ```math ```` block whose literal is `text`, its fence at
    /// `location`; its source begins on the line after the fence, past the blank lines and
    /// spaces before its first character.
    static func fencedFormula(_ text: String, at location: SourceLocation?) -> Inline {
        let leading = text.prefix { $0.isWhitespace }
        let lineBreaks = leading.filter(\.isNewline).count
        let spaces = leading.reversed().prefix { !$0.isNewline }.count
        let start = location.map {
            SourceLocation(file: $0.file, line: $0.line + 1 + lineBreaks, column: $0.column + spaces)
        }
        return .math(
            text.trimmingCharacters(in: .whitespacesAndNewlines), display: true, location: location, sourceStart: start)
    }

    private func location(_ node: OpaquePointer) -> SourceLocation? {
        let line = startLine(node)
        guard line > 0 else { return nil }
        let column = max(1, Int(cmark_node_get_start_column(node)))
        return SourceLocation(file: file, line: line, column: source.lines.sourceColumn(line: line - 1, column: column))
    }

    /// A node's literal text, each form feed (U+000C: white space to CommonMark, a page break
    /// to a line printer, and no glyph in any font) read as a space.
    private static func literal(_ node: OpaquePointer) -> String {
        guard let literal = cmark_node_get_literal(node) else { return "" }
        guard strchr(literal, 0x0C) != nil else { return String(cString: literal) }
        return String(String(cString: literal).unicodeScalars.map { $0 == "\u{0C}" ? " " : Character($0) })
    }

    private static func children(_ node: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            result.append(current)
            child = cmark_node_next(current)
        }
        return result
    }

    /// The text of a subtree without recursion (used past `maxDepth`).
    private static func plainText(_ node: OpaquePointer) -> String {
        var result = ""
        CmarkTree.forEachNode(under: node) { descendant in
            let type = cmark_node_get_type(descendant)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE || type == CMARK_NODE_CODE_BLOCK {
                result += literal(descendant)
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                result += " "
            } else if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING, !result.isEmpty {
                result += " "
            }
        }
        return result
    }

    private mutating func warnDepth(_ node: OpaquePointer) { warnDepth(at: location(node)) }

    private mutating func warnDepth(at location: SourceLocation?) {
        guard !warnedDepth else { return }
        warnedDepth = true
        diagnostics.append(
            Diagnostic(
                .warning, "content nested more than \(Self.maxDepth) levels deep is flattened to plain text",
                at: location, kind: .structure))
    }

    // MARK: Blocks

    enum BlockItem {
        case block(Block)
        case open(DivFence)
        case close(DivFence)
    }

    /// `items` as blocks: divs rebuilt from their fences, HTML tables and containers (`<div>`,
    /// `<details>`) from their tags, each never closed named where it opens.
    mutating func nested(_ items: [BlockItem]) -> [Block] {
        var unclosed: [(name: String, location: SourceLocation?)] = []
        let blocks = RawHTML.nestContainers(html.nestTables(nestDivs(items)), unclosed: &unclosed)
        for element in unclosed {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "'<\(element.name)>' opened here is never closed; closed at the end of its container (GitHub "
                        + "would hold everything after it in the element)", at: element.location, kind: .structure))
        }
        return blocks
    }

    /// The blocks of a container (document, quote, item, footnote, div), divs rebuilt.
    mutating func blocks(of parent: OpaquePointer, depth: Int) -> [Block] {
        var items: [BlockItem] = []
        for child in Self.children(parent) { convertBlock(child, depth: depth, into: &items) }
        return nested(items)
    }

    /// Whether the source line where `node` starts has `[` as its first character after the
    /// indentation and `>` markers: an alert's marker written as is, not escaped (`\[!NOTE]`)
    /// or as a reference (`&#91;!NOTE]`), which are text.
    private func startsWithBracket(_ node: OpaquePointer) -> Bool {
        let line = startLine(node)
        guard line >= 1, line <= syntax.lines.count else { return false }
        let bytes = syntax.lines[line - 1]
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: ">") }
        return first == UInt8(ascii: "[")
    }

    /// The warning for a fenced code block `node` (its fence `length` × `fence`) that is never
    /// closed: the rest of its container is set as code.
    private mutating func warnIfNeverClosed(_ node: OpaquePointer, fence: UInt8, length: Int, depth: Int) {
        guard !closesFence(node, character: fence, length: length) else { return }
        let written = String(repeating: Character(Unicode.Scalar(fence)), count: length)
        let rest = depth == 0 ? "the document" : "the list item or quote that holds it"
        diagnostics.append(
            Diagnostic(
                .warning,
                "'\(written)' opens a code block that is never closed: everything after it, to the end of \(rest), "
                    + "is set as code", at: location(node), kind: .structure))
    }

    /// Whether the fenced code block `node` ends with a closing fence: its last source line is,
    /// after the indentation and `>` markers, `length` or more of the opening's `character` and
    /// nothing but spaces (CommonMark 0.31, §4.5). One that is never closed runs to the end of
    /// its container, and its last line is anything else.
    private func closesFence(_ node: OpaquePointer, character: UInt8, length: Int) -> Bool {
        let end = Int(cmark_node_get_end_line(node)) + lineDelta
        // Lines unknown: not judged. The opening fence alone, on the last line: never closed.
        guard end <= syntax.lines.count else { return true }
        guard end > startLine(node) else { return false }
        let bytes = syntax.lines[end - 1].drop { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ">") }
        let run = bytes.prefix { $0 == character }.count
        return run >= length && bytes.dropFirst(run).allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Whether line `offset` of paragraph `node` (0 its first) starts with `:` or `~` as
    /// written, after the indentation and `>` markers: a definition's marker, not an escaped `\:`.
    /// Whether `node`'s text begins with a backslash escape (`\(@)`): read at its start column
    /// on its first line.
    func opensEscaped(_ node: OpaquePointer) -> Bool {
        let line = startLine(node)
        guard line >= 1, line <= syntax.lines.count else { return false }
        let bytes = syntax.sourceLine(line)
        let column = Int(cmark_node_get_start_column(node)) - 1
        return column >= 0 && column + 1 < bytes.count && bytes[column] == UInt8(ascii: "\\")
            && InlineSyntax.isASCIIPunctuation(bytes[column + 1])
    }

    func lineStartsWithMarker(_ node: OpaquePointer, _ offset: Int) -> Bool {
        let line = startLine(node) + offset
        guard line >= 1, line <= syntax.lines.count else { return false }
        let bytes = syntax.lines[line - 1]
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: ">") }
        return first == UInt8(ascii: ":") || first == UInt8(ascii: "~")
    }

    /// Rebuilds `div` blocks from the fence markers of one container. An unclosed div is closed
    /// at the end of its container; a closing fence with nothing open stays text. Both warn.
    private mutating func nestDivs(_ items: [BlockItem]) -> [Block] {
        var stack: [(fence: DivFence, attributes: Attributes, blocks: [Block])] = []
        var top: [Block] = []
        // Fences beyond the nesting limit stay literal paragraphs (balanced by `ignored`).
        var ignored = 0
        func append(_ block: Block) {
            if stack.isEmpty { top.append(block) } else { stack[stack.count - 1].blocks.append(block) }
        }
        for item in items {
            switch item {
            case .block(let block): append(block)
            case .open(let fence):
                guard case .open(let attributes) = fence.kind else { continue }
                if stack.count < Self.maxDepth {
                    stack.append((fence, attributes, []))
                } else {
                    ignored += 1
                    warnDepth(at: fence.location)
                    append(Block(.paragraph([.text(fence.original)]), location: fence.location))
                }
            case .close(let fence):
                if ignored > 0 {
                    ignored -= 1
                    append(Block(.paragraph([.text(fence.original)]), location: fence.location))
                } else if let open = stack.popLast() {
                    append(Block(.div(open.blocks), attributes: open.attributes, location: open.fence.location))
                } else {
                    // Matched in the source but not in this container (the pair spans containers).
                    diagnostics.append(
                        Diagnostic(
                            .warning, "closing div fence ':::' without an open div in its container; kept as text",
                            at: fence.location, kind: .structure))
                    append(Block(.paragraph([.text(fence.original)]), location: fence.location))
                }
            }
        }
        while let open = stack.popLast() {
            diagnostics.append(
                Diagnostic(
                    .warning, "div opened here is not closed; closed at the end of its container",
                    at: open.fence.location, kind: .structure))
            append(Block(.div(open.blocks), attributes: open.attributes, location: open.fence.location))
        }
        return top
    }

    private mutating func convertBlock(_ node: OpaquePointer, depth: Int, into items: inout [BlockItem]) {
        let type = cmark_node_get_type(node)
        let loc = location(node)
        let isContainer =
            type == CMARK_NODE_BLOCK_QUOTE || type == CMARK_NODE_LIST || type == CMARK_NODE_ITEM
            || type == CMARK_NODE_FOOTNOTE_DEFINITION || type == CMARK_NODE_CUSTOM_BLOCK
        if depth >= Self.maxDepth, isContainer || type == typeset_node_table() {
            warnDepth(node)
            items.append(.block(Block(.paragraph([.text(Self.plainText(node))]), location: loc)))
            return
        }
        switch type {
        case CMARK_NODE_PARAGRAPH:
            warnOfMismatchedDelimiterRow(node)
            let inlines = Self.droppingBackslashAfterImage(
                self.inlines(of: node, depth: depth + 1, heading: false, paragraph: true).0)
            if let blocks = RawHTML.splitAtHeadings(inlines, location: loc) {
                // Raw `<h1>`–`<h6>` tags in the paragraph: its text and the headings as blocks.
                items += blocks.map { .block($0) }
            } else if Self.isPageBreak(inlines) {
                items.append(.block(Block(.pageBreak, location: loc)))
            } else if let definitions = PandocDefinitions.definitions(
                inlines, lineStartsWithMarker: { self.lineStartsWithMarker(node, $0) }),
                PandocDefinitions.attach(definitions.map { [Block(.paragraph($0), location: loc)] }, to: &items)
            {
                // A loose definition: attached to the term or the definitions before it.
            } else if let item = PandocDefinitions.item(
                inlines, lineStartsWithColon: { self.lineStartsWithMarker(node, $0) })
            {
                let definitions = item.definitions.map { [Block(.paragraph($0), location: loc)] }
                items.append(
                    .block(
                        Block(
                            .definitionList([DefinitionItem(term: item.term, definitions: definitions)]), location: loc)
                    ))
            } else if !inlines.isEmpty {
                var paragraph = Block(.paragraph(inlines), location: loc)
                if opensEscaped(node) { paragraph.attributes.classes.append(Attributes.escapedOpeningClass) }
                items.append(.block(paragraph))
            }
        case CMARK_NODE_HEADING:
            let (inlines, attributes) = self.inlines(of: node, depth: depth + 1, heading: true)
            let level = Int(cmark_node_get_heading_level(node))
            let heading = Block(.heading(level: level, inlines), attributes: attributes ?? .none, location: loc)
            appendOrDefine(heading, node: node, to: &items)
        case CMARK_NODE_BLOCK_QUOTE:
            let quoted = blocks(of: node, depth: depth + 1)
            if startsWithBracket(node), let (kind, content) = GitHubSyntax.alert(quoted) {
                appendOrDefine(Block(.alert(kind, content), location: loc), node: node, to: &items)
            } else {
                appendOrDefine(Block(.blockQuote(quoted), location: loc), node: node, to: &items)
            }
        case CMARK_NODE_LIST:
            for (index, part) in lists(node, depth: depth).enumerated() {
                let block = Block(.list(part.list), location: index == 0 ? loc : location(part.firstItem))
                appendOrDefine(block, node: node, to: &items)
            }
        case CMARK_NODE_ITEM, CMARK_NODE_CUSTOM_BLOCK:
            // Items only occur in lists; custom blocks have no meaning here: keep their content.
            for child in Self.children(node) { convertBlock(child, depth: depth + 1, into: &items) }
        case CMARK_NODE_CODE_BLOCK:
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            let text = MathSyntax.restoringWritten(in: source.restoringFences(in: Self.literal(node)))
            if let parsed = AttributeListParser.parse(Array(info.utf8)), let format = parsed.raw,
                info.utf8.dropFirst(parsed.end).allSatisfy(AttributeListParser.isSpace)
            {
                appendRawBlock(text, format: format, startLine: startLine(node) + 1, at: loc, to: &items)
                return
            }
            // (cmark-gfm writes every out-parameter of `cmark_node_get_fenced`.)
            var fenceLength: Int32 = 0
            var fenceOffset: Int32 = 0
            var fenceCharacter: CChar = 0
            let fenced = cmark_node_get_fenced(node, &fenceLength, &fenceOffset, &fenceCharacter) != 0
            if !fenced, attachContinuation(text, at: loc, to: &items) {
                return  // blocks indented under a definition: the definition's own
            }
            if fenced, source.definitionOpenings.contains(startLine(node)),
                PandocDefinitions.attach([[Block(.codeBlock(info: info, text: text), location: loc)]], to: &items)
            {
                return  // a definition that opens with a fenced code block
            }
            if fenced {
                warnIfNeverClosed(
                    node, fence: UInt8(bitPattern: fenceCharacter), length: Int(fenceLength), depth: depth)
            }
            if info.trimmingCharacters(in: .whitespaces) == "math" {
                // GitHub's fenced math: a displayed formula.
                let formula = Self.fencedFormula(text, at: loc)
                items.append(.block(Block(.paragraph([formula]), location: loc)))
            } else {
                items.append(.block(Block(.codeBlock(info: info, text: text), location: loc)))
            }
        case CMARK_NODE_HTML_BLOCK:
            let text = Self.literal(node)
            if let number = source.markerNumber(in: text), let fence = source.fences[number] {
                switch fence.kind {
                case .open: items.append(.open(fence))
                case .close: items.append(.close(fence))
                }
            } else {
                items += html.blocks(source.restoringFences(in: text), location: loc).map { .block($0) }
            }
        case CMARK_NODE_THEMATIC_BREAK:
            items.append(.block(Block(.thematicBreak, location: loc)))
        case CMARK_NODE_FOOTNOTE_DEFINITION:
            guard mode != .replay else { return }  // kept from the scan
            let label = footnoteDefinitionLabel(node)
            footnoteDefinitions.append((label, blocks(of: node, depth: depth + 1)))
        default:
            if type == typeset_node_table() {
                items.append(.block(Block(.table(table(node, depth: depth + 1)), location: loc)))
            } else {
                for child in Self.children(node) { convertBlock(child, depth: depth + 1, into: &items) }
            }
        }
    }

    /// A raw block ```` ```{=format} ```` whose text starts at line `firstLine`: HTML (`html`)
    /// read as raw HTML written in the document, TeX (`latex`, `tex`) as a paragraph of TeX
    /// written in the text (its text commands set in their style, any other command as
    /// written, with a warning), as Pandoc's LaTeX writer keeps raw TeX in a PDF; any other
    /// format is left out, as Pandoc leaves out formats it does not write, with a warning.
    private mutating func appendRawBlock(
        _ text: String, format: String, startLine firstLine: Int, at location: SourceLocation?,
        to items: inout [BlockItem]
    ) {
        switch format.lowercased() {
        case "html", "html5":
            items += html.blocks(text, location: location).map { .block($0) }
        case "latex", "tex":
            var pieces: [InlinePiece] = []
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (offset, line) in lines.prefix(lines.last == "" ? lines.count - 1 : lines.count).enumerated() {
                if offset > 0 { pieces.append(.node(.softBreak)) }
                pieces.append(.text(TextPiece(text: String(line), line: firstLine + offset, column: 1)))
            }
            let finished = syntax.finish(pieces, heading: false)
            var inlines = takeFound(finished, finished.inlines)
            // The breaks beside lines of layout commands, left out.
            while case .softBreak? = inlines.first { inlines.removeFirst() }
            while case .softBreak? = inlines.last { inlines.removeLast() }
            guard !inlines.isEmpty else { return }
            let kind: Block.Kind = Self.isPageBreak(inlines) ? .pageBreak : .paragraph(inlines)
            items.append(.block(Block(kind, location: location)))
        default:
            guard mode != .replay else { return }
            diagnostics.append(Self.rawFormatLeftOut(format, block: true, at: location))
        }
    }

    /// A paragraph's `inlines` with the backslash that ends it right after an image read as a
    /// line break: Pandoc's way of keeping an image alone in its paragraph from being a figure
    /// (`![alt](p.png)\`, Pandoc's manual, "Extension: implicit_figures"), where the backslash is
    /// a line break at the paragraph's end, which shows nothing. The image stays in its line.
    static func droppingBackslashAfterImage(_ inlines: [Inline]) -> [Inline] {
        guard inlines.count >= 2, case .text("\\") = inlines[inlines.count - 1] else { return inlines }
        var image = inlines[inlines.count - 2]
        if case .span(_, let content) = image, content.count == 1 { image = content[0] }
        guard case .image = image else { return inlines }
        return inlines.dropLast() + [.lineBreak]
    }

    /// Whether a paragraph's `inlines` are a LaTeX page break alone (`\newpage`,
    /// `\pagebreak`, `\clearpage`, `\cleardoublepage`), which Pandoc's LaTeX route obeys.
    static func isPageBreak(_ inlines: [Inline]) -> Bool {
        guard inlines.count == 1, case .text(let text) = inlines[0] else { return false }
        return ["\\newpage", "\\pagebreak", "\\clearpage", "\\cleardoublepage"].contains(text.trimmingSpaces)
    }

    /// The warning for raw content of a format Typeset does not read (`{=openxml}`), left out.
    static func rawFormatLeftOut(_ format: String, block: Bool, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(
            .warning,
            "a raw \(block ? "block" : "inline") for '\(format)' is left out (Typeset reads raw html and latex; "
                + "other formats are for other writers, as in Pandoc)",
            at: location, kind: .content)
    }

    /// Warns of the characters no PDF can hold (``TextSanitizer/isRefused(_:)``) that the
    /// character references of the text `node` named, replaced by U+FFFD: at the first `&#` on
    /// the node's line from where it starts.
    private mutating func warnOfReferencedCharacters(_ replaced: TextSanitizer.Report, node: OpaquePointer) {
        guard mode != .replay, var place = location(node) else { return }
        let line = place.line - 1
        if line < source.lines.count {
            let bytes = source.lines[line]
            let start = min(max(0, Int(cmark_node_get_start_column(node)) - 1), bytes.count)
            if let ampersand = bytes[start...].indices.first(where: {
                bytes[$0] == UInt8(ascii: "&") && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "#")
            }) {
                place.column = source.lines.sourceColumn(line: line, column: ampersand + 1)
            }
        }
        let what = replaced.count == 1 ? "a character" : "\(replaced.count) characters"
        diagnostics.append(
            Diagnostic(
                .warning,
                "a character reference names \(what) no PDF can hold (the first "
                    + "\(TextSanitizer.codePoint(replaced.first)), a noncharacter or control character), replaced by "
                    + "U+FFFD", at: place, kind: .encoding))
    }

    /// Appends `block`, `node`'s, to `items`, or makes it a definition of the term or the
    /// definition list before it when its definition's marker was made a space on its line
    /// (``PandocDefinitions/rewritingOpenings(_:firstLine:)``).
    private func appendOrDefine(_ block: Block, node: OpaquePointer, to items: inout [BlockItem]) {
        if source.definitionOpenings.contains(startLine(node)), PandocDefinitions.attach([[block]], to: &items) {
            return
        }
        items.append(.block(block))
    }

    private mutating func table(_ node: OpaquePointer, depth: Int) -> Table {
        let columns = Int(cmark_gfm_extensions_get_table_columns(node))
        var alignments: [ColumnAlignment] = []
        if let raw = cmark_gfm_extensions_get_table_alignments(node) {
            for i in 0..<columns {
                switch raw[i] {
                case UInt8(ascii: "l"): alignments.append(.left)
                case UInt8(ascii: "c"): alignments.append(.center)
                case UInt8(ascii: "r"): alignments.append(.right)
                default: alignments.append(.none)
                }
            }
        } else {
            alignments = Array(repeating: .none, count: columns)
        }
        var header: [[Inline]] = []
        var rows: [[[Inline]]] = []
        var overfull: (first: (place: SourceLocation, cells: Int, text: String), rows: Int)?
        for row in Self.children(node) {
            if cmark_gfm_extensions_get_table_row_is_header(row) != 0, header.isEmpty {
                header = cells(of: row, depth: depth)
            } else {
                rows.append(cells(of: row, depth: depth))
            }
            guard mode != .replay, let excess = excessCells(of: row, columns: columns) else { continue }
            overfull = (overfull?.first ?? excess, (overfull?.rows ?? 0) + 1)
        }
        if let overfull {
            let (place, count, text) = overfull.first
            let more = overfull.rows > 1 ? " (\(overfull.rows) rows like this in all)" : ""
            let table = "the table has \(columns) column\(columns == 1 ? "" : "s")"
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "table row has \(count) cells but \(table): '\(text.prefix(60))' is not set, as GitHub sets "
                        + "no cell past the delimiter row's (a | inside a cell, code included, is written \\|)\(more)",
                    at: place, kind: .content))
        }
        return Table(alignments: alignments, header: header, rows: rows)
    }

    /// Warns, at the delimiter row, about a paragraph that is a pipe table but for its header
    /// and delimiter rows having different numbers of cells, which GitHub reads as no table
    /// (GitHub Flavored Markdown, "Tables (extension)": "The header row must match the
    /// delimiter row in the number of cells"): it is set as text, as GitHub sets it.
    private mutating func warnOfMismatchedDelimiterRow(_ node: OpaquePointer) {
        let start = startLine(node)
        let end = Int(cmark_node_get_end_line(node)) + lineDelta
        guard mode != .replay, start > 0, end > start, end <= source.lines.count else { return }
        for line in (start + 1)...end where MathSyntax.isDelimiterRow(source.lines[line - 1][...]) {
            let header = source.lines[line - 2][...]
            guard header.contains(UInt8(ascii: "|")) else { continue }
            let headerCells = MathSyntax.cellCount(in: header)
            let delimiterCells = MathSyntax.cellCount(in: source.lines[line - 1][...])
            guard headerCells != delimiterCells else { continue }
            let bytes = source.lines[line - 1]
            let column = (bytes.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: ">") } ?? 0) + 1
            var warning = Diagnostic(
                .warning,
                "a table's header row has \(headerCells) cell\(headerCells == 1 ? "" : "s") and its delimiter "
                    + "row \(delimiterCells): GitHub reads a table only when the two have as many, so these "
                    + "lines are set as text",
                at: SourceLocation(
                    file: file, line: line, column: source.lines.sourceColumn(line: line - 1, column: column)),
                kind: .content)
            // Said apart for other counts: the numbers are the case.
            warning.distinction = "\(headerCells) \(delimiterCells)"
            diagnostics.append(warning)
            return
        }
    }

    /// The cells past the table's `columns` in `row`'s source line, which cmark-gfm drops as
    /// GitHub does: where the first begins, how many cells the row has, and their text; nil
    /// when they hold no text. Cells are split at each `|` not escaped by a backslash, inside
    /// code spans too (GitHub Flavored Markdown, "Tables (extension)").
    private func excessCells(of row: OpaquePointer, columns: Int) -> (SourceLocation, Int, String)? {
        let line = startLine(row)
        let column = Int(cmark_node_get_start_column(row))
        guard line > 0, column > 0, line <= source.lines.count else { return nil }
        let bytes = source.lines.slice(line - 1)
        var index = bytes.startIndex + min(column - 1, bytes.count)
        while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "|") { index += 1 }
        var cells: [Range<Int>] = []
        var start = index
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "|") {
                cells.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        func blank(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
        let end = min(index, bytes.endIndex)
        if start < end, !blank(start..<end) { cells.append(start..<end) }
        guard cells.count > columns else { return nil }
        let excess = cells[columns...].filter { !blank($0) }
        guard let first = excess.first else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        // A row wider than a table may be has its cells past the limit in its last, escaped.
        let written = source.writtenCells[line]
        let text = excess.map { range in
            let cell = bytes[range].drop(while: isSpace)
            let cellText = MathSyntax.unmarked(
                String(decoding: cell.prefix(cell.count - cell.reversed().prefix(while: isSpace).count), as: UTF8.self))
            return written == nil ? cellText : cellText.replacingOccurrences(of: "\\|", with: "|")
        }.joined(separator: " | ")
        let firstByte = bytes[first].firstIndex { !isSpace($0) } ?? first.lowerBound
        let place = SourceLocation(
            file: file, line: line,
            column: source.lines.sourceColumn(line: line - 1, column: firstByte - bytes.startIndex + 1))
        return (place, written ?? cells.count, text)
    }

    /// The cells of a table row, one inline list each.
    mutating func cells(of row: OpaquePointer, depth: Int) -> [[Inline]] {
        Self.children(row).map { inlines(of: $0, depth: depth + 1, heading: false).0 }
    }

    // MARK: Top-level segments

    /// Whether the div fences and HTML container markers seen so far at the top level are all
    /// closed: where a run of top-level nodes converts to blocks independently of what follows
    /// (``nestDivs(_:)`` and ``RawHTML/nestContainers(_:)`` then carry no state across it).
    struct TopLevelNesting {
        var divs = 0, ignored = 0
        var html: [String] = []
        /// HTML tables left open (``RawHTML/nestTables(_:)``), and the blocks since one opened:
        /// a table still open after ``longestTableSpan`` blocks no longer holds the run open
        /// (``RawHTML/nestTables(_:)`` sets a table it does not see closed as before).
        var tables = 0, tableSpan = 0
        static let longestTableSpan = 256
        var balanced: Bool { divs == 0 && ignored == 0 && html.isEmpty && tables == 0 }

        /// Follows `item` as ``nestDivs(_:)`` and then ``RawHTML/nestContainers(_:)`` would.
        mutating func advance(over item: BlockItem) {
            switch item {
            case .open: if divs < CmarkConverter.maxDepth { divs += 1 } else { ignored += 1 }
            case .close: if ignored > 0 { ignored -= 1 } else if divs > 0 { divs -= 1 }
            case .block(let block):
                if tables > 0 {
                    tableSpan += 1
                    if tableSpan > Self.longestTableSpan { tables = 0 }
                }
                if RawHTML.isTablePart(block), case .html(let fragment) = block.kind {
                    if tables == 0 { tableSpan = 0 }
                    tables = max(
                        0, tables + RawHTML.tableBalance(String(fragment.dropFirst(RawHTML.tableMarker.count))))
                }
                guard divs == 0, ignored == 0, case .html(let fragment) = block.kind else { return }
                if fragment.hasPrefix(RawHTML.openMarker) {
                    html.append(String(fragment.dropFirst(RawHTML.openMarker.count)))
                } else if fragment.hasPrefix(RawHTML.closeMarker),
                    let index = html.lastIndex(of: String(fragment.dropFirst(RawHTML.closeMarker.count)))
                {
                    html.removeSubrange(index...)
                }
            }
        }
    }

    /// What a scan has learnt so far (``scan(_:)``).
    struct SegmentScan {
        var segments: [SourceWindows.Segment] = []
        var topLevelWarnings: [Diagnostic] = []
        var items: [BlockItem] = []
        var nesting = TopLevelNesting()
        var current: SourceWindows.Segment?
        var blockCount = 0
        var nodes = 0
        /// Nodes without a position (``hasPosition(_:)``) waiting for the next node's segment.
        var unplaced = 0
        /// The blocks of segments of more than ``SourceWindows/heldSegmentBytes`` of source, by
        /// segment index: kept rather than parsed again during layout.
        var held: [Int: [Block]] = [:]
    }
    private var segmentScan = SegmentScan()

    /// The scan: converts the document's top-level nodes one run at a time (a run ends where
    /// every div and HTML container opened at the top level is closed), keeping only where each
    /// run starts and ends, how many nodes it spans and how many blocks it makes — and every
    /// diagnostic and footnote, as ``blocks(of:depth:)`` finds them on the whole document.
    /// Footnote definitions (cmark-gfm moves them to the end) are converted but belong to no run.
    mutating func scanSegments(of root: OpaquePointer) -> [SourceWindows.Segment] {
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            scan(node)
        }
        return finishScan()
    }

    /// Feeds the scan the document's next top-level node (of the whole tree or of a window,
    /// with ``lineDelta`` set).
    mutating func scan(_ node: OpaquePointer) {
        var items = segmentScan.items
        segmentScan.items = []
        let start = items.count
        convertBlock(node, depth: 0, into: &items)
        segmentScan.items = items
        guard cmark_node_get_type(node) != CMARK_NODE_FOOTNOTE_DEFINITION else { return }
        segmentScan.nodes += 1
        guard Self.hasPosition(node) else {
            // The paragraph cmark-gfm splits off before a table's header row has no position:
            // it belongs to the segment of the table that follows it.
            segmentScan.unplaced += 1
            return
        }
        // (cmark-gfm may end an HTML block's range a line early, even before its start.)
        let first = startLine(node)
        let last = max(first, Int(cmark_node_get_end_line(node)) + lineDelta)
        if segmentScan.current == nil {
            segmentScan.current = SourceWindows.Segment(
                firstNode: segmentScan.nodes - 1 - segmentScan.unplaced, nodes: segmentScan.unplaced,
                firstLine: first, lastLine: last, firstBlock: 0, blocks: 0)
        } else {
            segmentScan.current!.nodes += segmentScan.unplaced
        }
        segmentScan.unplaced = 0
        segmentScan.current!.nodes += 1
        segmentScan.current!.lastLine = max(segmentScan.current!.lastLine, last)
        for item in segmentScan.items[start...] { segmentScan.nesting.advance(over: item) }
        if segmentScan.nesting.balanced,
            !PandocDefinitions.continues(
                after: segmentScan.items.last, line: last, lines: syntax.lines, fences: source.definitionOpenings)
        {
            flushSegment()
        }
    }

    /// Whether cmark-gfm gave `node` a source position: every node of the source has one, but
    /// the paragraph the table extension (cmark-gfm 0.29) splits off before a table's header
    /// row, when the paragraph held lines above it, has line 0.
    static func hasPosition(_ node: OpaquePointer) -> Bool { cmark_node_get_start_line(node) > 0 }

    /// Ends the scan: the segments, in order; the diagnostics are complete.
    mutating func finishScan() -> [SourceWindows.Segment] {
        if segmentScan.unplaced > 0 {
            // (Never expected: a split paragraph is followed by its table.) Kept in a segment of
            // its own, which no window parse matches: it is converted from the whole document.
            let line = segmentScan.segments.last?.lastLine ?? 1
            if segmentScan.current == nil {
                segmentScan.current = SourceWindows.Segment(
                    firstNode: segmentScan.nodes - segmentScan.unplaced, nodes: 0,
                    firstLine: 0, lastLine: line, firstBlock: 0, blocks: 0)
            }
            segmentScan.current!.nodes += segmentScan.unplaced
            segmentScan.unplaced = 0
        }
        flushSegment()
        diagnostics += segmentScan.topLevelWarnings
        let segments = segmentScan.segments
        heldSegments = segmentScan.held
        segmentScan = SegmentScan()
        return segments
    }

    /// After ``finishScan()``: the blocks of the segments too long to parse again during
    /// layout, by segment index (see ``SourceWindows/heldSegmentBytes``).
    var heldSegments: [Int: [Block]] = [:]

    private mutating func flushSegment() {
        guard var segment = segmentScan.current else { return }
        let before = diagnostics.count
        let blocks = nested(segmentScan.items)
        let made = blocks.count
        let ranges = source.lines.ranges
        if segment.firstLine >= 1, segment.firstLine <= ranges.count,
            ranges[min(segment.lastLine, ranges.count) - 1].upperBound - ranges[segment.firstLine - 1].lowerBound
                > SourceWindows.heldSegmentBytes
        {
            segmentScan.held[segmentScan.segments.count] = blocks
        }
        // The whole-document conversion nests the top level's divs after converting
        // everything: its warnings come after the others, as there.
        segmentScan.topLevelWarnings += diagnostics[before...]
        diagnostics.removeSubrange(before...)
        segment.firstBlock = segmentScan.blockCount
        segment.blocks = made
        segmentScan.segments.append(segment)
        segmentScan.blockCount += made
        segmentScan.items = []
        segmentScan.current = nil
    }

    /// The blocks of `nodes`, top-level nodes that make one segment or a run of whole segments
    /// of the scan, made again.
    mutating func blocks(ofTopLevel nodes: [OpaquePointer]) -> [Block] {
        var items: [BlockItem] = []
        for node in nodes { convertBlock(node, depth: 0, into: &items) }
        return nested(items)
    }

    // MARK: Inlines

    /// The inlines of `parent`; `paragraph`: they are a paragraph's, where a raw `<h1>`–`<h6>`
    /// starts a heading block (``RawHTML/nest(_:markingHeadings:)``).
    mutating func inlines(of parent: OpaquePointer, depth: Int, heading: Bool, paragraph: Bool = false)
        -> ([Inline], Attributes?)
    {
        let outermost = !convertingInlines
        let numberedBefore = footnoteNumbers.count
        convertingInlines = true
        var pieces: [InlinePiece] = []
        let children = Self.children(parent)
        var index = 0
        while index < children.count {
            if let element = Self.rawTextElement(children[index]) {
                // `<xmp>` and `<plaintext>` in running text: what they hold is text as written.
                let close = children[(index + 1)...].firstIndex { Self.isEndTag(of: element, $0) }
                let text = writtenText(of: children[index..<(close ?? children.count)])
                if !text.isEmpty { pieces.append(.node(.code(text))) }
                index = close.map { $0 + 1 } ?? children.count
                continue
            }
            convertInline(children[index], depth: depth, into: &pieces)
            index += 1
        }
        let finished = syntax.finish(pieces, heading: heading)
        var inlines = finished.inlines
        if !finished.found.notes.isEmpty || !finished.found.unclosedNotes.isEmpty
            || !finished.found.unresolvedReferences.isEmpty || !finished.found.undefinedNotes.isEmpty
            || !finished.found.latexCommands.isEmpty || !finished.found.rawFormats.isEmpty
        {
            inlines = takeFound(finished, inlines)
        }
        if outermost {
            convertingInlines = false
            if !pendingInlineNotes.isEmpty { inlines = numberInlineNotes(inlines, numberedBefore: numberedBefore) }
        }
        return (html.nest(inlines, markingHeadings: paragraph), finished.attributes)
    }

    /// The elements whose content the HTML standard's tokenizer reads as text up to their end
    /// tag (`<xmp>`, RAWTEXT) or to the end (`<plaintext>`), and that a browser shows.
    static let rawTextElements = ["xmp", "plaintext"]

    /// The element of `rawTextElements` whose start tag `node` (an inline HTML node) is.
    static func rawTextElement(_ node: OpaquePointer) -> String? {
        guard cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE else { return nil }
        let tag = literal(node).lowercased()
        return rawTextElements.first { name in
            tag.hasPrefix("<" + name)
                && tag.dropFirst(name.count + 1).first.map { $0 == ">" || $0 == "/" || $0.isWhitespace } == true
        }
    }

    /// Whether `node` is an inline end tag of `element`.
    static func isEndTag(of element: String, _ node: OpaquePointer) -> Bool {
        guard cmark_node_get_type(node) == CMARK_NODE_HTML_INLINE else { return false }
        let tag = literal(node).lowercased()
        return tag.hasPrefix("</" + element)
            && tag.dropFirst(element.count + 2).first.map { $0 == ">" || $0.isWhitespace } == true
    }

    /// The text of the file after the first of `nodes` (a start tag) through the last, as
    /// written: each line from where its first node starts (past a code span's backticks),
    /// the lines joined by spaces, formulas as written.
    func writtenText(of nodes: ArraySlice<OpaquePointer>) -> String {
        guard let open = nodes.first,
            let last = nodes.dropFirst().last(where: { cmark_node_get_start_line($0) > 0 })
        else { return "" }
        let firstLine = Int(cmark_node_get_end_line(open)) + lineDelta
        let lastLine = Int(cmark_node_get_end_line(last)) + lineDelta
        guard firstLine > 0, lastLine >= firstLine else { return "" }
        var lineStarts: [Int: Int] = [firstLine: Int(cmark_node_get_end_column(open)) + 1]
        for node in nodes.dropFirst() where startLine(node) > firstLine && lineStarts[startLine(node)] == nil {
            lineStarts[startLine(node)] = Int(cmark_node_get_start_column(node))
        }
        var lines: [String] = []
        for line in firstLine...lastLine {
            let bytes = source.lines.slice(line - 1)
            var start = bytes.startIndex + max(0, (lineStarts[line] ?? 1) - 1)
            while line != firstLine, start > bytes.startIndex, bytes[start - 1] == UInt8(ascii: "`") { start -= 1 }
            var end = bytes.endIndex
            if line == lastLine {
                end = min(end, bytes.startIndex + Int(cmark_node_get_end_column(last)))
                while end < bytes.endIndex, bytes[end] == UInt8(ascii: "`") { end += 1 }
            }
            lines.append(start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : "")
        }
        return MathSyntax.restoringWritten(in: lines.joined(separator: " "))
    }

    /// Drops the word joiner a formula's marker starts with (``MathSyntax/marker(source:display:bytes:)``).
    static func dropWordJoiner(before pieces: inout [InlinePiece]) {
        guard case .text(var piece)? = pieces.last, piece.text.hasSuffix("\u{2060}") else { return }
        piece.text.removeLast()
        if piece.text.isEmpty { pieces.removeLast() } else { pieces[pieces.count - 1] = .text(piece) }
    }

    private mutating func convertInline(_ node: OpaquePointer, depth: Int, into pieces: inout [InlinePiece]) {
        let type = cmark_node_get_type(node)
        let isContainer =
            type == CMARK_NODE_EMPH || type == CMARK_NODE_STRONG || type == CMARK_NODE_LINK
            || type == CMARK_NODE_IMAGE || type == typeset_node_strikethrough() || type == CMARK_NODE_CUSTOM_INLINE
        if depth >= Self.maxDepth, isContainer {
            warnDepth(node)
            pieces.append(.node(.text(Self.plainText(node))))
            return
        }
        switch type {
        case CMARK_NODE_TEXT:
            var text = Self.literal(node)
            guard !text.isEmpty else { return }  // autolink leaves empty text nodes
            let (sanitized, replaced) = TextSanitizer.sanitize(text)
            if let replaced {
                // Written as a character reference (`&#x80;`, `&#27;`): the text itself was
                // sanitized before parsing.
                text = sanitized
                warnOfReferencedCharacters(replaced, node: node)
            }
            pieces.append(
                .text(
                    TextPiece(
                        text: text, line: startLine(node), column: Int(cmark_node_get_start_column(node)))))
        case CMARK_NODE_SOFTBREAK: pieces.append(.node(.softBreak))
        case CMARK_NODE_LINEBREAK: pieces.append(.node(.lineBreak))
        case CMARK_NODE_CODE: pieces.append(.node(.code(MathSyntax.restoringWritten(in: Self.literal(node)))))
        case CMARK_NODE_HTML_INLINE:
            let html = Self.literal(node)
            if let number = source.markerNumber(in: html), let fence = source.fences[number] {
                pieces.append(.node(.text(fence.original)))  // a fence inside a paragraph: literal
            } else if let formula = MathSyntax.formula(inMarker: html) {
                Self.dropWordJoiner(before: &pieces)
                let place = SourceLocation(file: file, line: formula.line, column: formula.column)
                let start = formula.sourceStart.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
                pieces.append(
                    .node(.math(formula.source, display: formula.display, location: place, sourceStart: start)))
            } else {
                pieces.append(.node(.rawHTML(html, location: location(node))))
            }
        case CMARK_NODE_EMPH:
            pieces.append(.node(.emphasis(inlines(of: node, depth: depth + 1, heading: false).0)))
        case CMARK_NODE_STRONG:
            pieces.append(.node(.strong(inlines(of: node, depth: depth + 1, heading: false).0)))
        case CMARK_NODE_LINK:
            let children = inlines(of: node, depth: depth + 1, heading: false).0
            pieces.append(.node(.link(destination: Self.url(node), title: Self.title(node), children: children)))
        case CMARK_NODE_IMAGE:
            let alt = inlines(of: node, depth: depth + 1, heading: false).0
            pieces.append(
                .node(.image(source: Self.url(node), title: Self.title(node), alt: alt, location: location(node))))
        case CMARK_NODE_FOOTNOTE_REFERENCE:
            var number = Int(Self.literal(node)) ?? (footnoteNumbers.values.max() ?? 0) + 1
            let label = footnoteReferenceLabel(node) ?? String(number)
            if let labels = footnoteLabels {
                if let known = labels[Self.normalizedLabel(label)] { number = known } else { unresolvedFootnote = true }
            } else if numbersNotesInOrder {
                if footnoteReferenceLabel(node) == nil { unresolvedFootnote = true }
                number = footnoteNumbers[Self.normalizedLabel(label)] ?? footnoteNumbers.count + 1
            }
            if footnoteNumbers[Self.normalizedLabel(label)] == nil {
                footnoteNumbers[Self.normalizedLabel(label)] = number
            }
            pieces.append(.node(.footnoteReference(label: label, number: number)))
        default:
            if type == typeset_node_strikethrough() {
                let children = inlines(of: node, depth: depth + 1, heading: false).0
                let tildes = delimiterLength(node)
                if tildes == 2 {
                    pieces.append(.node(.strikethrough(children)))
                } else if Self.isSubscript(tildes: tildes, children: children) {
                    pieces.append(.node(.presentation(.subscript, children)))
                } else {
                    // One `~` on each side around whitespace: text with its tildes, as Pandoc
                    // reads it (`3월~5월, 9시~18시`, `~/.bashrc and ~user`): GitHub's
                    // strikethrough is written `~~`.
                    let opening = Int(cmark_node_get_start_column(node))
                    pieces.append(.text(TextPiece(text: "~", line: startLine(node), column: opening)))
                    pieces += children.map { .node($0) }
                    let closing = Int(cmark_node_get_end_column(node))
                    let endLine = startLine(node) + Int(cmark_node_get_end_line(node) - cmark_node_get_start_line(node))
                    pieces.append(.text(TextPiece(text: "~", line: endLine, column: closing)))
                }
            } else {
                for child in Self.children(node) { convertInline(child, depth: depth + 1, into: &pieces) }
            }
        }
    }

    /// The lists of a cmark-gfm list node — kind, start, numbering, tightness, delimiter and
    /// items (a task item's box as cmark-gfm's extension or GitHub's empty-item form finds
    /// it) — each with its first item's node: one, or several where Pandoc's markers change
    /// numbering or parentheses from one item to the next (`a)` then `(i)`, `가.` then `1.`,
    /// `(@)` then `(1)`), which Pandoc reads as lists of their own and cmark-gfm, reading them
    /// as figures of one delimiter, as one (``PandocListMarkers``). A part is loose when its
    /// own items are.
    private mutating func lists(_ node: OpaquePointer, depth: Int) -> [(list: ListBlock, firstItem: OpaquePointer)] {
        let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
        let tight = cmark_node_get_list_tight(node) != 0
        let template = ListBlock(
            ordered: ordered, start: ordered ? Int(cmark_node_get_list_start(node)) : 1, tight: tight,
            delimiter: cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM ? ")" : ".", items: [])
        var parts: [(list: ListBlock, firstItem: OpaquePointer, example: Bool)] = []
        var partIsLoose = false
        // Without Pandoc's markers in the text a list is never parted: cmark-gfm's tightness holds.
        let mayPart = ordered && !source.listMarkers.isEmpty
        func finishPart() {
            guard !parts.isEmpty else { return }
            parts[parts.count - 1].list.tight = tight || (mayPart && !partIsLoose)
            partIsLoose = false
        }
        for item in Self.children(node) {
            let marker = ordered ? source.listMarkers[startLine(item)] : nil
            let numbering = marker?.numbering ?? .decimal
            let enclosed = marker?.enclosed ?? false
            let example = marker?.example ?? false
            if let last = parts.last, last.list.numbering == numbering, last.list.enclosed == enclosed,
                last.example == example
            {
                partIsLoose = partIsLoose || (mayPart && followsBlankLine(item))
            } else {
                finishPart()
                var list = template
                if let marker {
                    list.numbering = numbering
                    list.start = marker.start
                    list.enclosed = enclosed
                }
                parts.append((list, item, example))
            }
            partIsLoose = partIsLoose || (mayPart && hasBlankLineBetweenBlocks(item))
            var task: Bool?
            if let ext = CmarkExtensions.handles.tasklist, cmark_node_get_syntax_extension(item) == ext {
                task = cmark_gfm_extensions_get_tasklist_item_checked(item)
            }
            var itemBlocks = blocks(of: item, depth: depth + 2)
            if task == nil, let found = GitHubSyntax.task(itemBlocks) {
                task = found.checked
                itemBlocks = found.blocks
            }
            parts[parts.count - 1].list.items.append(ListItem(blocks: itemBlocks, task: task))
        }
        finishPart()
        if parts.isEmpty { return [(template, node)] }
        return parts.map { ($0.list, $0.firstItem) }
    }

    /// Whether a blank line comes right before `item`'s first line (CommonMark's loose list,
    /// "List items": items separated by blank lines).
    private func followsBlankLine(_ item: OpaquePointer) -> Bool {
        let line = startLine(item)
        guard line > 1 else { return false }
        return syntax.sourceLine(line - 1).allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Whether two of `item`'s blocks have a blank line between them (the other way a
    /// CommonMark list is loose).
    private func hasBlankLineBetweenBlocks(_ item: OpaquePointer) -> Bool {
        let children = Self.children(item)
        return zip(children, children.dropFirst()).contains { before, after in
            startLine(after) - (Int(cmark_node_get_end_line(before)) + lineDelta) > 1
        }
    }

    /// Whether a cmark-gfm strikethrough node is Pandoc's subscript (Pandoc manual, "Extension:
    /// superscript, subscript"): one `~` on each side (GFM's strikethrough is `~~`) around text
    /// with no whitespace but a no-break space, as `H~2~O`. The delimiter's length is
    /// the distance from the node's start column to its first child's.
    static func isSubscript(tildes: Int, children: [Inline]) -> Bool {
        guard !children.isEmpty, tildes == 1 else { return false }
        return !children.contains { inline in
            switch inline {
            case .softBreak, .lineBreak: true
            default: hasBreakingWhitespace(inline.plainText)
            }
        }
    }

    /// The number of tildes on each side of a cmark-gfm strikethrough node (cmark-gfm pairs
    /// runs of the same length, one or two): the run at the node's start column in its source
    /// line (a first child's column is no measure of it: a code span's starts after its
    /// backtick, so `~~`y` x~~` read as one tilde a side); 2 when the line does not show it.
    func delimiterLength(_ node: OpaquePointer) -> Int {
        let bytes = syntax.sourceLine(startLine(node))
        let column = Int(cmark_node_get_start_column(node)) - 1
        guard column >= 0, column < bytes.count, bytes[column] == UInt8(ascii: "~") else { return 2 }
        return bytes[column...].prefix { $0 == UInt8(ascii: "~") }.count
    }

    /// Whether `text` holds whitespace other than a no-break space (which Pandoc allows
    /// inside a subscript or superscript, written `\ `).
    static func hasBreakingWhitespace(_ text: String) -> Bool {
        text.contains { $0.isWhitespace && $0 != "\u{00A0}" }
    }

    private static func url(_ node: OpaquePointer) -> String {
        cmark_node_get_url(node).map { String(cString: $0) } ?? ""
    }

    private static func title(_ node: OpaquePointer) -> String {
        cmark_node_get_title(node).map { String(cString: $0) } ?? ""
    }

    // MARK: Footnotes

    /// cmark-gfm replaces a reference's literal with its number; the label is read back from
    /// the source at the node's position (`[^label]`).
    private func footnoteReferenceLabel(_ node: OpaquePointer) -> String? {
        let line = startLine(node)
        let column = Int(cmark_node_get_start_column(node))
        guard line >= 1, line <= source.lines.count, column >= 1 else { return nil }
        let bytes = source.lines.slice(line - 1)
        var cursor = bytes.startIndex + column - 1
        guard cursor + 2 < bytes.endIndex, bytes[cursor] == UInt8(ascii: "["),
            bytes[cursor + 1] == UInt8(ascii: "^")
        else { return nil }
        cursor += 2
        let start = cursor
        while cursor < bytes.endIndex, bytes[cursor] != UInt8(ascii: "]") { cursor += 1 }
        guard cursor < bytes.endIndex, cursor > start else { return nil }
        return String(decoding: bytes[start..<cursor], as: UTF8.self)
    }

    /// A definition node starts at its content; its `[^label]:` is the last one written before
    /// that position (on the same line, or a line or two above for an empty first line).
    private func footnoteDefinitionLabel(_ node: OpaquePointer) -> String? {
        let first = startLine(node)
        let startColumn = Int(cmark_node_get_start_column(node))
        guard first >= 1, first <= source.lines.count else { return nil }
        for line in stride(from: first, through: max(1, first - 3), by: -1) {
            let bytes = source.lines[line - 1]
            let limit = line == first ? min(bytes.count, max(0, startColumn - 1)) : bytes.count
            var found: String?
            var cursor = 0
            while cursor + 1 < limit {
                if bytes[cursor] == UInt8(ascii: "["), bytes[cursor + 1] == UInt8(ascii: "^") {
                    var labelEnd = cursor + 2
                    while labelEnd < bytes.count, bytes[labelEnd] != UInt8(ascii: "]") { labelEnd += 1 }
                    if labelEnd + 1 < bytes.count, labelEnd > cursor + 2, bytes[labelEnd + 1] == UInt8(ascii: ":") {
                        found = String(decoding: bytes[(cursor + 2)..<labelEnd], as: UTF8.self)
                    }
                    cursor = labelEnd
                } else {
                    cursor += 1
                }
            }
            if let found { return found }
        }
        return nil
    }

    /// Learns cmark-gfm's note numbers in the whole tree `root` (``treeNoteNumbers``): the
    /// definitions it keeps, those cited, are moved to the end in number order. When no note
    /// cites another, cmark-gfm's numbers are the order of first citation, and the conversion
    /// numbers the notes in document order itself (``numbersNotesInOrder``), as the windowed
    /// scan does: notes cited inside a definition's blocks, which cmark-gfm reads as code, then
    /// take their places in that order.
    mutating func learnTreeNoteNumbers(_ root: OpaquePointer) {
        var number = 0
        var citesANote = false
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            guard cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_DEFINITION else { continue }
            number += 1
            if let label = footnoteDefinitionLabel(node) { treeNoteNumbers[Self.normalizedLabel(label)] = number }
            CmarkTree.forEachNode(under: node) {
                if cmark_node_get_type($0) == CMARK_NODE_FOOTNOTE_REFERENCE { citesANote = true }
            }
        }
        if !citesANote {
            numbersNotesInOrder = true
            return
        }
        CmarkTree.forEachNode(under: root) { node in
            guard cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_REFERENCE, let number = Int(Self.literal(node))
            else {
                return
            }
            let place = NotePlace(line: startLine(node), column: Int(cmark_node_get_start_column(node)))
            if place.line > 0 { treeNoteFirstPlaces[number] = min(treeNoteFirstPlaces[number] ?? place, place) }
        }
    }

    /// Labels match case-insensitively with whitespace collapsed (CommonMark link labels).
    static func normalizedLabel(_ label: String) -> String {
        label.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Definitions by reference number. A definition whose label cannot be read back takes the
    /// lowest free number (cmark-gfm orders the definitions it moves by number).
    func footnotes() -> [Int: [Block]] {
        var result: [Int: [Block]] = [:]
        var unresolved: [[Block]] = []
        for definition in footnoteDefinitions {
            if let label = definition.label, let number = footnoteNumbers[Self.normalizedLabel(label)] {
                if result[number] == nil { result[number] = definition.blocks }
            } else {
                unresolved.append(definition.blocks)
            }
        }
        var next = 1
        for blocks in unresolved {
            while result[next] != nil { next += 1 }
            result[next] = blocks
        }
        return result
    }
}

extension CmarkTree {
    /// Calls `body` with every node under `root` (`root` included) in document order, as
    /// cmark-gfm's iterator (`cmark_iter_next`) enters it: no recursion, so any depth.
    static func forEachNode(under root: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        guard let iter = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iter) }
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iter) { body(node) }
        }
    }
}
