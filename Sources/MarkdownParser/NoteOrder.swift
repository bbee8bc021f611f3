extension CmarkConverter {
    /// The labels of the notes that are set: those cited in the text, and those cmark-gfm's
    /// tree keeps because a note cites them (a note cited only in its own text included).
    var citedLabels: Set<String> { Set(footnoteNumbers.keys).union(treeNoteNumbers.keys) }

    /// Puts the notes cited inside definitions' indented blocks in their places when cmark-gfm's
    /// tree numbered the others (a note cites another: ``learnTreeNoteNumbers(_:)``). cmark-gfm
    /// reads a definition's indented blocks as code, so its numbers leave their notes out, and
    /// ``numberOfNestedNote(_:at:)`` gave them numbers past the tree's, as it gives inline notes
    /// theirs. Every note is numbered again by the place (line, then column) of its first
    /// reference in the file — in running text, in a note's definition (where it is written), in
    /// a definition's blocks or inline — the tree's order kept among references at one place
    /// (a definition's blocks give a line only); ``footnoteNumbers`` and the notes' own references take the
    /// new numbers. Returns each old number's new one, for the blocks already converted; nil when
    /// nothing changes.
    mutating func finishNoteNumbers() -> [Int: Int]? {
        guard !numbersNotesInOrder, footnoteLabels == nil, !nestedNoteFirstPlaces.isEmpty else { return nil }
        func firstPlace(_ key: String, _ number: Int) -> NotePlace {
            let inTree = treeNoteNumbers[key].flatMap { treeNoteFirstPlaces[$0] } ?? treeNoteFirstPlaces[number]
            return min(inTree ?? .unknown, nestedNoteFirstPlaces[key] ?? .unknown)
        }
        let ordered = footnoteNumbers.sorted { first, second in
            let places = (firstPlace(first.key, first.value), firstPlace(second.key, second.value))
            return places.0 != places.1 ? places.0 < places.1 : first.value < second.value
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

/// Where a note reference is written, for numbering notes in the order they are cited:
/// line, then column (1-based; `Int.max` when only the line is known, after the line's others).
struct NotePlace: Comparable {
    var line: Int
    var column: Int
    /// After every place in the file.
    static let unknown = NotePlace(line: .max, column: .max)

    static func < (first: NotePlace, second: NotePlace) -> Bool {
        (first.line, first.column) < (second.line, second.column)
    }
}
