import DocumentModel

/// The outcome of parsing: the document and the problems found in it.
public struct ParseResult: Sendable {
    /// The parsed document: pure values, every block with its source location.
    public var document: Document
    /// Warnings about the content (unknown front matter keys, invalid YAML, unclosed or stray
    /// div fences, over-deep nesting), each with a `file:line:column` location where known.
    /// A diagnostic of severity `.error` means the document cannot be set as written (a
    /// recursive or exploding YAML alias in the front matter): renderers refuse it.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(document: Document, diagnostics: [Diagnostic]) {
        self.document = document
        self.diagnostics = diagnostics
    }
}

/// Markdown → `Document`.
///
/// The Markdown itself is parsed by cmark-gfm 0.29 (CommonMark plus the GFM extensions
/// `table`, `strikethrough`, `autolink`, `tasklist`, `tagfilter`, and footnotes). On top of
/// cmark's tree this layer adds Pandoc syntax (Pandoc manual, "Pandoc's Markdown"):
///
/// - heading attributes, `## Text {.display #intro tracking=-0.5}` → `Block.attributes` (an
///   ATX closing sequence before them is dropped);
/// - bracketed spans, `[text]{.headline kerning=-0.2}` → `Inline.span` (they nest);
/// - attributes on links, autolinks, images and code spans, `[a](u){.x}` → an `Inline.span`
///   around the element; raw inlines and blocks (`` `x`{=latex} ``, ```` ```{=html} ````)
///   are read as HTML or TeX written in the text, and those for other formats left out with
///   a warning, as Pandoc leaves out formats it does not write;
/// - fenced divs, `::: {.caption align=center}` or `::: caption` … `:::` → `Block.Kind.div`
///   (they nest, also inside lists and quotes), opened only where a block can start and only
///   with a closing fence; other fence-like lines stay text, with a warning (`DivFences`);
/// - `\newpage` (or `\pagebreak`) alone in a paragraph → `Block.Kind.pageBreak`;
/// - YAML front matter between `---` and `---`/`...` on the first lines → `Metadata`, when
///   the YAML is a mapping; otherwise those lines are Markdown, with a warning.
///
/// Syntax is recognised on cmark-gfm's tree, never on the raw text: what CommonMark escapes,
/// writes as an entity or numeric reference, or puts in code is always text.
///
/// Attribute lists accept `#id`, `.class`, `key=value`, `key="quoted"`, `key='quoted'` and
/// bare flags (a `Pair` with a nil value; only Typeset's flag keys, `{italic}`); keys are kept
/// as written. Syntax that is not understood (an unterminated `{`, a malformed list, `{x}`)
/// stays literal text, as in Pandoc.
public enum MarkdownParser {
    /// Parses `text`, naming `file` in every source location (`-` for standard input).
    ///
    /// Never throws and never traps on content: problems become `Diagnostic` warnings in the
    /// result (errors only for front matter aliases that recur or explode, see
    /// ``ParseResult/diagnostics``). Locations are 1-based lines and UTF-8 byte columns of the original text (front
    /// matter and div fence lines are replaced line for line before cmark-gfm sees the text).
    ///
    /// A carriage return not followed by a line feed ends a line, as `\n` and `\r\n` do
    /// (CommonMark spec 0.30, §2.1): it is read as a line feed by every layer (``LineEndings``).
    ///
    /// Characters no PDF or YAML library accepts (noncharacters such as U+FFFF, control
    /// characters; ``TextSanitizer``) are replaced by U+FFFD first, with one warning at the
    /// first of them: the rest of the document is set as written.
    ///
    /// The document holds the text, not its blocks: each pass over ``Document/blocks`` parses
    /// the text again one window of top-level blocks (about ``windowBytes`` of source) at a time
    /// and drops it after; every diagnostic is found here, once, by a scan that converts each
    /// block and drops it.
    public static func parse(_ text: String, file: String) -> ParseResult {
        parse(text, file: file, lazily: true)
    }

