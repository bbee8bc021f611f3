import Foundation

/// What differs between two themes, in the words and units of a theme file: role by role (face,
/// size, line height with its step, letter spacing, Dynamic Type style, case, decoration, space
/// after), then the named family lists, code family, colours and page. For `typeset theme diff`.
public enum ThemeDiff {
    /// One line per difference, `Role: property first → second` (`Body: size 10.5 pt → 16 pt`),
    /// roles largest first, then `families`, `monospace`, `color NAME` and `page` lines; empty
    /// when the two themes set every role, colour and page alike. `firstMetrics` and
    /// `secondMetrics` give each role's natural line height, so a step is stated in pt whatever
    /// its rule (``ThemeExport/RoleMetrics``; without them 1.2 × the size).
    public static func lines(
        _ first: Theme, _ second: Theme, firstMetrics: [TextRole: ThemeExport.RoleMetrics] = [:],
        secondMetrics: [TextRole: ThemeExport.RoleMetrics] = [:]
    ) -> [String] {
        var result: [String] = []
        for role in TextRole.allCases {
            let pairs = properties(first, role, firstMetrics)
            let others = properties(second, role, secondMetrics)
            for (index, pair) in pairs.enumerated() where pair.value != others[index].value {
                result.append("\(role.displayName): \(pair.name) \(pair.value) → \(others[index].value)")
            }
        }
        for key in Set(first.families.keys).union(second.families.keys).sorted() {
            let old = first.families[key].map(list) ?? "none"
            let new = second.families[key].map(list) ?? "none"
            if old != new { result.append("families \(key): \(old) → \(new)") }
        }
        if first.monospaceFamilies != second.monospaceFamilies {
            result.append("monospace: \(list(first.monospaceFamilies)) → \(list(second.monospaceFamilies))")
        }
        for name in Set(first.colors.keys).union(second.colors.keys).sorted() {
            let old = first.colors[name]?.hex ?? "none"
            let new = second.colors[name]?.hex ?? "none"
            if old != new { result.append("color \(name): \(old) → \(new)") }
        }
        let pages = (page(first.page), page(second.page))
        for (index, pair) in pages.0.enumerated() where pair.value != pages.1[index].value {
            result.append("page \(pair.name): \(pair.value) → \(pages.1[index].value)")
        }
        return result
    }

    static func list(_ families: [String]) -> String { families.joined(separator: ", ") }

    static func number(_ value: Double) -> String { ThemeExport.number(value) }

    static func spacing(_ spacing: LetterSpacing?) -> String {
        switch spacing {
        case .points(let pt)?: "\(number(pt)) pt"
        case .percentOfSize(let percent)?: "\(number(percent))%"
        case nil: "none"
        }
    }

    /// A role's properties as (name, value as written) in a fixed order.
    static func properties(_ theme: Theme, _ role: TextRole, _ metrics: [TextRole: ThemeExport.RoleMetrics])
        -> [(name: String, value: String)]
    {
        let style = theme[role]
        let step = number(ThemeExport.step(theme, role, metrics))
        let lineHeight: String =
            switch style.lineHeight {
            case .multiple(let multiple)?: "\(number(multiple)) × natural (\(step) pt)"
            case .relativeToSize(let fraction)?: "\(number(fraction * 100))% of size (\(step) pt)"
            case .absolute(let pt)?: "\(number(pt)) pt"
            case nil: "natural (\(step) pt)"
            }
        return [
            ("families", list(style.families)), ("weight", String(style.weight.rawValue)),
            ("italic", style.italic ? "yes" : "no"), ("size", "\(number(style.size)) pt"),
            ("line height", lineHeight), ("tracking", spacing(style.tracking)), ("kerning", spacing(style.kerning)),
            ("features", style.features.isEmpty ? "none" : style.features.joined(separator: " ")),
            ("relativeTo", style.relativeTo?.rawValue ?? "fixed"), ("textCase", style.textCase?.rawValue ?? "none"),
            ("textDecoration", style.textDecoration?.rawValue ?? "none"),
            ("spaceAfter", style.spaceAfter.map { "\(number($0)) pt" } ?? "block spacing"),
        ]
    }

    /// The page's properties: paper (by name when it has one), the measure rule, block spacing.
    static func page(_ page: PageSetup) -> [(name: String, value: String)] {
        let paper = page.paper.name ?? "\(number(page.paper.width)) × \(number(page.paper.height)) pt"
        let margins = page.margins
        let width =
            page.measureCharacters.map { "\(number($0)) characters of Body" }
            ?? "margins \(number(margins.top)) \(number(margins.right)) \(number(margins.bottom)) "
            + "\(number(margins.left)) pt"
        return [("paper", paper), ("measure", width), ("blockSpacing", "\(number(page.blockSpacing)) pt")]
    }
}
