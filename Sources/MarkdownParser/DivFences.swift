internal import CCmarkGFM
import DocumentModel

/// Decides which fence-like lines are Pandoc fenced-div fences (Pandoc manual, "Extension:
/// fenced_divs"), using cmark-gfm's own block structure rather than a guess.
///
/// Pandoc's rules, as `pandoc -f markdown` applies them: an opening fence (`::: note`,
/// `::: {.note}`) opens a div only where a block can start — never on a paragraph's (or
/// table's) continuation line, nor inside code or an HTML block — and only when a closing fence
/// (`:::`) follows; a closing fence closes only an open div (it may end the paragraph before
/// it). Every other fence-like line stays text, with a warning.
///
/// The structure comes from parsing: first the text as written, then with the accepted fences
/// replaced by markers (a line after a fence starts a new block, which can change what follows),
/// until the decision no longer changes — at most three parses.
struct DivFences {
    /// What a parse says about each line (0-based index), for the lines that matter.
    struct LineInfo {
        /// Candidate lines (``SourceText/candidates``) inside a paragraph or table after its first line.
        var continuation: Set<Int> = []
        /// Last lines of paragraphs and tables that a candidate line follows.
        var paragraphEnds: Set<Int> = []
        /// Candidate lines inside code blocks and HTML blocks other than fence markers.
        var verbatim: Set<Int> = []
    }

    /// Decides the fences of `source` and prepares it with them (``SourceText/prepare(accepting:)``):
    /// `lineInfo` reads the structure of the text as prepared so far; the decision is made again
    /// on the text it gives until it no longer changes, at most three times. Returns the warnings
    /// for the candidates that stay text; nil when `lineInfo` gives nil (no parser).
    static func settle(_ source: inout SourceText, lineInfo: (SourceText) -> LineInfo?) -> [Diagnostic]? {
        var accepted: Set<Int> = []
        var warnings: [Diagnostic] = []
        for _ in 0..<3 {
            guard let info = lineInfo(source) else { return nil }
            let decision = decide(source.candidates, info: info, current: accepted)
            warnings = decision.1
            if decision.0 == accepted { break }
            accepted = decision.0
            source.prepare(accepting: accepted)
        }
        return warnings
    }

    /// Walks a parsed tree (of `source.cmarkInput`) and records ``LineInfo``.
    static func lineInfo(_ root: OpaquePointer, source: SourceText) -> LineInfo {
        var info = LineInfo()
        add(root, lineDelta: 0, source: source, to: &info)
        return info
    }

    /// Walks the nodes of a chunk's tree in parses of chunks
    /// (``SourceWindows/topLevelNodes(_:chunkBytes:visit:)``) and records ``LineInfo``; with
    /// the final nodes of every chunk, ``decide(_:info:current:)`` takes what it takes from
    /// the whole text's tree, without that tree.
    static func lineInfoInChunks(source: SourceText, chunkBytes: Int) -> LineInfo? {
        var info = LineInfo()
        let nodes = SourceWindows.topLevelNodes(source.lines, chunkBytes: chunkBytes) { node, delta in
            add(node, lineDelta: delta, source: source, to: &info)
        }
        return nodes == nil ? nil : info
    }

    /// Records what the nodes under `root` (`root` included) say about candidate lines, their
    /// lines offset by `lineDelta`.
    private static func add(_ root: OpaquePointer, lineDelta: Int, source: SourceText, to info: inout LineInfo) {
        CmarkTree.forEachNode(under: root) { node in
            let type = cmark_node_get_type(node)
            // (A node without a position, as some inline nodes, has line 0.)
            let start = Int(cmark_node_get_start_line(node))
            let end = Int(cmark_node_get_end_line(node))
            guard start >= 1, end >= start else { return }
            let first = start - 1 + lineDelta
            let last = end - 1 + lineDelta
            // Only candidate lines are ever looked up (and the line before one, for
            // `paragraphEnds`): a set of every line of every paragraph and code block was
            // 2 to 3 bytes per source byte.
            func candidates(_ lines: ClosedRange<Int>) -> ArraySlice<Int> { source.candidates.keys(in: lines) }
            if type == CMARK_NODE_PARAGRAPH || type == typeset_node_table() {
                if last > first { info.continuation.formUnion(candidates((first + 1)...last)) }
                if source.candidates[last + 1] != nil { info.paragraphEnds.insert(last) }
            } else if type == CMARK_NODE_CODE_BLOCK {
                info.verbatim.formUnion(candidates(first...last))
            } else if type == CMARK_NODE_HTML_BLOCK {
                let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                if source.markerNumber(in: literal) == nil { info.verbatim.formUnion(candidates(first...last)) }
            }
        }
    }

    /// The candidate lines that are fences, given what the last parse (with `current` accepted)
    /// says; and the warnings for the candidates that stay text.
    static func decide(_ candidates: SortedTable<DivFence>, info: LineInfo, current: Set<Int>) -> (
        Set<Int>, [Diagnostic]
    ) {
        var accepted: Set<Int> = []
        var open: [Int] = []
        var warnings: [Diagnostic] = []
        var previousFence = -2
        for (line, fence) in candidates.entries {
            guard !info.verbatim.contains(line) else { continue }
            switch fence.kind {
            case .open:
                // A marker line is its own block in the parse: ask whether the line before it
                // would have continued a paragraph instead.
                let continues =
                    current.contains(line)
                    ? info.paragraphEnds.contains(line - 1) && !current.contains(line - 1)
                    : info.continuation.contains(line)
                if !continues || previousFence == line - 1 {
                    open.append(line)
                    previousFence = line
                } else {
                    warnings.append(
                        Diagnostic(
                            .warning,
                            "'\(fence.original)' continues a paragraph: text, not a div fence (a div starts where a "
                                + "block can)",
                            at: fence.location, kind: .structure))
                }
            case .close:
                if let opener = open.popLast() {
                    accepted.insert(opener)
                    accepted.insert(line)
                    previousFence = line
                } else {
                    warnings.append(
                        Diagnostic(
                            .warning, "'\(fence.original)' closes no open div; kept as text", at: fence.location,
                            kind: .structure))
                }
            }
        }
        for line in open {
            if let fence = candidates[line] {
                warnings.append(
                    Diagnostic(
                        .warning, "div fence '\(fence.original)' is never closed; kept as text", at: fence.location,
                        kind: .structure))
            }
        }
        warnings.sort { ($0.location?.line ?? 0) < ($1.location?.line ?? 0) }
        return (accepted, warnings)
    }
}
