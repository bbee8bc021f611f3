import DocumentModel
import Foundation
import Typography

/// A face request: family fallback list, weight, italic and size (pt). What the shaper turns
/// into a font description.
public struct FontSpec: Hashable, Sendable {
    /// Family names in fallback order; the first is the primary face.
    public var families: [String]
    /// Weight on the OpenType/CSS scale.
    public var weight: FontWeight
    /// Request an italic face.
    public var italic: Bool
    /// Em size in pt.
    public var size: Double
    /// Creates a request: regular, upright by default; `size` in pt.
    public init(families: [String], weight: FontWeight = .regular, italic: Bool = false, size: Double) {
        self.families = families
        self.weight = weight
        self.italic = italic
        self.size = size
    }
}

/// Small-capital forms (Apple `lowercaseSmallCaps()`, `uppercaseSmallCaps()`, `smallCaps()`;
/// OpenType `smcp`, `c2sc`, both).
public enum SmallCaps: Hashable, Sendable { case none, lowercase, uppercase, all }

/// Outline text: the glyph outlines stroked under the fill (a stroke layer under the fill layer, as design tools draw
/// outside strokes).
public struct Stroke: Hashable, Sendable {
    /// Colour of the stroke.
    public var color: RGBAColor
    /// Line width in pt; half of it shows outside the fill.
    public var width: Double
    /// Creates a stroke of `color`, `width` pt wide.
    public init(color: RGBAColor, width: Double) {
        self.color = color
        self.width = width
    }
}

/// Where a link goes: a URI, or a named destination in the document (a heading id).
public enum LinkTarget: Hashable, Sendable {
    /// A URI (percent-encoded when written to the PDF).
    case external(String)
    /// A heading id or footnote (`fn-N`) in this document.
    case `internal`(String)
}

/// A fully resolved run style: every value the shaper and renderer need, nothing inherited.
///
/// A run style is two words and a link: its appearance (face, colour, decorations, features,
/// language) lives in one shared, immutable ``RunAppearance`` box, so the runs of a paragraph
/// with a few distinct looks share a few boxes (the styler hands out one box for each distinct
/// appearance, ``AppearanceTable``), and only the link, which differs from run to run, is
/// stored in the run. Setting a property copies the appearance into a new box (copy on write).
public struct RunStyle: Hashable, Sendable {
    /// The shared appearance: every setting but the link.
    public private(set) var appearance: RunAppearance
    /// Where the run links to, nil for none.
    public var link: LinkTarget?

    /// Creates a run style; everything but `font` defaults to plain black text.
    public init(
        font: FontSpec, letterSpacing: Double = 0, features: [String] = [], smallCaps: SmallCaps = .none,
        color: RGBAColor = .black, underline: RGBAColor? = nil, strikethrough: RGBAColor? = nil,
        baselineOffset: Double = 0, stroke: Stroke? = nil, background: RGBAColor? = nil, link: LinkTarget? = nil
    ) {
        let values = RunAppearance.Values(
            font: font, letterSpacing: letterSpacing, features: features, smallCaps: smallCaps, color: color,
            underline: underline, strikethrough: strikethrough, baselineOffset: baselineOffset, stroke: stroke,
            background: background)
        appearance = RunAppearance(values)
        self.link = link
    }

    /// Creates a run style from a shared appearance and a link.
    public init(appearance: RunAppearance, link: LinkTarget? = nil) {
        self.appearance = appearance
        self.link = link
    }

    /// Replaces one appearance setting: a new box, leaving every run that shares the old one as it is.
    private mutating func update<Value>(_ path: WritableKeyPath<RunAppearance.Values, Value>, to value: Value) {
        var values = appearance.values
        values[keyPath: path] = value
        appearance = RunAppearance(values)
    }