    /// ``parse(_:file:)`` for a render that may be cancelled: once `cancellation` is raised the
    /// parse stops after its pass over the text in progress (or the window of blocks being
    /// scanned) and returns an empty document, which the render does not set.
    public static func parse(_ text: String, file: String, cancellation: Cancellation?) -> ParseResult {
        parse(text, file: file, lazily: true, cancellation: cancellation)
    }

    /// ``parse(_:file:)`` with TeX math read or not as `math` says (the command line's
    /// `-V math=false`, which wins over the front matter); nil: as the front matter says.
    public static func parse(_ text: String, file: String, math: Bool?) -> ParseResult {
        parse(text, file: file, lazily: true, math: math)
    }

    /// The source a window of blocks grows to, bytes (about 1.5 MiB of cmark-gfm nodes and as
    /// much of blocks, measured on prose).
    static let windowBytes = 128 * 1024

    /// ``parse(_:file:)``, or with `lazily` false every block converted at once (the reference
    /// the windowed conversion is tested against); `windowBytes` 0 makes each segment a window.
    static func parse(
        _ text: String, file: String, lazily: Bool, windowBytes: Int = windowBytes, math: Bool? = nil,
        cancellation: Cancellation? = nil
    ) -> ParseResult {
        var diagnostics: [Diagnostic] = []
        // What a cancelled parse returns: nothing to set.
        var cancelled: ParseResult? {
            guard cancellation?.isCancelled == true else { return nil }
            return ParseResult(document: Document(blocks: [], metadata: Metadata(), file: file), diagnostics: [])
        }
        let (text, replaced) = TextSanitizer.sanitize(LineEndings.normalizingLoneCarriageReturns(text))
        if let cancelled { return cancelled }
        if let replaced {
            let before = text.utf8.prefix(replaced.firstOffset)
            let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let column =
                replaced.firstOffset
                - (before.lastIndex(of: 0x0A).map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
            let what = replaced.count == 1 ? "a character" : "\(replaced.count) characters"
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "\(what) no PDF can hold (the first \(TextSanitizer.codePoint(replaced.first)), a noncharacter or "
                        + "control character) replaced by U+FFFD",
                    at: SourceLocation(file: file, line: line, column: column), kind: .encoding))
        }
        var source = SourceText(text, file: file)
        diagnostics += source.diagnostics

        var metadata = Metadata()
        if let frontMatter = source.frontMatter {
            metadata = FrontMatter.parse(
                frontMatter.text, firstLine: frontMatter.firstLine, file: file,
                diagnostics: &diagnostics)
        }
        // The front matter is YAML, read as written: only the Markdown after it is marked.
        let body = source.bodyOffset
        let head = text.utf8.prefix(body)
        // Without front matter the text is marked as it is: a copy of a long text costs its length.
        var markdown = body == 0 ? text : String(decoding: text.utf8.dropFirst(body), as: UTF8.self)
        let firstLine = 1 + head.count { $0 == 0x0A }
        RepeatedLinkAddresses.rewrite(&markdown, firstLine: firstLine, file: file, diagnostics: &diagnostics)
        if let tables = PandocTables.rewriting(markdown) { markdown = tables }
        if let cancelled { return cancelled }
        if let code = SiteCodeBlocks.rewriting(markdown) { markdown = code }
        if let headings = HeadingReferences.definitions(for: markdown) { markdown += headings }
        let listMarkers = PandocListMarkers.rewriting(markdown, firstLine: firstLine)
        if let listMarkers { markdown = listMarkers.text }
        let definitionOpenings = PandocDefinitions.rewritingOpenings(markdown, firstLine: firstLine)
        if let definitionOpenings { markdown = definitionOpenings.text }
        if let cancelled { return cancelled }
        let marking = MathSyntax.marking(
            markdown, firstLine: firstLine, math: math ?? mathEnabled(metadata, diagnostics: &diagnostics))
        if let cancelled { return cancelled }
        let marked = body == 0 ? marking.text : String(decoding: head, as: UTF8.self) + marking.text
        if marked != text { source = SourceText(marked, file: file) }
        source.writtenCells = marking.findings.wideRows
        source.definitionOpenings = definitionOpenings?.lines ?? []
        source.listMarkers = listMarkers?.markers ?? [:]
        diagnostics += marking.findings.diagnostics(file: file)

