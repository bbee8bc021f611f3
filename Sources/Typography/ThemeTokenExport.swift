import Foundation

/// A JSON value whose objects keep their members in the order written, for exports a person
/// reads (roles largest first, `$type` before `$value`).
package enum OrderedJSON {
    case object([(String, OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    case number(Double)
    case bool(Bool)

    /// The value as indented JSON text; arrays of scalars stay on one line.
    func text(indent: String = "") -> String {
        switch self {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = members.map { inner + OrderedJSON.quoted($0.0) + ": " + $0.1.text(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            let scalar = items.allSatisfy {
                if case .object = $0 { return false }
                if case .array = $0 { return false }
                return true
            }
            if scalar { return "[" + items.map { $0.text() }.joined(separator: ", ") + "]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.text(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .string(let text): return OrderedJSON.quoted(text)
        case .number(let value): return ThemeExport.number(value)
        case .bool(let value): return value ? "true" : "false"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (also a YAML
    /// double-quoted scalar, YAML 1.2 §7.3.1, which reads these escapes alike).
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The design-token and Android exports: W3C Design Tokens (DTCG), Tokens Studio and Jetpack
/// Compose.
///
/// Sources: Design Tokens Format Module 2025.10 (`$type`, `$value`, composite `typography`
/// with `fontFamily`, `fontSize`, `fontWeight`, `letterSpacing`, `lineHeight` as a multiplier of
/// the font size; `dimension` objects `{"value", "unit"}`; `color` objects; `$extensions` for
/// what the format cannot state); Tokens Studio for Figma token JSON (`value`, `type`,
/// `typography` with `textCase`, `textDecoration`, `paragraphSpacing`, `%` letter spacing and
/// line heights); Jetpack Compose `androidx.compose.ui.text.TextStyle` (`fontSize`,
/// `lineHeight` in `sp`, `letterSpacing` in `sp` or `em`, `fontFeatureSettings`, `LineHeightStyle`).
extension ThemeExport {
    /// The `$extensions` key under which a token carries the Typeset role values the token
    /// format cannot state (a line height that multiplies the face's natural height, tracking
    /// against kerning, the Dynamic Type style, features), read back by ``TokenImporter``.
    public static let extensionKey = "typeset"

    static func dimension(_ value: Double) -> OrderedJSON {
        .object([("value", .number(value)), ("unit", .string("px"))])
    }

    static func spacingValue(_ spacing: LetterSpacing) -> OrderedJSON {
        switch spacing {
        case .points(let pt): .number(pt)
        case .percentOfSize(let percent): .string(number(percent) + "%")
        }
    }

    /// The role's values in the theme file's words (``ThemeWriter``) that a token's standard
    /// fields lose: line height rule, tracking and kerning apart, italic, features, the Dynamic
    /// Type style; with `caseAndSpacing`, also text case, decoration and space after.
    static func typesetExtension(_ style: TextStyle, caseAndSpacing: Bool) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = []
        switch style.lineHeight {
        case .multiple(let multiple)?: members.append(("lineHeightMultiple", .number(multiple)))
        case .relativeToSize(let fraction)?: members.append(("lineHeight", .string(number(fraction * 100) + "%")))
        case .absolute(let pt)?: members.append(("lineHeight", .number(pt)))
        case nil: members.append(("lineHeight", .string("normal")))
        }
        if let tracking = style.tracking { members.append(("tracking", spacingValue(tracking))) }
        if let kerning = style.kerning { members.append(("kerning", spacingValue(kerning))) }
        if style.italic { members.append(("italic", .bool(true))) }
        if !style.features.isEmpty { members.append(("features", .array(style.features.map { .string($0) }))) }
        if style.families.count > 1 { members.append(("families", .array(style.families.map { .string($0) }))) }
        members.append(("relativeTo", .string(style.relativeTo?.rawValue ?? "fixed")))
        if caseAndSpacing {
            if let textCase = style.textCase { members.append(("textCase", .string(textCase.rawValue))) }
            if let decoration = style.textDecoration {
                members.append(("textDecoration", .string(decoration.rawValue)))
            }
            if let spaceAfter = style.spaceAfter { members.append(("paragraphSpacing", dimension(spaceAfter))) }
        }
        return .object([(extensionKey, .object(members))])
    }

    /// The colour as a DTCG 2025.10 colour object: sRGB components, alpha and hex.
    static func dtcgColor(_ color: RGBAColor) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("colorSpace", .string("srgb")),
            ("components", .array([color.red, color.green, color.blue].map { .number($0) })),
        ]
        if color.alpha < 1 { members.append(("alpha", .number(color.alpha))) }
        members.append(("hex", .string(String(color.hex.prefix(7)))))
        return .object(members)
    }

    /// DTCG: a `typography` group with one composite token per role (named as the role,
    /// `largeTitle`), a `font.family` group with the theme's named family lists the roles refer
    /// to (by alias, `{font.family.sans}`) and the family code is set in (`mono`), and a
    /// `color` group with its colours.
    static func dtcg(_ theme: Theme, metrics: [TextRole: RoleMetrics], source: String) -> String {
        var roles: [(String, OrderedJSON)] = []
        // A role whose families are one of the theme's named lists refers to it by alias.
        let named = theme.families.keys.sorted()
        var referenced: [String] = []
        for role in TextRole.allCases {
            let style = theme[role]
            var family = OrderedJSON.array(style.families.map { .string($0) })
            if let key = named.first(where: { theme.families[$0] == style.families }) {
                family = .string("{font.family.\(key)}")
                if !referenced.contains(key) { referenced.append(key) }
            }
            let value: [(String, OrderedJSON)] = [
                ("fontFamily", family),
                ("fontSize", dimension(style.size)),
                ("fontWeight", .number(Double(style.weight.rawValue))),
                ("letterSpacing", dimension(style.letterSpacing)),
                ("lineHeight", .number(step(theme, role, metrics) / style.size)),
            ]
            roles.append(
                (
                    tokenName(role),
                    .object([
                        ("$type", .string("typography")), ("$description", .string(role.displayName)),
                        ("$value", .object(value)),
                        ("$extensions", typesetExtension(style, caseAndSpacing: true)),
                    ])
                ))
        }
        var families = referenced.sorted().map { key in
            (key, OrderedJSON.object([("$value", .array(theme.families[key]!.map { .string($0) }))]))
        }
        // The family code is set in, under a name the importer reads back as it.
        families.append(("mono", .object([("$value", .array(theme.monospaceFamilies.map { .string($0) }))])))
        let colors = theme.colors.keys.sorted().map { key in
            (key, OrderedJSON.object([("$value", dtcgColor(theme.colors[key]!))]))
        }
        let root = OrderedJSON.object([
            (
                "$description",
                .string(
                    "The type scale of the theme '\(theme.name)', from `typeset theme export \(source) --format dtcg` "
                        + "(Design Tokens Format Module 2025.10). px = pt; lineHeight multiplies fontSize.")
            ),
            ("typography", .object(roles)),
            ("font", .object([("family", .object([("$type", .string("fontFamily"))] + families))])),
            ("color", .object([("$type", .string("color"))] + colors)),
        ])
        return root.text() + "\n"
    }

    /// A role's token name: its theme-file name with a lower-case first letter (`largeTitle`).
    static func tokenName(_ role: TextRole) -> String {
        role.rawValue.prefix(1).lowercased() + role.rawValue.dropFirst()
    }

    /// Tokens Studio: one set, `typeset`, with a `typography` token per role (values as the
    /// plugin writes them: `fontFamily` one family (the role's first; its fallbacks in the
    /// extension), `fontWeight` a number string (an italic's a style name,
    /// ``tokensStudioWeight(_:italic:)``), sizes in px, `lineHeight` a percentage of the size
    /// (px when the role's is fixed), `letterSpacing` in px or %, `textCase`,
    /// `textDecoration`, `paragraphSpacing`), the family code is set in (`fontFamilies.mono`), its
    /// colours, and `$themes`/`$metadata`.
    static func tokensStudio(_ theme: Theme, metrics: [TextRole: RoleMetrics], source: String) -> String {
        var roles: [(String, OrderedJSON)] = []
        for role in TextRole.allCases {
            let style = theme[role]
            let percent = step(theme, role, metrics) / style.size * 100
            let spacing: String =
                switch style.tracking ?? style.kerning {
                case .percentOfSize(let value)?: number(value) + "%"
                default: number(style.letterSpacing)
                }
            // One family, as the plugin applies a style in Figma; the fallbacks ride in the
            // extension (``typesetExtension(_:caseAndSpacing:)``). A fixed line height in px.
            let lineHeight =
                if case .absolute(let pt)? = style.lineHeight { number(pt) } else { number(percent) + "%" }
            var value: [(String, OrderedJSON)] = [
                ("fontFamily", .string(style.families.first ?? "")),
                ("fontWeight", .string(tokensStudioWeight(style.weight, italic: style.italic))),
                ("fontSize", .string(number(style.size))),
                ("lineHeight", .string(lineHeight)),
                ("letterSpacing", .string(spacing)),
                ("paragraphSpacing", .string(number(style.spaceAfter ?? 0))),
                ("textCase", .string(style.textCase.map(tokensStudioCase) ?? "none")),
                ("textDecoration", .string(style.textDecoration?.rawValue ?? "none")),
            ]
            if style.italic { value.append(("fontStyle", .string("italic"))) }
            roles.append(
                (
                    tokenName(role),
                    .object([
                        ("value", .object(value)), ("type", .string("typography")),
                        ("description", .string(role.displayName)),
                        ("$extensions", typesetExtension(style, caseAndSpacing: false)),
                    ])
                ))
        }
        let colors = theme.colors.keys.sorted().map { key in
            (key, OrderedJSON.object([("value", .string(theme.colors[key]!.hex)), ("type", .string("color"))]))
        }
        let code = OrderedJSON.object([
            ("value", .string(theme.monospaceFamilies.joined(separator: ", "))), ("type", .string("fontFamilies")),
        ])
        let set = OrderedJSON.object([
            ("typography", .object(roles)), ("fontFamilies", .object([("mono", code)])), ("color", .object(colors)),
        ])
        let root = OrderedJSON.object([
            ("typeset", set),
            (
                "$themes",
                .array([
                    .object([
                        ("id", .string(theme.name)), ("name", .string(theme.name)),
                        ("selectedTokenSets", .object([("typeset", .string("enabled"))])),
                    ])
                ])
            ),
            ("$metadata", .object([("tokenSetOrder", .array([.string("typeset")]))])),
        ])
        return root.text() + "\n"
    }

    /// Tokens Studio's word for a case: `small-caps` for small capitals, else the CSS one.
    /// A weight as the plugin writes it: a number string (`"600"`), which it turns into the
    /// face's style name, or for an italic the style name Figma gives the face (`"Semi Bold
    /// Italic"`, `"Italic"` at 400), since a number with `Italic` after it names no style.
    static func tokensStudioWeight(_ weight: FontWeight, italic: Bool) -> String {
        guard italic else { return String(weight.rawValue) }
        let names = [
            "Thin", "Extra Light", "Light", "", "Medium", "Semi Bold", "Bold", "Extra Bold", "Black",
        ]
        let index = max(0, min(names.count - 1, (weight.rawValue + 50) / 100 - 1))
        return names[index].isEmpty ? "Italic" : names[index] + " Italic"
    }

    static func tokensStudioCase(_ textCase: TextCase) -> String {
        textCase == .smallCaps ? "small-caps" : textCase.rawValue
    }
}
