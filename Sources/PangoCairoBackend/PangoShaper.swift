internal import CPangoCairo
import DocumentModel
import Foundation
import Layout
import Styling
import Typography

/// The Pango implementation of ``TextShaper``: a Pango context on the render's own font map
/// (pangocairo, at 72 dpi, unhinted metrics, unrounded glyph positions; ``FontSession``), font
/// descriptions and metrics resolved once per ``FontSpec`` (``FontCache``), one `PangoLayout`
/// per paragraph. Each ``ShapedLine`` keeps its layout alive, so ``CairoPDFRenderer`` draws
/// exactly what was measured.
///
/// Shapers on separate sessions run in parallel with no lock (Pango's thread safety: a font
/// map per thread). One shaper may serve two threads of a render, one laying out and one
/// drawing, which then take turns with its Pango objects (``SharedFontMap``).
public final class PangoShaper: TextShaper {
    /// The font map this shaper borrowed, held by every layout and line it makes.
    let session: FontSession
    let setup: PangoSetup
    /// The words wider than their measure that were hyphenated, broken between letters or left
    /// overfull, in the order their paragraphs were set; the caller reads and empties it
    /// (a word broken after its own hyphen is not one of them).
    public var overwideWords: [ParagraphLayout.OverwideWord] = []
    /// The displayed formulas still wider than the measure at
    /// ``InlineFormula/smallestDisplayScale`` of the text's size with no place to break, and
    /// the pieces of inline formulas wider than the measure, in the order they were shaped;
    /// the caller warns when it grows.
    public internal(set) var overwideFormulas: [OverwideFormula] = []
    /// The text area's height, pt: a formula taller than its share of it is set smaller to fit
    /// (``MathShapes/fittingWideFormulas(_:width:height:fonts:hold:)``).
    public var textAreaHeight = Double.infinity
    /// The render's cancellation: a long paragraph stops composing at its next stage once it
    /// is raised (``ParagraphShaping/isCancelled``).
    public var cancellation: Cancellation?
    /// Composed lines are cut from the paragraph's measured glyphs (``linesFromMeasurement``);
    /// false shapes each composed paragraph's lines again at its chosen breaks
    /// (``ParagraphLayout/nextGroup(_:shaping:)``), for tests that compare the two.
    var cutsMeasuredLines = true
    /// Cells measured for a table, kept for drawing (``naturalWidth(of:keepingLayout:)``).
    var keptCells = KeptCells()
    /// A code block measured and not yet set (``KeptCode``).
    var keptCode: KeptCode?
    /// How many `PangoLayout`s this shaper has made for text (``unwrappedLayout(text:paragraph:starts:)``,
    /// ``rangeLayout(_:paragraph:bytes:starts:width:)``): for tests that count the shaping a
    /// stage does.
    var layoutsMade = 0
    /// The Pango context this shaper's layouts are made in (``PangoSetup/context(forPictures:)``).
    let context: GObjectRef
    /// The generations of pictures and laid-out formulas this shaper keeps what it names in.
    let shapeHold = ShapeHold()

    /// `body`'s result, under the font map's lock when another thread shares it
    /// (``SharedFontMap/run(_:)``): its shaping and measuring one turn.
    public func inOneTurn<T>(_ body: () throws -> T) rethrows -> T { try SharedFontMap.run(body) }

    /// `line`'s glyphs for Cairo alone (``LineGlyphs``), when the render's font map is shared
    /// with a drawing thread; nil otherwise, and for a line only Pango can draw.
    public func readOutGlyphs(of line: ShapedLine) -> AnyObject? {
        guard SharedFontMap.current != nil, !line.readsAsNothing, let handle = line.handle as? PangoLineHandle else {
            return nil
        }
        return SharedFontMap.run {
            LineGlyphs.read(handle.line, paints: handle.paints, strokes: !handle.strokes.isEmpty)
        }
    }

    /// The words wider than their measure found so far, which it forgets, and the formulas
    /// too wide from the `formulas`-th on (``overwideWords``, ``overwideFormulas``), read
    /// under the lock of a font map shared with another thread (``SharedFontMap``).
    package func takeOverwide(formulasFrom formulas: Int) -> (
        words: [ParagraphLayout.OverwideWord], formulas: [OverwideFormula]
    ) {
        SharedFontMap.run {
            defer { overwideWords.removeAll() }
            return (overwideWords, Array(overwideFormulas[min(formulas, overwideFormulas.count)...]))
        }
    }

    /// Creates a shaper on `session`'s font map, so fonts, metrics and fontconfig's answers are
    /// shared with the render's font queries on that session (``FontLibrary``).
    ///
    /// - Parameter pictures: true when the lines will be drawn as pictures (PNG or SVG pages,
    ///   ``PagePreview``) rather than on PDF pages. A PDF shaper measures with the glyph options
    ///   of Cairo's PDF surface, so drawing reuses the glyphs measuring loaded; a picture shaper
    ///   with unhinted metrics and Cairo's defaults otherwise, which the picture surfaces then
    ///   complete (pixel rounding and antialiasing of PNG pages). The measurements are the same.
    ///   - session: the font map and fonts to shape with; by default one of the installed
    ///     fonts alone.
    public init(pictures: Bool = false, session: FontSession = FontSession()) {
        _ = BreakAttributes.thaiBreakerReady
        self.session = session
        let setup = session.setup
        self.setup = setup
        context = SharedFontMap.run { setup.context(forPictures: pictures) }
    }

    // MARK: Metrics

    /// Metrics of the first family of `font` alone at its size, weight and style: ascent and
    /// descent from the face's horizontal extents (HarfBuzz, the values
    /// `pango_font_get_metrics` reports), x-height and cap height from the face's OS/2 table
    /// (HarfBuzz `hb_ot_metrics`, which falls back to measuring glyphs). Resolved once per
    /// process for each request (``FontCache``).
    public func metrics(of font: FontSpec) -> FontMetrics {
        SharedFontMap.run { primaryMetrics(font) }
    }

