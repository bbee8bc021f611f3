import CodeHighlighting
import DocumentModel
import Foundation
import Typography

/// What a fenced code block's info string asks for: its language, whether it is highlighted,
/// and whether its lines are numbered. Read as GitHub and Pandoc read it: ```` ```python ````
/// (the first word, up to a comma: rustdoc's ```` ```rust,ignore ````),
/// ```` ```{.python .numberLines startFrom="10"} ```` (the first class that is no option), or
/// both (```` ```python {.numberLines} ````), or Quarto's and R Markdown's chunks
/// (```` ```{python} ````, ```` ```{r, echo=FALSE} ````); case-insensitive.
public struct CodeBlockInfo: Hashable, Sendable {
    /// The language as written (`python`, `py`, `C++`), nil for none.
    public var language: String?
    /// False for `.nohighlight` (or `.no-highlight`, `highlight=false`).
    public var highlight = true
    /// `.numberLines` (or `.number-lines`, `.numbered`): number the block's lines.
    public var numberLines = false
    /// `startFrom="10"`: the first line's number (1 unless given).
    public var startFrom = 1
    /// `tab-size=8`: columns between the block's tab stops; nil: those of the text around it.
    public var tabSize: Int?
    /// `#lst:main` inside the braces: the block's id, a link's destination (Pandoc's
    /// `fenced_code_attributes`).
    public var id: String?
    /// What the info string asks that cannot be done, each said as a warning's message
    /// (`startFrom="ten"`).
    public var problems: [String] = []

    /// Classes that are options, not languages (Pandoc's and highlight.js's).
    static let optionClasses: Set<String> = [
        "numberlines", "number-lines", "numbered", "nohighlight", "no-highlight", "plaintext", "text", "linenos",
        "lineanchors", "sourcecode", "code",
    ]

    /// Reads `info`, a fence's info string. Inside braces, words are parted by spaces outside
    /// quotes, as Pandoc reads attributes: `title="my .python file"` is one attribute.
    public init(info: String) {
        var braced: [Substring] = []
        var rest = Substring(info)
        if let open = rest.firstIndex(of: "{") {
            let close = Self.closingBrace(in: rest[open...]) ?? rest.endIndex
            braced = Self.attributeWords(rest[rest.index(after: open)..<close])
            rest = rest[..<open]
        }
        // The first word up to a comma: rustdoc's and mdBook's ```` ```rust,ignore ````.
        if let word = rest.split(whereSeparator: \.isWhitespace).first,
            let first = word.split(separator: ",", omittingEmptySubsequences: false).first, !first.isEmpty
        {
            language = Self.languageName(first)
        }
        for item in braced {
            if item.hasPrefix(".") {
                read(class: item.dropFirst())
            } else if item.hasPrefix("#"), item.count > 1, id == nil {
                id = String(item.dropFirst())
            } else if let equals = item.firstIndex(of: "=") {
                read(key: item[..<equals], value: Self.unquoted(item[item.index(after: equals)...]))
            } else if language == nil, item == braced.first, !item.hasPrefix("#") {
                // Quarto's and R Markdown's executable chunks: ```` ```{python} ````,
                // ```` ```{r, echo=FALSE} ````, ```` ```{r label} ````.
                language = item.trimmingCharacters(in: CharacterSet(charactersIn: ","))
            }
        }
        settleHighlighting()
    }

    /// Reads a code span's attributes (`` `print(1)`{.python .numberLines} ``) as a fence's
    /// braces are read: its first class that is no option names the language, and
    /// `.nohighlight` or `highlight=false` turns highlighting off.
    public init(attributes: Attributes) {
        for name in attributes.classes { read(class: Substring(name)) }
        for pair in attributes.pairs {
            if let value = pair.value { read(key: Substring(pair.key), value: value) }
        }
        settleHighlighting()
    }

    /// Reads one class (without its period): an option, else the language when none is named yet.
    private mutating func read(class item: Substring) {
        let name = item.lowercased()
        switch name {
        case "numberlines", "number-lines", "numbered", "linenos": numberLines = true
        case "nohighlight", "no-highlight", "plaintext": highlight = false
        default:
            if language == nil, !Self.optionClasses.contains(name) { language = Self.languageName(item) }
        }
    }

