import DocumentModel
import Styling
import Typography

/// Page-level settings for layout.
public struct LayoutOptions {
    /// Paper, margins and block spacing (pt) the pages are laid out on.
    public var page: PageSetup
    /// Fewest lines of a split paragraph (or table cell) left at the top of the next page
    /// (CSS `widows`, 2).
    public var widows: Int
    /// Fewest lines of a split paragraph (or table cell) left at the bottom of a page (CSS
    /// `orphans`, 2).
    public var orphans: Int
    /// The running header of page `n` (1-based), or nil for none: one line, set in the middle
    /// of the top margin with the paragraph's own alignment (only its first line is used).
    public var header: ((Int) -> StyledParagraph?)?
    /// The running footer of page `n` (1-based), or nil for none; see ``header``.
    public var footer: ((Int) -> StyledParagraph?)?
    /// The document's language (BCP 47, the catalog's `/Lang`): each note's element names it,
    /// as a note is read in the document's language wherever it is cited, also inside an
    /// element of another (``StructureMarks``).
    public var language: String
    /// Raised when the render is cancelled: the paginator stops before its next item (a
    /// table's next row, a paragraph's next lines) and a table's measuring pass before its
    /// next row, so that one long block does not hold a cancelled render.
    public var cancellation: Cancellation? = nil
    /// Creates options; widows and orphans default to 2 (CSS), no header or footer, English.
    public init(
        page: PageSetup, widows: Int = 2, orphans: Int = 2,
        header: ((Int) -> StyledParagraph?)? = nil, footer: ((Int) -> StyledParagraph?)? = nil, language: String = "en"
    ) {
        self.page = page
        self.widows = widows
        self.orphans = orphans
        self.header = header
        self.footer = footer
        self.language = language
    }
}

/// Whether a page may end just before an item.
enum BreakRule { case allowed, avoid, forced }

/// One unbreakable slice of the vertical list: a line, a table row, an image, a rule (only a
/// table row taller than a page is split, by ``Paginator/split(_:gap:placedNotes:)``). Element
/// coordinates are absolute in x and relative to the item's top in y.
struct Item {
    var height: Double
    /// Space above, discarded at the top of a page.
    var spaceBefore: Double = 0
    var breakBefore: BreakRule = .allowed
    /// On a paragraph's line: how many of the paragraph's next lines must share its page,
    /// because a page may not end before them (widows and orphans); 0 when a page may end
    /// right after it. A line whose footnotes are split keeps room for them
    /// (``splitNotes(of:gap:placedNotes:)``).
    var linesKeptAfter = 0
    /// With a forced break: the item opens a right-hand (odd-numbered) page.
    var opensRightHandPage = false
    var elements: [PageElement] = []
    /// A background panel this item belongs to (code blocks): drawn behind consecutive items of
    /// one panel on a page as one rectangle.
    var panel: Panel?
    /// Block-quote bars (absolute x), drawn beside the item and across the gap above it when the
    /// previous item on the page has bars too.
    var bars: [Double] = []
    /// The colour of each of ``bars``.
    var barColors: [RGBAColor] = []
    /// The structure id of the quote or alert each of ``bars`` belongs to: a bar is drawn
    /// across the gap above the item only when the item before has the same bar, so two
    /// quotes in a row, or a quote's first block inside another, start bars of their own.
    var barOwners: [Int] = []
    /// Set at the top of a page that starts with this item: a table's header row, a code
    /// block's `(continued)` cue.
    var repeatedHeader: ItemBox?
    /// Lines of the footnotes referenced on this item, set at the foot of its page.
    var notes: [Item] = []
    /// Footnotes set after ``notes`` that are not laid out yet, in reverse number order (the
    /// next to lay out last): those cited only inside the block's other notes, which may run
    /// on for many pages (a chain of notes each citing the next). The paginator lays them out
    /// in number order only as far as a page decision needs them
    /// (``Paginator/layOutDeferredNotes(of:after:until:)``), so that no more than about a page
    /// of note lines is held at once.
    var deferredNotes: [DeferredNote] = []
    /// On a footnote's line: the note's number, by which a page's notes are ordered at its foot.
    var noteNumber = 0
    /// The structure path of the block the item belongs to (its notes are read after it).
    var structure: [StructureElement] = []
    /// Set on a table row taller than a page: its lines by cell, so the page it does not fit
    /// on ends where whole lines stop fitting (``split(within:widows:orphans:strict:)``).
    var fragments: RowFragments?
    /// Whether ``elements`` are yet to be made from ``fragments`` (the rest of a split row,
    /// ``withRowElements``): empty until the rest is placed whole or measured.
    var rowElementsDeferred = false
    /// Where the item's block starts in the source, for warnings.
    var source: SourceLocation?
    /// On a table's first item: how a table too wide for the measure was set (smaller, in
    /// parts), for the warning.
    var tableFit: TableLayout.TableFit.Notice?
    /// How far the item draws beyond its box, once the paginator has measured it.
    var ink: Overhang?
}

/// A footnote whose lines are not made yet: its number and its styled blocks
/// (``BlockLayout/noteItems(_:_:)`` makes them).
struct DeferredNote {
    var number: Int
    var blocks: [StyledBlock]
}

/// How far an item's drawing reaches beyond its box, pt: above its top and below its bottom
/// (0 when inside). A line whose step is smaller than its glyphs (`lineHeight=20` on 200 pt
/// type) draws past its box.
struct Overhang: Equatable {
    var above = 0.0, below = 0.0
}

