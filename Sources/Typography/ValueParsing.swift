import Foundation

/// Readers for the unit-bearing values of theme and token files, shared by ``ThemeLoader`` and
/// ``TokenImporter``. px = pt (design tools' px are the numbers apps use as pt, so a token of 17 px sets 17 pt);
/// rem = 16 pt (DTCG 2025.10: "usually 16 px").
public enum ValueParsing {
    /// pt per rem (DTCG: the default font size, usually 16 px).
    static let remInPoints = 16.0

    /// A number with an optional unit suffix, the unit lower-cased ("" when none).
    static func splitUnit(_ text: String) -> (Double, String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var end = trimmed.endIndex
        while end > trimmed.startIndex, let scalar = trimmed[trimmed.index(before: end)].unicodeScalars.first,
            CharacterSet.letters.contains(scalar) || scalar == "%"
        {
            end = trimmed.index(before: end)
        }
        guard let number = Double(trimmed[..<end].trimmingCharacters(in: .whitespaces)), number.isFinite else {
            return nil
        }
        return (number, String(trimmed[end...]))
    }

    /// A length in pt from `17`, `"17pt"`, `"17px"`, `"1.5rem"`, `"6mm"`, `"0.5cm"`, `"1in"`, or a
    /// DTCG 2025.10 dimension object `{"value": 16, "unit": "px"}`. nil otherwise.
    static func points(_ node: JSONNode, allowRem: Bool = true) -> Double? {
        if let number = node.number { return number.isFinite ? number : nil }
        if let text = node.string { return points(text, allowRem: allowRem) }
        if let members = node.members, let value = node["value"]?.number, let unit = node["unit"]?.string,
            members.count == 2
        {
            return points("\(value)\(unit)", allowRem: allowRem)
        }
        return nil
    }

    static func points(_ text: String, allowRem: Bool = true) -> Double? {
        guard let (number, unit) = splitUnit(text) else { return nil }
        switch unit {
        case "", "pt", "px": return number
        case "rem" where allowRem: return number * remInPoints
        case "mm": return number * 72 / 25.4
        case "cm": return number * 72 / 2.54
        case "in": return number * 72
        default: return nil
        }
    }

    /// Letter spacing: a number or `"0.5pt"`/`"0.5px"`/`"0.05rem"` → points; `"-2%"` → % of size;
    /// `"-0.02em"` → % of size (−2). nil otherwise.
    static func letterSpacing(_ node: JSONNode) -> LetterSpacing? {
        if let number = node.number { return .points(number) }
        if let members = node.members, members.count == 2, let value = node["value"]?.number,
            let unit = node["unit"]?.string
        {
            return letterSpacing("\(value)\(unit)")
        }
        guard let text = node.string else { return nil }
        return letterSpacing(text)
    }

    static func letterSpacing(_ text: String) -> LetterSpacing? {
        guard let (number, unit) = splitUnit(text) else { return nil }
        switch unit {
        case "%": return .percentOfSize(number)
        case "em": return .percentOfSize(number * 100)
        default: return points(text).map { .points($0) }
        }
    }

    /// Whether `setting` is one OpenType feature setting as HarfBuzz's `hb_feature_from_string`
    /// and CSS `font-feature-settings` write it: a 4-character tag of printable ASCII (OpenType
    /// spec, "Tag" data type), optionally preceded by `+` or `-` or followed by `=` and a
    /// whole number, `on` or `off` (`tnum`, `-liga`, `ss01=1`, `cv01=3`).
    public static func isFeatureSetting(_ setting: some StringProtocol) -> Bool {
        var rest = Substring(setting)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        var value: Substring?
        if let eq = rest.firstIndex(of: "=") {
            value = rest[rest.index(after: eq)...]
            rest = rest[..<eq]
            if setting.first == "+" || setting.first == "-" { return false }
        }
        guard rest.unicodeScalars.count == 4, rest.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else { return false }
        guard let value else { return true }
        return ["on", "off"].contains(value.lowercased())
            || (!value.isEmpty && value.allSatisfy(\.isASCII) && UInt32(value) != nil)
    }

    /// Feature list from an array of strings or one string split at spaces and commas.
    static func features(_ node: JSONNode) -> [String]? {
        if let text = node.string {
            return text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        }
        guard let items = node.array else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }
}