    /// Reads one `key=value` attribute, its value unquoted: `startFrom`, `highlight` and
    /// `tab-size`.
    private mutating func read(key: Substring, value: String) {
        let normalized = key.lowercased().replacingOccurrences(of: "-", with: "")
        if normalized == "startfrom" {
            let number = value.trimmingCharacters(in: .whitespaces)
            if let first = Int(number), (-999_999_999...999_999_999).contains(first) {
                startFrom = first
            } else {
                problems.append(
                    "startFrom=\"\(value.prefix(40))\" is no whole number from -999,999,999 to 999,999,999; "
                        + "the lines are numbered from 1")
            }
        }
        if normalized == "highlight", value.lowercased() == "false" { highlight = false }
        if normalized == "tabsize" {
            if let columns = Int(value.trimmingCharacters(in: .whitespaces)), (1...16).contains(columns) {
                tabSize = columns
            } else {
                problems.append(
                    "'\(key)' is a whole number of columns from 1 to 16, not '\(value.prefix(40))'; "
                        + "the text's tab stops are kept")
            }
        }
    }

    /// What GitHub draws a block of this language as instead of its code (GitHub Docs, "Creating
    /// diagrams": Mermaid, GeoJSON and TopoJSON maps, ASCII STL models), nil for code it shows as
    /// code. Typeset sets such a block as its source.
    public var gitHubDrawing: String? {
        switch language?.lowercased() {
        case "mermaid": "a Mermaid diagram"
        case "geojson", "topojson": "a map"
        case "stl": "a 3D model"
        default: nil
        }
    }

    /// Turns highlighting off for a language that names plain text.
    private mutating func settleHighlighting() {
        if let name = language?.lowercased(), ["nohighlight", "no-highlight", "plaintext", "text"].contains(name) {
            highlight = false
        }
    }

    /// A language as written, without the `language-` or `lang-` prefix HTML's convention
    /// gives a code element's class (`language-python`: HTML Living Standard, "the code
    /// element"; highlight.js and markdown-it write it so).
    static func languageName(_ written: Substring) -> String {
        for prefix in ["language-", "lang-"]
        where written.count > prefix.count && written.lowercased().hasPrefix(prefix) {
            return String(written.dropFirst(prefix.count))
        }
        return String(written)
    }

    /// The brace that closes the attributes opened at `text`'s first character, outside quotes.
    static func closingBrace(in text: Substring) -> Substring.Index? {
        var quote: Character?
        for index in text.indices.dropFirst() {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "}" {
                return index
            }
        }
        return nil
    }

