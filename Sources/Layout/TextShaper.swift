import Styling
import Typography

/// Vertical metrics of one face at one size, pt, read from the font (OpenType `hhea`/`OS/2`
/// through the shaper). Ascent and descent are both positive distances from the baseline.
public struct FontMetrics: Hashable, Sendable {
    /// Height above the baseline, pt.
    public var ascent: Double
    /// Depth below the baseline, pt (positive).
    public var descent: Double
    /// Height of lowercase `x`, pt.
    public var xHeight: Double
    /// Height of capital letters, pt.
    public var capHeight: Double
    /// Creates metrics from their parts (pt).
    public init(ascent: Double, descent: Double, xHeight: Double, capHeight: Double) {
        self.ascent = ascent
        self.descent = descent
        self.xHeight = xHeight
        self.capHeight = capHeight
    }
    /// ascent + descent: what Pango and Figma call the natural ("Auto") line height.
    public var naturalHeight: Double { ascent + descent }
}

/// A link's horizontal extent on one line, pt from the paragraph box's left edge.
public struct LinkSpan: Hashable, Sendable {
    /// Left edge of the link, pt from the paragraph box's left edge.
    public var x: Double
    /// Width of the link on this line, pt.
    public var width: Double
    /// Where the link goes.
    public var target: LinkTarget
    /// Creates a span from its parts (pt).
    public init(x: Double, width: Double, target: LinkTarget) {
        self.x = x
        self.width = width
        self.target = target
    }
}

/// The stretch of a line set in a span of another language than its block's
/// (``Styling/RunStyle/spanLanguage``), tagged as a `Span` with `/Lang`.
public struct LanguageSpan: Hashable, Sendable {
    /// Left edge of the stretch, pt from the paragraph box's left edge.
    public var x: Double
    /// Width of the stretch on this line, pt.
    public var width: Double
    /// The span's language, a BCP 47 tag as written.
    public var language: String
    /// Creates a stretch from its parts (pt).
    public init(x: Double, width: Double, language: String) {
        self.x = x
        self.width = width
        self.language = language
    }
}

/// One line produced by a ``TextShaper``. The `handle` is the backend's own drawable line (for
/// Pango, the `PangoLayoutLine` and its layout), so a line is shaped once and drawn as is.
public struct ShapedLine {
    /// The backend's drawable line; Layout never looks inside.
    public var handle: AnyObject?
    /// Offset of the line's left edge from the paragraph box's left edge, pt (alignment).
    public var x: Double
    /// Advance width of the line, pt.
    public var width: Double
    /// Largest ascent and descent, pt, among the *primary* faces (first family of each run's
    /// font request, at its size and weight) of the runs on this line that sit on the baseline
    /// (shifted runs are in ``shiftedAscent``). Fallback faces (Hangul in Noto Sans CJK KR, emoji) are deliberately not
    /// counted: that is what keeps the baseline grid true.
    public var ascent: Double
    /// Depth below the baseline, pt (positive), measured like ``ascent``.
    public var descent: Double
    /// Height above the baseline, pt, of the runs shifted by a baseline offset (superscripts,
    /// footnote markers, `baselineOffset`), primary faces only; 0 when there are none. These
    /// may reach into the line's half-leading without moving it (``LineGrid``).
    public var shiftedAscent: Double = 0
    /// Depth below the baseline, pt (positive), of the shifted runs; 0 when there are none.
    public var shiftedDescent: Double = 0
    /// Links on this line, left to right.
    public var links: [LinkSpan]
    /// Stretches of this line in a span of another language than the block's, left to right.
    public var languages: [LanguageSpan] = []
    /// The line's text (for tests with a fake shaper and for diagnostics).
    public var text: String
    /// The line continues a line the shaper wrapped (it does not follow a hard break or start
    /// the paragraph).
    public var isWrapContinuation: Bool = false
    /// The horizontal scale the line's glyphs are drawn with from its left edge (font
    /// expansion, ``ComposedLine/expansion``): 1 draws them as shaped. ``width`` and the links
    /// are already scaled.
    public var horizontalScale: Double = 1
    /// The line is seen but read as nothing: its glyphs stand for no text (a code block's line
    /// numbers, which no reader should copy with the code).
    public var readsAsNothing = false
    /// What a reader copies for the line's glyphs when it is not the text they read as, nil
    /// when it is: a line of a code block whose source has tabs, or spaces at its start, at
    /// its end or two in a row, copies as that source line (its tabs as tabs, PDF 1.7 §14.9.4
    /// `/ActualText`), with the line feeds of the empty lines beside it; so does the first
    /// line of a source line wrapped behind ↪, whole, and its later lines copy as nothing.
    public var copyText: String?
    /// The line's glyphs as the shaper read them out for a thread that draws without the
    /// shaper's fonts (``TextShaper/readOutGlyphs(of:)``); nil: the line is drawn with them.
    public var glyphs: AnyObject?