    /// The face the run is set in.
    public var font: FontSpec {
        get { appearance.values.font }
        set { update(\.font, to: newValue) }
    }
    /// Space added between characters, pt (tracking, or kerning when no tracking). 0 adds
    /// nothing and emits no letter-spacing attribute.
    public var letterSpacing: Double {
        get { appearance.values.letterSpacing }
        set { update(\.letterSpacing, to: newValue) }
    }
    /// OpenType features, e.g. `["tnum", "ss01"]` or `["liga=0"]`.
    public var features: [String] {
        get { appearance.values.features }
        set { update(\.features, to: newValue) }
    }
    /// Small-capital forms, ``SmallCaps/none`` for none.
    public var smallCaps: SmallCaps {
        get { appearance.values.smallCaps }
        set { update(\.smallCaps, to: newValue) }
    }
    /// Colour of the glyphs' fill.
    public var color: RGBAColor {
        get { appearance.values.color }
        set { update(\.color, to: newValue) }
    }
    /// Underline colour, nil for none.
    public var underline: RGBAColor? {
        get { appearance.values.underline }
        set { update(\.underline, to: newValue) }
    }
    /// Strikethrough colour, nil for none.
    public var strikethrough: RGBAColor? {
        get { appearance.values.strikethrough }
        set { update(\.strikethrough, to: newValue) }
    }
    /// Baseline shift in pt; positive raises (Apple `baselineOffset`).
    public var baselineOffset: Double {
        get { appearance.values.baselineOffset }
        set { update(\.baselineOffset, to: newValue) }
    }
    /// Glyph outlines stroked under the fill, nil for none.
    public var stroke: Stroke? {
        get { appearance.values.stroke }
        set { update(\.stroke, to: newValue) }
    }
    /// Background behind the run's glyphs (inline code), nil for none.
    public var background: RGBAColor? {
        get { appearance.values.background }
        set { update(\.background, to: newValue) }
    }
    /// Code (inline code): its spaces never stretch or shrink and it is never hyphenated.
    public var isCode: Bool {
        get { appearance.values.isCode }
        set { update(\.isCode, to: newValue) }
    }
    /// BCP 47 language of the text (`en`, `de-CH`, `ko`), nil for the document's default
    /// (English for Latin text): chooses the hyphenation patterns.
    public var language: String? {
        get { appearance.values.language }
        set { update(\.language, to: newValue) }
    }
    /// The language (BCP 47) of the span the run is in when that is not the language its block
    /// reads in (`He said [bonjour]{lang=fr}.`): the run is tagged as a `Span` carrying `/Lang`
    /// inside the block's element (PDF/UA-1 ISO 14289-1 §7.2, ISO 32000-1 §14.9.2); nil
    /// elsewhere.
    public var spanLanguage: String? {
        get { appearance.values.spanLanguage }
        set { update(\.spanLanguage, to: newValue) }
    }
    /// Whether the run's weight was asked for by an attribute (`weight=900`, `bold=true`, with
    /// any strong emphasis inside it), not by its role or the strong emphasis on the role's
    /// weight alone: the font check warns about a weight a family lacks only when asked.
    public var weightAsked: Bool {
        get { appearance.values.weightAsked }
        set { update(\.weightAsked, to: newValue) }
    }
    /// Hyphenate this run's words: true, false, or nil for automatic (hyphenate justified
    /// paragraphs only, as Typst's `hyphenate: auto`).
    public var hyphenate: Bool? {
        get { appearance.values.hyphenate }
        set { update(\.hyphenate, to: newValue) }
    }
    /// The picture this run stands for (its text is one U+FFFC), nil for text.
    public var inlineImage: InlineImage? {
        get { appearance.values.inlineImage }
        set { update(\.inlineImage, to: newValue) }
    }
    /// The formula this run stands for (its text is one U+FFFC), nil for text.
    public var inlineFormula: InlineFormula? {
        get { appearance.values.inlineFormula }
        set { update(\.inlineFormula, to: newValue) }
    }
}

/// Every setting of a run style but its link, in one immutable shared box: runs that look alike
/// hold the same box (one pointer each) instead of some 400 bytes of settings each. Two boxes
/// are equal when their settings are.
public final class RunAppearance: Hashable, Sendable {
    /// The settings themselves (see ``RunStyle`` for what each means).
    public struct Values: Hashable, Sendable {
        var font: FontSpec
        var letterSpacing: Double
        var features: [String]
        var smallCaps: SmallCaps
        var color: RGBAColor
        var underline: RGBAColor?
        var strikethrough: RGBAColor?
        var baselineOffset: Double
        var stroke: Stroke?
        var background: RGBAColor?
        var isCode = false
        var language: String? = nil
        var spanLanguage: String? = nil
        var hyphenate: Bool? = nil
        var weightAsked = false
        var inlineImage: InlineImage? = nil
        var inlineFormula: InlineFormula? = nil
    }

    /// The settings.
    public let values: Values
    /// `values.hashValue`, computed once: runs are compared and hashed far more often than made.
    private let valuesHash: Int

    /// Boxes `values`.
    public init(_ values: Values) {
        self.values = values
        valuesHash = values.hashValue
    }

    /// Same settings (the same box, or boxes holding equal settings).
    public static func == (left: RunAppearance, right: RunAppearance) -> Bool {
        left === right || (left.valuesHash == right.valuesHash && left.values == right.values)
    }

    /// Hashes the settings.
    public func hash(into hasher: inout Hasher) { hasher.combine(valuesHash) }
}

/// One shared ``RunAppearance`` box for each distinct appearance: a styler hands every run that
/// looks the same the same box, so a paragraph of 100,000 runs in two looks holds two boxes.
public struct AppearanceTable: Sendable {
    private var boxes: Set<RunAppearance> = []

    /// An empty table.
    public init() {}

    /// The boxes handed out last, most recent first (at most ``recentCount``): a run mostly
    /// looks like one of the few runs before it (a paragraph's text between emphasis spans,
    /// links or footnote markers), and comparing settings with theirs costs a fraction of
    /// hashing them into a new box and looking that up.
    private var recent: [RunAppearance] = []
    private static let recentCount = 4

    /// `style` with its appearance replaced by the table's equal box (the first one seen).
    public mutating func shared(_ style: RunStyle) -> RunStyle {
        let box = sharedBox(style.appearance)
        return box === style.appearance ? style : RunStyle(appearance: box, link: style.link)
    }

