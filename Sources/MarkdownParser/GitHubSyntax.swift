import DocumentModel

/// GitHub's additions that cmark-gfm 0.29 leaves as text, recognised on converted blocks.
enum GitHubSyntax {
    /// The alert a quote's blocks make (GitHub Docs, "Basic writing and formatting syntax",
    /// Alerts): the first paragraph's first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
    /// `[!WARNING]` or `[!CAUTION]` (ASCII case ignored) and something follows it. Returns the
    /// kind and the blocks without that line; nil for any other quote.
    static func alert(_ blocks: [Block]) -> (AlertKind, [Block])? {
        guard case .paragraph(let inlines)? = blocks.first?.kind else { return nil }
        var lineEnd = inlines.firstIndex { $0 == .softBreak || $0 == .lineBreak } ?? inlines.endIndex
        guard lineEnd > 0 else { return nil }
        var marker = ""
        for inline in inlines[..<lineEnd] {
            guard case .text(let text) = inline else { return nil }
            marker += text
        }
        guard let kind = AlertKind(marker: marker.trimmingSpaces) else { return nil }
        if lineEnd < inlines.endIndex { lineEnd += 1 }
        var rest = Array(blocks.dropFirst())
        if lineEnd < inlines.endIndex {
            var first = blocks[0]
            first.kind = .paragraph(Array(inlines[lineEnd...]))
            rest.insert(first, at: 0)
        }
        return rest.isEmpty ? nil : (kind, rest)
    }

    /// The task an item's blocks open with, as GitHub reads a task list item: `[ ]`, `[x]` or
    /// `[X]` at the start of its first paragraph, then white space or the paragraph's end.
    /// Returns whether it is checked and the blocks without the box (a paragraph of the box
    /// alone is dropped); nil for any other item. cmark-gfm's tasklist extension finds most of
    /// these itself, but not a box alone (it wants text after it) nor an item inside a block
    /// quote (`> - [ ] open`), which GitHub draws with a box too.
    static func task(_ blocks: [Block]) -> (checked: Bool, blocks: [Block])? {
        guard let first = blocks.first, case .paragraph(var inlines) = first.kind, case .text(let text)? = inlines.first
        else { return nil }
        let checked: Bool
        switch text.prefix(3) {
        case "[ ]": checked = false
        case "[x]", "[X]": checked = true
        default: return nil
        }
        let after = text.dropFirst(3)
        if let space = after.first {
            guard space == " " || space == "\t" else { return nil }
            let rest = after.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { inlines.removeFirst() } else { inlines[0] = .text(String(rest)) }
        } else {
            guard inlines.count == 1 || [.softBreak, .lineBreak].contains(inlines[1]) else { return nil }
            inlines.removeFirst(min(2, inlines.count))
        }
        var rest = Array(blocks.dropFirst())
        if !inlines.isEmpty {
            var paragraph = first
            paragraph.kind = .paragraph(inlines)
            rest.insert(paragraph, at: 0)
        }
        return (checked, rest)
    }
}