    /// Creates a line from its parts (pt); no links and no text by default.
    public init(
        handle: AnyObject?, x: Double, width: Double, ascent: Double, descent: Double,
        links: [LinkSpan] = [], text: String = ""
    ) {
        self.handle = handle
        self.x = x
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.links = links
        self.text = text
    }
}

/// How far what a line draws reaches from its baseline, pt: ``above`` up, ``below`` down (both
/// positive when the drawing lies on that side of the baseline).
public struct LineExtent: Hashable, Sendable {
    /// Reach above the baseline, pt.
    public var above: Double
    /// Reach below the baseline, pt.
    public var below: Double
    /// Creates an extent from its reach above and below the baseline (pt).
    public init(above: Double, below: Double) {
        self.above = above
        self.below = below
    }
}

/// A paragraph broken into lines.
public struct ShapedParagraph {
    /// The lines, top to bottom.
    public var lines: [ShapedLine]
    /// Creates a paragraph from its lines.
    public init(lines: [ShapedLine]) { self.lines = lines }
    /// The widest line's advance width, pt.
    public var naturalWidth: Double { lines.map(\.width).max() ?? 0 }
}

/// Consecutive lines of a paragraph, as ``TextShaper/shape(_:width:inGroups:)`` hands them
/// over: a long paragraph's lines are made, placed and drawn a group at a time.
public struct ShapedLineGroup {
    /// The group's lines, top to bottom.
    public var lines: [ShapedLine]
    /// Index of the group's first line among the paragraph's lines.
    public var first: Int
    /// How many lines the whole paragraph has (known before its first group is made).
    public var lineCount: Int
    /// Creates a group of `lines` starting at line `first` of a paragraph of `lineCount` lines.
    public init(lines: [ShapedLine], first: Int, lineCount: Int) {
        self.lines = lines
        self.first = first
        self.lineCount = lineCount
    }
}

/// What ``TextShaper/naturalWidths(of:words:keepingLayout:)`` measures of one paragraph, pt.
public struct NaturalWidths: Equatable, Sendable {
    /// The paragraph's widest line unwrapped (``TextShaper/naturalWidth(of:keepingLayout:)``).
    public var paragraph: Double
    /// Each asked word's advance width as set in the paragraph, in the order asked; nil when
    /// the shaper leaves measuring words to the caller.
    public var words: [Double]?

    /// Widths in pt: `paragraph`'s natural width, and its words' (nil: not measured).
    public init(paragraph: Double, words: [Double]?) {
        self.paragraph = paragraph
        self.words = words
    }
}

