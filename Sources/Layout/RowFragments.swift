import Styling
import Typography

/// The lines of a table row taller than a page, kept by cell so that the paginator can split
/// the row where the page ends rather than at a height fixed in advance.
///
/// Each cell breaks on its own, at the last of its line boundaries that fits on the page, and
/// its remaining lines start at the top of the next fragment — the cells' baselines need not
/// line up at a common cut (with cells of different line heights, a common cut may not exist
/// short of a page). CSS 2.1 §13.3.3 allows a page break between any two line boxes, inside
/// table cells too, and browsers that split a row (Chromium's table fragmentation) break each
/// cell's content on its own, top-aligned, the row fragment as tall as its tallest cell
/// fragment. A fragment ends at the bottom of its last whole line and the next starts with
/// its first (no padding repeated at a break, CSS Fragmentation Level 3
/// `box-decoration-break: slice`): a split row fills the page as far as whole lines of its
/// cells fit.
///
/// Widows and orphans apply per cell, as to a paragraph (``LayoutOptions/widows``,
/// ``LayoutOptions/orphans``): a cell split across pages leaves at least `orphans` of its
/// lines on the first page and at least `widows` on the last.
struct RowFragments {
    /// One cell's lines still to place.
    struct Cell {
        /// The cell's lines not yet placed, in the positions they were laid out at: each is
        /// ``shift`` pt lower than in the fragment it is in. (A slice of the row's lines, never
        /// copied or moved as the row is split: a split costs the lines it places, not the
        /// row's rest, so a row of many pages is split in time linear in its lines.)
        var lines: ArraySlice<TableLayout.LineBand>
        /// How far the lines are moved up in the fragment they are in, pt: the top of the cell's
        /// first line placed in this fragment, as laid out (0 in the row's first fragment).
        var shift = 0.0
        /// How many of the cell's lines went on earlier pages.
        var placedBefore = 0
        /// All of the cell's lines, wherever they are placed.
        var count: Int { placedBefore + lines.count }
        /// The bottom of the cell's `index`-th line still to place (0: the first), pt from the
        /// fragment's top.
        func bottom(_ index: Int) -> Double { lines[lines.startIndex + index].bottom - shift }
        /// The bottom of the cell's last line, pt from the fragment's top; nil when none is left.
        var lastBottom: Double? { lines.last.map { $0.bottom - shift } }
    }

    /// The cells, in column order (a cell with no lines left is empty).
    var cells: [Cell]
    /// Space below the cells' last lines in the row's last fragment (the cell padding), pt.
    var bottomPadding: Double
    /// Drawn at the foot of the row's last fragment (its bottom rule), y relative to the
    /// fragment's bottom edge.
    var closing: [PageElement]
    /// How many elements at the end of the item's `elements` are this row's: its cells' lines
    /// then ``closing``. What comes before them (the header's top rule, the block's anchors)
    /// belongs to the first fragment.
    var ownElements: Int

    /// The fragments of a row whose cells' lines are `lines` (``TableLayout/LineBand/column``
    /// says whose), its content ending `bottomPadding` pt above its bottom edge.
    init(lines: [TableLayout.LineBand], columns: Int, bottomPadding: Double, closing: [PageElement]) {
        var byCell = [[TableLayout.LineBand]](repeating: [], count: columns)
        for line in lines where line.column < columns { byCell[line.column].append(line) }
        cells = byCell.map { Cell(lines: $0[...]) }
        self.bottomPadding = bottomPadding
        self.closing = closing
        ownElements = lines.filter { $0.column < columns }.reduce(0) { $0 + $1.elements.count } + closing.count
    }

    /// The height of the row from here on, pt: its tallest cell plus the padding below.
    var height: Double { (cells.compactMap(\.lastBottom).max() ?? 0) + bottomPadding }

    /// The elements of the row from here on: every cell's lines, then ``closing`` at the bottom.
    var elements: [PageElement] {
        let height = height
        return cells.flatMap { cell in
            cell.lines.flatMap { band in band.elements.map { cell.shift == 0 ? $0 : $0.offset(by: -cell.shift) } }
        } + closing.map { $0.offset(by: height) }
    }

