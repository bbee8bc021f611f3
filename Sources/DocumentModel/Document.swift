/// Inline content of a paragraph or heading: a tree of runs before styling.
public indirect enum Inline: Hashable, Sendable {
    /// Literal text.
    case text(String)
    /// A line ending inside a paragraph (rendered as a space).
    case softBreak
    /// A hard line break (two trailing spaces or a backslash).
    case lineBreak
    /// `*emphasis*`: set in the italic face.
    case emphasis([Inline])
    /// `**strong**`: set bolder.
    case strong([Inline])
    /// `~~struck~~` (GFM).
    case strikethrough([Inline])
    /// `` `code` ``: the theme's monospaced family.
    case code(String)
    /// A link (or autolink); `destination` as written, `#id` for a heading in the document.
    case link(destination: String, title: String, children: [Inline])
    /// An image; `source` as written (relative to the document's folder), `alt` its description.
    case image(source: String, title: String, alt: [Inline], location: SourceLocation?)
    /// A bracketed span `[text]{attributes}`; also the carrier of the attributes written after
    /// a link, image or code span (`[a](u){.x}` is a span holding the link), so those keep
    /// their own case.
    case span(Attributes, [Inline])
    /// A footnote reference; `number` is its number in order of first use (1-based).
    case footnoteReference(label: String, number: Int)
    /// Raw inline HTML: not rendered (the renderer warns).
    case rawHTML(String, location: SourceLocation?)
    /// A named destination inside running text (`<a id="x">` or `<a name="x">`): links to `#x`
    /// land here.
    case anchor(String)
    /// Text presented as an HTML element Markdown has no syntax for (`<sup>`, `<kbd>`, `<mark>`…).
    case presentation(InlinePresentation, [Inline])
    /// TeX math as written between dollars (`$…$`, `` $`…`$ ``) or, `display`, between `$$` or
    /// in a ```` ```math ```` block; `location` is where the formula starts in the source (its
    /// `$`, `$$` or fence), `sourceStart` where its TeX begins (after the delimiter and, for a
    /// display, the spaces and line breaks before its first character), from which its
    /// problems are placed; nil: just after the delimiter, on its line.
    case math(String, display: Bool, location: SourceLocation?, sourceStart: SourceLocation? = nil)

    /// The plain text of this inline and its children (alt text, slugs), a formula as its TeX
    /// source.
    public var plainText: String { plainText(writingFormulas: { $0 }) }

    /// The plain text of this inline and its children, each formula's TeX source written by
    /// `formula` (as Unicode text for a bookmark).
    public func plainText(writingFormulas formula: (String) -> String) -> String {
        switch self {
        case .text(let text), .code(let text): text
        case .softBreak, .lineBreak: " "
        case .emphasis(let children), .strong(let children), .strikethrough(let children), .span(_, let children),
            .presentation(_, let children):
            children.plainText(writingFormulas: formula)
        case .link(_, _, let children): children.plainText(writingFormulas: formula)
        case .image(_, _, let alt, _): alt.plainText(writingFormulas: formula)
        case .footnoteReference: ""
        case .rawHTML, .anchor: ""
        case .math(let source, _, _, _): formula(source)
        }
    }
}

extension Array where Element == Inline {
    /// The concatenated plain text of the inlines.
    public var plainText: String { map(\.plainText).joined() }

    /// The concatenated plain text of the inlines, each formula written by `formula`.
    public func plainText(writingFormulas formula: (String) -> String) -> String {
        map { $0.plainText(writingFormulas: formula) }.joined()
    }
}

/// Column alignment in a GFM table.
public enum ColumnAlignment: Hashable, Sendable { case none, left, center, right }

/// What a header cell heads (HTML's `scope`; PDF 1.7 §14.8.5.7, `/Scope`, whose names the raw
/// values are).
public enum HeaderScope: String, Hashable, Sendable {
    case column = "Column"
    case row = "Row"
    case both = "Both"
}