/// Shapes and line-breaks styled paragraphs (the Pango backend implements it; tests use a
/// fixed-advance fake). Implementations are used from one thread at a time.
public protocol TextShaper: AnyObject {
    /// Metrics of the first family of `font` (the primary face; fallbacks are not consulted).
    func metrics(of font: FontSpec) -> FontMetrics
    /// Breaks `paragraph` into lines no wider than `width` pt (nil: no wrapping, only hard
    /// breaks), honouring its alignment within `width`, letter spacing, Hangul line-break mode
    /// and `breakAnywhere`. The paragraph's indents and marker are the caller's business:
    /// `width` is already the width available to the lines.
    func shape(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph
    /// The natural width of `paragraph`, pt: its widest line unwrapped, exactly
    /// `shape(paragraph, width: nil).naturalWidth` (the default), which a backend may answer
    /// without building drawable lines (a table measures every cell this way). With
    /// `keepingLayout`, the backend may keep what it shaped, within a bound of its own, for the
    /// next `shape(_:width:)` of an equal paragraph (a table's cell drawn after its columns are
    /// measured), until ``forgetKeptLayouts()``.
    func naturalWidth(of paragraph: StyledParagraph, keepingLayout: Bool) -> Double
    /// The natural width of `paragraph` (as ``naturalWidth(of:keepingLayout:)``, keeping alike)
    /// and, where the backend can read them from that same unwrapped shaping, the advance
    /// widths of `words`, pt: each a UTF-8 byte range of the paragraph's text (its runs' text
    /// joined), measured as the glyphs of those bytes are set in the paragraph — one shaping
    /// per paragraph instead of one per word. ``NaturalWidths/words`` is nil when the backend
    /// does not (the default; letter-spaced text, whose word ends Pango trims only alone): the
    /// caller then measures each word alone.
    func naturalWidths(of paragraph: StyledParagraph, words: [Range<Int>], keepingLayout: Bool) -> NaturalWidths
    /// Breaks `paragraph` into lines no wider than `width` pt, as ``shape(_:width:)`` does, and
    /// hands them to `body` in order a group at a time (``ShapedLineGroup``), so that a caller
    /// which places and draws each group before asking for the next holds the drawable lines of
    /// one group, not of the whole paragraph. The lines are those `shape(paragraph, width:
    /// width)` returns. The default hands every line over in one group.
    /// - Throws: what `body` throws; the lines after it are not made.
    func shape(
        _ paragraph: StyledParagraph, width: Double,
        inGroups body: (ShapedLineGroup) throws -> Void) rethrows
    /// Releases whatever ``naturalWidth(of:keepingLayout:)`` kept and no `shape` call took.
    func forgetKeptLayouts()
    /// `body`'s result, its calls of this shaper one turn with the shaper's fonts when another
    /// thread shares them (a table row's cells, a batch of lines' ink): fewer turns between
    /// the threads than a turn a call. The default runs `body`.
    func inOneTurn<T>(_ body: () throws -> T) rethrows -> T
    /// `line`'s glyphs read out (``ShapedLine/glyphs``), in a turn with the shaper's fonts, so
    /// that another thread can draw the line while this one goes on shaping; nil for a line
    /// that must be drawn with the fonts. The default reads nothing.
    func readOutGlyphs(of line: ShapedLine) -> AnyObject?
    /// The natural size of the image file at `path`, pt, upright (its own resolution and
    /// orientation applied); nil when it cannot be read. The default reads PNG, JPEG and SVG
    /// headers at 96 dpi (``ImageProbe``).
    func imageSize(ofFile path: String) -> (width: Double, height: Double)?
    /// How far `line`'s ink reaches above and below its baseline, pt: its glyphs' outlines in
    /// every face (fallback faces included, raised and lowered runs where they are drawn) and
    /// the pictures set inside it. The paginator keeps this inside the text area at a page's
    /// top and bottom, where a line box may be smaller than its glyphs (a line height below
    /// the face's natural height). The default, for shapers that cannot see ink, takes the
    /// line's ascent and descent (shifted runs included) for its ink.
    func extent(of line: ShapedLine) -> LineExtent
}

extension TextShaper {
    /// `shape(paragraph, width: nil).naturalWidth`; nothing is kept.
    public func naturalWidth(of paragraph: StyledParagraph, keepingLayout: Bool) -> Double {
        shape(paragraph, width: nil).naturalWidth
    }
    /// The natural width alone (``naturalWidth(of:keepingLayout:)``); no word widths.
    public func naturalWidths(of paragraph: StyledParagraph, words: [Range<Int>], keepingLayout: Bool) -> NaturalWidths
    {
        NaturalWidths(paragraph: naturalWidth(of: paragraph, keepingLayout: keepingLayout), words: nil)
    }
    /// Every line of `shape(paragraph, width: width)` in one group.
    public func shape(
        _ paragraph: StyledParagraph, width: Double,
        inGroups body: (ShapedLineGroup) throws -> Void
    ) rethrows {
        let lines = shape(paragraph, width: width).lines
        try body(ShapedLineGroup(lines: lines, first: 0, lineCount: lines.count))
    }
    /// Nothing is kept by default.
    public func forgetKeptLayouts() {}
    /// Runs `body`: a shaper shared by no thread takes no turns.
    public func inOneTurn<T>(_ body: () throws -> T) rethrows -> T { try body() }
    /// Nothing: a shaper shared by no thread draws its lines itself.
    public func readOutGlyphs(of line: ShapedLine) -> AnyObject? { nil }
    /// The line's ascent and descent, shifted runs included, stand in for its ink.
    public func extent(of line: ShapedLine) -> LineExtent {
        LineExtent(above: max(line.ascent, line.shiftedAscent), below: max(line.descent, line.shiftedDescent))
    }
    /// The natural width of `paragraph`, pt, keeping nothing (``naturalWidth(of:keepingLayout:)``).
    public func naturalWidth(of paragraph: StyledParagraph) -> Double {
        naturalWidth(of: paragraph, keepingLayout: false)
    }

    /// PNG, JPEG and SVG sizes from their headers, 1 px = 0.75 pt (the CSS reference pixel).
    public func imageSize(ofFile path: String) -> (width: Double, height: Double)? {
        ImageProbe.pixelSize(ofFile: path).map { (Double($0.width) * 0.75, Double($0.height) * 0.75) }
    }
}
