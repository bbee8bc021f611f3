import DocumentModel
import Foundation
import Styling
import Typography

/// The front page's title block, from the front matter: the title (LargeTitle role), then the
/// subtitle (SubTitle role), then the author and the date (Body role, secondary colour), as a
/// book's or an article's title page orders them (Pandoc's and LaTeX's `\maketitle` do the
/// same), then the `abstract` under an "Abstract" label in the document's language (Korean
/// "초록": ``SectionNames``) in the Headline role, its paragraphs in Body and its lists, quotes,
/// code and tables as the document's, as Pandoc sets an abstract after the title. The table of
/// contents follows it.
///
/// When the document itself opens with a level-1 heading that is the title (no `title` in the
/// front matter, or the same text), that heading is the title and only the lines after it are
/// added.
struct TitleBlock {
    /// The blocks to insert, in order.
    let blocks: [StyledBlock]
    /// Where in the document's styled blocks they go (0, or after the opening heading).
    let insertionIndex: Int
    /// Index of the heading that is the document's title, if the document opens with one: the
    /// table of contents does not list it.
    let titleHeadingIndex: Int?
    /// The number of notes the title block sets, numbered 1 through this.
    let noteCount: Int
    /// A warning for each note syntax in a value that no note can answer (a reference
    /// `[^label]`, an unclosed `^[`), at the value.
    let diagnostics: [Diagnostic]

    /// The structure id of the title's element (apart from the styled blocks' ids).
    ///
    /// The title is tagged `H1`, the document's top heading: PDF 1.7, on which PDF/UA-1 rests,
    /// has no `Title` structure type (PDF 2.0 adds one), and a title tagged `P` leaves the
    /// document's first `##` heading without a level above it (PDF/UA-1 §7.4.2).
    static let structureID = 800_000_000

    /// `conventions`: the document's smart punctuation and math settings, for the values read
    /// as Markdown (``FrontMatterText``); `styling`: the document's styling options.
    init(
        theme: Theme, metadata: Metadata, conventions: FrontMatterText.Conventions, blocks document: [StyledBlock],
        styling: StylingOptions
    ) {
        let opening = document.firstIndex {
            if case .pageBreak = $0.content { false } else { true }
        }
        self.init(
            theme: theme, metadata: metadata, conventions: conventions,
            firstOutline: opening.flatMap { document[$0].outline }, openingIndex: opening ?? 0, styling: styling)
    }

    /// `firstOutline`: the outline entry of the document's opening styled block, if it has one
    /// (all the title block reads of the document, so a survey need not hold that block), and
    /// `openingIndex` that block's index: the first block that is no page break (a book whose
    /// chapters open on right-hand pages starts with one), after which the title block goes
    /// when the block is the title's heading.
    /// `styling`: the document's styling options, for the values' text and the abstract's
    /// blocks (their pictures are read from the document's folder, inside its root).
    ///
    /// A note `^[…]` in a value is set as a footnote of the page, numbered before the body's
    /// notes in the order the title block sets the values (title, subtitle, author, date,
    /// abstract), as Pandoc's LaTeX sets a note in the title or author with `\thanks`; the
    /// body's notes are numbered after them (``FrontMatter/numberingNotesAfterTitleBlock(_:options:)``).
    /// A title with a note is set even when the document opens with a heading of its text.
    init(
        theme: Theme, metadata: Metadata, conventions: FrontMatterText.Conventions, firstOutline: OutlineEntry?,
        openingIndex: Int = 0, styling: StylingOptions
    ) {
        let opening = firstOutline?.level == 1 ? firstOutline?.title : nil
        var blocks: [StyledBlock] = []
        var problems: [Diagnostic] = []
        var notes = 0
        let spacing = theme.page.blockSpacing
        let secondary = theme.color(named: "secondary") ?? theme.textColor
        // The values are styled as the document is (their pictures read from its folder), with
        // structure ids of their own, no section numbers, and code highlighted in line; the
        // title's lines ragged, the abstract's paragraphs set as the body's.
        var options = styling
        options.structureIDsAbove = Self.structureID
        options.sectionNumbering = nil
        options.deferredCodeTokens = nil
        var lineOptions = options
        lineOptions.justify = false
        func line(_ value: String, role: TextRole, color: RGBAColor, spaceAfter: Double, key: String) {
            let location = metadata.fieldLocations[key]
            if let reading = FrontMatterText.reading(value, conventions: conventions),
                var (block, styleProblems) = FrontMatterText.block(
                    reading, firstNote: notes + 1, location: location, role: role, color: color, theme: theme,
                    options: lineOptions)
            {
                notes += reading.notes.keys.max() ?? 0
                problems += styleProblems.map {
                    FrontMatterText.placed($0, key: key, value: value, metadata: metadata, conventions: conventions)
                }
                block.spaceAfter = spaceAfter
                blocks.append(block)
                problems += reading.noteProblems.map {
                    Diagnostic(.warning, "front matter '\(key)': \($0)", at: location, kind: .footnote)
                }
            } else {
                blocks.append(theme.paragraphBlock(value, role: role, color: color, spaceAfter: spaceAfter))
            }
            blocks[blocks.count - 1].location = location
        }
        let texts = Self.texts(metadata, conventions: conventions, opening: opening)
        if let title = texts.first(where: { $0.key == "title" })?.value {
            line(title, role: .largeTitle, color: theme.textColor, spaceAfter: spacing, key: "title")
            blocks[blocks.count - 1].structure = [StructureElement(.heading1, id: Self.structureID)]
            titleHeadingIndex = nil
            insertionIndex = 0
        } else {
            titleHeadingIndex = opening == nil ? nil : openingIndex
            insertionIndex = opening == nil ? 0 : openingIndex + 1
        }
        for (key, value) in texts where ["subtitle", "author", "date"].contains(key) {
            let subtitle = key == "subtitle"
            line(
                value, role: subtitle ? .subTitle : .body, color: secondary, spaceAfter: subtitle ? spacing : 0,
                key: key)
        }
        if let abstract = texts.first(where: { $0.key == "abstract" })?.value {
            if let last = blocks.indices.last { blocks[last].spaceAfter = spacing * 2 }
            line(
                FrontMatter.writtenTitle(metadata, key: "abstract-title", conventions: conventions)
                    ?? SectionNames.abstract(language: metadata.lang), role: .headline, color: theme.textColor,
                spaceAfter: spacing * 0.5, key: "abstract")
            let location = metadata.fieldLocations["abstract"]
            let reading = FrontMatterText.blocksReading(abstract, conventions: conventions)
            let styled = FrontMatterText.styledBlocks(
                reading, firstNote: notes + 1, location: location, role: .body, theme: theme, options: options)
            notes += reading.notes.keys.max() ?? 0
            problems += reading.noteProblems.map {
                Diagnostic(.warning, "front matter 'abstract': \($0)", at: location, kind: .footnote)
            }
            problems += styled.problems.map {
                FrontMatterText.placed(
                    $0, key: "abstract", value: abstract, metadata: metadata, conventions: conventions)
            }
            for block in styled.blocks {
                blocks.append(Self.abstractBlock(block, spacing: spacing))
                blocks[blocks.count - 1].location = location
            }
        }
        if let last = blocks.indices.last { blocks[last].spaceAfter = spacing * 3 }
        self.blocks = blocks
        noteCount = notes
        diagnostics = problems
    }

