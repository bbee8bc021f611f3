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

    /// Whether a list item whose only content is `[ ]`, `[x]` or `[X]` is a task with no text:
    /// cmark-gfm's tasklist extension wants text after the box, GitHub draws the box alone.
    /// true for checked, false for unchecked, nil for any other item.
    static func emptyTask(_ blocks: [Block]) -> Bool? {
        guard blocks.count == 1, case .paragraph(let inlines) = blocks[0].kind, inlines.count == 1,
            case .text(let text) = inlines[0]
        else { return nil }
        switch text.trimmingSpaces {
        case "[ ]": return false
        case "[x]", "[X]": return true
        default: return nil
        }
    }
}
