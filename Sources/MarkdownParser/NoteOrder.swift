extension CmarkConverter {
    /// Puts the notes cited inside definitions' indented blocks in their places when cmark-gfm's
    /// tree numbered the others (a note cites another: ``learnTreeNoteNumbers(_:)``). cmark-gfm
    /// reads a definition's indented blocks as code, so its numbers leave their notes out, and
    /// ``numberOfNestedNote(_:line:)`` gave them numbers past the tree's. Every note is numbered
    /// again by the line of its first reference in the file — in running text, in a note's
    /// definition (where it is written) or in a definition's blocks — the tree's order kept
    /// among references on one line; ``footnoteNumbers`` and the notes' own references take the
    /// new numbers. Returns each old number's new one, for the blocks already converted; nil when
    /// nothing changes.
    mutating func finishNoteNumbers() -> [Int: Int]? {
        guard !numbersNotesInOrder, footnoteLabels == nil, !nestedNoteFirstLines.isEmpty else { return nil }
        func firstLine(_ key: String, _ number: Int) -> Int {
            let inTree = treeNoteNumbers[key].flatMap { treeNoteFirstLines[$0] } ?? treeNoteFirstLines[number]
            return min(inTree ?? Int.max, nestedNoteFirstLines[key] ?? Int.max)
        }
        let ordered = footnoteNumbers.sorted { first, second in
            let lines = (firstLine(first.key, first.value), firstLine(second.key, second.value))
            return lines.0 != lines.1 ? lines.0 < lines.1 : first.value < second.value
        }
        var renumbered: [Int: Int] = [:]
        for (index, entry) in ordered.enumerated() {
            renumbered[entry.value] = index + 1
            footnoteNumbers[entry.key] = index + 1
        }
        guard renumbered.contains(where: { $0.key != $0.value }) else { return nil }
        footnoteDefinitions = footnoteDefinitions.map { definition in
            (definition.label, PandocDefinitions.renumberingNotes(definition.blocks) { renumbered[$1] ?? $1 })
        }
        return renumbered
    }
}
