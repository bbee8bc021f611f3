internal import CPangoCairo
import Foundation
import Layout
import Styling

/// The backend's half of paragraph composition: shape the paragraph once, unwrapped, and read
/// back what ``ParagraphComposer`` needs (glyph-cluster advances from HarfBuzz, break
/// opportunities from Pango's log attributes, hyphen widths); then build the chosen lines as
/// one `PangoLayout` with a line separator (U+2028) at each chosen break and a hyphen at each
/// chosen hyphenation point, and justify by widening the glyphs of word spaces and Hangul
/// syllables in place — so code spaces, no-break spaces and tracking keep their widths.
extension PangoShaper {
    /// A paragraph that fits on one line is shaped once; a longer one a second time at its
    /// chosen breaks (the composer measures candidate lines and never shapes them).
    func composeLocked(_ paragraph: StyledParagraph, width: Double) -> ShapedParagraph {
        switch composeInGroupsLocked(paragraph, width: width) {
        case .whole(let shaped):
            return shaped
        case .pending(var pending):
            var lines: [ShapedLine] = []
            while let group = nextGroupLocked(&pending) { lines += group.lines }
            return ShapedParagraph(lines: lines)
        }
    }

    /// A composed paragraph: its lines all made (one that fits on one line, or lines cut from
    /// the measurement), or chosen and still to be laid out a group at a time.
    enum ComposedLines {
        case whole(ShapedParagraph)
        case pending(PendingLines)
    }

    /// The chosen lines of a paragraph still to be laid out, a group of lines at a time
    /// (``PangoShaper/lineGroups(_:prepared:)``, ``PangoShaper/nextGroupLocked(_:)``): what
    /// each group needs of the paragraph, and no Pango object, so a caller holds the drawable
    /// lines of one group only.
    struct PendingLines {
        let paragraph: StyledParagraph
        let width: Double
        let composition: Composition
        /// The composer's scalars and their runs (the rest of the measurements released); nil
        /// once the last group is built.
        var prepared: PreparedParagraph?
        /// The paragraph's text, UTF-8.
        let bytes: [UInt8]
        /// Each line's source text (``PangoShaper/sourceTextRanges(_:scalars:)``).
        let textRanges: [Range<Int>]
        /// Line index ranges, in order.
        let groups: [Range<Int>]
        /// The next group to lay out.
        var next = 0
    }