    /// How many of each cell's lines fit within `room` pt of the fragment's top.
    ///
    /// With `strict`, a cell split leaves at least `orphans` lines before the break and
    /// `widows` after it (counting the cell's lines on earlier pages), and every cell with
    /// lines left starts on this page; without, any line boundary that fits will do. When
    /// every line fits but the row does not (the padding below its lines, or the footnotes it
    /// cites, take the rest), the lowest line moves on, and what widows then require. Nil when
    /// no line fits.
    func counts(within room: Double, widows: Int, orphans: Int, strict: Bool) -> [Int]? {
        var room = room
        for _ in 0..<2 {
            var counts: [Int] = []
            for cell in cells {
                var fitting = 0
                while fitting < cell.lines.count, cell.bottom(fitting) <= room { fitting += 1 }
                if strict {
                    // A break before the cell's line i (from its first) is allowed as in a paragraph.
                    while fitting > 0, fitting < cell.lines.count,
                        !(cell.placedBefore + fitting >= orphans
                            && cell.count - (cell.placedBefore + fitting) >= widows)
                    { fitting -= 1 }
                    if fitting == 0, !cell.lines.isEmpty { return nil }
                }
                counts.append(fitting)
            }
            guard counts.contains(where: { $0 > 0 }) else { return nil }
            if zip(cells, counts).contains(where: { $0.lines.count > $1 }) { return counts }
            room = (cells.compactMap(\.lastBottom).max() ?? 0) - 0.01
        }
        return nil
    }

    /// The first `counts[j]` lines of each cell `j` (positions in the fragment), and the rest of
    /// the row with each cell's remaining lines moved up to start at the next fragment's top.
    func split(at counts: [Int]) -> (head: [PageElement], headHeight: Double, rest: RowFragments) {
        var head: [PageElement] = []
        var headHeight = 0.0
        var rest = self
        for (j, k) in counts.enumerated() {
            let cell = cells[j]
            let taken = cell.lines.prefix(k)
            for band in taken {
                head += band.elements.map { cell.shift == 0 ? $0 : $0.offset(by: -cell.shift) }
                rest.ownElements -= band.elements.count
            }
            if let last = taken.last { headHeight = max(headHeight, last.bottom - cell.shift) }
            rest.cells[j].lines = cell.lines.dropFirst(k)
            rest.cells[j].shift = rest.cells[j].lines.first?.top ?? 0
            rest.cells[j].placedBefore += k
        }
        return (head, headHeight, rest)
    }
}

extension Item {
    /// The item split so that its first part fits in `room` pt, for an item that holds a row
    /// taller than a page (``fragments``); nil when it cannot be split there (see
    /// ``RowFragments/counts(within:widows:orphans:strict:)``).
    ///
    /// The first part keeps what the item carries before the row's own elements (anchors, a
    /// header's top rule), its space above and its break rule; the rest starts a page
    /// (no space above, a break allowed before it) and may be split again. Both keep the
    /// item's quote bars, panel, structure and repeated header; each footnote goes with the
    /// part that holds its reference. The rest's elements are left to be made when it is
    /// placed whole (``withRowElements``): a row many pages long is split a page at a time
    /// without its rest's elements made again each time.
    func split(within room: Double, widows: Int, orphans: Int, strict: Bool) -> (head: Item, rest: Item)? {
        guard let fragments,
            let counts = fragments.counts(within: room, widows: widows, orphans: orphans, strict: strict)
        else { return nil }
        let parts = fragments.split(at: counts)
        var head = self
        head.elements = (rowElementsDeferred ? [] : Array(elements.dropLast(fragments.ownElements))) + parts.head
        head.height = parts.headHeight
        head.fragments = nil
        head.rowElementsDeferred = false
        var rest = self
        rest.elements = []
        rest.rowElementsDeferred = true
        rest.height = parts.rest.height
        rest.fragments = parts.rest
        rest.spaceBefore = 0
        rest.breakBefore = .allowed
        rest.opensRightHandPage = false
        if !notes.isEmpty {
            let cited = Set(
                head.elements.compactMap { element -> String? in
                    if case .link(_, .internal(let name)) = element, name.hasPrefix("fn-") { return name }
                    return nil
                })
            (head.notes, rest.notes) = Item.partition(notes, cited: cited)
        }
        return (head, rest)
    }

    /// The item with the elements of the rest of its row made (after ``split(within:widows:orphans:strict:)``),
    /// for it to be placed whole or measured; the item itself when they are made already.
    var withRowElements: Item {
        guard rowElementsDeferred, let fragments else { return self }
        var item = self
        item.elements = fragments.elements
        item.rowElementsDeferred = false
        return item
    }

    /// Footnote lines (`notes`, each note's first line holding its `fn-N` destination) split
    /// into the notes whose names are in `cited` and the others, each note's lines kept together.
    static func partition(_ notes: [Item], cited: Set<String>) -> (cited: [Item], others: [Item]) {
        var (inCited, others): ([Item], [Item]) = ([], [])
        var current = false
        for line in notes {
            for case .destination(let name, _) in line.elements where name.hasPrefix("fn-") {
                current = cited.contains(name)
            }
            if current { inCited.append(line) } else { others.append(line) }
        }
        return (inCited, others)
    }
}
