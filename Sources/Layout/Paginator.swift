import Styling
import Typography

/// Page-level settings for layout.
public struct LayoutOptions {
    /// Paper, margins and block spacing (pt) the pages are laid out on.
    public var page: PageSetup
    /// Fewest lines of a split paragraph left at the top of the next page (CSS `widows`, 2).
    public var widows: Int
    /// Fewest lines of a split paragraph left at the bottom of a page (CSS `orphans`, 2).
    public var orphans: Int
    /// The running header of page `n` (1-based), or nil for none: one line, set in the middle
    /// of the top margin with the paragraph's own alignment (only its first line is used).
    public var header: ((Int) -> StyledParagraph?)?
    /// The running footer of page `n` (1-based), or nil for none; see ``header``.
    public var footer: ((Int) -> StyledParagraph?)?
    /// Creates options; widows and orphans default to 2 (CSS), no header or footer.
    public init(page: PageSetup, widows: Int = 2, orphans: Int = 2,
                header: ((Int) -> StyledParagraph?)? = nil, footer: ((Int) -> StyledParagraph?)? = nil) {
        self.page = page; self.widows = widows; self.orphans = orphans; self.header = header; self.footer = footer
    }
}

/// Whether a page may end just before an item.
enum BreakRule { case allowed, avoid, forced }

/// One unbreakable slice of the vertical list: a line, a table row, an image, a rule. Element
/// coordinates are absolute in x and relative to the item's top in y.
struct Item {
    var height: Double
    /// Space above, discarded at the top of a page.
    var spaceBefore: Double = 0
    var breakBefore: BreakRule = .allowed
    var elements: [PageElement] = []
    /// A background panel this item belongs to (code blocks): drawn behind consecutive items of
    /// one panel on a page as one rectangle.
    var panel: Panel?
    /// Block-quote bars (absolute x), drawn beside the item and across the gap above it when the
    /// previous item on the page has bars too.
    var bars: [Double] = []
    var barColor: RGBAColor = .black
    /// Set at the top of a page that starts with this item: a table's header row, a code
    /// block's `(continued)` cue.
    var repeatedHeader: ItemBox?
    /// Lines of the footnotes referenced on this item, set at the foot of its page.
    var notes: [Item] = []
    /// The structure path of the block the item belongs to (its notes are read after it).
    var structure: [StructureElement] = []
}

final class ItemBox { let item: Item; init(_ item: Item) { self.item = item } }

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
public final class Paginator {
    let shaper: TextShaper
    let options: LayoutOptions
    let renderer: PageRenderer
    var placed: [(item: Item, y: Double)] = []
    var cursor = 0.0
    /// Pages rendered so far; after ``finish()``, the document's page count.
    public private(set) var pageCount = 0
    /// The page each named destination landed on (for a table of contents).
    public private(set) var destinations: [String: Int] = [:]
    var previous: StyledBlock?
    var nextPanelID = 0
    var pendingForcedBreak = false
    /// How many items at the top of the current page are a repeated table header (0 or 1).
    var repeatedOnPage = 0
    /// Lines of what follows a heading that must still share the heading's page: a heading
    /// keeps with the first ``keptLines`` lines after it, across the blocks they belong to (a
    /// list of one-line items, a `<details>` summary and its body, a quote or div opening
    /// with a list), not only with the first block's first line.
    var keptLinesToCome = 0

    /// How many lines that follow a heading stay on its page (README, Markdown: "headings keep
    /// with the first two lines that follow"; CSS Fragmentation 3's `break-after: avoid` over
    /// as many lines as the default `orphans`).
    static let keptLines = 2

    /// Creates a paginator that shapes with `shaper`, lays out per `options` and hands each full page to `renderer`.
    public init(shaper: TextShaper, options: LayoutOptions, renderer: PageRenderer) {
        self.shaper = shaper; self.options = options; self.renderer = renderer
    }

    var left: Double { options.page.margins.left }
    var measure: Double { options.page.measure }
    var textHeight: Double { options.page.textHeight }