    /// The run style `cascade` resolves to (``Cascade/runStyle``), its appearance the table's
    /// box: one of the boxes handed out last when its settings are equal, without making a box.
    mutating func style(for cascade: Cascade) -> RunStyle {
        let values = cascade.appearanceValues
        if let box = recent.first(where: { $0.values == values }) {
            return RunStyle(appearance: box, link: cascade.link)
        }
        return RunStyle(appearance: sharedBox(RunAppearance(values)), link: cascade.link)
    }

    /// The table's box equal to `appearance` (`appearance` itself when it is the first),
    /// remembered as the most recent. A formula's appearance belongs to one occurrence (it
    /// holds the formula's source and parsed nodes): it is handed back as it is and never
    /// held, so that the table, which lives as long as the document's styling, stays as small
    /// as the document's distinct looks, not as large as its formulas.
    private mutating func sharedBox(_ appearance: RunAppearance) -> RunAppearance {
        if appearance.values.inlineFormula != nil { return appearance }
        let box = boxes.insert(appearance).memberAfterInsert
        if let index = recent.firstIndex(where: { $0 === box }) { recent.remove(at: index) }
        recent.insert(box, at: 0)
        if recent.count > Self.recentCount { recent.removeLast() }
        return box
    }

    /// The number of distinct appearances held.
    public var count: Int { boxes.count }
}

/// A run of text in one style (Apple: one segment of a concatenated `Text`).
public struct StyledRun: Hashable, Sendable {
    /// The text of the run.
    public var text: String
    /// How the run is set.
    public var style: RunStyle
    /// Creates a run of `text` in `style`.
    public init(_ text: String, style: RunStyle) {
        self.text = text
        self.style = style
    }
}

/// Horizontal alignment of a paragraph's lines.
public enum TextAlignment: String, Hashable, Sendable { case left, center, right, justify }

/// Where lines may break in Hangul text.
public enum HangulLineBreak: Hashable, Sendable {
    /// Words (eojeol) kept whole, but in justified text a word may break between two of its
    /// Hangul syllables as a last resort, where every break between words would leave a very
    /// loose line (W3C KLREQ, "Line Breaking Rules": a line of Hangul breaks by word or by
    /// character). The default.
    case auto
    /// Break only between words (eojeol), justified text too — CSS `word-break: keep-all`; a
    /// word longer than the measure still breaks so nothing overflows.
    case keepAll
    /// Break between any two syllables (Pango's default).
    case anywhere

    /// Whether Hangul words are kept whole (``auto`` and ``keepAll``).
    public var keepsWords: Bool { self != .anywhere }
}

/// A paragraph's settings: the line-height rule and the face it is measured on, alignment,
/// indents, wrapping.
public struct ParagraphStyle: Hashable, Sendable {
    /// The block's face: its natural height (ascent + descent) is what a `.multiple` line height
    /// multiplies, and its metrics are the minimum a line box holds.
    public var baseFont: FontSpec
    /// nil: natural height (× 1).
    public var lineHeight: LineHeight?
    /// Added to the step, pt: −2 for `leading=tight`, +2 for `loose` (Apple `Font.Leading`).
    public var leadingAdjustment: Double
    /// How lines sit within the measure less the indents.
    public var alignment: TextAlignment
    /// Whether ``alignment``'s `.left` and `.justify` set a right-to-left line at its start
    /// edge, the right (CSS `text-align: start`), as running text is set; false keeps every
    /// line at the left edge (CSS `text-align: left`), as a contents entry whose page number
    /// stands at the right.
    public var leftIsStart = true
    /// Indent of every line from the left of the text area, pt.
    public var leftIndent: Double
    /// Indent from the right of the text area, pt.
    public var rightIndent: Double
    /// Where Hangul lines may break.
    public var hangulLineBreak: HangulLineBreak
    /// Break anywhere (code): lines break between any characters when a word does not fit.
    public var breakAnywhere: Bool
    /// Lines that continue a wrapped line start this far (pt) right of the first (Pango's
    /// negative `indent`): code blocks set it to make room for a continuation mark.
    public var hangingIndent: Double = 0
    /// Draw typographic guides (baseline, x-height, cap height, ascent, descent, half-leading
    /// bands) over each line — specimen sheets.
    public var guides: Bool
    /// Character protrusion (optical margin alignment) in justified text: a
    /// line's first and last characters stand out into the margins by part of their width
    /// (microtype's default protrusion set: hyphens, dashes, quotes, periods, commas, and
    /// letters with open sides such as A, T, V, W, Y), so the edges look straight.
    public var hangingPunctuation: Bool = true
    /// Font expansion of justified lines (hz, as pdfTeX's): each line's glyphs may be widened
    /// or narrowed horizontally by up to this fraction of their width (0.02: ±2 %), in steps of
    /// ``ParagraphStyle/fontExpansionStep``, so the line breaker finds lines with more even
    /// word spaces. 0 turns it off.
    public var fontExpansion: Double = 0
    /// Lines of even length (CSS Text 4 `text-wrap: balance`, InDesign's Balance Ragged Lines),
    /// for headings: a ragged paragraph of two lines or more is broken at the narrowest measure
    /// that sets it in as many lines, so no heading ends with a word alone on its last line.
    public var balancesLines = false
    /// The step a line's expansion is rounded to (0.005: 0.5 %, microtype's `step=5`).
    public static let fontExpansionStep = 0.005

