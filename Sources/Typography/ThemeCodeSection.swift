import Foundation

/// A theme file's `code` section: the colours of highlighted code.
///
/// ```json
/// "code": {
///   "style": "dark",
///   "background": "#1E2127",
///   "text": "#D7DAE0",
///   "tokens": {"keyword": {"color": "#E06C75", "bold": true}, "comment": "#8B93A1"}
/// }
/// ```
///
/// `style` picks a built-in ``CodeStyle`` to start from (`light`, `dark`); `background` and
/// `text` are colours; each of `tokens` is a ``CodeToken`` name with a colour, or an object of
/// `color` and optionally `bold`, `italic` and `background` (a rectangle behind the token);
/// `highlight: false` sets all code plain. Every problem is reported at its `file:line:column`.
/// Then every token colour, and the plain text colour, is checked for WCAG 2.1 AA contrast (at
/// least 4.5:1, § 1.4.3) against what it is drawn on, the token's own background or else the
/// panel's: a style below it is a warning at the colour that sets it. A token entry with a wrong
/// `bold`, `italic` or unknown key keeps its other fields, so its colour is still checked in the
/// same run; one whose colour or background is wrong is left out, as what it is drawn in or on
/// is not known.
struct ThemeCodeSection {
    let file: String
    /// The styles `style` may name, by lowercased name (built-in and, when the caller passes
    /// them, the highlighting library's).
    var styles: [String: CodeStyle] = CodeStyle.builtIn
    var problems: [ThemeProblem] = []
    /// Where each token's style, the background and the text colour were written.
    var tokenPositions: [CodeToken: SourcePosition] = [:]
    var backgroundPosition: SourcePosition?
    var textPosition: SourcePosition?
    /// Set when `background` is written but is no colour: what code is drawn on is unknown, so
    /// no contrast is judged (against the colour it would fall back to, which was not asked for).
    var backgroundIsWrong = false
    /// Where `style` named the style the section starts from: a colour of that style that
    /// fails the contrast check is reported there, with the style's name.
    var stylePosition: SourcePosition?

    static let keys = ["style", "background", "text", "tokens", "highlight"]
    static let tokenKeys = ["color", "bold", "italic", "background"]

    /// The least contrast ratio of code against its background (WCAG 2.1 AA for body text).
    static let minimumContrast = 4.5

    /// The section as a JSON object, a token style a line, indented for a theme file's top
    /// level, that reads back equal to `code`, its token styles
    /// spelled out (the built-in ``CodeStyle/light`` too, which a theme file inherits by
    /// leaving the section out), so that a theme written to be edited shows every colour code
    /// takes. A style from the highlighting library (a name no built-in style has) is written
    /// with no `style`, so that a reader without the library does not fail on its name, and
    /// every token kind spelled out, those it leaves plain in its text colour, so that the file
    /// reads back to the same colours wherever it is read; a `$description` names the style.
    static func json(for code: CodeStyle, string: (String) -> String) -> String {
        var code = code
        var fields = ["\"style\": \(string(code.name))"]
        if CodeStyle.builtIn[code.name] == nil {
            let plain = CodeTokenStyle(color: code.text ?? .black)
            for token in CodeToken.allCases where code.tokens[token] == nil {
                code.tokens[token] = code.style(for: token) ?? plain
            }
            let description = "the highlighting library's style '\(code.name)', every colour spelled out"
            fields = ["\"$description\": \(string(description))"]
        }
        if let background = code.background { fields.append("\"background\": \(string(background.hex))") }
        if let text = code.text { fields.append("\"text\": \(string(text.hex))") }
        if !code.highlights { fields.append("\"highlight\": false") }
        let tokens = CodeToken.allCases.compactMap { token -> String? in
            guard let style = code.tokens[token] else { return nil }
            let background = style.background.map { ", \"background\": \(string($0.hex))" } ?? ""
            return "      \(string(token.rawValue)): { \"color\": \(string(style.color.hex)), \"bold\": \(style.bold), "
                + "\"italic\": \(style.italic)\(background) }"
        }
        return "{\n    " + fields.joined(separator: ", ") + ",\n    \"tokens\": {\n" + tokens.joined(separator: ",\n")
            + "\n    }\n  }"
    }

    mutating func error(_ position: SourcePosition, _ message: String) {
        problems.append(ThemeProblem(file: file, at: position, message))
    }