/// A table too wide for the measure at its styled size, and how it was set instead: smaller,
/// and when still too wide, its columns split into parts that each repeat the first column.
public struct TableAdjustment: Sendable, Equatable {
    /// The table's position in the source, when it has one.
    public var location: SourceLocation?
    /// Columns in the table.
    public var columns: Int
    /// The size its text was styled at, pt (its header's).
    public var styledSize: Double
    /// The size it is set at, pt: `styledSize` unless it was set smaller.
    public var size: Double
    /// Parts its columns are split into, one after another; 1 when not split.
    public var parts: Int
    /// The width it had to fit, pt.
    public var measure: Double

    /// The warning's text: what was too wide and what was done.
    public var message: String {
        func points(_ value: Double) -> String {
            let tenths = (value * 10).rounded() / 10
            return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        }
        var what =
            "a table of \(columns) columns is too wide for the measure (\(points(measure)) pt) "
            + "at \(points(styledSize)) pt: "
        if size < styledSize - 0.05 { what += "its text is set at \(points(size)) pt" }
        if parts > 1 {
            if size < styledSize - 0.05 { what += " (the smallest size for a table) and " }
            what += "its columns are split into \(parts) parts, one after another, each repeating the first column"
        }
        return what
    }
}

/// Text whose drawing still crosses the text area: alone at the top of a page, its glyphs reach
/// further down than the text area's bottom.
public struct InkOverflow: Sendable {
    /// The block's position in the source, when it has one.
    public var location: SourceLocation?
    /// How far the glyphs reach below the text area, pt.
    public var excess: Double
    /// Whether they also reach past the page's bottom edge (and so are cut).
    public var crossesPageEdge: Bool
}

final class ItemBox {
    let item: Item
    init(_ item: Item) { self.item = item }
}

struct Panel: Equatable {
    var id: Int
    var color: RGBAColor
    var x: Double
    var width: Double
}

/// Lays styled blocks out into pages and hands each page to a ``PageRenderer`` as soon as it
/// is full: the current page is the only one held in memory.
///
/// Breaking is first-fit over a vertical list of items, with TeX-like constraints: a page may
/// not end where an item says `avoid` (inside a heading, after a heading or before the second
/// line that follows it, inside a table header,
/// where a split paragraph would leave fewer than ``LayoutOptions/orphans`` or
/// ``LayoutOptions/widows`` lines); when the next item does not fit, the page ends at the last
/// allowed break and the items after it move on. When no break is allowed (a constraint chain
/// taller than a page) the page ends before the item that does not fit.
///
/// No glyph crosses the text area where a line box is smaller than its glyphs (a line height
/// far below the face's natural height, `lineHeight=20` on 200 pt type). As TeX's `\topskip`
/// keeps a page's first baseline at least the first box's height (its glyphs' height) below
/// the top of the text area, a page whose ink (``TextShaper/extent(of:)``) would reach above
/// the text area is moved down until its highest ink starts at the text area's top; and an
/// item fits at the bottom of a page only when its ink, not just its box, ends above the text
/// area's bottom (and the footnotes). Text whose boxes hold their ink is placed exactly as
/// before. What cannot fit even alone on a page is listed in ``inkOverflows``; a running head
/// or foot is moved just enough to keep its ink on the page.
public final class Paginator {
    let shaper: TextShaper
    let options: LayoutOptions
    let renderer: PageRenderer
    /// The items on the current page, each with its top (pt below the text area's top, before
    /// ``lead``) and how far it draws beyond its box.
    var placed: [(item: Item, y: Double, ink: Overhang)] = []
    var cursor = 0.0
    /// How far the current page's items are moved down so that no glyph reaches above the text
    /// area, pt.
    var lead = 0.0
    /// The lowest point the current page's glyphs reach, pt below the text area's top (before
    /// ``lead``): at least ``cursor``.
    var inkBottom = 0.0
    /// Text that reached beyond the text area even alone on a page, in the order placed.
    public private(set) var inkOverflows: [InkOverflow] = []
    /// Tables set smaller or split into parts of columns to fit the measure, in order.
    public private(set) var tableAdjustments: [TableAdjustment] = []
    /// Pages rendered so far; after ``finish()``, the document's page count.
    public private(set) var pageCount = 0
    /// The page each named destination landed on (for a table of contents).
    public private(set) var destinations: [String: Int] = [:]
    var previous: StyledBlock?
    var nextPanelID = 0
    /// The space above the block being placed, and whether an item of it has been placed.
    var blockSpaceAbove = 0.0
    var blockHasItems = false
    /// Empty paragraphs already shaped (empty list items), for every block that follows.
    let emptyParagraphs = CellMemory()
    var pendingForcedBreak = false
    /// The forced break to come opens a right-hand page (``StyledBlock/opensRightHandPage``).
    var pendingRightHandPage = false
    /// How many items at the top of the current page are a repeated table header (0 or 1).
    var repeatedOnPage = 0
    /// The lines of a footnote too long for the page its marker is on that continue at the top
    /// of this page's footnotes, each with the structure its note is read under
    /// (``splitNotes(of:gap:placedNotes:)``).
    var carriedNotes: [(line: Item, parent: [StructureElement])] = []
    /// The rest of a note split below a line that the next lines of its paragraph must follow
    /// on the same page: the top of the next page's notes (``carriedNotes``) once this page ends,
    /// or back with the line (the placed item at `lineIndex`) when the page ends above it.
    var notesForNextPage:
        (
            lineIndex: Int, notes: [(line: Item, parent: [StructureElement])],
            deferred: [(note: DeferredNote, parent: [StructureElement])]
        )?
    /// Notes that continue after ``carriedNotes``, not laid out yet, in reverse number order
    /// (``Item/deferredNotes``), each with the structure its note is read under.
    var carriedDeferredNotes: [(note: DeferredNote, parent: [StructureElement])] = []
    /// Lines of what follows a heading that must still share the heading's page: a heading
    /// keeps with the first ``keptLines`` lines after it, across the blocks they belong to (a
    /// list of one-line items, a `<details>` summary and its body, a quote or div opening
    /// with a list), not only with the first block's first line.
    var keptLinesToCome = 0