    /// Measures and composes `paragraph` (call under the font lock): a paragraph that fits on
    /// one line, or one whose lines are cut from its measurement, comes back whole; the others
    /// as chosen lines to lay out with ``nextGroupLocked(_:)``.
    func composeInGroupsLocked(_ paragraph: StyledParagraph, width: Double) -> ComposedLines {
        let runs = paragraph.runs
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var text = ""
        for run in runs {
            starts.append(text.utf8.count)
            text += run.text
        }
        // An empty paragraph (an empty list item, a cell with no text) has no glyph to lay out:
        // one line as tall as its base face, which draws nothing.
        if text.isEmpty {
            let base = primaryMetrics(paragraph.style.baseFont)
            let line = ShapedLine(handle: nil, x: 0, width: 0, ascent: base.ascent, descent: base.descent)
            return .whole(ShapedParagraph(lines: [line]))
        }
        // A paragraph too wide for one unwrapped layout (past ``composedWidth`` at 2 em a
        // character) is measured in pieces; it cannot fit on one line.
        // So is one of more runs than a layout takes in linear time (``ParagraphPieces/maximumRuns``).
        let wide = runs.count > ParagraphPieces.maximumRuns || Self.unwrappedWidthBound(paragraph) >= Self.composedWidth
        let measured =
            wide ? nil : keptCells.take(paragraph) ?? unwrappedLayout(text: text, paragraph: paragraph, starts: starts)
        let scale = Double(PANGO_SCALE)

        // One line that fits: draw the measured layout as it is.
        var logical = PangoRectangle()
        if let measured, pango_layout_get_line_count(measured.opaque) == 1 {
            pango_layout_get_extents(measured.opaque, nil, &logical)
            let natural = Double(logical.width) / scale
            if natural <= width + 0.001 {
                var lines = collectLines(
                    layout: measured, paragraph: paragraph, bytes: Array(text.utf8), base: 0, starts: starts
                ).map(\.line)
                let rightToLeft = Self.rightToLeftLines(measured)
                for i in lines.indices {
                    let alignment = Self.alignment(
                        paragraph.style.alignment, rightToLeft: i < rightToLeft.count && rightToLeft[i])
                    place(&lines[i], at: alignmentOffset(alignment, width: width, line: lines[i].width))
                }
                return .whole(ShapedParagraph(lines: lines))
            }
        }

        var prepared =
            measured.map { prepare($0, text: text, paragraph: paragraph) }
            ?? prepareInPieces(text: text, paragraph: paragraph, starts: starts)
        let composition = ParagraphComposer.compose(
            paragraph, prepared: prepared, width: width,
            hyphenate: { word, language in
                // Latin words in a language without patterns (Korean) are hyphenated as English.
                Hyphenator.points(in: word, language: Hyphenator.hasPatterns(for: language) ? language : "en")
            })
        if composition.emergency {
            emergencyCount += 1
            lastEmergencyWord = Self.brokenWord(composition, scalars: prepared.scalars, width: width)
        }
        let bytes = Array(text.utf8)
        // Each line's source text, as UTF-8 byte offsets (see below), found while the scalars are at hand.
        let textRanges = Self.sourceTextRanges(composition, scalars: prepared.scalars)
        // Lines cut from the measurement are left-to-right (a paragraph with right-to-left runs
        // is laid out again).
        if let measured, cutsMeasuredLines,
            var lines = linesFromMeasurement(
                measured, composition: composition, prepared: prepared,
                paragraph: paragraph, bytes: bytes, starts: starts)
        {
            finish(
                &lines, first: 0, count: composition.lines.count, rightToLeft: [], composition: composition,
                paragraph: paragraph, width: width, bytes: bytes, textRanges: textRanges)
            return .whole(ShapedParagraph(lines: lines))
        }
        // Laying the lines out needs only the scalars and their runs: the advances and break
        // opportunities (17 bytes a character) are released before the first layout is made.
        prepared.advances = []
        prepared.lineBreakBefore = []
        prepared.charBreakBefore = []
        let groups = Self.lineGroups(composition, prepared: prepared)
        return .pending(
            PendingLines(
                paragraph: paragraph, width: width, composition: composition, prepared: prepared,
                bytes: bytes, textRanges: textRanges, groups: groups))
    }

    /// Lays out the next group of `pending`'s chosen lines (call under the font lock), or nil
    /// when all are made: the group's lines in one layout, a line separator (U+2028) at each
    /// break, justified, placed and sized as composed.
    func nextGroupLocked(_ pending: inout PendingLines) -> ShapedLineGroup? {
        guard pending.next < pending.groups.count, let prepared = pending.prepared else { return nil }
        let group = pending.groups[pending.next]
        pending.next += 1
        let composition = pending.composition
        let lineSet = build(composition, lines: group, prepared: prepared, paragraph: pending.paragraph)
        if pending.next == pending.groups.count { pending.prepared = nil }  // released before the last layout is made
        let layout = unwrappedLayout(text: lineSet.text, paragraph: lineSet.paragraph, starts: lineSet.starts)
        justify(layout, lines: composition.lines[group], spaces: lineSet.stretchableSpace, gaps: lineSet.syllableGap)
        let rightToLeft = Self.rightToLeftLines(layout)
        var lines = collectLines(
            layout: layout, paragraph: lineSet.paragraph, bytes: Array(lineSet.text.utf8), base: 0,
            starts: lineSet.starts
        ).map(\.line)
        finish(
            &lines, first: group.lowerBound, count: group.count, rightToLeft: rightToLeft, composition: composition,
            paragraph: pending.paragraph, width: pending.width, bytes: pending.bytes, textRanges: pending.textRanges)
        return ShapedLineGroup(lines: lines, first: group.lowerBound, lineCount: composition.lines.count)
    }

