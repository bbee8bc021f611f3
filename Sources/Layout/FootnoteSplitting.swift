/// Footnotes longer than the room below their marker, split at a line as LaTeX and Typst
/// split them: the marker's line stays with the note's first lines, filling its page, and the
/// note's other lines continue at the top of the next page's footnotes.
extension Paginator {
    /// `item`'s footnote lines in the order they are set (by note number), split where its
    /// page ends: `head` is the item with the lines that fit below it, `rest` the lines that
    /// continue. Nil when no note line fits with the item (it moves to the next page whole,
    /// notes and all) or when every line fits.
    func splitNotes(of item: Item, gap: Double, placedNotes: [Item]) -> (head: Item, rest: [Item])? {
        guard !item.notes.isEmpty else { return nil }
        let lines = item.notes.indices.sorted {
            (item.notes[$0].noteNumber, $0) < (item.notes[$1].noteNumber, $1)
        }.map { item.notes[$0] }
        let ink = item.ink ?? Overhang()
        let itemTop = cursor + gap
        let lead = max(self.lead, ink.above - itemTop)
        let bottom = max(inkBottom, itemTop + item.height + ink.below)
        var kept = 0
        while kept < lines.count,
            lead + bottom + Paginator.notesHeight(placedNotes + lines[...kept]) <= textHeight + 0.01
        {
            kept += 1
        }
        guard kept > 0, kept < lines.count else { return nil }
        var head = item
        head.notes = Array(lines[..<kept])
        return (head, Array(lines[kept...]))
    }

    /// Notes continued from an earlier page that take more than a whole text area: pages of
    /// footnotes alone until what is left fits with some text above it.
    func flushOverlongCarriedNotes() throws {
        while placed.isEmpty, Paginator.notesHeight(carriedNotes.map(\.line)) > textHeight + 0.01 {
            var fitting = 0
            while fitting < carriedNotes.count,
                Paginator.notesHeight(carriedNotes[...fitting].map(\.line)) <= textHeight + 0.01
            {
                fitting += 1
            }
            let rest = Array(carriedNotes[max(1, fitting)...])
            carriedNotes = Array(carriedNotes[..<max(1, fitting)])
            try flush()
            carriedNotes = rest
        }
    }
}