    /// Creates paragraph settings (pt for lengths): natural line height, left-aligned, no indents, keep-all by default.
    public init(
        baseFont: FontSpec, lineHeight: LineHeight? = nil, leadingAdjustment: Double = 0,
        alignment: TextAlignment = .left,
        leftIndent: Double = 0, rightIndent: Double = 0, hangulLineBreak: HangulLineBreak = .auto,
        breakAnywhere: Bool = false, guides: Bool = false
    ) {
        self.baseFont = baseFont
        self.lineHeight = lineHeight
        self.leadingAdjustment = leadingAdjustment
        self.alignment = alignment
        self.leftIndent = leftIndent
        self.rightIndent = rightIndent
        self.hangulLineBreak = hangulLineBreak
        self.breakAnywhere = breakAnywhere
        self.guides = guides
    }
}

/// A paragraph ready to shape: runs, paragraph settings, and an optional hanging marker
/// (a list bullet or number) set to the left of the first line.
public struct StyledParagraph: Hashable, Sendable {
    /// The paragraph's text, in runs.
    public var runs: [StyledRun]
    /// Line height, alignment, indents and wrapping.
    public var style: ParagraphStyle
    /// Set flush right against the paragraph's left indent, on the first line's baseline.
    public var marker: [StyledRun]?
    /// The colours of a highlighted code block's tokens, painted over its glyphs, whose runs
    /// are then one run in the block's plain style (``TokenColors``); nil for none.
    public var tokenColors: TokenColors?
    /// Creates a paragraph from its runs and settings, with no marker by default.
    public init(
        runs: [StyledRun], style: ParagraphStyle, marker: [StyledRun]? = nil, tokenColors: TokenColors? = nil
    ) {
        self.runs = runs
        self.style = style
        self.marker = marker
        self.tokenColors = tokenColors
    }
    /// The paragraph's text (all runs).
    public var text: String { runs.map(\.text).joined() }
}

/// A table ready to lay out: cells are paragraphs; the header row repeats on continued pages.
public struct StyledTable: Hashable, Sendable {
    /// Alignment of each column, one entry per column.
    public var alignments: [ColumnAlignment]
    /// The header row: one paragraph per cell.
    public var header: [StyledParagraph]
    /// The body rows, each one paragraph per cell, stored compactly (see ``StyledTableRows``).
    public var rows: StyledTableRows
    /// Colour of the horizontal rules (booktabs-style: top, below the header, bottom).
    public var ruleColor: RGBAColor
    /// Padding inside each cell, pt.
    public var cellPadding: Double
    /// Indent from the left of the text area (a table inside a list or quote), pt.
    public var leftIndent: Double = 0
    /// The header cells that are not simply the header row's (``Table/headerScopes``): an HTML
    /// `<th>` in a body row is set as a header cell and tagged `TH` with its scope.
    public var headerScopes: [TableCellPlace: HeaderScope] = [:]
    /// The caption (HTML's `<caption>`), set above the table and tagged as the `Table`'s
    /// `Caption`; nil for none.
    public var caption: StyledParagraph?
    /// The smallest size its text may be set at, pt, when the table is too wide for the
    /// measure: it is set smaller down to this size before its columns are split into parts
    /// (the theme's Caption2 size, never below 6 pt).
    public var smallestTextSize: Double = 6
    /// Creates a table from its parts (`cellPadding` in pt), not indented.
    public init(
        alignments: [ColumnAlignment], header: [StyledParagraph], rows: StyledTableRows,
        ruleColor: RGBAColor, cellPadding: Double
    ) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
        self.ruleColor = ruleColor
        self.cellPadding = cellPadding
    }
    /// Creates a table from rows given as arrays of paragraphs (`cellPadding` in pt), not indented.
    public init(
        alignments: [ColumnAlignment], header: [StyledParagraph], rows: [[StyledParagraph]],
        ruleColor: RGBAColor, cellPadding: Double
    ) {
        self.init(
            alignments: alignments, header: header, rows: StyledTableRows(rows), ruleColor: ruleColor,
            cellPadding: cellPadding)
    }
}

/// A heading's entry in the PDF outline (bookmarks).
public struct OutlineEntry: Hashable, Sendable {
    /// The heading's plain text, as the bookmark shows it.
    public var title: String
    /// 1 for h1 …
    public var level: Int
    /// The heading's styled runs, so a table of contents can keep its inline formatting (code,
    /// emphasis, strikethrough); empty when unknown. Bookmarks use ``title``.
    public var runs: [StyledRun] = []
    /// Whether a table of contents lists the heading: false for Pandoc's class `unlisted`
    /// (the PDF outline still holds it).
    public var listed = true
    /// Creates an entry for a heading of `level` (1 for h1).
    public init(title: String, level: Int) {
        self.title = title
        self.level = level
    }
}

