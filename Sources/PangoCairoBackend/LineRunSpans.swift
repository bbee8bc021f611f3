internal import CPangoCairo

/// Where each run of a Pango line lies along it, so that a piece of the line (the glyphs whose
/// middle falls in a range) is drawn from the runs that hold it alone: a line drawn in k pieces
/// then costs its glyphs once, not k times.
///
/// A piece is drawn by making the line's run list, for the drawing, the consecutive runs that
/// reach into the piece's range, after one stand-in run: a single empty glyph
/// (``PANGO_GLYPH_EMPTY``) as wide as the runs left out before them, with no attributes
/// (``withRuns(touching:of:_:)``). Pango places each glyph by the advance of the runs before it
/// in the list, so every glyph lands where the whole line puts it, to the bit. A run left out
/// would draw nothing in the piece (its glyphs are hidden and its decorations taken off), so
/// leaving it out changes no mark on the page. Two kinds of line are always drawn from all
/// their runs (``init(_:)`` gives nil): one with a background, as Pango draws a run's
/// background as tall as the extents it measures from the runs it is given, and one whose
/// first run is set in a colour font, whose runs are drawn apart (``ColorGlyphRuns``).
final class LineRunSpans {
    /// The list node of each run, in the line's order.
    private let nodes: [UnsafeMutablePointer<GSList>]
    /// The advance from the line's start to each run's start, Pango units; one more entry, the
    /// line's whole advance, closes the last run.
    private let starts: [Int32]
    /// The stand-in for the runs before a piece, and its list node.
    private let standIn: UnsafeMutablePointer<PangoGlyphItem>
    private let standInNode: UnsafeMutablePointer<GSList>

    /// The spans of `line`'s runs; nil for a line drawn from all its runs (``LineRunSpans``),
    /// one with no runs, or one with a negative advance (the runs' spans would overlap).
    init?(_ line: UnsafeMutablePointer<PangoLayoutLine>) {
        var nodes: [UnsafeMutablePointer<GSList>] = []
        var starts: [Int32] = [0]
        var advance: Int32 = 0
        var node = line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            if Self.hasBackground(run) { return nil }
            let glyphs = run.pointee.glyphs.pointee
            for index in 0..<Int(glyphs.num_glyphs) {
                let width = glyphs.glyphs[index].geometry.width
                if width < 0 { return nil }
                advance += width
            }
            nodes.append(current)
            starts.append(advance)
            node = current.pointee.next
        }
        guard let first = nodes.first?.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self),
            let font = first.pointee.item.pointee.analysis.font, !ColorFonts.isColorFont(font),
            let item = pango_item_new(), let glyphs = pango_glyph_string_new(), let node = g_slist_alloc()
        else { return nil }
        // The first run's analysis (its face, level and script) and text, without its attributes:
        // the same text with no glyph drawn is what a hidden run of the line hands Pango too.
        item.pointee.analysis = first.pointee.item.pointee.analysis
        item.pointee.analysis.extra_attrs = nil
        g_object_ref(font)
        item.pointee.offset = first.pointee.item.pointee.offset
        item.pointee.length = first.pointee.item.pointee.length
        item.pointee.num_chars = first.pointee.item.pointee.num_chars
        pango_glyph_string_set_size(glyphs, 1)
        glyphs.pointee.glyphs[0].glyph = PANGO_GLYPH_EMPTY
        glyphs.pointee.glyphs[0].geometry = PangoGlyphGeometry(width: 0, x_offset: 0, y_offset: 0)
        glyphs.pointee.glyphs[0].attr.is_cluster_start = 1
        glyphs.pointee.log_clusters[0] = 0
        let standIn = UnsafeMutablePointer<PangoGlyphItem>.allocate(capacity: 1)
        standIn.initialize(
            to: PangoGlyphItem(item: item, glyphs: glyphs, y_offset: 0, start_x_offset: 0, end_x_offset: 0))
        node.pointee.data = UnsafeMutableRawPointer(standIn)
        node.pointee.next = nil
        self.nodes = nodes
        self.starts = starts
        self.standIn = standIn
        self.standInNode = node
    }

    deinit {
        pango_item_free(standIn.pointee.item)
        pango_glyph_string_free(standIn.pointee.glyphs)
        standIn.deallocate()
        g_slist_free_1(standInNode)
    }

    /// Calls `body` with `line`'s run list cut to the runs whose span, in pt from the line's
    /// start, meets `range`, after the stand-in for the runs before them; the list is whole
    /// again when `body` returns. With no such run, `body` is not called.
    func withRuns(touching range: Range<Double>, of line: UnsafeMutablePointer<PangoLayoutLine>, _ body: () -> Void) {
        let scale = Double(PANGO_SCALE)
        // The first run whose end reaches the range, and the first after it that starts past it.
        let first = partition { Double(starts[$0 + 1]) / scale < range.lowerBound }
        let end = partition { Double(starts[$0]) / scale <= range.upperBound }
        guard first < end else { return }
        let whole = line.pointee.runs
        let last = nodes[end - 1]
        let after = last.pointee.next
        if first > 0 {
            standIn.pointee.glyphs.pointee.glyphs[0].geometry.width = starts[first]
            standInNode.pointee.next = nodes[first]
            line.pointee.runs = standInNode
        }
        last.pointee.next = nil
        defer {
            last.pointee.next = after
            line.pointee.runs = whole
            standInNode.pointee.next = nil
        }
        body()
    }

    /// The least run index in `0..<nodes.count` for which `before` is false (`before` holds for
    /// a prefix of the indices).
    private func partition(_ before: (Int) -> Bool) -> Int {
        var low = 0
        var high = nodes.count
        while low < high {
            let middle = (low + high) / 2
            if before(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func hasBackground(_ run: UnsafeMutablePointer<PangoGlyphItem>) -> Bool {
        var node = run.pointee.item.pointee.analysis.extra_attrs
        while let current = node {
            let type = current.pointee.data.assumingMemoryBound(to: PangoAttribute.self).pointee.klass.pointee.type
            if type == PANGO_ATTR_BACKGROUND { return true }
            node = current.pointee.next
        }
        return false
    }
}

extension Array where Element == Double {
    /// Whether an element of this array, sorted ascending, lies in `range` (a binary search).
    func sortedContains(in range: Range<Double>) -> Bool {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] < range.upperBound
    }
}
