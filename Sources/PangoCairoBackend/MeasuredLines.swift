internal import CPangoCairo
import Layout
import Styling

/// Drawing a composed paragraph from its measurement: the lines the composer chose are cut
/// out of the glyphs HarfBuzz produced for the unwrapped paragraph, so the paragraph is
/// shaped once (Typst's *line* stage; Pango 1.50's own line breaking likewise keeps a shaped
/// item whole when it fits and reshapes only at a break).
///
/// Each line is a `PangoLayoutLine` whose runs are slices of the measured glyph items
/// (`PangoGlyphItem`: the item split with `pango_item_split`, the glyphs copied by cluster),
/// and whose `layout` is the measured layout, so `pango_cairo_show_layout_line` draws it with
/// its colours, underlines, backgrounds and inline shapes, and embeds its text, exactly as for
/// a line Pango broke itself. The line structures come from a *carrier* layout of empty
/// lines (Pango allocates them; a line is released by the layout that made it).
///
/// A line is shaped again on its own (as before, in a layout of its text) where cutting would
/// change the glyphs: at a hyphenation break (the hyphen is new text), and where a break falls
/// inside a glyph cluster (a ligature). A paragraph with right-to-left runs (its glyphs are in
/// visual order) or tabs (their widths depend on where the line starts) is not cut at all.
///
/// What cutting keeps of Pango's per-line processing (`pango_layout_line_postprocess`): the
/// letter spacing before a line's first cluster is trimmed (`adjust_line_letter_spacing`, half
/// the tracking on each side of a cluster, none at the line's edge); each run's baseline is set
/// by ``BaselineAlignment`` when the line is described.
extension PangoShaper {
    /// One glyph item of the measured layout and what it tells about letter spacing there.
    private struct MeasuredRun {
        let item: UnsafeMutablePointer<PangoGlyphItem>
        /// Byte range in the paragraph's text.
        let start: Int, end: Int
        /// Pango already trimmed the letter spacing before its first glyph (the first run of a
        /// measured line, or one whose first glyph is empty; `adjust_line_letter_spacing`).
        let trimmedLeft: Bool
    }

    /// The composed lines cut from `measured` (the unwrapped layout of the paragraph's whole
    /// text, `bytes`), justified, each described as
    /// ``describe(_:owner:carrier:x:width:paragraph:bytes:base:starts:linkRuns:)``
    /// does with its left edge at 0 (the caller shifts and sizes it). Nil when the paragraph
    /// must be laid out again instead: right-to-left runs or tabs.
    func linesFromMeasurement(
        _ measured: GObjectRef, composition: Composition, prepared: PreparedParagraph,
        paragraph: StyledParagraph, bytes: [UInt8], starts: [Int]
    ) -> [ShapedLine]? {
        if bytes.contains(0x09) { return nil }
        guard let runs = Self.measuredRuns(of: measured) else { return nil }
        let plans = Self.linePlans(composition, prepared: prepared, runs: runs)
        // The carrier: one empty line for each line that is cut.
        let cutCount = plans.reduce(0) { $0 + ($1.reshape ? 0 : 1) }
        var carrier: GObjectRef?
        var carrierLines: UnsafeMutablePointer<GSList>?
        if cutCount > 0 {
            guard let made = carrierLayout(lines: cutCount, paragraph: paragraph) else { return nil }
            (carrier, carrierLines) = made
        }
        var cutter = RunCutter(runs: runs, bytes: bytes)
        defer { cutter.freeRest() }
        let linkRuns = paragraph.runs.indices.filter { Self.isTagged(paragraph.runs[$0]) }
        let justified = paragraph.style.alignment == .justify
        // A ragged line's spaces change only to the one word space of a line mixing Hangul and
        // Latin words (``ComposedLine/wordSpace``).
        let respaced = justified || composition.lines.contains { $0.wordSpace != nil }
        let isCode = respaced ? paragraph.runs.map(\.style.isCode) : []
        var result: [ShapedLine] = []
        result.reserveCapacity(plans.count)
        for (index, plan) in plans.enumerated() {
            let composed = composition.lines[index]
            if plan.reshape {
                result.append(reshapedLine(composed, prepared: prepared, paragraph: paragraph))
                continue
            }
            let pieces = cutter.pieces(from: plan.start, to: plan.end)
            if composed.wordSpace != nil || justified && (composed.spaceFactor != 0 || composed.syllableSpacing != 0) {
                justify(pieces, composed, prepared: prepared, isCode: isCode, startByte: plan.start)
            }
            // Hand the pieces to the next carrier line.
            let line = carrierLines!.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            carrierLines = carrierLines!.pointee.next
            var list: UnsafeMutablePointer<GSList>?
            for piece in pieces.reversed() { list = g_slist_prepend(list, piece) }
            line.pointee.layout = measured.opaque
            line.pointee.start_index = Int32(plan.start)
            line.pointee.length = Int32(plan.end - plan.start)
            line.pointee.runs = list
            line.pointee.is_paragraph_start = plan.start == 0 || bytes[plan.start - 1] == 0x0A ? 1 : 0
            line.pointee.resolved_dir = PANGO_DIRECTION_LTR.rawValue
            result.append(
                describe(
                    line, owner: measured, carrier: carrier, x: 0, width: composed.width, paragraph: paragraph,
                    bytes: bytes, base: 0, starts: starts, linkRuns: linkRuns))
        }
        return result
    }