/// A cell's place in a ``Table``: `row` 0 is the header row, body rows count from 1.
public struct TableCellPlace: Hashable, Sendable {
    public var row: Int
    public var column: Int
    /// The cell in `row` (0: the header row) and `column`.
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// A GFM table: header cells, body rows, per-column alignment.
public struct Table: Hashable, Sendable {
    /// Alignment of each column, one entry per column.
    public var alignments: [ColumnAlignment]
    /// The header row: one inline list per cell.
    public var header: [[Inline]]
    /// The body rows, each a list of cells, each cell an inline list.
    public var rows: [[[Inline]]]
    /// The header cells that are not simply the header row's, heading their columns: an HTML
    /// `<th>` in a body row (heading its row, or what its `scope` says), a header-row cell with
    /// `scope="row"`. GFM tables have none.
    public var headerScopes: [TableCellPlace: HeaderScope] = [:]
    /// The caption (HTML's `<caption>`), set above the table; empty for none.
    public var caption: [Inline] = []
    /// Creates a table from its parts.
    public init(alignments: [ColumnAlignment], header: [[Inline]], rows: [[[Inline]]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }
}

/// One item of a list: its blocks and, for a GFM task list item, whether it is checked.
public struct ListItem: Hashable, Sendable {
    /// The item's content, in source order.
    public var blocks: [Block]
    /// nil for an ordinary item; true/false for `- [x]` / `- [ ]`.
    public var task: Bool?
    /// Creates an item; `task` nil for an ordinary item.
    public init(blocks: [Block], task: Bool? = nil) {
        self.blocks = blocks
        self.task = task
    }
}

/// A bullet or numbered list.
public struct ListBlock: Hashable, Sendable {
    /// True for a numbered list (`1.`), false for a bullet list (`-`, `*`, `+`).
    public var ordered: Bool
    /// The first number of an ordered list (CommonMark allows any start, e.g. `3.`).
    public var start: Int
    /// A tight list has no blank lines between items (less space between them).
    public var tight: Bool
    /// What follows an ordered list's numbers, as written: `.` (`1.`) or `)` (`1)`).
    public var delimiter: Character
    /// The items, in source order.
    public var items: [ListItem]
    /// True for an ordered list numbered downwards from ``start`` (HTML's `<ol reversed>`).
    public var reversed: Bool
    /// What an ordered list counts with: figures, letters, Roman numerals or Hangul.
    public var numbering: ListNumbering
    /// True when an ordered list's markers are between parentheses (Pandoc's `(a)`, `(iv)`);
    /// ``delimiter`` is then `)`.
    public var enclosed: Bool
    /// Creates a list from its parts.
    public init(
        ordered: Bool, start: Int = 1, tight: Bool = true, delimiter: Character = ".", items: [ListItem],
        reversed: Bool = false, numbering: ListNumbering = .decimal, enclosed: Bool = false
    ) {
        self.ordered = ordered
        self.start = start
        self.tight = tight
        self.delimiter = delimiter
        self.items = items
        self.reversed = reversed
        self.numbering = numbering
        self.enclosed = enclosed
    }

    /// The number of the item at `index` (from 0) of an ordered list: ``start`` plus `index`,
    /// or minus it when the list is ``reversed``.
    public func number(at index: Int) -> Int {
        reversed ? start &- index : start &+ index
    }

    /// The marker of the item at `index` (from 0) of an ordered list as it is set: its number
    /// in the list's ``numbering``, then the ``delimiter``, or between parentheses when
    /// ``enclosed`` (`3.`, `c)`, `(iii)`, `다.`).
    public func marker(at index: Int) -> String {
        let counter = numbering.counter(number(at: index))
        return enclosed ? "(\(counter))" : "\(counter)\(delimiter)"
    }
}

/// What an ordered list's items are counted with (Pandoc's manual, "Ordered lists", extension
/// `fancy_lists`; CSS Counter Styles Level 3, §6 and §7.1 for the letters, Roman numerals and
/// Hangul syllables).
public enum ListNumbering: String, Hashable, Sendable, CaseIterable {
    /// 1, 2, 3.
    case decimal
    /// a, b, … z, aa, ab (CSS `lower-alpha`).
    case lowerAlpha
    /// A, B, … Z, AA, AB (CSS `upper-alpha`).
    case upperAlpha
    /// i, ii, iii, iv (CSS `lower-roman`, 1 to 3,999).
    case lowerRoman
    /// I, II, III, IV (CSS `upper-roman`, 1 to 3,999).
    case upperRoman
    /// 가, 나, 다, … 하, 가가: the fourteen syllables Korean counts items with, in the order of
    /// the Hangul consonants (CSS `hangul`).
    case hangul

    /// The fourteen syllables of ``hangul``, in order.
    public static let hangulSyllables: [Character] = Array("가나다라마바사아자차카타파하")

    /// `number` written in this numbering; in figures when the numbering cannot write it (a
    /// number below 1 in letters, Roman numerals or Hangul, or above 3,999 in Roman numerals),
    /// as CSS falls back to decimal.
    public func counter(_ number: Int) -> String {
        switch self {
        case .decimal: String(number)
        case .lowerAlpha: Self.alphabetic(number, Array("abcdefghijklmnopqrstuvwxyz")) ?? String(number)
        case .upperAlpha: Self.alphabetic(number, Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) ?? String(number)
        case .lowerRoman: Self.roman(number)?.lowercased() ?? String(number)
        case .upperRoman: Self.roman(number) ?? String(number)
        case .hangul: Self.alphabetic(number, Self.hangulSyllables) ?? String(number)
        }
    }