/// One block ready for layout, flattened: lists and quotes have become indents, markers and bars.
public struct StyledBlock: Hashable, Sendable {
    /// What a block draws.
    public enum Content: Hashable, Sendable {
        /// A paragraph, heading, list item or code block: lines on its baseline grid.
        case paragraph(StyledParagraph)
        /// A table: rows as unbreakable items, header repeated on continued pages.
        case table(StyledTable)
        /// A thematic break: a horizontal rule across the measure less its indents (pt from the
        /// text area's left and right: a rule in a list item, quote or div).
        case rule(color: RGBAColor, thickness: Double, leftIndent: Double = 0, rightIndent: Double = 0)
        /// A figure: an image scaled to the measure, or a placeholder.
        indirect case image(StyledImage)
        /// A line of text with a second text set flush right on its last line, joined by a dot
        /// leader: a table-of-contents entry and its page number.
        indirect case entry(StyledParagraph, trailing: StyledParagraph)
        /// `\newpage`: the next block starts a page.
        case pageBreak
    }
    /// What the block draws.
    public var content: Content
    /// Space above and below, pt. Adjacent spaces collapse to the larger (CSS margin collapsing);
    /// space at the top of a page is discarded.
    public var spaceBefore: Double
    /// Space below, pt (see ``spaceBefore``).
    public var spaceAfter: Double
    /// A heading: never the last thing on a page; it moves with the first lines of what follows.
    public var keepWithNext: Bool
    /// Keep the block whole on one page when it fits (images, short code blocks).
    public var keepTogether: Bool
    /// A code block: widened into the margins, then set smaller (down to
    /// ``CodeBlockRules/smallestScale``) when a line is wider than the measure; kept whole up to
    /// ``CodeBlockRules/keptWholeLines`` lines, otherwise split
    /// with at least ``CodeBlockRules/linesAtSplit`` lines on each side and a `(continued)` cue.
    public var isCode: Bool = false
    /// x positions (from the text area's left, pt) of block-quote bars drawn beside the block.
    public var quoteBars: [Double]
    /// Colour of the quote bars.
    public var quoteBarColor: RGBAColor
    /// Named destination for internal links (`#id`).
    public var anchor: String?
    /// Where the block starts in the source, for diagnostics; nil when unknown.
    public var location: SourceLocation?
    /// The settings most blocks leave unset, in one shared box (nil when all are unset): a
    /// block of a list of 100,000 items holds one pointer for them.
    private var rare: RareSettings.Box?

    /// The settings of a block that most blocks leave unset (see the properties of the same names).
    struct RareSettings: Hashable, Sendable {
        var background: RGBAColor?
        var backgroundPadding: Double = 0
        var extraAnchors: [String] = []
        var outline: OutlineEntry?
        var footnotes: [Int: [StyledBlock]] = [:]
        var footnoteLocations: [Int: SourceLocation] = [:]
        var hangingMarkers: [HangingMarker] = []
        var opensRightHandPage = false
        var keepWithPrevious = false
        var codeLineNumbers: CodeLineNumbers?
        var codeSource: String?
        var quoteBarColors: [Int: RGBAColor] = [:]
        var quoteBarOwners: [Int] = []

        /// Immutable storage of the settings; a change makes a new box (copy on write).
        final class Box: Hashable, Sendable {
            let settings: RareSettings
            init(_ settings: RareSettings) { self.settings = settings }
            static func == (left: Box, right: Box) -> Bool { left === right || left.settings == right.settings }
            func hash(into hasher: inout Hasher) { hasher.combine(settings) }
        }
    }

    /// The rarely set settings, as a value.
    private var rareSettings: RareSettings {
        get { rare?.settings ?? RareSettings() }
        set { rare = newValue == RareSettings() ? nil : RareSettings.Box(newValue) }
    }

