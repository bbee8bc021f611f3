import Styling
import Typography

/// A table of contents built from the headings' outline entries: inserted after the first
/// heading (the document title) under a "Contents" (or "목차") heading, one entry per heading of levels
/// 2–3 (level 1 too when the document has several), each linking to its heading with the
/// page number it landed on in a first layout pass.
struct TableOfContents {
    let theme: Theme
    /// The heading above the entries: "목차" for Korean documents (`lang: ko`), else "Contents".
    let title: String
    /// (title, level, anchor) of each heading listed.
    let entries: [(title: String, level: Int, anchor: String)]
    /// Index in the styled blocks after which the contents go.
    let insertionIndex: Int

    init(theme: Theme, blocks: [StyledBlock], language: String?) {
        self.theme = theme
        title = language?.lowercased().hasPrefix("ko") == true ? "목차" : "Contents"
        let headings = blocks.enumerated().compactMap { index, block -> (Int, OutlineEntry, String)? in
            guard let outline = block.outline, let anchor = block.anchor else { return nil }
            return (index, outline, anchor)
        }
        let topLevelCount = headings.filter { $0.1.level == 1 }.count
        let first = headings.first
        insertionIndex = first.map { $0.0 + 1 } ?? 0
        let listed = headings.dropFirst(first?.1.level == 1 ? 1 : 0).filter { $0.1.level <= 3 && ($0.1.level > 1 || topLevelCount > 1) }
        entries = listed.map { ($0.1.title, $0.1.level, $0.2) }
    }

    /// The structure id of the contents' elements (apart from the styled blocks' ids).
    static let structureID = 900_000_000

    /// `blocks` with the contents inserted; `pages` maps anchors to page numbers (missing → "–").
    func inserted(into blocks: [StyledBlock], pages: [String: Int]) -> [StyledBlock] {
        guard !entries.isEmpty else { return blocks }
        var blocks = blocks
        let minLevel = entries.map(\.level).min() ?? 1
        let headingStyle = theme[.title3]
        let headingFont = FontSpec(families: headingStyle.families, weight: headingStyle.weight, size: headingStyle.size)
        var contents: [StyledBlock] = [StyledBlock(
            .paragraph(StyledParagraph(runs: [StyledRun(title, style: RunStyle(font: headingFont, letterSpacing: headingStyle.letterSpacing, color: theme.textColor))],
                                       style: ParagraphStyle(baseFont: headingFont, lineHeight: headingStyle.lineHeight))),
            spaceBefore: theme.page.blockSpacing * 2, spaceAfter: theme.page.blockSpacing, keepWithNext: true)]
        // Tagged as a level-2 heading, then a TOC of TOCI entries (ids apart from styled blocks').
        contents[0].structure = [StructureElement(.heading2, id: TableOfContents.structureID)]
        let toc = StructureElement(.toc, id: TableOfContents.structureID)
        let body = theme[.body]
        for entry in entries {
            let depth = entry.level - minLevel
            var font = FontSpec(families: body.families, weight: depth == 0 ? .semibold : .regular, size: body.size)
            font.weight = depth == 0 ? .semibold : .regular
            var run = RunStyle(font: font, color: theme.textColor, link: .internal(entry.anchor))
            run.letterSpacing = body.letterSpacing
            var numberRun = run
            numberRun.features = ["tnum"]
            let style = ParagraphStyle(baseFont: font, lineHeight: body.lineHeight, leftIndent: Double(depth) * body.size * 1.5)
            let page = pages[entry.anchor].map(String.init) ?? "–"
            contents.append(StyledBlock(.entry(StyledParagraph(runs: [StyledRun(entry.title, style: run)], style: style),
                                               trailing: StyledParagraph(runs: [StyledRun(page, style: numberRun)], style: style)),
                                        spaceBefore: depth == 0 ? theme.page.blockSpacing * 0.6 : 0, spaceAfter: 1))
            contents[contents.count - 1].structure = [toc, StructureElement(.tocItem, id: TableOfContents.structureID, index: contents.count)]
        }
        contents[contents.count - 1].spaceAfter = theme.page.blockSpacing * 2
        blocks.insert(contentsOf: contents, at: insertionIndex)
        return blocks
    }
}