    /// The glyph items of the measured layout, in order; nil when one is right-to-left (its
    /// glyphs are in visual order, so it cannot be cut by byte offsets).
    private static func measuredRuns(of measured: GObjectRef) -> [MeasuredRun]? {
        var runs: [MeasuredRun] = []
        var lineNode = pango_layout_get_lines_readonly(measured.opaque)
        while let lineLink = lineNode {
            let line = lineLink.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            var runNode = line.pointee.runs
            var first = true
            while let runLink = runNode {
                let glyphItem = runLink.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let item = glyphItem.pointee.item.pointee
                if item.analysis.level % 2 != 0 { return nil }
                let glyphs = glyphItem.pointee.glyphs.pointee
                let emptyFirst = glyphs.num_glyphs > 0 && glyphs.glyphs[0].geometry.width == 0
                runs.append(
                    MeasuredRun(
                        item: glyphItem, start: Int(item.offset), end: Int(item.offset + item.length),
                        trimmedLeft: first || emptyFirst))
                first = false
                runNode = runLink.pointee.next
            }
            lineNode = lineLink.pointee.next
        }
        return runs
    }

    /// A composed line as a byte range of the paragraph's text, and whether it is shaped again
    /// on its own rather than cut from the measured runs.
    private struct LinePlan {
        var start: Int
        var end: Int
        var reshape: Bool
    }

    /// The byte range of each composed line; a line is shaped again at a hyphenation break and
    /// where it would start or end inside a glyph cluster (a ligature).
    private static func linePlans(
        _ composition: Composition, prepared: PreparedParagraph,
        runs: [MeasuredRun]
    ) -> [LinePlan] {
        // Byte offsets of the lines' scalar boundaries (asked in increasing order).
        var cursor = 0
        var cursorByte = 0
        func byte(_ scalar: Int) -> Int {
            while cursor < scalar {
                cursorByte += UTF8.width(prepared.scalars[cursor])
                cursor += 1
            }
            return cursorByte
        }
        // Whether a line may start or end at byte `offset`: not inside a glyph cluster.
        var boundaryRun = 0
        func isClusterBoundary(_ offset: Int) -> Bool {
            while boundaryRun < runs.count, runs[boundaryRun].end <= offset { boundaryRun += 1 }
            guard boundaryRun < runs.count, runs[boundaryRun].start < offset else { return true }
            let run = runs[boundaryRun]
            let glyphs = run.item.pointee.glyphs.pointee
            let cluster = Int32(offset - run.start)
            var low = 0
            var high = Int(glyphs.num_glyphs)
            while low < high {
                let mid = (low + high) / 2
                if glyphs.log_clusters[mid] < cluster { low = mid + 1 } else { high = mid }
            }
            return low < Int(glyphs.num_glyphs) && glyphs.log_clusters[low] == cluster
        }
        var plans: [LinePlan] = []
        plans.reserveCapacity(composition.lines.count)
        for line in composition.lines {
            let start = byte(line.start)
            let end = byte(line.ending == .separator ? min(line.end + 1, prepared.scalars.count) : line.end)
            let reshape = line.ending == .hyphen || !isClusterBoundary(start) || !isClusterBoundary(end)
            plans.append(LinePlan(start: start, end: max(start, end), reshape: reshape))
        }
        return plans
    }