    /// Lays out `block` after the previous ones; full pages are rendered immediately.
    /// - Throws: what the renderer throws.
    public func add(_ block: StyledBlock) throws {
        if case .pageBreak = block.content { pendingForcedBreak = true; return }
        nextPanelID += 1
        let spaceAbove = max(previous?.spaceAfter ?? 0, block.spaceBefore)
        // A heading ends the keep of the section before it (that section was shorter than the
        // lines kept): only a heading right after a heading stays with it.
        if block.keepWithNext, previous?.keepWithNext != true { keptLinesToCome = 0 }
        var first = true
        // Items are placed as the block's layout makes them (a table row by row), so a page's
        // items are the only ones held.
        try BlockLayout(shaper: shaper, options: options, panelID: nextPanelID).layOut(block) { item in
            var item = item
            if first {
                first = false
                item.spaceBefore = spaceAbove
                if pendingForcedBreak { item.breakBefore = .forced; pendingForcedBreak = false }
                previous = block
            }
            if keptLinesToCome > 0 {
                if item.breakBefore == .allowed { item.breakBefore = .avoid }
                keptLinesToCome -= Paginator.linesKept(by: block)
            }
            try place(item)
        }
        if block.keepWithNext { keptLinesToCome = Paginator.keptLines }
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
        if !placed.isEmpty || pageCount == 0 { try flush() }
        return pageCount
    }

    func place(_ item: Item) throws {
        if item.breakBefore == .forced && !placed.isEmpty { try flush() }
        if placed.isEmpty, let header = item.repeatedHeader { append(header.item.asArtifact); repeatedOnPage = 1 }
        let gap = placed.isEmpty ? 0 : item.spaceBefore
        let notes = Paginator.notesHeight(placed.flatMap(\.item.notes) + item.notes)
        // A page holding nothing but a repeated table header takes the item whatever its height:
        // moving it on would only repeat the header forever.
        if placed.count == repeatedOnPage || cursor + gap + item.height + notes <= textHeight + 0.01 {
            if placed.count == repeatedOnPage, cursor + item.height + notes > textHeight, !item.notes.isEmpty {
                // Even alone on a page the line and its notes do not fit: the notes follow it
                // in the text rather than overprint it.
                var bare = item
                bare.notes = []
                append(bare)
                for note in item.notes { try place(note) }
                return
            }
            append(item); return
        }
        // The item does not fit: end the page at the last break allowed.
        var breakIndex = placed.count
        if item.breakBefore == .avoid {
            if let k = placed.indices.dropFirst(repeatedOnPage + 1).last(where: { placed[$0].item.breakBefore != .avoid }) { breakIndex = k }
        }
        let carried = placed[breakIndex...].map(\.item)
        placed.removeLast(placed.count - breakIndex)
        try flush()
        for c in carried { try place(c) }
        try place(item)
    }

    func append(_ item: Item) {
        let gap = placed.isEmpty ? 0 : item.spaceBefore
        placed.append((item, cursor + gap))
        cursor += gap + item.height
    }

