import Styling

// The finalize stage of paragraph layout (``ParagraphLayout``): the justification, alignment
// and hanging punctuation of each chosen line, and the drawable lines placed, sized and
// labelled with their source text.

extension ParagraphComposer {
    /// The finalize stage's arithmetic: each line the breaker chose (`result`, over `items`) as
    /// a ``ComposedLine``: its scalar range and ending, how far its word spaces and Hangul
    /// syllable gaps stretch or shrink (word spaces first, then syllables, W3C KLREQ), its
    /// width after justification, its alignment offset and its hanging punctuation.
    static func finalize(
        _ result: LineBreaker.Result, items: [LineBreaker.Item], paragraph: StyledParagraph,
        prepared: PreparedParagraph, width: Double
    ) -> [ComposedLine] {
        let scalarCount = prepared.scalars.count
        let justified = paragraph.style.alignment == .justify
        let isCode = paragraph.runs.map(\.style.isCode)
        let sizes = paragraph.runs.map(\.style.font.size)
        var measures: [LineMeasure] = []
        measures.reserveCapacity(result.lines.count)
        var start = 0
        var knownRunEnd = 0
        for line in result.lines {
            let measure = Self.measure(
                line, start: start, items: items, prepared: prepared, isCode: isCode, sizes: sizes,
                justified: justified, width: width)
            measures.append(measure)
            // The next line starts after the dropped separator, or after the run of spaces the
            // line broke in or before (``spaceRunEnd(from:_:known:)``: with the marks it holds),
            // as glue vanishes at a line's start.
            start = measure.ending == .separator ? measure.end + 1 : measure.end
            if measure.ending != .separator {
                // A break inside the run may fall before a mark in it.
                var space = start
                while space < scalarCount, isMark(prepared.scalars[space]) { space += 1 }
                if space < scalarCount, isBreakingSpace(prepared.scalars[space]) {
                    start = spaceRunEnd(from: space, prepared.scalars, known: &knownRunEnd)
                }
            }
        }
        let expansions = Self.expansions(measures, limit: justified ? paragraph.style.fontExpansion : 0)
        var lines: [ComposedLine] = []
        lines.reserveCapacity(measures.count)
        for (index, measure) in measures.enumerated() {
            let line = result.lines[index]
            let expansion = expansions[index]
            let available = measure.available
            let (spaceWidth, spaceCount, gaps) = (measure.spaceWidth, measure.spaceCount, measure.gaps)
            var spaceFactor = 0.0
            var syllable = 0.0
            // The line is drawn scaled by 1 + expansion: its spaces make up the rest unscaled.
            let extra = available / (1 + expansion) - line.naturalWidth
            // A last line (or one before a hard break) is never stretched, but it is shrunk
            // when the breaker chose it at less than its natural width.
            if justified && extra < 0 || measure.stretches && spaceWidth + measure.gapSize > 0 {
                if extra < 0 {
                    spaceFactor = spaceWidth > 0 ? max(extra / spaceWidth, -spaceShrink) : 0
                } else {
                    // A widened line's syllables already stand apart by the expansion of each.
                    let widening = gaps > 0 ? max(0, expansion) * measure.gapAdvance / Double(gaps) : 0
                    (spaceFactor, syllable) = Self.spread(
                        extra, spaces: (spaceWidth, spaceCount), gaps: gaps, gapSize: measure.gapSize,
                        widening: widening)
                }
            }
            let finalWidth =
                (line.naturalWidth + spaceFactor * spaceWidth + syllable * Double(gaps)) * (1 + expansion)
            var left = 0.0
            switch paragraph.style.alignment {
            case .center: left = max(0, (width - finalWidth) / 2)
            case .right: left = max(0, width - finalWidth)
            case .left, .justify: left = -line.startHang
            }
            lines.append(
                ComposedLine(
                    start: measure.start, end: measure.end, ending: measure.ending, naturalWidth: line.naturalWidth,
                    spaceFactor: spaceFactor, syllableSpacing: syllable, x: left, width: finalWidth,
                    hang: measure.stretches ? max(0, finalWidth - width - line.startHang) : 0, expansion: expansion))
        }
        return lines
    }
}

