import DocumentModel
import Foundation
import Layout
import MarkdownParser
internal import PangoCairoBackend
internal import ProcessMemory
import Styling
import Typography

/// How a document is rendered. nil fields fall back to the document's front matter, then to
/// the theme; the command line fills these in, so it overrides front matter.
public struct RenderOptions: Sendable {
    /// Which theme, and how to adapt it (`--theme`, `--fonts`, `--family`, …).
    public var themeRequest: ThemeRequest
    /// An already prepared theme (a theme built in code, a specimen's); when set, only the
    /// font folders of `themeRequest` are used, registered with the theme's own `fontFolders`.
    public var theme: Theme?
    /// Paper size (`--paper`, front matter `paper`); nil: the theme's.
    public var paper: PaperSize?
    /// Page margins, pt (front matter `margins`); nil: the theme's.
    public var margins: Margins?
    /// The sides a `geometry` setting gives when it leaves others unset (`left=2cm,right=2cm`):
    /// CSS side → pt, the other sides the theme's, as LaTeX's geometry package keeps its
    /// defaults for the sides not given. Used only when ``margins`` is nil.
    var marginSides: [String: Double] = [:]
    /// Treat every warning as an error: exit 1, nothing written.
    public var strict: Bool
    /// The PDF creation date; nil: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
    public var creationDate: Date?
    /// Folder relative image paths resolve against (default: the input file's folder; for a
    /// text with no file, `<memory>` or standard input, the ``root`` when set, else the current
    /// folder).
    public var baseDirectory: String?
    /// Justify body paragraphs (`--justify`, front matter `justify`); nil: ragged right.
    public var justify: Bool?
    /// Where Hangul lines may break (front matter `line-break`); nil: ``HangulLineBreak/auto``.
    public var hangulLineBreak: HangulLineBreak?
    /// Running header and footer templates: `{title}`, `{page}`, `{pages}`, `{date}`.
    public var header: String?
    /// Footer template (see ``header``); nil: `{page}`.
    public var footer: String?
    /// A table of contents with page numbers after the first heading.
    public var tableOfContents: Bool?
    /// The deepest heading level the contents list (`--toc-depth`, front matter `toc-depth`,
    /// 1–6, as Pandoc counts levels: 1 is `#`); nil: 3. The PDF outline lists every level.
    public var tableOfContentsDepth: Int?
    /// Number the sections (`--number-sections`, front matter `number-sections`): headings,
    /// contents entries and bookmarks (``SectionNumbering``); nil: no numbers.
    public var numberSections: Bool?
    /// Fewest lines of a split paragraph at the top / bottom of a page (CSS `widows`,
    /// `orphans`; default 2 each).
    public var widows: Int?
    /// See ``widows``; nil: 2.
    public var orphans: Int?
    /// Hyphenate words at line ends (front matter `hyphenate`); nil: justified paragraphs only.
    public var hyphenate: Bool?
    /// Pictures instead of a PDF (`--format png|svg`): one file per selected page, named after
    /// the output (`out.png` → `out-1.png`, `out-2.png`…); nil: the PDF.
    public var preview: PagePreview? = nil
    /// Write a tagged, accessible PDF (structure tree, `/Lang`, `/Alt`, artifacts); false
    /// (`--no-tags`): only links, for the smallest files.
    public var tagged: Bool = true
    /// The standards the PDF declares and must meet (`--pdf-standard`, front matter
    /// `pdf-standard`); nil: PDF/UA-1 whenever the document can claim it, no PDF/A.
    public var pdfStandards: Set<PDFStandard>? = nil
    /// Set the front matter's title, subtitle, author and date as a title block at the top of
    /// the first page (``true``, the default); specimens, which draw their own cover, turn it off.
    public var titleBlock: Bool = true
    /// Let the render tune this process's C heap so that Cairo's large copies (each embedded CFF
    /// table, twice) land on transparent huge pages: thousands of page faults fewer for a page
    /// with a CJK face (``HugePageHeap``); and serve every block of 1 MiB or more from a
    /// mapping of its own from the parse's start (``FreedMemory/mapLargeBlocks()``), so the
    /// large arrays a long paragraph grows by doubling go back to the system when freed instead
    /// of staying in the heap as free blocks: 100,000 emphasis spans peak at 162 MiB, not 195;
    /// and hand the heap pages the parse and each stage freed back to the system before the
    /// next stage (``FreedMemory/release()``), so styling, which runs on a thread with a heap
    /// arena of its own, and drawing do not stack on the parse's high-water mark (100,000
    /// list items: 126 MiB, not 165).
    /// It changes glibc's settings for the rest of the process (mallopt(3): mmap threshold
    /// 1 MiB, or 32 MiB and trim threshold 128 MiB once a large CFF face is drawn), and
    /// `malloc_trim(3)` empties every thread's arena, so renders beside it fault their pages
    /// in again (20 renders from a task group: ×0.72 of their time one after another with it,
    /// ×0.60 without). It is off unless the caller owns the process and renders one document
    /// at a time; the `typeset` command turns it on. The output is the same.
    public var tunesHeap: Bool = false
    /// The folder every file the document names must lie in, after `.`, `..` and symbolic links
    /// are resolved (Typst's `--root`): images (Markdown and HTML `<img>`), a front-matter
    /// `theme:` and that theme's `fontFolders`. An image outside is drawn as a placeholder with
    /// a warning; a theme outside is an error at its `theme:` line; neither is opened. nil (the
    /// default): the document may name any file this process can read. Files the caller names
    /// itself (``themeRequest``'s theme and font folders, ``baseDirectory``) are not confined.
    public var root: URL? = nil
    /// Folders outside ``root`` the document may read as well (the `typeset` command adds the
    /// current folder and `--resource-path`); read only when ``root`` is set.
    public var allowedFolders: [URL] = []

