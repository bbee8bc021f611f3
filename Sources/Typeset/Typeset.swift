// `import Typeset` is all a Swift program needs: this module re-exports the facade
// (`Typesetter`, `RenderOptions`, `RenderedPDF`, `PagePreview`, `TypesetError`) and every module
// whose types the facade takes or returns — `Typography` (`Theme`, `TextStyle`, `PaperSize`,
// `Margins`, …), `DocumentModel` (`Document`, `Block`, `Inline`, `Diagnostic`) and `Styling`
// (`HangulLineBreak`). So `Typeset.RenderOptions` and `Typeset.Theme` resolve, and no second
// import is needed. The Pango/Cairo backend is not part of it: its types are the facade's to use.
@_exported import DocumentModel
@_exported import Styling
@_exported import Typesetter
@_exported import Typography