extension ParagraphComposer {
    /// One chosen line as the finalize stage measures it before its expansion is chosen.
    struct LineMeasure {
        /// First scalar of the line and one past its last.
        var start: Int, end: Int
        /// How the line ends.
        var ending: ComposedLine.Ending
        /// The room the line is set in, pt: the measure and what its first and (when it is
        /// stretched) last characters protrude into the margins.
        var available: Double
        /// Natural width of the line, pt.
        var naturalWidth: Double
        /// The stretchable word spaces' total width, pt, and their count.
        var spaceWidth: Double, spaceCount: Int
        /// Hangul syllable gaps, the sum of their em sizes (pt) and of the advances of the
        /// syllables before them (pt).
        var gaps: Int, gapSize: Double, gapAdvance: Double
        /// The line holds code (never expanded).
        var holdsCode: Bool
        /// The line is justified to the measure (not a paragraph's last line, nor one before a hard break).
        var stretches: Bool
    }

    /// The measurements of `line` (starting at scalar `start`) that its expansion and
    /// justification need.
    static func measure(
        _ line: LineBreaker.Line, start: Int, items: [LineBreaker.Item], prepared: PreparedParagraph,
        isCode: [Bool], sizes: [Double], justified: Bool, width: Double
    ) -> LineMeasure {
        let item = items[line.breakIndex]
        let end: Int
        let ending: ComposedLine.Ending
        switch item.kind {
        case .glue:
            end = item.position
            ending = .space
        case .penalty where line.breakIndex == items.count - 1:
            end = prepared.scalars.count
            ending = .end
        case .penalty where item.cost == -.infinity:
            end = item.position
            ending = .separator
        case .penalty:
            end = item.position
            // A flagged penalty adds a hyphen unless it follows one (an explicit hyphen or a
            // dash, whose width is only the change in kerning at the break).
            let explicit = end > 0 && isExplicitHyphen(prepared.scalars[end - 1])
            ending = item.flagged && !explicit ? .hyphen : .opportunity
        case .box:
            end = item.position
            ending = .opportunity
        }
        var measure = LineMeasure(
            start: start, end: end, ending: ending, available: 0, naturalWidth: line.naturalWidth, spaceWidth: 0,
            spaceCount: 0, gaps: 0, gapSize: 0, gapAdvance: 0, holdsCode: false,
            stretches: justified && ending != .end && ending != .separator)
        for i in start..<max(start, end) {
            let scalar = prepared.scalars[i]
            let run = prepared.runIndex[i]
            measure.holdsCode = measure.holdsCode || isCode[run]
            if isBreakingSpace(scalar) && !isCode[run] {
                measure.spaceWidth += prepared.advances[i]
                measure.spaceCount += 1
            }
            if isHangul(scalar) && i + 1 < end && isHangul(prepared.scalars[i + 1]) {
                measure.gaps += 1
                measure.gapSize += sizes[run]
                measure.gapAdvance += prepared.advances[i]
            }
        }
        // Protrusion: the line's first character may stand out into the left margin, its
        // last (when the line is justified) into the right.
        measure.available = width + line.startHang + (measure.stretches ? line.hang : 0)
        return measure
    }
}

