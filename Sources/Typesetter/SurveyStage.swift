import DocumentModel
import Foundation
internal import ProcessMemory
import Styling

extension DocumentSurvey {
    /// The survey stage: styles `document` block by block once (``DocumentSurvey``) and keeps
    /// only what layout must know first, then sets the document's source text aside. Returns
    /// the survey and its warnings: the styling warnings, then one for a document with nothing
    /// after its front matter.
    static func survey(
        _ document: Document, settings: ResolvedSettings,
        threaded: Bool
    ) -> (survey: DocumentSurvey, diagnostics: [Diagnostic]) {
        let survey = DocumentSurvey(
            document, theme: settings.theme, options: settings.styling, threaded: threaded,
            listsHeadings: settings.options.tableOfContents == true,
            contentsDepth: settings.options.tableOfContentsDepth ?? TableOfContents.defaultDepth,
            cancellation: settings.options.cancellation, fonts: settings.fonts)
        // The survey has named every position: layout reads only its windows of blocks, each
        // from the source set aside (a long document's text is not held while pages are drawn).
        document.releaseSource()
        if settings.options.tunesHeap { FreedMemory.release() }
        let emptiness = emptinessWarning(document, titleBlock: settings.options.titleBlock)
        return (survey, survey.stylingDiagnostics + (emptiness.map { [$0] } ?? []))
    }

    /// The warning for a document without blocks, true to the page: with a title block (front
    /// matter title, subtitle, author or date, and the title block on) the page is not empty.
    private static func emptinessWarning(_ document: Document, titleBlock: Bool) -> Diagnostic? {
        guard document.blocks.isEmpty else { return nil }
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