    /// Raised when the asynchronous render's task is cancelled; every stage reads it
    /// (``Cancellation``).
    var cancellation: Cancellation? = nil
    /// Moves each warning's place before warnings that say the same thing are said once (a
    /// specimen's warnings about its expanded Markdown are placed in the template as written);
    /// nil leaves them where they are.
    var placeDiagnostic: (@Sendable (Diagnostic) -> Diagnostic)? = nil

    /// The folders ``root`` and ``allowedFolders`` let the document read; nil without a root.
    public var sandbox: Sandbox? { root.map { Sandbox(root: $0, allowing: allowedFolders) } }

    /// Creates options; nil leaves a setting to front matter, then the theme.
    public init(
        themeRequest: ThemeRequest = ThemeRequest(), theme: Theme? = nil, paper: PaperSize? = nil,
        margins: Margins? = nil, strict: Bool = false, creationDate: Date? = nil, baseDirectory: String? = nil,
        justify: Bool? = nil, hangulLineBreak: HangulLineBreak? = nil, header: String? = nil,
        footer: String? = nil, tableOfContents: Bool? = nil, widows: Int? = nil, orphans: Int? = nil
    ) {
        self.themeRequest = themeRequest
        self.theme = theme
        self.paper = paper
        self.margins = margins
        self.strict = strict
        self.creationDate = creationDate
        self.baseDirectory = baseDirectory
        self.justify = justify
        self.hangulLineBreak = hangulLineBreak
        self.header = header
        self.footer = footer
        self.tableOfContents = tableOfContents
        self.widows = widows
        self.orphans = orphans
    }
}

extension RenderOptions {
    /// `diagnostics` placed by ``placeDiagnostic`` when it is set, then those that say the same
    /// thing said once (``Diagnostic/coalesced(_:)``).
    func coalesced(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        Diagnostic.coalesced(placeDiagnostic.map { diagnostics.map($0) } ?? diagnostics)
    }
}

/// What a successful run produced.
public struct RenderReport: Sendable {
    /// Pages in the PDF written.
    public var pageCount: Int
    /// Warnings (`file:line:column: warning: …`) in source order; those without a position
    /// (theme, fonts) last.
    public var diagnostics: [Diagnostic]
    /// With ``RenderOptions/preview``: the picture files written, in page order.
    public var files: [String] = []
}

