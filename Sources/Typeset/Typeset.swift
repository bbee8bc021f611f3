// `import Typeset` is all a Swift program needs: this module re-exports the facade
// (`Typesetter`, `RenderOptions`, `RenderedPDF`, `TypesetError`) and every module whose types
// the facade takes or returns — `Typography` (`Theme`, `TextStyle`, `PaperSize`, `Margins`, …),
// `DocumentModel` (`Document`, `Block`, `Inline`, `Diagnostic`), `Styling` (`HangulLineBreak`)
// and `PangoCairoBackend` (`PagePreview`). So `Typeset.RenderOptions` and `Typeset.Theme`
// resolve, and no second import is needed.
@_exported import DocumentModel
@_exported import PangoCairoBackend
@_exported import Styling
@_exported import Typesetter
@_exported import Typography
