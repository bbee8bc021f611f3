import DocumentModel
import Foundation
import Typography

/// The typographic settings an attribute list (`{.headline kerning=-0.2 color=secondary}`) can
/// override, parsed and validated. nil fields inherit.
///
/// Keys are read in Swift's camelCase (`lineHeightMultiple`) and kebab-case
/// (`line-height-multiple`) alike. Semantics are documented on ``Styler`` and in docs/markdown.md.
struct StyleOverrides {
    var role: TextRole?
    var kerning: LetterSpacing?
    var tracking: LetterSpacing?
    var lineHeight: LineHeight?
    var size: Double?
    var weight: FontWeight?
    var families: [String]?
    var italic: Bool?
    var smallCaps: SmallCaps?
    /// A role's case (`textCase=uppercase`), or none (`textCase=none`: `.some(nil)`).
    var textCase: TextCase??
    /// A role's line (`textDecoration=underline`), or none (`textDecoration=none`: `.some(nil)`).
    var textDecoration: TextDecoration??
    var monospacedDigit = false
    var monospaced = false
    var features: [String] = []
    var leading: Double?
    var color: RGBAColor?
    var underline: RGBAColor??
    var strikethrough: RGBAColor??
    var baselineOffset: Double?
    var alignment: TextAlignment?
    var strokeColor: RGBAColor?
    var strokeWidth: Double?
    /// A highlight behind the runs (Pandoc's `.mark` class, or `background=` a colour).
    var background: RGBAColor?
    /// Draw typographic guides over the block's lines (specimens).
    var guides: Bool?
    /// `lang=de`: the text's language (Pandoc's attribute), for hyphenation.
    var language: String?
    /// `hyphenate=false`: turn hyphenation off (or on) for the span or div.
    var hyphenate: Bool?
    /// A div's text width in pt (`measure=300`): the right indent grows so lines are no wider.
    var measure: Double?
    /// Columns between tab stops in code (`tab-size=2`, CSS `tab-size`).
    var tabSize: Int?
    /// Where line-height keys were written (a span's are ignored, with a warning there).
    var lineHeightLocation: SourceLocation?
    /// Where `size` was written (``AttributeSizes`` warns there).
    var sizeLocation: SourceLocation?
    var alignmentLocation: SourceLocation?

    /// No overrides.
    init() {}

    /// Pandoc's span classes (Pandoc manual, "Extension: bracketed_spans"): `.smallcaps`
    /// (lowercase to small capitals, OpenType `smcp`, as CSS `font-variant: small-caps`),
    /// `.underline`, and `.mark` (highlighted: the theme colour `mark`, else #FFF2A8).
    static let pandocClasses: Set<String> = ["smallcaps", "underline", "mark"]

    /// Applies a Pandoc span class; false when `name` is none of ``pandocClasses``.
    mutating func applyPandocClass(_ name: String, theme: Theme) -> Bool {
        switch name.lowercased() {
        case "smallcaps": smallCaps = .lowercase
        case "underline": underline = .some(nil)
        case "mark": background = theme.color(named: "mark") ?? RGBAColor(hex: "#FFF2A8")
        default: return false
        }
        return true
    }

    /// The canonical key: lower-cased, separators removed (`line-height-multiple` and
    /// `lineHeightMultiple` both give `lineheightmultiple`).
    static func canonicalKey(_ key: String) -> String { TextRole.normalizedKey(key) }

    /// The keys an attribute list may set, as written in the documentation.
    static let knownKeys = [
        "kerning", "tracking", "letterSpacing", "lineHeightMultiple", "lineHeight", "size", "weight", "family",
        "italic", "bold", "smallCaps", "lowercaseSmallCaps", "uppercaseSmallCaps", "monospacedDigit", "monospaced",
        "features", "leading", "color", "background", "underline", "strikethrough", "baselineOffset", "align",
        "strokeColor", "strokeWidth", "guides", "measure", "lang", "hyphenate", "tabSize", "textCase",
        "textDecoration",
    ]