    /// A layout of `count` empty lines in the paragraph's face, whose line structures carry the
    /// cut lines (Pango allocates them; a line is released by the layout that made it), with
    /// its list of lines; nil when Pango made another number of lines.
    private func carrierLayout(
        lines count: Int,
        paragraph: StyledParagraph
    ) -> (GObjectRef, UnsafeMutablePointer<GSList>?)? {
        let pointer = pango_layout_new(context.opaque)!
        let carrier = GObjectRef(owning: UnsafeMutableRawPointer(pointer), session: session)
        let newlines = String(repeating: "\n", count: count - 1)
        pango_layout_set_text(pointer, newlines, Int32(count - 1))
        // The paragraph's face: Pango measures each empty line as it makes it.
        pango_layout_set_font_description(
            pointer, setup.shapingDescription(paragraph.style.baseFont, for: newlines).pointer)
        // Not `_readonly`: Pango has cached each empty line's extents (its line-breaking
        // pass ends by measuring the layout); a line handed out this way is measured
        // afresh whenever asked (`pango_layout_line_leaked`), so backgrounds are drawn at
        // the height of the runs it is given.
        let lines = pango_layout_get_lines(pointer)
        guard g_slist_length(lines) == UInt32(count) else { return nil }
        return (carrier, lines)
    }

    /// Cuts the measured runs into the pieces of consecutive lines: each piece a new glyph item
    /// whose item is split from the run's (`pango_item_split`) and whose glyphs are copied by
    /// cluster. Lines are asked for in order.
    private struct RunCutter {
        let runs: [MeasuredRun]
        /// The paragraph's text, UTF-8.
        let bytes: [UInt8]
        /// Per measured run: the part of its item not yet handed to a line (owned copy).
        var rest: [UnsafeMutablePointer<PangoItem>?]
        /// The first run that may still reach into a line.
        var firstRun = 0
        /// Per measured run: the first glyph not yet handed to a line.
        var nextGlyph: [Int]

        init(runs: [MeasuredRun], bytes: [UInt8]) {
            self.runs = runs
            self.bytes = bytes
            rest = [UnsafeMutablePointer<PangoItem>?](repeating: nil, count: runs.count)
            nextGlyph = [Int](repeating: 0, count: runs.count)
        }

        /// Frees the parts of items no line took.
        func freeRest() {
            for item in rest { if let item { pango_item_free(item) } }
        }

        /// Chars (UTF-8 lead bytes) between two byte offsets, for `pango_item_split`.
        func chars(_ from: Int, _ to: Int) -> Int32 {
            var count: Int32 = 0
            for i in from..<to where bytes[i] & 0xC0 != 0x80 { count += 1 }
            return count
        }

        /// The pieces of the measured runs inside the line of bytes `start..<end`.
        mutating func pieces(from start: Int, to end: Int) -> [UnsafeMutablePointer<PangoGlyphItem>] {
            var pieces: [UnsafeMutablePointer<PangoGlyphItem>] = []
            while firstRun < runs.count, runs[firstRun].end <= start { firstRun += 1 }
            var runIndex = firstRun
            while runIndex < runs.count, runs[runIndex].start < end {
                let run = runs[runIndex]
                let pieceStart = max(start, run.start)
                let pieceEnd = min(end, run.end)
                let source = run.item.pointee.glyphs.pointee
                var g0 = nextGlyph[runIndex]
                while g0 < Int(source.num_glyphs), Int(source.log_clusters[g0]) + run.start < pieceStart { g0 += 1 }
                var g1 = g0
                while g1 < Int(source.num_glyphs), Int(source.log_clusters[g1]) + run.start < pieceEnd { g1 += 1 }
                nextGlyph[runIndex] = g1
                if g1 > g0 {
                    pieces.append(
                        piece(ofRun: runIndex, bytes: pieceStart..<pieceEnd, glyphs: g0..<g1, opensLine: pieces.isEmpty)
                    )
                }
                if run.end > end { break }
                runIndex += 1
            }
            return pieces
        }