extension ParagraphComposer {
    /// How a justified line's `extra` width, pt, is spread (W3C KLREQ §3.8, word spaces before
    /// Hangul inter-syllable spacing): the word spaces (`spaces`: their total width, pt, and
    /// count) grow to ``spaceFirst`` of their width; then each of the `gaps` between syllables
    /// (`gapSize`: the sum of their em sizes) up to a third of the word space, then both
    /// together, a gap always a third of the word space, until the gaps reach ``syllableQuiet``
    /// em; the rest goes to the word spaces. A line without one gives its gaps ``syllableQuiet``
    /// em at most and leaves the rest unset (the line falls short of the measure). A word's
    /// syllables so stay visibly closer than its words. Returns each space's growth as a
    /// fraction of its width and each gap's, pt. `widening`, pt, is what font expansion already
    /// adds between two syllables (the expansion × a syllable's advance): the gap's
    /// ``syllableQuiet`` limit counts it one and a half times, so the space inside a word stays
    /// within it, and a two-syllable word read from its ends, whose one gap shows both
    /// syllables' widening, stays below 0.09 em at the 2 % expansion limit.
    static func spread(
        _ extra: Double, spaces: (width: Double, count: Int), gaps: Int, gapSize: Double, widening: Double = 0
    ) -> (spaceFactor: Double, syllable: Double) {
        var extra = extra
        var grown = 0.0
        var perEm = 0.0
        func take(_ available: Double) -> Double {
            let taken = min(extra, max(0, available))
            extra -= taken
            return taken
        }
        if spaces.width > 0 { grown += take(spaces.width * spaceFirst) }
        if gaps > 0 && spaces.width > 0 {
            let emSize = gapSize / Double(gaps)
            // A gap grows to a third of the word space, then with it (a third of each point the
            // spaces gain), until it reaches `syllableQuiet` em.
            let average = spaces.width / Double(spaces.count)
            let third = { (grown: Double) in average * (1 + grown / spaces.width) / 3 }
            let quiet = max(0, syllableQuiet * emSize - 1.5 * widening)
            var gap = take(Double(gaps) * min(quiet, third(grown))) / Double(gaps)
            if extra > 0 && gap < quiet && gap >= third(grown) - 1e-12 {
                // Spaces and gaps together: each point of space growth brings `perPoint` pt of gaps.
                let perPoint = Double(gaps) * average / spaces.width / 3
                let room = (quiet - gap) / (average / spaces.width / 3)  // space growth until the gap is quiet
                let together = min(extra / (1 + perPoint), room)
                grown += together
                gap += together * average / spaces.width / 3
                extra -= together * (1 + perPoint)
            }
            perEm = gap / emSize
        }
        if spaces.width > 0 {
            grown += extra
        } else if gaps > 0 {
            // A line of one word spreads its syllables to `syllableQuiet` em at most and is left
            // short of the rest, flush left, as TeX leaves a line with no glue to stretch.
            let quiet = max(0, syllableQuiet * gapSize / Double(gaps) - 1.5 * widening)
            perEm = min(extra, Double(gaps) * quiet) / gapSize
        }
        let spaceFactor = spaces.width > 0 ? grown / spaces.width : 0
        return (spaceFactor, perEm * (gaps > 0 ? gapSize / Double(gaps) : 0))
    }
}

extension ParagraphLayout {
    /// What finalizing a composed paragraph's drawable lines needs: each line is put at the
    /// composer's offset (the only alignment), given the composer's width and labelled with
    /// its source text.
    struct Finish {
        let paragraph: StyledParagraph
        /// The measure, pt.
        let width: Double
        /// The paragraph's text, UTF-8.
        let bytes: [UInt8]
        /// Each line's source text (``ParagraphLayout/sourceTextRanges(_:scalars:)``).
        let textRanges: [Range<Int>]

