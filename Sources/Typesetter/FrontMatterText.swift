import DocumentModel
import MarkdownParser
import Styling
import Typography

/// A front matter value set as text — `title`, `subtitle`, `author`, `date`, `abstract` — read
/// as Markdown, as Pandoc reads metadata values: `title: A *styled* title` is set with its
/// emphasis in the title block, and the PDF's metadata and a running head take its plain text
/// ("A styled title"; a formula as its symbols, `$\alpha$` α; a note `^[…]` not at all, as
/// Pandoc's `stringify` drops notes). A one-line value that does not read as one paragraph
/// (`# Title`, `1. Intro`) is text as written; the abstract is read as blocks (paragraphs,
/// lists, quotes, code, tables), as Pandoc reads it.
enum FrontMatterText {
    /// How the document reads its text, which its front matter values are read with too:
    /// smart punctuation and TeX math, each on unless the front matter (or `-V`) turns it off
    /// (`smart: false`, `math: false`: a title of prices keeps its dollars).
    struct Conventions: Hashable {
        /// Smart punctuation (`smart`).
        var smart: Bool
        /// TeX math between dollars (`math`).
        var math: Bool

        /// The conventions `metadata` sets.
        init(_ metadata: Metadata) {
            smart = MarkdownParser.smartPunctuation(metadata)
            math = MarkdownParser.mathEnabled(metadata)
        }

        /// The front matter written before a value to read it so, empty when both are on.
        var prelude: String {
            guard !smart || !math else { return "" }
            return "---\n" + (smart ? "" : "smart: false\n") + (math ? "" : "math: false\n") + "---\n"
        }

        /// The lines of ``prelude``.
        var preludeLines: Int { prelude.count { $0 == "\n" } }
    }

    /// A value read as Markdown.
    struct Reading {
        /// The value's blocks; its notes are numbered from 1 in the order they are written.
        var blocks: [Block]
        /// The notes `^[…]` the value holds, by number (a note inside a note included).
        var notes: [Int: [Block]]
        /// What the value's note syntax cannot set: a reference `[^label]`, which names a
        /// definition no front matter value holds, and an unclosed `^[`.
        var noteProblems: [String]

        /// The inlines of a value that reads as one paragraph; nil for any other.
        var inlines: [Inline]? {
            guard blocks.count == 1, case .paragraph(let inlines) = blocks[0].kind else { return nil }
            return inlines
        }
    }

    /// The value read as one Markdown paragraph, with its notes; nil when it does not read as
    /// one. `conventions`: the document's smart punctuation and math settings.
    static func reading(_ value: String, conventions: Conventions) -> Reading? {
        let reading = blocksReading(value, conventions: conventions)
        return reading.inlines == nil ? nil : reading
    }

    /// The value read as Markdown blocks, with its notes.
    static func blocksReading(_ value: String, conventions: Conventions) -> Reading {
        let text = conventions.prelude + value
        let parsed = MarkdownParser.parse(text, file: readingFile)
        let document = parsed.document
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
        return Reading(blocks: Array(document.blocks), notes: document.footnotes, noteProblems: problems)
    }

    /// The value's inlines when it reads as one Markdown paragraph; nil otherwise.
    static func inlines(_ value: String, conventions: Conventions) -> [Inline]? {
        reading(value, conventions: conventions)?.inlines
    }

    /// The value's plain text: its inlines' text (its notes left out), or the value as written.
    static func plain(_ value: String, conventions: Conventions) -> String {
        inlines(value, conventions: conventions).map(Styler.readableText) ?? value
    }

    /// The number of notes `value` sets (0 when it holds neither `^[` nor `[^`, without
    /// reading it), read as one paragraph or, `asBlocks`, as blocks.
    static func noteCount(_ value: String, conventions: Conventions, asBlocks: Bool = false) -> Int {
        guard value.contains("^[") || value.contains("[^") else { return 0 }
        let reading =
            asBlocks ? blocksReading(value, conventions: conventions) : reading(value, conventions: conventions)
        return reading?.notes.keys.max() ?? 0
    }

