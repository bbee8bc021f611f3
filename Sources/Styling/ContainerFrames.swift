import DocumentModel

/// A list, block quote or div too long to be styled whole, being styled a part at a time by a
/// ``StyleStream``: a list an item's block at a time, a quote or div a block at a time. The
/// blocks are those ``Styler`` gives the container styled whole, in the same order, with the
/// same structure ids; only the chunks they are handed out in differ, and with them where
/// notes go: the notes cited in a chunk are attached with it, so a note cited in two chunks
/// goes with the first, and a note's structure ids come before those of the blocks after it.
struct ContainerFrame {
    /// What is being styled.
    let contents: Contents
    /// The next item of a list, or block of a quote or div.
    var next = 0
    /// The list item being styled.
    var item: ItemInProgress?
    /// How many blocks the stream had styled when the container opened: its own come after.
    let start: Int

    enum Contents {
        case list(Styler.ListFrame)
        /// A block quote's or div's blocks and the context they are styled in, shared.
        case blocks(BlockFrame)
    }

    /// A block quote's or div's blocks and the context they are styled in. A class, so that a
    /// step copies a reference; never changed.
    final class BlockFrame: Sendable {
        let blocks: [Block]
        let context: Styler.BlockContext

        init(_ blocks: [Block], context: Styler.BlockContext) {
            self.blocks = blocks
            self.context = context
        }
    }

    /// A list item being styled a block at a time.
    struct ItemInProgress {
        let frame: Styler.ListItemFrame
        let blocks: [Block]
        var next = 0
        /// Where the item's first block is (or will be) in ``StyleStream/pending``.
        var first: Int
        /// Whether the marker is set on the item's first block. Until it is, that block is
        /// kept (the marker may still need a line of its own before it) and the item's blocks
        /// are styled whole.
        var marked = false
    }
}

extension StyleStream {
    /// Starts styling `block` a part at a time when it is a container holding more than
    /// ``partsPerChunk`` blocks; false (nothing done) when it is to be styled whole.
    mutating func opensFrame(for block: Block, in context: Styler.BlockContext) -> Bool {
        guard Self.blockCount(of: block, over: partsPerChunk) else { return false }
        switch block.kind {
        case .list(let list):
            _ = styler.enter(block)
            open(.list(styler.openList(list, context: context)))
        case .blockQuote(let children):
            _ = styler.enter(block)
            open(.blocks(ContainerFrame.BlockFrame(children, context: styler.quoteContext(context))))
        case .div(let children):
            let overrides = styler.enter(block)
            let inside = styler.divContext(block, overrides: overrides, in: context)
            open(.blocks(ContainerFrame.BlockFrame(children, context: inside)))
        default:
            return false
        }
        return true
    }

    private mutating func open(_ contents: ContainerFrame.Contents) {
        frames.append(ContainerFrame(contents: contents, start: handedOut + pending.count))
    }

    /// Ends the innermost container. Ids written at its very end (`<a id="x"></a>` as its last
    /// block) name its last block, as ``Styler`` names them when it styles a container whole.
    private mutating func close() {
        let frame = frames.removeLast()
        if handedOut + pending.count > frame.start {
            styler.attachPendingAnchors(to: &pending, from: pending.count - 1)
        }
    }

    /// Whether `block` holds more than `limit` blocks, counting the blocks of its lists'
    /// items, quotes and divs: at most `limit` blocks are visited.
    static func blockCount(of block: Block, over limit: Int) -> Bool {
        var count = 0
        var stack: [Block] = [block]
        while let next = stack.popLast() {
            count += 1
            if count > limit { return true }
            switch next.kind {
            case .list(let list):
                for item in list.items {
                    stack += item.blocks
                    if count + stack.count > limit { return true }
                }
            case .blockQuote(let children), .div(let children):
                if count + stack.count + children.count > limit { return true }
                stack += children
            default:
                break
            }
        }
        return false
    }

    /// The next chunk of the containers being styled: about ``partsPerChunk`` blocks, or what
    /// is left when the outermost container ends. The last block styled is kept back while a
    /// container is open (ending an item or a list sets the space after it), as is the first
    /// block of an item whose marker is not yet set.
    mutating func nextPart() -> [StyledBlock] {
        while !frames.isEmpty {
            step()
            if let follower = leadInFollower, follower < pending.count {
                pending[follower].keepWithPrevious = true
                leadInFollower = nil
            }
            if handOutLimit >= partsPerChunk { break }
        }
        let end = frames.isEmpty ? pending.count : handOutLimit
        // Notes are attached with the whole of `pending`, so a note cited in a block kept back
        // goes with that block.
        if !pending.isEmpty { styler.attachFootnotes(to: &pending, from: 0) }
        let chunk = Array(pending[..<end])
        pending.removeFirst(end)
        handedOut += end
        for index in frames.indices { frames[index].item?.first -= end }
        if let follower = leadInFollower { leadInFollower = follower - end }
        return chunk
    }

    /// How many of ``pending``'s blocks may be handed out now.
    private var handOutLimit: Int {
        var limit = pending.count - 1
        for frame in frames {
            if let item = frame.item, !item.marked { limit = min(limit, item.first) }
        }
        return max(0, limit)
    }

    /// Styles one part of the innermost container, or ends it.
    private mutating func step() {
        let depth = frames.count - 1
        let next = frames[depth].next
        switch frames[depth].contents {
        case .blocks(let frame):
            guard next < frame.blocks.count else {
                close()
                return
            }
            frames[depth].next += 1
            style(frame.blocks[next], in: frame.context, mayOpenFrame: true)
        case .list(let list):
            guard var item = frames[depth].item else {
                guard next < list.list.items.count else {
                    styler.closeList(in: &pending)
                    close()
                    return
                }
                frames[depth].item = ContainerFrame.ItemInProgress(
                    frame: styler.openItem(next, of: list), blocks: list.list.items[next].blocks, first: pending.count)
                frames[depth].next += 1
                return
            }
            guard item.next < item.blocks.count else {
                if !item.marked, !styler.hangMarker(of: item.frame, onBlockAt: item.first, in: &pending) {
                    styler.addMarkerLine(of: item.frame, at: item.first, to: &pending)
                }
                styler.closeItem(of: list, in: &pending)
                frames[depth].item = nil
                return
            }
            frames[depth].item?.next += 1
            let start = pending.count
            let opened = style(item.blocks[item.next], in: item.frame.context, mayOpenFrame: item.marked)
            if item.next == 1, case .paragraph = item.blocks[0].kind {
                if opened {
                    leadInFollower = start
                } else {
                    Styler.keepWithLeadIn(&pending, at: start, after: item.blocks[0])
                }
            }
            // Set as soon as the first block is there, when it can carry the marker, as it is
            // set when the item is styled whole: later blocks never change the first.
            if !opened, !item.marked, item.first < pending.count {
                item.marked = styler.hangMarker(of: item.frame, onBlockAt: item.first, in: &pending)
                frames[depth].item?.marked = item.marked
            }
        }
    }

    /// Styles `block` into ``pending``: whole, or by opening a frame of its own when it is a
    /// long container and `mayOpenFrame`. Returns whether it opened a frame.
    @discardableResult
    private mutating func style(_ block: Block, in context: Styler.BlockContext, mayOpenFrame: Bool) -> Bool {
        if mayOpenFrame, opensFrame(for: block, in: context) { return true }
        styler.append(block, context: context, to: &pending)
        return false
    }
}