        /// The piece of run `runIndex` over `bytes` and its `glyphs`; the letter spacing Pango left at
        /// its edges is trimmed where the piece opens the line (`opensLine`) or ends in an
        /// empty glyph before the run's end.
        private mutating func piece(
            ofRun runIndex: Int, bytes range: Range<Int>, glyphs span: Range<Int>,
            opensLine: Bool
        ) -> UnsafeMutablePointer<PangoGlyphItem> {
            let run = runs[runIndex]
            let pieceStart = range.lowerBound
            let pieceEnd = range.upperBound
            let g0 = span.lowerBound
            let g1 = span.upperBound
            let source = run.item.pointee.glyphs.pointee
            if rest[runIndex] == nil { rest[runIndex] = pango_item_copy(run.item.pointee.item) }
            var tail = rest[runIndex]!
            if pieceStart > Int(tail.pointee.offset) {
                let head = pango_item_split(
                    tail, Int32(pieceStart) - tail.pointee.offset, chars(Int(tail.pointee.offset), pieceStart))
                pango_item_free(head)
            }
            let item: UnsafeMutablePointer<PangoItem>
            if pieceEnd < Int(tail.pointee.offset + tail.pointee.length) {
                item = pango_item_split(tail, Int32(pieceEnd - pieceStart), chars(pieceStart, pieceEnd))
            } else {
                item = tail
                rest[runIndex] = nil
                tail = item
            }
            let glyphs = pango_glyph_string_new()!
            pango_glyph_string_set_size(glyphs, Int32(g1 - g0))
            glyphs.pointee.glyphs.update(from: source.glyphs + g0, count: g1 - g0)
            let shift = Int32(pieceStart - run.start)
            for j in 0..<(g1 - g0) { glyphs.pointee.log_clusters[j] = source.log_clusters[g0 + j] - shift }
            let piece = g_slice_alloc0(gsize(MemoryLayout<PangoGlyphItem>.stride))!.assumingMemoryBound(
                to: PangoGlyphItem.self)
            piece.pointee.item = item
            piece.pointee.glyphs = glyphs
            piece.pointee.y_offset = run.item.pointee.y_offset
            piece.pointee.start_x_offset = pieceStart == run.start ? run.item.pointee.start_x_offset : 0
            piece.pointee.end_x_offset = pieceEnd == run.end ? run.item.pointee.end_x_offset : 0
            if opensLine && !(pieceStart == run.start && run.trimmedLeft) {
                PangoShaper.padLeft(glyphs, by: -PangoShaper.letterSpacing(of: item).left)
            }
            if pieceEnd < run.end, glyphs.pointee.glyphs[g1 - g0 - 1].geometry.width == 0 {
                PangoShaper.padRight(glyphs, by: -PangoShaper.letterSpacing(of: item).right)
            }
            return piece
        }
    }