    /// A block of the abstract as the title block sets it: a paragraph of the abstract's own
    /// (not one inside a list or quote) with the spacing of the title block's lines; any
    /// other as the document sets it.
    private static func abstractBlock(_ block: StyledBlock, spacing: Double) -> StyledBlock {
        guard case .paragraph(let paragraph) = block.content, block.structure.count == 1,
            block.structure[0].role == .paragraph
        else { return block }
        var line = StyledBlock(.paragraph(paragraph), spaceAfter: spacing)
        line.footnotes = block.footnotes
        line.footnoteLocations = block.footnoteLocations
        return line
    }

    /// The values the title block sets, in order, by key: the title (unless `opening`, the
    /// text of the document's opening level-1 heading, is the title's and the title holds no
    /// note), the subtitle, the author, the date, then the abstract.
    static func texts(_ metadata: Metadata, conventions: FrontMatterText.Conventions, opening: String?) -> [(
        key: String, value: String
    )] {
        var texts: [(key: String, value: String)] = []
        if let title = metadata.title, !title.trimmingCharacters(in: .whitespaces).isEmpty,
            opening == nil || FrontMatterText.plain(title, conventions: conventions) != opening
                || FrontMatterText.noteCount(title, conventions: conventions) > 0
        {
            texts.append(("title", title))
        }
        for (key, value) in [("subtitle", metadata.subtitle), ("author", metadata.author), ("date", metadata.date)] {
            if let value, !value.isEmpty { texts.append((key, value)) }
        }
        let abstract = (metadata.fields["abstract"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return texts + (abstract.isEmpty ? [] : [("abstract", abstract)])
    }

    /// The number of notes the title block of `metadata` sets: the body's notes are numbered
    /// after them. The title is counted whenever it holds a note (it is then always set).
    static func noteCount(_ metadata: Metadata, conventions: FrontMatterText.Conventions) -> Int {
        texts(metadata, conventions: conventions, opening: nil).reduce(0) {
            $0 + FrontMatterText.noteCount($1.value, conventions: conventions, asBlocks: $1.key == "abstract")
        }
    }

    /// `blocks` with the title block inserted.
    func inserted(into document: [StyledBlock]) -> [StyledBlock] {
        guard !blocks.isEmpty else { return document }
        var document = document
        document.insert(contentsOf: blocks, at: insertionIndex)
        return document
    }
}

extension Theme {
    /// One left-aligned paragraph of `text` in `role`'s face, size, tracking and line height.
    func paragraphBlock(
        _ text: String, role: TextRole, color: RGBAColor, spaceBefore: Double = 0, spaceAfter: Double,
        keepWithNext: Bool = false
    ) -> StyledBlock {
        let style = self[role]
        let font = FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
        let run = RunStyle(font: font, letterSpacing: style.letterSpacing, color: color)
        let paragraph = StyledParagraph(
            runs: [StyledRun(text, style: run)], style: ParagraphStyle(baseFont: font, lineHeight: style.lineHeight))
        return StyledBlock(
            .paragraph(paragraph), spaceBefore: spaceBefore, spaceAfter: spaceAfter, keepWithNext: keepWithNext)
    }
}