    /// The known key (``knownKeys``) one edit from `key`, compared case- and separator-
    /// insensitively; nil when none is, or `key` has fewer than four letters and digits.
    static func nearKey(_ key: String) -> String? {
        let written = canonicalKey(key)
        guard written.count >= 4 else { return nil }
        return knownKeys.first { EditDistance.withinOne(written, canonicalKey($0)) }
    }

    /// Parses `attributes` against `theme` (roles, colour and family names). Every problem is a
    /// warning at the pair's location; the offending pair is ignored.
    init(_ attributes: Attributes, theme: Theme, diagnostics: inout [Diagnostic]) {
        func warn(_ message: String, _ location: SourceLocation?) {
            diagnostics.append(Diagnostic(.warning, message, at: location ?? attributes.location, kind: .attribute))
        }
        for replaced in attributes.replacedIDs {
            warn(
                "id '#\(replaced.key)' is replaced by '#\(attributes.id ?? "")' later in the same attribute list "
                    + "(an element has one id); '#\(replaced.key)' is not used", replaced.location)
        }
        var firstRole: String?
        for name in attributes.classes {
            if let role = TextRole(name: name) {
                if let firstRole {
                    warn(
                        "role '.\(name)' replaces '.\(firstRole)' given earlier in the same attribute list "
                            + "(an element has one role)", attributes.location)
                } else {
                    firstRole = name
                }
                self.role = role
            } else if applyPandocClass(name, theme: theme) {
                continue
            } else if let near = RoleSuggestion.near(name) {
                // Any other class styles nothing and is silent, as in Pandoc.
                warn("unknown role '.\(name)'; did you mean '.\(near)'?", attributes.location)
            }
        }
        var firstPairs: [String: Attributes.Pair] = [:]
        for pair in attributes.pairs {
            let key = StyleOverrides.canonicalKey(pair.key)
            if let first = firstPairs[key] {
                let written = { (pair: Attributes.Pair) in pair.value.map { "\(pair.key)=\($0)" } ?? pair.key }
                warn(
                    "'\(pair.key)' is given again in the same attribute list (first '\(written(first))'); "
                        + "the later '\(written(pair))' is used", pair.location)
            } else {
                firstPairs[key] = pair
            }
            for (message, location) in apply(pair, key: key, theme: theme) { warn(message, location) }
        }
    }

