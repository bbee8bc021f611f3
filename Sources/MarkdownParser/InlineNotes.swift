import DocumentModel

extension CmarkConverter {
    /// Takes what one nesting level's conversion found beside its inlines: warns at each `^[`
    /// left unclosed, each footnote reference and each reference link whose label names no
    /// definition, and each raw LaTeX command no style stands for (all stay text), and each raw
    /// inline of a format Typeset does not read (left out),
    /// numbers the inline notes `^[…]` (Pandoc manual, "Extension: inline_notes") and keeps
    /// each for its block (``pendingInlineNotes``). A note's number comes as a written
    /// reference's does (``numberOfNestedNote(_:at:)``): by its label from the scan in a
    /// window, by where it is cited when cmark-gfm's tree numbers the notes.
    mutating func takeFound(_ finished: InlineSyntax.Finished, _ inlines: [Inline]) -> [Inline] {
        if mode != .replay {
            for place in finished.found.unclosedNotes {
                diagnostics.append(
                    Diagnostic(
                        .warning, "'^[' opens a Pandoc inline note with no closing ']'; set as text", at: place,
                        kind: .footnote))
            }
            for note in finished.found.undefinedNotes {
                let shown = note.written.count > 60 ? note.written.prefix(60) + "…" : note.written
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        "footnote reference '\(shown)' has no definition; set as text (a definition is written "
                            + "'\(shown): …')",
                        at: note.location, kind: .footnote))
            }
            for command in finished.found.latexCommands {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        "raw LaTeX '\\\(command.name){…}' is set as written (Typeset reads LaTeX in formulas, "
                            + "\\newpage and the text commands \\emph, \\textbf, \\texttt and their kin)",
                        at: command.location, kind: .content))
            }
            for raw in finished.found.rawFormats {
                diagnostics.append(Self.rawFormatLeftOut(raw.format, block: false, at: raw.location))
            }
            for reference in finished.found.unresolvedReferences {
                let shown = reference.written.count > 60 ? reference.written.prefix(60) + "…" : reference.written
                diagnostics.append(
                    Diagnostic(
                        .warning, "reference link '\(shown)' names no definition ([label]: URL); set as text",
                        at: reference.location, kind: .link))
            }
        }
        guard !finished.found.notes.isEmpty else { return inlines }
        var numbers: [String: Int] = [:]
        for note in finished.found.notes {
            numbers[note.label] = numberOfNestedNote(
                note.label, at: note.location.map { NotePlace(line: $0.line, column: $0.column) })
        }
        let number: (String, Int) -> Int = { label, number in numbers[label] ?? number }
        for var note in finished.found.notes {
            // Its raw HTML paired in its own text (`^[<kbd>K</kbd>]`), and a note in a note.
            note.content = PandocDefinitions.renumberingNotes(html.nest(note.content), number)
            pendingInlineNotes.append(note)
        }
        return PandocDefinitions.renumberingNotes(inlines, number)
    }

    /// The outermost inlines of a block once its inline notes are numbered: when the notes are
    /// numbered in document order, every number given while the block was converted (past
    /// `numberedBefore`) is given again in reading order — a written reference is numbered as
    /// cmark-gfm's node is met, an inline note only when its `]` closes, so `A[^a] B^[n] C[^b]`
    /// numbers a, the note, b as Pandoc does. A note's own references follow its reference.
    /// The block's notes then join the definitions (one paragraph each), but for a window's
    /// replay, whose notes the scan kept.
    mutating func numberInlineNotes(_ inlines: [Inline], numberedBefore: Int) -> [Inline] {
        var notes = pendingInlineNotes
        pendingInlineNotes = []
        var result = inlines
        if numbersNotesInOrder, footnoteLabels == nil, footnoteNumbers.count > numberedBefore {
            let contents = Dictionary(notes.map { ($0.label, $0.content) }, uniquingKeysWith: { first, _ in first })
            var renumbered: [Int: Int] = [:]
            // The label each new number is cited by, to give it its new number.
            var labels: [Int: String] = [:]
            func visit(_ inlines: [Inline]) {
                for inline in inlines {
                    switch inline {
                    case .footnoteReference(let label, let number):
                        if number > numberedBefore, renumbered[number] == nil {
                            renumbered[number] = numberedBefore + renumbered.count + 1
                            labels[number] = Self.normalizedLabel(label)
                            if let content = contents[label] { visit(content) }
                        }
                    case .emphasis(let children), .strong(let children), .strikethrough(let children),
                        .link(_, _, let children), .span(_, let children), .presentation(_, let children):
                        visit(children)
                    case .image(_, _, let alt, _): visit(alt)
                    default: break
                    }
                }
            }
            visit(inlines)
            if renumbered.count < footnoteNumbers.count - numberedBefore {
                // Numbers given where the walk does not look keep their order after the rest.
                let rest = footnoteNumbers.filter { $0.value > numberedBefore && renumbered[$0.value] == nil }
                for (key, number) in rest.sorted(by: { $0.value < $1.value }) {
                    renumbered[number] = numberedBefore + renumbered.count + 1
                    labels[number] = key
                }
            }
            if renumbered.contains(where: { $0.key != $0.value }) {
                for (number, key) in labels { footnoteNumbers[key] = renumbered[number] }
                let renumber: (String, Int) -> Int = { renumbered[$1] ?? $1 }
                result = PandocDefinitions.renumberingNotes(inlines, renumber)
                for index in notes.indices {
                    notes[index].content = PandocDefinitions.renumberingNotes(notes[index].content, renumber)
                }
            }
        }
        guard mode != .replay else { return result }
        for note in notes {
            footnoteDefinitions.append((note.label, [Block(.paragraph(note.content), location: note.location)]))
        }
        return result
    }
}