/// The facade: Markdown text → PDF file, wiring parser, styling, layout and the Pango/Cairo
/// backend. Pages stream to Cairo as they are laid out.
public enum Typesetter {
    /// Renders `markdown` (named `file` in diagnostics) to the PDF at `output` (`-`: standard
    /// output). Front matter fills in what `options` leaves nil. The file appears only when
    /// rendering succeeded (temporary file + rename).
    /// - Throws: ``TypesetError`` (bad theme, unwritable output, strict-mode warnings, Cairo failure).
    public static func render(
        markdown: String, file: String, to output: String, options: RenderOptions = RenderOptions()
    ) throws -> RenderReport {
        tuneHeap(for: options)
        startLoadingFonts(for: options)
        let parsed = MarkdownParser.parse(markdown, file: file, cancellation: options.cancellation)
        try options.cancellation?.check()
        return try render(document: parsed.document, diagnostics: parsed.diagnostics, to: output, options: options)
    }

    /// Renders an already-built document (specimens build theirs from a template).
    /// - Throws: ``TypesetError/invalidInput(_:)`` when `parseDiagnostics` holds an error (the
    ///   parser's verdict that the document cannot be set), before anything is written; and
    ///   as ``render(markdown:file:to:options:)``.
    public static func render(
        document: Document, diagnostics parseDiagnostics: [Diagnostic] = [], to output: String,
        options requested: RenderOptions
    ) throws -> RenderReport {
        try render(
            document: document, diagnostics: parseDiagnostics, to: output, options: requested,
            threaded: getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1")
    }

    /// Sets the C library's heap up for a render that owns its process
    /// (``RenderOptions/tunesHeap``): large blocks mapped on their own, heaps shrunk only when
    /// megabytes lie free. Does nothing for other options. The render functions call it; a
    /// program that starts work on other threads before it renders (loading fonts or syntax
    /// definitions) calls it first, so those threads' heaps are set up too.
    public static func tuneHeap(for options: RenderOptions) {
        if options.tunesHeap { FreedMemory.mapLargeBlocks() }
    }

    /// Renders `document`, styling it on a producer thread beside layout and drawing when
    /// `threaded` (the same PDF either way; `TYPESET_THREADS=1` turns the thread off).
    ///
    /// The stages, in order: resolve the settings (``ResolvedSettings``), survey the document
    /// (``DocumentSurvey``), build the front matter (``FrontMatter``), check the fonts
    /// (``FontCheck``), then lay out and draw (``LayoutAndDraw``), tagged or not
    /// (``TaggingStage``), into the output file (``WriteStage``). Each returns its warnings;
    /// with `strict`, every warning of every stage is thrown at the end, and the temporary file
    /// is never committed: nothing is written, and nothing found by layout goes unsaid.
    static func render(
        document: Document, diagnostics parseDiagnostics: [Diagnostic], to output: String,
        options requested: RenderOptions, threaded: Bool
    ) throws -> RenderReport {
        // Before the survey opens the highlighting library on another thread.
        GlibcFunctions.lookUp()
        tuneHeap(for: requested)
        let (document, parseDiagnostics) = prepared(document, diagnostics: parseDiagnostics)
        if requested.tunesHeap { FreedMemory.release() }
        let settings = try ResolvedSettings(resolving: requested, for: document, parseDiagnostics: parseDiagnostics)
        // The pictures layout and drawing read on this thread stay inside the root as opened.
        return try FileReader.confining(to: settings.options.sandbox?.folders) {
            try render(document, settings: settings, to: output, requested: requested, threaded: threaded)
        }
    }

    /// `document` made ready to set, with the warnings that says: nested no deeper than a parsed
    /// document (``NestingLimit``: styling and layout recurse), its `include:` said to be left
    /// (a book's chapters are read from a file, by ``book(_:options:)`` or the command line), and
    /// reading in the language its prose is written in when its metadata names none.
    static func prepared(_ document: Document, diagnostics: [Diagnostic]) -> (Document, [Diagnostic]) {
        var (document, flattened) = NestingLimit.limited(document)
        var diagnostics = diagnostics
        if flattened {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "content nested more than \(NestingLimit.maximumDepth) levels deep is flattened to plain text",
                    kind: .structure))
        }
        if let include = document.metadata.includes.first {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "'include' names a book's chapters, which are read with a document file (Typesetter.book, or "
                        + "typeset render FILE); this text is set alone", at: include.location, kind: .frontMatter))
        }
        if document.metadata.lang == nil { document.metadata.lang = document.textLanguage }
        return (document, diagnostics)
    }

    /// ``render(document:diagnostics:to:options:threaded:)`` once its settings are resolved.
    private static func render(
        _ document: Document, settings: ResolvedSettings, to output: String, requested: RenderOptions, threaded: Bool
    ) throws -> RenderReport {
        // The title block's notes come first: the body's are numbered after them.
        let document = FrontMatter.numberingNotesAfterTitleBlock(document, options: settings.options)
        let (survey, surveyDiagnostics) = DocumentSurvey.survey(document, settings: settings, threaded: threaded)
        defer { survey.definitionLoader?.cancel() }
        try requested.cancellation?.check()
        let shaper = PangoShaper(pictures: settings.options.preview != nil, session: settings.fonts)
        shaper.textAreaHeight = settings.theme.page.textHeight
        shaper.cancellation = requested.cancellation
        let frontMatter = FrontMatter(of: document, settings: settings, survey: survey, shaper: shaper)
        let fontDiagnostics = FontCheck.diagnostics(
            survey: survey, frontMatter: frontMatter, settings: settings,
            metadata: document.metadata)
        let found = settings.diagnostics + surveyDiagnostics + frontMatter.diagnostics + fontDiagnostics
        let diagnostics =
            inSourceOrder(document.source.placingSubjects(of: found))
            + document.source.placingSubjects(of: survey.imageDiagnostics) + survey.sizeDiagnostics
        let layout = LayoutAndDraw(
            document: document, settings: settings, survey: survey, frontMatter: frontMatter,
            shaper: shaper, threaded: threaded)
        let numbers = try layout.countPages()
        return try WriteStage.write(to: output, preview: settings.options.preview) { file in
            let (drawn, taggingDiagnostics) = try TaggingStage.draw(
                layout, numbers: numbers, into: file, warnings: diagnostics)
            // Cancelled while the file was finished and tagged: discarded, never committed.
            try settings.options.cancellation?.check()
            // Warnings that say the same thing are said once, with their count.
            let all = settings.options.coalesced(inSourceOrder(diagnostics + taggingDiagnostics + drawn.diagnostics))
            if settings.options.strict, !all.isEmpty { throw TypesetError.warningsAreErrors(all) }
            return RenderReport(pageCount: drawn.pageCount, diagnostics: all, files: drawn.renderer.previewFiles)
        }
    }

    /// Diagnostics in source order, so a reader can walk the file top to bottom: by file (in
    /// the order the files are first named), line and column; those without a position keep
    /// their order, after the rest.
    static func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var fileRanks: [String: Int] = [:]
        for location in diagnostics.compactMap(\.location) where fileRanks[location.file] == nil {
            fileRanks[location.file] = fileRanks.count
        }
        func key(_ diagnostic: Diagnostic, _ offset: Int) -> (Int, Int, Int, Int) {
            guard let location = diagnostic.location else { return (Int.max, 0, 0, offset) }
            return (fileRanks[location.file] ?? Int.max, location.line, location.column, offset)
        }
        return diagnostics.enumerated().sorted { key($0.element, $0.offset) < key($1.element, $1.offset) }
            .map(\.element)
    }

    /// `SOURCE_DATE_EPOCH` (reproducible-builds.org) when set, else now.
    static func defaultCreationDate() -> Date {
        if let epoch = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }), let seconds = TimeInterval(epoch) {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date()
    }
}
