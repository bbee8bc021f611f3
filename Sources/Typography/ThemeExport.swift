import Foundation

/// Writes a theme's type scale as code for apps: SwiftUI (an `extension Font` with one font per
/// role and a `ViewModifier` per role), CSS (custom properties and one class per role), Jetpack
/// Compose (`TextStyle`s) and design tokens (DTCG, Tokens Studio) for the design tools, with
/// the numbers Typeset sets the PDF with, so a design team keeps one scale on paper and in apps.
///
/// Sources: SwiftUI `Font.custom(_:size:relativeTo:)`, `Font.custom(_:fixedSize:)`,
/// `View.tracking(_:)`, `View.kerning(_:)`, `View.lineSpacing(_:)` (space added between lines,
/// on top of the font's own line height), `LegibilityWeight` (Bold Text); CSS Fonts 4
/// (`font-family`, `font-size`, `font-weight`, `font-feature-settings`, `font-variant-caps`),
/// CSS Inline 3 (`line-height`), CSS Text 3 (`letter-spacing`, `text-transform`), CSS Text
/// Decoration 3 (`text-decoration-line`).
public enum ThemeExport {
    /// The languages a theme exports to.
    public enum Format: String, CaseIterable, Sendable {
        /// SwiftUI: `extension Font` and one `ViewModifier` per role.
        case swiftui
        /// CSS: custom properties on `:root` and one class per role.
        case css
        /// Jetpack Compose: one `TextStyle` per role.
        case compose
        /// W3C Design Tokens (DTCG 2025.10): one composite `typography` token per role, colours.
        case dtcg
        /// Tokens Studio for Figma: one token set with a `typography` token per role, colours.
        case tokensStudio = "tokens-studio"
    }

    /// What the export needs from the installed fonts for one role.
    public struct RoleMetrics: Hashable, Sendable {
        /// Ascent + descent of the role's face at its size, pt: what a `lineHeightMultiple`
        /// multiplies and what SwiftUI's `lineSpacing` adds to.
        public var naturalHeight: Double
        /// The weight the role takes with Bold Text (the legibility weight).
        public var boldTextWeight: FontWeight
        /// Metrics from their parts.
        public init(naturalHeight: Double, boldTextWeight: FontWeight) {
            self.naturalHeight = naturalHeight
            self.boldTextWeight = boldTextWeight
        }
    }

    /// `theme` in `format`, with the text a `// ` or `/* */` header names it by (`source`).
    /// `metrics` gives each role's natural height and Bold Text weight; without it the natural
    /// height is taken as 1.2 × the size and the Bold Text weight as the next 100 up.
    public static func code(
        for theme: Theme, format: Format, metrics: [TextRole: RoleMetrics] = [:], source: String
    ) -> String {
        switch format {
        case .swiftui: swiftUI(theme, metrics: metrics, source: source)
        case .css: css(theme, metrics: metrics, source: source)
        case .compose: compose(theme, metrics: metrics, source: source)
        case .dtcg: dtcg(theme, metrics: metrics, source: source)
        case .tokensStudio: tokensStudio(theme, metrics: metrics, source: source)
        }
    }

    /// The baseline-to-baseline step of `role`, pt: its line height rule applied to the natural
    /// height `metrics` gives (1.2 × the size without it).
    public static func step(_ theme: Theme, _ role: TextRole, _ metrics: [TextRole: RoleMetrics]) -> Double {
        let style = theme[role]
        let natural = metrics[role]?.naturalHeight ?? style.size * 1.2
        return style.lineHeight?.step(size: style.size, naturalHeight: natural) ?? natural
    }

    /// A number as code writes it: up to four decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded() && abs(rounded) < 1e9 { return String(Int(rounded)) }
        var text = String(format: "%.4f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// A lowerCamelCase Swift identifier from a theme name (`material3.tokens` → `material3Tokens`);
    /// `theme` when nothing usable is left or it would start with a digit.
    static func identifier(_ name: String) -> String {
        let words = name.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }.map(String.init)
        var result = ""
        for (index, word) in words.enumerated() {
            result +=
                index == 0
                ? word.prefix(1).lowercased() + word.dropFirst()
                : word.prefix(1).uppercased()
                    + word.dropFirst()
        }
        if result.isEmpty || result.first!.isNumber {
            result = "theme" + result.prefix(1).uppercased() + result.dropFirst()
        }
        return result
    }