    /// How far `line`'s ink reaches from its baseline, pt: the ink of every glyph run on it as
    /// `pango_glyph_string_extents` reads it from the faces' glyph outlines — fallback faces
    /// included, each run at its baseline offset (`y_offset`, positive up), widened by half the
    /// stroke of outlined runs — and the pictures set inside it. A line without a drawable
    /// handle draws nothing: (0, 0).
    public func extent(of line: ShapedLine) -> LineExtent {
        guard let handle = line.handle as? PangoLineHandle else { return LineExtent(above: 0, below: 0) }
        var extent = LineExtent(above: handle.pictureHeight, below: 0)
        let scale = Double(PANGO_SCALE)
        SharedFontMap.run {
            var node = handle.line.pointee.runs
            while let runNode = node {
                let run = runNode.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                if let font = run.pointee.item.pointee.analysis.font, let glyphs = run.pointee.glyphs {
                    var ink = PangoRectangle()
                    pango_glyph_string_extents(glyphs, font, &ink, nil)
                    if ink.height > 0 {
                        let rise = Double(run.pointee.y_offset) / scale
                        let stroke = handle.strokes.first { $0.glyphItem == run }.map { $0.stroke.width / 2 } ?? 0
                        extent.above = max(extent.above, -Double(ink.y) / scale + rise + stroke)
                        extent.below = max(extent.below, Double(ink.y + ink.height) / scale - rise + stroke)
                    }
                }
                node = runNode.pointee.next
            }
        }
        return extent
    }

    /// The Pango description of `font` (``PangoSetup/description(_:)``).
    func description(_ font: FontSpec) -> FontDescription { setup.description(font) }

    /// Metrics of the first family of `font` (``PangoSetup/metrics(_:)``).
    func primaryMetrics(_ font: FontSpec) -> FontMetrics { setup.metrics(font) }

    // MARK: Shaping

