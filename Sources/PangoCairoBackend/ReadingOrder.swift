internal import CPangoCairo

/// The order in which the pieces of a tagged line are read, for a line whose runs go in both
/// directions (Unicode's bidirectional algorithm, UAX #9: Hebrew in an English line, an
/// override such as U+202E).
///
/// A tagged line holding links is drawn in pieces, each the glyphs between two links' edges
/// along the line, and the structure tree reads the pieces in the order they are drawn. Along a
/// line that mixes directions one piece may hold two stretches far apart in the text (the end
/// of a right-to-left stretch sits at its left), so such a line's pieces are cut where a run
/// ends, and the cuts are drawn by the first byte of their run, along each run its own way:
/// the text's logical order, which is the order PDF's structure tree gives its content in
/// (ISO 32000-1 §14.8.2.3, "Logical Structure Order"). A line whose runs all go one way keeps
/// its pieces as they are.
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

    /// The runs of `line`, in the line's order, when some go right to left and some left to
    /// right; nil when all go one way.
    static func mixedRuns(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [Run]? {
        let items = line.glyphItems
        // Most lines go one way: their glyphs are not walked.
        guard Set(items.map { $0.pointee.item.pointee.analysis.level % 2 }).count > 1 else { return nil }
        var runs: [Run] = []
        var advance: Int32 = 0
        for run in items {
            let glyphs = run.pointee.glyphs.pointee
            let start = Double(advance) / Double(PANGO_SCALE)
            for index in 0..<Int(glyphs.num_glyphs) { advance += glyphs.glyphs[index].geometry.width }
            let item = run.pointee.item.pointee
            runs.append(
                Run(
                    span: (runs.isEmpty ? -.infinity : start)..<Double(advance) / Double(PANGO_SCALE),
                    offset: Int(item.offset), rightToLeft: item.analysis.level % 2 == 1))
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