    /// The number `counter` writes in this numbering (`c` is 3 in ``lowerAlpha``, `iv` 4 in
    /// ``lowerRoman``); nil when it is no counter of this numbering. Letters and Hangul are read
    /// one symbol at a time, as Pandoc reads list markers (`aa` is no marker).
    public func number(of counter: Substring) -> Int? {
        switch self {
        case .decimal: counter.allSatisfy(\.isASCII) ? Int(counter) : nil
        case .lowerAlpha: Self.alphabeticValue(counter, Array("abcdefghijklmnopqrstuvwxyz"))
        case .upperAlpha: Self.alphabeticValue(counter, Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        case .lowerRoman: counter.allSatisfy(\.isLowercase) ? Self.romanValue(counter.uppercased()) : nil
        case .upperRoman: counter.allSatisfy(\.isUppercase) ? Self.romanValue(String(counter)) : nil
        case .hangul: Self.alphabeticValue(counter, Self.hangulSyllables)
        }
    }

    /// CSS's alphabetic counter system: `number` in bijective base `symbols.count`.
    private static func alphabetic(_ number: Int, _ symbols: [Character]) -> String? {
        guard number >= 1 else { return nil }
        var rest = number
        var written: [Character] = []
        while rest > 0 {
            rest -= 1
            written.append(symbols[rest % symbols.count])
            rest /= symbols.count
        }
        return String(written.reversed())
    }

    /// The number an alphabetic counter of one symbol writes.
    private static func alphabeticValue(_ counter: Substring, _ symbols: [Character]) -> Int? {
        guard counter.count == 1, let first = counter.first, let index = symbols.firstIndex(of: first) else {
            return nil
        }
        return index + 1
    }

    /// `number` in upper-case Roman numerals, 1 to 3,999.
    private static func roman(_ number: Int) -> String? {
        guard (1...3999).contains(number) else { return nil }
        let values: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var rest = number
        var written = ""
        for (value, numeral) in values {
            while rest >= value {
                written += numeral
                rest -= value
            }
        }
        return written
    }

    /// The number upper-case Roman numerals write, when they are written in the usual form
    /// (`IIII` and `IC` are not).
    private static func romanValue(_ numeral: String) -> Int? {
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0
        var previous = 0
        for character in numeral.reversed() {
            guard let value = values[character] else { return nil }
            total += value < previous ? -value : value
            previous = max(previous, value)
        }
        return roman(total) == numeral ? total : nil
    }
}

/// One term of a definition list and its definitions (each a list of blocks).
public struct DefinitionItem: Hashable, Sendable {
    /// The term, one line of inline content.
    public var term: [Inline]
    /// The definitions, in source order; each holds its blocks.
    public var definitions: [[Block]]
    /// Creates an item.
    public init(term: [Inline], definitions: [[Block]]) {
        self.term = term
        self.definitions = definitions
    }
}

/// The five kinds of GitHub alert, in GitHub's order.
public enum AlertKind: String, Hashable, Sendable, CaseIterable {
    /// `[!NOTE]`: information the reader should notice even when skimming.
    case note
    /// `[!TIP]`: optional advice.
    case tip
    /// `[!IMPORTANT]`: information the reader needs to succeed.
    case important
    /// `[!WARNING]`: urgent information that needs attention to avoid problems.
    case warning
    /// `[!CAUTION]`: advice about the risks or negative outcomes of an action.
    case caution

    /// The label GitHub shows above the alert: `Note`, `Tip`, `Important`, `Warning`, `Caution`.
    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The label in the document's language (a BCP 47 tag): Korean (`ko`) as GitHub's Korean
    /// documentation labels its alerts — 참고, 팁, 중요, 경고, 주의 — else ``label``.
    public func label(language: String?) -> String {
        guard language?.lowercased().hasPrefix("ko") == true else { return label }
        switch self {
        case .note: return "참고"
        case .tip: return "팁"
        case .important: return "중요"
        case .warning: return "경고"
        case .caution: return "주의"
        }
    }

