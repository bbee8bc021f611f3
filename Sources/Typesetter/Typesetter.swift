import DocumentModel
import Foundation
import Layout
import MarkdownParser
internal import PangoCairoBackend
internal import ProcessMemory
import Styling
internal import TaggedPDF
import Typography

/// How a document is rendered. nil fields fall back to the document's front matter, then to
/// the theme; the command line fills these in, so it overrides front matter.
public struct RenderOptions: Sendable {
    /// Which theme, and how to adapt it (`--theme`, `--fonts`, `--family`, …).
    public var themeRequest: ThemeRequest
    /// An already prepared theme (specimens); when set, `themeRequest` is not used.
    public var theme: Theme?
    /// Paper size (`--paper`, front matter `paper`); nil: the theme's.
    public var paper: PaperSize?
    /// Page margins, pt (front matter `margins`); nil: the theme's.
    public var margins: Margins?
    /// Treat every warning as an error: exit 1, nothing written.
    public var strict: Bool
    /// The PDF creation date; nil: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
    public var creationDate: Date?
    /// Folder relative image paths resolve against (default: the input file's folder).
    public var baseDirectory: String?
    /// Justify body paragraphs (`--justify`, front matter `justify`); nil: ragged right.
    public var justify: Bool?
    /// Where Hangul lines may break (front matter `line-break`); nil: keep-all.
    public var hangulLineBreak: HangulLineBreak?
    /// Running header and footer templates: `{title}`, `{page}`, `{pages}`, `{date}`.
    public var header: String?
    /// Footer template (see ``header``); nil: `{page}`.
    public var footer: String?
    /// A table of contents with page numbers after the first heading.
    public var tableOfContents: Bool?
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
    /// Set the front matter's title, subtitle, author and date as a title block at the top of
    /// the first page (``true``, the default); specimens, which draw their own cover, turn it off.
    public var titleBlock: Bool = true
    /// Let the render tune this process's C heap so that Cairo's large copies (each embedded CFF
    /// table, twice) land on transparent huge pages: thousands of page faults fewer for a page
    /// with a CJK face (``HugePageHeap``). It changes glibc's settings for the rest of the
    /// process (mallopt(3): mmap threshold 32 MiB, trim threshold 128 MiB), so it is off unless
    /// the caller owns the process; the `typeset` command turns it on. The output is the same.
    public var tunesHeap: Bool = false

