import DocumentModel

/// The outcome of parsing: the document and the problems found in it.
public struct ParseResult: Sendable {
    /// The parsed document: pure values, every block with its source location.
    public var document: Document
    /// Warnings about the content (unknown front matter keys, invalid YAML, unclosed or stray
    /// div fences, over-deep nesting), each with a `file:line:column` location where known.
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
/// - heading attributes, `## Text {.display #intro tracking=-0.5}` → `Block.attributes`;
/// - bracketed spans, `[text]{.headline kerning=-0.2}` → `Inline.span` (they nest);
/// - fenced divs, `::: {.caption align=center}` or `::: caption` … `:::` → `Block.Kind.div`
///   (they nest, also inside lists and quotes);
/// - `\newpage` (or `\pagebreak`) alone in a paragraph → `Block.Kind.pageBreak`;
/// - YAML front matter between `---` and `---`/`...` on the first lines → `Metadata`.
///
/// Attribute lists accept `#id`, `.class`, `key=value`, `key="quoted"`, `key='quoted'` and
/// bare flags (a `Pair` with a nil value); keys are kept as written. Syntax that is not
/// understood (an unterminated `{`, a malformed list) stays literal text, as in Pandoc.
public enum MarkdownParser {
    /// Parses `text`, naming `file` in every source location (`-` for standard input).
    ///
    /// Never throws and never traps on content: problems become `Diagnostic` warnings in the
    /// result. Locations are 1-based lines and UTF-8 byte columns of the original text (front
    /// matter and div fence lines are replaced line for line before cmark-gfm sees the text).
    public static func parse(_ text: String, file: String) -> ParseResult {
        let source = SourceText(text, file: file)
        var diagnostics: [Diagnostic] = []

        var metadata = Metadata()
        if let frontMatter = source.frontMatter {
            metadata = FrontMatter.parse(frontMatter.text, firstLine: frontMatter.firstLine, file: file,
                                         diagnostics: &diagnostics)
        }

        guard let tree = CmarkTree(source.cmarkInput) else {
            diagnostics.append(Diagnostic(.error, "cmark-gfm could not allocate a parser"))
            return ParseResult(document: Document(blocks: [], metadata: metadata, file: file), diagnostics: diagnostics)
        }
        var converter = CmarkConverter(file: file, source: source)
        let blocks = converter.blocks(of: tree.root, depth: 0)
        diagnostics += converter.diagnostics
        var document = Document(blocks: blocks, metadata: metadata, footnotes: converter.footnotes(), file: file)
        if smartPunctuation(metadata, diagnostics: &diagnostics) { document = SmartPunctuation.apply(to: document) }
        return ParseResult(document: document, diagnostics: diagnostics)
    }

    /// Front matter `smart`: true (the default) or false; anything else warns and keeps the default.
    static func smartPunctuation(_ metadata: Metadata, diagnostics: inout [Diagnostic]) -> Bool {
        guard let value = metadata.fields["smart"] else { return true }
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            diagnostics.append(Diagnostic(.warning, "front matter 'smart' is '\(value)'; expected true or false (smart punctuation stays on)",
                                          at: metadata.fieldLocations["smart"]))
            return true
        }
    }
}
