internal import CPangoCairo
import DocumentModel
import Foundation
import Layout
import Styling
import Typography

/// The backend's half of paragraph layout (``ParagraphLayout`` runs the stages): shape the
/// paragraph once, unwrapped, and read back what the line breaker needs (glyph-cluster
/// advances from HarfBuzz, break opportunities from Pango's log attributes, hyphen widths);
/// then cut the chosen lines from that shaping (``linesFromMeasurement``), or shape them again
/// as one `PangoLayout` with a line separator (U+2028) at each chosen break and a hyphen at
/// each chosen hyphenation point, justified by widening the glyphs of word spaces and Hangul
/// syllables in place — so code spaces, no-break spaces and tracking keep their widths.
///
/// Each step that reads or makes Pango objects holds the font map's lock (``SharedFontMap``);
/// the line breaking between them, the composer's own Swift work, holds none, so a thread
/// drawing the render's pages takes its turns with the font map meanwhile.
struct PangoParagraphShaping: ParagraphShaping {
    let shaper: PangoShaper

    var maximumRunsPerShaping: Int { ParagraphPieces.maximumRuns }

    var cancellation: Cancellation? { shaper.cancellation }

    func metrics(of font: FontSpec) -> FontMetrics { SharedFontMap.run { shaper.primaryMetrics(font) } }

    /// The unwrapped layout of the whole paragraph (a table cell's kept from measuring its
    /// width); nil for a paragraph too wide for one (past ``PangoShaper/composedWidth`` at 2 em
    /// a character) or of more runs, or more items of mixed directions, than a layout takes in
    /// linear time (``ParagraphPieces/maximumRuns``, ``ParagraphPieces/mixedDirectionItemStarts(_:)``).
    func measure(_ paragraph: StyledParagraph, text: CollectedText) -> GObjectRef? {
        let wide =
            paragraph.runs.count > ParagraphPieces.maximumRuns
            || PangoShaper.unwrappedWidthBound(paragraph) >= PangoShaper.composedWidth
            || ParagraphPieces.mixedDirectionItemStarts(text.bytes).count > ParagraphPieces.maximumRuns
        if wide { return nil }
        return SharedFontMap.run {
            shaper.keptCells.take(paragraph)
                ?? shaper.unwrappedLayout(text: text.text, paragraph: paragraph, starts: text.starts)
        }
    }

    func singleLineWidth(of measurement: GObjectRef) -> Double? {
        SharedFontMap.run {
            guard pango_layout_get_line_count(measurement.opaque) == 1 else { return nil }
            var logical = PangoRectangle()
            pango_layout_get_extents(measurement.opaque, nil, &logical)
            return Double(logical.width) / Double(PANGO_SCALE)
        }
    }

    func lines(of measurement: GObjectRef, paragraph: StyledParagraph, text: CollectedText) -> ShapedLines {
        SharedFontMap.run {
            let lines = shaper.collectLines(
                layout: measurement, paragraph: paragraph, bytes: text.bytes, base: 0, starts: text.starts
            ).map(\.line)
            return ShapedLines(lines: lines, rightToLeft: PangoShaper.rightToLeftLines(measurement))
        }
    }

    func prepare(_ measurement: GObjectRef?, paragraph: StyledParagraph, text: CollectedText) -> PreparedParagraph {
        SharedFontMap.run {
            measurement.map { shaper.prepare($0, text: text.text, paragraph: paragraph) }
                ?? shaper.prepareInPieces(text: text.text, paragraph: paragraph, starts: text.starts)
        }
    }

    func hasHyphenationPatterns(for language: String) -> Bool { Hyphenator.hasPatterns(for: language) }

    func hyphenationPoints(in word: String, language: String) -> [Int] {
        Hyphenator.points(in: word, language: language)
    }

    func breakKerning(in font: FontSpec, before: Unicode.Scalar, after: Unicode.Scalar, addsHyphen: Bool) -> Double {
        SharedFontMap.run { shaper.breakKerning(in: font, before: before, after: after, addsHyphen: addsHyphen) }
    }

    /// Lines cut from the measurement are left-to-right (a paragraph with right-to-left runs
    /// is shaped again).
    func cutLines(
        from measurement: GObjectRef, composition: Composition, prepared: PreparedParagraph,
        paragraph: StyledParagraph, text: CollectedText
    ) -> [ShapedLine]? {
        guard shaper.cutsMeasuredLines else { return nil }
        return SharedFontMap.run {
            shaper.linesFromMeasurement(
                measurement, composition: composition, prepared: prepared, paragraph: paragraph, bytes: text.bytes,
                starts: text.starts)
        }
    }

