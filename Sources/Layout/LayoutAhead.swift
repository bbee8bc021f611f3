import Styling

/// Items of one block laid out ahead of the paginator (``LayoutAhead``), a few at a time. Its
/// lines hold the shaper's drawable lines, handed from the thread that made them to the one
/// that draws them; the shaper's owner makes the two take turns with them.
public struct LaidOutBatch: @unchecked Sendable {
    /// The block the items belong to.
    public let block: StyledBlock
    /// The block's next items, in order (none for a page break).
    var items: [Item]
    /// Whether these are the block's first items, and its last.
    public let isFirst: Bool
    public let isLast: Bool
    /// A block the paginator lays out itself (``LayoutAhead/laysOutInPlace(_:)``): no items.
    public var inPlace = false
}

/// Lays blocks out one after another as a ``Paginator`` does, for a paginator that places the
/// items on another thread (``Paginator/add(_:)-(LaidOutBatch)``): shaping and line breaking,
/// about half of a long document's work, run beside pagination and drawing. The items are
/// those ``Paginator/add(_:)-(StyledBlock)`` makes: each block numbers its background panel
/// as the paginator would, empty paragraphs are shaped once for every block that follows, and
/// each item's ink is measured as the paginator measures it (``Paginator/measureInk(of:shaper:)``).
/// The shaper is shared with the paginator's thread, which draws the items and lays a long
/// table out itself (``laysOutInPlace(_:)``): the caller makes the two take turns with it.
public struct LayoutAhead {
    let shaper: TextShaper
    let options: LayoutOptions
    /// The last block's panel number (``Paginator/nextPanelID``).
    var panelID = 0
    let emptyParagraphs = CellMemory()

    /// Items a batch holds at most: a long paragraph's lines, or a long table's rows, are
    /// handed on as they are made, so what waits for the paginator stays small.
    public static let batchSize = 16

    /// Lays out with `shaper` and `options`, as a paginator made with them lays out.
    public init(shaper: TextShaper, options: LayoutOptions) {
        self.shaper = shaper
        self.options = options
    }

    /// Whether `block` is one the paginator lays out itself, in turn, while this waits: a table
    /// of ``inPlaceRows`` rows or more, whose rows of small cells, each drawn as a line of its
    /// own, have the two threads hand the shaper's fonts back and forth for every row (a table
    /// of 10,000 rows took 1.85 s laid out ahead against 1.5 s on one thread). Shorter tables
    /// are laid out ahead with the blocks around them.
    public static func laysOutInPlace(_ block: StyledBlock) -> Bool {
        if case .table(let table) = block.content { return table.rows.count >= inPlaceRows }
        return false
    }

    /// The fewest rows of a table laid out in place (``laysOutInPlace(_:)``).
    public static let inPlaceRows = 100

    /// Lays `block` out, handing its items to `emit` in batches of at most ``batchSize`` (a page
    /// break: one batch of none; a block laid out in place, ``laysOutInPlace(_:)``: one batch
    /// that says so). Stops as soon as `emit` returns false, and returns false then.
    public mutating func layOut(_ block: StyledBlock, emit: (LaidOutBatch) -> Bool) -> Bool {
        if case .pageBreak = block.content {
            return emit(LaidOutBatch(block: block, items: [], isFirst: true, isLast: true))
        }
        panelID += 1
        if Self.laysOutInPlace(block) {
            return emit(LaidOutBatch(block: block, items: [], isFirst: true, isLast: true, inPlace: true))
        }
        let layout = BlockLayout(shaper: shaper, options: options, panelID: panelID, emptyParagraphs: emptyParagraphs)
        var pending: [Item] = []
        var isFirst = true
        struct Stopped: Error {}
        do {
            try layout.layOut(block) { item in
                pending.append(item)
                guard pending.count == Self.batchSize else { return }
                measureInk(of: &pending)
                guard emit(LaidOutBatch(block: block, items: pending, isFirst: isFirst, isLast: false)) else {
                    throw Stopped()
                }
                isFirst = false
                pending = []
            }
        } catch {
            return false
        }
        measureInk(of: &pending)
        return emit(LaidOutBatch(block: block, items: pending, isFirst: isFirst, isLast: true))
    }

    /// Measures each item's ink, and reads its lines' glyphs out, as the paginator does
    /// (``Paginator/measureInk(of:shaper:)``), here beside the drawing thread: a batch in one
    /// turn with the shaper's fonts.
    private func measureInk(of items: inout [Item]) {
        shaper.inOneTurn {
            for k in items.indices where !items[k].rowElementsDeferred {
                Paginator.measureInk(of: &items[k], shaper: shaper)
            }
        }
    }
}