    func flush() throws {
        pageCount += 1
        var page = Page(number: pageCount, size: options.page.paper)
        let top = options.page.margins.top
        // Panels first (behind text), then bars, then content: all but the content are artifacts.
        page.elements.append(.structure([.artifact]))
        var index = 0
        while index < placed.count {
            guard let panel = placed[index].item.panel else { index += 1; continue }
            var end = index
            while end + 1 < placed.count, placed[end + 1].item.panel?.id == panel.id { end += 1 }
            let y0 = top + placed[index].y, y1 = top + placed[end].y + placed[end].item.height
            page.elements.append(.fill(Rect(x: panel.x, y: y0, width: panel.width, height: y1 - y0), panel.color))
            index = end + 1
        }
        for (i, entry) in placed.enumerated() where !entry.item.bars.isEmpty {
            var y0 = top + entry.y
            if i > 0, !placed[i - 1].item.bars.isEmpty { y0 = top + placed[i - 1].y + placed[i - 1].item.height }
            let y1 = top + entry.y + entry.item.height
            for x in entry.item.bars {
                page.elements.append(.line(from: Point(x: x, y: y0), to: Point(x: x, y: y1), width: 2, color: entry.item.barColor))
            }
        }
        // Footnotes at the foot of the text area, under a short rule; drawn (and so read) after
        // the last line on the page of the block that cites them.
        let notes = placed.flatMap(\.item.notes)
        var notesAfter: [Int: [PageElement]] = [:]
        if !notes.isEmpty {
            var y = top + textHeight - Paginator.notesHeight(notes)
            page.elements.append(.line(from: Point(x: left, y: y + Paginator.noteRuleGap / 2), to: Point(x: left + min(144, measure / 3), y: y + Paginator.noteRuleGap / 2),
                                       width: 0.5, color: RGBAColor(red: 0.6, green: 0.6, blue: 0.62)))
            y += Paginator.noteRuleGap
            for (i, entry) in placed.enumerated() where !entry.item.notes.isEmpty {
                let block = entry.item.structure
                let last = placed.indices.last { $0 >= i && Paginator.sameBlock(placed[$0].item.structure, block) } ?? i
                let parent = Array(block.dropLast())
                for note in entry.item.notes {
                    notesAfter[last, default: []] += note.elements.map { $0.offset(by: y).underStructure(parent) }
                    y += note.height
                }
            }
        }
        for (i, entry) in placed.enumerated() {
            for element in entry.item.elements {
                let moved = element.offset(by: top + entry.y)
                if case .destination(let name, _) = moved { destinations[name] = pageCount }
                page.elements.append(moved)
            }
            if let notes = notesAfter[i] { page.elements += notes }
        }
        appendRunningText(options.header?(pageCount), baselineFromTop: options.page.margins.top * 0.5, to: &page)
        appendRunningText(options.footer?(pageCount), baselineFromTop: options.page.paper.height - options.page.margins.bottom * 0.45, to: &page)
        placed.removeAll(keepingCapacity: true)
        repeatedOnPage = 0
        cursor = 0
        try renderer.render(page)
    }

    /// Space between the text and the first footnote, holding the footnote rule, pt.
    static let noteRuleGap = 12.0

    /// Height the footnote lines take at the foot of a page (0 without notes).
    static func notesHeight(_ notes: [Item]) -> Double {
        notes.isEmpty ? 0 : noteRuleGap + notes.reduce(0) { $0 + $1.height }
    }

    /// Whether two structure paths end in the same element (items of one block).
    static func sameBlock(_ a: [StructureElement], _ b: [StructureElement]) -> Bool {
        guard let x = a.last, let y = b.last else { return a.isEmpty && b.isEmpty }
        return x.isSame(as: y)
    }

    func appendRunningText(_ paragraph: StyledParagraph?, baselineFromTop: Double, to page: inout Page) {
        guard let paragraph else { return }
        page.elements.append(.structure([.artifact]))
        for line in shaper.shape(paragraph, width: measure).lines.prefix(1) {
            page.elements.append(.text(line, x: left + line.x, baseline: baselineFromTop))
        }
    }
}

extension PageElement {
    /// The element moved down by `dy` pt.
    func offset(by dy: Double) -> PageElement {
        switch self {
        case .text(let line, let x, let baseline): .text(line, x: x, baseline: baseline + dy)
        case .ornament(let line, let x, let baseline, let color): .ornament(line, x: x, baseline: baseline + dy, color: color)
        case .fill(let r, let c): .fill(Rect(x: r.x, y: r.y + dy, width: r.width, height: r.height), c)
        case .line(let a, let b, let w, let c): .line(from: Point(x: a.x, y: a.y + dy), to: Point(x: b.x, y: b.y + dy), width: w, color: c)
        case .link(let r, let t): .link(Rect(x: r.x, y: r.y + dy, width: r.width, height: r.height), t)
        case .destination(let name, let p): .destination(name: name, at: Point(x: p.x, y: p.y + dy))
        case .outline(let e, let p): .outline(e, at: Point(x: p.x, y: p.y + dy))
        case .image(let path, let r): .image(path: path, rect: Rect(x: r.x, y: r.y + dy, width: r.width, height: r.height))
        case .structure: self
        }
    }
}