    /// Breaks `paragraph` into lines (see ``TextShaper/shape(_:width:)``). With a width, the
    /// total-fit composer chooses the breaks (Knuth–Plass, hyphenation, keep-all, KLREQ
    /// justification, hanging punctuation; see ``ParagraphComposer``); code blocks and text
    /// without a width use Pango's `PANGO_WRAP_WORD_CHAR`, so a long line of code breaks rather
    /// than overflowing.
    ///
    /// A short unwrapped paragraph of at most one run (a list marker, a number) is shaped once
    /// and its lines reused while this shaper has shaped at most ``ShortParagraphs/capacity``
    /// distinct ones: a list of 100,000 items sets the same bullet 100,000 times. The lines
    /// are drawn as they are, never changed, so one layout serves every place it is drawn.
    /// Paragraphs set to a width (table cells, mostly all different) are shaped each time.
    public func shape(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph {
        SharedFontMap.run {
            let remembered = width == nil && ShortParagraphs.isShort(paragraph)
            let key = ShortParagraphs.Key(paragraph: paragraph, width: width)
            if remembered, let known = shortParagraphs.shaped[key] { return known }
            let shaped = shapeWhole(paragraph, width: width)
            if remembered { shortParagraphs.remember(shaped, for: key) }
            return shaped
        }
    }

    /// `paragraph` with its formulas wider than `width` pt shrunk
    /// (``MathShapes/fittingWideFormulas(_:width:height:fonts:hold:)``), noting those still too wide in
    /// ``overwideFormulas``.
    func fittingWideFormulas(_ paragraph: StyledParagraph, width: Double) -> StyledParagraph {
        // A line's leading and the text beside the formula keep a tenth of the text area.
        let fitted = MathShapes.fittingWideFormulas(
            paragraph, width: width, height: textAreaHeight * 0.9, fonts: session.configuration, hold: shapeHold)
        overwideFormulas += fitted.overwide
        return placingTags(fitted.paragraph, width: width)
    }

    /// `paragraph` with the `\tag` label after each displayed formula flush right at `width`
    /// pt and the formula centred in that width (``InlineFormula/taggedFrame``), as LaTeX sets
    /// an equation number; a formula too wide for that, which still fits the measure at its
    /// size, has its label under it, flush right (amsmath's placement of a tag with no room
    /// beside its equation); a formula set smaller to fit, or wider than the measure, keeps its
    /// label two em spaces after it. A formula numbered by row (``MathFormula/rowTags``) fills
    /// the measure, centred in it, its rows' labels drawn in its box at the measure's right
    /// edge (``MathShapes/rowLabelFrame(_:textSize:width:fonts:hold:)``), their text the
    /// formula's, after its source, so that they copy and are read with it.
    func placingTags(_ paragraph: StyledParagraph, width: Double) -> StyledParagraph {
        let separator = "\u{2003}\u{2003}"
        // The labels placed are gathered first and written after the loop: a run array written
        // inside the loop is made unique before it (the optimizer hoists the check), a copy of
        // every long paragraph's runs even when it has no formula. A nil label: the formula has
        // no label run (its rows' labels are in its box).
        var placements: [(index: Int, formula: InlineFormula, label: String?)] = []
        for index in paragraph.runs.indices {
            guard var formula = paragraph.runs[index].style.inlineFormula, formula.display else { continue }
            if !formula.formula.rowTags.isEmpty {
                guard
                    let frame = MathShapes.rowLabelFrame(
                        formula, textSize: paragraph.runs[index].style.font.size, width: width,
                        fonts: session.configuration, hold: shapeHold)
                else { continue }
                formula.taggedFrame = frame
                formula.alternativeText += " " + frame.rowLabels.map(\.text).joined(separator: " ")
                placements.append((index, formula, nil))
                continue
            }
            guard index + 1 < paragraph.runs.count else { continue }
            let label = paragraph.runs[index + 1]
            // A display broken into lines has its label on its last line (amsmath's `multline`).
            let lastLine = formula.displayLineStarts.isEmpty || formula.piece == formula.displayLineStarts.count
            guard formula.formula.tag != nil, formula.taggedFrame == nil, lastLine,
                label.text.hasPrefix(separator),
                let box = MathShapes.layout(
                    formula, size: paragraph.runs[index].style.font.size, fonts: session.configuration,
                    hold: shapeHold)?.box
            else { continue }
            let text = String(label.text.dropFirst(separator.count))
            let labelWidth = measureNaturalWidth(
                StyledParagraph(runs: [StyledRun(text, style: label.style)], style: paragraph.style), keep: false)
            let inset = (width - box.width) / 2
            if inset + box.width + label.style.font.size <= width - labelWidth {
                formula.taggedFrame = InlineFormula.TaggedFrame(width: width - labelWidth, inset: inset)
            } else if box.width <= width, formula.scale >= 1, formula.displayLineStarts.isEmpty {
                formula.taggedFrame = InlineFormula.TaggedFrame(width: width, inset: inset, labelBelow: text)
                // The label is drawn in the formula's box: its text is the formula's too, so
                // that it copies and is read with it.
                formula.alternativeText += " " + text
            } else {
                continue
            }
            placements.append((index, formula, text))
        }
        guard !placements.isEmpty else { return paragraph }
        var placed = paragraph
        // From the last, so that a label run taken out leaves the indices before it.
        for placement in placements.reversed() {
            placed.runs[placement.index].style.inlineFormula = placement.formula
            guard let label = placement.label else { continue }
            if placement.formula.taggedFrame?.labelBelow != nil {
                placed.runs.remove(at: placement.index + 1)
            } else {
                placed.runs[placement.index + 1].text = label
            }
        }
        return placed
    }

    /// Breaks `paragraph` into lines at `width` pt as ``shape(_:width:)`` does, handing them to
    /// `body` a group at a time: the breaks are chosen for the whole paragraph first (the
    /// total-fit composer weighs all of it), then each group of chosen lines
    /// (``ParagraphLayout/lineGroups(_:prepared:maximumRuns:)``) is shaped and handed on, so
    /// that what the caller places and draws is released before the next group is made.
    /// Paragraphs whose lines are cut from their measurement, and those Pango breaks itself
    /// (code), come in one group.
    /// - Throws: what `body` throws.
    public func shape(
        _ paragraph: StyledParagraph, width: Double,
        inGroups body: (ShapedLineGroup) throws -> Void
    ) rethrows {
        // The composer's steps take the font map's lock each (``PangoParagraphShaping``): its
        // line breaking between them holds none.
        let composed: ParagraphLayout.Lines
        if paragraph.style.breakAnywhere || paragraph.style.hangingIndent != 0 {
            composed = SharedFontMap.run { .whole(shapeWhole(paragraph, width: width)) }
        } else {
            let fitted = SharedFontMap.run { fittingWideFormulas(paragraph.collapsingSoftHyphenRuns(), width: width) }
            composed = composeInGroups(fitted, width: width)
        }
        switch composed {
        case .whole(let shaped):
            try body(ShapedLineGroup(lines: shaped.lines, first: 0, lineCount: shaped.lines.count))
        case .pending(var pending):
            while let group = nextGroup(&pending) { try body(group) }
        }
    }

    /// Short paragraphs shaped, by paragraph and width (``shape(_:width:)``).
    var shortParagraphs = ShortParagraphs()

    /// The widest unwrapped paragraph, pt, the total-fit composer measures in one layout: well
    /// inside Pango's 2³¹ units (≈ 2,097,152 pt). Wider ones are measured in pieces.
    static let composedWidth = 1_000_000.0

    /// An upper bound of the paragraph's unwrapped width, pt: 2 em a character plus tracking.
    static func unwrappedWidthBound(_ paragraph: StyledParagraph) -> Double {
        paragraph.runs.reduce(0) {
            $0 + Double($1.text.unicodeScalars.count) * ($1.style.font.size * 2 + abs($1.style.letterSpacing))
        }
    }

    /// `paragraph` laid out by Pango (code and unwrapped text) or by the composer (text set to
    /// a width). With `cutAsWrapped`, unwrapped text is cut into the pieces it is cut into when
    /// its lines wrap (``ParagraphPieces``, each piece's last line laid out again at the head
    /// of the next), so that where no line wraps its lines are those set at a width (``KeptCode``).
    func shapeWhole(_ paragraph: StyledParagraph, width: Double?, cutAsWrapped: Bool = false) -> ShapedParagraph {
        if let width, paragraph.style.breakAnywhere, let kept = takeKeptCode(paragraph, width: width) {
            return kept
        }
        var paragraph = paragraph.collapsingSoftHyphenRuns()
        if let width { paragraph = fittingWideFormulas(paragraph, width: width) }
        // Paragraphs with a measure go through the total-fit composer, however long (it
        // measures those wider than ``composedWidth`` in pieces); code (break anywhere,
        // continuation indent) and unwrapped text keep Pango's own line breaking, in bounded
        // pieces.
        if let width, !paragraph.style.breakAnywhere, paragraph.style.hangingIndent == 0 {
            return composeWhole(paragraph, width: width)
        }
        let runs = paragraph.runs
        // Byte offsets of each run in the concatenated UTF-8 text.
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var text = ""
        var offset = 0
        for run in runs {
            starts.append(offset)
            text += run.text
            offset += run.text.utf8.count
        }
        let byteCount = offset
        let bytes = Array(text.utf8)
        let wraps = width != nil || cutAsWrapped
        let pieces = ParagraphPieces(runs: runs, starts: starts, bytes: bytes, wraps: wraps)
        var lines: [ShapedLine] = []
        var start = 0
        repeat {
            // Pango measures in 32-bit units (2³¹ / 1024 ≈ 2,097,152 pt: past that a layout keeps
            // its first line only) and its line breaking slows down faster than linearly on
            // long items: lay the paragraph out in bounded pieces. Each piece's last line is
            // laid out again at the head of the next piece (Pango breaks lines first-fit, so a
            // line depends only on the text from its start): the lines are those of one layout.
            var end = pieces.end(from: start)
            // A piece that goes on with a wrapped line ends with that line: each of its lines
            // takes the hanging indent (``rangeLayout(_:paragraph:bytes:starts:width:)``), which
            // the lines after the line's end must not.
            if paragraph.style.hangingIndent > 0, start > 0, bytes[start - 1] != 0x0A,
                let lineEnd = bytes[start..<end].firstIndex(of: 0x0A)
            {
                end = lineEnd + 1
            }
            let isLast = end == byteCount
            var piece = shapeRange(start..<end, paragraph: paragraph, bytes: bytes, starts: starts, width: width)
            if !isLast, wraps, piece.count > 1, let restart = piece.last?.startByte, restart > start {
                piece.removeLast()
                start = restart
            } else {
                start = end
            }
            lines += piece.map(\.line)
        } while start < byteCount
        if lines.isEmpty {
            let base = primaryMetrics(paragraph.style.baseFont)
            lines.append(ShapedLine(handle: nil, x: 0, width: 0, ascent: base.ascent, descent: base.descent))
        }
        return ShapedParagraph(lines: lines)
    }

    /// Lays out the bytes `range` of the paragraph's text (a whole paragraph, or one piece of a
    /// long one) in one `PangoLayout`; each line with the byte its text starts at.
    private func shapeRange(
        _ range: Range<Int>, paragraph: StyledParagraph, bytes: [UInt8], starts: [Int],
        width: Double?
    ) -> [(line: ShapedLine, startByte: Int)] {
        let (layout, shift, paints) = rangeLayout(
            range, paragraph: paragraph, bytes: bytes, starts: starts, width: width)
        var lines = collectLines(
            layout: layout, paragraph: paragraph, bytes: bytes, base: range.lowerBound, starts: starts)
        if let paints { for entry in lines { (entry.line.handle as? PangoLineHandle)?.paints = paints } }
        if shift > 0 { for i in lines.indices { lines[i].line.x += shift } }
        return lines
    }

    /// The `PangoLayout` that ``shapeRange(_:paragraph:bytes:starts:width:)`` lays the bytes
    /// `range` out in, and how far its lines move right (the hanging indent of a piece that
    /// continues a wrapped line), pt.
    /// The UTF-8 byte ranges of `text` from each run of dashes that opens a word
    /// (``ParagraphComposer/opensWord(_:)``: `-DisableReboots`, `--force`, `(-Dx)`) to the end
    /// of the character after it: a wrapped code line does not end after such a dash, as a
    /// line of prose does not.
    static func wordOpeningDashes(in text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        var previous: Unicode.Scalar?
        var dashStart: Int?
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            if ParagraphComposer.isDash(scalar) {
                if dashStart == nil, previous.map(ParagraphComposer.opensWord) ?? true { dashStart = offset }
            } else if let start = dashStart {
                if !ParagraphComposer.opensWord(scalar) { ranges.append(start..<(offset + length)) }
                dashStart = nil
            }
            previous = scalar
            offset += length
        }
        return ranges
    }

