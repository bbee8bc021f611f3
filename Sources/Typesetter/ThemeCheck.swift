import DocumentModel
internal import PangoCairoBackend
import Typography

extension Typesetter {
    /// Applies to a theme built in code the validation a theme file gets (``Theme/validate(file:isFamilyAvailable:)``):
    /// a value outside ``TypographicLimits`` (a size of −5 pt, a line height of 0), a bad page,
    /// or a role none of whose families is installed is an error; a family that is not
    /// installed is dropped from its fallback list with one warning per substitution, as for a
    /// theme file, so Pango never silently sets the text in an arbitrary face.
    /// - Returns: the theme with missing families removed, and the warnings.
    /// - Throws: ``TypesetError/invalidTheme(problems:)`` with one `theme 'name': …` line per error.
    public static func checkTheme(_ theme: Theme) throws -> (Theme, [Diagnostic]) {
        try checkTheme(theme, fonts: FontSession())
    }

    /// ``checkTheme(_:)`` against the families of `fonts`.
    static func checkTheme(_ theme: Theme, fonts: FontSession) throws -> (Theme, [Diagnostic]) {
        let catalog = FontCatalog(fonts)
        let errors = theme.validate(isFamilyAvailable: catalog.has).filter { $0.severity == .error }
        if !errors.isEmpty { throw TypesetError.invalidTheme(problems: errors.map(\.description)) }
        var checked = theme
        let warnings = catalog.removeMissingFamilies(from: &checked)
        return (checked, warnings.map { Diagnostic(.warning, $0, kind: .theme) })
    }
}