    /// Places, sizes and labels `lines`, the composition's lines from index `first` (at most
    /// `count` of them; `rightToLeft` by line of `lines`, empty when all are left-to-right):
    /// each at the composer's offset and width, with its source text.
    private func finish(
        _ lines: inout [ShapedLine], first: Int, count: Int, rightToLeft: [Bool],
        composition: Composition, paragraph: StyledParagraph, width: Double, bytes: [UInt8],
        textRanges: [Range<Int>]
    ) {
        let startAligned = Self.alignment(paragraph.style.alignment, rightToLeft: true) != paragraph.style.alignment
        for k in lines.indices where k < count {
            let i = first + k
            let composed = composition.lines[i]
            if k < rightToLeft.count, rightToLeft[k], startAligned {
                // A start-aligned line of a right-to-left paragraph: flush right (a justified
                // line filling the measure stays at 0).
                place(&lines[k], at: alignmentOffset(.right, width: width, line: composed.width))
            } else {
                place(&lines[k], at: composed.x)
            }
            // Pango computed the line's extents before the glyphs were widened (its cache
            // cannot be invalidated): the composer's own width is the drawn advance.
            lines[k].width = composed.width
            lines[k].isWrapContinuation = i > 0 && composition.lines[i - 1].ending != .separator
            // Sliced from the paragraph's UTF-8 bytes (the scalars are the text's), not rebuilt
            // scalar by scalar.
            let range = textRanges[i]
            var last = range.upperBound
            if composed.ending == .hyphen {
                // A soft hyphen (U+00AD, C2 AD) the line ends at is printed as "-".
                if last - range.lowerBound >= 2, bytes[last - 2] == 0xC2, bytes[last - 1] == 0xAD { last -= 2 }
                lines[k].text = String(decoding: bytes[range.lowerBound..<last], as: UTF8.self) + "-"
            } else {
                lines[k].text = String(decoding: bytes[range.lowerBound..<last], as: UTF8.self)
            }
        }
    }