        /// Places, sizes and labels `lines`, the composition's lines from index `first` (at
        /// most `count` of them; `rightToLeft` by line of `lines`, empty when all are
        /// left-to-right): each at the composer's offset and width, with its source text.
        func finalize(
            _ lines: inout [ShapedLine], first: Int, count: Int, rightToLeft: [Bool], _ composition: Composition
        ) {
            let alignment = paragraph.style.alignment
            let startAligned =
                paragraph.style.leftIsStart && ParagraphLayout.alignment(alignment, rightToLeft: true) != alignment
            for offset in lines.indices where offset < count {
                let index = first + offset
                let composed = composition.lines[index]
                if offset < rightToLeft.count, rightToLeft[offset], startAligned {
                    // A start-aligned line of a right-to-left paragraph: flush right (a justified
                    // line filling the measure stays at 0).
                    place(&lines[offset], at: alignmentOffset(.right, width: width, line: composed.width))
                } else {
                    place(&lines[offset], at: composed.x)
                }
                // The backend's line extents predate the widened glyphs: the composer's own
                // width is the drawn advance.
                lines[offset].width = composed.width
                if composed.expansion != 0 {
                    // Drawn scaled from the line's left edge: its links scale with it.
                    let scale = 1 + composed.expansion
                    lines[offset].horizontalScale = scale
                    for link in lines[offset].links.indices {
                        let from = lines[offset].links[link].x - lines[offset].x
                        lines[offset].links[link].x = lines[offset].x + from * scale
                        lines[offset].links[link].width *= scale
                    }
                    for span in lines[offset].languages.indices {
                        let from = lines[offset].languages[span].x - lines[offset].x
                        lines[offset].languages[span].x = lines[offset].x + from * scale
                        lines[offset].languages[span].width *= scale
                    }
                }
                lines[offset].isWrapContinuation = index > 0 && composition.lines[index - 1].ending != .separator
                // Sliced from the paragraph's UTF-8 bytes (the scalars are the text's), not rebuilt
                // scalar by scalar.
                let range = textRanges[index]
                var last = range.upperBound
                if composed.ending == .hyphen {
                    // A soft hyphen (U+00AD, C2 AD) the line ends at is printed as "-".
                    if last - range.lowerBound >= 2, bytes[last - 2] == 0xC2, bytes[last - 1] == 0xAD { last -= 2 }
                    lines[offset].text = String(decoding: bytes[range.lowerBound..<last], as: UTF8.self) + "-"
                } else {
                    lines[offset].text = String(decoding: bytes[range.lowerBound..<last], as: UTF8.self)
                }
            }
        }
    }

    /// The lines of a paragraph that fits on one line, as shaped, each put where its
    /// alignment within `width` pt puts it (the start edge of a right-to-left line is its right).
    /// With `leftIsStart` false every line keeps `alignment` as given (``ParagraphStyle/leftIsStart``).
    static func alignedSingleLines(
        _ shaped: ShapedLines, alignment: TextAlignment, leftIsStart: Bool = true, width: Double
    ) -> [ShapedLine] {
        var lines = shaped.lines
        for index in lines.indices {
            let rightToLeft = leftIsStart && index < shaped.rightToLeft.count && shaped.rightToLeft[index]
            let lineAlignment = Self.alignment(alignment, rightToLeft: rightToLeft)
            place(&lines[index], at: alignmentOffset(lineAlignment, width: width, line: lines[index].width))
        }
        return lines
    }

    /// Puts a line's left edge (and its link rectangles with it) at `x` pt from the paragraph
    /// box's left edge, whatever offset the backend gave it: the composer's alignment is the
    /// only one. Pango aligns each line of a layout within the layout's width, and with
    /// automatic base direction (`pango_layout_set_auto_dir`, the default) it flips
    /// `PANGO_ALIGN_LEFT` to the right for a right-to-left paragraph — so a line of a
    /// right-to-left paragraph shorter than the layout's widest line comes back already moved
    /// right, and adding the composer's offset to that would push a right-aligned or centred
    /// line past the measure.
    static func place(_ line: inout ShapedLine, at x: Double) {
        let distance = x - line.x
        guard distance != 0 else { return }
        line.x += distance
        for index in line.links.indices { line.links[index].x += distance }
        for index in line.languages.indices { line.languages[index].x += distance }
    }

    /// The alignment a line is set with: left and justify mean the start edge, which is the
    /// right for a line of a right-to-left paragraph (as Pango's automatic direction flips
    /// `PANGO_ALIGN_LEFT`, `pango_layout_set_auto_dir`; CSS `text-align: start`); right and
    /// centre are the same in either direction.
    static func alignment(_ alignment: TextAlignment, rightToLeft: Bool) -> TextAlignment {
        rightToLeft && (alignment == .left || alignment == .justify) ? .right : alignment
    }

    /// The offset, pt, that aligns a line `line` pt wide in `width` pt.
    static func alignmentOffset(_ alignment: TextAlignment, width: Double, line: Double) -> Double {
        switch alignment {
        case .center: max(0, (width - line) / 2)
        case .right: max(0, width - line)
        case .left, .justify: 0
        }
    }
}
