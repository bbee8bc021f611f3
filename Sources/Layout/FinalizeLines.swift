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
        var lines: [ComposedLine] = []
        var start = 0
        for line in result.lines {
            let item = items[line.breakIndex]
            let end: Int
            let ending: ComposedLine.Ending
            let isLastItem = line.breakIndex == items.count - 1
            switch item.kind {
            case .glue:
                end = item.position
                ending = .space
            case .penalty where isLastItem:
                end = scalarCount
                ending = .end
            case .penalty where item.cost == -.infinity:
                end = item.position
                ending = .separator
            case .penalty:
                end = item.position
                ending = item.flagged && (item.width > 0) ? .hyphen : .opportunity
            case .box:
                end = item.position
                ending = .opportunity
            }
            // Stretchable spaces and Hangul gaps on the line.
            var spaceWidth = 0.0
            var gaps = 0
            var gapSize = 0.0
            for i in start..<max(start, end) {
                let scalar = prepared.scalars[i]
                if isBreakingSpace(scalar) && !isCode[prepared.runIndex[i]] { spaceWidth += prepared.advances[i] }
                if isHangul(scalar) && i + 1 < end && isHangul(prepared.scalars[i + 1]) {
                    gaps += 1
                    gapSize += sizes[prepared.runIndex[i]]
                }
            }
            var spaceFactor = 0.0
            var syllable = 0.0
            let stretches = justified && ending != .end && ending != .separator
            let available = width + (stretches ? line.hang : 0)
            var extra = available - line.naturalWidth
            // A last line (or one before a hard break) is never stretched, but it is shrunk
            // when the breaker chose it at less than its natural width.
            if justified && extra < 0 || stretches && spaceWidth + gapSize > 0 {
                if extra < 0 {
                    spaceFactor = spaceWidth > 0 ? max(extra / spaceWidth, -spaceShrink) : 0
                } else {
                    // KLREQ: word spaces first, then between syllables, in two steps, then spaces again.
                    // `gapSize` is the sum of the gaps' em sizes.
                    var spaces = 0.0
                    var perEm = 0.0
                    func take(_ available: Double) -> Double {
                        let taken = min(extra, max(0, available))
                        extra -= taken
                        return taken
                    }
                    if spaceWidth > 0 { spaces += take(spaceWidth * spaceFirst) }
                    if gaps > 0 { perEm += take(gapSize * syllableQuiet) / gapSize }
                    if spaceWidth > 0 { spaces += take(spaceWidth * (spaceMost - spaceFirst)) }
                    if gaps > 0 { perEm += take(gapSize * (syllableMost - syllableQuiet)) / gapSize }
                    if spaceWidth > 0 {
                        spaces += extra
                        extra = 0
                    } else if gaps > 0 {
                        perEm += extra / gapSize
                        extra = 0
                    }
                    spaceFactor = spaceWidth > 0 ? spaces / spaceWidth : 0
                    syllable = perEm * (gaps > 0 ? gapSize / Double(gaps) : 0)
                }
            }
            let finalWidth = line.naturalWidth + spaceFactor * spaceWidth + syllable * Double(gaps)
            var left = 0.0
            switch paragraph.style.alignment {
            case .center: left = max(0, (width - finalWidth) / 2)
            case .right: left = max(0, width - finalWidth)
            case .left, .justify: left = 0
            }
            lines.append(
                ComposedLine(
                    start: start, end: end, ending: ending, naturalWidth: line.naturalWidth,
                    spaceFactor: spaceFactor, syllableSpacing: syllable, x: left, width: finalWidth,
                    hang: stretches ? max(0, finalWidth - width) : 0))
            // The next line starts after the dropped space or separator, and any spaces after it.
            var next = end
            if ending == .space || ending == .separator { next += 1 }
            while next < scalarCount, ending == .space, isBreakingSpace(prepared.scalars[next]) { next += 1 }
            start = next
        }
        return lines
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
            let startAligned = ParagraphLayout.alignment(alignment, rightToLeft: true) != alignment
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
    static func alignedSingleLines(_ shaped: ShapedLines, alignment: TextAlignment, width: Double) -> [ShapedLine] {
        var lines = shaped.lines
        for index in lines.indices {
            let rightToLeft = index < shaped.rightToLeft.count && shaped.rightToLeft[index]
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
}