    /// `text` parted at spaces outside double or single quotes.
    static func attributeWords(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        var start: Substring.Index?
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character.isWhitespace {
                if let first = start { words.append(text[first..<index]) }
                start = nil
                continue
            }
            if start == nil { start = index }
            if character == "\"" || character == "'" { quote = character }
        }
        if let first = start { words.append(text[first...]) }
        return words
    }

    /// An attribute's value without the quotes around it.
    static func unquoted(_ value: Substring) -> String {
        for quote: Character in ["\"", "'"] where value.count >= 2 && value.first == quote && value.last == quote {
            return String(value.dropFirst().dropLast())
        }
        return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
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
        let info = CodeBlockInfo(attributes: attributes)
        guard info.highlight else { return nil }
        return attributes.classes.lazy.map { CodeBlockInfo.languageName(Substring($0)) }
            .first { CodeHighlighter.definition(forLanguage: $0) != nil }
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
        let code = highlightedCode(text, definition: definition, base: base)
        if let runs = code.runs { return runs }
        // A block's colours alone were kept (``HighlightedCode``): the runs are made from its tokens.
        guard let definition else { return [StyledRun(text, style: base)] }
        let table = TokenStyleTable.table(base: base, code: theme.code)
        return highlightedRuns(text, spans: CodeHighlighter.tokens(in: text, definition: definition), table: table)
    }

    /// A code block's `text` as ``codeRuns(_:definition:base:)`` makes it, but one run of
    /// `base` with its tokens' colours beside it (``TokenColors``) when the tokens differ from
    /// `base` in nothing but colour and background, as the built-in styles' do: the block is
    /// then measured, broken and shaped as the plain block is, a run for its whole text.
    func codeBlockRuns(_ text: String, definition: String?, base: RunStyle) -> (
        runs: [StyledRun], colors: TokenColors?
    ) {
        let code = highlightedCode(text, definition: definition, base: base)
        if let colors = code.colors { return ([StyledRun(text, style: base)], colors) }
        return (code.runs ?? [StyledRun(text, style: base)], nil)
    }

    /// `text`'s runs (``codeRuns(_:definition:base:)``) and, where they differ from `base` only
    /// in colour, its ``TokenColors``: made once a document for each text and style. Where the
    /// colours say all, they are found from the tokens without making the runs.
    private func highlightedCode(_ text: String, definition: String?, base: RunStyle) -> HighlightedCode {
        guard highlightsCode, theme.code.highlights, let definition, !text.isEmpty else {
            return HighlightedCode(runs: [StyledRun(text, style: base)], colors: nil)
        }
        let key = CodeRunKey(text: text, definition: definition, base: base, code: theme.code)
        if let known = CodeRunKey.cache.value(for: key) { return known }
        let spans = CodeHighlighter.tokens(in: text, definition: definition)
        let table = TokenStyleTable.table(base: base, code: theme.code)
        let code: HighlightedCode
        if let colors = table.colors(of: spans, in: text) {
            code = HighlightedCode(runs: nil, colors: colors)
        } else {
            let runs = highlightedRuns(text, spans: spans, table: table)
            code = HighlightedCode(runs: runs, colors: TokenColors(runs, base: base))
        }
        CodeRunKey.cache.store(code, for: key, size: text.utf8.count)
        return code
    }

    /// `text` as runs of the table's base style, each token of `spans` in its style
    /// (``codeRuns``, which keeps what this makes).
    private func highlightedRuns(_ text: String, spans: [TokenSpan], table: TokenStyleTable) -> [StyledRun] {
        guard !spans.isEmpty else { return [StyledRun(text, style: table.base)] }
        return text.withUTF8Bytes { bytes in
            table.runs(of: spans, bytes: bytes).map { run in
                StyledRun(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[run.bytes]), as: UTF8.self),
                    style: table.style(at: run.style))
            }
        }
    }
}

/// The style each kind of token takes in code of one base style under one code style: made
/// once for each pair (a document's code blocks share one), each distinct style once, so that
/// a block's runs of one kind share a style and its colours can be found from the tokens alone
/// (``colors(of:in:)``).
final class TokenStyleTable: Sendable {
    /// The style of code that is no token.
    let base: RunStyle
    /// The code style the token styles come from.
    let code: CodeStyle
    /// Each distinct style, `base` first: a token style equal to another is stored once.
    private let styles: [RunStyle]
    /// The index in ``styles`` of each token kind's style, by ``slot(of:)``.
    private let slots: [Int]
    /// For each of ``styles``, whether its background is the base style's.
    private let keepsBackground: [Bool]
    /// For each of ``styles``, whether it differs from `base` in nothing but an opaque fill colour and
    /// its background (as ``TokenColors`` asks of every run).
    private let colorOnly: [Bool]

    private init(base: RunStyle, code: CodeStyle) {
        self.base = base
        self.code = code
        var styles = [base]
        var slots: [Int] = []
        for token in CodeToken.allCases {
            var style = base
            if let tokenStyle = code.style(for: token) {
                style.color = tokenStyle.color
                if tokenStyle.bold { style.font.weight = .bold }
                if tokenStyle.italic { style.font.italic = true }
                if let background = tokenStyle.background { style.background = background }
            }
            if let index = styles.firstIndex(of: style) {
                slots.append(index)
            } else {
                slots.append(styles.count)
                styles.append(style)
            }
        }
        self.styles = styles
        self.slots = slots
        keepsBackground = styles.map { $0.background == base.background }
        // The base style itself passes as TokenColors passes it, whatever its colour's opacity;
        // a style equal to it is stored as it.
        colorOnly = styles.enumerated().map { index, style in
            guard index > 0 else { return true }
            var recoloured = style
            recoloured.color = base.color
            recoloured.background = base.background
            return recoloured == base && style.color.alpha >= 1
        }
    }