    /// The kind of alert a div's class names as an admonition of another dialect: the five
    /// kinds themselves, as Pandoc's `alerts` extension makes them divs of these classes;
    /// Quarto's callouts (`callout-note` … `callout-caution`); and the admonitions of MkDocs,
    /// Docusaurus, VitePress and reStructuredText by their nearest kind — `info` a note, `hint`
    /// and `success` a tip, `attention` a warning, `danger`, `error`, `failure` and `bug` a
    /// caution. ASCII case ignored; nil for any other class.
    public init?(admonition name: String) {
        var name = name.lowercased()
        if name.hasPrefix("callout-") { name.removeFirst("callout-".count) }
        switch name {
        case "note", "info": self = .note
        case "tip", "hint", "success": self = .tip
        case "important": self = .important
        case "warning", "attention": self = .warning
        case "caution", "danger", "error", "failure", "bug": self = .caution
        default: return nil
        }
    }

    /// The kind written `[!NAME]` on an alert's first line (ASCII case ignored, as GitHub does).
    public init?(marker: String) {
        guard marker.hasPrefix("[!"), marker.hasSuffix("]"), marker.count > 3 else { return nil }
        self.init(rawValue: String(marker.dropFirst(2).dropLast()).lowercased())
    }
}

/// A block of the document with its attributes and where it starts in the source.
public struct Block: Hashable, Sendable {
    /// What kind of block this is and its content (heading levels are 1…6).
    public indirect enum Kind: Hashable, Sendable {
        /// A paragraph of inline content.
        case paragraph([Inline])
        /// An ATX or setext heading, `level` 1–6.
        case heading(level: Int, [Inline])
        /// A bullet, numbered or task list.
        case list(ListBlock)
        /// `> quoted` blocks.
        case blockQuote([Block])
        /// A GitHub alert: a quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
        /// `[!WARNING]` or `[!CAUTION]` (GitHub Docs, "Basic writing and formatting syntax",
        /// Alerts); the blocks are the quote's content without that line.
        case alert(AlertKind, [Block])
        /// A Pandoc definition list (Pandoc manual, "Definition lists"): terms, each with its
        /// definitions.
        case definitionList([DefinitionItem])
        /// A fenced or indented code block; `info` is the fence's info string (language).
        case codeBlock(info: String, text: String)
        /// `---`: a rule across the measure.
        case thematicBreak
        /// A GFM table.
        case table(Table)
        /// A Pandoc fenced div `::: {attributes}` … `:::`.
        case div([Block])
        /// A raw HTML block: not rendered (the renderer shows its text or skips it, and warns).
        case html(String)
        /// `\newpage` alone on a line.
        case pageBreak
    }

    /// What the block is and what it contains.
    public var kind: Kind
    /// Pandoc attributes on a heading or fenced div (`{#id .class key=value}`); ``Attributes/none`` otherwise.
    public var attributes: Attributes
    /// Where the block starts in the source; nil when unknown.
    public var location: SourceLocation?

    /// The class that makes a ``Kind/pageBreak`` open a right-hand page (a book's chapters with
    /// `open-right`): the page after it has an odd number.
    public static let rightHandPageClass = "open-right"

    /// Creates a block of `kind`, with no attributes and no location by default.
    public init(_ kind: Kind, attributes: Attributes = .none, location: SourceLocation? = nil) {
        self.kind = kind
        self.attributes = attributes
        self.location = location
    }

    /// The block a sequence of top-level blocks opens with: the first that is no page break (a
    /// book whose chapters open on right-hand pages starts with one before its first chapter),
    /// with its index; nil when there is none. The title block and section numbers look there
    /// for a heading that is the document's title.
    public static func opening(of blocks: some Sequence<Block>) -> (index: Int, block: Block)? {
        for (index, block) in blocks.enumerated() {
            if case .pageBreak = block.kind { continue }
            return (index, block)
        }
        return nil
    }
}

/// Where a front matter value's text stands in its file: the place of its first character,
/// and whether its lines are the file's lines (a literal block, `key: |`, each line indented as
/// its first) or it is one line as written (a plain value).
public struct FrontMatterValuePlace: Hashable, Sendable {
    /// The value's first character: its file, line and UTF-8 byte column.
    public var start: SourceLocation
    /// True for a literal block, whose lines follow one another in the file.
    public var isBlock: Bool

    /// A value whose first character is at `start`, a literal block when `isBlock`.
    public init(start: SourceLocation, isBlock: Bool) {
        self.start = start
        self.isBlock = isBlock
    }

