import DocumentModel
import Foundation
import MarkdownParser
internal import PangoCairoBackend
import Styling
import Typography

/// The first stage of a render: the settings every later stage reads. The render options are
/// merged with the document's front matter (the options win), the theme is prepared or checked
/// and given its paper and margins, a picture preview is checked against Cairo's image limits,
/// and the styling options are derived.
struct ResolvedSettings {
    /// The render options with the front matter's values filled in where the caller left nil.
    let options: RenderOptions
    /// The render options as the caller gave them: a value set here is not placed at a front
    /// matter line in warnings.
    let requested: RenderOptions
    /// The theme the document is set in, with its page (paper, margins) final.
    let theme: Theme
    /// The font map this render shapes and queries fonts on: the installed fonts and the
    /// theme's and the options' font folders, seen by this render alone.
    let fonts: FontSession
    /// What styling needs: justification, Hangul line breaking, the image folder, the language
    /// and hyphenation.
    let styling: StylingOptions
    /// The parser's warnings, then the front matter's and the theme's, in the order found.
    let diagnostics: [Diagnostic]

    /// Resolves the settings `requested` for `document`, whose parser reported `parseDiagnostics`.
    /// - Throws: ``TypesetError/invalidInput(_:)`` when the parser or the front matter found an
    ///   error; ``TypesetError/invalidTheme(problems:)`` and ``TypesetError/invalidPage(path:message:)``
    ///   (placed at the front matter key that named the theme, paper or margins, when one did);
    ///   ``TypesetError/invalidPage(path:message:)`` for a preview past Cairo's image limits.
    init(resolving requested: RenderOptions, for document: Document, parseDiagnostics: [Diagnostic]) throws {
        let errors = parseDiagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw TypesetError.invalidInput(errors) }
        var diagnostics = parseDiagnostics
        let options = FrontMatterSettings.merge(requested, with: document.metadata, diagnostics: &diagnostics)
        if let missingTitle = FrontMatterSettings.missingTitle(options, document: document) {
            diagnostics.append(missingTitle)
        }
        let settingErrors = diagnostics.filter { $0.severity == .error }
        if !settingErrors.isEmpty { throw TypesetError.invalidInput(settingErrors) }
        let (theme, fonts) = try Self.theme(
            options, requested: requested, document: document, diagnostics: &diagnostics)
        if let preview = options.preview {
            try Self.checkPreview(preview, paper: theme.page.paper, file: document.file)
        }
        var styling = Self.stylingOptions(options, file: document.file)
        styling.language = document.metadata.lang
        styling.hyphenate = options.hyphenate
        if options.numberSections == true {
            styling.sectionNumbering = SectionNumbering(
                for: document, skipsOpeningHeading: Self.opensWithTitleHeading(document, options: options))
        }
        self.options = options
        self.requested = requested
        self.theme = theme
        self.fonts = fonts
        self.styling = styling
        self.diagnostics = diagnostics
    }

    /// The theme of ``Typesetter/pageTheme(_:file:diagnostics:)``, its errors placed at the front
    /// matter key that caused them when the render options did not set that value themselves.
    private static func theme(
        _ options: RenderOptions, requested: RenderOptions, document: Document,
        diagnostics: inout [Diagnostic]
    ) throws -> (Theme, FontSession) {
        do {
            let first = diagnostics.count
            let prepared = try Typesetter.pageTheme(options, file: document.file, diagnostics: &diagnostics)
            placeFontKeys(&diagnostics[first...], requested: requested, metadata: document.metadata)
            return prepared
        } catch TypesetError.invalidPage(let path, let message)
            where requested.paper == nil || requested.margins == nil
        {
            throw pageError(path: path, message: message, requested: requested, metadata: document.metadata)
        } catch TypesetError.invalidTheme(let problems) {
            if let key = adaptingKey(of: problems, requested: requested, metadata: document.metadata) {
                throw TypesetError.invalidInput([
                    Diagnostic(
                        .error, "front matter '\(key)': \(problems[0])", at: document.metadata.fieldLocations[key],
                        kind: .frontMatter)
                ])
            }
            if requested.theme == nil && requested.themeRequest.theme == nil && options.themeRequest.theme != nil {
                throw themeError(problems, named: options.themeRequest.theme ?? "", metadata: document.metadata)
            }
            throw TypesetError.invalidTheme(problems: problems)
        }
    }

    /// Places the warnings about a family that front matter named (`mainfont`, `sansfont`,
    /// `monofont`, which the options did not set) at the value that named it.
    private static func placeFontKeys(
        _ diagnostics: inout ArraySlice<Diagnostic>, requested: RenderOptions, metadata: Metadata
    ) {
        let fields = metadata.fields
        for index in diagnostics.indices where diagnostics[index].location == nil {
            let message = diagnostics[index].message
            let key: String? =
                if message.hasPrefix("monofont '"), requested.themeRequest.pandocVariables.monospaceFamily == nil {
                    "monofont"
                } else if requested.themeRequest.family == nil {
                    ["mainfont", "sansfont"].first { key in
                        fields[key].map { message.hasPrefix("family '\($0)' not found") } ?? false
                    }
                } else {
                    nil
                }
            guard let key, let location = metadata.fieldLocations[key] else { continue }
            diagnostics[index] = Diagnostic(
                .warning, "front matter '\(key)': \(message)", at: location, kind: .frontMatter)
        }
    }

    /// The front matter key whose adaptation of the theme pushed a role past its limits (a
    /// `fontsize`, `linestretch` or `size-category` the options did not set), named by the
    /// theme's problem; nil when none did.
    private static func adaptingKey(of problems: [String], requested: RenderOptions, metadata: Metadata) -> String? {
        guard let first = problems.first else { return nil }
        let request = requested.themeRequest
        let candidates: [(key: String, phrase: String, requested: Bool)] = [
            ("fontsize", "fontsize ", request.pandocVariables.bodySize != nil),
            ("linestretch", "linestretch ", request.pandocVariables.lineStretch != nil),
            ("size-category", "size category ", request.sizeCategory != nil),
        ]
        return candidates.first { candidate in
            !candidate.requested && metadata.fieldLocations[candidate.key] != nil
                && first.contains(" adapted to ") && first.contains(candidate.phrase)
        }?.key
    }

    /// A page error for paper or margins from the front matter: at the key that set them, as
    /// for a bad value.
    private static func pageError(
        path: String, message: String, requested: RenderOptions,
        metadata: Metadata
    ) -> TypesetError {
        let keys = ["margins", "paper", "margins.top", "margins.right", "margins.bottom", "margins.left"]
        let key = keys.first { key in
            let fromFrontMatter = key == "paper" ? requested.paper == nil : requested.margins == nil
            return fromFrontMatter && metadata.fieldLocations[key] != nil
        }
        guard let key, let location = metadata.fieldLocations[key] else {
            return TypesetError.invalidPage(path: path, message: message)
        }
        return TypesetError.invalidInput([
            Diagnostic(.error, "front matter '\(key)': \(message)", at: location, kind: .frontMatter)
        ])
    }

    /// A theme error for a theme the front matter named: a problem with the theme as a whole (no
    /// such theme, unreadable) is reported at the `theme:` line that named it; problems inside
    /// the file it named are said to be the theme's, then each is given at its place.
    private static func themeError(_ problems: [String], named name: String, metadata: Metadata) -> TypesetError {
        guard let location = metadata.fieldLocations["theme"], let first = problems.first else {
            return TypesetError.invalidTheme(problems: problems)
        }
        guard first.range(of: #"^[^\n]*?:\d+:\d+: "#, options: .regularExpression) == nil else {
            let heading =
                "\(location): front matter 'theme': '\(name)' is read as the theme, "
                + "and it is not a usable theme:"
            return TypesetError.invalidTheme(problems: [heading] + problems)
        }
        let placed = "\(location): front matter 'theme': \(first)"
        return TypesetError.invalidTheme(problems: [placed] + problems.dropFirst())
    }

    /// Whether `document` opens with a level-1 heading that the title block takes as the title
    /// (``TitleBlock``): a front matter title with the same text, or no title and no other
    /// level-1 heading (``SectionNumbering/levelOneHeadingCount(_:)``).
    static func opensWithTitleHeading(_ document: Document, options: RenderOptions) -> Bool {
        guard options.titleBlock, let first = Block.opening(of: document.blocks)?.block,
            case .heading(1, let inlines) = first.kind
        else {
            return false
        }
        let opening = inlines.plainText.trimmingCharacters(in: .whitespaces)
        guard let title = document.metadata.title, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return SectionNumbering.levelOneHeadingCount(document.blocks) == 1
        }
        return FrontMatterText.plain(title, conventions: FrontMatterText.Conventions(document.metadata)) == opening
    }

    /// Checks a preview as the command line checks `--pages` and `--dpi` (pages from 1, 1 to
    /// 2400 dpi), and that a PNG page of `paper` at its resolution can be drawn.
    /// - Throws: ``TypesetError/invalidPage(path:message:)`` for a page below 1 or a resolution
    ///   out of range; past Cairo's image surfaces' 32 767
    ///   pixels a side (cairo-image-surface.c, MAX_IMAGE_SIZE; past it Cairo fails with its own
    ///   words, so this says it first) or past ``PagePreview/maxPixels`` (a page is drawn whole in
    ///   memory, 4 bytes a pixel, before it is compressed), naming the largest `--dpi` that fits.
    private static func checkPreview(_ preview: PagePreview, paper: PaperSize, file: String) throws {
        // As the command line's --pages and --dpi are checked.
        if let pages = preview.pages, let bad = pages.sorted().first(where: { $0 < 1 }) {
            throw TypesetError.invalidPage(path: file, message: "a preview's pages are numbered from 1, not \(bad)")
        }
        guard preview.format == .png else { return }
        guard preview.dpi.isFinite, (1...2400).contains(preview.dpi) else {
            throw TypesetError.invalidPage(
                path: file, message: "a preview's resolution is 1 to 2400 dpi, not \(preview.dpi)")
        }
        let width = (paper.width * preview.dpi / 72).rounded(.up)
        let height = (paper.height * preview.dpi / 72).rounded(.up)
        let page = "a \(paper.width.wholePointsText) × \(paper.height.wholePointsText) pt page"
        if max(width, height) > 32_767 {
            let largest = (32_767 * 72 / max(paper.width, paper.height)).rounded(.down)
            let message =
                "\(page) at --dpi \(preview.dpi.wholePointsText) is \(Int(width)) × \(Int(height)) px; "
                + "a PNG page can be at most 32767 px a side (Cairo's image limit): use --dpi \(Int(largest)) or less"
            throw TypesetError.invalidPage(path: file, message: message)
        }
        let limit = Double(PagePreview.maxPixels)
        if width * height > limit {
            let largest = (72 * (limit / (paper.width * paper.height)).squareRoot()).rounded(.down)
            let millions = Int((width * height / 1_000_000).rounded())
            let most = PagePreview.maxPixels / 1_000_000
            let message =
                "\(page) at --dpi \(preview.dpi.wholePointsText) is \(Int(width)) × \(Int(height)) px, "
                + "\(millions) million pixels; a PNG page can have at most \(most) million "
                + "(\((PagePreview.maxPixels * 4) >> 20) MB drawn): use --dpi \(Int(largest)) or less"
            throw TypesetError.invalidPage(path: file, message: message)
        }
    }

    /// The styling options `options` give a document named `file`: relative image paths resolve
    /// against ``documentFolder(_:file:)``.
    static func stylingOptions(_ options: RenderOptions, file: String) -> StylingOptions {
        let baseDirectory = documentFolder(options, file: file)
        var styling = StylingOptions(
            justify: options.justify ?? false, hangulLineBreak: options.hangulLineBreak ?? .auto,
            baseDirectory: baseDirectory)
        styling.sandbox = options.sandbox
        styling.imageProblem = { ImageDecoder.isDrawable($0) ? nil : ImageCheck.problem(ofFile: $0) }
        return styling
    }

    /// The folder the paths a document named `file` writes resolve against (its images, a
    /// front-matter `theme:`): ``RenderOptions/baseDirectory`` when set; for a text with no file
    /// of its own (`<memory>`, `-`, `<stdin>`), the ``RenderOptions/root`` when one is set (the
    /// only folder it may read), else the current folder; else the file's folder.
    static func documentFolder(_ options: RenderOptions, file: String) -> String {
        if let base = options.baseDirectory { return base }
        guard !["<memory>", "-", "<stdin>"].contains(file) else {
            return options.root?.path ?? FileManager.default.currentDirectoryPath
        }
        return URL(fileURLWithPath: file).deletingLastPathComponent().path
    }
}

