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
    /// A run of top-level nodes that converts to blocks on its own: the index of its first
    /// node, how many nodes it spans, and the index of its first block in the document.
    struct Segment {
        let first: Int
        let nodes: Int
        let firstBlock: Int
    }

    /// The text cmark-gfm parsed (shares its storage with the converter's source lines), to
    /// parse again after ``release()``.
    private let input: [UInt8]
    private var tree: CmarkTree?
    /// Bumped by every ``release()``: node pointers taken under an older generation are stale.
    private(set) var generation = 0
    /// The last top-level node looked up, so that reading in order walks the tree once.
    private var cursor: (index: Int, node: OpaquePointer)?
    private let lock = NSLock()
    /// Converts again what the scan converted; its diagnostics are dropped (the scan gave them).
    private var converter: CmarkConverter

    init(tree: CmarkTree, file: String, source: SourceText) {
        self.tree = tree
        input = source.cmarkInput
        converter = CmarkConverter(file: file, source: source.forConversion, mode: .replay)
        converter.owner = self
    }

    /// Frees cmark-gfm's tree; a later read parses the same text again (same tree, same blocks).
    func release() {
        lock.lock()
        defer { lock.unlock() }
        if tree != nil { generation += 1 }
        tree = nil
        cursor = nil
    }

    /// The root, parsing the text again if the tree was released. Call with the lock held.
    private func root() -> OpaquePointer {
        if let tree { return tree.root }
        guard let parsed = CmarkTree(input) else { fatalError("cmark-gfm could not allocate a parser") }
        tree = parsed
        return parsed.root
    }

    /// Top-level node `index`, walking on from the last one looked up. Call with the lock held.
    private func topLevelNode(_ index: Int) -> OpaquePointer? {
        let root = root()
        var (i, node): (Int, OpaquePointer?) = cursor.map { $0.index <= index ? ($0.index, $0.node) : (0, cmark_node_first_child(root)) }
            ?? (0, cmark_node_first_child(root))
        while i < index, let n = node { node = cmark_node_next(n); i += 1 }
        if let node { cursor = (index, node) }
        return node
    }

    /// The node at `path` (``CmarkConverter``'s path of a node). Call with the lock held.
    private func node(at path: [Int]) -> OpaquePointer? {
        guard let first = path.first, var node = topLevelNode(first) else { return nil }
        for index in path.dropFirst() {
            var child = cmark_node_first_child(node)
            for _ in 0..<index { child = child.flatMap(cmark_node_next) }
            guard let c = child else { return nil }
            node = c
        }
        return node
    }

    /// The blocks of `segment`, converted now.
    func blocks(of segment: Segment) -> [Block] {
        lock.lock()
        defer { lock.unlock(); dropDiagnostics() }
        guard let first = topLevelNode(segment.first) else { return [] }
        return converter.blocks(from: first, index: segment.first, nodes: segment.nodes)
    }

    /// The cells of body row `index` of the table at `path`, converted now; `rows` holds the
    /// row nodes of `generation`, found again when the tree was parsed anew.
    func cells(ofRow index: Int, rows: inout (generation: Int, nodes: [OpaquePointer]), path: [Int], depth: Int) -> [[Inline]] {
        lock.lock()
        defer { lock.unlock(); dropDiagnostics() }
        if rows.generation != generation || tree == nil {
            _ = root()
            var nodes: [OpaquePointer] = []
            if let table = node(at: path) {
                var row = cmark_node_first_child(table)
                var sawHeader = false
                while let r = row {
                    if !sawHeader, cmark_gfm_extensions_get_table_row_is_header(r) != 0 { sawHeader = true } else { nodes.append(r) }
                    row = cmark_node_next(r)
                }
            }
            rows = (generation, nodes)
        }
        guard index < rows.nodes.count else { return [] }
        return converter.cells(of: rows.nodes[index], depth: depth)
    }

    private func dropDiagnostics() {
        converter.diagnostics = []
        converter.html.diagnostics = []
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
        let blocks = tree.blocks(of: segment)
        cached = (low, blocks)
        return blocks[index - segment.firstBlock]
    }

    func releaseSource() {
        lock.lock()
        cached = nil
        lock.unlock()
        tree.release()
    }
}

/// A parsed table's body rows, converted from the cmark tree one row at a time as they are read.
final class LazyTableRows: ElementProvider, @unchecked Sendable {
    let tree: ConvertedTree
    let path: [Int]
    let depth: Int
    let count: Int
    /// The row nodes and the tree generation they belong to; guarded by `lock`.
    private var rows: (generation: Int, nodes: [OpaquePointer])
    private let lock = NSLock()

    init(tree: ConvertedTree, path: [Int], rows: [OpaquePointer], depth: Int) {
        self.tree = tree; self.path = path; self.depth = depth
        count = rows.count
        self.rows = (tree.generation, rows)
    }

    func element(at index: Int) -> [[Inline]] {
        lock.lock()
        defer { lock.unlock() }
        return tree.cells(ofRow: index, rows: &rows, path: path, depth: depth)
    }

    func releaseSource() { tree.release() }
}