    /// The tokens' colours of `text` (``TokenColors``), as ``TokenColors/init(_:base:)`` finds
    /// them in the runs ``Styler/codeRuns(_:definition:base:)`` makes of `spans`, found from the
    /// spans without making the runs; nil when those colours would be nil (the runs are then
    /// needed) or when the base colour is not opaque.
    func colors(of spans: [TokenSpan], in text: String) -> TokenColors? {
        guard !spans.isEmpty, base.color.alpha >= 1 else { return nil }
        return text.withUTF8Bytes { colors(of: spans, bytes: $0) }
    }

    private func colors(of spans: [TokenSpan], bytes: UnsafeBufferPointer<UInt8>) -> TokenColors? {
        let runs = runs(of: spans, bytes: bytes)
        guard runs.count > 1, runs.allSatisfy({ colorOnly[$0.style] }) else { return nil }
        var starts: [Int] = []
        var colors: [RGBAColor] = []
        var backgrounds: [TokenColors.Background] = []
        for run in runs {
            let style = styles[run.style]
            if let background = style.background, background != base.background {
                backgrounds.append(TokenColors.Background(bytes: run.bytes, color: background))
            }
            if colors.last != style.color {
                starts.append(run.bytes.lowerBound)
                colors.append(style.color)
            }
        }
        guard colors.count > 1 || !backgrounds.isEmpty else { return nil }
        starts[0] = 0
        return TokenColors(starts: starts, colors: colors, backgrounds: backgrounds)
    }

    /// The style at `index` of the runs ``runs(of:bytes:)`` makes.
    func style(at index: Int) -> RunStyle {
        styles[index]
    }

    /// The runs code of `bytes` (UTF-8) is set in, with `spans` its tokens: each a range of
    /// bytes and the index of its style (``style(at:)``), neighbouring runs of different
    /// styles. Bytes of no token are in the base style, but spaces and line ends between two
    /// tokens take the previous token's style: they draw no ink, and a monospaced face's space
    /// has one advance in every weight, so the line sets the same with fewer runs (each run is
    /// a shaping item and a fill colour change in the PDF). Not after a token with a
    /// background of its own, which would then cover the blank too. Spans that overlap one
    /// before them or pass the end are left out.
    func runs(of spans: [TokenSpan], bytes: UnsafeBufferPointer<UInt8>) -> [ByteRun] {
        var runs: [ByteRun] = []
        func append(_ range: Range<Int>, _ style: Int) {
            guard !range.isEmpty else { return }
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].bytes = last.bytes.lowerBound..<range.upperBound
            } else {
                runs.append(ByteRun(bytes: range, style: style))
            }
        }
        var position = 0
        for span in spans where span.start >= position && span.start + span.length <= bytes.count {
            let gap = position..<span.start
            let blank = bytes[gap].allSatisfy { $0 == 0x20 || $0 == 0x0A }
            let previous = runs.last.flatMap { keepsBackground[$0.style] ? $0.style : nil }
            append(gap, blank ? (previous ?? 0) : 0)
            append(span.range, slots[Self.slot(of: span.token)])
            position = span.start + span.length
        }
        append(position..<bytes.count, 0)
        return runs
    }

    /// A run of ``runs(of:bytes:)``: its UTF-8 bytes and the index of its style.
    struct ByteRun {
        var bytes: Range<Int>
        var style: Int
    }

    /// The table for `base` under `code`, made on first use.
    static func table(base: RunStyle, code: CodeStyle) -> TokenStyleTable {
        lock.lock()
        defer { lock.unlock() }
        if let known = tables.last(where: { $0.base == base && $0.code.name == code.name && $0.code == code }) {
            return known
        }
        let table = TokenStyleTable(base: base, code: code)
        if tables.count >= 16 { tables.removeFirst() }
        tables.append(table)
        return table
    }

    nonisolated(unsafe) private static var tables: [TokenStyleTable] = []
    private static let lock = NSLock()

    /// The position of `token` in ``CodeToken/allCases``, without hashing its name (as a
    /// dictionary keyed by it does, once a token).
    static func slot(of token: CodeToken) -> Int {
        switch token {
        case .keyword: 0
        case .controlFlow: 1
        case .type: 2
        case .function: 3
        case .builtIn: 4
        case .extension: 5
        case .variable: 6
        case .constant: 7
        case .number: 8
        case .string: 9
        case .verbatimString: 10
        case .specialString: 11
        case .char: 12
        case .escape: 13
        case .import: 14
        case .comment: 15
        case .documentation: 16
        case .annotation: 17
        case .commentVariable: 18
        case .regionMarker: 19
        case .information: 20
        case .warning: 21
        case .alert: 22
        case .preprocessor: 23
        case .attribute: 24
        case .operator: 25
        case .error: 26
        case .inserted: 27
        case .deleted: 28
        case .others: 29
        }
    }
}