    /// How many lines that follow a heading stay on its page (docs/markdown.md: "headings keep
    /// with the first two lines that follow"; CSS Fragmentation 3's `break-after: avoid` over
    /// as many lines as the default `orphans`).
    static let keptLines = 2

    /// Creates a paginator that shapes with `shaper`, lays out per `options` and hands each full page to `renderer`.
    public init(shaper: TextShaper, options: LayoutOptions, renderer: PageRenderer) {
        self.shaper = shaper
        self.options = options
        self.renderer = renderer
    }

    var left: Double { options.page.margins.left }
    var measure: Double { options.page.measure }
    var textHeight: Double { options.page.textHeight }

    /// Lays out `block` after the previous ones; full pages are rendered immediately.
    /// - Throws: what the renderer throws.
    public func add(_ block: StyledBlock) throws {
        guard begin(block) else { return }
        // Items are placed as the block's layout makes them (a table row by row), so a page's
        // items are the only ones held.
        let layout = BlockLayout(
            shaper: shaper, options: options, panelID: nextPanelID, emptyParagraphs: emptyParagraphs)
        try layout.layOut(block) { item in try place(item, of: block) }
        end(block)
    }

    /// Places `batch`, items of a block laid out ahead on another thread (``LayoutAhead``),
    /// as ``add(_:)`` places the items it lays out: the same pages.
    /// - Throws: what the renderer throws.
    public func add(_ batch: LaidOutBatch) throws {
        if batch.inPlace { return try add(batch.block) }
        if batch.isFirst, !begin(batch.block) { return }
        for item in batch.items { try place(item, of: batch.block) }
        if batch.isLast { end(batch.block) }
    }

    /// Starts `block`: false for a page break, which only marks the next item.
    func begin(_ block: StyledBlock) -> Bool {
        if case .pageBreak = block.content {
            pendingForcedBreak = true
            pendingRightHandPage = pendingRightHandPage || block.opensRightHandPage
            return false
        }
        nextPanelID += 1
        blockSpaceAbove = max(previous?.spaceAfter ?? 0, block.spaceBefore)
        // A heading ends the keep of the section before it (that section was shorter than the
        // lines kept): only a heading right after a heading stays with it.
        if block.keepWithNext, previous?.keepWithNext != true { keptLinesToCome = 0 }
        blockHasItems = false
        return true
    }

    /// Places the next item of `block`, which ``begin(_:)`` started.
    /// - Throws: `CancellationError` once ``LayoutOptions/cancellation`` is raised; what the
    ///   renderer throws.
    func place(_ item: Item, of block: StyledBlock) throws {
        try options.cancellation?.check()
        var item = item
        item.source = block.location
        if let fit = item.tableFit {
            tableAdjustments.append(
                TableAdjustment(
                    location: block.location, columns: fit.columns,
                    styledSize: fit.naturalSize, size: fit.size, parts: fit.parts,
                    measure: fit.measure))
        }
        if !blockHasItems {
            blockHasItems = true
            item.spaceBefore = blockSpaceAbove
            if block.keepWithPrevious, previous != nil, item.breakBefore == .allowed { item.breakBefore = .avoid }
            if pendingForcedBreak {
                item.breakBefore = .forced
                item.opensRightHandPage = pendingRightHandPage
                pendingForcedBreak = false
                pendingRightHandPage = false
            }
            previous = block
        }
        if keptLinesToCome > 0 {
            if item.breakBefore == .allowed { item.breakBefore = .avoid }
            keptLinesToCome -= Paginator.linesKept(by: block)
        }
        try place(item)
    }

    /// Ends `block`: a heading keeps the lines that follow it.
    func end(_ block: StyledBlock) {
        if block.keepWithNext { keptLinesToCome = Paginator.keptLines }
    }

    /// The vertical geometry of `blocks` laid out one after another (with this paginator's
    /// shaper and options, from a fresh start, nothing placed): for each item its height, the
    /// space above it, its break rule, the lines kept after it, how far its ink reaches beyond
    /// its box, and the heights of its notes, pt. Blocks whose geometries are equal are
    /// paginated alike wherever they stand: they differ only in what their lines show (a table
    /// of contents' page numbers), not in the room they take or where a page may end.
    public func geometry(of blocks: [StyledBlock]) -> [Double] {
        var figures: [Double] = []
        var previous: StyledBlock?
        var panelID = 0
        for block in blocks {
            if case .pageBreak = block.content {
                figures.append(-1)
                continue
            }
            panelID += 1
            figures.append(max(previous?.spaceAfter ?? 0, block.spaceBefore))
            previous = block
            let layout = BlockLayout(shaper: shaper, options: options, panelID: panelID, emptyParagraphs: CellMemory())
            layout.layOut(block) { item in
                var item = item
                measureInk(of: &item)
                let rule: Double =
                    switch item.breakBefore {
                    case .allowed: 0
                    case .avoid: 1
                    case .forced: 2
                    }
                layOutAllDeferredNotes(of: &item)
                let ink = item.ink ?? Overhang()
                figures += [item.height, item.spaceBefore, rule, Double(item.linesKeptAfter), ink.above, ink.below]
                for note in item.notes { figures += [note.height, note.ink?.above ?? 0, note.ink?.below ?? 0] }
                figures.append(Double(item.notes.count))
            }
        }
        return figures
    }