    /// A panel behind the block's lines (code blocks), with its padding in pt.
    public var background: RGBAColor? {
        get { rare?.settings.background }
        set { rareSettings.background = newValue }
    }
    /// Padding between the block's lines and the edge of ``background``, pt.
    public var backgroundPadding: Double {
        get { rare?.settings.backgroundPadding ?? 0 }
        set { rareSettings.backgroundPadding = newValue }
    }
    /// Further named destinations at the block's top: the `#id`s of spans inside the block and
    /// of divs that start with it (Pandoc: every element's identifier is a link target).
    public var extraAnchors: [String] {
        get { rare?.settings.extraAnchors ?? [] }
        set { rareSettings.extraAnchors = newValue }
    }
    /// The colours of single quote bars that differ from ``quoteBarColor``, by their index in
    /// ``quoteBars``: a GitHub alert's own bar inside a quote, whose bars keep their colour.
    public var quoteBarColors: [Int: RGBAColor] {
        get { rare?.settings.quoteBarColors ?? [:] }
        set { rareSettings.quoteBarColors = newValue }
    }
    /// The structure ids of the quotes and alerts each of ``quoteBars`` belongs to, outermost
    /// first, for a block whose ``structure`` does not name them (a thematic break, an
    /// artifact): so that a quote's bar runs on beside a rule inside it.
    public var quoteBarOwners: [Int] {
        get { rare?.settings.quoteBarOwners ?? [] }
        set { rareSettings.quoteBarOwners = newValue }
    }
    /// The colour each of ``quoteBars`` is drawn in.
    public var colorsOfQuoteBars: [RGBAColor] {
        let colors = quoteBarColors
        return quoteBars.indices.map { colors[$0] ?? quoteBarColor }
    }
    /// On a ``Content/pageBreak``: what follows starts on a right-hand page (an odd page number,
    /// a book chapter's opening as LaTeX's `openright`), after a blank left-hand page when the
    /// break would otherwise land on one.
    public var opensRightHandPage: Bool {
        get { rare?.settings.opensRightHandPage ?? false }
        set { rareSettings.opensRightHandPage = newValue }
    }
    /// A displayed formula: never the first thing on a page after the line that introduces
    /// it; that line moves to the next page with it.
    public var keepWithPrevious: Bool {
        get { rare?.settings.keepWithPrevious ?? false }
        set { rareSettings.keepWithPrevious = newValue }
    }
    /// The PDF outline (bookmark) entry the block starts, nil for none (headings have one).
    public var outline: OutlineEntry? {
        get { rare?.settings.outline }
        set { rareSettings.outline = newValue }
    }
    /// Footnotes referenced in this block, by number: set at the foot of the page where the
    /// line holding the reference lands (the reference is a run linking to `fn-<number>`).
    /// A note's blocks are paragraphs (its text, list items, code lines, quoted paragraphs),
    /// each with its own quote bars and panel; the first holds the note's number as its
    /// ``StyledParagraph/marker``.
    public var footnotes: [Int: [StyledBlock]] {
        get { rare?.settings.footnotes ?? [:] }
        set { rareSettings.footnotes = newValue }
    }
    /// Where each of ``footnotes`` is defined in the source (`[^n]: …`), for diagnostics.
    public var footnoteLocations: [Int: SourceLocation] {
        get { rare?.settings.footnoteLocations ?? [:] }
        set { rareSettings.footnoteLocations = newValue }
    }
    /// List markers hung outside the block, beside its first line: the block opens a list item
    /// but is no paragraph at the item's edge (a code block, a quote, a table, a figure, a
    /// nested list), so the marker cannot be the paragraph's own (``StyledParagraph/marker``).
    /// Outermost item first.
    public var hangingMarkers: [HangingMarker] {
        get { rare?.settings.hangingMarkers ?? [] }
        set { rareSettings.hangingMarkers = newValue }
    }
    /// A code block's line numbers (Pandoc's `.numberLines`), nil for none.
    public var codeLineNumbers: CodeLineNumbers? {
        get { rare?.settings.codeLineNumbers }
        set { rareSettings.codeLineNumbers = newValue }
    }
    /// A code block's text as written: its tabs not yet expanded to the spaces its paragraph
    /// draws, line for line with the paragraph's text. What a reader copies for each of the
    /// block's lines comes from it; nil for other blocks.
    public var codeSource: String? {
        get { rare?.settings.codeSource }
        set { rareSettings.codeSource = newValue }
    }
    /// The tagged-PDF structure path from the document root to the block's own element (last):
    /// `[L, LI, LBody, P]` for a list item's paragraph, `[artifact]` for a thematic break.
    /// Empty: layout tags the block by its content (`P`, `Table`, `Figure`, `TOCI`).
    public var structure: [StructureElement] = []

    /// Creates a block of `content` (lengths in pt); no spacing, keeps, bars, background, anchor or outline by default.
    public init(
        _ content: Content, spaceBefore: Double = 0, spaceAfter: Double = 0, keepWithNext: Bool = false,
        keepTogether: Bool = false, quoteBars: [Double] = [], quoteBarColor: RGBAColor = .black,
        background: RGBAColor? = nil, backgroundPadding: Double = 0, anchor: String? = nil,
        outline: OutlineEntry? = nil, location: SourceLocation? = nil
    ) {
        self.content = content
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
        self.keepWithNext = keepWithNext
        self.keepTogether = keepTogether
        self.quoteBars = quoteBars
        self.quoteBarColor = quoteBarColor
        self.anchor = anchor
        self.location = location
        if background != nil || backgroundPadding != 0 || outline != nil {
            rareSettings = RareSettings(background: background, backgroundPadding: backgroundPadding, outline: outline)
        }
    }
}

/// A list item's marker set outside the block that opens the item, as CSS
/// `list-style-position: outside` sets it (CSS Lists 3 §3.1): flush right a gap short of the
/// item's content edge, so it is never inside a code block's panel or beside a quote's bar, and
/// on the baseline of the block's first line of text (the top of a figure, which has none).
public struct HangingMarker: Hashable, Sendable {
    /// The marker's text (a bullet, a number, a task box) in the item's run style.
    public var runs: [StyledRun]
    /// The list item's content edge, pt from the left of the text area: the marker ends
    /// 0.45 em of its size before it.
    public var edge: Double
    /// The tagged-PDF structure path of the marker: `[…, L, LI, Lbl]`.
    public var structure: [StructureElement]
    /// Creates a marker of `runs` ending before `edge` (pt), tagged as `structure`.
    public init(runs: [StyledRun], edge: Double, structure: [StructureElement]) {
        self.runs = runs
        self.edge = edge
        self.structure = structure
    }
}

