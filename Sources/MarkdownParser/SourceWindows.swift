internal import CCmarkGFM
import DocumentModel
import Foundation

/// A parsed document's top-level blocks, made again from the source text a window of
/// top-level segments at a time as they are read, so that neither cmark-gfm's tree of the
/// whole document nor a Swift copy of it is held after the parse.
///
/// The parse's scan learns where each segment (a run of top-level nodes that converts to
/// blocks on its own: every div fence and HTML container opened in it is closed in it) starts
/// and ends in the source, by line. A window is a run of whole segments of about
/// ``MarkdownParser/windowBytes`` bytes of source; reading a block of it parses the window's
/// lines again, after a prefix holding the document's link reference and footnote definitions
/// (so links and notes resolve as in the whole document), converts the window's nodes and keeps
/// its blocks until a block of another window is read. Line numbers are offset back to the
/// file's, so every source location is the one the whole-document parse gives.
///
/// When a window's parse does not give the scan's nodes (its node count or a segment's first
/// line differ), or a note reference's label cannot be read back, that window is converted
/// from a parse of the whole document instead: slower, never different.
final class SourceWindows: ElementProvider, @unchecked Sendable {
    /// A run of top-level nodes (footnote definitions not counted: cmark-gfm moves them to the
    /// end) that converts to blocks on its own.
    struct Segment {
        /// Index of its first node among the document's top-level nodes.
        var firstNode: Int
        /// How many top-level nodes it spans.
        var nodes: Int
        /// First and last line (1-based, of the text given to cmark-gfm) of its nodes.
        var firstLine: Int
        var lastLine: Int
        /// Index of its first block in the document and how many blocks it makes.
        var firstBlock: Int
        var blocks: Int
    }

    /// A run of whole segments parsed together.
    struct Window {
        var segments: Range<Int>
        var firstBlock: Int
        var blocks: Int
        /// The blocks of a segment too long to parse again (its own window), kept from the scan.
        var held: [Block]?
    }

    /// A segment of more source than this, bytes, keeps the blocks the scan made instead of
    /// being parsed again on every pass: its cmark-gfm tree (about 12 bytes per byte of prose,
    /// 50 per byte of a table) would otherwise stack on layout's memory while a pass parses it
    /// (a 10,000-row table, 0.32 MB: 18 MiB), whereas its blocks are held as before. Parsed once,
    /// before layout, it costs what the whole-document parse did.
    static let heldSegmentBytes = 128 * 1024

    private let file: String
    /// The text the scan parsed, its bytes moved to ``buffer`` (lines, fences, the marker name).
    private let source: SourceText
    /// The bytes of `source`'s lines, shared with the document's positions when they are the
    /// text as given; set aside by ``releaseSource()``.
    let buffer: SourceBuffer
    private let segments: [Segment]
    private let windows: [Window]
    /// The definitions every window's parse starts with, and its line count.
    private let prefix: [UInt8]
    private let prefixLines: Int
    /// Footnote numbers by normalised label, as the whole-document parse gives them.
    private let footnoteNumbers: [String: Int]
    /// False when cmark-gfm counts lines other than the `\n` lines (a lone carriage return):
    /// every window is then converted from the whole document.
    private let windowed: Bool
    /// The number of top-level blocks.
    let count: Int
    private let lock = NSLock()
    /// The last window converted and its blocks; guarded by `lock`.
    private var cached: (window: Int, blocks: [Block])?
    /// Windows converted from a whole-document parse (tests read it); guarded by `lock`.
    private(set) var wholeDocumentParses = 0