    func rangeLayout(
        _ range: Range<Int>, paragraph: StyledParagraph, bytes: [UInt8], starts: [Int],
        width: Double?
    ) -> (layout: GObjectRef, shift: Double, paints: CodePaints?) {
        let runs = paragraph.runs
        let base = range.lowerBound
        let text = String(decoding: bytes[range], as: UTF8.self)
        let byteCount = range.count
        // A piece after the first that continues a wrapped line, and ends with it
        // (``shapeWhole(_:width:cutAsWrapped:)``): every line of it takes the hanging indent
        // that Pango gives only to lines after a paragraph's first.
        let continuing = base > 0 && bytes[base - 1] != 0x0A
        let hanging = paragraph.style.hangingIndent

        let layoutPointer = pango_layout_new(context.opaque)!
        layoutsMade += 1
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(layoutPointer), session: session)
        pango_layout_set_text(layoutPointer, PDFText.sameLength(text), Int32(byteCount))
        pango_layout_set_font_description(
            layoutPointer, setup.shapingDescription(paragraph.style.baseFont, for: text).pointer)
        pango_layout_set_wrap(layoutPointer, PANGO_WRAP_WORD_CHAR)

        // A code block's runs differ in colour (syntax highlighting), rarely in font: shaped as
        // one item per font, the block costs HarfBuzz what the uncoloured block does.
        // Prose keeps an item per run, so a link's first glyph is not kerned against the text.
        let attrs = AttrList(mergesEqualFonts: paragraph.style.breakAnywhere)
        // Only the runs that overlap the piece: a long code block of many coloured runs is laid
        // out in many pieces, and visiting every run for each would be quadratic.
        let firstRun = runIndex(atByte: range.lowerBound, starts: starts) ?? 0
        // A highlighted code block's colours are painted over its glyphs after drawing
        // (``CodePaints``): its attributes carry one colour, so its lines draw as a plain block's.
        // A block whose tokens differ only in colour is one run with its colours beside it;
        // another, a run a token, has its runs' attributes merged where only colours differ.
        let paints: CodePaints?
        var paintsRuns = false
        if let colors = paragraph.tokenColors {
            paints = colors.slice(range).flatMap { CodePaints($0, base: runs[firstRun].style.color) }
        } else if paragraph.style.breakAnywhere {
            paints = CodePaints.of(runs: runs, starts: starts, firstRun: firstRun, range: range)
            paintsRuns = paints != nil
        } else {
            paints = nil
        }
        if let paints, paintsRuns {
            addPaintedAttributes(
                runs, starts: starts, firstRun: firstRun, range: range, bytes: bytes, paints: paints, to: attrs)
        }
        for index in firstRun..<runs.count where !paintsRuns {
            if starts[index] >= range.upperBound { break }
            let run = runs[index]
            guard !run.text.isEmpty else { continue }
            let runStart = max(starts[index], range.lowerBound)
            let runEnd = min(starts[index] + run.text.utf8.count, range.upperBound)
            guard runStart < runEnd else { continue }
            let variantRanges =
                run.style.smallCaps == .lowercase || run.style.smallCaps == .all
                ? Self.rangesWithoutEmoji(bytes, runStart..<runEnd).map {
                    ($0.lowerBound - base)..<($0.upperBound - base)
                } : []
            addAttributes(
                run.style, text: String(decoding: bytes[runStart..<runEnd], as: UTF8.self), to: attrs,
                start: runStart - base,
                end: runEnd - base,
                variantRanges: variantRanges)
        }
        if paragraph.style.breakAnywhere, byteCount > 0 {
            // Code breaks between characters without the hyphen Pango would insert (a hyphen
            // would read as part of the code); the continuation mark shows the wrap instead.
            attrs.insert(pango_attr_insert_hyphens_new(0), 0, byteCount)
            for opening in Self.wordOpeningDashes(in: text) {
                attrs.insert(pango_attr_allow_breaks_new(0), opening.lowerBound, opening.upperBound)
            }
        }
        pango_layout_set_attributes(layoutPointer, attrs.pointer)