    /// The place in the file of line `line`, UTF-8 byte column `column` (both 1-based) of the
    /// value's text; nil past a one-line value's first line.
    public func location(line: Int, column: Int) -> SourceLocation? {
        guard line >= 1, isBlock || line == 1 else { return nil }
        return SourceLocation(file: start.file, line: start.line + line - 1, column: start.column + column - 1)
    }
}

/// Document-level settings from YAML front matter (Pandoc/Quarto keys). nil: not given.
public struct Metadata: Hashable, Sendable {
    /// `title:`; the PDF Title and the running text's `{title}`.
    public var title: String?
    /// `subtitle:`; written as the PDF Subject.
    public var subtitle: String?
    /// `author:`; several authors (a list, or `name:` entries) joined with `, `; the PDF Author.
    public var author: String?
    /// `date:` as written; the running text's `{date}`.
    public var date: String?
    /// `lang:` as written (e.g. `ko`); picks the table of contents' title (`목차` for Korean).
    public var lang: String?
    /// `keywords:` (a YAML list or comma-separated text), trimmed; the PDF Keywords. Empty when not given.
    public var keywords: [String]
    /// Any other key, as written (theme, paper, margins, header, footer, toc, …), for the
    /// stages that read them.
    public var fields: [String: String]
    /// Where each of ``fields`` was written (its key), for diagnostics about its value.
    public var fieldLocations: [String: SourceLocation] = [:]
    /// Where the text of each of `title`, `subtitle`, `author`, `date` and `abstract` stands,
    /// when its lines are the file's (a plain value on one line, or a literal block), so that a
    /// problem inside the value is placed where it is written.
    public var fieldValuePlaces: [String: FrontMatterValuePlace] = [:]
    /// Keys Typeset does not read (Jekyll's `layout`, Hugo's `tags`…), as written and in source
    /// order: kept silent, listed by `--verbose`.
    public var unusedKeys: [String] = []
    /// `include:` (or `chapters:`): the Markdown files that follow this one in a book, as
    /// written (relative to this file's folder), each with where it is written. Empty when not given.
    public var includes: [IncludedFile] = []
    /// Creates metadata from its parts (nothing given by default).
    public init(
        title: String? = nil, subtitle: String? = nil, author: String? = nil, date: String? = nil,
        lang: String? = nil, keywords: [String] = [], fields: [String: String] = [:]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.author = author
        self.date = date
        self.lang = lang
        self.keywords = keywords
        self.fields = fields
    }
}

/// One file named by a front-matter `include:` list: its path as written and where.
public struct IncludedFile: Hashable, Sendable {
    /// The path as written, relative to the including file's folder unless absolute.
    public var path: String
    /// Where the path is written in the front matter.
    public var location: SourceLocation
    /// Creates an entry.
    public init(path: String, location: SourceLocation) {
        self.path = path
        self.location = location
    }
}

/// A parsed document: pure values, each block knowing where it came from.
///
/// A parsed document makes its top-level blocks on demand from the
/// parser's text (``ElementList``): each pass over ``blocks`` parses and converts a window of
/// blocks at a time and drops it after, so memory holds the text, not the document's tree.
public struct Document: Hashable, Sendable {
    /// Top-level blocks, in source order; held, or made one at a time as they are read.
    public var blocks: BlockList
    /// Front matter; empty when the document has none.
    public var metadata: Metadata
    /// The language the text is written in, read from its letters by the parser (`ko` for
    /// Hangul, `ja` for kana); nil when they do not say, and for a document built in code. A
    /// render takes it for a document whose metadata names no `lang`.
    public var textLanguage: String?
    /// Footnote definitions by number (1-based, order of first reference).
    public var footnotes: [Int: [Block]]
    /// The source file name used in diagnostics (`-` for standard input).
    public var file: String
    /// The text the document was parsed from, for diagnostics that name the line and column of
    /// a character (empty for a document built in code; not part of the document's value).
    public var source = SourcePositions()

    /// Creates a document from its parts; `file` defaults to `-` (standard input).
    public init(blocks: [Block], metadata: Metadata = Metadata(), footnotes: [Int: [Block]] = [:], file: String = "-") {
        self.blocks = BlockList(blocks)
        self.metadata = metadata
        self.footnotes = footnotes
        self.file = file
    }
    /// Frees what a parsed document keeps between reads of its blocks (the last window made)
    /// and lets its source text leave memory (``SourceBytes/setAside()``; a parser sets a
    /// source of 1 MiB or more aside in a temporary file): for a renderer that has read its
    /// last pass. Reading the blocks or the positions again reads the text back; the
    /// document's value does not change.
    public func releaseSource() {
        blocks.releaseSource()
        source.setAside()
    }

    /// Creates a document whose top-level blocks are held or made on demand (a parser's).
    public init(
        blockList: BlockList, metadata: Metadata = Metadata(), footnotes: [Int: [Block]] = [:], file: String = "-"
    ) {
        self.blocks = blockList
        self.metadata = metadata
        self.footnotes = footnotes
        self.file = file
    }
}