        let smart = smartPunctuation(metadata, diagnostics: &diagnostics)
        source.keepsEscapedPunctuation = smart
        var document: Document
        if lazily,
            let windowed = windowedScan(
                &source, file: file, metadata: metadata, windowBytes: windowBytes, diagnostics: &diagnostics,
                cancellation: cancellation)
        {
            document = windowed
        } else {
            // A scan stopped by the cancellation is not made again on the whole text.
            if let cancelled { return cancelled }
            guard
                let whole = wholeTreeParse(
                    &source, file: file, metadata: metadata, lazily: lazily, windowBytes: windowBytes,
                    diagnostics: &diagnostics)
            else {
                diagnostics.append(Diagnostic(.error, "cmark-gfm could not allocate a parser"))
                return ParseResult(
                    document: Document(blocks: [], metadata: metadata, file: file), diagnostics: diagnostics)
            }
            document = whole
        }
        // The positions read the buffer the windows parse again when it is the text as given,
        // so the document holds its source once.
        let windows = document.blocks.provider as? SourceWindows
        let buffer =
            source.isInputAsGiven
            ? windows?.buffer ?? SourceBuffer(source.lines.buffer) : SourceBuffer(source.inputBytes)
        document.source = SourcePositions(buffer: buffer) { CmarkTree.inlineText(of: $0) }
        if let cancelled { return cancelled }
        if let labels = listMarkers?.exampleLabels, !labels.isEmpty {
            document = ExampleReferences(numbers: labels).apply(to: document)
        }
        if smart { document = SmartPunctuation.apply(to: document) }
        document.textLanguage = TextLanguage.inferred(fromProseOf: document)
        return ParseResult(document: document, diagnostics: diagnostics)
    }

    /// The scan in windows, without cmark-gfm's tree of the whole text
    /// (``SourceWindows/scanInWindows(_:lines:windowBytes:literalLines:cancellation:)``), div fences decided
    /// on the trees of chunks (``DivFences/lineInfoInChunks(source:chunkBytes:)``), notes
    /// numbered in document order; nil when a window does not parse as the chunks did or a note
    /// cites another (the caller then parses the whole text), and when `cancellation` was
    /// raised. `source` is left prepared with the fences decided.
    static func windowedScan(
        _ source: inout SourceText, file: String, metadata: Metadata, windowBytes: Int,
        diagnostics: inout [Diagnostic], cancellation: Cancellation? = nil
    ) -> Document? {
        var fenceWarnings: [Diagnostic] = []
        if !source.candidates.isEmpty {
            // Div fences decided on the chunks' trees, as on the whole text's.
            guard
                let warnings = DivFences.settle(
                    &source,
                    lineInfo: {
                        DivFences.lineInfoInChunks(source: $0, chunkBytes: windowBytes)
                    })
            else { return nil }
            fenceWarnings = warnings
        }
        var converter = CmarkConverter(file: file, source: source, mode: .scan)
        var literalLines: [ClosedRange<Int>]? = SourceText.contains(source.cmarkInput, Array("[^".utf8)) ? [] : nil
        guard
            let (segments, prefix) = SourceWindows.scanInWindows(
                &converter, lines: source.lines, windowBytes: windowBytes,
                literalLines: &literalLines, cancellation: cancellation)
        else { return nil }
        diagnostics += fenceWarnings + converter.diagnostics + converter.html.diagnostics
        if let literalLines {
            diagnostics += UnsetFootnotes.diagnostics(
                literalLines: { literalLines }, lines: source.lines,
                cited: converter.citedLabels, file: file, frontMatter: source.frontMatterText)
        }
        let windows = SourceWindows(
            file: file, source: source.forConversion, segments: segments, prefix: prefix,
            footnoteNumbers: converter.footnoteNumbers, windowBytes: windowBytes,
            held: converter.heldSegments)
        return Document(blockList: BlockList(windows), metadata: metadata, footnotes: converter.footnotes(), file: file)
    }

    /// The parse with cmark-gfm's tree of the whole text (div fences decided on it), scanned
    /// for windows when `lazily`, else converted at once. nil when cmark-gfm cannot allocate a parser.
    static func wholeTreeParse(
        _ source: inout SourceText, file: String, metadata: Metadata, lazily: Bool, windowBytes: Int,
        diagnostics: inout [Diagnostic]
    ) -> Document? {
        if !source.candidates.isEmpty {
            // Div fences: decided on cmark's block structure, parsing again until it settles.
            // Each tree is freed before the next parse: cmark-gfm's tree of the whole text is
            // about 28 bytes per source byte, and two at once were the parse's peak.
            guard
                let warnings = DivFences.settle(
                    &source,
                    lineInfo: { prepared in
                        CmarkTree(prepared.cmarkInput).map { DivFences.lineInfo($0.root, source: prepared) }
                    })
            else { return nil }
            diagnostics += warnings
        }
        guard let tree = CmarkTree(source.cmarkInput) else { return nil }
        if lazily {
            // One scan gives every diagnostic and footnote and where each top-level segment
            // starts and ends; each pass over the blocks parses the text again, one window of
            // segments at a time (``SourceWindows``), and cmark-gfm's tree is freed on return.
            var converter = CmarkConverter(file: file, source: source, mode: .scan)
            let definitions = SourceWindows.definitions(root: tree.root, lines: source.lines)
            converter.definitions = definitions
            converter.learnTreeNoteNumbers(tree.root)
            let segments = converter.scanSegments(of: tree.root)
            _ = converter.finishNoteNumbers()  // the windows number their notes by label
            diagnostics +=
                converter.diagnostics + converter.html.diagnostics
                + UnsetFootnotes.diagnostics(
                    root: tree.root, lines: source.lines, cited: converter.citedLabels, file: file,
                    frontMatter: source.frontMatterText)
            let windows = SourceWindows(
                file: file, source: source.forConversion, segments: segments,
                prefix: (definitions.bytes, definitions.lines), footnoteNumbers: converter.footnoteNumbers,
                windowBytes: windowBytes,
                held: converter.heldSegments)
            return Document(
                blockList: BlockList(windows), metadata: metadata, footnotes: converter.footnotes(), file: file)
        } else {
            var converter = CmarkConverter(file: file, source: source)
            converter.definitions = SourceWindows.definitions(root: tree.root, lines: source.lines)
            converter.learnTreeNoteNumbers(tree.root)
            var blocks = converter.blocks(of: tree.root, depth: 0)
            if let renumbered = converter.finishNoteNumbers() {
                blocks = PandocDefinitions.renumberingNotes(blocks) { renumbered[$1] ?? $1 }
            }
            diagnostics +=
                converter.diagnostics + converter.html.diagnostics
                + UnsetFootnotes.diagnostics(
                    root: tree.root, lines: source.lines, cited: converter.citedLabels, file: file,
                    frontMatter: source.frontMatterText)
            return Document(blocks: blocks, metadata: metadata, footnotes: converter.footnotes(), file: file)
        }
    }

    /// A book file (`book.yaml`): YAML read as a document's front matter (the same keys, with
    /// `include:` or `chapters:` listing the chapters), and no text of its own.
    public static func parse(yaml text: String, file: String) -> ParseResult {
        var diagnostics: [Diagnostic] = []
        let metadata = FrontMatter.parse(Array(text.utf8), firstLine: 1, file: file, diagnostics: &diagnostics)
        return ParseResult(document: Document(blocks: [], metadata: metadata, file: file), diagnostics: diagnostics)
    }

    /// Whether Typeset reads front-matter `key` (matched as front matter matches keys: case and
    /// separators ignored, `margins.top` by its first part): what a `-V KEY=VALUE` may set.
    public static func readsFrontMatterKey(_ key: String) -> Bool {
        let first = String(key.split(separator: ".", maxSplits: 1).first ?? "")
        return FrontMatter.knownKeys.contains(FrontMatter.canonicalKey(first))
    }

    /// Whether the document's front matter (or `-V math`) leaves TeX math on (`math`,
    /// docs/markdown.md: "Front matter"): true unless it says `false`, `no` or `off`.
    public static func mathEnabled(_ metadata: Metadata) -> Bool {
        var ignored: [Diagnostic] = []
        return mathEnabled(metadata, diagnostics: &ignored)
    }

    /// Whether the document's front matter leaves smart punctuation on (`smart`, docs/markdown.md:
    /// "Front matter"): true unless it says `false`, `no` or `off`.
    public static func smartPunctuation(_ metadata: Metadata) -> Bool {
        var ignored: [Diagnostic] = []
        return smartPunctuation(metadata, diagnostics: &ignored)
    }

    /// Front matter `math` (or `-V math=false`): true (the default) reads `$…$` and `$$…$$` as
    /// TeX math; false keeps dollars as text, for documents about money. Anything else warns and
    /// keeps the default.
    static func mathEnabled(_ metadata: Metadata, diagnostics: inout [Diagnostic]) -> Bool {
        flag("math", in: metadata, diagnostics: &diagnostics, kept: "math stays on")
    }

    /// Front matter `smart`: true (the default) or false; anything else warns and keeps the default.
    static func smartPunctuation(_ metadata: Metadata, diagnostics: inout [Diagnostic]) -> Bool {
        flag("smart", in: metadata, diagnostics: &diagnostics, kept: "smart punctuation stays on")
    }

    /// The front-matter flag `key`: true (the default, also when absent) or false; anything
    /// else warns at the key, saying what is `kept`, and keeps the default.
    static func flag(_ key: String, in metadata: Metadata, diagnostics: inout [Diagnostic], kept: String) -> Bool {
        guard let value = metadata.fields[key] else { return true }
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            diagnostics.append(
                Diagnostic(
                    .warning, "front matter '\(key)' is '\(value)'; expected true or false (\(kept))",
                    at: metadata.fieldLocations[key], kind: .frontMatter))
            return true
        }
    }
}

