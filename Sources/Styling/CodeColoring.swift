import CodeHighlighting
import DocumentModel
import Foundation
import Typography

/// What a fenced code block's info string asks for: its language, whether it is highlighted,
/// and whether its lines are numbered. Read as GitHub and Pandoc read it: ```` ```python ````
/// (the first word), ```` ```{.python .numberLines startFrom="10"} ```` (the first class that
/// is no option), or both (```` ```python {.numberLines} ````); case-insensitive.
public struct CodeBlockInfo: Hashable, Sendable {
    /// The language as written (`python`, `py`, `C++`), nil for none.
    public var language: String?
    /// False for `.nohighlight` (or `.no-highlight`, `highlight=false`).
    public var highlight = true
    /// `.numberLines` (or `.number-lines`, `.numbered`): number the block's lines.
    public var numberLines = false
    /// `startFrom="10"`: the first line's number (1 unless given).
    public var startFrom = 1

    /// Classes that are options, not languages (Pandoc's and highlight.js's).
    static let optionClasses: Set<String> = [
        "numberlines", "number-lines", "numbered", "nohighlight", "no-highlight", "plaintext", "text", "linenos",
        "lineanchors", "sourcecode", "code",
    ]

    /// Reads `info`, a fence's info string.
    public init(info: String) {
        var words: [Substring] = []
        var braced: [Substring] = []
        var rest = Substring(info)
        if let open = rest.firstIndex(of: "{") {
            let close = rest[open...].firstIndex(of: "}") ?? rest.endIndex
            braced = rest[rest.index(after: open)..<close].split(whereSeparator: \.isWhitespace)
            rest = rest[..<open]
        }
        words = rest.split(whereSeparator: \.isWhitespace)
        if let first = words.first {
            language = String(first)
        }
        for item in braced {
            if item.hasPrefix(".") {
                let name = item.dropFirst().lowercased()
                switch name {
                case "numberlines", "number-lines", "numbered", "linenos": numberLines = true
                case "nohighlight", "no-highlight", "plaintext": highlight = false
                default:
                    if language == nil, !Self.optionClasses.contains(name) { language = String(item.dropFirst()) }
                }
            } else if let equals = item.firstIndex(of: "=") {
                let key = item[..<equals].lowercased().replacingOccurrences(of: "-", with: "")
                let value = item[item.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                if key == "startfrom", let number = Int(value) { startFrom = number }
                if key == "highlight", value.lowercased() == "false" { highlight = false }
            }
        }
        if let name = language?.lowercased(), ["nohighlight", "no-highlight", "plaintext", "text"].contains(name) {
            highlight = false
        }
    }

    /// The syntax definition to highlight with, or nil (set plain, no warning): none when the
    /// block asks for none, names no language, or names one no definition knows.
    public var definition: String? {
        guard highlight, let language else { return nil }
        return CodeHighlighter.definition(forLanguage: language)
    }
}

extension Styler {
    /// Reads front matter `highlight` (also `-V highlight=false`): `false`, `no` or `off` sets
    /// every code block plain.
    mutating func readHighlightSetting(_ metadata: Metadata) {
        guard let written = metadata.fields["highlight"] else { return }
        switch written.lowercased() {
        case "false", "no", "off", "0": highlightsCode = false
        case "true", "yes", "on", "1": highlightsCode = true
        default:
            warn(
                "front matter 'highlight' is true or false, not '\(written)'", metadata.fieldLocations["highlight"],
                kind: .frontMatter)
        }
    }

    /// The language a span's classes name for the code span it holds alone
    /// (`` `print(1)`{.python} ``): its first class a syntax definition knows; nil otherwise.
    static func inlineCodeLanguage(_ attributes: Attributes, _ children: [Inline]) -> String? {
        guard children.count == 1, case .code = children[0] else { return nil }
        return attributes.classes.first { CodeHighlighter.definition(forLanguage: $0) != nil }
    }

    /// Inline code as runs of `base`: highlighted in ``inlineCodeLanguage`` (the language of
    /// the span around it), else one run; in the code text colour when highlighted or when the
    /// theme gives code a background of its own.
    func inlineCodeRuns(_ code: String, base: RunStyle) -> [StyledRun] {
        var style = base
        let definition = inlineCodeLanguage.flatMap(CodeHighlighter.definition(forLanguage:))
        if definition != nil || theme.code.background != nil {
            style.color = plainCodeColor(inherited: style.color)
        }
        return codeRuns(code, definition: definition, base: style)
    }

    /// The colour of code that is no token: the theme's code text colour, else `inherited`.
    func plainCodeColor(inherited: RGBAColor) -> RGBAColor {
        theme.code.text ?? inherited
    }

    /// The panel behind code: the theme's code background, else its `codeBackground` colour.
    var codeBackground: RGBAColor {
        theme.code.background ?? theme.color(named: "codeBackground") ?? RGBAColor(hex: "#F3F4F7")!
    }

