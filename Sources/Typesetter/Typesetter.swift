import DocumentModel
import Foundation
import Layout
import MarkdownParser
import PangoCairoBackend
import Styling
import Typography

/// How a document is rendered. nil fields fall back to the document's front matter, then to
/// the theme. Command-line options fill these in.
public struct RenderOptions {
    public var theme: Theme
    public var paper: PaperSize?
    /// Treat every warning as an error: exit 1, nothing written.
    public var strict: Bool
    /// The PDF creation date; nil: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
    public var creationDate: Date?
    /// Folder relative image paths resolve against (default: the input file's folder).
    public var baseDirectory: String?
    public var justify: Bool?
    public var hangulLineBreak: HangulLineBreak?

    public init(theme: Theme = .default, paper: PaperSize? = nil, strict: Bool = false, creationDate: Date? = nil,
                baseDirectory: String? = nil, justify: Bool? = nil, hangulLineBreak: HangulLineBreak? = nil) {
        self.theme = theme; self.paper = paper; self.strict = strict; self.creationDate = creationDate
        self.baseDirectory = baseDirectory; self.justify = justify; self.hangulLineBreak = hangulLineBreak
    }
}

/// What a successful run produced.
public struct RenderReport {
    public var pageCount: Int
    /// Warnings about the input (`file:line:column: warning: …`), in source order.
    public var diagnostics: [Diagnostic]
}

/// The facade: Markdown text → PDF file, wiring parser, styling, layout and the Pango/Cairo
/// backend. Pages stream to Cairo as they are laid out.
public enum Typesetter {
    /// Renders `markdown` (named `file` in diagnostics) to the PDF at `output` (`-`: standard
    /// output). The file appears only when rendering succeeded (temporary file + rename).
    /// - Throws: ``TypesetError`` (unwritable output, strict-mode warnings, Cairo failure).
    public static func render(markdown: String, file: String, to output: String, options: RenderOptions = RenderOptions()) throws -> RenderReport {
        let parsed = MarkdownParser.parse(markdown, file: file)
        return try render(document: parsed.document, diagnostics: parsed.diagnostics, to: output, options: options)
    }

    /// Renders an already-built document (specimens build theirs from a template).
    public static func render(document: Document, diagnostics parseDiagnostics: [Diagnostic] = [], to output: String,
                              options: RenderOptions) throws -> RenderReport {
        var theme = options.theme
        if let paper = options.paper { theme.page.paper = paper }
        let baseDirectory = options.baseDirectory
            ?? (document.file == "-" ? FileManager.default.currentDirectoryPath : URL(fileURLWithPath: document.file).deletingLastPathComponent().path)
        let styling = StylingOptions(justify: options.justify ?? false, hangulLineBreak: options.hangulLineBreak ?? .keepAll,
                                     baseDirectory: baseDirectory)
        let styled = Styler.style(document, theme: theme, options: styling)
        var diagnostics = parseDiagnostics + styled.diagnostics
        diagnostics += FontCheck.diagnostics(for: styled.blocks, theme: theme)
        if options.strict, !diagnostics.isEmpty { throw TypesetError.warningsAreErrors(diagnostics) }

        let outputFile = try OutputFile(target: output)
        do {
            let info = DocumentInfo(title: document.metadata.title ?? styled.firstHeading, author: document.metadata.author,
                                    subject: document.metadata.subtitle, keywords: document.metadata.keywords)
            let renderer = try CairoPDFRenderer(path: outputFile.temporaryPath, info: info, creationDate: options.creationDate ?? defaultCreationDate())
            let shaper = PangoShaper()
            let footer = RunningText.pageNumberFooter(theme: theme)
            let paginator = Paginator(shaper: shaper, options: LayoutOptions(page: theme.page, footer: footer), renderer: renderer)
            for block in styled.blocks { try paginator.add(block) }
            let pages = try paginator.finish()
            try renderer.finish()
            try outputFile.commit()
            return RenderReport(pageCount: pages, diagnostics: diagnostics)
        } catch {
            outputFile.discard()
            if let error = error as? TypesetError { throw error }
            throw TypesetError.renderingFailed(String(describing: error))
        }
    }

    /// `SOURCE_DATE_EPOCH` (reproducible-builds.org) when set, else now.
    static func defaultCreationDate() -> Date {
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = TimeInterval(epoch) {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date()
    }
}

/// Running heads and feet.
enum RunningText {
    /// The page number, centred, in the Caption role and the secondary colour.
    static func pageNumberFooter(theme: Theme) -> (Int) -> StyledParagraph? {
        let style = theme[.caption]
        let font = FontSpec(families: style.families, weight: style.weight, size: style.size)
        var run = RunStyle(font: font, features: ["tnum"], color: theme.color(named: "secondary") ?? theme.textColor)
        run.letterSpacing = 0
        return { page in
            StyledParagraph(runs: [StyledRun(String(page), style: run)], style: ParagraphStyle(baseFont: font, alignment: .center))
        }
    }
}

/// Warnings for faces that are not what the theme asked for.
enum FontCheck {
    static func diagnostics(for blocks: [StyledBlock], theme: Theme) -> [Diagnostic] {
        []
    }
}