    /// `source` must be the text the scan parsed (``SourceText/forConversion``); `windowBytes`
    /// is the source size a window grows to (0: one segment a window).
    init(
        file: String, source: SourceText, segments: [Segment], prefix: (bytes: [UInt8], lines: Int),
        footnoteNumbers: [String: Int], windowBytes: Int, held: [Int: [Block]] = [:]
    ) {
        self.file = file
        buffer = SourceBuffer(source.lines.buffer)
        var kept = source
        kept.lines.buffer = []  // held by `buffer` alone, so that setting it aside frees it
        self.source = kept
        self.segments = segments
        self.prefix = prefix.bytes
        self.prefixLines = prefix.lines
        self.footnoteNumbers = footnoteNumbers
        windowed = Self.countsNewlines(source.lines)
        // The prefix is parsed with every window: let a window be at least twice as long.
        let target = windowBytes == 0 ? 0 : max(windowBytes, 2 * prefix.bytes.count)
        var windows: [Window] = []
        var start = 0
        let ranges = source.lines.ranges
        func offset(_ line: Int) -> Int { ranges[max(0, min(line, ranges.count) - 1)].lowerBound }
        func close(_ end: Int) {  // segments start..<end as a window
            guard start < end else { return }
            let run = segments[start..<end]
            let blocks = run.reduce(0) { $0 + $1.blocks }
            if blocks > 0 {
                windows.append(Window(segments: start..<end, firstBlock: run.first!.firstBlock, blocks: blocks))
            }
            start = end
        }
        for (i, segment) in segments.enumerated() {
            if let kept = held[i] {
                close(i)
                if !kept.isEmpty {
                    windows.append(
                        Window(segments: i..<(i + 1), firstBlock: segment.firstBlock, blocks: kept.count, held: kept))
                }
                start = i + 1
                continue
            }
            let size = offset(segment.lastLine) - offset(segments[start].firstLine)
            if i + 1 == segments.count || size >= target { close(i + 1) }
        }
        self.windows = windows
        count = windows.last.map { $0.firstBlock + $0.blocks } ?? 0
    }