    func shapeLines(_ lineSet: LineSet, composed: ArraySlice<ComposedLine>) -> ShapedLines {
        SharedFontMap.run {
            let layout = shaper.unwrappedLayout(
                text: lineSet.text, paragraph: lineSet.paragraph, starts: lineSet.starts)
            shaper.justify(layout, lines: composed, spaces: lineSet.stretchableSpace, gaps: lineSet.syllableGap)
            let rightToLeft = PangoShaper.rightToLeftLines(layout)
            let lines = shaper.collectLines(
                layout: layout, paragraph: lineSet.paragraph, bytes: Array(lineSet.text.utf8), base: 0,
                starts: lineSet.starts
            ).map(\.line)
            return ShapedLines(lines: lines, rightToLeft: rightToLeft)
        }
    }
}

extension PangoShaper {
    /// Lays out `paragraph` at `width` pt through the paragraph stages: every line at once.
    func composeWhole(_ paragraph: StyledParagraph, width: Double) -> ShapedParagraph {
        switch composeInGroups(paragraph, width: width) {
        case .whole(let shaped):
            return shaped
        case .pending(var pending):
            var lines: [ShapedLine] = []
            while let group = nextGroup(&pending) { lines += group.lines }
            return ShapedParagraph(lines: lines)
        }
    }

    /// Lays out `paragraph` at `width` pt through the paragraph stages (each step that reads or
    /// makes Pango objects under ``SharedFontMap/run(_:)``, the line breaking between them
    /// not), noting the words wider than `width` it broke or left overfull
    /// (``overwideWords``): a paragraph that fits on one line, or one whose lines are cut from
    /// its measurement, comes back whole; the others as chosen lines to shape with
    /// ``nextGroup(_:)``.
    func composeInGroups(_ paragraph: StyledParagraph, width: Double) -> ParagraphLayout.Lines {
        let composed = ParagraphLayout.compose(paragraph, width: width, shaping: PangoParagraphShaping(shaper: self))
        SharedFontMap.run { overwideWords += composed.brokenWords }
        return composed.lines
    }

    /// Shapes the next group of `pending`'s chosen lines, or nil
    /// when all are made.
    func nextGroup(_ pending: inout PendingLines) -> ShapedLineGroup? {
        ParagraphLayout.nextGroup(&pending, shaping: PangoParagraphShaping(shaper: self))
    }

