import Styling

extension ParagraphComposer {
    /// `prepared` with every word space of a paragraph that sets Hangul, its spaces all of one
    /// size, given one natural width: the width of the space that follows a Hangul syllable (the
    /// Korean face's space, chosen by the font fallback that sets the syllables), also for the
    /// spaces between Latin words, which the Latin face would set wider (Inter's space is
    /// 0.281 em, Noto Sans CJK KR's 0.224 em). A line's word spaces so are equal, ragged or
    /// justified, and justification stretches them equally (W3C KLREQ, "Requirements for Hangul
    /// Text Layout and Typography": word spaces are the first to be adjusted when a line is
    /// justified; the width of the Korean face is the one Korean text is spaced with). Code and
    /// no-break spaces keep their own widths; a paragraph without Hangul, or with spaces of two
    /// sizes, is returned as it is.
    static func uniformWordSpaces(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph
    ) -> PreparedParagraph {
        let scalars = prepared.scalars
        let runs = paragraph.runs
        // Spaces of another size (a larger span) keep their own widths, and a line's spaces are
        // drawn at one width or at their own (``lineWordSpace(_:original:isCode:start:end:)``):
        // only a paragraph whose word spaces share one size is given uniform spaces, so that
        // every line is drawn with the spaces it was broken with.
        var size: Double?
        for i in scalars.indices where isBreakingSpace(scalars[i]) && prepared.advances[i] > 0 {
            let style = runs[prepared.runIndex[i]].style
            guard !style.isCode else { continue }
            if let size, size != style.font.size { return prepared }
            size = style.font.size
        }
        // The most frequent width of a space after a Hangul syllable; the narrower of two as
        // frequent (a reproducible choice).
        var counts: [Double: Int] = [:]
        for i in 1..<max(1, scalars.count) where isBreakingSpace(scalars[i]) && isHangul(scalars[i - 1]) {
            guard !runs[prepared.runIndex[i]].style.isCode, prepared.advances[i] > 0 else { continue }
            counts[prepared.advances[i], default: 0] += 1
        }
        guard let width = counts.max(by: { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key })?.key
        else { return prepared }
        var uniform = prepared
        for i in scalars.indices where isBreakingSpace(scalars[i]) {
            guard !runs[prepared.runIndex[i]].style.isCode, prepared.advances[i] > 0 else { continue }
            uniform.advances[i] = width
        }
        return uniform
    }

    /// Whether `text` sets Hangul and has a word space after another letter, one that may be
    /// set in another face than the spaces after Hangul (``uniformWordSpaces(_:prepared:)``
    /// gives them one width): such a paragraph is composed even when it fits on one line.
    static func mayMixWordSpaces(_ text: String) -> Bool {
        var hangul = false
        var otherSpace = false
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if isHangul(scalar) {
                hangul = true
            } else if isBreakingSpace(scalar), !isHangul(previous), !isBreakingSpace(previous) {
                otherSpace = true
            }
            if hangul && otherSpace { return true }
            previous = scalar
        }
        return false
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