/// How code blocks are set and broken across pages (see ``StyledBlock/isCode``). Diagrams and
/// tables drawn in text keep their columns only when their lines are not wrapped, so a wide
/// block first widens into the margins, then is set smaller; a short listing reads best on one
/// page.
public enum CodeBlockRules {
    /// The smallest size a code block is scaled to so its longest line fits the measure, as a
    /// fraction of its own size (70 %); lines still too long wrap behind a ↪ mark.
    public static let smallestScale = 0.7
    /// The narrowest page margin a wide code block leaves when it widens into the margins, pt.
    public static let smallestMargin = 48.0
    /// Code blocks of up to this many lines are kept whole on one page (when they fit a page).
    public static let keptWholeLines = 12
    /// Fewest lines of a split code block on either side of a page break.
    public static let linesAtSplit = 3
    /// Most source lines of a code block laid out at once: a longer block is shaped and laid
    /// out a part of this many lines at a time, so that a listing of 300,000 lines holds the
    /// lines of one part in memory, not all of them.
    public static let linesPerPart = 2_000
}

/// An image block: the file (resolved path), its alt text, an optional caption paragraph.
public struct StyledImage: Hashable, Sendable {
    /// The image file: a resolved path.
    public var path: String
    /// The path as written in the document (for messages); empty when unknown.
    public var source: String = ""
    /// The image's alt text, plain.
    public var alt: String
    /// A caption set below the image, nil for none.
    public var caption: StyledParagraph?
    /// The alt text set as a caption would be, for an image shown without a caption (an HTML
    /// `<img>`, as GitHub shows it): drawn inside the placeholder when the image cannot be
    /// drawn, so that its words are not lost. Nil when the image has a caption or no alt text.
    public var placeholderLabel: StyledParagraph?
    /// The requested width (Pandoc's `width` attribute); nil: from the image's own size.
    public var width: ImageDimension?
    /// The requested height (Pandoc's `height` attribute); nil: from the width and the aspect ratio.
    public var height: ImageDimension?
    /// Indent from the left of the text area (a figure inside a list, quote or div), pt: the
    /// image is scaled to and centred in the measure less its indents.
    public var leftIndent: Double = 0
    /// Indent from the right of the text area, pt.
    public var rightIndent: Double = 0
    /// Where the image stands in its measure: centred (Pandoc's figures), or at the left or
    /// right edge when its paragraph or an enclosing div asks (`align`, `<p align="left">`).
    /// The caption is aligned with it.
    public var alignment: TextAlignment = .center
    /// Creates an image block from its parts.
    public init(path: String, alt: String, caption: StyledParagraph? = nil) {
        self.path = path
        self.alt = alt
        self.caption = caption
    }
}

extension StyledBlock {
    /// Every paragraph the block holds: the paragraph itself, a table's caption and cells
    /// (header first, a row at a time), a contents entry's two parts, an image's caption.
    public var paragraphs: BlockParagraphs {
        switch content {
        case .paragraph(let paragraph): BlockParagraphs([paragraph])
        case .table(let table): BlockParagraphs(table)
        case .entry(let leading, let trailing): BlockParagraphs([leading, trailing])
        case .image(let image): BlockParagraphs(image.caption.map { [$0] } ?? [])
        case .rule, .pageBreak: BlockParagraphs([])
        }
    }

    /// Applies `update` to every paragraph the block holds (see ``paragraphs``), its footnotes
    /// included.
    public mutating func updateParagraphs(_ update: (inout StyledParagraph) -> Void) {
        switch content {
        case .paragraph(var paragraph):
            update(&paragraph)
            content = .paragraph(paragraph)
        case .table(var table):
            content = .pageBreak  // the table is held once, by `t`, while it is updated
            if var caption = table.caption {
                update(&caption)
                table.caption = caption
            }
            for index in table.header.indices { update(&table.header[index]) }
            table.rows.updateEach(update)
            content = .table(table)
        case .entry(var leading, var trailing):
            update(&leading)
            update(&trailing)
            content = .entry(leading, trailing: trailing)
        case .image(var image):
            if var caption = image.caption {
                update(&caption)
                image.caption = caption
            }
            content = .image(image)
        case .rule, .pageBreak: break
        }
        for number in footnotes.keys {
            for index in footnotes[number]!.indices { footnotes[number]![index].updateParagraphs(update) }
        }
    }

    /// Every named destination the block draws: its ``anchor`` and ``extraAnchors``,
    /// `fn-<number>` for each of its ``footnotes``, and the anchors of the notes' blocks.
    public var destinationNames: [String] {
        var names = [anchor].compactMap { $0 } + extraAnchors
        for (number, blocks) in footnotes {
            names.append("fn-\(number)")
            for block in blocks { names += [block.anchor].compactMap { $0 } + block.extraAnchors }
        }
        return names
    }