    /// SwiftUI's weight for `weight`: the named weight CSS's matching gives among the nine
    /// (``FontWeight/matchingCSS(among:)``), so 350 is `.light` and 550 `.semibold`, as a
    /// browser and the PDF draw them.
    static func swiftWeight(_ weight: FontWeight) -> String {
        let names = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]
        let matched = weight.matchingCSS(among: FontWeight.named)
        let index = min(8, max(0, matched.rawValue / 100 - 1))
        return "." + names[index]
    }

    static func swiftString(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    static func swiftUI(_ theme: Theme, metrics: [TextRole: RoleMetrics], source: String) -> String {
        let prefix = identifier(theme.name)
        var lines = [
            "// The type scale of the theme '\(theme.name)', from `typeset theme export \(source) --format swiftui`.",
            "// Sizes in pt; each role's line step is its font's own line height plus `lineSpacing`.",
            "import SwiftUI", "", "extension Font {",
        ]
        func font(_ style: TextStyle, weight: FontWeight) -> String {
            let family = swiftString(style.primaryFamily)
            var text =
                style.relativeTo.map {
                    "Font.custom(\(family), size: \(number(style.size)), relativeTo: .\($0.rawValue))"
                } ?? "Font.custom(\(family), fixedSize: \(number(style.size)))"
            text += ".weight(\(swiftWeight(weight)))"
            if style.italic { text += ".italic()" }
            return text + swiftUIFeatures(style.features).modifiers
        }
        for role in TextRole.allCases {
            let style = theme[role]
            let name = prefix + role.displayName
            let bold = metrics[role]?.boldTextWeight ?? FontWeight(min(900, style.weight.rawValue + 100))
            lines.append(
                "    /// \(role.displayName): \(style.primaryFamily) \(number(style.size)) pt, weight "
                    + "\(style.weight.rawValue), line step \(number(step(theme, role, metrics))) pt.")
            lines.append("    static let \(name) = \(font(style, weight: style.weight))")
            lines.append("    /// \(role.displayName) with Bold Text (the legibility weight): weight \(bold.rawValue).")
            lines.append("    static let \(name)BoldText = \(font(style, weight: bold))")
        }
        lines.append("}")
        for role in TextRole.allCases { lines += swiftUIModifier(theme, role, prefix: prefix, metrics: metrics) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func swiftUIModifier(_ theme: Theme, _ role: TextRole, prefix: String, metrics: [TextRole: RoleMetrics])
        -> [String]
    {
        let style = theme[role]
        let name = prefix + role.displayName
        let type = name.prefix(1).uppercased() + name.dropFirst() + "Style"
        let natural = metrics[role]?.naturalHeight ?? style.size * 1.2
        let spacing = step(theme, role, metrics) - natural
        var body = [
            "            .font(legibilityWeight == .bold ? Font.\(name)BoldText : Font.\(name))"
        ]
        if let tracking = style.tracking {
            body.append("            .tracking(\(number(tracking.points(atSize: style.size))))")
        } else if let kerning = style.kerning {
            body.append("            .kerning(\(number(kerning.points(atSize: style.size))))")
        }
        let unsupported = swiftUIFeatures(style.features).unsupported
        if !unsupported.isEmpty {
            body.append(
                "            // OpenType features \(unsupported.joined(separator: ", ")): SwiftUI's Font has no "
                    + "modifier for them (a UIFontDescriptor's featureSettings sets them)")
        }
        // SwiftUI adds lineSpacing to the font's own line height and takes no negative value:
        // a step below the natural height is noted rather than written.
        if spacing >= 0 {
            body.append("            .lineSpacing(\(number(spacing)))")
        } else {
            body.append(
                "            // line step \(number(step(theme, role, metrics))) pt is below the font's own "
                    + "\(number(natural)) pt: no lineSpacing")
        }
        switch style.textCase {
        case .uppercase?: body.append("            .textCase(.uppercase)")
        case .lowercase?: body.append("            .textCase(.lowercase)")
        case .capitalize?, .smallCaps?, nil: break
        }
        switch style.textDecoration {
        case .underline?: body.append("            .underline()")
        case .lineThrough?: body.append("            .strikethrough()")
        case nil: break
        }
        return [
            "",
            "/// \(role.displayName): font, letter spacing, line spacing\(style.textCase == nil ? "" : ", case")"
                + " and Bold Text.",
            "struct \(type): ViewModifier {",
            "    @Environment(\\.legibilityWeight) private var legibilityWeight",
            "",
            "    func body(content: Content) -> some View {",
            "        content",
        ] + body + [
            "    }", "}", "",
            "extension View {",
            "    /// Sets the view's text in the \(role.displayName) role.",
            "    func \(name)Style() -> some View { modifier(\(type)()) }",
            "}",
        ]
    }

    /// A style's OpenType features as SwiftUI `Font` modifiers — `tnum` as `.monospacedDigit()`,
    /// `smcp` as `.lowercaseSmallCaps()`, `c2sc` as `.uppercaseSmallCaps()` — and the features
    /// on (`ss01`, `liga=1`; not `-kern` or `x=0`, which turn one off) that have none.
    static func swiftUIFeatures(_ features: [String]) -> (modifiers: String, unsupported: [String]) {
        var modifiers = ""
        var unsupported: [String] = []
        for feature in features {
            let parts = feature.split(separator: "=", maxSplits: 1)
            let tag = String(parts.first ?? "")
            guard !tag.hasPrefix("-"), parts.count < 2 || parts[1] != "0" else { continue }
            switch tag.trimmingCharacters(in: CharacterSet(charactersIn: "+")) {
            case "tnum": modifiers += ".monospacedDigit()"
            case "smcp": modifiers += ".lowercaseSmallCaps()"
            case "c2sc": modifiers += ".uppercaseSmallCaps()"
            default: unsupported.append(feature)
            }
        }
        return (modifiers, unsupported)
    }

    /// CSS's generic family keywords (CSS Fonts Module Level 4, §2.1.1), written unquoted:
    /// quoted, `"sans-serif"` would name a font of that name.
    static let genericFamilies: Set<String> = [
        "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif",
        "ui-monospace", "ui-rounded", "math", "emoji", "fangsong",
    ]

    /// A family as a `font-family` value: a generic keyword as is, any other name quoted.
    static func cssFamily(_ family: String) -> String {
        genericFamilies.contains(family.lowercased()) ? family.lowercased() : cssString(family)
    }

    static func cssString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The CSS name of a role, its class and custom-property stem in the CSS export:
    /// `large-title`, `title2`, `sub-title`.
    public static func cssName(_ role: TextRole) -> String {
        role.rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" }
            name += character.lowercased()
        }
    }

    static func css(_ theme: Theme, metrics: [TextRole: RoleMetrics], source: String) -> String {
        var variables: [String] = []
        var classes: [String] = []
        for role in TextRole.allCases {
            let style = theme[role]
            let name = "--\(cssName(role))"
            let families = style.families.map(cssFamily).joined(separator: ", ")
            variables += [
                "  \(name)-font-family: \(families);",
                "  \(name)-font-size: \(number(style.size))px;",
                "  \(name)-font-weight: \(style.weight.rawValue);",
                "  \(name)-line-height: \(number(step(theme, role, metrics)))px;",
                "  \(name)-letter-spacing: \(number(style.letterSpacing))px;",
            ]
            var declarations = [
                "font-family: var(\(name)-font-family)", "font-size: var(\(name)-font-size)",
                "font-weight: var(\(name)-font-weight)", "line-height: var(\(name)-line-height)",
                "letter-spacing: var(\(name)-letter-spacing)",
                "font-style: \(style.italic ? "italic" : "normal")",
            ]
            if !style.features.isEmpty {
                let settings = style.features.map { feature -> String in
                    let parts = feature.split(separator: "=", maxSplits: 1)
                    let tag = String(parts[0]).trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
                    let value = parts.count == 2 ? String(parts[1]) : feature.hasPrefix("-") ? "0" : "1"
                    return "\(cssString(tag)) \(value == "on" ? "1" : value == "off" ? "0" : value)"
                }
                declarations.append("font-feature-settings: \(settings.joined(separator: ", "))")
            }
            switch style.textCase {
            case .smallCaps?: declarations.append("font-variant-caps: small-caps")
            case let textCase?: declarations.append("text-transform: \(textCase.rawValue)")
            case nil: break
            }
            if let decoration = style.textDecoration {
                declarations.append("text-decoration-line: \(decoration.rawValue)")
            }
            declarations.append("margin-block: 0 \(number(style.spaceAfter ?? theme.page.blockSpacing))px")
            classes.append(
                "/* \(role.displayName) */\n.\(cssName(role)) {\n"
                    + declarations.map { "  \($0);" }.joined(separator: "\n") + "\n}")
        }
        return "/* The type scale of the theme '\(theme.name)', from `typeset theme export \(source) --format css`.\n"
            + "   px = pt: a 17px size is the 17 pt of the PDF. line-height is the baseline-to-baseline step. */\n"
            + ":root {\n" + variables.joined(separator: "\n") + "\n}\n\n" + classes.joined(separator: "\n\n") + "\n"
    }
}