    /// How much of a heading's keep one item of `block` fulfils: a line of text is one line; a
    /// table row or a figure fulfils it whole (a table keeps its header with its first row, a
    /// figure with its caption); a rule is no text and fulfils none of it.
    static func linesKept(by block: StyledBlock) -> Int {
        switch block.content {
        case .paragraph, .entry: 1
        case .table, .image: keptLines
        case .rule, .pageBreak: 0
        }
    }

    /// Renders the last page. Returns the number of pages.
    @discardableResult
    public func finish() throws -> Int {
        while !placed.isEmpty || !carriedNotes.isEmpty || pageCount == 0 { try flush() }
        return pageCount
    }

    /// Places `item` on the page being filled, ending pages as it must. A row taller than a page
    /// is placed a fragment at a time, each fragment's rest in turn, not by recursion: each
    /// level would hold the rest of the row it split, the row's lines once a page.
    func place(_ item: Item) throws {
        var next: Item? = item
        while let item = next { next = try placeOrSplit(item) }
    }

    /// Places `item` as ``place(_:)`` does, but for a row split where the page ends: that
    /// row's rest is returned, still to be placed.
    private func placeOrSplit(_ item: Item) throws -> Item? {
        var item = item
        // The rest of a split row is made elements of only when it may fit (no taller than the
        // text area) or is placed whole below; one taller is split again at once.
        if item.rowElementsDeferred, item.height <= textHeight + 0.01 { item = item.withRowElements }
        if !item.rowElementsDeferred { measureInk(of: &item) }
        // A row split by its cited notes needs them all.
        if item.fragments != nil { layOutAllDeferredNotes(of: &item) }
        if item.breakBefore == .forced && !placed.isEmpty { try flush() }
        // A right-hand page has an odd number: after an odd count of pages, one left blank.
        if item.opensRightHandPage, placed.isEmpty, pageCount % 2 == 1 { try flush(blank: true) }
        if placed.isEmpty, let header = item.repeatedHeader {
            var furniture = Paginator.furniture(header.item, above: item)
            measureInk(of: &furniture)
            append(furniture, ink: furniture.ink ?? Overhang())
            repeatedOnPage = 1
        }
        let gap = placed.isEmpty ? 0 : item.spaceBefore
        let placedNotes = carriedNotes.map(\.line) + placed.flatMap(\.item.notes)
        let ink = item.ink ?? Overhang()
        // With the item, the page's glyphs reach from −lead to bottom (pt below the text area's
        // top): both must stay inside it, above the footnotes.
        let itemTop = cursor + gap
        let lead = max(self.lead, ink.above - itemTop)
        let bottom = max(inkBottom, itemTop + item.height + ink.below)
        let textHeight = textHeight
        // Deferred notes are laid out until they no longer fit: the item does not fit either.
        var notes = layOutDeferredNotes(of: &item, after: placedNotes) { lead + bottom + $0 > textHeight + 0.01 }
        let fits = lead + bottom + notes <= textHeight + 0.01
        // A line whose notes do not all fit below it keeps the lines of them that do; the rest
        // continue at the top of the next page's footnotes (the marker's page stays full).
        if !fits, item.fragments == nil, notesForNextPage == nil,
            let parts = splitNotes(of: &item, gap: gap, placedNotes: placedNotes)
        {
            try place(parts, of: item, ink: ink)
            return nil
        }
        // A row taller than a page fills this one as far as whole lines of its cells fit.
        if !fits, item.fragments != nil, let parts = split(item, gap: gap, placedNotes: placedNotes) {
            // (Each part's ink is its own, not the whole row's measured above.)
            var head = parts.head
            var rest = parts.rest
            head.ink = nil
            rest.ink = nil
            measureInk(of: &head)
            append(head, ink: head.ink ?? Overhang())
            try flush()
            return rest
        }
        // A page holding nothing but a repeated table header takes the item whatever its height:
        // moving it on would only repeat the header forever.
        if placed.count == repeatedOnPage || fits {
            // The rest of a split row placed whole (alone on a page after its header) needs its
            // elements and their ink.
            var ink = ink
            if item.rowElementsDeferred {
                item = item.withRowElements
                measureInk(of: &item)
                ink = item.ink ?? Overhang()
            }
            // (Measured again: the notes split above may have laid more of them out.)
            if placed.count == repeatedOnPage {
                let height = cursor + item.height
                notes = layOutDeferredNotes(of: &item, after: placedNotes) { height + $0 > textHeight }
            }
            if placed.count == repeatedOnPage, cursor + item.height + notes > textHeight,
                !item.notes.isEmpty || !item.deferredNotes.isEmpty
            {
                try placeWithNotesInTheText(item, ink: ink)
                return nil
            }
            // Alone on a page and still taller than its text area — glyphs reaching past the
            // line's box, or a box taller than the page (a displayed formula of many rows) —
            // it runs past the area's foot: said, never silently.
            if placed.count == repeatedOnPage, lead + bottom > textHeight + 0.01 {
                let excess = lead + bottom - textHeight
                inkOverflows.append(
                    InkOverflow(
                        location: item.source, excess: excess,
                        crossesPageEdge: excess > options.page.margins.bottom + 0.01))
            }
            append(item, ink: ink)
            return nil
        }
        // The item does not fit: end the page at the last break allowed.
        var breakIndex = placed.count
        if item.breakBefore == .avoid {
            if let allowedIndex = placed.indices.dropFirst(repeatedOnPage + 1).last(where: {
                placed[$0].item.breakBefore != .avoid
            }) {
                breakIndex = allowedIndex
            }
        }
        var carried = placed[breakIndex...].map(\.item)
        // A line whose note was split moves on whole: its note goes with it.
        if let split = notesForNextPage, split.lineIndex >= breakIndex {
            carried[split.lineIndex - breakIndex].notes += split.notes.map(\.line)
            carried[split.lineIndex - breakIndex].deferredNotes = split.deferred.map(\.note)
            notesForNextPage = nil
        }
        placed.removeLast(placed.count - breakIndex)
        self.lead = placed.map { $0.ink.above - $0.y }.max().map { max(0, $0) } ?? 0
        self.inkBottom = placed.map { $0.y + $0.item.height + $0.ink.below }.max() ?? 0
        try flush()
        for carriedItem in carried { try place(carriedItem) }
        try place(item)
        return nil
    }