    /// The UTF-8 byte range of each composed line's source text (what the PDF embeds for
    /// copying) in the paragraph whose scalars are `scalars`: what the line holds, with the
    /// space it ends at (as Pango's wrapped lines have), up to the next line's start; a line
    /// ending at a separator stops before it. A line ending at a hyphen still includes a soft
    /// hyphen it ends at (the caller prints it as "-").
    /// The word an emergency composition broke: around the end of its first overfull line, else
    /// of its first line that ends between two letters or digits, else inside a word; nil when
    /// there is none.
    static func brokenWord(_ composition: Composition, scalars: [Unicode.Scalar], width: Double) -> String? {
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            !scalar.properties.isWhitespace && scalar.value != 0x2028 && scalar.value != 0xAD
        }
        func isLetter(_ index: Int) -> Bool {
            scalars.indices.contains(index) && scalars[index].value < 0x2E80
                && (scalars[index].properties.isAlphabetic || scalars[index].properties.numericType != nil)
        }
        let lines = composition.lines.dropLast()
        let overfull = composition.lines.first { $0.naturalWidth > width + 0.5 }
        let broken = lines.first { $0.ending == .opportunity && isLetter($0.end - 1) && isLetter($0.end) }
        // Code is often broken after punctuation (`cluster.setupPrimary(`): any break inside a word.
        let inWord = lines.first { line in
            line.ending == .opportunity && line.end > 0 && line.end < scalars.count
                && isWordScalar(scalars[line.end - 1]) && isWordScalar(scalars[line.end])
        }
        guard let line = overfull ?? broken ?? inWord else { return nil }
        var start = min(max(line.end - 1, line.start), scalars.count - 1)
        guard start >= 0, isWordScalar(scalars[start]) else { return nil }
        while start > 0, isWordScalar(scalars[start - 1]) { start -= 1 }
        var end = start
        while end < scalars.count, isWordScalar(scalars[end]) { end += 1 }
        var word = String.UnicodeScalarView()
        word.append(contentsOf: scalars[start..<end])
        return String(word)
    }

    static func sourceTextRanges(_ composition: Composition, scalars: [Unicode.Scalar]) -> [Range<Int>] {
        // Byte offsets of scalar offsets, walked from the last one asked (lines ask in order).
        var cursor = 0
        var cursorByte = 0
        func byte(_ scalar: Int) -> Int {
            while cursor < scalar {
                cursorByte += UTF8.width(scalars[cursor])
                cursor += 1
            }
            while cursor > scalar {
                cursor -= 1
                cursorByte -= UTF8.width(scalars[cursor])
            }
            return cursorByte
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(composition.lines.count)
        for (i, composed) in composition.lines.enumerated() {
            let end = i + 1 < composition.lines.count ? composition.lines[i + 1].start : scalars.count
            let first = byte(composed.start)
            let last = byte(max(composed.start, composed.ending == .separator ? composed.end : end))
            ranges.append(first..<last)
        }
        return ranges
    }

    /// Puts a line's left edge (and its link rectangles with it) at `x` pt from the paragraph
    /// box's left edge, whatever offset Pango gave it: the composer's alignment is the only
    /// one. Pango aligns each line of a layout within the layout's width, and with automatic
    /// base direction (`pango_layout_set_auto_dir`, the default) it flips `PANGO_ALIGN_LEFT`
    /// to the right for a right-to-left paragraph — so a line of a right-to-left paragraph
    /// shorter than the layout's widest line comes back already moved right, and adding the
    /// composer's offset to that would push a right-aligned or centred line past the measure.
    private func place(_ line: inout ShapedLine, at x: Double) {
        shift(&line, by: x - line.x)
    }

    /// Moves a line and its link rectangles right by `dx` pt.
    private func shift(_ line: inout ShapedLine, by dx: Double) {
        guard dx != 0 else { return }
        line.x += dx
        for k in line.links.indices { line.links[k].x += dx }
    }

    /// Whether each line of `layout`, in order, belongs to a right-to-left paragraph (its
    /// resolved base direction, from the first strong character with automatic direction).
    static func rightToLeftLines(_ layout: GObjectRef) -> [Bool] {
        var result: [Bool] = []
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let n = node {
            let line = n.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            result.append(line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue)
            node = n.pointee.next
        }
        return result
    }

    /// The alignment a line is set with: left and justify mean the start edge, which is the
    /// right for a line of a right-to-left paragraph (as Pango's automatic direction flips
    /// `PANGO_ALIGN_LEFT`, `pango_layout_set_auto_dir`; CSS `text-align: start`); right and
    /// centre are the same in either direction.
    static func alignment(_ alignment: TextAlignment, rightToLeft: Bool) -> TextAlignment {
        rightToLeft && (alignment == .left || alignment == .justify) ? .right : alignment
    }

    private func alignmentOffset(_ alignment: TextAlignment, width: Double, line: Double) -> Double {
        switch alignment {
        case .center: max(0, (width - line) / 2)
        case .right: max(0, width - line)
        case .left, .justify: 0
        }
    }

    /// A layout of `text` with the runs' attributes, no wrapping, left-aligned.
    func unwrappedLayout(text: String, paragraph: StyledParagraph, starts: [Int]) -> GObjectRef {
        let byteCount = text.utf8.count
        let pointer = pango_layout_new(context.opaque)!
        layoutsMade += 1
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(pointer))
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
    private func prepare(_ layout: GObjectRef, text: String, paragraph: StyledParagraph) -> PreparedParagraph {
        var advanceAtByte = [Int32](repeating: 0, count: text.utf8.count + 1)
        Self.addAdvances(of: layout, at: 0, to: &advanceAtByte)
        var attrCount: Int32 = 0
        let attrs = pango_layout_get_log_attrs_readonly(layout.opaque, &attrCount)!
        return prepared(
            paragraph, advanceAtByte: advanceAtByte, breaks: UnsafeBufferPointer(start: attrs, count: Int(attrCount)))
    }

    /// ``prepare(_:text:paragraph:)`` for a paragraph too wide for one layout: each piece
    /// (``ParagraphPieces``, cut after a space where there is one) is shaped unwrapped in a
    /// layout of its own and released; the break opportunities are Pango's for the whole text
    /// (`pango_get_log_attrs`, UAX #14), which no cut changes. Time and memory stay linear in
    /// the paragraph's length.
    private func prepareInPieces(text: String, paragraph: StyledParagraph, starts: [Int]) -> PreparedParagraph {
        let bytes = Array(text.utf8)
        var advanceAtByte = [Int32](repeating: 0, count: bytes.count + 1)
        let pieces = ParagraphPieces(runs: paragraph.runs, starts: starts, bytes: bytes, wraps: false)
        var start = 0
        // The first run that ends after the piece's start: each piece looks at its own runs
        // only (walking every run for every piece cost time quadratic in a paragraph of links).
        var firstRun = 0
        var piece = paragraph
        piece.runs = []
        while start < bytes.count {
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
                let s = max(starts[index], start)
                let e = min(starts[index] + paragraph.runs[index].text.utf8.count, end)
                if s < e {
                    var clipped = paragraph.runs[index]
                    clipped.text = String(decoding: bytes[s..<e], as: UTF8.self)
                    pieceStarts.append(s - start)
                    piece.runs.append(clipped)
                }
                index += 1
            }
            let layout = unwrappedLayout(
                text: String(decoding: bytes[start..<end], as: UTF8.self), paragraph: piece, starts: pieceStarts)
            Self.addAdvances(of: layout, at: start, to: &advanceAtByte)
            start = end
        }
        let scalarCount = paragraph.runs.reduce(0) { $0 + $1.text.unicodeScalars.count }
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: scalarCount + 1)
        let safe = PDFText.sameLength(text)
        pango_get_log_attrs(
            safe, Int32(bytes.count), -1, pango_context_get_language(context.opaque), &attrs, Int32(attrs.count))
        return attrs.withUnsafeBufferPointer { prepared(paragraph, advanceAtByte: advanceAtByte, breaks: $0) }
    }

    /// Adds the glyph advances of every line of `layout` (whose text starts at byte `offset`
    /// of the paragraph's) to `advanceAtByte`, each at the byte its cluster starts at.
    private static func addAdvances(of layout: GObjectRef, at offset: Int, to advanceAtByte: inout [Int32]) {
        let byteCount = advanceAtByte.count - 1
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            forEachGlyphRun(of: lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)) {
                itemOffset, glyphs in
                for j in 0..<Int(glyphs.pointee.num_glyphs) {
                    let byte = offset + itemOffset + Int(glyphs.pointee.log_clusters[j])
                    if byte <= byteCount { advanceAtByte[byte] += glyphs.pointee.glyphs[j].geometry.width }
                }
            }
            node = lineNode.pointee.next
        }
    }

    /// The composer's view of the paragraph: its scalars with their runs and advances (pt), and
    /// the break opportunities before each (`breaks`: Pango log attributes, one per scalar and
    /// one for the end).
    private func prepared(
        _ paragraph: StyledParagraph, advanceAtByte: [Int32], breaks attrs: UnsafeBufferPointer<PangoLogAttr>
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
        for s in scalars {
            advances.append(Double(advanceAtByte[byte]) / scale)
            byte += UTF8.width(s)
        }
        let count = min(attrs.count, scalars.count + 1)
        var lineBreak = [Bool](repeating: false, count: scalars.count + 1)
        var charBreak = lineBreak
        for i in 0..<count {
            lineBreak[i] = attrs[i].is_line_break != 0
            charBreak[i] = attrs[i].is_char_break != 0
        }
        let hyphens = paragraph.runs.map { hyphenWidth($0.style) }
        return PreparedParagraph(
            scalars: scalars, runIndex: runIndex, advances: advances, lineBreakBefore: lineBreak,
            charBreakBefore: charBreak, hyphenWidths: hyphens)
    }

    /// Width of "-" in the run's face, pt (cached per face).
    private func hyphenWidth(_ style: RunStyle) -> Double {
        if let w = setup.cache.hyphenWidths[style.font] { return w }
        let pointer = pango_layout_new(context.opaque)!
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(pointer))
        pango_layout_set_text(pointer, "-", 1)
        pango_layout_set_font_description(pointer, setup.shapingDescription(style.font, for: "-").pointer)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout.opaque, nil, &logical)
        let w = Double(logical.width) / Double(PANGO_SCALE)
        setup.cache.hyphenWidths[style.font] = w
        return w
    }

    private struct LineSet {
        var text: String
        var starts: [Int]
        var paragraph: StyledParagraph
        /// Per byte of `text`: a word space that justification widens.
        var stretchableSpace: [Bool]
        /// Per byte of `text`: a Hangul syllable followed by another on its line.
        var syllableGap: [Bool]
    }

    /// The composition's lines in groups (ranges of line indices), each laid out in a layout of
    /// its own and handed on before the next is made: a group holds at most
    /// ``ParagraphPieces/maximumRuns`` runs (time linear in the runs, as in measuring),
    /// ``maximumGroupLines`` lines and ``maximumGroupScalars`` scalars (the drawable lines held
    /// at once, about 3 KB a line, stay bounded whatever the paragraph's length); a line over a
    /// limit is a group of its own. A paragraph within every limit is one group.
    static func lineGroups(_ composition: Composition, prepared p: PreparedParagraph) -> [Range<Int>] {
        let count = composition.lines.count
        guard let lastRun = p.runIndex.last else { return [0..<count] }
        let withinLimits =
            lastRun < ParagraphPieces.maximumRuns && count <= maximumGroupLines
            && p.scalars.count <= maximumGroupScalars
        if withinLimits { return [0..<count] }
        var groups: [Range<Int>] = []
        var start = 0
        for (index, line) in composition.lines.enumerated() where index > start {
            let startScalar = composition.lines[start].start
            let first = p.runIndex[min(startScalar, p.runIndex.count - 1)]
            let runsFull = p.runIndex[min(line.end, p.runIndex.count - 1)] - first >= ParagraphPieces.maximumRuns
            let linesFull = index - start >= maximumGroupLines
            let textFull = line.end - startScalar > maximumGroupScalars
            if runsFull || linesFull || textFull {
                groups.append(start..<index)
                start = index
            }
        }
        groups.append(start..<count)
        return groups
    }

    /// Most lines in one group of ``lineGroups(_:prepared:)``: about a page of Body text.
    static let maximumGroupLines = 64
    /// Most scalars in one group of ``lineGroups(_:prepared:)``.
    static let maximumGroupScalars = 8192

    /// The text of the chosen lines `lines` (indices into the composition's; all of them by
    /// default): a U+2028 line separator at each break (replacing the word space there), a
    /// hyphen at each hyphenation break (replacing a soft hyphen). For some of the lines, the
    /// paragraph holds only the runs they touch.
    private func build(
        _ composition: Composition, lines group: Range<Int>, prepared p: PreparedParagraph,
        paragraph: StyledParagraph
    ) -> LineSet {
        // The runs the group's text comes from: every run when the group is every line.
        var runRange = paragraph.runs.indices
        if group != composition.lines.indices, !p.runIndex.isEmpty {
            let last = composition.lines[group.upperBound - 1]
            runRange =
                p.runIndex[
                    min(composition.lines[group.lowerBound].start, p.runIndex.count - 1)]..<(p.runIndex[
                    min(last.end, p.runIndex.count - 1)] + 1)
        }
        let base = runRange.lowerBound
        var runTexts = [String.UnicodeScalarView](repeating: String.UnicodeScalarView(), count: runRange.count)
        var spaceFlags: [(run: Int, offset: Int)] = []  // (run − base, scalar index within the run's new text)
        var gapFlags: [(run: Int, offset: Int)] = []
        var runCounts = [Int](repeating: 0, count: runRange.count)
        let justified = paragraph.style.alignment == .justify
        let isCode = paragraph.runs[runRange].map(\.style.isCode)  // by run − base
        func append(_ s: Unicode.Scalar, run: Int) {
            runTexts[run - base].append(s)
            runCounts[run - base] += 1
        }
        for index in group {
            let line = composition.lines[index]
            let last = index == group.upperBound - 1
            var i = line.start
            while i < line.end {
                let s = p.scalars[i]
                let run = p.runIndex[i]
                if line.ending == .hyphen && i == line.end - 1 && s == "\u{AD}" {
                    append("-", run: run)
                    i += 1
                    continue
                }
                if justified && ParagraphComposer.isBreakingSpace(s) && !isCode[run - base] {
                    spaceFlags.append((run - base, runCounts[run - base]))
                }
                if justified && ParagraphComposer.isHangul(s) && i + 1 < line.end
                    && ParagraphComposer.isHangul(p.scalars[i + 1])
                {
                    gapFlags.append((run - base, runCounts[run - base]))
                }
                append(s, run: run)
                i += 1
            }
            let lastRun =
                line.end > line.start ? p.runIndex[line.end - 1] : p.runIndex[min(line.start, p.scalars.count - 1)]
            if line.ending == .hyphen && !(line.end > 0 && p.scalars[line.end - 1] == "\u{AD}") {
                append("-", run: lastRun)
            }
            if last { break }
            if line.ending == .separator {
                append(p.scalars[line.end], run: p.runIndex[line.end])
            } else {
                append("\u{2028}", run: line.ending == .space ? p.runIndex[line.end] : lastRun)
            }
            // Scalars skipped between this line's end and the next line's start (extra spaces) are dropped.
        }
        var finalParagraph = paragraph
        if runRange != paragraph.runs.indices { finalParagraph.runs = Array(paragraph.runs[runRange]) }
        var starts: [Int] = []
        var text = ""
        for index in finalParagraph.runs.indices {
            starts.append(text.utf8.count)
            let t = String(runTexts[index])
            finalParagraph.runs[index].text = t
            text += t
        }
        let byteCount = text.utf8.count
        var spaces = [Bool](repeating: false, count: byteCount + 1)
        var gaps = spaces
        // Scalar offsets within runs → byte offsets in the text.
        func byteOffsets(_ flags: [(run: Int, offset: Int)], into array: inout [Bool]) {
            var cache: [Int: [Int]] = [:]
            for flag in flags {
                if cache[flag.run] == nil {
                    var offsets: [Int] = []
                    var b = starts[flag.run]
                    for s in runTexts[flag.run] {
                        offsets.append(b)
                        b += UTF8.width(s)
                    }
                    cache[flag.run] = offsets
                }
                array[cache[flag.run]![flag.offset]] = true
            }
        }
        byteOffsets(spaceFlags, into: &spaces)
        byteOffsets(gapFlags, into: &gaps)
        return LineSet(
            text: text, starts: starts, paragraph: finalParagraph, stretchableSpace: spaces, syllableGap: gaps)
    }

    /// Widens the glyphs of stretchable word spaces (by the line's space factor × their own
    /// advance) and of Hangul syllables (by the line's syllable spacing). Drawing, underlines,
    /// backgrounds and link rectangles follow the glyph widths; Pango's cached line extents do
    /// not, so line widths come from the composer.
    private func justify(_ layout: GObjectRef, lines: ArraySlice<ComposedLine>, spaces: [Bool], gaps: [Bool]) {
        let scale = Double(PANGO_SCALE)
        var node = pango_layout_get_lines_readonly(layout.opaque)
        var index = lines.startIndex
        while let lineNode = node, index < lines.endIndex {
            let composed = lines[index]
            if composed.spaceFactor != 0 || composed.syllableSpacing != 0 {
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
                            let w = Double(glyphs.pointee.glyphs[j].geometry.width)
                            glyphs.pointee.glyphs[j].geometry.width += Int32((w * composed.spaceFactor).rounded())
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
        while let r = runNode {
            let glyphItem = r.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            body(Int(glyphItem.pointee.item.pointee.offset), glyphItem.pointee.glyphs!)
            runNode = r.pointee.next
        }
    }
}
