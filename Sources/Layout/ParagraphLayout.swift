import DocumentModel
import Styling

/// Paragraph layout in named stages, as Typst's `inline` layout runs them: collect the text
/// (``CollectedText``), measure it (the backend shapes it once, unwrapped, and reads back
/// advances and break opportunities; ``ParagraphComposer`` turns those into boxes, glue and
/// penalties, with hyphenation points), break lines (``LineBreaker``), cut lines (from the
/// measurement, or grouped and shaped again: ``LineSet``) and finalize them (justification,
/// alignment, source text). The backend only shapes and measures (``ParagraphShaping``).
public enum ParagraphLayout {
    /// A paragraph's lines: all made (one that fits on one line, or lines cut from the
    /// measurement), or chosen and still to be shaped a group at a time (``nextGroup(_:shaping:)``).
    public enum Lines {
        /// Every line, made.
        case whole(ShapedParagraph)
        /// The chosen lines, still to be shaped.
        case pending(PendingLines)
    }

    /// What ``compose(_:width:shaping:)`` made of a paragraph.
    public struct Composed {
        /// The lines, or what is needed to make them.
        public var lines: Lines
        /// The line breaker needed its emergency pass (a word wider than the measure broken
        /// between letters, or a line left overfull).
        public var emergency: Bool
        /// The words wider than the measure that were broken inside or left overfull, in
        /// order (``Composition/brokenWords``), as printed.
        public var brokenWords: [OverwideWord] = []
    }

    /// A word wider than the measure it was set to, as printed (soft hyphens left out), what
    /// was done with it, and that measure, pt.
    public struct OverwideWord: Sendable, Equatable {
        public var text: String
        public var treatment: BrokenWord.Treatment
        public var measure: Double
        /// Where the word's first formula is written, when it holds one (a warning stands
        /// there); nil for a word of text, which a warning finds by its text.
        public var formulaLocation: SourceLocation?
        /// Creates a word's report (see the properties).
        public init(
            text: String, treatment: BrokenWord.Treatment, measure: Double, formulaLocation: SourceLocation? = nil
        ) {
            self.text = text
            self.treatment = treatment
            self.measure = measure
            self.formulaLocation = formulaLocation
        }
    }

    /// The text of the scalars `range` as a warning quotes it: soft hyphens left out, and each
    /// formula written as its TeX source, each inline picture as `[picture]`, where the text
    /// holds U+FFFC for it; and where the first formula is written.
    static func quoted(
        _ range: Range<Int>, of prepared: PreparedParagraph, paragraph: StyledParagraph
    ) -> (text: String, formulaLocation: SourceLocation?) {
        var text = String.UnicodeScalarView()
        var formulaLocation: SourceLocation?
        for index in range where prepared.scalars[index] != "\u{AD}" {
            let scalar = prepared.scalars[index]
            let style = scalar == "\u{FFFC}" ? paragraph.runs[prepared.runIndex[index]].style : nil
            if let formula = style?.inlineFormula {
                text.append(contentsOf: formula.source.unicodeScalars)
                formulaLocation = formulaLocation ?? formula.location
            } else if style?.inlineImage != nil {
                text.append(contentsOf: "[picture]".unicodeScalars)
            } else {
                text.append(scalar)
            }
        }
        return (String(text), formulaLocation)
    }