    /// `text` as runs of `base`, each token of `definition` (a syntax definition's name) in its
    /// theme style: fill colour, and bold, italic or a background where the style asks. The runs' text joined
    /// is `text` exactly, so extraction and tagging see the code as written. One run of `base`
    /// when highlighting is off or `definition` is nil.
    func codeRuns(_ text: String, definition: String?, base: RunStyle) -> [StyledRun] {
        guard highlightsCode, theme.code.highlights, let definition, !text.isEmpty else {
            return [StyledRun(text, style: base)]
        }
        let key = CodeRunKey(text: text, definition: definition, base: base, code: theme.code)
        if let known = CodeRunKey.cache.value(for: key) { return known }
        let runs = highlightedRuns(text, definition: definition, base: base)
        CodeRunKey.cache.store(runs, for: key, size: text.utf8.count)
        return runs
    }

    /// `text` as runs of `base`, each token of `definition` in its theme style (``codeRuns``,
    /// which keeps what this makes).
    private func highlightedRuns(_ text: String, definition: String, base: RunStyle) -> [StyledRun] {
        let spans = CodeHighlighter.tokens(in: text, definition: definition)
        guard !spans.isEmpty else { return [StyledRun(text, style: base)] }
        let bytes = Array(text.utf8)
        var runs: [StyledRun] = []
        var position = 0
        // One style a token kind: each made once, and runs of one kind share it (compared by
        // identity before by value).
        var styles: [CodeToken: RunStyle] = [:]
        func tokenStyle(_ token: CodeToken) -> RunStyle {
            if let known = styles[token] { return known }
            var style = base
            if let tokenStyle = theme.code.style(for: token) {
                style.color = tokenStyle.color
                if tokenStyle.bold { style.font.weight = .bold }
                if tokenStyle.italic { style.font.italic = true }
                if let background = tokenStyle.background { style.background = background }
            }
            styles[token] = style
            return style
        }
        func append(_ range: Range<Int>, _ style: RunStyle) {
            guard !range.isEmpty else { return }
            let piece = String(decoding: bytes[range], as: UTF8.self)
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].text += piece
            } else {
                runs.append(StyledRun(piece, style: style))
            }
        }
        for span in spans where span.start >= position && span.start + span.length <= bytes.count {
            // Spaces and line ends between two tokens take the previous token's style: they
            // draw no ink, and a monospaced face's space has one advance in every weight, so
            // the line sets the same with fewer runs (each run is a shaping item and a fill
            // colour change in the PDF). Not after a token with a background of its own, which
            // would then cover the blank too.
            let gap = position..<span.start
            let blank = bytes[gap].allSatisfy { $0 == 0x20 || $0 == 0x0A }
            let previous = runs.last.flatMap { $0.style.background == base.background ? $0.style : nil }
            append(gap, blank ? (previous ?? base) : base)
            append(span.range, tokenStyle(span.token))
            position = span.start + span.length
        }
        append(position..<bytes.count, base)
        return runs
    }
}

/// How a pass that reads no token sets a highlighted code block (``StylingOptions/deferredCodeTokens``):
/// as one run of the block's plain style, its language handed to ``loader``, when the block is
/// set in ``families``, upright and regular.
///
/// A pass that reads only faces, characters and positions (the survey: links, headings, sizes,
/// the font check) finds the same there whether a block's tokens are split or not, provided
/// every face a token may take — each weight and slant of the code style's tokens, in each of
/// ``families`` — resolves as asked: then no face warning depends on where a token falls, and
/// the characters are checked by family list, not by face. The caller checks that before it
/// sets this.
package struct DeferredCodeTokens: Sendable {
    /// The monospaced families whose token faces all resolve as asked.
    package var families: [String]
    /// Loads each deferred block's language meanwhile.
    package var loader: DefinitionLoader

    /// Deferral for code set in `families`, loading languages on `loader`.
    package init(families: [String], loader: DefinitionLoader) {
        self.families = families
        self.loader = loader
    }

    /// Whether a block whose plain run is set in `font` may be set as that one run.
    func covers(_ font: FontSpec) -> Bool {
        font.families == families && font.weight == .regular && !font.italic
    }
}

/// Code already made into runs, keyed by everything the runs depend on: the text, its syntax
/// definition, the base style and the theme's code style (``TextKeyedCache``).
struct CodeRunKey: Hashable {
    var text: String
    var definition: String
    var base: RunStyle
    var code: CodeStyle

    /// The runs of code already styled: a block's are built once a document.
    static let cache = TextKeyedCache<CodeRunKey, [StyledRun]>(capacity: 4 << 20)

    /// Hashes the text, the definition, the base style and the code style's name, colours and
    /// switch, not its table of token styles: hashing that table (a hasher for each of its
    /// entries) cost more than the rest of a block's lookup. Equal keys still compare it whole
    /// (at once when both share the table, as a document's blocks do).
    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(definition)
        hasher.combine(base)
        hasher.combine(code.name)
        hasher.combine(code.background)
        hasher.combine(code.text)
        hasher.combine(code.highlights)
    }
}
