import Styling

extension ParagraphComposer {
    /// `prepared` with every word space of a justified paragraph that sets Hangul given one
    /// natural width per font size: the width of the space that follows a Hangul syllable (the
    /// Korean face's space, chosen by the font fallback that sets the syllables), also for the
    /// spaces between Latin words, which the Latin face would set wider (Inter's space is
    /// 0.281 em, Noto Sans CJK KR's 0.224 em). A line's word spaces so start equal and
    /// justification stretches them equally (W3C KLREQ, "Requirements for Hangul Text Layout
    /// and Typography": word spaces are the first to be adjusted when a line is justified; the
    /// width of the Korean face is the one Korean text is spaced with). Code and no-break spaces
    /// keep their own widths; a paragraph without Hangul, or not justified, is returned as it is.
    static func uniformWordSpaces(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph
    ) -> PreparedParagraph {
        guard paragraph.style.alignment == .justify else { return prepared }
        let scalars = prepared.scalars
        let runs = paragraph.runs
        // By font size (pt): the most frequent width of a space after a Hangul syllable.
        var counts: [Double: [Double: Int]] = [:]
        for i in 1..<max(1, scalars.count) where isBreakingSpace(scalars[i]) && isHangul(scalars[i - 1]) {
            let style = runs[prepared.runIndex[i]].style
            guard !style.isCode, prepared.advances[i] > 0 else { continue }
            counts[style.font.size, default: [:]][prepared.advances[i], default: 0] += 1
        }
        guard !counts.isEmpty else { return prepared }
        // Spaces of another size (a larger span) keep their own widths, and a line's spaces are
        // drawn at one width or at their own (``lineWordSpace(_:original:isCode:start:end:)``):
        // only a paragraph whose word spaces share one size is given uniform spaces, so that
        // every line is drawn with the spaces it was broken with.
        let sizes = Set(
            scalars.indices.lazy.filter { isBreakingSpace(scalars[$0]) && prepared.advances[$0] > 0 }
                .map { runs[prepared.runIndex[$0]].style }.filter { !$0.isCode }.map(\.font.size))
        guard sizes.count == 1 else { return prepared }
        var widths: [Double: Double] = [:]
        for (size, widthCounts) in counts {
            // The most frequent width; the narrower of two as frequent (a reproducible choice).
            widths[size] = widthCounts.max { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key }!.key
        }
        var uniform = prepared
        for i in scalars.indices where isBreakingSpace(scalars[i]) {
            let style = runs[prepared.runIndex[i]].style
            guard !style.isCode, prepared.advances[i] > 0, let width = widths[style.font.size] else { continue }
            uniform.advances[i] = width
        }
        return uniform
    }

    /// The one natural width, pt, of the stretchable word spaces of the line `start..<end` in
    /// `uniform` (``uniformWordSpaces(_:prepared:)``) when they all had a width given and it is
    /// the same; nil when the line has none, or they keep their own widths.
    static func lineWordSpace(
        _ uniform: PreparedParagraph, original: PreparedParagraph, isCode: [Bool], start: Int, end: Int
    ) -> Double? {
        var width: Double?
        var changed = false
        for i in start..<max(start, end) where isBreakingSpace(uniform.scalars[i]) && !isCode[uniform.runIndex[i]] {
            let advance = uniform.advances[i]
            if let width, width != advance { return nil }
            width = advance
            changed = changed || original.advances[i] != advance
        }
        return changed ? width : nil
    }
}