extension MathSyntax.Findings {
    /// What the pass found, as warnings in `file`: formulas an English suffix kept as text,
    /// formulas left open, display math left open, and tables set as text.
    func diagnostics(file: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func warn(_ message: String, line: Int, column: Int) {
            found.append(
                Diagnostic(
                    .warning, message, at: SourceLocation(file: file, line: line, column: column), kind: .content))
        }
        for place in suffixedFormulas {
            warn(
                "'\(place.written)' is set as text: a letter after the closing '$' closes no formula (GitHub's rule, "
                    + "which keeps '$PATH:$HOME' text); write it with a hyphen or a script, as '$n$-th' or "
                    + "'$n^{\\text{th}}$'", line: place.line, column: place.column)
        }
        for place in unclosedInlines {
            warn(
                "'$' opens a formula that no '$' closes in its paragraph ('\(place.written)…'); set as text (a "
                    + "closing '$' follows no space and comes before no digit or letter; a dollar sign alone is "
                    + "written '\\$')", line: place.line, column: place.column)
        }
        for place in unclosedDisplays {
            warn(
                "'$$' opens display math with no closing '$$' in its paragraph; set as text", line: place.line,
                column: place.column)
        }
        for table in wideTables {
            let message =
                if let sparse = table.sparse {
                    "table of \(table.columns) columns and \(sparse.rows) rows writes \(sparse.cells) cells: its "
                        + "\(table.columns * sparse.rows) places, the rest empty, are more than "
                        + "\(RawHTML.slotsPerWrittenCell) for each cell written; set as text"
                } else {
                    "table of \(table.columns) columns is wider than the \(MathSyntax.maximumTableColumns) a table "
                        + "may have; set as text"
                }
            warn(message, line: table.line, column: table.column)
        }
        return found
    }
}
