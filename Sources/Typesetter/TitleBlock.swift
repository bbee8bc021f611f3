import DocumentModel
import Foundation
import Styling
import Typography

/// The front page's title block, from the front matter: the title (LargeTitle role), then the
/// subtitle (SubTitle role), then the author and the date (Body role, secondary colour), as a
/// book's or an article's title page orders them (Pandoc's and LaTeX's `\maketitle` do the
/// same), then the `abstract` under an "Abstract" label in the document's language (Korean
/// "초록": ``SectionNames``) in the Headline role, a paragraph of Body for each of its
/// paragraphs, as Pandoc sets an abstract after the title. The table of contents follows it.
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

    /// The structure id of the title's element (apart from the styled blocks' ids).
    ///
    /// The title is tagged `H1`, the document's top heading: PDF 1.7, on which PDF/UA-1 rests,
    /// has no `Title` structure type (PDF 2.0 adds one), and a title tagged `P` leaves the
    /// document's first `##` heading without a level above it (PDF/UA-1 §7.4.2).
    static let structureID = 800_000_000

    /// `smart`: the document's smart punctuation setting, for the values read as Markdown
    /// (``FrontMatterText``).
    init(theme: Theme, metadata: Metadata, smart: Bool, blocks document: [StyledBlock]) {
        self.init(theme: theme, metadata: metadata, smart: smart, firstOutline: document.first?.outline)
    }

    /// `firstOutline`: the outline entry of the document's first styled block, if it has one
    /// (all the title block reads of the document, so a survey need not hold that block).
    init(theme: Theme, metadata: Metadata, smart: Bool, firstOutline: OutlineEntry?) {
        let opening = firstOutline?.level == 1 ? firstOutline?.title : nil
        let title = metadata.title.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        var blocks: [StyledBlock] = []
        let spacing = theme.page.blockSpacing
        let secondary = theme.color(named: "secondary") ?? theme.textColor
        func line(_ value: String, role: TextRole, color: RGBAColor, spaceAfter: Double, key: String) {
            if let paragraph = FrontMatterText.paragraph(value, smart: smart, role: role, color: color, theme: theme) {
                blocks.append(StyledBlock(.paragraph(paragraph), spaceAfter: spaceAfter))
            } else {
                blocks.append(theme.paragraphBlock(value, role: role, color: color, spaceAfter: spaceAfter))
            }
            blocks[blocks.count - 1].location = metadata.fieldLocations[key]
        }
        if let title, FrontMatterText.plain(title, smart: smart) != opening {
            line(title, role: .largeTitle, color: theme.textColor, spaceAfter: spacing, key: "title")
            blocks[blocks.count - 1].structure = [StructureElement(.heading1, id: Self.structureID)]
            titleHeadingIndex = nil
            insertionIndex = 0
        } else {
            titleHeadingIndex = opening == nil ? nil : 0
            insertionIndex = opening == nil ? 0 : 1
        }
        if let subtitle = metadata.subtitle, !subtitle.isEmpty {
            line(subtitle, role: .subTitle, color: secondary, spaceAfter: spacing, key: "subtitle")
        }
        for (value, key) in [(metadata.author, "author"), (metadata.date, "date")] {
            if let value, !value.isEmpty { line(value, role: .body, color: secondary, spaceAfter: 0, key: key) }
        }
        let paragraphs = (metadata.fields["abstract"] ?? "").components(separatedBy: "\n\n").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
        if !paragraphs.isEmpty {
            if let last = blocks.indices.last { blocks[last].spaceAfter = spacing * 2 }
            line(
                SectionNames.abstract(language: metadata.lang), role: .headline, color: theme.textColor,
                spaceAfter: spacing * 0.5, key: "abstract")
            for paragraph in paragraphs {
                line(paragraph, role: .body, color: theme.textColor, spaceAfter: spacing, key: "abstract")
            }
        }
        if let last = blocks.indices.last { blocks[last].spaceAfter = spacing * 3 }
        self.blocks = blocks
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