    /// A line laid out again on its own, as its text reads on the page (a hyphen added at a
    /// hyphenation break, a soft hyphen there turned into it), justified as composed.
    private func reshapedLine(_ composed: ComposedLine, prepared: PreparedParagraph, paragraph: StyledParagraph)
        -> ShapedLine
    {
        var single = paragraph
        single.runs = []
        var sourceRun: [Int] = []
        var text = String.UnicodeScalarView()
        func append(_ scalar: Unicode.Scalar, run: Int) {
            if sourceRun.last != run {
                var clipped = paragraph.runs[run]
                clipped.text = ""
                single.runs.append(clipped)
                sourceRun.append(run)
            }
            single.runs[single.runs.count - 1].text.unicodeScalars.append(scalar)
            text.append(scalar)
        }
        let end = composed.ending == .separator ? min(composed.end + 1, prepared.scalars.count) : composed.end
        for i in composed.start..<max(composed.start, end) {
            if composed.ending == .hyphen && i == composed.end - 1 && prepared.scalars[i] == "\u{AD}" {
                append("-", run: prepared.runIndex[i])
                continue
            }
            append(prepared.scalars[i], run: prepared.runIndex[i])
        }
        if composed.ending == .hyphen && !(composed.end > 0 && prepared.scalars[composed.end - 1] == "\u{AD}") {
            append("-", run: prepared.runIndex[max(0, min(composed.end, prepared.scalars.count) - 1)])
        }
        if single.runs.isEmpty {
            single.runs = [
                StyledRun("", style: paragraph.runs.first?.style ?? RunStyle(font: paragraph.style.baseFont))
            ]
        }
        var starts: [Int] = []
        var offset = 0
        for run in single.runs {
            starts.append(offset)
            offset += run.text.utf8.count
        }
        let string = String(text)
        let layout = unwrappedLayout(text: string, paragraph: single, starts: starts)
        if composed.wordSpace != nil
            || paragraph.style.alignment == .justify && (composed.spaceFactor != 0 || composed.syllableSpacing != 0),
            let first = pango_layout_get_lines_readonly(layout.opaque)
        {
            // Scalars of the line's own text, with the paragraph's code flags.
            let scalars = Array(string.unicodeScalars)
            var runOf: [Int] = []
            for (k, run) in single.runs.enumerated() {
                runOf += Array(repeating: sourceRun[k], count: run.text.unicodeScalars.count)
            }
            let isCode = paragraph.runs.map(\.style.isCode)
            var lineByte = 0
            var scalarIndex = 0
            Self.widen(first.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self), composed) { byte in
                while scalarIndex < scalars.count, lineByte < byte {
                    lineByte += UTF8.width(scalars[scalarIndex])
                    scalarIndex += 1
                }
                guard lineByte == byte, scalarIndex < scalars.count else { return (false, false) }
                let scalar = scalars[scalarIndex]
                return (
                    ParagraphComposer.isBreakingSpace(scalar) && !isCode[runOf[scalarIndex]],
                    ParagraphComposer.isHangul(scalar) && scalarIndex + 1 < scalars.count
                        && ParagraphComposer.isHangul(scalars[scalarIndex + 1])
                )
            }
        }
        return collectLines(layout: layout, paragraph: single, bytes: Array(string.utf8), base: 0, starts: starts)[0]
            .line
    }

    /// Justifies the cut pieces of one line: word spaces and Hangul syllable gaps, scalar by
    /// scalar as the composer counted them (``ParagraphComposer``'s stretchable spaces, gaps
    /// between two Hangul syllables of the line).
    private func justify(
        _ pieces: [UnsafeMutablePointer<PangoGlyphItem>], _ composed: ComposedLine,
        prepared: PreparedParagraph, isCode: [Bool], startByte: Int
    ) {
        var scalar = composed.start
        var byte = startByte
        for piece in pieces {
            Self.widenRun(piece.pointee.glyphs, offset: Int(piece.pointee.item.pointee.offset), composed) {
                clusterByte in
                while scalar < prepared.scalars.count, byte < clusterByte {
                    byte += UTF8.width(prepared.scalars[scalar])
                    scalar += 1
                }
                guard byte == clusterByte, scalar < composed.end else { return (false, false) }
                let scalarValue = prepared.scalars[scalar]
                return (
                    ParagraphComposer.isBreakingSpace(scalarValue) && !isCode[prepared.runIndex[scalar]],
                    ParagraphComposer.isHangul(scalarValue) && scalar + 1 < composed.end
                        && ParagraphComposer.isHangul(prepared.scalars[scalar + 1])
                )
            }
        }
    }

    /// Widens, on every run of `line`, the glyphs of the clusters `stretch(byte)` marks (by the
    /// byte offset of the cluster in the layout's text): a word space by the line's space
    /// factor × its own advance, a Hangul syllable by the line's syllable spacing.
    static func widen(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, _ composed: ComposedLine,
        stretch: (Int) -> (space: Bool, gap: Bool)
    ) {
        var runNode = line.pointee.runs
        while let runLink = runNode {
            let glyphItem = runLink.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            widenRun(
                glyphItem.pointee.glyphs, offset: Int(glyphItem.pointee.item.pointee.offset), composed, stretch: stretch
            )
            runNode = runLink.pointee.next
        }
    }

    /// The width, Pango units, of a stretchable word space shaped `width` wide on `composed`:
    /// the line's one word space (``ComposedLine/wordSpace``) when it has one, else its own
    /// width, grown by the line's space factor.
    static func justifiedSpace(_ width: Int32, _ composed: ComposedLine) -> Int32 {
        guard let wordSpace = composed.wordSpace else {
            return width + Int32((Double(width) * composed.spaceFactor).rounded())
        }
        return Int32((wordSpace * Double(PANGO_SCALE) * (1 + composed.spaceFactor)).rounded())
    }

    /// ``widen(_:_:stretch:)`` for one glyph string whose item starts at byte `offset`.
    static func widenRun(
        _ glyphs: UnsafeMutablePointer<PangoGlyphString>, offset: Int, _ composed: ComposedLine,
        stretch: (Int) -> (space: Bool, gap: Bool)
    ) {
        let scale = Double(PANGO_SCALE)
        var previousCluster: Int32 = -1
        for j in 0..<Int(glyphs.pointee.num_glyphs) {
            let cluster = glyphs.pointee.log_clusters[j]
            defer { previousCluster = cluster }
            guard cluster != previousCluster else { continue }
            let (space, gap) = stretch(offset + Int(cluster))
            if space {
                glyphs.pointee.glyphs[j].geometry.width = justifiedSpace(
                    glyphs.pointee.glyphs[j].geometry.width, composed)
            } else if gap {
                glyphs.pointee.glyphs[j].geometry.width += Int32((composed.syllableSpacing * scale).rounded())
            }
        }
    }

    /// The letter spacing of `item` split as Pango splits it around a cluster
    /// (`distribute_letter_spacing`: half before, the rest after; whole points when the
    /// spacing is a whole number of points), Pango units.
    private static func letterSpacing(of item: UnsafeMutablePointer<PangoItem>) -> (left: Int32, right: Int32) {
        var spacing: Int32 = 0
        var node = item.pointee.analysis.extra_attrs
        while let attributeLink = node {
            let attribute = attributeLink.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
            if attribute.pointee.klass.pointee.type == PANGO_ATTR_LETTER_SPACING {
                spacing = attributeLink.pointee.data.assumingMemoryBound(to: PangoAttrInt.self).pointee.value
            }
            node = attributeLink.pointee.next
        }
        guard spacing != 0 else { return (0, 0) }
        var left = spacing / 2
        if spacing & (PANGO_SCALE - 1) == 0 { left = (left + (PANGO_SCALE >> 1)) & ~(PANGO_SCALE - 1) }
        return (left, spacing - left)
    }

    /// Pango's `pad_glyphstring_left`: adds `adjustment` to the first glyph with a width (its
    /// advance and its offset).
    private static func padLeft(_ glyphs: UnsafeMutablePointer<PangoGlyphString>, by adjustment: Int32) {
        guard adjustment != 0 else { return }
        let count = Int(glyphs.pointee.num_glyphs)
        var glyph = 0
        while glyph < count, glyphs.pointee.glyphs[glyph].geometry.width == 0 { glyph += 1 }
        guard glyph < count else { return }
        glyphs.pointee.glyphs[glyph].geometry.width += adjustment
        glyphs.pointee.glyphs[glyph].geometry.x_offset += adjustment
    }

    /// Pango's `pad_glyphstring_right`: adds `adjustment` to the advance of the last glyph with
    /// a width (never below 0).
    private static func padRight(_ glyphs: UnsafeMutablePointer<PangoGlyphString>, by adjustment: Int32) {
        guard adjustment != 0 else { return }
        var glyph = Int(glyphs.pointee.num_glyphs) - 1
        while glyph >= 0, glyphs.pointee.glyphs[glyph].geometry.width == 0 { glyph -= 1 }
        guard glyph >= 0 else { return }
        glyphs.pointee.glyphs[glyph].geometry.width = max(0, glyphs.pointee.glyphs[glyph].geometry.width + adjustment)
    }
}
