import DocumentModel
import Styling
import Typography

/// What the paragraph stages (``ParagraphLayout``) ask of a backend: to shape and to measure.
/// The stages decide everything else in pure Swift, as Typst's `inline` layout does: which
/// breaks are allowed, where words hyphenate and in which language, where lines end, how
/// they are justified, aligned and labelled.
///
/// A backend measures a paragraph once, unwrapped (``measure(_:text:)``), reads back what
/// the line breaker needs (``prepare(_:paragraph:text:)``: each scalar's advance, the break
/// opportunities, the hyphen widths), and shapes the chosen lines: cut from the measurement
/// (``cutLines(from:composition:prepared:paragraph:text:)``) or laid out again
/// (``shapeLines(_:composed:)``). Calls come from one thread at a time, in the order the
/// stages run.
public protocol ParagraphShaping {
    /// The backend's shaping of a whole paragraph, unwrapped (for Pango, its `PangoLayout`).
    associatedtype Measurement

    /// Most runs the backend shapes in one piece in time linear in the runs: a group of chosen
    /// lines laid out together (``shapeLines(_:composed:)``) holds at most this many.
    var maximumRunsPerShaping: Int { get }

    /// The cancellation of the render this paragraph belongs to: once it is raised the
    /// composer stops at its next stage (measuring, preparing, breaking lines) and returns an
    /// empty line, which the render never places (``LayoutOptions/cancellation``).
    var cancellation: Cancellation? { get }

    /// Metrics of the first family of `font` alone (the height of an empty paragraph's line).
    func metrics(of font: FontSpec) -> FontMetrics

    /// Shapes the collected paragraph unwrapped in one piece; nil when it is too wide or holds
    /// too many runs for one (``prepare(_:paragraph:text:)`` then measures it in pieces).
    func measure(_ paragraph: StyledParagraph, text: CollectedText) -> Measurement?

    /// The natural width of `measurement`, pt, when it is one line; nil when it is more (a
    /// line separator or newline in the text).
    func singleLineWidth(of measurement: Measurement) -> Double?

    /// The drawable lines of `measurement` as shaped, each with its left edge at 0, and
    /// whether each belongs to a right-to-left paragraph (its resolved base direction).
    func lines(of measurement: Measurement, paragraph: StyledParagraph, text: CollectedText) -> ShapedLines

    /// What the line breaker needs of the paragraph, one entry per scalar: its advance, pt,
    /// and the break opportunities before it (Unicode UAX #14 line breaks and grapheme
    /// boundaries), with each run's hyphen width, read from `measurement`, or from a shaping
    /// in pieces when it is nil.
    func prepare(_ measurement: Measurement?, paragraph: StyledParagraph, text: CollectedText) -> PreparedParagraph

    /// Whether the backend has hyphenation patterns for `language` (a BCP 47 tag).
    func hasHyphenationPatterns(for language: String) -> Bool

    /// The hyphenation points of a lower-case `word` in `language`: scalar offsets `k`, a
    /// hyphen may follow the first `k` scalars.
    func hyphenationPoints(in word: String, language: String) -> [Int]

    /// What a break between `before` and `after`, in a run set in `font`, changes in the width
    /// of the line it ends, pt: the kerning of `before` with `after` that the break undoes
    /// (OpenType pair positioning puts a pair's kerning in its first glyph's advance), and,
    /// when the break `addsHyphen`, the kerning of `before` with the hyphen. Inter kerns "r-"
    /// by −0.04 em and "-T" by −0.07 em: a line ending "Ver-" is that much shorter, and one
    /// ending "non-" before "Typeset" that much longer, than its measured glyphs (and a
    /// hyphen's advance). 0 when the backend does not say.
    func breakKerning(in font: FontSpec, before: Unicode.Scalar, after: Unicode.Scalar, addsHyphen: Bool) -> Double

    /// The composed lines cut out of `measurement`'s glyphs, justified, each with its left
    /// edge at 0 (the finalize stage places, sizes and labels them); nil when they must be
    /// shaped again instead (``shapeLines(_:composed:)``).
    func cutLines(
        from measurement: Measurement, composition: Composition, prepared: PreparedParagraph,
        paragraph: StyledParagraph, text: CollectedText
    ) -> [ShapedLine]?

    /// Shapes `lineSet` (the text of chosen lines, a line separator at each break) in one
    /// piece, widens its stretchable spaces and syllable gaps by each of the `composed` lines'
    /// justification, and returns its lines as ``lines(of:paragraph:text:)`` does.
    func shapeLines(_ lineSet: LineSet, composed: ArraySlice<ComposedLine>) -> ShapedLines
}

extension ParagraphShaping {
    /// Never cancelled.
    public var cancellation: Cancellation? { nil }

    /// No kerning at breaks.
    public func breakKerning(
        in font: FontSpec, before: Unicode.Scalar, after: Unicode.Scalar, addsHyphen: Bool
    ) -> Double { 0 }
}

/// Lines a backend shaped, each with its left edge at 0, and whether each belongs to a
/// right-to-left paragraph (empty when the backend does not tell: all left-to-right).
public struct ShapedLines {
    /// The lines, top to bottom.
    public var lines: [ShapedLine]
    /// By line: its paragraph's resolved base direction is right to left.
    public var rightToLeft: [Bool]
    /// Creates lines with their directions (see the properties).
    public init(lines: [ShapedLine], rightToLeft: [Bool]) {
        self.lines = lines
        self.rightToLeft = rightToLeft
    }
}
