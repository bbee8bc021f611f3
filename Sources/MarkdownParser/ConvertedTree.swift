internal import CCmarkGFM
import DocumentModel
import Foundation

/// cmark-gfm's tree of one document, kept for the document's lifetime so that its blocks and
/// table rows are converted to `Document` values when they are read, not all at once
/// (``TopLevelBlocks``, ``LazyTableRows``).
///
/// Immutable after the scan and shared by every copy of the document; one lock serialises the
/// conversions, because reading a cmark node is not thread-safe (`cmark_node_get_literal`
/// writes a NUL-terminated copy into the node the first time it is asked). The tree is freed
/// with the last document value that reads it.
final class ConvertedTree: @unchecked Sendable {
    /// A run of top-level nodes that converts to blocks on its own: its first node, how many
    /// nodes it spans, and the index of its first block in the document.
    struct Segment {
        let first: OpaquePointer
        let nodes: Int
        let firstBlock: Int
    }

    private let tree: CmarkTree
    private let lock = NSLock()
    /// Converts again what the scan converted; its diagnostics are dropped (the scan gave them).
    private var converter: CmarkConverter
    init(tree: CmarkTree, file: String, source: SourceText) {
        self.tree = tree
        converter = CmarkConverter(file: file, source: source, mode: .replay)
        converter.owner = self
    }

    /// Runs `body` with the tree's converter, alone; drops the diagnostics it gathered.
    func converting<T>(_ body: (inout CmarkConverter) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        let result = body(&converter)
        converter.diagnostics = []
        converter.html.diagnostics = []
        return result
    }
}

/// Smart punctuation is applied over these lists as they are read (``SmartPunctuation/apply(to:)``).
///
/// A parsed document's top-level blocks, converted from the cmark tree one segment (usually
/// one node) at a time as they are read; the last segment converted is kept, so reading the
/// blocks in order converts each once.
final class TopLevelBlocks: ElementProvider, @unchecked Sendable {
    let tree: ConvertedTree
    let segments: [ConvertedTree.Segment]
    let count: Int
    /// The last segment converted (index, blocks); guarded by `lock`.
    private var cached: (segment: Int, blocks: [Block])?
    private let lock = NSLock()

    init(tree: ConvertedTree, segments: [ConvertedTree.Segment], count: Int) {
        self.tree = tree; self.segments = segments; self.count = count
    }

    func element(at index: Int) -> Block {
        precondition(index >= 0 && index < count, "block index out of range")
        // The last segment starting at or before `index` (segments make at least one block).
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].firstBlock <= index { low = mid } else { high = mid - 1 }
        }
        let segment = segments[low]
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.segment == low { return cached.blocks[index - segment.firstBlock] }
        cached = nil  // drop the previous segment before converting the next
        let blocks = tree.converting { $0.blocks(from: segment.first, nodes: segment.nodes) }
        cached = (low, blocks)
        return blocks[index - segment.firstBlock]
    }
}

/// A parsed table's body rows, converted from the cmark tree one row at a time as they are read.
final class LazyTableRows: ElementProvider, @unchecked Sendable {
    let tree: ConvertedTree
    let rows: [OpaquePointer]
    let depth: Int

    init(tree: ConvertedTree, rows: [OpaquePointer], depth: Int) {
        self.tree = tree; self.rows = rows; self.depth = depth
    }

    var count: Int { rows.count }

    func element(at index: Int) -> [[Inline]] {
        let row = rows[index], depth = depth
        return tree.converting { $0.cells(of: row, depth: depth) }
    }
}