    /// Applies the value of `pair` (whose canonical key is `key`) to these overrides. Returns
    /// its problems in the order found, each with where it is; the pair is then ignored.
    private mutating func apply(
        _ pair: Attributes.Pair, key: String,
        theme: Theme
    ) -> [(message: String, location: SourceLocation?)] {
        var parsed = AttributeValue(pair: pair, theme: theme)
        let value = pair.value
        let at = pair.location
        func warn(_ message: String, _ location: SourceLocation?) { parsed.warn(message, location) }
        func number(_ range: ClosedRange<Double>, unit: String = "pt") -> Double? { parsed.number(range, unit: unit) }
        func spacing() -> LetterSpacing? { parsed.spacing() }
        func flag() -> Bool? { parsed.flag() }
        func color(_ text: String?) -> RGBAColor? { parsed.color(text) }
        func decoration() -> RGBAColor?? { parsed.decoration() }
        switch key {
        case "kerning": kerning = spacing()
        case "tracking", "letterspacing": tracking = spacing()
        case "lineheightmultiple":
            if let factor = number(TypographicLimits.lineHeightFactor, unit: "× natural height") {
                lineHeight = .multiple(factor)
                lineHeightLocation = at
            }
        case "lineheight":
            if let value, value.hasSuffix("%"), let percent = Double(value.dropLast()), percent.isFinite {
                if let problem = TypographicLimits.problem(
                    "'\(pair.key)'", percent / 100, TypographicLimits.lineHeightFactor, unit: "× size")
                {
                    warn(problem, at)
                } else {
                    lineHeight = .relativeToSize(percent / 100)
                    lineHeightLocation = at
                }
            } else if let points = number(TypographicLimits.lineHeight) {
                lineHeight = .absolute(points)
                lineHeightLocation = at
            }
        case "size":
            if let points = number(TypographicLimits.size) {
                size = points
                sizeLocation = at
            }
        case "weight":
            if let value, let named = FontWeight(name: value) {
                weight = named
            } else {
                warn(
                    "'weight' is 100–900 or thin, extralight, light, regular, medium, semibold, bold, extrabold, "
                        + "black; not '\(value ?? "")'",
                    at)
            }
        case "family":
            if let value, !value.isEmpty {
                families =
                    theme.families[value] ?? value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } else {
                warn("'family' needs a family name", at)
            }
        case "italic": italic = flag()
        case "bold": if let isBold = flag() { weight = isBold ? .bold : .regular }
        case "smallcaps": if flag() == true { smallCaps = .all }
        case "lowercasesmallcaps": if flag() == true { smallCaps = .lowercase }
        case "uppercasesmallcaps": if flag() == true { smallCaps = .uppercase }
        case "monospaceddigit": monospacedDigit = flag() ?? false
        case "monospaced": monospaced = flag() ?? false
        case "features":
            if let value {
                let settings = value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                let bad = settings.filter { !ValueParsing.isFeatureSetting($0) }
                if !bad.isEmpty {
                    warn(
                        "'features' takes OpenType feature settings: a 4-character tag, +tag or -tag, or tag=value "
                            + "(\"ss01 tnum -liga\"); '\(bad.joined(separator: "', '"))' ignored",
                        at)
                }
                features += settings.filter { ValueParsing.isFeatureSetting($0) }
            } else {
                warn("'features' needs OpenType tags, e.g. features=\"ss01 tnum\"", at)
            }
        case "leading":
            switch value?.lowercased() {
            case "tight": leading = -2
            case "standard": leading = 0
            case "loose": leading = 2
            default: warn("'leading' is tight, standard or loose, not '\(value ?? "")'", at)
            }
        case "color", "colour": self.color = color(value)
        case "background": background = color(value)
        case "underline": underline = decoration()
        case "strikethrough": strikethrough = decoration()
        case "baselineoffset": baselineOffset = number(TypographicLimits.baselineOffset)
        case "align", "alignment":
            if let value, let requested = TextAlignment(rawValue: value.lowercased()) {
                alignment = requested
                alignmentLocation = at
            } else {
                warn("'align' is left, center, right or justify, not '\(value ?? "")'", at)
            }
        case "strokecolor": strokeColor = color(value)
        case "strokewidth": strokeWidth = number(TypographicLimits.strokeWidth)
        case "guides": guides = flag()
        case "measure":
            measure = number(1...10_000)
        case "lang":
            if let value, LanguageTag.isWellFormed(value) {
                language = value
            } else {
                warn("'lang': \(LanguageTag.problem(value ?? "")); ignored", at)
            }
        case "hyphenate", "hyphens": hyphenate = flag()
        case "tabsize":
            if let value, let columns = Int(value), (1...16).contains(columns) {
                tabSize = columns
            } else {
                warn("'\(pair.key)' is a whole number of columns from 1 to 16, not '\(value ?? "")'", at)
            }
        case "caption", "width", "style", "class": break  // accepted for other stages / Pandoc compatibility
        default: applyOtherKey(key, pair: pair, warn: warn)
        }
        return parsed.problems
    }

    /// Applies a key no case of ``apply(_:key:theme:)`` reads: `textCase` and `textDecoration`
    /// (``applyCaseOrLine(key:pair:warn:)``). Any other key is kept for other tools and
    /// silent, as Pandoc keeps it for its filters and writers (`dir`, `custom-style`, `data-*`,
    /// `target`); one edit from a key Typeset reads, it is taken for a slip of the pen.
    private mutating func applyOtherKey(
        _ key: String, pair: Attributes.Pair, warn: (String, SourceLocation?) -> Void
    ) {
        if !applyCaseOrLine(key: key, pair: pair, warn: warn), let near = Self.nearKey(key) {
            warn("unknown attribute '\(pair.key)'; did you mean '\(near)'?", pair.location)
        }
    }