extension Typesetter {
    /// The theme to set `file` with: given, or prepared from the request; with the options'
    /// paper and margins (margins given fix the page), its margins fitted to its measure in
    /// characters (``fittingMeasure(of:shaper:)``) otherwise; and the font map of its fonts
    /// (the installed ones for a given theme, with the request's font folders otherwise).
    /// - Throws: ``TypesetError/invalidPage(path:message:)`` when the text area is under 1 in.
    static func pageTheme(
        _ options: RenderOptions, file: String, diagnostics: inout [Diagnostic]
    ) throws -> (Theme, FontSession) {
        var theme: Theme
        let fonts: FontSession
        if let given = options.theme {
            // The caller's theme and folders, not a document's: registered as they are.
            let (session, folderWarnings) = try fontSession(
                folders: options.themeRequest.fontFolders + given.fontFolders)
            fonts = session
            let (checked, warnings) = try checkTheme(given, fonts: fonts)
            theme = checked
            diagnostics += folderWarnings.map { Diagnostic(.warning, $0, kind: .theme) } + warnings
        } else {
            let (prepared, warnings, session) = try prepareThemeAndFonts(options.themeRequest)
            theme = prepared
            fonts = session
            diagnostics += warnings
        }
        if let paper = options.paper { theme.page.paper = paper }
        if let margins = options.margins {
            theme.page.margins = margins
            theme.page.measureCharacters = nil
        } else if options.marginSides["left"] != nil || options.marginSides["right"] != nil {
            // A theme's measure in characters sets its side margins unless one is given.
            theme.page.measureCharacters = nil
        }
        theme = fittingMeasure(of: theme, shaper: PangoShaper(session: fonts))
        if options.margins == nil, !options.marginSides.isEmpty {
            // A `geometry` that gives some sides: the others stay the theme's.
            let sides = options.marginSides
            theme.page.margins.top = sides["top"] ?? theme.page.margins.top
            theme.page.margins.right = sides["right"] ?? theme.page.margins.right
            theme.page.margins.bottom = sides["bottom"] ?? theme.page.margins.bottom
            theme.page.margins.left = sides["left"] ?? theme.page.margins.left
        }
        let page = theme.page
        guard page.measure >= 72, page.textHeight >= 72, page.paper.width <= 14_400, page.paper.height <= 14_400 else {
            let paper = "\(page.paper.width.wholePointsText) × \(page.paper.height.wholePointsText) pt"
            let area = "\(page.measure.wholePointsText) × \(page.textHeight.wholePointsText) pt"
            throw TypesetError.invalidPage(
                path: file,
                message: "paper \(paper) less its margins leaves a text area of "
                    + "\(area); the text area must be at least 72 × 72 pt (1 in) "
                    + "and the paper at most 14 400 pt (200 in) a side")
        }
        return (theme, fonts)
    }
}
