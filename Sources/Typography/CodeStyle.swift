import Foundation

/// A kind of token in highlighted source code: the default text styles of KSyntaxHighlighting
/// (`KSyntaxHighlighting::Theme::TextStyle`, the styles Kate's and Pandoc's syntax definitions
/// assign), by the names a theme's `code.tokens` section uses.
public enum CodeToken: String, CaseIterable, Hashable, Sendable {
    /// Language keywords (`def`, `struct`).
    case keyword
    /// Control flow keywords (`if`, `return`, `for`).
    case controlFlow
    /// Data types (`int`, `String`).
    case type
    /// Function definitions and calls.
    case function
    /// Built-in functions and classes (`print`, `len`).
    case builtIn
    /// Well-known extensions (Qt, Boost names).
    case `extension`
    /// Variables, where a language marks them (`$name` in shell and PHP).
    case variable
    /// Language constants (`True`, `nil`, `nullptr`).
    case constant
    /// Numbers: decimal, other bases and floating point.
    case number
    /// String literals.
    case string
    /// Verbatim strings (here-documents, raw strings).
    case verbatimString
    /// Special strings (regular expressions).
    case specialString
    /// Character literals (`'a'`).
    case char
    /// Escapes inside strings (`\n`).
    case escape
    /// Imports, includes and modules.
    case `import`
    /// Comments.
    case comment
    /// Documentation comments (`///`, `/** */`, docstrings).
    case documentation
    /// Annotations inside comments (`@param`).
    case annotation
    /// Names a comment annotation refers to (the identifier after `@param`).
    case commentVariable
    /// Region markers (`BEGIN`/`END`, `#pragma region`).
    case regionMarker
    /// Information keywords in comments (`@note`).
    case information
    /// Warning keywords in comments (`@warning`).
    case warning
    /// Alert words in comments: the markers programmers leave for unfinished work, which the
    /// syntax definitions mark as KSyntaxHighlighting's `Alert` style.
    case alert
    /// Preprocessor directives (`#include`, `#if`).
    case preprocessor
    /// Attributes (`@available`, `__attribute__`, decorators).
    case attribute
    /// Operators (`+`, `::`, `=>`).
    case `operator`
    /// Wrong syntax.
    case error
    /// Lines a diff adds (`+`), as GitHub's `markup.inserted`.
    case inserted
    /// Lines a diff removes (`-`), as GitHub's `markup.deleted`.
    case deleted
    /// What a definition marks that no other style names.
    case others

    /// The token whose style this one takes when the code style names none for it (a theme may
    /// name only `string` and have `verbatimString` follow); nil for the tokens every built-in
    /// style names. A diff's lines take the default styles KSyntaxHighlighting's Diff definition
    /// gives them (added lines Variable, removed lines String), so a library theme shows a diff
    /// as Kate does.
    public var fallback: CodeToken? {
        switch self {
        case .controlFlow: .keyword
        case .builtIn: .function
        case .extension: .type
        case .verbatimString, .specialString, .char: .string
        case .escape: .string
        case .import: .preprocessor
        case .documentation: .comment
        case .annotation, .commentVariable, .warning, .alert: .documentation
        // What definitions mark as information is code, not commentary: CSS's pseudo-classes
        // (`:hover`, `::before`), Markdown's code spans and fences.
        case .information: .attribute
        case .regionMarker: .comment
        case .attribute: .preprocessor
        case .inserted: .variable
        case .deleted: .string
        default: nil
        }
    }
}

/// How one kind of token is drawn: a fill colour, optionally bold and italic, and optionally a
/// background of its own.
public struct CodeTokenStyle: Hashable, Sendable {
    /// The glyphs' fill colour.
    public var color: RGBAColor
    /// Set in the code family's bold weight.
    public var bold: Bool
    /// Set in the code family's italic.
    public var italic: Bool
    /// A rectangle of this colour behind the token, as tall as its line (KSyntaxHighlighting's
    /// themes give one to a few styles: Gruvbox's Information, Warning and Alert); nil draws the
    /// token on the code's panel.
    public var background: RGBAColor?
    /// A style of `color`, upright and regular unless `bold`/`italic`, on `background` when given.
    public init(color: RGBAColor, bold: Bool = false, italic: Bool = false, background: RGBAColor? = nil) {
        self.color = color
        self.bold = bold
        self.italic = italic
        self.background = background
    }
}

/// The colours of highlighted code: the block's background, the plain text's colour and one
/// style per token kind. A theme's `code` section; ``light`` and ``dark`` are built in.
public struct CodeStyle: Hashable, Sendable {
    /// The name of the built-in style this one starts from (`light`, `dark`).
    public var name: String
    /// The panel behind code blocks and inline code; nil takes the theme's `codeBackground`
    /// colour.
    public var background: RGBAColor?
    /// Code that is no token (identifiers, punctuation); nil takes the theme's `text` colour.
    public var text: RGBAColor?
    /// Each token kind's style; a kind not here takes its ``CodeToken/fallback``'s, or ``text``.
    public var tokens: [CodeToken: CodeTokenStyle]
    /// Whether fenced code with a known language is highlighted at all.
    public var highlights: Bool

    /// A style named `name`; every colour in sRGB.
    public init(
        name: String, background: RGBAColor? = nil, text: RGBAColor? = nil, tokens: [CodeToken: CodeTokenStyle],
        highlights: Bool = true
    ) {
        self.name = name
        self.background = background
        self.text = text
        self.tokens = tokens
        self.highlights = highlights
    }

