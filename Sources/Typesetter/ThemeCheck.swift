import DocumentModel
import Typography

extension Typesetter {
    /// Applies to a theme built in code the checks a theme file gets when it is loaded: a value
    /// outside ``TypographicLimits`` (a size of −5 pt, a line height of 0) is an error, and a
    /// family that is not installed is dropped from its fallback list with one warning per
    /// substitution, so Pango never silently sets the text in an arbitrary face.
    /// - Returns: the theme with missing families removed, and the warnings.
    /// - Throws: ``TypesetError/invalidTheme(problems:)`` naming the theme, the role and the value.
    public static func checkTheme(_ theme: Theme) throws -> (Theme, [Diagnostic]) {
        let outOfRange = TextRole.allCases.flatMap { role in
            theme[role].limitProblems.map { "theme '\(theme.name)': \(role.displayName): \($0)" }
        }
        if !outOfRange.isEmpty { throw TypesetError.invalidTheme(problems: outOfRange) }
        var checked = theme
        let warnings = FontCatalog().removeMissingFamilies(from: &checked)
        return (checked, warnings.map { Diagnostic(.warning, $0) })
    }
}
