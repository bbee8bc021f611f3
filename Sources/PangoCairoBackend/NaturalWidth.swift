internal import CPangoCairo
import Layout
import Styling

/// Measuring without drawing: the natural (unwrapped) width of a paragraph, as
/// ``PangoShaper/shape(_:width:)`` with no width reports it, without building the drawable
/// lines — no line handles, line texts or link rectangles, which a table's measuring pass
/// would make for every cell and throw away.
extension PangoShaper {
    /// The widest line of `paragraph` laid out without wrapping, pt: the same
    /// `PangoLayout` and the same logical line extents that `shape(paragraph, width: nil)`
    /// reads, so the two agree to the bit. A paragraph that is laid out in several pieces
    /// (wider than one layout can measure), or with a hanging indent, takes the full path.
    public func naturalWidth(of paragraph: StyledParagraph) -> Double {
        FontState.lock.reading {
            setup.refreshIfNeeded()
            return naturalWidthLocked(paragraph)
        }
    }

    private func naturalWidthLocked(_ paragraph: StyledParagraph) -> Double {
        let runs = paragraph.runs
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var bytes: [UInt8] = []
        for run in runs {
            starts.append(bytes.count)
            bytes.append(contentsOf: run.text.utf8)
        }
        let pieces = ParagraphPieces(runs: runs, starts: starts, bytes: bytes, wraps: false)
        guard !bytes.isEmpty, paragraph.style.hangingIndent == 0, pieces.end(from: 0) == bytes.count else {
            return shapeLocked(paragraph, width: nil).naturalWidth
        }
        let layout = rangeLayout(0..<bytes.count, paragraph: paragraph, bytes: bytes, starts: starts, width: nil).layout
        var widest: Int32 = 0
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            var logical = PangoRectangle()
            pango_layout_line_get_extents(lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self), nil, &logical)
            widest = max(widest, logical.width)
            node = lineNode.pointee.next
        }
        return Double(widest) / Double(PANGO_SCALE)
    }
}