    /// Places a line whose notes were split where its page ends (``splitNotes(of:gap:placedNotes:)``):
    /// the line with the note lines that fit, then the rest of its notes at the top of the next
    /// page's footnotes, after the lines of its paragraph that must share its page.
    private func place(
        _ parts: (head: Item, rest: [Item], deferred: [DeferredNote]), of item: Item, ink: Overhang
    ) throws {
        append(parts.head, ink: ink)
        let parent = Array(item.structure.dropLast())
        let rest = parts.rest.map { ($0, parent) }
        let deferred = parts.deferred.map { ($0, parent) }
        // The lines that must follow the marker's line take the room kept for them; the page
        // ends after them, when the next line no longer fits.
        guard item.linesKeptAfter == 0 else {
            notesForNextPage = (placed.count - 1, rest, deferred)
            return
        }
        try flush()
        carriedNotes = rest
        carriedDeferredNotes = deferred
        try flushOverlongCarriedNotes()
    }

    /// Places `item`, alone on its page, whose notes do not fit below it even there: the notes
    /// follow it in the text rather than overprint it.
    private func placeWithNotesInTheText(_ item: Item, ink: Overhang) throws {
        var bare = item
        bare.notes = []
        bare.deferredNotes = []
        append(bare, ink: ink)
        for note in item.notes { try place(note) }
        for note in item.deferredNotes.reversed() {
            for line in noteLines(note) { try place(line) }
        }
    }

    /// `item` (a row taller than a page) split where this page ends: its first part fits in
    /// what is left of the text area, with the footnotes it cites. Widows and orphans are kept
    /// in each cell; at the top of a page, where moving the row on would gain nothing, any
    /// line boundary that fits will do. Nil when no line fits.
    func split(_ item: Item, gap: Double, placedNotes: [Item]) -> (head: Item, rest: Item)? {
        let room = textHeight + 0.01 - cursor - gap
        for strict in placed.count == repeatedOnPage ? [true, false] : [true] {
            func attempt(_ room: Double) -> (head: Item, rest: Item)? {
                item.split(within: room, widows: options.widows, orphans: options.orphans, strict: strict)
            }
            guard let first = attempt(room - Paginator.notesHeight(placedNotes)) else { continue }
            if first.head.notes.isEmpty { return first }
            // The notes the first part cites take room at the page's foot: split again above
            // them (citing no more notes than before, so they still fit).
            if let parts = attempt(room - Paginator.notesHeight(placedNotes + first.head.notes)) { return parts }
        }
        return nil
    }

    /// A repeated table header or code cue (`header`) as drawn at the top of a page above
    /// `item`: furniture (an artifact), with `item`'s quote bars, so that a quote's bar runs
    /// beside the whole of its content on the page, as it does where the block begins.
    static func furniture(_ header: Item, above item: Item) -> Item {
        var furniture = header.asArtifact
        furniture.bars = item.bars
        furniture.barColors = item.barColors
        furniture.barOwners = item.barOwners
        return furniture
    }

    func append(_ item: Item, ink: Overhang) {
        let gap = placed.isEmpty ? 0 : item.spaceBefore
        let itemTop = cursor + gap
        placed.append((item, itemTop, ink))
        cursor += gap + item.height
        lead = max(lead, ink.above - itemTop)
        inkBottom = max(inkBottom, cursor + ink.below)
    }

    /// The lines of `note` (``BlockLayout/noteItems(_:_:)``), their ink measured and glyphs
    /// read out (``measureInk(of:)``).
    func noteLines(_ note: DeferredNote) -> [Item] {
        let layout = BlockLayout(shaper: shaper, options: options, panelID: 0, emptyParagraphs: emptyParagraphs)
        var holder = Item(height: 0)
        holder.ink = Overhang()
        holder.notes = layout.noteItems(note.number, note.blocks)
        measureInk(of: &holder)
        return holder.notes
    }

    /// Lays `item`'s deferred notes out (``Item/deferredNotes``), in number order, each after
    /// its ``Item/notes``, until `enough` holds for the height that `placedNotes` and the
    /// item's notes take at the page's foot (``notesHeight(_:)``) or none is left; returns
    /// that height, pt. The height only grows as notes are added, so a bound that fails once
    /// fails for all the notes.
    @discardableResult
    func layOutDeferredNotes(of item: inout Item, after placedNotes: [Item], until enough: (Double) -> Bool) -> Double {
        var height = Paginator.notesHeight(placedNotes + item.notes)
        while !enough(height), let next = item.deferredNotes.popLast() {
            item.notes += noteLines(next)
            height = Paginator.notesHeight(placedNotes + item.notes)
        }
        return height
    }