    /// The style `token` is drawn in: its own, else its fallback's (followed to the end), else
    /// nil (plain text).
    public func style(for token: CodeToken) -> CodeTokenStyle? {
        var current: CodeToken? = token
        while let kind = current {
            if let style = tokens[kind] { return style }
            current = kind.fallback
        }
        return nil
    }

    /// The built-in styles by name.
    public static let builtIn: [String: CodeStyle] = ["light": .light, "dark": .dark]

    /// Dark colours on a light grey panel, in the spirit of GitHub's light theme; each meets WCAG
    /// 2.1 AA contrast (4.5:1) against `#F3F4F7`, the default theme's `codeBackground`. Operators
    /// and punctuation keep the text colour, as on GitHub: a colour of their own would differ
    /// from the text's by too little to read, and each colour change costs a run. Nothing is
    /// bold, as on GitHub: a bold keyword is a face of its own, which doubles what highlighting
    /// costs (KSyntaxHighlighting's `printing` style sets keywords bold, for paper read in grey);
    /// nothing is italic (the CJK fallback of code has no italic face). Control-flow keywords
    /// take the keywords' style (``CodeToken/fallback``), so a theme that sets `keyword` sets
    /// them too. A diff's added lines are green and its removed lines red, in GitHub's
    /// `markup.inserted` and `markup.deleted` colours.
    public static let light = CodeStyle(
        name: "light", background: nil, text: nil,
        tokens: palette([
            (.keyword, "#A01E2B", false, false),
            (.type, "#6F3FB5", false, false), (.function, "#5A32A3", false, false),
            (.builtIn, "#0B5CAD", false, false), (.variable, "#8A4600", false, false),
            (.constant, "#0550AE", false, false), (.number, "#0550AE", false, false),
            (.string, "#0A5C2F", false, false), (.escape, "#0550AE", false, false),
            (.comment, "#5F6670", false, false), (.documentation, "#5F6670", false, false),
            (.annotation, "#8A4600", false, false), (.alert, "#A01E2B", false, false),
            (.preprocessor, "#8A4600", false, false), (.import, "#A01E2B", false, false),
            (.attribute, "#8A4600", false, false),
            (.error, "#B00020", false, false),
            (.inserted, "#116329", false, false), (.deleted, "#82071E", false, false),
        ]))

    /// Light colours on a near-black panel (`#1E2127`), in the spirit of One Dark; each meets
    /// WCAG 2.1 AA contrast (4.5:1) against that panel. Operators keep the text colour; nothing
    /// is bold or italic, as in One Dark. Control-flow keywords take the keywords' style; a
    /// diff's added lines are green and its removed lines red.
    public static let dark = CodeStyle(
        name: "dark", background: RGBAColor(hex: "#1E2127")!, text: RGBAColor(hex: "#D7DAE0")!,
        tokens: palette([
            (.keyword, "#E06C75", false, false),
            (.type, "#E5C07B", false, false), (.function, "#61AFEF", false, false),
            (.builtIn, "#56B6C2", false, false), (.variable, "#E5C07B", false, false),
            (.constant, "#D19A66", false, false), (.number, "#D19A66", false, false),
            (.string, "#98C379", false, false), (.escape, "#56B6C2", false, false),
            (.comment, "#8B93A1", false, false), (.documentation, "#8B93A1", false, false),
            (.annotation, "#C678DD", false, false), (.alert, "#E06C75", false, false),
            (.preprocessor, "#C678DD", false, false), (.import, "#C678DD", false, false),
            (.attribute, "#D19A66", false, false),
            (.error, "#FF7B85", false, false),
            (.inserted, "#98C379", false, false), (.deleted, "#E06C75", false, false),
        ]))

    private static func palette(_ entries: [(CodeToken, String, Bool, Bool)]) -> [CodeToken: CodeTokenStyle] {
        var tokens: [CodeToken: CodeTokenStyle] = [:]
        for (token, hex, bold, italic) in entries {
            tokens[token] = CodeTokenStyle(color: RGBAColor(hex: hex)!, bold: bold, italic: italic)
        }
        return tokens
    }
}

extension RGBAColor {
    /// Relative luminance, WCAG 2.1 § 1.4.3 (sRGB components linearized): 0 for black, 1 for white.
    public var relativeLuminance: Double {
        func linear(_ component: Double) -> Double {
            component <= 0.04045 ? component / 12.92 : Foundation.pow((component + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2.1 contrast ratio of this colour drawn on `other`, 1…21, as the page shows
    /// them: `other` over white paper, then this colour over that (``composited(over:)``), so
    /// a colour drawn see-through has the contrast of what shows.
    public func contrastRatio(against other: RGBAColor) -> Double {
        let ground = other.composited(over: .white)
        let ink = composited(over: ground).relativeLuminance
        let lighter = max(ink, ground.relativeLuminance)
        let darker = min(ink, ground.relativeLuminance)
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// This colour drawn over the opaque `backdrop` at its ``alpha``: each sRGB component
    /// `alpha × colour + (1 − alpha) × backdrop`, the PDF's Normal blend mode with a constant
    /// opacity (ISO 32000-2 § 11.3), opaque.
    public func composited(over backdrop: RGBAColor) -> RGBAColor {
        func mix(_ top: Double, _ bottom: Double) -> Double { alpha * top + (1 - alpha) * bottom }
        return RGBAColor(red: mix(red, backdrop.red), green: mix(green, backdrop.green), blue: mix(blue, backdrop.blue))
    }
}