    /// Reads `node` over `base`; problems are collected in ``problems``.
    mutating func decode(_ node: JSONNode, base: CodeStyle) -> CodeStyle {
        guard let members = node.members else {
            error(node.position, "code must be an object (style, background, text, tokens), not \(node.typeName)")
            return base
        }
        var code = base
        for member in members where !member.key.hasPrefix("$") && member.key == "style" {
            guard let name = member.value.string else {
                error(member.value.position, "code.style must be a string, not \(member.value.typeName)")
                continue
            }
            if let named = styles[name.lowercased()] {
                code = named
                stylePosition = member.value.position
            } else {
                let names = styles.keys.sorted()
                // Only the built-in styles: the library that holds the others was not found.
                let missing =
                    names == ["dark", "light"]
                    ? " (the highlighting library, libTypesetSyntaxHighlighting.so, which holds the others, "
                        + "is not installed beside typeset)" : ""
                error(
                    member.value.position,
                    "unknown code style '\(name)'\(suggestion(for: name, among: names)); code styles are "
                        + names.joined(separator: ", ") + missing)
            }
        }
        for member in members where !member.key.hasPrefix("$") {
            switch member.key {
            case "style": break
            case "background":
                if let color = color(member.value, "code.background") {
                    code.background = color
                    backgroundPosition = member.value.position
                } else {
                    backgroundIsWrong = true
                }
            case "text":
                if let color = color(member.value, "code.text") {
                    code.text = color
                    textPosition = member.value.position
                }
            case "highlight":
                if let flag = member.value.bool {
                    code.highlights = flag
                } else {
                    error(member.value.position, "code.highlight must be true or false, not \(member.value.typeName)")
                }
            case "tokens": decodeTokens(member.value, into: &code)
            default:
                error(
                    member.keyPosition,
                    "unknown key '\(member.key)' in code\(suggestion(for: member.key, among: Self.keys)); expected "
                        + "one of: \(Self.keys.joined(separator: ", "))")
            }
        }
        return code
    }

    mutating func decodeTokens(_ node: JSONNode, into code: inout CodeStyle) {
        guard let members = node.members else {
            error(node.position, "code.tokens must be an object of token name → style, not \(node.typeName)")
            return
        }
        let names = CodeToken.allCases.map(\.rawValue)
        var inheritingColor: [CodeToken] = []
        for member in members where !member.key.hasPrefix("$") {
            guard let token = CodeToken(rawValue: member.key) else {
                error(
                    member.keyPosition,
                    "unknown code token '\(member.key)'\(suggestion(for: member.key, among: names)); tokens are "
                        + names.joined(separator: ", "))
                continue
            }
            let what = "code.tokens.\(member.key)"
            if member.value.string != nil {
                guard let color = color(member.value, what) else { continue }
                code.tokens[token] = CodeTokenStyle(color: color)
                tokenPositions[token] = member.value.position
                continue
            }
            guard let fields = member.value.members else {
                error(
                    member.value.position,
                    "\(what) must be a colour (\"#RRGGBB\") or an object of color, bold, italic and background, not "
                        + member.value.typeName)
                continue
            }
            var style = code.tokens[token] ?? CodeTokenStyle(color: code.text ?? .black)
            var valid = true
            var colorPosition = member.value.position
            for field in fields where !field.key.hasPrefix("$") {
                switch field.key {
                case "color":
                    if let color = color(field.value, "\(what).color") {
                        style.color = color
                        colorPosition = field.value.position
                    } else {
                        valid = false
                    }
                case "background":
                    if let color = color(field.value, "\(what).background") {
                        style.background = color
                    } else {
                        valid = false
                    }
                case "bold", "italic":
                    guard let flag = field.value.bool else {
                        error(
                            field.value.position,
                            "\(what).\(field.key) must be true or false, not \(field.value.typeName)")
                        continue
                    }
                    if field.key == "bold" { style.bold = flag } else { style.italic = flag }
                default:
                    error(
                        field.keyPosition,
                        "unknown key '\(field.key)' in \(what)\(suggestion(for: field.key, among: Self.tokenKeys)); "
                            + "expected one of: \(Self.tokenKeys.joined(separator: ", "))")
                }
            }
            if valid {
                if !fields.contains(where: { $0.key == "color" }), code.tokens[token] == nil {
                    inheritingColor.append(token)
                }
                code.tokens[token] = style
                tokenPositions[token] = colorPosition
            }
        }
        // An entry without a colour (`"controlFlow": {"bold": true}`) keeps the colour the kind
        // would take without it: its broader kind's (``CodeToken/fallback``), read once every
        // entry is, else the plain text's.
        for token in inheritingColor {
            var broader = token.fallback
            while let kind = broader, code.tokens[kind] == nil || inheritingColor.contains(kind) {
                broader = kind.fallback
            }
            let color = broader.flatMap { code.tokens[$0]?.color } ?? code.text ?? .black
            code.tokens[token]?.color = color
        }
    }

