import Styling

// Font expansion (pdfTeX's hz) of a paragraph's justified lines, chosen once the breaks are known.

extension ParagraphComposer {
    /// The font expansion of each line of a paragraph (`lines`, as
    /// ``measure(_:start:items:prepared:isCode:sizes:justified:width:)`` measures them), within
    /// `limit` (0.02: ±2 %), in multiples of ``ParagraphStyle/fontExpansionStep``.
    ///
    /// Each line takes the step that sets its word spaces, as a reader sees them (the spaces'
    /// own growth × the line's scale), closest to their natural width
    /// (``expansionCost(_:expansion:)``): expansion takes a line's slack before its word spaces
    /// do, and before Hangul syllable gaps, as pdfTeX sets a line (Hàn Thế Thành,
    /// "Micro-typographic extensions to the TeX typesetting system", 2000). Each line is
    /// chosen on its own, as the line breaker assumes when it counts every line's expansion as
    /// stretch and shrink: a line held within a step of the line before would keep slack the
    /// breaker gave to expansion in its word spaces (a paragraph's first line, a loose line
    /// after a tight one). Neighbouring lines stay alike through the breaker's fitness
    /// classes (TeX's \adjdemerits), as in pdfTeX.
    ///
    /// A line that is not stretched (a paragraph's last line) is not expanded unless the
    /// breaker chose it shrunk; a line its word spaces cannot shrink into the measure narrows
    /// as far as the limit allows; a line holding code is never expanded.
    static func expansions(_ lines: [LineMeasure], limit: Double) -> [Double] {
        guard limit > 0 else { return [Double](repeating: 0, count: lines.count) }
        let step = ParagraphStyle.fontExpansionStep
        let reach = Int((limit / step + 1e-9).rounded(.down))
        let steps = (-reach...reach).map { Double($0) * step }
        return lines.map { line in
            guard !line.holdsCode, line.naturalWidth > 0 else { return 0 }
            return steps.min { expansionCost(line, expansion: $0) < expansionCost(line, expansion: $1) } ?? 0
        }
    }

    /// The cost of setting `line` at `expansion`: for a justified line, the square of how far
    /// its word spaces as seen (their growth × the line's scale) stand from their natural
    /// width (on a line without word spaces, of its slack's share of the measure); for a line
    /// not stretched, the square of the expansion. A line its spaces cannot shrink into the
    /// measure costs far more than any other, the more the wider. On a tie the step nearest to
    /// none wins.
    static func expansionCost(_ line: LineMeasure, expansion: Double) -> Double {
        let room = line.available / (1 + expansion)
        let extra = room - line.naturalWidth
        let shrunk = line.naturalWidth - line.spaceWidth * spaceShrink
        if room < shrunk - 1e-9 { return 1e8 * (1 + shrunk - room) }
        let tie = 1e-9 * expansion * expansion
        guard line.stretches || extra < 0 else { return expansion * expansion + tie }
        guard line.spaceWidth > 0 else {
            let share = extra / line.available
            return share * share + tie
        }
        let seen = (1 + extra / line.spaceWidth) * (1 + expansion) - 1
        return seen * seen + tie
    }
}
