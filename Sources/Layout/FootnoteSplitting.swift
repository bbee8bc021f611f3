/// Footnotes longer than the room below their marker, split at a line as LaTeX and Typst
/// split them: the marker's line stays with the note's first lines, filling its page, and the
/// note's other lines continue at the top of the next page's footnotes.
extension Paginator {
    /// `item`'s footnote lines in the order they are set (by note number), split where its
    /// page ends: `head` is the item with the lines that fit below it and the lines of its
    /// paragraph that must share its page (``Item/linesKeptAfter``, room kept for each as tall
    /// as the item), `rest` the lines that continue, then `deferred`, the notes after them not
    /// laid out yet (``Item/deferredNotes``). Nil when too few note lines fit
    /// (``splitPoint(keeping:of:orphans:widows:)``: the item moves to the next page whole,
    /// notes and all) or when every line fits. Deferred notes are laid out, into `item`'s
    /// notes, only as far as the split needs them: those numbered below a note laid out, and
    /// then while every line fits.
    func splitNotes(of item: inout Item, gap: Double, placedNotes: [Item]) -> (
        head: Item, rest: [Item], deferred: [DeferredNote]
    )? {
        guard !item.notes.isEmpty || !item.deferredNotes.isEmpty else { return nil }
        if let highest = item.notes.map(\.noteNumber).max() {
            while let next = item.deferredNotes.last, next.number < highest {
                item.notes += noteLines(item.deferredNotes.removeLast())
            }
        }
        var lines = item.notes.indices.sorted {
            (item.notes[$0].noteNumber, $0) < (item.notes[$1].noteNumber, $1)
        }.map { item.notes[$0] }
        let ink = item.ink ?? Overhang()
        let itemTop = cursor + gap
        let lead = max(self.lead, ink.above - itemTop)
        let following = Double(item.linesKeptAfter) * item.height
        let bottom = max(inkBottom, itemTop + item.height + following + ink.below)
        var kept = 0
        while true {
            while kept < lines.count,
                lead + bottom + Paginator.notesHeight(placedNotes + lines[...kept]) <= textHeight + 0.01
            {
                kept += 1
            }
            // Deferred notes are numbered above every line laid out: they follow in order.
            guard kept == lines.count, let next = item.deferredNotes.popLast() else { break }
            let added = noteLines(next)
            item.notes += added
            lines += added
        }
        guard kept > 0, kept < lines.count else { return nil }
        kept = Self.splitPoint(
            keeping: kept, of: lines.map(\.noteNumber), orphans: options.orphans, widows: options.widows)
        guard kept > 0 else { return nil }
        var head = item
        head.notes = Array(lines[..<kept])
        head.deferredNotes = []
        return (head, Array(lines[kept...]), item.deferredNotes)
    }

    /// The note lines to keep on the marker's page, at most `fitting` of `numbers` (each line's
    /// note number, in order), so that the note split keeps at least `orphans` of its lines
    /// here and `widows` for the next page, as a paragraph split across pages does; the split
    /// moves up when it would leave fewer, and a note too short to split that way moves whole
    /// (0: none kept, the marker's line moves on with its notes).
    static func splitPoint(keeping fitting: Int, of numbers: [Int], orphans: Int, widows: Int) -> Int {
        var kept = fitting
        guard kept > 0, kept < numbers.count else { return kept }
        let note = numbers[kept]
        let first = numbers[..<kept].lastIndex { $0 != note }.map { $0 + 1 } ?? 0
        let last = (numbers[kept...].firstIndex { $0 != note } ?? numbers.count) - 1
        let noteLines = last - first + 1
        // Lines of the split note left for the next page: at least `widows`.
        kept = min(kept, last + 1 - max(1, widows))
        // Lines of it kept here: none, or at least `orphans` (all of it when it is short).
        if kept - first < min(max(1, orphans), noteLines) { kept = first }
        return max(0, kept)
    }

    /// Notes continued from an earlier page that take more than a whole text area: pages of
    /// footnotes alone until what is left fits with some text above it.
    /// Each page's notes are found by measuring from where the last page's ended, only as far
    /// as they fit (measured whole again for each page, and copied, 16,000 notes that cite one
    /// another took time quadratic in their number); deferred notes
    /// (``carriedDeferredNotes``) are laid out only as far as the page being filled needs.
    func flushOverlongCarriedNotes() throws {
        var notes = carriedNotes
        var start = 0
        while placed.isEmpty {
            var fitting = Paginator.fittingNotes(notes[start...].lazy.map(\.line), within: textHeight + 0.01)
            while start + fitting == notes.count, let next = carriedDeferredNotes.popLast() {
                notes += noteLines(next.note).map { ($0, next.parent) }
                fitting = Paginator.fittingNotes(notes[start...].lazy.map(\.line), within: textHeight + 0.01)
            }
            // The rest fits with text above it.
            guard start + fitting < notes.count else { break }
            let end = start + max(1, fitting)
            carriedNotes = Array(notes[start..<end])
            try flush()
            start = end
            // The lines set are let go once they are half of those held.
            if start > notes.count / 2 {
                notes.removeFirst(start)
                start = 0
            }
        }
        carriedNotes = start == 0 ? notes : Array(notes[start...])
        // Left only when the page was not empty: laid out, so that they follow on its foot.
        while let next = carriedDeferredNotes.popLast() {
            carriedNotes += noteLines(next.note).map { ($0, next.parent) }
        }
    }
}