    /// Lays out `paragraph` at `width` pt, stage by stage. A paragraph that fits on one line
    /// is shaped once and drawn as measured; a longer one has its lines cut from the
    /// measurement, or, when the backend cannot cut them, is returned as chosen lines for
    /// ``nextGroup(_:shaping:)`` to shape a group at a time.
    public static func compose<Shaping: ParagraphShaping>(
        _ paragraph: StyledParagraph, width: Double, shaping: Shaping
    ) -> Composed {
        // An empty paragraph (an empty list item, a cell with no text) has no glyph to lay out:
        // one line as tall as its base face, which draws nothing. A cancelled render's
        // paragraph is made that line at the next stage (a long paragraph's stages take tenths
        // of a second each), and the render stops before placing it.
        func emptyLine() -> Composed {
            let base = shaping.metrics(of: paragraph.style.baseFont)
            let line = ShapedLine(handle: nil, x: 0, width: 0, ascent: base.ascent, descent: base.descent)
            return Composed(lines: .whole(ShapedParagraph(lines: [line])), emergency: false)
        }
        var cancelled: Bool { shaping.cancellation?.isCancelled == true }
        // Collect.
        let text = CollectedText(paragraph)
        if text.text.isEmpty || cancelled { return emptyLine() }
        // Measure: shaped once, unwrapped; a paragraph that fits on one line is done, unless
        // its word spaces are to be given one width.
        let measured = shaping.measure(paragraph, text: text)
        if cancelled { return emptyLine() }
        if let measured, let natural = shaping.singleLineWidth(of: measured), natural <= width + 0.001,
            !ParagraphComposer.mayMixWordSpaces(text.text)
        {
            let shaped = shaping.lines(of: measured, paragraph: paragraph, text: text)
            let lines = alignedSingleLines(
                shaped, alignment: paragraph.style.alignment, leftIsStart: paragraph.style.leftIsStart, width: width)
            return Composed(lines: .whole(ShapedParagraph(lines: lines)), emergency: false)
        }
        // Measure the items, break lines, and work out each line's justification and alignment.
        var prepared = shaping.prepare(measured, paragraph: paragraph, text: text)
        if cancelled { return emptyLine() }
        var kernings: [UInt64: Double] = [:]
        let composition = ParagraphComposer.compose(
            paragraph, prepared: prepared, width: width,
            hyphenate: { word, language in
                let patterns = ParagraphComposer.hyphenationLanguage(
                    language, hasPatterns: shaping.hasHyphenationPatterns(for:))
                return shaping.hyphenationPoints(in: word, language: patterns)
            },
            breakKerning: { run, before, after, addsHyphen in
                // Asked at every hyphenation point and after every dash or slash: kept per run
                // and pair for the paragraph.
                let key = UInt64(run) << 43 | UInt64(before.value) << 22 | UInt64(after.value) << 1
                let keyed = addsHyphen ? key | 1 : key
                if let kerning = kernings[keyed] { return kerning }
                let font = paragraph.runs[run].style.font
                let kerning = shaping.breakKerning(in: font, before: before, after: after, addsHyphen: addsHyphen)
                kernings[keyed] = kerning
                return kerning
            }, cancellation: shaping.cancellation)
        if cancelled { return emptyLine() }
        let brokenWords = composition.brokenWords.map { word in
            let quoted = quoted(word.range, of: prepared, paragraph: paragraph)
            return OverwideWord(
                text: quoted.text, treatment: word.treatment, measure: width, formulaLocation: quoted.formulaLocation)
        }
        let textRanges = sourceTextRanges(composition, scalars: prepared.scalars)
        let finish = Finish(paragraph: paragraph, width: width, bytes: text.bytes, textRanges: textRanges)
        // Cut lines from the measurement and finalize them, or leave them to be shaped again.
        if let measured,
            var lines = shaping.cutLines(
                from: measured, composition: composition, prepared: prepared, paragraph: paragraph, text: text)
        {
            finish.finalize(&lines, first: 0, count: composition.lines.count, rightToLeft: [], composition)
            return Composed(
                lines: .whole(ShapedParagraph(lines: lines)), emergency: composition.emergency,
                brokenWords: brokenWords)
        }
        // Shaping the lines again needs only the scalars and their runs: the advances and break
        // opportunities (17 bytes a character) are released before the first shaping.
        prepared.advances = []
        prepared.lineBreakBefore = []
        prepared.charBreakBefore = []
        let groups = lineGroups(composition, prepared: prepared, maximumRuns: shaping.maximumRunsPerShaping)
        let pending = PendingLines(
            composition: composition, prepared: prepared, finish: finish, groups: groups)
        return Composed(lines: .pending(pending), emergency: composition.emergency, brokenWords: brokenWords)
    }

    /// Shapes the next group of `pending`'s chosen lines, or nil when all are made: the
    /// group's lines in one shaping, a line separator at each break, justified, placed and
    /// sized as composed.
    public static func nextGroup<Shaping: ParagraphShaping>(
        _ pending: inout PendingLines, shaping: Shaping
    ) -> ShapedLineGroup? {
        guard pending.next < pending.groups.count, let prepared = pending.prepared else { return nil }
        let group = pending.groups[pending.next]
        pending.next += 1
        let composition = pending.composition
        let lineSet = LineSet(
            composition, lines: group, prepared: prepared, paragraph: pending.finish.paragraph)
        if pending.next == pending.groups.count { pending.prepared = nil }  // released before the last shaping
        var shaped = shaping.shapeLines(lineSet, composed: composition.lines[group])
        pending.finish.finalize(
            &shaped.lines, first: group.lowerBound, count: group.count, rightToLeft: shaped.rightToLeft,
            composition)
        return ShapedLineGroup(lines: shaped.lines, first: group.lowerBound, lineCount: composition.lines.count)
    }

    /// Most lines in one group of ``lineGroups(_:prepared:maximumRuns:)``: about a page of
    /// Body text.
    public static let maximumGroupLines = 64
    /// Most scalars in one group of ``lineGroups(_:prepared:maximumRuns:)``.
    public static let maximumGroupScalars = 8192
}

/// The chosen lines of a paragraph still to be shaped, a group of lines at a time
/// (``ParagraphLayout/nextGroup(_:shaping:)``): what each group needs of the paragraph and no
/// shaping, so that a caller holds the drawable lines of one group only.
public struct PendingLines {
    let composition: Composition
    /// The composer's scalars and their runs (the rest of the measurements released); nil
    /// once the last group is made.
    var prepared: PreparedParagraph?
    /// What finalizing each line needs.
    let finish: ParagraphLayout.Finish
    /// Line index ranges, in order.
    let groups: [Range<Int>]
    /// The next group to shape.
    var next = 0
}
