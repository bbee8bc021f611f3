import Styling

/// Items of one block laid out ahead of the paginator (``LayoutAhead``), a few at a time.
public struct LaidOutBatch: @unchecked Sendable {
    /// The block the items belong to.
    public let block: StyledBlock
    /// The block's next items, in order (none for a page break).
    var items: [Item]
    /// Whether these are the block's first items, and its last.
    public let isFirst: Bool
    public let isLast: Bool
}

/// Lays blocks out one after another as a ``Paginator`` does, for a paginator that places the
/// items on another thread (``Paginator/add(_:)-(LaidOutBatch)``): shaping and line breaking,
/// about half of a long document's work, run beside pagination and drawing. The items are
/// those ``Paginator/add(_:)-(StyledBlock)`` makes: each block numbers its background panel
/// as the paginator would, empty paragraphs are shaped once for every block that follows, and
/// each item's ink is measured as the paginator measures it (``Paginator/measureInk(of:shaper:)``).
/// The shaper is shared with the paginator's thread, which measures and draws the items: the
/// caller makes the two take turns with it.
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

    /// Lays `block` out, handing its items to `emit` in batches of at most ``batchSize`` (a page
    /// break: one batch of none). Stops as soon as `emit` returns false, and returns false then.
    public mutating func layOut(_ block: StyledBlock, emit: (LaidOutBatch) -> Bool) -> Bool {
        if case .pageBreak = block.content {
            return emit(LaidOutBatch(block: block, items: [], isFirst: true, isLast: true))
        }
        panelID += 1
        let layout = BlockLayout(shaper: shaper, options: options, panelID: panelID, emptyParagraphs: emptyParagraphs)
        var pending: [Item] = []
        var isFirst = true
        struct Stopped: Error {}
        do {
            try layout.layOut(block) { item in
                // Measured here, beside the drawing thread, as the paginator measures it.
                var item = item
                if !item.rowElementsDeferred { Paginator.measureInk(of: &item, shaper: shaper) }
                pending.append(item)
                guard pending.count == Self.batchSize else { return }
                guard emit(LaidOutBatch(block: block, items: pending, isFirst: isFirst, isLast: false)) else {
                    throw Stopped()
                }
                isFirst = false
                pending = []
            }
        } catch {
            return false
        }
        return emit(LaidOutBatch(block: block, items: pending, isFirst: isFirst, isLast: true))
    }
}
