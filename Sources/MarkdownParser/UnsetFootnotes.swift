internal import CCmarkGFM
import DocumentModel

/// Footnote definitions that are never set, each named in a warning instead of lost in
/// silence:
///
/// - a definition no marker cites: cmark-gfm removes it from its tree (as Pandoc drops an
///   uncited note: a note is set where a marker cites it, and a definition alone has no such
///   place);
/// - a second definition of a label already defined: a label names one note, and cmark-gfm
///   keeps the first definition (CommonMark's rule for link reference definitions, which GFM
///   footnotes follow);
/// - a line that would be a definition but for a space or tab in its label (`[^my note]:`),
///   which cmark-gfm, as GitHub, reads as text or a link reference definition (its note
///   definition scanner takes no blank in a label).
enum UnsetFootnotes {
    /// One warning per `[^label]:` definition in `lines` (cmark-gfm's input, one entry per
    /// source line) whose label is not in `cited` (labels normalised as
    /// ``CmarkConverter/normalizedLabel(_:)``) or was defined on an earlier line, at the
    /// definition's `[` (1-based line, UTF-8 byte column), in line order. Lines inside code and
    /// HTML blocks of `root` (cmark-gfm's tree of the same lines) are text, not definitions. A
    /// definition may follow indentation and block quote and list item markers
    /// (``containerPrefixEnd(_:from:to:)``).
    static func diagnostics(
        root: OpaquePointer, lines: SourceLines, cited: Set<String>, file: String, frontMatter: String? = nil
    ) -> [Diagnostic] {
        diagnostics(
            literalLines: { literalLines(root) }, lines: lines, cited: cited, file: file, frontMatter: frontMatter)
    }

    /// ``diagnostics(root:lines:cited:file:)`` with the code and HTML blocks' line ranges given
    /// (read only when a line looks like a definition).
    ///
    /// A note the text never cites but `frontMatter` (the front matter's text) does
    /// (`title: "A[^t]"`) is said to be so: front matter values are read as inline text, where
    /// a note has no page foot to go to, and the marker stays as written, as Pandoc leaves it.
    static func diagnostics(
        literalLines: () -> [ClosedRange<Int>], lines: SourceLines, cited: Set<String>, file: String,
        frontMatter: String? = nil
    ) -> [Diagnostic] {
        var candidates: [(label: String, line: Int, column: Int)] = []
        let bytes = lines.buffer
        for index in 0..<lines.count {
            let range = lines.ranges[index]
            let labelStart = containerPrefixEnd(bytes, from: range.lowerBound, to: range.upperBound)
            guard labelStart + 2 < range.upperBound, bytes[labelStart] == UInt8(ascii: "["),
                bytes[labelStart + 1] == UInt8(ascii: "^")
            else {
                continue
            }
            var labelEnd = labelStart + 2
            while labelEnd < range.upperBound, bytes[labelEnd] != UInt8(ascii: "]") { labelEnd += 1 }
            guard labelEnd > labelStart + 2, labelEnd + 1 < range.upperBound, bytes[labelEnd + 1] == UInt8(ascii: ":")
            else { continue }
            candidates.append(
                (
                    String(decoding: bytes[(labelStart + 2)..<labelEnd], as: UTF8.self), index + 1,
                    labelStart - range.lowerBound + 1
                ))
        }
        guard !candidates.isEmpty else { return [] }
        // The code and HTML blocks' lines as sorted, disjoint ranges, searched by halves: a div's
        // fences are HTML blocks, thousands in a long document.
        var literal: [ClosedRange<Int>] = []
        for range in literalLines().sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = literal.last, range.lowerBound <= last.upperBound + 1 {
                literal[literal.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                literal.append(range)
            }
        }
        func isLiteral(_ line: Int) -> Bool {
            var low = 0
            var high = literal.count
            while low < high {
                let mid = (low + high) / 2
                if literal[mid].upperBound < line { low = mid + 1 } else { high = mid }
            }
            return low < literal.count && literal[low].contains(line)
        }
        var firstLine: [String: Int] = [:]
        var result: [Diagnostic] = []
        for candidate in candidates where !isLiteral(candidate.line) {
            let label = CmarkConverter.normalizedLabel(candidate.label)
            let at = SourceLocation(file: file, line: candidate.line, column: candidate.column)
            if candidate.label.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
                let joined = candidate.label.split(whereSeparator: \.isWhitespace).joined(separator: "-")
                result.append(
                    Diagnostic(
                        .warning,
                        "footnote label [^\(candidate.label)] holds a space, which a label cannot, so this line "
                            + "defines no note: CommonMark reads it as text or a link definition (write [^\(joined)])",
                        at: at, kind: .footnote))
            } else if let first = firstLine[label] {
                result.append(
                    Diagnostic(
                        .warning,
                        "footnote [^\(candidate.label)] is defined again: only its first definition (line \(first)) "
                            + "is set (a label names one note)",
                        at: at, kind: .footnote))
            } else {
                firstLine[label] = candidate.line
                if !cited.contains(label) {
                    let marker = "[^\(candidate.label)]"
                    let message =
                        frontMatter?.contains(marker) == true
                        ? "footnote \(marker) is cited only in the front matter, whose values set no notes (the "
                            + "marker is printed as written), so it is not set: cite it in the text"
                        : "footnote \(marker) is never cited, so it is not set (a note is set where a marker "
                            + "\(marker) cites it)"
                    result.append(Diagnostic(.warning, message, at: at, kind: .footnote))
                }
            }
        }
        return result
    }

    /// Where a line's text starts after the markers of the containers it opens or continues
    /// (CommonMark §5): indentation, block quote markers (`>`) and list item markers (`-`, `+`
    /// or `*`, or one to nine digits and `.` or `)`, each followed by a space or tab), in any
    /// order and number. A note may be defined inside a list item as at the top level.
    static func containerPrefixEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        func isBlank(_ index: Int) -> Bool { index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) }
        var index = start
        while index < end {
            let byte = bytes[index]
            if isBlank(index) || byte == UInt8(ascii: ">") {
                index += 1
            } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "*"),
                isBlank(index + 1)
            {
                index += 2
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var after = index
                while after < end, after - index < 9, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[after]) {
                    after += 1
                }
                guard after < end, bytes[after] == UInt8(ascii: ".") || bytes[after] == UInt8(ascii: ")"),
                    isBlank(after + 1)
                else { break }
                index = after + 2
            } else {
                break
            }
        }
        return index
    }

    /// The line ranges of the code blocks and HTML blocks under `root`.
    private static func literalLines(_ root: OpaquePointer) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        CmarkTree.forEachNode(under: root) { node in
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_CODE_BLOCK || type == CMARK_NODE_HTML_BLOCK else { return }
            let start = Int(cmark_node_get_start_line(node))
            let end = Int(cmark_node_get_end_line(node))
            if start > 0, end >= start { result.append(start...end) }
        }
        return result
    }
}
