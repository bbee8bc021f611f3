import Foundation

extension TokenReader {
    /// A typography token's `$extensions.typeset` (``ThemeExport/extensionKey``), as Typeset's
    /// own DTCG and Tokens Studio exports write it: the role values a token format cannot state,
    /// in the theme file's words (`lineHeightMultiple`, `lineHeight`, `tracking`, `kerning`,
    /// `italic`, `features`, `relativeTo`, `textCase`, `textDecoration`, `paragraphSpacing`),
    /// over what the standard fields gave, so that an exported theme imports back the same.
    /// A value it cannot use is refused, as the same value in a theme file is.
    mutating func applyTypesetExtension(of token: DesignToken, to style: inout TextStyle) {
        guard let node = token.extensions?[ThemeExport.extensionKey], let members = node.members else { return }
        let name = token.name
        var fields: [String: JSONNode] = [:]
        for member in members { fields[member.key] = member.value }
        if let multiple = fields["lineHeightMultiple"] {
            if let value = multiple.number, value > 0 {
                style.lineHeight = .multiple(value)
            } else {
                refuse(multiple.position, "token '\(name)': lineHeightMultiple must be a positive number")
            }
        }
        if let lineHeight = fields["lineHeight"] {
            if let pt = lineHeight.number, pt > 0 {
                style.lineHeight = .absolute(pt)
            } else if lineHeight.string?.lowercased() == "normal" {
                style.lineHeight = nil
            } else if let text = lineHeight.string, let (amount, unit) = ValueParsing.splitUnit(text), unit == "%",
                amount > 0
            {
                style.lineHeight = .relativeToSize(amount / 100)
            } else {
                refuse(lineHeight.position, "token '\(name)': lineHeight must be pt, a percentage or \"normal\"")
            }
        }
        if fields["tracking"] != nil || fields["kerning"] != nil {
            style.tracking = spacing(fields["tracking"], name: name, key: "tracking")
            style.kerning = spacing(fields["kerning"], name: name, key: "kerning")
        }
        if let italic = fields["italic"]?.bool { style.italic = italic }
        if let families = fields["families"] {
            if let items = families.array, !items.isEmpty, items.allSatisfy({ !($0.string ?? "").isEmpty }) {
                // The fallbacks of the family the token names: a family changed in the design
                // tool since the export keeps the base role's fallbacks instead.
                let list = items.compactMap(\.string)
                if list.first == style.families.first { style.families = list }
            } else {
                refuse(families.position, "token '\(name)': families must be an array of family names")
            }
        }
        if let features = fields["features"] {
            if let items = features.array, items.allSatisfy({ $0.string != nil }) {
                style.features = items.compactMap(\.string)
            } else {
                refuse(features.position, "token '\(name)': features must be an array of strings")
            }
        }
        if let relativeTo = fields["relativeTo"] {
            if relativeTo.string?.lowercased() == "fixed" {
                style.relativeTo = nil
            } else if let text = relativeTo.string, let textStyle = DynamicTypeStyle(name: text) {
                style.relativeTo = textStyle
            } else {
                refuse(relativeTo.position, "token '\(name)': relativeTo must be a Dynamic Type style or \"fixed\"")
            }
        }
        readCaseAndSpacing(fields, name: name, into: &style)
        for problem in style.limitProblems {
            errors.append(ThemeProblem(file: file, at: node.position, "token '\(name)': \(problem)"))
        }
    }

    /// Letter spacing from an extension field (pt or `"1.2%"`); nil when absent or null.
    mutating func spacing(_ node: JSONNode?, name: String, key: String) -> LetterSpacing? {
        guard let node, !node.isNull else { return nil }
        guard let spacing = ValueParsing.letterSpacing(node) else {
            refuse(node.position, "token '\(name)': \(key) must be pt or a percentage (\"1.2%\")")
            return nil
        }
        return spacing
    }
}