    /// Block `index`, made from its window (parsed again unless it is the last one read).
    func element(at index: Int) -> Block {
        precondition(index >= 0 && index < count, "block index out of range")
        var low = 0
        var high = windows.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if windows[mid].firstBlock <= index { low = mid } else { high = mid - 1 }
        }
        if let held = windows[low].held { return held[index - windows[low].firstBlock] }
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.window == low { return cached.blocks[index - windows[low].firstBlock] }
        cached = nil  // drop the previous window before making the next
        let window = windows[low]
        let blocks = windowBlocks(window) ?? wholeDocumentBlocks(window)
        cached = (low, blocks)
        return blocks[index - window.firstBlock]
    }

    /// Drops the window kept and sets the source's bytes aside (``SourceBuffer/setAside()``);
    /// the blocks stay the same: a later read reads the bytes back. A source too short to be set
    /// aside keeps its window: dropping it would only make the next pass parse it again (a
    /// one-window document, parsed by the survey, again by layout).
    func releaseSource() {
        guard buffer.count >= buffer.setAsideMinimum else { return }
        lock.lock()
        cached = nil
        lock.unlock()
        buffer.setAside()
    }

    /// The number of windows (tests).
    var windowCount: Int { windows.count }
    /// Whether the last window made is kept (tests).
    var keepsAWindow: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cached != nil
    }
    /// The buffer the windows are parsed again from (tests).
    var sourceBuffer: [UInt8] { buffer.bytes }
    /// The number of windows that keep the scan's blocks (tests).
    var heldWindowCount: Int { windows.filter { $0.held != nil }.count }

    /// The window's blocks from a parse of its lines after the prefix; nil when that parse does
    /// not give the scan's nodes, or its conversion read a line outside the window. Only the
    /// window's bytes are read (from the file, when the source is set aside). Call with the
    /// lock held.
    private func windowBlocks(_ window: Window) -> [Block]? {
        guard windowed else { return nil }
        let run = segments[window.segments]
        // To the line before the next segment (cmark-gfm may end a node's range before its last
        // line, as an HTML block's closing line), or to the end of the text.
        let nextLine =
            window.segments.upperBound < segments.count
            ? segments[window.segments.upperBound].firstLine : source.lines.count + 1
        let firstLine = run.first!.firstLine
        let lastLine = min(max(run.last!.lastLine, nextLine - 1), source.lines.count)
        guard firstLine >= 1, firstLine <= lastLine else { return nil }
        let ranges = source.lines.ranges
        let start = ranges[firstLine - 1].lowerBound
        let text = buffer.bytes(in: start..<ranges[lastLine - 1].upperBound)
        guard text.count == ranges[lastLine - 1].upperBound - start else { return nil }
        var source = source
        source.lines = .window(text, base: start, ranges: ranges)
        var bytes = prefix
        bytes.reserveCapacity(prefix.count + text.count + 1)
        bytes += text
        if lastLine < ranges.count { bytes.append(0x0A) }  // the text's own end, as written, at the last
        guard let tree = CmarkTree(bytes) else { return nil }
        let delta = firstLine - prefixLines - 1
        let nodes = Self.windowNodes(of: tree.root, lineDelta: delta, firstLine: firstLine)
        guard nodes.count == run.reduce(0, { $0 + $1.nodes }) else { return nil }
        var converter = CmarkConverter(file: file, source: source, mode: .replay)
        converter.lineDelta = delta
        converter.footnoteLabels = footnoteNumbers
        converter.definitions = (prefix, prefixLines, [])
        var blocks: [Block] = []
        var next = 0
        for segment in run {
            let part = Array(nodes[next..<(next + segment.nodes)])
            next += segment.nodes
            guard let placed = part.first(where: CmarkConverter.hasPosition),
                Int(cmark_node_get_start_line(placed)) + delta == segment.firstLine
            else { return nil }
            let made = converter.blocks(ofTopLevel: part)
            guard made.count == segment.blocks else { return nil }
            blocks += made
        }
        guard !converter.unresolvedFootnote, source.lines.outside?.happened != true else { return nil }
        return blocks
    }

    /// The top-level nodes of a window's tree (`root`, the prefix's lines then the window's,
    /// `lineDelta` added to give the file's) but footnote definitions: those at or after
    /// `firstLine`, each with the nodes without a position just before it (the paragraph
    /// cmark-gfm splits off above a table, ``CmarkConverter/hasPosition(_:)``).
    static func windowNodes(of root: OpaquePointer, lineDelta: Int, firstLine: Int) -> [OpaquePointer] {
        var nodes: [OpaquePointer] = []
        var unplaced: [OpaquePointer] = []
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            guard cmark_node_get_type(node) != CMARK_NODE_FOOTNOTE_DEFINITION else { continue }
            guard CmarkConverter.hasPosition(node) else {
                unplaced.append(node)
                continue
            }
            // A node before `firstLine` is the prefix's, parsed only for context.
            if Int(cmark_node_get_start_line(node)) + lineDelta >= firstLine { nodes += unplaced + [node] }
            unplaced = []
        }
        return nodes
    }

    /// The window's blocks from a parse of the whole document (what ``windowBlocks(_:)`` could
    /// not give). Call with the lock held.
    private func wholeDocumentBlocks(_ window: Window) -> [Block] {
        wholeDocumentParses += 1
        var source = source
        source.lines.buffer = buffer.bytes(in: 0..<buffer.count)  // not held again once set aside
        guard let tree = CmarkTree(source.lines.buffer) else { return [] }
        var nodes: [OpaquePointer] = []
        var child = cmark_node_first_child(tree.root)
        while let node = child {
            child = cmark_node_next(node)
            if cmark_node_get_type(node) != CMARK_NODE_FOOTNOTE_DEFINITION { nodes.append(node) }
        }
        var converter = CmarkConverter(file: file, source: source, mode: .replay)
        converter.definitions = (prefix, prefixLines, [])
        converter.learnTreeNoteNumbers(tree.root)
        converter.footnoteLabels = footnoteNumbers  // the scan's, notes in definitions placed
        var blocks: [Block] = []
        for segment in segments[window.segments] {
            let end = min(nodes.count, segment.firstNode + segment.nodes)
            guard segment.firstNode < end else { continue }
            blocks += converter.blocks(ofTopLevel: Array(nodes[segment.firstNode..<end]))
        }
        return blocks
    }

    /// Where a top-level node lies: its first and last line (1-based, of the text given to
    /// cmark-gfm), and whether it may hold a link reference definition (a paragraph, heading,
    /// table, quote or list).
    struct NodeLines: Equatable {
        var first: Int
        var last: Int
        var mayHoldDefinition: Bool
    }

    /// The top-level nodes of `root` but footnote definitions, their lines offset by `lineDelta`.
    static func nodeLines(of root: OpaquePointer, lineDelta: Int, lineCount: Int) -> [NodeLines] {
        var result: [NodeLines] = []
        var child = cmark_node_first_child(root)
        while let node = child {
            child = cmark_node_next(node)
            let type = cmark_node_get_type(node)
            guard type != CMARK_NODE_FOOTNOTE_DEFINITION else { continue }
            let start = Int(cmark_node_get_start_line(node))
            guard start >= 1, start + lineDelta <= lineCount else { continue }
            // (cmark-gfm may end an HTML block's range a line early, even before its start.)
            let end = min(max(start, Int(cmark_node_get_end_line(node))) + lineDelta, lineCount)
            let mayHold =
                type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING || type == CMARK_NODE_BLOCK_QUOTE
                || type == CMARK_NODE_LIST || type == typeset_node_table()
            result.append(
                NodeLines(first: start + lineDelta, last: max(start + lineDelta, end), mayHoldDefinition: mayHold))
        }
        return result
    }

    /// Lines `first...last` of `lines` (1-based) as cmark-gfm reads them: each with its line
    /// ending, the text's last line as written.
    static func text(_ lines: SourceLines, _ first: Int, _ last: Int) -> ArraySlice<UInt8> {
        let end = last < lines.count ? lines.ranges[last - 1].upperBound + 1 : lines.buffer.count
        return lines.buffer[lines.ranges[first - 1].lowerBound..<end]
    }

    /// Whether cmark-gfm counts the `\n` lines of `lines` (no lone carriage return).
    static func countsNewlines(_ lines: SourceLines) -> Bool {
        let buffer = lines.buffer
        for (i, b) in buffer.enumerated() where b == 0x0D && (i + 1 == buffer.count || buffer[i + 1] != 0x0A) {
            return false
        }
        return true
    }

    /// The top-level nodes of the whole text, from parses of chunks of about `chunkBytes` that
    /// each start where a node starts: every node of a chunk but its last is final (what
    /// follows a node never changes it once the next node has started), so the next chunk
    /// starts at the last node. nil when cmark-gfm cannot allocate a parser.
    ///
    /// `visit` is called with each final top-level node of a chunk's tree (footnote definitions
    /// included) and the chunk's line offset, in chunk order: what it reads of the node's block
    /// structure is what the whole text's tree has there.
    static func topLevelNodes(
        _ lines: SourceLines, chunkBytes: Int,
        visit: ((_ node: OpaquePointer, _ lineDelta: Int) -> Void)? = nil
    ) -> [NodeLines]? {
        var result: [NodeLines] = []
        var start = 1
        var size = max(chunkBytes, 1)
        func visitNodes(of root: OpaquePointer, before limit: Int) {
            guard let visit else { return }
            var child = cmark_node_first_child(root)
            while let node = child {
                child = cmark_node_next(node)
                if Int(cmark_node_get_start_line(node)) + start - 1 < limit { visit(node, start - 1) }
            }
        }
        while start <= lines.count {
            var end = start
            let base = lines.ranges[start - 1].lowerBound
            while end < lines.count, lines.ranges[end - 1].upperBound - base < size { end += 1 }
            guard let tree = CmarkTree(Array(text(lines, start, end))) else { return nil }
            let nodes = nodeLines(of: tree.root, lineDelta: start - 1, lineCount: lines.count)
            if end == lines.count {
                visitNodes(of: tree.root, before: Int.max)
                result += nodes
                break
            }
            if nodes.count >= 2 {
                visitNodes(of: tree.root, before: nodes.last!.first)
                result += nodes.dropLast()
                start = nodes.last!.first
                size = max(chunkBytes, 1)
            } else if nodes.isEmpty, (start...end).allSatisfy({ lines.ranges[$0 - 1].isEmpty || isBlank(lines, $0) }) {
                start = end + 1
            } else {
                size *= 2  // one node longer than the chunk: a longer chunk
            }
        }
        return result
    }

    private static func isBlank(_ lines: SourceLines, _ line: Int) -> Bool {
        lines.buffer[lines.ranges[line - 1]].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The scan without cmark-gfm's tree of the whole text: the top-level nodes from parses of
    /// bounded chunks, the definitions' prefix from them, then each window of nodes parsed after
    /// the prefix and fed to `converter`'s scan in order (``CmarkConverter/scan(_:)``). nil when
    /// a window's parse does not give the chunks' nodes, or cmark-gfm counts lines otherwise:
    /// the caller then scans the whole tree (with a new converter).
    ///
    /// Notes: the windows' references are numbered in document order
    /// (``CmarkConverter/numbersNotesInOrder``), then the notes cited are converted from one
    /// parse of the definitions alone, in number order, after every other node — as the whole
    /// text's parse gives them. nil (the whole tree decides) when a note cites another (the whole
    /// text's numbering then depends on where its definition stands) or a reference's label
    /// cannot be read back. `literalLines`, given when the text may hold notes (`[^`), gathers
    /// the line ranges of the code and HTML blocks scanned (for ``UnsetFootnotes``). Once
    /// `cancellation` is raised it stops before the next window (nil).
    static func scanInWindows(
        _ converter: inout CmarkConverter, lines: SourceLines, windowBytes: Int,
        literalLines: inout [ClosedRange<Int>]?, cancellation: Cancellation? = nil
    )
        -> (segments: [Segment], prefix: (bytes: [UInt8], lines: Int))?
    {
        guard countsNewlines(lines), let nodes = topLevelNodes(lines, chunkBytes: windowBytes) else { return nil }
        let runs = definitionRuns(nodes: nodes, lines: lines)
        let prefix = self.prefix(runs: runs, lines: lines)
        converter.definitions = (prefix.bytes, prefix.lines, runs)
        converter.convertsCitedNotesItself = true
        converter.numbersNotesInOrder = true
        func gatherLiteralLines(_ node: OpaquePointer, _ delta: Int) {
            guard literalLines != nil else { return }
            CmarkTree.forEachNode(under: node) { descendant in
                let type = cmark_node_get_type(descendant)
                guard type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_HTML_BLOCK else { return }
                let start = Int(cmark_node_get_start_line(descendant))
                let end = Int(cmark_node_get_end_line(descendant))
                if start > 0, end >= start { literalLines!.append((start + delta)...(end + delta)) }
            }
        }
        let target = max(windowBytes, 2 * prefix.bytes.count)
        var firstNode = 0
        while firstNode < nodes.count {
            if cancellation?.isCancelled == true { return nil }
            var lastNode = firstNode
            let base = lines.ranges[nodes[firstNode].first - 1].lowerBound
            while lastNode + 1 < nodes.count, lines.ranges[nodes[lastNode + 1].first - 1].lowerBound - base < target {
                lastNode += 1
            }
            let firstLine = nodes[firstNode].first
            let lastLine = lastNode + 1 < nodes.count ? nodes[lastNode + 1].first - 1 : lines.count
            guard let tree = CmarkTree(prefix.bytes + text(lines, firstLine, lastLine)) else { return nil }
            let delta = firstLine - prefix.lines - 1
            let found = windowNodes(of: tree.root, lineDelta: delta, firstLine: firstLine)
            let placed = found.filter(CmarkConverter.hasPosition)
            guard placed.count == lastNode - firstNode + 1,
                zip(placed, nodes[firstNode...lastNode]).allSatisfy({
                    Int(cmark_node_get_start_line($0.0)) + delta == $0.1.first
                })
            else { return nil }
            converter.lineDelta = delta
            for node in found {
                converter.scan(node)
                gatherLiteralLines(node, delta)
            }
            firstNode = lastNode + 1
        }
        guard !converter.unresolvedFootnote else { return nil }
        if literalLines != nil || !converter.footnoteNumbers.isEmpty {
            // The definitions alone, each cited once in number order: cmark-gfm moves them to
            // the end in that order, the uncited ones dropped, as in the whole text's tree. A
            // definition kept but not cited by the text (cited only in a note) and one citing
            // a note leave the numbering to the whole text.
            // Inline notes (`^[…]`) have no definition to parse.
            let written = converter.footnoteNumbers.filter { !InlineSyntax.InlineNote.isLabel($0.key) }
            let cited = written.sorted { $0.value < $1.value }.map { "[^\($0.key)]" }.joined()
            guard let tree = CmarkTree(prefix.bytes + Array((cited + "\n").utf8)) else { return nil }
            var runStarts: [Int] = []  // the prefix line each run starts at
            var line = 1
            for run in runs {
                runStarts.append(line)
                line += run.count + 1
            }
            var definitions = 0
            var child = cmark_node_first_child(tree.root)
            while let node = child {
                child = cmark_node_next(node)
                guard cmark_node_get_type(node) == CMARK_NODE_FOOTNOTE_DEFINITION else { continue }
                let start = Int(cmark_node_get_start_line(node))
                guard let run = runStarts.lastIndex(where: { $0 <= start }), start < runStarts[run] + runs[run].count
                else {
                    return nil
                }
                var citesANote = false
                CmarkTree.forEachNode(under: node) {
                    if cmark_node_get_type($0) == CMARK_NODE_FOOTNOTE_REFERENCE { citesANote = true }
                }
                guard !citesANote else { return nil }
                let delta = runs[run].lowerBound - runStarts[run]
                converter.lineDelta = delta
                converter.scan(node)
                gatherLiteralLines(node, delta)
                definitions += 1
            }
            guard definitions == written.count else { return nil }
        }
        converter.lineDelta = 0
        return (converter.finishScan(), prefix)
    }

    /// The definitions a window's parse starts with: every run of lines outside the top-level
    /// nodes that holds `]:` (link reference and footnote definitions: cmark-gfm makes no node of
    /// the first, and moves the second), and every top-level paragraph, heading, table, quote or
    /// list whose text holds `]:` (a definition inside it), in source order; each run followed
    /// by a blank line, the whole closed by an HTML comment at column 1 (which ends any container
    /// left open, so that the window's first line starts a block as in the document).
    static func prefix(nodes: [NodeLines], lines: SourceLines) -> (bytes: [UInt8], lines: Int) {
        prefix(runs: definitionRuns(nodes: nodes, lines: lines), lines: lines)
    }

    /// The runs of lines (1-based) ``prefix(nodes:lines:)`` is made of, in source order.
    static func definitionRuns(nodes: [NodeLines], lines: SourceLines) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []  // 1-based lines
        var covered = 0  // lines 1...covered are inside or before a node seen
        func holdsDefinition(_ range: ClosedRange<Int>) -> Bool {
            var previous: UInt8 = 0
            for b in text(lines, range.lowerBound, range.upperBound) {
                if previous == UInt8(ascii: "]"), b == UInt8(ascii: ":") { return true }
                previous = b
            }
            return false
        }
        for node in nodes {
            if node.first > covered + 1, holdsDefinition((covered + 1)...(node.first - 1)) {
                runs.append((covered + 1)...(node.first - 1))
            }
            if node.mayHoldDefinition, holdsDefinition(node.first...node.last) { runs.append(node.first...node.last) }
            covered = max(covered, node.last)
        }
        if covered < lines.count, holdsDefinition((covered + 1)...lines.count) {
            runs.append((covered + 1)...lines.count)
        }
        return runs
    }

    /// The prefix of `runs` (``definitionRuns(nodes:lines:)``): each run followed by a blank
    /// line, the whole closed by an HTML comment at column 1. Run `k` starts at prefix line
    /// 1 + Σ (length + 1) of the runs before it.
    static func prefix(runs: [ClosedRange<Int>], lines: SourceLines) -> (bytes: [UInt8], lines: Int) {
        var bytes: [UInt8] = []
        var count = 0
        for run in runs {
            bytes +=
                lines.buffer[lines.ranges[run.lowerBound - 1].lowerBound..<lines.ranges[run.upperBound - 1].upperBound]
            bytes += [0x0A, 0x0A]
            count += run.count + 1
        }
        bytes += Array("<!-- -->\n\n".utf8)
        count += 2
        return (bytes, count)
    }

    /// ``prefix(nodes:lines:)`` of a whole tree.
    static func prefix(root: OpaquePointer, lines: SourceLines) -> (bytes: [UInt8], lines: Int) {
        prefix(nodes: nodeLines(of: root, lineDelta: 0, lineCount: lines.count), lines: lines)
    }

    /// ``prefix(root:lines:)`` with the runs of source lines it is made of.
    static func definitions(root: OpaquePointer, lines: SourceLines) -> (
        bytes: [UInt8], lines: Int, runs: [ClosedRange<Int>]
    ) {
        let runs = definitionRuns(nodes: nodeLines(of: root, lineDelta: 0, lineCount: lines.count), lines: lines)
        let prefix = prefix(runs: runs, lines: lines)
        return (prefix.bytes, prefix.lines, runs)
    }

    /// The source line (1-based) of line `line` of a prefix made of `runs`
    /// (``prefix(runs:lines:)``); nil for the blank lines between runs and the closing comment.
    static func sourceLine(ofPrefixLine line: Int, runs: [ClosedRange<Int>]) -> Int? {
        var start = 1
        for run in runs {
            if line < start { return nil }
            if line < start + run.count { return run.lowerBound + line - start }
            start += run.count + 1
        }
        return nil
    }
}