        if paragraph.style.hangulLineBreak.keepsWords {
            let words = hangulWords(in: text)
            if !words.isEmpty {
                // Measure unwrapped first: a word wider than the measure stays breakable.
                let limit = width.map { $0 * Double(PANGO_SCALE) + 1 }
                let keep = AttrList(copying: attrs)
                var added = false
                // A word certainly fits when even 1.5 em per character (plus tracking) fits:
                // only the others need the (costly) unwrapped measuring pass.
                let widest = runs.reduce(0.0) { max($0, $1.style.font.size * 1.5 + abs($1.style.letterSpacing)) }
                for word in words {
                    if let limit, Double(word.count) * widest * Double(PANGO_SCALE) > limit {
                        var startPosition = PangoRectangle()
                        var endPosition = PangoRectangle()
                        pango_layout_index_to_pos(layoutPointer, Int32(word.lowerBound), &startPosition)
                        pango_layout_index_to_pos(layoutPointer, Int32(word.upperBound), &endPosition)
                        if Double(abs(Int(endPosition.x) - Int(startPosition.x))) > limit { continue }
                    }
                    keep.insert(pango_attr_allow_breaks_new(0), word.lowerBound, word.upperBound)
                    added = true
                }
                if added { pango_layout_set_attributes(layoutPointer, keep.pointer) }
            }
        }