    /// Lays all of `item`'s deferred notes out (``Item/deferredNotes``), in number order.
    func layOutAllDeferredNotes(of item: inout Item) {
        while let next = item.deferredNotes.popLast() { item.notes += noteLines(next) }
    }

    /// Measures how far `item` and its footnotes draw beyond their boxes, once.
    func measureInk(of item: inout Item) {
        Self.measureInk(of: &item, shaper: shaper)
    }

    /// Measures how far `item` and its notes draw beyond their boxes, where not yet measured
    /// (``overhang(of:shaper:)``).
    /// Reads each line's glyphs out at the same time (``readOutGlyphs(of:shaper:)``), so that
    /// a thread drawing beside one that shapes draws them without the shaper's fonts; all in one
    /// turn with those fonts.
    static func measureInk(of item: inout Item, shaper: TextShaper) {
        guard item.ink == nil || item.notes.contains(where: { $0.ink == nil }) else { return }
        shaper.inOneTurn {
            if item.ink == nil {
                item.ink = overhang(of: item, shaper: shaper)
                readOutGlyphs(of: &item.elements, shaper: shaper)
            }
            for k in item.notes.indices where item.notes[k].ink == nil {
                item.notes[k].ink = overhang(of: item.notes[k], shaper: shaper)
                readOutGlyphs(of: &item.notes[k].elements, shaper: shaper)
            }
        }
    }

    /// Gives each line of `elements` its glyphs as `shaper` reads them out
    /// (``TextShaper/readOutGlyphs(of:)``; a word space's line those of the line it follows).
    static func readOutGlyphs(of elements: inout [PageElement], shaper: TextShaper) {
        var last: (handle: ObjectIdentifier, glyphs: AnyObject?)?
        for k in elements.indices {
            switch elements[k] {
            case .text(var line, let x, let baseline):
                guard let handle = line.handle, line.glyphs == nil else { continue }
                line.glyphs = shaper.readOutGlyphs(of: line)
                guard line.glyphs != nil else { continue }
                last = (ObjectIdentifier(handle), line.glyphs)
                elements[k] = .text(line, x: x, baseline: baseline)
            case .wordSpace(var line, let x, let baseline):
                guard let handle = line.handle, line.glyphs == nil else { continue }
                line.glyphs =
                    last?.handle == ObjectIdentifier(handle) ? last?.glyphs : shaper.readOutGlyphs(of: line)
                guard line.glyphs != nil else { continue }
                elements[k] = .wordSpace(after: line, x: x, baseline: baseline)
            default:
                continue
            }
        }
    }

    /// How far `item`'s lines draw beyond its box (``TextShaper/extent(of:)``), pt.
    static func overhang(of item: Item, shaper: TextShaper) -> Overhang {
        var top = 0.0
        var bottom = item.height
        for element in item.elements {
            let line: ShapedLine
            let baseline: Double
            switch element {
            case .text(let textLine, _, let textBaseline), .ornament(let textLine, _, let textBaseline, _):
                line = textLine
                baseline = textBaseline
            default: continue
            }
            let extent = shaper.extent(of: line)
            top = min(top, baseline - extent.above)
            bottom = max(bottom, baseline + extent.below)
        }
        return Overhang(above: -top, below: bottom - item.height)
    }

