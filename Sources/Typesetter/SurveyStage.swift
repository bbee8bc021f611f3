internal import CodeHighlighting
import DocumentModel
import Foundation
internal import PangoCairoBackend
internal import ProcessMemory
import Styling
import Typography

extension DocumentSurvey {
    /// The survey stage: styles `document` block by block once (``DocumentSurvey``) and keeps
    /// only what layout must know first, then sets the document's source text aside. Returns
    /// the survey and its warnings: the styling warnings, then one for a document with nothing
    /// after its front matter.
    static func survey(
        _ document: Document, settings: ResolvedSettings,
        threaded: Bool
    ) -> (survey: DocumentSurvey, diagnostics: [Diagnostic]) {
        var styling = settings.styling
        if threaded, codeTokenFacesResolve(settings.theme, fonts: settings.fonts) {
            styling.deferredCodeTokens = DeferredCodeTokens(
                families: settings.theme.monospaceFamilies, loader: DefinitionLoader())
        }
        var survey = DocumentSurvey(
            document, theme: settings.theme, options: styling, threaded: threaded,
            listsHeadings: settings.options.tableOfContents == true,
            contentsDepth: settings.options.tableOfContentsDepth ?? TableOfContents.defaultDepth,
            cancellation: settings.options.cancellation, fonts: settings.fonts)
        survey.definitionLoader = styling.deferredCodeTokens?.loader
        // The survey has named every position: layout reads only its windows of blocks, each
        // from the source set aside (a long document's text is not held while pages are drawn).
        document.releaseSource()
        if settings.options.tunesHeap { FreedMemory.release() }
        let emptiness = emptinessWarning(document, titleBlock: settings.options.titleBlock)
        return (survey, survey.stylingDiagnostics + (emptiness.map { [$0] } ?? []))
    }

    /// Whether every face a code token may take resolves as asked on `fonts`: the plain face
    /// and each weight and slant the theme's code style gives a token, in each of the theme's
    /// monospaced families as the font check asks for it (the family and those after it), at the
    /// size of code beside body text (so the font check finds the plain faces resolved). Then
    /// the survey sets code blocks without their tokens and loads their languages on another
    /// thread (``DeferredCodeTokens``), and finds what it would have found with them.
    static func codeTokenFacesResolve(_ theme: Theme, fonts: FontSession) -> Bool {
        guard theme.code.highlights else { return false }
        var faces: Set<[Bool]> = [[false, false]]
        for style in theme.code.tokens.values { faces.insert([style.bold, style.italic]) }
        let families = theme.monospaceFamilies
        let size = Styler.codeBlockSize(besideTextOf: theme[.body].size)
        for index in families.indices {
            for face in faces {
                let spec = FontSpec(
                    families: Array(families[index...]), weight: face[0] ? .bold : .regular, italic: face[1],
                    size: size)
                guard FontLibrary.resolve(spec, in: fonts).warnings.isEmpty else { return false }
            }
        }
        return true
    }

    /// The warning for a document without blocks, true to the page: with a title block (front
    /// matter title, subtitle, author or date, and the title block on) the page is not empty,
    /// nor with notes (a note cited only in its own text is set at the foot of the last page).
    private static func emptinessWarning(_ document: Document, titleBlock: Bool) -> Diagnostic? {
        guard document.blocks.isEmpty, document.footnotes.isEmpty else { return nil }
        let metadata = document.metadata
        let titled =
            titleBlock
            && [metadata.title, metadata.subtitle, metadata.author, metadata.date]
                .contains { !($0?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) }
        let message =
            titled
            ? "the document has no content after its front matter; the PDF has one page with only the title block"
            : "the document has no content; the PDF has one empty page"
        let start = SourceLocation(file: document.file, line: 1, column: 1)
        return Diagnostic(.warning, message, at: start, kind: .structure)
    }
}
