internal import CPangoCairo

/// The order in which the pieces of a tagged line are read, for a line with a run set right to
/// left (Unicode's bidirectional algorithm, UAX #9: a Hebrew or Arabic paragraph, Hebrew in an
/// English line, an override such as U+202E).
///
/// A tagged line holding links is drawn in pieces, each the glyphs between two links' edges
/// along the line, and the structure tree reads the pieces in the order they are drawn. Pango
/// draws a line's runs from its left end, and Cairo a right-to-left run's glyphs in the order
/// of its text, so a line of several runs with one set right to left would be read out of
/// order: a Hebrew sentence's full stop (a run of the Latin face) first, an Arabic line's
/// bold word or number before the words written ahead of it, two Hebrew words in an English
/// line swapped. Such a line is drawn in pieces, links or not, cut where a run ends, and the
/// cuts are drawn by the first byte of their run, along each run its own way: the text's
/// logical order, which is the order PDF's structure tree gives its content in (ISO 32000-1
/// §14.8.2.3, "Logical Structure Order"). A line whose runs all go left to right, or that is
/// one run, keeps its pieces as they are.
enum ReadingOrder {
    /// One run of a line: where it lies along the line (pt from the line's start, before font
    /// expansion; the first run reaches back without end and the last on without end), the
    /// byte its text starts at, and whether it is set right to left.
    struct Run {
        var span: Range<Double>
        var offset: Int
        var rightToLeft: Bool
    }

    /// A piece of a line to draw: the glyphs whose middle falls in `range`, the index of the link
    /// it belongs to (nil: none), and which way it is read.
    typealias Piece = (range: Range<Double>, link: Int?, rightToLeft: Bool)

    /// The runs of `line`, in the line's order, when there are several and one goes right to
    /// left; nil otherwise (the line is read in the order it is drawn).
    static func runsOutOfOrder(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [Run]? {
        // Most lines go left to right: their runs are looked at without a list made.
        var node = line.pointee.runs
        var rightToLeft = false
        while let current = node, !rightToLeft {
            rightToLeft =
                current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item.pointee
                .analysis.level % 2 == 1
            node = current.pointee.next
        }
        guard rightToLeft, line.pointee.runs?.pointee.next != nil else { return nil }
        let items = line.glyphItems
        var runs: [Run] = []
        var advance: Int32 = 0
        for run in items {
            let glyphs = run.pointee.glyphs.pointee
            let start = Double(advance) / Double(PANGO_SCALE)
            for index in 0..<Int(glyphs.num_glyphs) { advance += glyphs.glyphs[index].geometry.width }
            // A run's advance may be below zero: negative tracking on glyphs that draw nothing
            // (a zero-width non-joiner, a mark or a bidirectional control, split from the letters
            // around it into a run of its own). Such a run holds no width.
            let end = max(start, Double(advance) / Double(PANGO_SCALE))
            let item = run.pointee.item.pointee
            runs.append(
                Run(
                    span: (runs.isEmpty ? -.infinity : start)..<end, offset: Int(item.offset),
                    rightToLeft: item.analysis.level % 2 == 1))
        }
        let last = runs.count - 1
        runs[last].span = runs[last].span.lowerBound..<Double.infinity
        return runs
    }

    /// `pieces` (ranges along the line, in its order, each with its link's index or nil) cut
    /// where a run of `runs` ends, in reading order: by the first byte of the run each cut lies
    /// in, then along that run its way. A piece that holds no width stays whole, read where its
    /// start lies.
    static func inReadingOrder(_ pieces: [(range: Range<Double>, link: Int?)], runs: [Run]) -> [Piece] {
        var cuts: [(piece: Piece, key: (Int, Double))] = []
        for piece in pieces {
            var cut = false
            for run in runs {
                let lower = max(piece.range.lowerBound, run.span.lowerBound)
                let upper = min(piece.range.upperBound, run.span.upperBound)
                guard lower < upper else { continue }
                cut = true
                cuts.append(
                    ((lower..<upper, piece.link, run.rightToLeft), (run.offset, run.rightToLeft ? -upper : lower)))
            }
            if !cut {
                let run = runs.first { $0.span.contains(piece.range.lowerBound) } ?? runs[runs.count - 1]
                cuts.append(((piece.range, piece.link, run.rightToLeft), (run.offset, piece.range.lowerBound)))
            }
        }
        return cuts.sorted { $0.key < $1.key }.map(\.piece)
    }
}