    /// Applies `textCase=` or `textDecoration=` (`none` turns the role's own off); false when
    /// `key` is neither. A value that is no case or line is warned about and ignored.
    private mutating func applyCaseOrLine(
        key: String, pair: Attributes.Pair, warn: (String, SourceLocation?) -> Void
    ) -> Bool {
        let value = pair.value
        let at = pair.location
        switch key {
        case "textcase":
            if value?.lowercased() == "none" {
                textCase = .some(nil)
            } else if let value, let named = TextCase(name: value) {
                textCase = named
            } else {
                warn("'\(pair.key)' is uppercase, lowercase, capitalize, small-caps or none, not '\(value ?? "")'", at)
            }
        case "textdecoration":
            if value?.lowercased() == "none" {
                textDecoration = .some(nil)
            } else if let value, let named = TextDecoration(name: value) {
                textDecoration = named
            } else {
                warn("'\(pair.key)' is underline, line-through or none, not '\(value ?? "")'", at)
            }
        default:
            return false
        }
        return true
    }
}

/// One attribute's value read as a number, letter spacing, flag or colour, with the problems
/// found (each the pair is ignored for).
private struct AttributeValue {
    let pair: Attributes.Pair
    let theme: Theme
    /// Problems in the order found, each at the pair's location.
    var problems: [(message: String, location: SourceLocation?)] = []

    init(pair: Attributes.Pair, theme: Theme) {
        self.pair = pair
        self.theme = theme
    }

    mutating func warn(_ message: String, _ location: SourceLocation?) {
        problems.append((message, location))
    }

    private var value: String? { pair.value }
    private var at: SourceLocation? { pair.location }

    /// A number in pt within `range` (TypographicLimits), or nil with a warning.
    mutating func number(_ range: ClosedRange<Double>, unit: String = "pt") -> Double? {
        guard let value, let points = AttributeLength.points(value, unit: unit), points.isFinite else {
            warn("'\(pair.key)' needs a number\(unit == "pt" ? " in pt" : ""), not '\(value ?? "")'", at)
            return nil
        }
        if let problem = TypographicLimits.problem("'\(pair.key)'", points, range, unit: unit) {
            warn(problem, at)
            return nil
        }
        return points
    }
    mutating func spacing() -> LetterSpacing? {
        guard let value else {
            warn("'\(pair.key)' needs a value in pt or %", at)
            return nil
        }
        if value.hasSuffix("%"), let percent = Double(value.dropLast()), percent.isFinite {
            if let problem = TypographicLimits.problem(
                "'\(pair.key)'", percent, TypographicLimits.letterSpacingPercent, unit: "%")
            {
                warn(problem, at)
                return nil
            }
            return .percentOfSize(percent)
        }
        if AttributeLength.points(value, unit: "pt") != nil {
            return number(TypographicLimits.letterSpacing).map { .points($0) }
        }
        warn("'\(pair.key)' needs a value in pt or % of the size, not '\(value)'", at)
        return nil
    }
    mutating func flag() -> Bool? {
        guard let value else { return true }
        switch value.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default:
            warn("'\(pair.key)' is true or false, not '\(value)'", at)
            return nil
        }
    }
    mutating func color(_ text: String?) -> RGBAColor? {
        guard let text else {
            warn("'\(pair.key)' needs a colour", at)
            return nil
        }
        if let found = RGBAColor(hex: text) ?? theme.color(named: text) ?? CSSColors.color(named: text) {
            return found
        }
        warn(
            "'\(pair.key)': '\(text)' is not a colour (#RGB, #RRGGBB, #RRGGBBAA, a CSS colour name or one of: "
                + "\(theme.colors.keys.sorted().joined(separator: ", ")))",
            at)
        return nil
    }
    mutating func decoration() -> RGBAColor?? {
        guard let value else { return .some(nil) }  // inherit the text colour
        if let on = ["true", "yes", "on", "1"].contains(value.lowercased())
            ? true : (["false", "no", "off", "0", "none"].contains(value.lowercased()) ? false : nil)
        {
            return on ? .some(nil) : .none
        }
        return color(value).map { .some($0) } ?? .none
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
