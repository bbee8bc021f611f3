internal import PangoCairoBackend
import Styling
import Typography

extension Typesetter {
    /// What exporting `theme` as code needs from the installed fonts, per role: the natural
    /// line height (ascent + descent, pt) of the face the role's families and weight resolve to,
    /// which a `lineHeightMultiple` multiplies and SwiftUI's `lineSpacing` adds to; and the
    /// weight Bold Text gives the role (``Theme/applyingBoldText(availableWeights:)``: the next
    /// heavier weight the family has).
    public static func exportMetrics(of theme: Theme) -> [TextRole: ThemeExport.RoleMetrics] {
        exportMetrics(of: theme, fonts: FontSession())
    }

    /// ``exportMetrics(of:)`` with the faces of the font map `fonts`.
    static func exportMetrics(of theme: Theme, fonts: FontSession) -> [TextRole: ThemeExport.RoleMetrics] {
        let shaper = PangoShaper(session: fonts)
        let catalog = FontCatalog(fonts)
        let (bold, _) = theme.applyingBoldText(availableWeights: { catalog.weights(of: $0) })
        var result: [TextRole: ThemeExport.RoleMetrics] = [:]
        for role in TextRole.allCases {
            let style = theme[role]
            let font = FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
            let metrics = shaper.metrics(of: font)
            result[role] = ThemeExport.RoleMetrics(
                naturalHeight: metrics.ascent + metrics.descent, boldTextWeight: bold[role].weight)
        }
        return result
    }
}