        let shift = continuing && hanging > 0 ? hanging : 0
        if let width {
            pango_layout_set_width(layoutPointer, max(0, PangoUnits.from(width - shift, rounding: .down)))
        } else {
            pango_layout_set_width(layoutPointer, -1)
        }
        if hanging > 0 && !continuing {
            pango_layout_set_indent(layoutPointer, -PangoUnits.from(hanging))
        }
        switch paragraph.style.alignment {
        case .left: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_RIGHT)
        case .justify:
            pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layoutPointer, 1)
        }

        return (layout, shift, paints)
    }

    /// `range` of `bytes` less its emoji (pictographs, their joiners and presentation
    /// selectors). Pango 1.50 synthesizes small caps by scaling with the face's cap height; a
    /// color-emoji face has none, so the scale is not finite, Pango is handed a negative size
    /// and Cairo fails the whole PDF ("invalid matrix"): small caps never cover emoji.
    static func rangesWithoutEmoji(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = range.lowerBound
        var position = range.lowerBound
        for scalar in String(decoding: bytes[range], as: UTF8.self).unicodeScalars {
            let width = UTF8.width(scalar)
            let value = scalar.value
            let emoji =
                (scalar.properties.isEmoji && (scalar.properties.isEmojiPresentation || value >= 0x1F000))
                || value == 0x200D || value == 0xFE0F || value == 0x20E3 || (0x1F3FB...0x1F3FF).contains(value)
                || (0xE0020...0xE007F).contains(value)
            if emoji {
                if start < position { result.append(start..<position) }
                start = position + width
            }
            position += width
        }
        if start < position { result.append(start..<position) }
        return result
    }

    /// Inserts the run's attributes over `start..<end`; a small-caps variant only over
    /// `variantRanges` (the run less its emoji, ``rangesWithoutEmoji(_:_:)``). `description`,
    /// when given, is `setup.shapingDescription(style.font, for: text)` looked up by the caller.
    func addAttributes(
        _ style: RunStyle, text: String, to list: AttrList, start: Int, end: Int, variantRanges: [Range<Int>] = [],
        description: FontDescription? = nil
    ) {
        let description = description ?? setup.shapingDescription(style.font, for: text)
        list.insert(pango_attr_font_desc_new(description.pointer), start, end)
        if KoreanSymbols.isKorean(style.language), let korean = setup.koreanFirstDescription(style.font) {
            for range in KoreanSymbols.ranges(in: text, start: start) {
                list.insert(pango_attr_font_desc_new(korean.pointer), range.lowerBound, range.upperBound)
            }
        }
        if let image = style.inlineImage {
            list.insert(
                InlineImageShapes.attribute(
                    image, box: InlineImageShapes.box(image, shaper: self, style: style), hold: shapeHold),
                start, end)
        }
        if let formula = style.inlineFormula {
            list.insert(
                MathShapes.attribute(
                    formula, size: style.font.size, fonts: session.configuration, hold: shapeHold), start, end)
        }
        if style.letterSpacing != 0 {
            // Any letter-spacing attribute, even 0, turns ligatures off: emit only when non-zero,
            // and never inside cursive scripts, whose letters must stay joined (CSS Text 3 §8.2).
            for range in CursiveScripts.trackedRanges(of: text, start: start) {
                list.insert(
                    pango_attr_letter_spacing_new(PangoUnits.from(style.letterSpacing)), range.lowerBound,
                    range.upperBound)
            }
        }
        if let language = style.language, let regional = RegionalGlyphs.language(for: language) {
            list.insert(pango_attr_language_new(regional), start, end)
        }
        let (r, g, b, a) = style.color.pango16
        list.insert(pango_attr_foreground_new(r, g, b), start, end)
        if a < 65535 { list.insert(pango_attr_foreground_alpha_new(a), start, end) }
        if let underline = style.underline {
            list.insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), start, end)
            let (r, g, b, _) = underline.pango16
            list.insert(pango_attr_underline_color_new(r, g, b), start, end)
        }
        if let strike = style.strikethrough {
            list.insert(pango_attr_strikethrough_new(1), start, end)
            let (r, g, b, _) = strike.pango16
            list.insert(pango_attr_strikethrough_color_new(r, g, b), start, end)
        }
        if style.baselineOffset != 0 {
            list.insert(pango_attr_rise_new(PangoUnits.from(style.baselineOffset)), start, end)
        }
        var features = style.features
        // Small caps through Pango's variant attribute: it uses the font's `smcp`/`c2sc` when
        // the font has them and synthesizes them (upper-cased, scaled by x-height/cap-height)
        // when not (Pango 1.50 itemize.c). `c2sc` alone has no variant: a font feature, which
        // fonts without it ignore.
        switch style.smallCaps {
        case .none: break
        case .lowercase:
            for r in variantRanges {
                list.insert(pango_attr_variant_new(PANGO_VARIANT_SMALL_CAPS), r.lowerBound, r.upperBound)
            }
        case .uppercase: features.append("c2sc")
        case .all:
            for r in variantRanges {
                list.insert(pango_attr_variant_new(PANGO_VARIANT_ALL_SMALL_CAPS), r.lowerBound, r.upperBound)
            }
        }
        if !features.isEmpty {
            list.insert(pango_attr_font_features_new(features.joined(separator: ", ")), start, end)
        }
        if let background = style.background {
            let (r, g, b, a) = background.pango16
            list.insert(pango_attr_background_new(r, g, b), start, end)
            if a < 65535 { list.insert(pango_attr_background_alpha_new(a), start, end) }
        }
    }

    /// Byte ranges of the maximal runs of non-space characters that contain Hangul.
    private func hangulWords(in text: String) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        var position = 0
        var inWord = false
        var hasHangul = false
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            if scalar.properties.isWhitespace {
                if inWord && hasHangul { result.append(start..<position) }
                inWord = false
                hasHangul = false
            } else {
                if !inWord {
                    inWord = true
                    start = position
                }
                if isHangul(scalar) { hasHangul = true }
            }
            position += length
        }
        if inWord && hasHangul { result.append(start..<position) }
        return result
    }

    private func isHangul(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    private func runIndex(atByte byte: Int, starts: [Int]) -> Int? {
        // Last run whose start is <= byte (skips empty runs, which share their start).
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= byte { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The lines of `layout`, which holds the paragraph's bytes from `offset` on (`bytes` is the
    /// whole paragraph, `starts` its runs' byte offsets); each with the byte its text starts at.
    func collectLines(
        layout: GObjectRef, paragraph: StyledParagraph, bytes: [UInt8], base offset: Int,
        starts: [Int]
    ) -> [(line: ShapedLine, startByte: Int)] {
        // The runs with a link or another language of this layout's bytes only: a long paragraph is laid out in many
        // pieces, and looking at every run for each would be quadratic in its runs.
        let pieceEnd = offset + strlen(pango_layout_get_text(layout.opaque))
        var linkRuns: [Int] = []
        let firstRun = runIndex(atByte: offset, starts: starts) ?? 0
        for index in firstRun..<min(paragraph.runs.count, starts.count) {
            if starts[index] >= pieceEnd { break }
            if Self.isTagged(paragraph.runs[index]) { linkRuns.append(index) }
        }
        var lines: [(line: ShapedLine, startByte: Int)] = []
        let iter = pango_layout_get_iter(layout.opaque)!
        defer { pango_layout_iter_free(iter) }
        let scale = Double(PANGO_SCALE)
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let lineStart = offset + Int(line.pointee.start_index)
            var shaped = describe(
                line, owner: layout, x: Double(logical.x) / scale, width: Double(logical.width) / scale,
                paragraph: paragraph, bytes: bytes, base: offset, starts: starts, linkRuns: linkRuns)
            // After U+2028 (E2 80 A8), which Pango breaks at (UAX #14, class BK): in prose a hard
            // break, a new line; in code (which draws U+2029 as U+2028) a character of the source
            // line, whose next drawn line continues it as a wrap does (its copy text, its number).
            let afterSeparator = lineStart >= 3 && bytes[lineStart - 3..<lineStart] == [0xE2, 0x80, 0xA8]
            let wraps = line.pointee.is_paragraph_start == 0 || lineStart == offset
            let continues = paragraph.style.breakAnywhere ? wraps || afterSeparator : wraps && !afterSeparator
            shaped.isWrapContinuation = continues && lineStart > 0 && bytes[lineStart - 1] != 0x0A
            lines.append((shaped, lineStart))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }

    /// Whether `run` has a link or is in a span of another language (``RunStyle/spanLanguage``):
    /// the runs whose places on its lines a line lists (``ShapedLine/links``,
    /// ``ShapedLine/languages``).
    static func isTagged(_ run: StyledRun) -> Bool {
        (run.style.link != nil || run.style.spanLanguage != nil) && !run.text.isEmpty
    }

    /// One drawable line: `line` (whose layout holds the paragraph's bytes from `offset` on)
    /// with its left edge at `x` and its advance `width`, pt; ascent and descent from the
    /// primary faces of its runs, its link rectangles and spans of another language
    /// (`linkRuns`: indices of the runs with either, ``isTagged(_:)``) and its text. Each run
    /// is put on the alphabetic baseline (``BaselineAlignment``).
    /// `owner` and `carrier` are kept alive with the line.
    func describe(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, owner: GObjectRef, carrier: GObjectRef? = nil,
        x lineX: Double, width: Double, paragraph: StyledParagraph, bytes: [UInt8], base offset: Int,
        starts: [Int], linkRuns: [Int]
    ) -> ShapedLine {
        let runs = paragraph.runs
        let scale = Double(PANGO_SCALE)
        let lineStart = offset + Int(line.pointee.start_index)
        let lineEnd = lineStart + Int(line.pointee.length)

        var ascent = -Double.infinity
        var descent = -Double.infinity
        var shiftedAscent = 0.0
        var shiftedDescent = 0.0
        var strokes: [PangoLineHandle.StrokeRun] = []
        var pictureHeight = 0.0
        var runX = 0.0
        var node = line.pointee.runs
        while let runNode = node {
            let glyphItem = runNode.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let item = glyphItem.pointee.item!
            let runWidth = Double(pango_glyph_string_get_width(glyphItem.pointee.glyphs)) / scale
            let index = runIndex(atByte: offset + Int(item.pointee.offset), starts: starts)
            BaselineAlignment.place(glyphItem, offset: index.map { runs[$0].style.baselineOffset } ?? 0)
            if let index {
                let style = runs[index].style
                let faceMetrics = primaryMetrics(style.font)
                var primaryAscent = faceMetrics.ascent
                if let image = style.inlineImage {
                    let height = InlineImageShapes.box(image, shaper: self, style: style).height
                    primaryAscent = max(primaryAscent, height)
                    pictureHeight = max(pictureHeight, height + style.baselineOffset)
                }
                let formula = MathShapes.extents(of: style, fonts: session.configuration, hold: shapeHold)
                primaryAscent = max(primaryAscent, formula.height)
                let primaryDescent = max(faceMetrics.descent, formula.depth)
                if style.baselineOffset == 0 {
                    ascent = max(ascent, primaryAscent)
                    descent = max(descent, primaryDescent)
                } else {
                    shiftedAscent = max(shiftedAscent, primaryAscent + style.baselineOffset)
                    shiftedDescent = max(shiftedDescent, faceMetrics.descent - style.baselineOffset)
                }
                if let stroke = style.stroke {
                    strokes.append(
                        .init(
                            x: runX, rise: Double(glyphItem.pointee.y_offset) / scale,
                            glyphItem: glyphItem, stroke: stroke))
                }
            }
            runX += runWidth
            node = runNode.pointee.next
        }
        if ascent == -.infinity, shiftedAscent > 0 || shiftedDescent > 0 {
            // Only shifted runs: the line keeps its paragraph's face.
            let base = primaryMetrics(paragraph.style.baseFont)
            ascent = base.ascent
            descent = base.descent
        }
        if ascent == -.infinity {
            // No glyph runs (empty paragraph or an empty line after a hard break): the
            // line holds the style of the text just before it, or the paragraph's face.
            if lineStart > 0, let index = runIndex(atByte: lineStart - 1, starts: starts) {
                let style = runs[index].style
                let faceMetrics = primaryMetrics(style.font)
                ascent = faceMetrics.ascent
                descent = faceMetrics.descent
            } else {
                let base = primaryMetrics(paragraph.style.baseFont)
                ascent = base.ascent
                descent = base.descent
            }
        }

        let (links, languages) = Self.taggedSpans(
            of: line, x: lineX, runs: runs, starts: starts, linkRuns: linkRuns, bytes: lineStart..<lineEnd,
            base: offset)

        let lineText = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        let handle = PangoLineHandle(
            layout: owner, line: line, strokes: strokes, carrier: carrier, pictureHeight: pictureHeight)
        var shaped = ShapedLine(
            handle: handle, x: lineX, width: width,
            ascent: ascent, descent: descent, links: links, text: lineText)
        shaped.languages = languages
        shaped.shiftedAscent = shiftedAscent
        shaped.shiftedDescent = shiftedDescent
        return shaped
    }

    /// The links and the stretches in another language (``ShapedLine/links``,
    /// ``ShapedLine/languages``) of `line`, whose left edge is at `x` pt and which holds the
    /// paragraph's `bytes` (its layout holds them from `base` on): from the runs `linkRuns`
    /// (``isTagged(_:)``, in text order) that reach into it.
    static func taggedSpans(
        of line: UnsafeMutablePointer<PangoLayoutLine>, x: Double, runs: [StyledRun], starts: [Int],
        linkRuns: [Int], bytes: Range<Int>, base offset: Int
    ) -> (links: [LinkSpan], languages: [LanguageSpan]) {
        let scale = Double(PANGO_SCALE)
        var links: [LinkSpan] = []
        // The link runs that end after the line's start, up to the first that starts at or
        // after its end (`linkRuns` is in text order): a line looks at its own links only.
        var low = 0
        var high = linkRuns.count
        while low < high {
            let mid = (low + high) / 2
            if starts[linkRuns[mid]] + runs[linkRuns[mid]].text.utf8.count <= bytes.lowerBound {
                low = mid + 1
            } else {
                high = mid
            }
        }
        var languages: [LanguageSpan] = []
        for index in linkRuns[low...] {
            guard starts[index] < bytes.upperBound else { break }
            let run = runs[index]
            let linkStart = max(starts[index], bytes.lowerBound)
            let linkEnd = min(starts[index] + run.text.utf8.count, bytes.upperBound)
            guard linkStart < linkEnd else { continue }
            for range in Self.xRanges(ofBytes: (linkStart - offset)..<(linkEnd - offset), in: line) {
                let left = x + Double(range.lowerBound) / scale
                let right = x + Double(range.upperBound) / scale
                if let target = run.style.link {
                    if let previous = links.last, previous.target == target,
                        abs(previous.x + previous.width - left) < 0.01
                    {
                        links[links.count - 1].width = right - previous.x
                    } else {
                        links.append(LinkSpan(x: left, width: right - left, target: target))
                    }
                }
                if let language = run.style.spanLanguage {
                    if let previous = languages.last, previous.language == language,
                        abs(previous.x + previous.width - left) < 0.01
                    {
                        languages[languages.count - 1].width = right - previous.x
                    } else {
                        languages.append(LanguageSpan(x: left, width: right - left, language: language))
                    }
                }
            }
        }
        return (links, languages)
    }
}

extension PangoShaper {
    /// Where the characters of `bytes` (of the layout's text) lie along `line`, Pango units
    /// from its left edge, left to right: one range for each run they reach into, those that
    /// touch made one. A stretch of text in one direction is one range; one that changes
    /// direction (a link whose text ends in Arabic, in an English line) may be several, as
    /// Unicode's bidirectional algorithm (UAX #9) places its runs, and no edge of one character
    /// stands for the others': the trailing edge of a right-to-left run's last character is its
    /// left end. Each run is read alone, with `pango_glyph_string_index_to_x` on its own text:
    /// Pango 1.50's `pango_layout_line_index_to_x` first counts the characters of the layout's
    /// text up to the index (`g_utf8_pointer_to_offset`), so a link wrapped over many lines of
    /// one layout would cost time quadratic in its length.
    static func xRanges(ofBytes bytes: Range<Int>, in line: UnsafeMutablePointer<PangoLayoutLine>) -> [Range<Int32>] {
        guard let text = pango_layout_get_text(line.pointee.layout), !bytes.isEmpty else { return [] }
        var ranges: [Range<Int32>] = []
        var before: Int32 = 0
        var node = line.pointee.runs
        while let runNode = node {
            let glyphItem = runNode.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let item = glyphItem.pointee.item!
            let start = Int(item.pointee.offset)
            let end = start + Int(item.pointee.length)
            let low = max(bytes.lowerBound, start)
            var last = min(bytes.upperBound, end) - 1
            if low <= last {
                while last > low && (UInt8(bitPattern: text[last]) & 0xC0) == 0x80 { last -= 1 }
                var leading: Int32 = 0
                var trailing: Int32 = 0
                pango_glyph_string_index_to_x(
                    glyphItem.pointee.glyphs, text + start, Int32(end - start), &item.pointee.analysis,
                    Int32(low - start), 0, &leading)
                pango_glyph_string_index_to_x(
                    glyphItem.pointee.glyphs, text + start, Int32(end - start), &item.pointee.analysis,
                    Int32(last - start), 1, &trailing)
                let range = (before + min(leading, trailing))..<(before + max(leading, trailing))
                if let previous = ranges.last, previous.upperBound >= range.lowerBound - 1,
                    range.upperBound >= previous.lowerBound - 1
                {
                    ranges[ranges.count - 1] =
                        min(previous.lowerBound, range.lowerBound)..<max(previous.upperBound, range.upperBound)
                } else {
                    ranges.append(range)
                }
            }
            before += pango_glyph_string_get_width(glyphItem.pointee.glyphs)
            node = runNode.pointee.next
        }
        return ranges
    }
}

/// The drawable line behind a ``ShapedLine``: a `PangoLayoutLine` and a strong reference to
/// the layout that owns it, plus the runs that need an outline stroked under their fill.
final class PangoLineHandle {
    struct StrokeRun {
        /// Run origin from the line's left edge, pt.
        var x: Double
        /// Baseline shift, pt, positive up.
        var rise: Double
        var glyphItem: UnsafeMutablePointer<PangoGlyphItem>
        var stroke: Stroke
    }
    let layout: GObjectRef
    let line: UnsafeMutablePointer<PangoLayoutLine>
    let strokes: [StrokeRun]
    /// The layout that allocated `line` when it is not `layout` (a line cut from a measured
    /// layout, ``PangoShaper/linesFromMeasurement``): kept alive, as it releases the line.
    let carrier: GObjectRef?
    /// How far the tallest picture set inside the line reaches above its baseline, pt (0: none).
    let pictureHeight: Double
    /// The colours of a highlighted code line's glyphs, painted over its one drawn colour.
    var paints: CodePaints?

    init(
        layout: GObjectRef, line: UnsafeMutablePointer<PangoLayoutLine>, strokes: [StrokeRun],
        carrier: GObjectRef? = nil,
        pictureHeight: Double = 0
    ) {
        self.layout = layout
        self.line = pango_layout_line_ref(line)
        self.strokes = strokes
        self.carrier = carrier
        self.pictureHeight = pictureHeight
    }
    deinit { SharedFontMap.giveUp(line, keeping: carrier.map { [layout, $0] } ?? [layout]) }
}

/// The lines of short paragraphs already shaped (markers, empty items, numbers), so that a
/// long list shapes its bullet once. Holds at most ``capacity`` paragraphs and is emptied
/// when full; it belongs to the shaper that owns it.
struct ShortParagraphs {
    /// A paragraph and the width it was shaped at (nil: unwrapped).
    struct Key: Hashable {
        var paragraph: StyledParagraph
        var width: Double?
    }

    /// Paragraphs kept at most.
    static let capacity = 256
    /// The longest text, in UTF-8 bytes, of a paragraph kept.
    static let longestText = 8

    var shaped: [Key: ShapedParagraph] = [:]

    /// Whether `paragraph` is short enough to keep: at most one run of at most ``longestText``
    /// bytes, and no marker.
    static func isShort(_ paragraph: StyledParagraph) -> Bool {
        paragraph.marker == nil && paragraph.runs.count <= 1
            && (paragraph.runs.first?.text.utf8.count ?? 0) <= longestText
            && paragraph.runs.first?.style.inlineImage == nil
    }

    mutating func remember(_ paragraph: ShapedParagraph, for key: Key) {
        if shaped.count >= Self.capacity { shaped.removeAll(keepingCapacity: true) }
        shaped[key] = paragraph
    }
}
