import DocumentModel
internal import PangoCairoBackend
import Styling

/// The tagging stage: the drawing pass writes a tagged PDF (structure tree, `/Lang`, `/Alt`,
/// artifacts) unless tags are turned off or the output is a preview. What could not be tagged
/// is still printed: the pass is run again untagged, with a warning (an error in strict mode).
enum TaggingStage {
    /// Draws `layout`'s pages into `file`, tagged when the options ask for it, untagged when
    /// tagging fails. Returns the drawing and the warning that tagging failed, if it did.
    /// - Throws: ``TypesetError/warningsAreErrors(_:)`` when tagging fails in strict mode;
    ///   ``TypesetError/invalidInput(_:)`` when PDF/UA-1 is asked for and a figure has no
    ///   alternative text: an error at each such image among `warnings` (the render's), or
    ///   ``TypesetError/renderingFailed(_:)`` saying what the standard misses when none is
    ///   placed; what ``LayoutAndDraw/draw(numbers:into:tagged:)`` throws.
    static func draw(
        _ layout: LayoutAndDraw, numbers: LayoutAndDraw.PageNumbers,
        into file: OutputFile, warnings: [Diagnostic]
    ) throws -> (drawn: LayoutAndDraw.Drawn, diagnostics: [Diagnostic]) {
        let options = layout.settings.options
        do {
            return (try layout.draw(numbers: numbers, into: file, tagged: options.tagged), [])
        } catch BackendError.unmetStandard(_, let message) {
            let unplaced = warnings.filter { $0.kind == .image && $0.message.contains(Styler.noAlternativeText) }
            guard !unplaced.isEmpty else { throw TypesetError.renderingFailed(message) }
            throw TypesetError.invalidInput(
                unplaced.map { warning in
                    var error = warning
                    error.severity = .error
                    error.message = "PDF/UA-1 needs alternative text on every figure: \(warning.message)"
                    return error
                })
        } catch BackendError.tagging(_, let message) {
            // A file that declares a standard it does not meet is never written.
            if let standards = options.pdfStandards, !standards.isEmpty, options.preview == nil {
                throw TypesetError.renderingFailed("the PDF could not be tagged (\(message))")
            }
            let warning = Diagnostic(
                .warning,
                "the PDF could not be tagged for accessibility (\(message)); "
                    + "it is written untagged", at: nil, kind: .output)
            if options.strict { throw TypesetError.warningsAreErrors([warning]) }
            return (try layout.draw(numbers: numbers, into: file, tagged: false), [warning])
        }
    }
}
