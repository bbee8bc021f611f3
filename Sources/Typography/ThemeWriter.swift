import Foundation

/// Writes a ``Theme`` as a theme file (the schema ``ThemeLoader`` reads), every role spelled
/// out, so that `typeset theme import` produces a file a team can read, edit and check in.
public enum ThemeWriter {
    /// The theme as pretty-printed JSON text ending in a newline. Decoding the text with
    /// ``ThemeLoader/decode(_:file:codeStyles:mayReadFolder:)`` gives back an equal theme (font folders excepted, which
    /// are written as given).
    public static func json(for theme: Theme, comment: String? = nil) -> String {
        func string(_ text: String) -> String { OrderedJSON.quoted(text) }
        func number(_ value: Double) -> String {
            let fourDecimals = (value * 10_000).rounded() / 10_000
            if fourDecimals == fourDecimals.rounded() && abs(fourDecimals) < 1e9 { return String(Int(fourDecimals)) }
            var text = String(format: "%.4f", fourDecimals)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }
        func list(_ items: [String]) -> String { "[" + items.map(string).joined(separator: ", ") + "]" }
        func spacing(_ letterSpacing: LetterSpacing) -> String {
            switch letterSpacing {
            case .points(let pt): number(pt)
            case .percentOfSize(let percent): string(number(percent) + "%")
            }
        }
        var lines: [String] = ["{"]
        if let comment { lines.append("  \"$comment\": \(string(comment)),") }
        lines.append("  \"name\": \(string(theme.name)),")
        if !theme.notes.isEmpty { lines.append("  \"notes\": \(list(theme.notes)),") }
        let familyKeys = theme.families.keys.sorted()
        lines.append(
            "  \"families\": {"
                + familyKeys.map { "\(string($0)): \(list(theme.families[$0]!))" }.joined(separator: ", ") + "},")
        lines.append("  \"monospace\": \(list(theme.monospaceFamilies)),")
        lines.append("  \"roles\": {")
        let roles = TextRole.allCases.map { role -> String in
            let style = theme[role]
            var fields = [
                "\"family\": \(list(style.families))", "\"weight\": \(style.weight.rawValue)",
                "\"size\": \(number(style.size))",
            ]
            switch style.lineHeight {
            case .multiple(let multiple)?: fields.append("\"lineHeightMultiple\": \(number(multiple))")
            case .relativeToSize(let fraction)?:
                fields.append("\"lineHeight\": \(string(number(fraction * 100) + "%"))")
            case .absolute(let pt)?:
                // A number up to 5 would be read back as a multiple of the size: said in pt.
                let written = pt <= LineHeight.largestUnitlessFactor ? string(number(pt) + "pt") : number(pt)
                fields.append("\"lineHeight\": \(written)")
            case nil: fields.append("\"lineHeight\": \"normal\"")
            }
            // Explicit nulls: a theme file inherits what it leaves out.
            fields.append("\"tracking\": \(style.tracking.map(spacing) ?? "null")")
            fields.append("\"kerning\": \(style.kerning.map(spacing) ?? "null")")
            if style.italic { fields.append("\"italic\": true") }
            if !style.features.isEmpty { fields.append("\"features\": \(list(style.features))") }
            fields.append("\"relativeTo\": \(string(style.relativeTo?.rawValue ?? "fixed"))")
            if let textCase = style.textCase { fields.append("\"textCase\": \(string(textCase.name))") }
            if let decoration = style.textDecoration {
                fields.append("\"textDecoration\": \(string(decoration.rawValue))")
            }
            if let spaceAfter = style.spaceAfter { fields.append("\"spaceAfter\": \(number(spaceAfter))") }
            return "    \(string(role.rawValue)): { " + fields.joined(separator: ", ") + " }"
        }
        lines.append(roles.joined(separator: ",\n"))
        lines.append("  },")
        lines.append(
            "  \"colors\": {"
                + theme.colors.keys.sorted().map { "\(string($0)): \(string(theme.colors[$0]!.hex))" }.joined(
                    separator: ", ") + "},")
        lines.append("  \"code\": \(ThemeCodeSection.json(for: theme.code, string: string)),")
        let page = theme.page
        let margins = page.margins
        // A named paper keeps its name (`a4`); any other size is written in pt.
        let paperText = page.paper.name ?? "\(number(page.paper.width))pt x \(number(page.paper.height))pt"
        // A measure in characters is written as such, so the margins keep following the type.
        let width =
            page.measureCharacters.map { "\"measure\": \(number($0)), " }
            ?? "\"margins\": { \"top\": \(number(margins.top)), \"right\": \(number(margins.right)), \"bottom\": "
            + "\(number(margins.bottom)), \"left\": \(number(margins.left)) }, "
        lines.append(
            "  \"page\": { \"paper\": \(string(paperText)), " + width
                + "\"blockSpacing\": \(number(page.blockSpacing)) }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