    /// Renders the current page. A `blank` page (the left-hand page before a chapter that opens
    /// on the right) has no running head or foot either, as a blank page carries no folio.
    func flush(blank: Bool = false) throws {
        pageCount += 1
        var page = Page(number: pageCount, size: options.page.paper)
        let top = options.page.margins.top + lead
        // Panels first (behind text), then bars, then content: all but the content are artifacts.
        page.elements.append(.structure([.artifact]))
        page.elements += Paginator.panels(placed.map { ($0.item, top + $0.y) })
        for (entryIndex, entry) in placed.enumerated() where !entry.item.bars.isEmpty {
            let previous = entryIndex > 0 ? placed[entryIndex - 1] : nil
            let y1 = top + entry.y + entry.item.height
            for (index, barX) in entry.item.bars.enumerated() {
                var y0 = top + entry.y
                if let previous, previous.item.hasBar(at: index, x: barX, owner: entry.item.barOwner(index)) {
                    y0 = top + previous.y + previous.item.height
                }
                let color = index < entry.item.barColors.count ? entry.item.barColors[index] : .black
                page.elements.append(
                    .line(from: Point(x: barX, y: y0), to: Point(x: barX, y: y1), width: 2, color: color))
            }
        }
        // Footnotes at the foot of the text area, under a short rule; drawn (and so read) after
        // the last line on the page of the block that cites them.
        let carried = carriedNotes
        carriedNotes = []
        let notes = carried.map(\.line) + placed.flatMap(\.item.notes)
        var notesAfter: [Int: [PageElement]] = [:]
        var carriedElements: [PageElement] = []
        if !notes.isEmpty {
            var noteCursor = options.page.margins.top + textHeight - Paginator.notesHeight(notes)
            page.elements.append(
                .line(
                    from: Point(x: left, y: noteCursor + Paginator.noteRuleGap / 2),
                    to: Point(x: left + min(144, measure / 3), y: noteCursor + Paginator.noteRuleGap / 2),
                    width: 0.5, color: RGBAColor(red: 0.6, green: 0.6, blue: 0.62)))
            // Set in the order of their numbers (a note cited inside another one is attached
            // with it, and may come before a lower number cited later on the page), read after
            // the block that cites them.
            // A note continued from the page before comes first.
            let order =
                Array(carried.indices)
                + notes.indices.dropFirst(carried.count).sorted {
                    (notes[$0].noteNumber, $0) < (notes[$1].noteNumber, $1)
                }
            noteCursor += Paginator.noteRuleGap + Paginator.notesInk(order.map { notes[$0] }).above
            var noteTop = [Double](repeating: 0, count: notes.count)
            for noteIndex in order {
                noteTop[noteIndex] = noteCursor
                noteCursor += notes[noteIndex].height
            }
            page.elements += Paginator.noteFurniture(order.map { (notes[$0], noteTop[$0]) })
            for (noteIndex, note) in carried.enumerated() {
                carriedElements += note.line.elements.map {
                    $0.offset(by: noteTop[noteIndex]).underStructure(note.parent)
                }
            }
            var noteIndex = carried.count
            for (entryIndex, entry) in placed.enumerated() where !entry.item.notes.isEmpty {
                let block = entry.item.structure
                let last =
                    placed.indices.last { $0 >= entryIndex && Paginator.sameBlock(placed[$0].item.structure, block) }
                    ?? entryIndex
                let parent = Array(block.dropLast())
                for note in entry.item.notes {
                    notesAfter[last, default: []] += note.elements.map {
                        $0.offset(by: noteTop[noteIndex]).underStructure(parent)
                    }
                    noteIndex += 1
                }
            }
        }
        // A continued note is read first on its page, where it goes on from the page before.
        page.elements += carriedElements
        for (entryIndex, entry) in placed.enumerated() {
            for element in entry.item.elements {
                let moved = element.offset(by: top + entry.y)
                if case .destination(let name, _) = moved { destinations[name] = pageCount }
                page.elements.append(moved)
            }
            if let notes = notesAfter[entryIndex] { page.elements += notes }
        }
        if !blank {
            appendRunningText(options.header?(pageCount), baselineFromTop: options.page.margins.top * 0.5, to: &page)
            appendRunningText(
                options.footer?(pageCount),
                baselineFromTop: options.page.paper.height - options.page.margins.bottom * 0.45, to: &page)
        }
        placed.removeAll(keepingCapacity: true)
        repeatedOnPage = 0
        cursor = 0
        lead = 0
        inkBottom = 0
        try renderer.render(page)
        if let split = notesForNextPage {
            notesForNextPage = nil
            carriedNotes = split.notes
            carriedDeferredNotes = split.deferred
            try flushOverlongCarriedNotes()
        }
    }

    /// The code panels behind `lines`, given each with its top (pt from the page's top) in the
    /// order they stack: a panel runs on through the lines under it with the same panel, and is
    /// drawn once, as one rectangle.
    static func panels(_ lines: [(line: Item, top: Double)]) -> [PageElement] {
        var elements: [PageElement] = []
        var index = 0
        while index < lines.count {
            guard let panel = lines[index].line.panel else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < lines.count, lines[end + 1].line.panel?.id == panel.id { end += 1 }
            let top = lines[index].top
            let bottom = lines[end].top + lines[end].line.height
            elements.append(.fill(Rect(x: panel.x, y: top, width: panel.width, height: bottom - top), panel.color))
            index = end + 1
        }
        return elements
    }

    /// The code panels and quote bars of a page's footnote lines, given each line with its top
    /// (pt from the page's top) in the order they stack: a panel or bar runs on through the
    /// lines that stack under it with the same one, and is drawn once, behind them.
    static func noteFurniture(_ lines: [(line: Item, top: Double)]) -> [PageElement] {
        var elements = panels(lines)
        for (index, entry) in lines.enumerated() {
            for (bar, x) in entry.line.bars.enumerated() {
                // Drawn from the first line of a run of lines with this bar, to the run's end.
                if index > 0, lines[index - 1].line.bars.count > bar, lines[index - 1].line.bars[bar] == x { continue }
                var end = index
                while end + 1 < lines.count, lines[end + 1].line.bars.count > bar, lines[end + 1].line.bars[bar] == x {
                    end += 1
                }
                let color = bar < entry.line.barColors.count ? entry.line.barColors[bar] : .black
                elements.append(
                    .line(
                        from: Point(x: x, y: entry.top), to: Point(x: x, y: lines[end].top + lines[end].line.height),
                        width: 2, color: color))
            }
        }
        return elements
    }

    /// Space between the text and the first footnote, holding the footnote rule, pt.
    static let noteRuleGap = 12.0

    /// Height the footnote lines take at the foot of a page (0 without notes): the rule's gap,
    /// then the lines' boxes and whatever ink reaches beyond them (measured notes only).
    static func notesHeight(_ notes: [Item]) -> Double {
        guard !notes.isEmpty else { return 0 }
        let ink = notesInk(notes)
        return noteRuleGap + ink.above + notes.reduce(0) { $0 + $1.height } + ink.below
    }