    /// The value as one paragraph in `role`'s face, every run in `color` but links: its
    /// emphasis, strong text, code and links styled as the document's text is (``Styler``),
    /// and its notes set as the document's footnotes are, numbered from `firstNote`, each
    /// placed at `location` (where the value is written), styled with `options` (the
    /// document's: its pictures read from its folder), with what styling warned of (as
    /// ``styledBlocks(_:firstNote:location:role:theme:options:)`` gives it). Nil when the value
    /// is not one paragraph.
    static func block(
        _ reading: Reading, firstNote: Int, location: SourceLocation?, role: TextRole, color: RGBAColor,
        theme: Theme, options: StylingOptions
    ) -> (block: StyledBlock, problems: [Diagnostic])? {
        guard reading.inlines != nil else { return nil }
        let (blocks, problems) = styledBlocks(
            reading, firstNote: firstNote, location: location, role: role, theme: theme, options: options)
        for styled in blocks {
            guard case .paragraph(var paragraph) = styled.content else { continue }
            for i in paragraph.runs.indices where paragraph.runs[i].style.link == nil {
                paragraph.runs[i].style.color = color
            }
            var block = StyledBlock(.paragraph(paragraph))
            if !reading.notes.isEmpty {
                block.footnotes = styled.footnotes
                block.footnoteLocations = styled.footnoteLocations
            }
            return (block, problems)
        }
        return nil
    }

    /// The value's blocks styled as the document's are, its paragraphs in `role`: lists,
    /// quotes, code and tables with their own styles and structure elements (ids above
    /// `options`' ``StylingOptions/structureIDsAbove``); its notes numbered from `firstNote`,
    /// each placed at `location`. `problems`: what styling warned of (a picture it could not
    /// read, a formula's unknown command), placed in the value's text as read
    /// (``placed(_:key:value:metadata:conventions:)`` places them in the file).
    static func styledBlocks(
        _ reading: Reading, firstNote: Int, location: SourceLocation?, role: TextRole, theme: Theme,
        options: StylingOptions
    ) -> (blocks: [StyledBlock], problems: [Diagnostic]) {
        let offset = firstNote - 1
        let renumber: (Inline) -> Inline = { inline in
            guard case .footnoteReference(let label, let number) = inline else { return inline }
            return .footnoteReference(label: label, number: number + offset)
        }
        let blocks = reading.blocks.map { BookRewrite.block($0, visit: { _ in }, inline: renumber) }
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
        let document = Document(blocks: [Block(.div(blocks), attributes: attributes)], footnotes: notes)
        let styled = Styler.style(document, theme: theme, options: options)
        return (styled.blocks, styled.diagnostics)
    }

    /// The file name a value is read under: the places in it are the value's own.
    static let readingFile = "front matter"

    /// `problem`, found in `value` (the text of front matter `key`, as the title block reads
    /// it) by ``styledBlocks(_:firstNote:location:role:theme:options:)``, as a warning led by
    /// the key and placed where it is written in the file: at its own line and column when the
    /// value's lines are the file's (``Metadata/fieldValuePlaces``), else at the key's value.
    static func placed(_ problem: Diagnostic, key: String, value: String, metadata: Metadata, conventions: Conventions)
        -> Diagnostic
    {
        var placed = Diagnostic(
            .warning, "front matter '\(key)': \(problem.message)", at: metadata.fieldLocations[key], kind: problem.kind)
        let whole: String? =
            switch key {
            case "title": metadata.title
            case "subtitle": metadata.subtitle
            case "author": metadata.author
            case "date": metadata.date
            default: metadata.fields[key]
            }
        guard let found = problem.location, found.file == readingFile, let written = metadata.fieldValuePlaces[key],
            let start = whole?.range(of: value)?.lowerBound, let whole
        else { return placed }
        // The title block reads the value without the blank lines and spaces around it.
        let before = whole[..<start]
        let skippedLines = before.count { $0 == "\n" }
        let line = found.line - conventions.preludeLines
        let skippedColumns =
            line == 1 ? before.split(separator: "\n", omittingEmptySubsequences: false).last?.utf8.count ?? 0 : 0
        if let location = written.location(line: line + skippedLines, column: found.column + skippedColumns) {
            placed.location = location
        }
        return placed
    }
}
