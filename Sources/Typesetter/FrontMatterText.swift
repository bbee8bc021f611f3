import DocumentModel
import MarkdownParser
import Styling
import Typography

/// A front matter value set as text — `title`, `subtitle`, `author`, `date`, `abstract` — read
/// as Markdown inline text, as Pandoc reads metadata values: `title: A *styled* title` is set
/// with its emphasis in the title block, and the PDF's metadata and a running head take its
/// plain text ("A styled title"; a formula as its symbols, `$\alpha$` α; a note `^[…]` not at
/// all, as Pandoc's `stringify` drops notes). A value that does not read as one paragraph
/// (`# Title`, `1. Intro`) is text as written.
enum FrontMatterText {
    /// A value read as one Markdown paragraph.
    struct Reading {
        /// The paragraph's inlines; its notes are numbered from 1 in the order they are written.
        var inlines: [Inline]
        /// The notes `^[…]` the value holds, by number (a note inside a note included).
        var notes: [Int: [Block]]
        /// What the value's note syntax cannot set: a reference `[^label]`, which names a
        /// definition no front matter value holds, and an unclosed `^[`.
        var noteProblems: [String]
    }

    /// The value read as one Markdown paragraph, with its notes; nil when it does not read as
    /// one. `smart`: the document's smart punctuation setting (front matter `smart`).
    static func reading(_ value: String, smart: Bool) -> Reading? {
        let text = (smart ? "" : "---\nsmart: false\n---\n") + value
        let parsed = MarkdownParser.parse(text, file: "front matter")
        let document = parsed.document
        guard document.blocks.count == 1, case .paragraph(let inlines) = document.blocks[0].kind else { return nil }
        let problems = parsed.diagnostics.filter { $0.kind == .footnote }.map { diagnostic in
            // "footnote reference '[^t]' has no definition; …": the body's definitions are the
            // body's, so the words say what a front matter value can hold instead.
            let message = diagnostic.message
            let prefix = "footnote reference '"
            guard message.hasPrefix(prefix), let end = message.range(of: "' has no definition") else { return message }
            let label = message[..<end.lowerBound].dropFirst(prefix.count)
            return "'\(label)' cites a note by its label, which front matter cannot (the body's notes are the body's); "
                + "set as text: write the note inline, ^[…]"
        }
        return Reading(inlines: inlines, notes: document.footnotes, noteProblems: problems)
    }

    /// The value's inlines when it reads as one Markdown paragraph; nil otherwise.
    static func inlines(_ value: String, smart: Bool) -> [Inline]? {
        reading(value, smart: smart)?.inlines
    }

    /// The value's plain text: its inlines' text (its notes left out), or the value as written.
    static func plain(_ value: String, smart: Bool) -> String {
        inlines(value, smart: smart).map(Styler.readableText) ?? value
    }

    /// The number of notes `value` sets (0 when it holds neither `^[` nor `[^`, without
    /// reading it).
    static func noteCount(_ value: String, smart: Bool) -> Int {
        guard value.contains("^[") || value.contains("[^") else { return 0 }
        return reading(value, smart: smart)?.notes.keys.max() ?? 0
    }

    /// The value as one paragraph in `role`'s face, every run in `color` but links: its
    /// emphasis, strong text, code and links styled as the document's text is (``Styler``),
    /// and its notes set as the document's footnotes are, numbered from `firstNote`, each
    /// placed at `location` (where the value is written). Nil when the value is not one
    /// paragraph.
    static func block(
        _ reading: Reading, firstNote: Int, location: SourceLocation?, role: TextRole, color: RGBAColor,
        theme: Theme
    ) -> StyledBlock? {
        let offset = firstNote - 1
        let renumber: (Inline) -> Inline = { inline in
            guard case .footnoteReference(let label, let number) = inline else { return inline }
            return .footnoteReference(label: label, number: number + offset)
        }
        let inlines = reading.inlines.map { BookRewrite.inline($0, renumber) }
        var notes: [Int: [Block]] = [:]
        for (number, blocks) in reading.notes {
            notes[number + offset] = blocks.map { block in
                var block = BookRewrite.block(block, visit: { _ in }, inline: renumber)
                block.location = location
                return block
            }
        }
        var attributes = Attributes()
        attributes.classes = [role.rawValue.lowercased()]
        let document = Document(
            blocks: [Block(.div([Block(.paragraph(inlines))]), attributes: attributes)], footnotes: notes)
        for styled in Styler.style(document, theme: theme).blocks {
            guard case .paragraph(var paragraph) = styled.content else { continue }
            for i in paragraph.runs.indices where paragraph.runs[i].style.link == nil {
                paragraph.runs[i].style.color = color
            }
            var block = StyledBlock(.paragraph(paragraph))
            if !notes.isEmpty {
                block.footnotes = styled.footnotes
                block.footnoteLocations = styled.footnoteLocations
            }
            return block
        }
        return nil
    }
}