    /// Creates options; nil leaves a setting to front matter, then the theme.
    public init(themeRequest: ThemeRequest = ThemeRequest(), theme: Theme? = nil, paper: PaperSize? = nil,
                margins: Margins? = nil, strict: Bool = false, creationDate: Date? = nil, baseDirectory: String? = nil,
                justify: Bool? = nil, hangulLineBreak: HangulLineBreak? = nil, header: String? = nil,
                footer: String? = nil, tableOfContents: Bool? = nil, widows: Int? = nil, orphans: Int? = nil) {
        self.themeRequest = themeRequest; self.theme = theme; self.paper = paper; self.margins = margins
        self.strict = strict; self.creationDate = creationDate; self.baseDirectory = baseDirectory
        self.justify = justify; self.hangulLineBreak = hangulLineBreak; self.header = header
        self.footer = footer; self.tableOfContents = tableOfContents; self.widows = widows; self.orphans = orphans
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
    public static func render(markdown: String, file: String, to output: String, options: RenderOptions = RenderOptions()) throws -> RenderReport {
        startLoadingFonts(for: options)
        let parsed = MarkdownParser.parse(markdown, file: file)
        return try render(document: parsed.document, diagnostics: parsed.diagnostics, to: output, options: options)
    }

    /// Renders an already-built document (specimens build theirs from a template).
    /// - Throws: ``TypesetError/invalidInput(_:)`` when `parseDiagnostics` holds an error (the
    ///   parser's verdict that the document cannot be set), before anything is written; and
    ///   as ``render(markdown:file:to:options:)``.
    public static func render(document: Document, diagnostics parseDiagnostics: [Diagnostic] = [], to output: String,
                              options requested: RenderOptions) throws -> RenderReport {
        try render(document: document, diagnostics: parseDiagnostics, to: output, options: requested,
                   threaded: getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1")
    }

    /// Renders `document`, styling it on a producer thread beside layout and drawing when
    /// `threaded` (the same PDF either way; `TYPESET_THREADS=1` turns the thread off).
    static func render(document: Document, diagnostics parseDiagnostics: [Diagnostic], to output: String,
                       options requested: RenderOptions, threaded: Bool) throws -> RenderReport {
        let errors = parseDiagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw TypesetError.invalidInput(errors) }
        var diagnostics = parseDiagnostics
        let options = FrontMatterSettings.merge(requested, with: document.metadata, diagnostics: &diagnostics)
        let settingErrors = diagnostics.filter { $0.severity == .error }
        if !settingErrors.isEmpty { throw TypesetError.invalidInput(settingErrors) }
        let theme: Theme
        do { theme = try pageTheme(options, file: document.file, diagnostics: &diagnostics) } catch TypesetError.invalidPage(let path, let message)
            where requested.paper == nil || requested.margins == nil {
            // Paper or margins from the front matter: the key that set them, as for a bad value.
            let key = ["margins", "paper", "margins.top", "margins.right", "margins.bottom", "margins.left"].first {
                (($0 == "paper") ? requested.paper == nil : requested.margins == nil) && document.metadata.fieldLocations[$0] != nil
            }
            guard let key, let at = document.metadata.fieldLocations[key] else { throw TypesetError.invalidPage(path: path, message: message) }
            throw TypesetError.invalidInput([Diagnostic(.error, "front matter '\(key)': \(message)", at: at, kind: .frontMatter)])
        } catch TypesetError.invalidTheme(let problems)
            where requested.theme == nil && requested.themeRequest.theme == nil && options.themeRequest.theme != nil {
            // The theme came from the front matter: a problem with the theme as a whole (no such
            // theme, unreadable) is reported at the `theme:` line that named it.
            guard let at = document.metadata.fieldLocations["theme"], let first = problems.first else {
                throw TypesetError.invalidTheme(problems: problems)
            }
            guard first.range(of: #"^[^\n]*?:\d+:\d+: "#, options: .regularExpression) == nil else {
                // Problems inside the file it named: said to be the theme's, then each at its place.
                let name = options.themeRequest.theme ?? ""
                throw TypesetError.invalidTheme(problems: ["\(at): front matter 'theme': '\(name)' is read as the theme, "
                                                           + "and it is not a usable theme:"] + problems)
            }
            throw TypesetError.invalidTheme(problems: ["\(at): front matter 'theme': \(first)"] + problems.dropFirst())
        }
        if let preview = options.preview, preview.format == .png {
            // Cairo's image surfaces hold at most 32 767 pixels a side (cairo-image-surface.c,
            // MAX_IMAGE_SIZE); past that Cairo fails with its own words, so say it first.
            let width = (theme.page.paper.width * preview.dpi / 72).rounded(.up), height = (theme.page.paper.height * preview.dpi / 72).rounded(.up)
            if max(width, height) > 32_767 {
                let largest = (32_767 * 72 / max(theme.page.paper.width, theme.page.paper.height)).rounded(.down)
                throw TypesetError.invalidPage(path: document.file, message: "a \(theme.page.paper.width.wholePointsText) × \(theme.page.paper.height.wholePointsText) pt page at --dpi \(preview.dpi.wholePointsText) "
                    + "is \(Int(width)) × \(Int(height)) px; a PNG page can be at most 32767 px a side (Cairo's image limit): use --dpi \(Int(largest)) or less")
            }
            // A page is drawn whole in memory, 4 bytes a pixel, before it is compressed.
            let limit = Double(PagePreview.maxPixels)
            if width * height > limit {
                let paper = theme.page.paper
                let largest = (72 * (limit / (paper.width * paper.height)).squareRoot()).rounded(.down)
                let millions = Int((width * height / 1_000_000).rounded())
                let page = "a \(paper.width.wholePointsText) × \(paper.height.wholePointsText) pt page"
                let message = "\(page) at --dpi \(preview.dpi.wholePointsText) is \(Int(width)) × \(Int(height)) px, "
                    + "\(millions) million pixels; a PNG page can have at most \(PagePreview.maxPixels / 1_000_000) million "
                    + "(\((PagePreview.maxPixels * 4) >> 20) MB drawn): use --dpi \(Int(largest)) or less"
                throw TypesetError.invalidPage(path: document.file, message: message)
            }
        }
        var styling = stylingOptions(options, file: document.file)
        styling.language = document.metadata.lang
        styling.hyphenate = options.hyphenate
        // The document streams: a survey styles it block by block and keeps only what layout
        // needs to know first; each layout pass styles it again, block by block.
        let survey = DocumentSurvey(document, theme: theme, options: styling, threaded: threaded,
                                    listsHeadings: options.tableOfContents == true)
        diagnostics += survey.stylingDiagnostics
        // The survey has named every position: layout reads only its windows of blocks, each
        // from the source set aside (a long document's text is not held while pages are drawn).
        document.releaseSource()
        FreedMemory.release()
        if document.blocks.isEmpty {
            // True to the page: with a title block (front matter title, subtitle, author or
            // date and the title block on) the page is not empty.
            let titled = options.titleBlock && [document.metadata.title, document.metadata.subtitle, document.metadata.author, document.metadata.date]
                .contains { !($0?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) }
            diagnostics.append(Diagnostic(.warning, titled ? "the document has no content after its front matter; the PDF has one page with only the title block"
                                                           : "the document has no content; the PDF has one empty page",
                                          at: SourceLocation(file: document.file, line: 1, column: 1), kind: .structure))
        }
        if let lang = document.metadata.lang, !FrontMatterSettings.isLanguageTag(lang.trimmingCharacters(in: .whitespaces)) {
            // No position: set by --lang or -V lang, named as such rather than at line 1.
            let at = document.metadata.fieldLocations["lang"]
            diagnostics.append(Diagnostic(.warning, "\(at == nil ? "--lang/-V lang" : "lang"): \(LanguageTag.problem(lang)); the PDF says 'en'",
                                          at: at, kind: .frontMatter))
        }
        // Front matter text values read as Markdown: the PDF's metadata and running heads take
        // their plain text (``FrontMatterText``).
        let smart = MarkdownParser.smartPunctuation(document.metadata)
        let title = document.metadata.title.map { FrontMatterText.plain($0, smart: smart) } ?? survey.firstHeading
        let shaper = PangoShaper(pictures: options.preview != nil)
        var running = RunningText(theme: theme, title: title ?? "", date: document.metadata.date ?? "",
                                  header: options.header, footer: options.footer ?? "{page}")
        // A page sets one line of running text: a title too long for it is shortened with an
        // ellipsis; a text that still takes more lines is named.
        let fit = running.fitted(to: theme.page.measure, shaper: shaper)
        running = fit.running
        for key in Set(fit.shortened + fit.overlong).sorted() {
            let location = (key == "header" ? requested.header : requested.footer) == nil ? document.metadata.fieldLocations[key] : nil
            let what = fit.overlong.contains(key)
                ? "is wider than the measure (\(theme.page.measure.wholePointsText) pt) even with its title shortened: only its first line is set"
                : "is wider than the measure (\(theme.page.measure.wholePointsText) pt): its {title} is shortened with an ellipsis (…)"
            diagnostics.append(Diagnostic(.warning, "the running \(key) \(what)", at: location, kind: .overfull))
        }
        let titleBlock = options.titleBlock
            ? TitleBlock(theme: theme, metadata: document.metadata, smart: smart, blocks: survey.firstBlock.map { [$0] } ?? []) : nil
        // The title block, then the contents, go before this styled block.
        let insertionIndex = titleBlock?.insertionIndex ?? 0
        let contents = options.tableOfContents == true
            ? TableOfContents(theme: theme, entries: survey.contentsEntries(excluding: titleBlock?.titleHeadingIndex),
                              language: document.metadata.lang, insertionIndex: insertionIndex + (titleBlock?.blocks.count ?? 0)) : nil
        func front(pages: [String: Int]) -> [StyledBlock] {
            (titleBlock?.blocks ?? []) + (contents?.blocks(pages: pages) ?? [])
        }
        // Every text the pages draw is checked: title block, contents and running texts too,
        // in the order they print.
        var fonts = FontCheck()
        var frontFonts = FontCheck()
        for block in front(pages: [:]) { frontFonts.visit(block) }
        if insertionIndex == 0 { fonts = frontFonts; fonts.append(survey.fontsOfFirstBlock) } else {
            fonts = survey.fontsOfFirstBlock; fonts.append(frontFonts)
        }
        fonts.append(survey.fontsOfRest)
        // A running text is placed at the front matter field it came from, if it did (not when
        // the render options gave it).
        let runningSamples = [(running.header(pageCount: 2)?(2), "header", requested.header),
                              (running.footer(pageCount: 2)?(2), "footer", requested.footer)]
        for case let (sample?, key, given) in runningSamples {
            fonts.visit(sample, at: given == nil ? document.metadata.fieldLocations[key] : nil, running: true)
        }
        diagnostics = inSourceOrder(document.source.placingSubjects(of: diagnostics + fonts.diagnostics(theme: theme)))
            + survey.imageDiagnostics + survey.sizeDiagnostics
        if options.strict, !diagnostics.isEmpty {
            throw TypesetError.warningsAreErrors(Diagnostic.coalesced(diagnostics))
        }
        var layoutDiagnostics: [Diagnostic] = []
        func layOut(pages: [String: Int], pageCount: Int?, into renderer: PageRenderer) throws -> Paginator {
            let layout = LayoutOptions(page: theme.page, widows: options.widows ?? 2, orphans: options.orphans ?? 2,
                                       header: running.header(pageCount: pageCount), footer: running.footer(pageCount: pageCount))
            let paginator = Paginator(shaper: shaper, options: layout, renderer: renderer)
            let blocks = LayoutBlocks(stream: StyleStream(document, theme: theme, options: styling), links: survey.links, page: theme.page,
                                      front: front(pages: pages), insertionIndex: insertionIndex)
            _ = try StyledBlockPipe.forEach(blocks, threaded: threaded) { chunk in
                for block in chunk {
                    let emergencies = shaper.emergencyCount
                    try paginator.add(block)
                    if shaper.emergencyCount > emergencies, renderer is CairoPDFRenderer {
                        let word = shaper.lastEmergencyWord
                        layoutDiagnostics.append(Self.overfullWord(word, measure: theme.page.measure, at: block.location))
                    }
                }
            }
            try paginator.finish()
            if renderer is CairoPDFRenderer {
                var seen = Set<String>()
                for overflow in paginator.inkOverflows where seen.insert(overflow.location?.description ?? "").inserted {
                    layoutDiagnostics.append(Self.diagnostic(for: overflow))
                }
                for adjustment in paginator.tableAdjustments {
                    layoutDiagnostics.append(Diagnostic(.warning, adjustment.message, at: adjustment.location))
                }
            }
            return paginator
        }

        // Passes that draw nothing, only when something needs the page count or the pages
        // headings land on: `{pages}` in a running text, or a table of contents. The contents'
        // own page numbers can change its length, so it is laid out again until the pages
        // headings land on stop changing (at most three passes). They keep only numbers: the
        // page count and the page of each destination.
        var pageCount: Int?
        var pages: [String: Int] = [:]
        if running.needsPageCount || contents != nil {
            for _ in 0..<3 {
                let pass = try layOut(pages: pages, pageCount: nil, into: PageCounter())
                pageCount = pass.pageCount
                guard contents != nil, pass.destinations != pages else { break }
                pages = pass.destinations
            }
            FreedMemory.release()
        }

        let outputFile = try OutputFile(target: output)
        // A preview's per-page files are written as `.NAME-N.png.tmp` and renamed: an
        // interrupted run removes the one being written.
        let previewTemporaries = options.preview.map { Self.temporaryFiles(of: $0, base: outputFile.destination) }
        if let previewTemporaries { TemporaryFiles.register(pattern: previewTemporaries) }
        defer { if let previewTemporaries { TemporaryFiles.forget(pattern: previewTemporaries) } }
        do {
            let info = DocumentInfo(title: title, author: document.metadata.author.map { FrontMatterText.plain($0, smart: smart) },
                                    subject: document.metadata.subtitle.map { FrontMatterText.plain($0, smart: smart) },
                                    keywords: document.metadata.keywords)
            func write(tagged: Bool) throws -> (pages: Int, renderer: CairoPDFRenderer) {
                layoutDiagnostics = []
                let tagging = tagged && options.preview == nil ? PDFTagging(language: FrontMatterSettings.language(document.metadata.lang)) : nil
                let renderer = try CairoPDFRenderer(path: outputFile.temporaryPath, info: info, creationDate: options.creationDate ?? defaultCreationDate(),
                                                    tagging: tagging)
                if let preview = options.preview { renderer.startPreview(preview, base: outputFile.destination) }
                // Cairo's copies of a large CFF table (a CJK face's, twice: when the first page
                // that draws it is shown, and when the file is finished) land on huge pages:
                // thousands of page faults fewer. Documents without such a face leave the heap
                // as it is.
                if options.tunesHeap { renderer.beforeLargeFontTableCopy = { HugePageHeap.prepare() } }
                renderer.beforeTaggingPass = { FreedMemory.release() }
                let count = try layOut(pages: pages, pageCount: pageCount, into: renderer).pageCount
                // The last pass has read the document: its last window of blocks and its source
                // text (set aside in a temporary file, read back only if the document is
                // rendered again) go before Cairo finishes the file, and so do the heap pages
                // layout freed, on which Cairo's finish and the tagging pass would stack.
                document.releaseSource()
                FreedMemory.release()
                // The heap's top is on huge pages again for Cairo's second copy of each large
                // CFF table, which finishing allocates (``HugePageHeap``).
                if options.tunesHeap, renderer.drewLargeFontTable { HugePageHeap.prepare() }
                try renderer.finish()
                return (count, renderer)
            }
            var written: (pages: Int, renderer: CairoPDFRenderer)
            do {
                written = try write(tagged: options.tagged)
            } catch BackendError.tagging(_, let message) {
                // What could not be tagged is still printed: untagged, with a warning.
                let warning = Diagnostic(.warning, "the PDF could not be tagged for accessibility (\(message)); it is written untagged", at: nil, kind: .output)
                if options.strict { throw TypesetError.warningsAreErrors([warning]) }
                diagnostics.append(warning)
                written = try write(tagged: false)
            }
            layoutDiagnostics = document.source.placingSubjects(of: layoutDiagnostics)
            if options.strict, !layoutDiagnostics.isEmpty {
                throw TypesetError.warningsAreErrors(Diagnostic.coalesced(layoutDiagnostics))
            }
            diagnostics += layoutDiagnostics
            if options.preview == nil { try outputFile.commit() } else { outputFile.discard() }
            // Warnings that say the same thing are said once, with their count.
            return RenderReport(pageCount: written.pages, diagnostics: Diagnostic.coalesced(diagnostics),
                                files: written.renderer.previewFiles)
        } catch {
            outputFile.discard()
            if let error = error as? TypesetError { throw error }
            throw TypesetError.renderingFailed(String(describing: error))
        }
    }

    /// The temporary files a preview of `base` writes, one per page before it is renamed to
    /// ``PagePreview/path(for:page:)``: `.NAME-N.png.tmp` beside each picture.
    /// The warning for text whose glyphs reach past the text area even alone at the top of a
    /// page (a line height far below the glyphs' height, a tall stack of marks), at its block.
    static func diagnostic(for overflow: InkOverflow) -> Diagnostic {
        let reach = overflow.crossesPageEdge ? "past the bottom edge of the page, where they are cut" : "into the bottom margin"
        return Diagnostic(.warning, "glyphs taller than the text area: even at the top of a page they reach \(overflow.excess.wholePointsText) pt "
                          + "below it, \(reach); a larger line height or a smaller size fits them", at: overflow.location, kind: .overfull)
    }

    static func temporaryFiles(of preview: PagePreview, base: String) -> TemporaryFiles.Pattern {
        let (folder, prefix) = preview.temporaryPrefix(for: base)
        let suffix = ".\(preview.format.rawValue).tmp"
        return TemporaryFiles.Pattern(folder: folder.isEmpty ? "." : folder, prefix: prefix, suffix: suffix)
    }

    /// The theme to set `file` with: given, or prepared from the request; with the options'
    /// paper and margins.
    /// - Throws: ``TypesetError/invalidPage(path:message:)`` when the text area is under 1 in.
    static func pageTheme(_ options: RenderOptions, file: String, diagnostics: inout [Diagnostic]) throws -> Theme {
        var theme: Theme
        if let given = options.theme {
            let (checked, warnings) = try checkTheme(given)
            theme = checked
            diagnostics += warnings
        } else {
            let (prepared, warnings) = try prepareTheme(options.themeRequest)
            theme = prepared
            diagnostics += warnings
        }
        if let paper = options.paper { theme.page.paper = paper }
        if let margins = options.margins { theme.page.margins = margins }
        let page = theme.page
        guard page.measure >= 72, page.textHeight >= 72, page.paper.width <= 14_400, page.paper.height <= 14_400 else {
            func pt(_ v: Double) -> String { v.wholePointsText }
            throw TypesetError.invalidPage(path: file, message: "paper \(pt(page.paper.width)) × \(pt(page.paper.height)) pt less its margins "
                + "leaves a text area of \(pt(page.measure)) × \(pt(page.textHeight)) pt; the text area must be at least 72 × 72 pt (1 in) "
                + "and the paper at most 14 400 pt (200 in) a side")
        }
        return theme
    }

    static func stylingOptions(_ options: RenderOptions, file: String) -> StylingOptions {
        let baseDirectory = options.baseDirectory
            ?? (["-", "<stdin>"].contains(file) ? FileManager.default.currentDirectoryPath
                : URL(fileURLWithPath: file).deletingLastPathComponent().path)
        return StylingOptions(justify: options.justify ?? false, hangulLineBreak: options.hangulLineBreak ?? .keepAll,
                              baseDirectory: baseDirectory)
    }

    /// Diagnostics in source order, so a reader can walk the file top to bottom; those without
    /// a position keep their order, after the rest.
    /// The warning for a word wider than the measure, quoting it (its first 60 characters) and
    /// placed where it is written (its first 24 characters are looked for in the source).
    static func overfullWord(_ word: String?, measure: Double, at location: SourceLocation?) -> Diagnostic {
        guard let word, !word.isEmpty else {
            return Diagnostic(.warning, "a word is wider than the measure: broken between letters", at: location,
                              kind: .overfull)
        }
        let shown = word.count > 60 ? word.prefix(60) + "…" : Substring(word)
        let message = "a word is wider than the measure (\(measure.wholePointsText) pt): '\(shown)' is broken "
            + "between letters"
        return Diagnostic(.warning, message, at: location, kind: .overfull, subject: String(word.prefix(24)))
    }

    static func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (x?, y?) where x.file == y.file: return (x.line, x.column, a.offset) < (y.line, y.column, b.offset)
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// `SOURCE_DATE_EPOCH` (reproducible-builds.org) when set, else now.
    static func defaultCreationDate() -> Date {
        if let epoch = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }), let seconds = TimeInterval(epoch) {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date()
    }
}

/// Counts pages and forgets them (the first pass of a two-pass layout).
final class PageCounter: PageRenderer {
    func render(_ page: Page) throws {}
}