    /// Whether each line of `layout`, in order, belongs to a right-to-left paragraph (its
    /// resolved base direction, from the first strong character with automatic direction).
    static func rightToLeftLines(_ layout: GObjectRef) -> [Bool] {
        var result: [Bool] = []
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            let line = lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            result.append(line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue)
            node = lineNode.pointee.next
        }
        return result
    }

    /// A layout of `text` with the runs' attributes, no wrapping, left-aligned.
    func unwrappedLayout(text: String, paragraph: StyledParagraph, starts: [Int]) -> GObjectRef {
        let byteCount = text.utf8.count
        let pointer = pango_layout_new(context.opaque)!
        layoutsMade += 1
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(pointer), session: session)
        pango_layout_set_text(pointer, PDFText.sameLength(text), Int32(byteCount))
        pango_layout_set_font_description(
            pointer, setup.shapingDescription(paragraph.style.baseFont, for: text).pointer)
        let attrs = AttrList()
        let bytes = Array(text.utf8)
        for (index, run) in paragraph.runs.enumerated() where !run.text.isEmpty {
            let range = starts[index]..<(starts[index] + run.text.utf8.count)
            let variantRanges =
                run.style.smallCaps == .lowercase || run.style.smallCaps == .all
                ? Self.rangesWithoutEmoji(bytes, range) : []
            addAttributes(
                run.style, text: run.text, to: attrs, start: range.lowerBound, end: range.upperBound,
                variantRanges: variantRanges)
        }
        // Each line separator (U+2028, the breaks the composer sets) as an empty box: no face
        // has a glyph for it, and looking one up makes Pango size a missing-glyph box in a
        // monospace face of its own size — another fontconfig sort per size. Pango draws the
        // separator as nothing either way.
        var empty = PangoRectangle()
        for i in 0..<max(0, bytes.count - 2) where bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA8 {
            var ink = empty
            attrs.insert(pango_attr_shape_new(&ink, &empty), i, i + 3)
        }
        pango_layout_set_attributes(pointer, attrs.pointer)
        pango_layout_set_width(pointer, -1)
        pango_layout_set_alignment(pointer, PANGO_ALIGN_LEFT)
        return layout
    }

    /// Per-scalar advances and break opportunities of the measured (unwrapped) layout.
    fileprivate func prepare(_ layout: GObjectRef, text: String, paragraph: StyledParagraph) -> PreparedParagraph {
        var advanceAtByte = [Int32](repeating: 0, count: text.utf8.count + 1)
        var clusterStarts = [Bool](repeating: false, count: text.utf8.count + 1)
        Self.addAdvances(of: layout, at: 0, to: &advanceAtByte, clusterStarts: &clusterStarts)
        var attrCount: Int32 = 0
        let attrs = pango_layout_get_log_attrs_readonly(layout.opaque, &attrCount)!
        return prepared(
            paragraph, advanceAtByte: advanceAtByte, clusterStarts: clusterStarts,
            breaks: UnsafeBufferPointer(start: attrs, count: Int(attrCount)))
    }

    /// ``prepare(_:text:paragraph:)`` for a paragraph too wide for one layout: each piece
    /// (``ParagraphPieces``, cut after a space where there is one) is shaped unwrapped in a
    /// layout of its own and released; the break opportunities are Pango's for the whole text
    /// (``BreakAttributes``, UAX #14), which no cut changes. Time and memory stay linear in the
    /// paragraph's length.
    fileprivate func prepareInPieces(text: String, paragraph: StyledParagraph, starts: [Int]) -> PreparedParagraph {
        let bytes = Array(text.utf8)
        var advanceAtByte = [Int32](repeating: 0, count: bytes.count + 1)
        var clusterStarts = [Bool](repeating: false, count: bytes.count + 1)
        let pieces = ParagraphPieces(runs: paragraph.runs, starts: starts, bytes: bytes, wraps: false)
        var start = 0
        // The first run that ends after the piece's start: each piece looks at its own runs
        // only (walking every run for every piece cost time quadratic in a paragraph of links).
        var firstRun = 0
        var piece = paragraph
        piece.runs = []
        // A cancelled render stops measuring: the composer sees the cancellation next and sets
        // nothing of what was measured.
        while start < bytes.count, cancellation?.isCancelled != true {
            let end = max(start + 1, pieces.end(from: start))
            piece.runs.removeAll(keepingCapacity: true)
            var pieceStarts: [Int] = []
            while firstRun < paragraph.runs.count,
                starts[firstRun] + paragraph.runs[firstRun].text.utf8.count <= start
            {
                firstRun += 1
            }
            var index = firstRun
            while index < paragraph.runs.count, starts[index] < end {
                let runStart = max(starts[index], start)
                let runEnd = min(starts[index] + paragraph.runs[index].text.utf8.count, end)
                if runStart < runEnd {
                    var clipped = paragraph.runs[index]
                    clipped.text = String(decoding: bytes[runStart..<runEnd], as: UTF8.self)
                    pieceStarts.append(runStart - start)
                    piece.runs.append(clipped)
                }
                index += 1
            }
            let layout = unwrappedLayout(
                text: String(decoding: bytes[start..<end], as: UTF8.self), paragraph: piece, starts: pieceStarts)
            Self.addAdvances(of: layout, at: start, to: &advanceAtByte, clusterStarts: &clusterStarts)
            start = end
        }
        let attrs = BreakAttributes.of(PDFText.sameLength(text), language: pango_context_get_language(context.opaque))
        return attrs.withUnsafeBufferPointer {
            prepared(paragraph, advanceAtByte: advanceAtByte, clusterStarts: clusterStarts, breaks: $0)
        }
    }

    /// Adds the glyph advances of every line of `layout` (whose text starts at byte `offset`
    /// of the paragraph's) to `advanceAtByte`, each at the byte its cluster starts at, and marks
    /// those bytes in `clusterStarts`.
    private static func addAdvances(
        of layout: GObjectRef, at offset: Int, to advanceAtByte: inout [Int32], clusterStarts: inout [Bool]
    ) {
        let byteCount = advanceAtByte.count - 1
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            forEachGlyphRun(of: lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)) {
                itemOffset, glyphs in
                for j in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + itemOffset + Int(glyphs.pointee.log_clusters[j])
                    guard byte <= byteCount else { continue }
                    advanceAtByte[byte] += glyphs.pointee.glyphs[j].geometry.width
                    clusterStarts[byte] = true
                }
            }
            node = lineNode.pointee.next
        }
    }

    /// The composer's view of the paragraph: its scalars with their runs and advances (pt), and
    /// the break opportunities before each (`breaks`: Pango log attributes, one per scalar and
    /// one for the end).
    private func prepared(
        _ paragraph: StyledParagraph, advanceAtByte: [Int32], clusterStarts: [Bool],
        breaks attrs: UnsafeBufferPointer<PangoLogAttr>
    ) -> PreparedParagraph {
        let byteCount = advanceAtByte.count - 1
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(byteCount)
        var runIndex: [Int] = []
        var advances: [Double] = []
        runIndex.reserveCapacity(byteCount)
        advances.reserveCapacity(byteCount)
        for (index, run) in paragraph.runs.enumerated() {
            for s in run.text.unicodeScalars {
                scalars.append(s)
                runIndex.append(index)
            }
        }
        var byte = 0
        let scale = Double(PANGO_SCALE)
        // Scalars inside a glyph cluster of several characters (a ligature: Inter draws `->` as
        // one arrow): no line breaks before them, since a line cannot end inside a glyph.
        var insideCluster = [Bool](repeating: false, count: scalars.count + 1)
        for (index, s) in scalars.enumerated() {
            advances.append(Double(advanceAtByte[byte]) / scale)
            insideCluster[index] =
                index > 0 && !clusterStarts[byte] && Self.isDrawn(s) && Self.isDrawn(scalars[index - 1])
            byte += UTF8.width(s)
        }
        let count = min(attrs.count, scalars.count + 1)
        var lineBreak = [Bool](repeating: false, count: scalars.count + 1)
        var charBreak = lineBreak
        for i in 0..<count where !insideCluster[i] {
            lineBreak[i] = attrs[i].is_line_break != 0
            charBreak[i] = attrs[i].is_char_break != 0
        }
        let hyphens = paragraph.runs.map { hyphenWidth($0.style) }
        return PreparedParagraph(
            scalars: scalars, runIndex: runIndex, advances: advances, lineBreakBefore: lineBreak,
            charBreakBefore: charBreak, hyphenWidths: hyphens)
    }

    /// Whether `scalar` is drawn as a glyph of a run (a letter, mark, number, punctuation or
    /// symbol), not a space, separator or control, which Pango may set apart from any cluster.
    private static func isDrawn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .unassigned:
            false
        default: true
        }
    }

    /// Width of "-" in the run's face, pt (cached per face).
    private func hyphenWidth(_ style: RunStyle) -> Double {
        if let width = setup.cache.hyphenWidths[style.font] { return width }
        let width = naturalWidth(of: "-", in: style.font)
        setup.cache.hyphenWidths[style.font] = width
        return width
    }

    /// The natural width of `text` shaped alone in `font`, pt.
    func naturalWidth(of text: String, in font: FontSpec) -> Double {
        let pointer = pango_layout_new(context.opaque)!
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(pointer), session: session)
        pango_layout_set_text(pointer, text, Int32(text.utf8.count))
        pango_layout_set_font_description(pointer, setup.shapingDescription(font, for: text).pointer)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout.opaque, nil, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    /// What a break between `before` and `after` changes in its line's width in `font`, pt,
    /// from HarfBuzz shaping each pair alone in the first family's face (as Pango shapes it,
    /// default features): what `before` takes at the line's end (with a hyphen when the break
    /// `addsHyphen`: the width of "c-" less the hyphen's nominal advance; else its own advance)
    /// less the advance of its cluster in "cn" (its advance as measured in the text, its
    /// kerning with n included; a ligature's whole advance when the pair forms one). 0 when the
    /// face lacks a character (another face sets it). Cached per face and pair.
    func breakKerning(in font: FontSpec, before: Unicode.Scalar, after: Unicode.Scalar, addsHyphen: Bool) -> Double {
        let key = BreakPair(font: font, before: before, after: after, addsHyphen: addsHyphen)
        if let kerning = setup.cache.breakKernings[key] { return kerning }
        var kerning = 0.0
        if let face = setup.primaryFace(font), let hb = pango_font_get_hb_font(face.typed(PangoFont.self)),
            let ending = addsHyphen ? advanceBeforeHyphen(before, in: font, hb) : Self.shapedAdvance(hb, before),
            let joined = Self.shapedAdvances(hb, before, after)
        {
            kerning = (ending - joined.first) / Double(PANGO_SCALE)
        }
        setup.cache.breakKernings[key] = kerning
        return kerning
    }

    /// The width of `letter` and a hyphen shaped together with `hb` less the hyphen's nominal
    /// advance, in the font's units (cached per face and letter); nil when the face lacks
    /// either.
    private func advanceBeforeHyphen(_ letter: Unicode.Scalar, in font: FontSpec, _ hb: OpaquePointer) -> Double? {
        let key = BreakPair(font: font, before: letter, after: "-", addsHyphen: true)
        if let advance = setup.cache.advancesBeforeHyphen[key] { return advance }
        var hyphen: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hb, 0x2D, &hyphen) != 0 else { return nil }
        let advance = Self.shapedAdvances(hb, letter, "-").map {
            $0.total - Double(hb_font_get_glyph_h_advance(hb, hyphen))
        }
        setup.cache.advancesBeforeHyphen[key] = advance
        return advance
    }

    /// The advance of `scalar` shaped alone with `font`, in the font's units; nil when it maps
    /// to no glyph.
    private static func shapedAdvance(_ font: OpaquePointer, _ scalar: Unicode.Scalar) -> Double? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 else { return nil }
        return Double(hb_font_get_glyph_h_advance(font, glyph))
    }

    /// The total advance of `first` and `second` shaped together with `font`, and the advance of
    /// `first`'s cluster, in the font's units; nil when either maps to no glyph.
    private static func shapedAdvances(
        _ font: OpaquePointer, _ first: Unicode.Scalar, _ second: Unicode.Scalar
    ) -> (total: Double, first: Double)? {
        guard let buffer = hb_buffer_create() else { return nil }
        defer { hb_buffer_destroy(buffer) }
        let text: [UInt32] = [first.value, second.value]
        hb_buffer_add_utf32(buffer, text, 2, 0, 2)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return nil }
        var total = 0.0
        var firstCluster = 0.0
        for index in 0..<Int(count) {
            guard infos[index].codepoint != 0 else { return nil }
            total += Double(positions[index].x_advance)
            if infos[index].cluster == 0 { firstCluster += Double(positions[index].x_advance) }
        }
        return (total, firstCluster)
    }

    /// Widens the glyphs of stretchable word spaces (by the line's space factor × their own
    /// advance) and of Hangul syllables (by the line's syllable spacing). Drawing, underlines,
    /// backgrounds and link rectangles follow the glyph widths; Pango's cached line extents do
    /// not, so line widths come from the composer.
    fileprivate func justify(_ layout: GObjectRef, lines: ArraySlice<ComposedLine>, spaces: [Bool], gaps: [Bool]) {
        let scale = Double(PANGO_SCALE)
        var node = pango_layout_get_lines_readonly(layout.opaque)
        var index = lines.startIndex
        while let lineNode = node, index < lines.endIndex {
            let composed = lines[index]
            if composed.spaceFactor != 0 || composed.syllableSpacing != 0 || composed.wordSpace != nil {
                Self.forEachGlyphRun(of: lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)) {
                    offset, glyphs in
                    var previousCluster: Int32 = -1
                    for j in 0..<Int(glyphs.pointee.num_glyphs) {
                        let cluster = glyphs.pointee.log_clusters[j]
                        defer { previousCluster = cluster }
                        guard cluster != previousCluster else { continue }
                        let byte = offset + Int(cluster)
                        guard byte < spaces.count else { continue }
                        if spaces[byte] {
                            glyphs.pointee.glyphs[j].geometry.width = PangoShaper.justifiedSpace(
                                glyphs.pointee.glyphs[j].geometry.width, composed)
                        } else if gaps[byte] {
                            glyphs.pointee.glyphs[j].geometry.width += Int32(
                                (composed.syllableSpacing * scale).rounded())
                        }
                    }
                }
            }
            index += 1
            node = lineNode.pointee.next
        }
    }

    /// Calls `body` with each glyph run of `line`: the byte offset of its item in the layout's
    /// text and its glyph string (whose widths `body` may change in place).
    private static func forEachGlyphRun(
        of line: UnsafeMutablePointer<PangoLayoutLine>,
        _ body: (Int, UnsafeMutablePointer<PangoGlyphString>) -> Void
    ) {
        var runNode = line.pointee.runs
        while let runLink = runNode {
            let glyphItem = runLink.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            body(Int(glyphItem.pointee.item.pointee.offset), glyphItem.pointee.glyphs!)
            runNode = runLink.pointee.next
        }
    }
}