    /// How many of `notes`, from the first, stack within `height` pt as ``notesHeight(_:)``
    /// measures them (the same sums in the same order), read only as far as they fit.
    static func fittingNotes(_ notes: some Sequence<Item>, within height: Double) -> Int {
        var stackTop = 0.0
        var top = 0.0
        var bottom = 0.0
        var count = 0
        for note in notes {
            let ink = note.ink ?? Overhang()
            let nextTop = min(top, stackTop - ink.above)
            let nextStackTop = stackTop + note.height
            let nextBottom = max(bottom, nextStackTop + ink.below)
            guard noteRuleGap + -nextTop + nextStackTop + (nextBottom - nextStackTop) <= height else { break }
            (top, stackTop, bottom) = (nextTop, nextStackTop, nextBottom)
            count += 1
        }
        return count
    }

    /// How far the ink of footnote lines stacked one under the other reaches above the first
    /// box's top and below the last box's bottom, pt (0 when inside).
    static func notesInk(_ notes: [Item]) -> Overhang {
        var stackTop = 0.0
        var top = 0.0
        var bottom = 0.0
        for note in notes {
            let ink = note.ink ?? Overhang()
            top = min(top, stackTop - ink.above)
            stackTop += note.height
            bottom = max(bottom, stackTop + ink.below)
        }
        return Overhang(above: -top, below: bottom - stackTop)
    }

    /// The first line of `paragraph` set at `measure` pt: when it takes more lines, its words
    /// that fit one line followed by an ellipsis (…), as a running head is cut in print (CSS
    /// `text-overflow: ellipsis`); a first word wider than the measure alone is its first line.
    static func oneLine(_ paragraph: StyledParagraph, measure: Double, shaper: TextShaper) -> [ShapedLine] {
        let lines = shaper.shape(paragraph, width: measure).lines
        guard lines.count > 1, let run = paragraph.runs.last else { return Array(lines.prefix(1)) }
        let before = paragraph.runs.dropLast()
        let words = run.text.split(separator: " ", omittingEmptySubsequences: false)
        func cut(_ count: Int) -> StyledParagraph {
            var cut = paragraph
            cut.runs = before + [StyledRun(words[..<count].joined(separator: " ") + "…", style: run.style)]
            return cut
        }
        // The most words that fit (binary search: fewer words never take more lines).
        var low = 0
        var high = words.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if shaper.shape(cut(mid), width: measure).lines.count <= 1 { low = mid } else { high = mid - 1 }
        }
        guard low > 0 else { return Array(lines.prefix(1)) }
        return Array(shaper.shape(cut(low), width: measure).lines.prefix(1))
    }

    /// Whether two structure paths end in the same element (items of one block).
    static func sameBlock(_ first: [StructureElement], _ second: [StructureElement]) -> Bool {
        guard let firstEnd = first.last, let secondEnd = second.last else { return first.isEmpty && second.isEmpty }
        return firstEnd.isSame(as: secondEnd)
    }

    /// Draws the first line of a running head or foot on `baselineFromTop`, moved just enough
    /// to keep its glyphs on the page (``TextShaper/extent(of:)``) when the margin is too small
    /// for them.
    func appendRunningText(_ paragraph: StyledParagraph?, baselineFromTop: Double, to page: inout Page) {
        guard let paragraph else { return }
        page.elements.append(.structure([.artifact]))
        // In one turn with the shaper's fonts: shaped, measured and its glyphs read out.
        shaper.inOneTurn {
            for var line in Self.oneLine(paragraph, measure: measure, shaper: shaper) {
                let extent = shaper.extent(of: line)
                let baseline = max(extent.above, min(baselineFromTop, options.page.paper.height - extent.below))
                line.glyphs = shaper.readOutGlyphs(of: line)
                page.elements.append(.text(line, x: left + line.x, baseline: baseline))
            }
        }
    }
}

extension PageElement {
    /// The element moved down by `dy` pt.
    func offset(by dy: Double) -> PageElement {
        switch self {
        case .text(let line, let left, let baseline): .text(line, x: left, baseline: baseline + dy)
        case .wordSpace(let line, let x, let baseline): .wordSpace(after: line, x: x, baseline: baseline + dy)
        case .addedHyphen: self
        case .ornament(let line, let left, let baseline, let color):
            .ornament(line, x: left, baseline: baseline + dy, color: color)
        case .fill(let rect, let color):
            .fill(Rect(x: rect.x, y: rect.y + dy, width: rect.width, height: rect.height), color)
        case .line(let start, let end, let width, let color):
            .line(
                from: Point(x: start.x, y: start.y + dy), to: Point(x: end.x, y: end.y + dy), width: width, color: color
            )
        case .leader(let x, let baseline, let count, let dot, let pitch, let color):
            .leader(x: x, baseline: baseline + dy, count: count, dot: dot, pitch: pitch, color: color)
        case .link(let rect, let target):
            .link(Rect(x: rect.x, y: rect.y + dy, width: rect.width, height: rect.height), target)
        case .destination(let name, let point): .destination(name: name, at: Point(x: point.x, y: point.y + dy))
        case .outline(let entry, let point): .outline(entry, at: Point(x: point.x, y: point.y + dy))
        case .image(let path, let rect):
            .image(path: path, rect: Rect(x: rect.x, y: rect.y + dy, width: rect.width, height: rect.height))
        case .structure: self
        }
    }
}

extension Item {
    /// The structure id of the quote or alert bar `index` belongs to; nil when not known.
    func barOwner(_ index: Int) -> Int? { index < barOwners.count ? barOwners[index] : nil }

    /// Whether the item has bar `index` at `x`, belonging to `owner`: the same bar as another
    /// item's, which runs on across the gap between them.
    func hasBar(at index: Int, x: Double, owner: Int?) -> Bool {
        index < bars.count && bars[index] == x && barOwner(index) == owner
    }
}