/// How a pass that reads no token sets a highlighted code block (``StylingOptions/deferredCodeTokens``):
/// as one run of the block's plain style, its language and text handed to ``loader`` (which
/// finds the text's tokens meanwhile, for the pass that draws), when the block is set in
/// ``families``, upright and regular.
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
    /// Loads each deferred block's language and finds its tokens meanwhile.
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
    static let cache = TextKeyedCache<CodeRunKey, HighlightedCode>(capacity: 4 << 20)

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

/// Highlighted code as runs, and its ``TokenColors`` when its runs differ only in colour.
struct HighlightedCode {
    /// The runs; nil when ``colors`` were found from the tokens without making them
    /// (``TokenStyleTable/colors(of:in:)``): a code block needs only those.
    var runs: [StyledRun]?
    var colors: TokenColors?
}

/// The fill colours of a highlighted code block's tokens, by UTF-8 byte of its text, kept
/// beside its one run instead of as a run a token.
///
/// The built-in code styles, as GitHub's and One Dark's, colour tokens without changing their
/// face. Such a block reaches layout as the plain block does — one run in its plain style —
/// and is measured, broken and shaped as that block is; the backend paints each token's colour
/// over its glyphs when it draws them (a run a token would be a Pango item and an attribute
/// set a token, and a per-run pass of layout over each).
public struct TokenColors: Hashable, Sendable {
    /// Bytes drawn on a background of their own (a token whose code style gives one).
    public struct Background: Hashable, Sendable {
        /// UTF-8 byte offsets into the text.
        public var bytes: Range<Int>
        /// The background's colour.
        public var color: RGBAColor

        /// Creates a stretch of `bytes` (UTF-8 offsets) on a background of `color`.
        public init(bytes: Range<Int>, color: RGBAColor) {
            self.bytes = bytes
            self.color = color
        }
    }

    /// UTF-8 byte offsets into the text where each colour starts, increasing; the first is 0.
    public private(set) var starts: [Int]
    /// The colour from each start to the next (to the text's end for the last).
    public private(set) var colors: [RGBAColor]
    /// The stretches on a background of their own, in order.
    public private(set) var backgrounds: [Background]

    /// The colours of `runs` (a code block's, whose text joined is the block's), nil when a
    /// run differs from `base` in more than its fill colour and background (a bold or italic
    /// token, a link), when a colour is not opaque (painted with PDF's `rg`, which has no
    /// opacity), or when the runs have one colour and no background.
    init?(_ runs: [StyledRun], base: RunStyle) {
        guard runs.count > 1 else { return nil }
        starts = []
        colors = []
        backgrounds = []
        // Runs of one token kind share one appearance: each is checked once.
        var checked: [RunAppearance] = [base.appearance]
        var offset = 0
        for run in runs {
            defer { offset += run.text.utf8.count }
            let style = run.style
            if !checked.contains(where: { $0 === style.appearance }) {
                var recoloured = style
                recoloured.color = base.color
                recoloured.background = base.background
                guard recoloured == base, style.color.alpha >= 1 else { return nil }
                checked.append(style.appearance)
            }
            if let background = style.background, background != base.background, !run.text.isEmpty {
                backgrounds.append(Background(bytes: offset..<(offset + run.text.utf8.count), color: background))
            }
            if colors.last != style.color, !run.text.isEmpty {
                starts.append(offset)
                colors.append(style.color)
            }
        }
        guard colors.count > 1 || !backgrounds.isEmpty else { return nil }
        starts[0] = 0
    }

