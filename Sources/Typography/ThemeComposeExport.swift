import Foundation

extension ThemeExport {
    /// A Kotlin identifier from a theme name in UpperCamelCase (`material3.tokens` →
    /// `Material3Tokens`).
    static func kotlinTypeName(_ name: String) -> String {
        let lower = identifier(name)
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// Jetpack Compose: an object with one `TextStyle` per role. Sizes and line heights in `sp`
    /// (1 sp = 1 pt of the theme), the line height the PDF's baseline-to-baseline step with the
    /// half-leading above and below (`LineHeightStyle.Alignment.Center`, `Trim.None`, as the PDF
    /// sets it); letter spacing in `em` when the theme gives it as a share of the size, in `sp`
    /// when in pt; features as `fontFeatureSettings`, small caps as `smcp`. The families are
    /// named in a map the app fills with its `FontFamily` values (fonts are app resources).
    static func compose(_ theme: Theme, metrics: [TextRole: RoleMetrics], source: String) -> String {
        let type = kotlinTypeName(theme.name) + "Typography"
        var lines = [
            "// The type scale of the theme '\(theme.name)', from `typeset theme export \(source) --format compose`.",
            "// Sizes in sp (1 sp = 1 pt of the theme); lineHeight is the baseline-to-baseline step.",
            "import androidx.compose.ui.text.TextStyle",
            "import androidx.compose.ui.text.font.FontFamily",
            "import androidx.compose.ui.text.font.FontStyle",
            "import androidx.compose.ui.text.font.FontWeight",
            "import androidx.compose.ui.text.style.LineHeightStyle",
            "import androidx.compose.ui.text.style.TextDecoration",
            "import androidx.compose.ui.unit.em",
            "import androidx.compose.ui.unit.sp",
            "",
            "object \(type) {",
            "    /** The app's font families by the names the theme gives; FontFamily.Default for a name not set. */",
            "    var families: Map<String, FontFamily> = emptyMap()",
            "",
            "    private fun family(name: String): FontFamily = families[name] ?: FontFamily.Default",
            "",
            "    private val centered = LineHeightStyle(LineHeightStyle.Alignment.Center, LineHeightStyle.Trim.None)",
        ]
        for role in TextRole.allCases {
            lines += composeStyle(theme, role, metrics: metrics)
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func composeStyle(_ theme: Theme, _ role: TextRole, metrics: [TextRole: RoleMetrics]) -> [String] {
        let style = theme[role]
        let spacing: String =
            switch style.tracking ?? style.kerning {
            case .percentOfSize(let percent)?: "(\(number(percent / 100))).em"
            default: "(\(number(style.letterSpacing))).sp"
            }
        var arguments = [
            "fontFamily = family(\(swiftString(style.primaryFamily)))",
            "fontWeight = FontWeight(\(style.weight.rawValue))",
            "fontStyle = FontStyle.\(style.italic ? "Italic" : "Normal")",
            "fontSize = \(number(style.size)).sp",
            "lineHeight = \(number(step(theme, role, metrics))).sp",
            "lineHeightStyle = centered",
            "letterSpacing = \(spacing)",
        ]
        var features = style.features
        if style.textCase == .smallCaps { features.append("smcp") }
        if !features.isEmpty {
            arguments.append("fontFeatureSettings = \(swiftString(features.joined(separator: ", ")))")
        }
        switch style.textDecoration {
        case .underline?: arguments.append("textDecoration = TextDecoration.Underline")
        case .lineThrough?: arguments.append("textDecoration = TextDecoration.LineThrough")
        case nil: break
        }
        var comment = "\(role.displayName): \(style.families.joined(separator: ", "))"
        if let textCase = style.textCase, textCase != .smallCaps {
            comment += "; set the text \(textCase.rawValue) (TextStyle has no case transform)"
        }
        return [
            "",
            "    /** \(comment). */",
            "    val \(tokenName(role)) = TextStyle(",
        ] + arguments.map { "        \($0)," } + ["    )"]
    }
}