    mutating func color(_ node: JSONNode, _ what: String) -> RGBAColor? {
        guard let hex = node.string else {
            error(node.position, "\(what) must be a colour string (\"#RRGGBB\"), not \(node.typeName)")
            return nil
        }
        guard let color = RGBAColor(hex: hex) else {
            error(node.position, "\(what): invalid colour '\(hex)'; expected #RGB, #RRGGBB or #RRGGBBAA")
            return nil
        }
        return color
    }

    /// Warnings for the plain text colour and each token colour of `code` below
    /// ``minimumContrast`` against the background `theme` gives code, each at the colour's
    /// position in this file (else the background's, else `fallback`); none when the section's
    /// background is written wrong.
    mutating func checkContrast(of theme: Theme, fallback: SourcePosition) {
        guard !backgroundIsWrong else { return }
        for failure in theme.code.contrastFailures(theme: theme, minimum: Self.minimumContrast) {
            let written =
                failure.token.flatMap { tokenPositions[$0] } ?? (failure.token == nil ? textPosition : nil)
                ?? backgroundPosition
            let message =
                written == nil && stylePosition != nil
                ? failure.message + " (from code style '\(theme.code.name)')" : failure.message
            let position = written ?? stylePosition ?? fallback
            problems.append(ThemeProblem(file: file, at: position, message, severity: .warning))
        }
    }
}

extension CodeStyle {
    /// A colour of code whose contrast against its background is below the minimum.
    public struct ContrastFailure: Hashable, Sendable {
        /// The token whose colour fails; nil for the plain text colour.
        public var token: CodeToken?
        /// The contrast ratio found, 1…21.
        public var ratio: Double
        /// What is wrong, e.g. `code.tokens.comment: #9AA0A6 on #F3F4F7 has contrast 2.4:1; …`.
        public var message: String
    }

    /// The background code is drawn on in `theme`: ``background``, else the theme's
    /// `codeBackground` colour, else `#F3F4F7`.
    public func effectiveBackground(in theme: Theme) -> RGBAColor {
        background ?? theme.colors["codeBackground"] ?? RGBAColor(hex: "#F3F4F7")!
    }

    /// The plain text colour and every token colour whose WCAG 2.1 contrast ratio against
    /// what it is drawn on is below `minimum` (4.5:1 is AA for body text), plain text first,
    /// then tokens in ``CodeToken`` order: a token's own ``CodeTokenStyle/background`` when it
    /// has one, else ``effectiveBackground(in:)``.
    public func contrastFailures(theme: Theme, minimum: Double = 4.5) -> [ContrastFailure] {
        let panel = effectiveBackground(in: theme)
        var failures: [ContrastFailure] = []
        func check(_ color: RGBAColor, _ token: CodeToken?, _ what: String, on background: RGBAColor) {
            let ratio = color.contrastRatio(against: background)
            guard ratio < minimum else { return }
            let shown = (ratio * 10).rounded(.down) / 10
            failures.append(
                ContrastFailure(
                    token: token, ratio: ratio,
                    message: "\(what): \(color.hex) on \(background.hex) has contrast \(shown):1; WCAG AA asks "
                        + "at least \(minimum.formatted()):1 for text"))
        }
        check(text ?? theme.textColor, nil, "code.text", on: panel)
        for token in CodeToken.allCases {
            guard let style = tokens[token] else { continue }
            check(style.color, token, "code.tokens.\(token.rawValue)", on: style.background ?? panel)
        }
        return failures
    }
}

extension Double {
    /// The number without a trailing `.0` (`4.5`, `3`).
    fileprivate func formatted() -> String {
        rounded() == self ? String(Int(self)) : String(self)
    }
}