    /// Colours from each of `starts` (the first 0), and `backgrounds`, as given.
    init(starts: [Int], colors: [RGBAColor], backgrounds: [Background]) {
        self.starts = starts
        self.colors = colors
        self.backgrounds = backgrounds
    }

    /// The colours of the bytes `range` of the text, offsets from `range.lowerBound`; nil when
    /// the range is empty.
    public func slice(_ range: Range<Int>) -> TokenColors? {
        guard !range.isEmpty else { return nil }
        let first = starts.stretchIndex(holding: range.lowerBound)
        var end = first + 1
        while end < starts.count, starts[end] < range.upperBound { end += 1 }
        let sliced = [0] + starts[(first + 1)..<end].map { $0 - range.lowerBound }
        let shifted = backgrounds.compactMap { background -> Background? in
            let bytes = background.bytes.clamped(to: range)
            guard !bytes.isEmpty else { return nil }
            return Background(
                bytes: (bytes.lowerBound - range.lowerBound)..<(bytes.upperBound - range.lowerBound),
                color: background.color)
        }
        return TokenColors(starts: sliced, colors: Array(colors[first..<end]), backgrounds: shifted)
    }
}

extension StyledParagraph {
    /// The paragraph with its ``tokenColors`` made runs: each stretch of one colour a run of
    /// its own in that colour (and background), as a block whose tokens differ in face is
    /// set; the paragraph itself when it has none.
    public func expandingTokenColors() -> StyledParagraph {
        guard let colors = tokenColors else { return self }
        var expanded = self
        expanded.tokenColors = nil
        expanded.runs = []
        // Every byte where a run, a colour or a background starts or ends.
        var offset = 0
        for run in runs {
            let bytes = Array(run.text.utf8)
            var cuts = Set([0, bytes.count])
            for start in colors.starts where start > offset && start < offset + bytes.count {
                cuts.insert(start - offset)
            }
            for background in colors.backgrounds {
                for edge in [background.bytes.lowerBound, background.bytes.upperBound]
                where edge > offset && edge < offset + bytes.count {
                    cuts.insert(edge - offset)
                }
            }
            let sorted = cuts.sorted()
            for (start, end) in zip(sorted, sorted.dropFirst()) {
                var style = run.style
                style.color = colors.color(atByte: offset + start)
                if let background = colors.background(atByte: offset + start) { style.background = background }
                expanded.runs.append(StyledRun(String(decoding: bytes[start..<end], as: UTF8.self), style: style))
            }
            offset += bytes.count
        }
        return expanded
    }
}

extension TokenColors {
    /// The colour of the text's byte `byte`.
    public func color(atByte byte: Int) -> RGBAColor {
        colors[starts.stretchIndex(holding: byte)]
    }

    /// The background of the text's byte `byte`, nil for none.
    public func background(atByte byte: Int) -> RGBAColor? {
        Background.color(atByte: byte, in: backgrounds)
    }
}

extension TokenColors.Background {
    /// The colour of the stretch of `backgrounds` (in order, not overlapping) that holds the
    /// byte `byte`, nil for none: a binary search.
    public static func color(atByte byte: Int, in backgrounds: [TokenColors.Background]) -> RGBAColor? {
        var low = 0
        var high = backgrounds.count
        while low < high {
            let middle = (low + high) / 2
            if backgrounds[middle].bytes.upperBound <= byte { low = middle + 1 } else { high = middle }
        }
        guard low < backgrounds.count, backgrounds[low].bytes.contains(byte) else { return nil }
        return backgrounds[low].color
    }
}