    /// Whether any run of the block links to the internal destination `name`.
    public func links(to name: String) -> Bool {
        let target = LinkTarget.internal(name)
        return paragraphs.contains { $0.runs.contains { $0.style.link == target } }
    }
}

/// An image's requested width or height, from Pandoc's `width=`/`height=` attributes (Pandoc
/// manual, "Extension: link_attributes"): a length in pt, or a fraction of the text area's
/// width (for `width`) or height (for `height`).
public enum ImageDimension: Hashable, Sendable {
    /// A length in pt.
    case points(Double)
    /// A fraction (0…1] of the measure (width) or of the text area's height (height).
    case fraction(Double)

    /// Parses `50%`, `300px` (CSS px: 0.75 pt), a bare number (px, as Pandoc reads it), `200pt`,
    /// `5cm`, `40mm`, `2in`; nil for anything else, a length outside
    /// ``TypographicLimits/imageSide`` (1 pt to 14 400 pt, 200 in), or a share outside
    /// ``TypographicLimits/imageShare`` (0.1 % to 100 %): a picture drawn a trillionth of a
    /// point wide cannot be scaled to (Cairo: "invalid matrix").
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix("%") {
            guard let share = Double(trimmed.dropLast()), TypographicLimits.imageShare.contains(share) else {
                return nil
            }
            self = .fraction(share / 100)
        } else if trimmed.hasSuffix("px") || Double(trimmed) != nil {
            let pixels = Double(trimmed.hasSuffix("px") ? String(trimmed.dropLast(2)) : trimmed)
            guard let pixelCount = pixels, TypographicLimits.imageSide.contains(pixelCount * 0.75) else {
                return nil
            }
            self = .points(pixelCount * 0.75)
        } else {
            guard let points = Length.points(trimmed), TypographicLimits.imageSide.contains(points) else { return nil }
            self = .points(points)
        }
    }

    /// This dimension in pt: a share of `whole` (the measure or the text area's height).
    public func points(whole: Double) -> Double {
        switch self {
        case .points(let points): points
        case .fraction(let fraction): whole * fraction
        }
    }

    /// Why `text` is not a dimension ``init(_:)`` accepts, in words for a warning about the
    /// attribute `key` (`width` or `height`): a percentage past 100 % or not above 0, a length
    /// that is 0 or negative, or not a length at all.
    public static func problem(_ text: String, key: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let whole = key.lowercased() == "height" ? "the text area's height" : "the measure"
        let share = TypographicLimits.imageShare
        if trimmed.hasSuffix("%"), Double(trimmed.dropLast()) != nil {
            return "'\(key)' of an image is a share of \(whole), at least \(share.lowerBound)% and at most 100%, "
                + "not '\(text)'; ignored"
        }
        let side = TypographicLimits.imageSide
        let pixels = Int(side.upperBound / 0.75)
        let range = "between \(Int(side.lowerBound)) pt and \(Int(side.upperBound)) pt (\(pixels) px)"
        let number = trimmed.prefix { "+-.0123456789eEinfa".contains($0) }
        if let value = Double(number) {
            if value.isNaN { return "'\(key)' of an image is not a number ('\(text)'); ignored" }
            if value <= 0 { return "'\(key)' of an image must be more than 0, not '\(text)'; ignored" }
            return "'\(key)' of an image must be \(range), not '\(text)'; ignored"
        }
        return "'\(key)' of an image is a length (%, px, pt, mm, cm, in), not '\(text)'; ignored"
    }
}

/// The paragraphs of a block (see ``StyledBlock/paragraphs``), numbered from 0: a table's
/// caption and header cells, then its body cells row by row. A table's cells are rebuilt from their compact
/// storage one at a time as they are read, never all at once.
public struct BlockParagraphs: RandomAccessCollection {
    private let listed: [StyledParagraph]
    private let rows: StyledTableRows?

    init(_ paragraphs: [StyledParagraph]) {
        listed = paragraphs
        rows = nil
    }
    init(_ table: StyledTable) {
        listed = (table.caption.map { [$0] } ?? []) + table.header
        rows = table.rows
    }

    /// The first paragraph.
    public var startIndex: Int { 0 }
    /// One past the last paragraph.
    public var endIndex: Int { listed.count + (rows?.cellCount ?? 0) }

    /// Paragraph `index`.
    public subscript(index: Int) -> StyledParagraph {
        index < listed.count ? listed[index] : rows!.paragraph(atCell: index - listed.count)
    }
}

/// The numbers beside a code block's lines (Pandoc's `{.numberLines startFrom="10"}`): each
/// line of the source gets the next number, right-aligned in a gutter left of the block's
/// panel, as Pandoc's HTML and LaTeX outputs set them; a wrapped line's continuation gets none.
/// They are page furniture, drawn as artifacts, so the code copies without them.
public struct CodeLineNumbers: Hashable, Sendable {
    /// The first line's number.
    public var first: Int
    /// The numbers' fill colour (the theme's secondary colour, as page numbers are drawn in).
    public var color: RGBAColor

    /// Numbers from `first` on, in `color`.
    public init(first: Int, color: RGBAColor) {
        self.first = first
        self.color = color
    }
}
