import DocumentModel
import Styling
import Typography

/// A table of contents built from the headings' outline entries: inserted after the front
/// page's title block (``TitleBlock``) under a "Contents" (or "목차") heading, one entry per
/// heading of levels 1 to the depth asked for (3 by default) other than the title, each
/// linking to its heading with the page number it landed on in a first layout pass.
struct TableOfContents {
    let theme: Theme
    /// The heading above the entries: front matter's `toc-title` (Pandoc's variable), else
    /// in the document's language (``SectionNames``): "목차" for Korean documents (`lang: ko`),
    /// "Inhaltsverzeichnis" for German, else "Contents".
    let title: String
    /// A heading listed: its title, level, anchor, runs and where the heading is (its warnings point there).
    typealias Entry = (title: String, level: Int, anchor: String, runs: [StyledRun], location: SourceLocation?)
    /// (title, level, anchor, the heading's runs) of each heading listed.
    let entries: [Entry]
    /// Index in the styled blocks before which the contents go.
    let insertionIndex: Int

    /// Lists the headings of `blocks` except the one at `titleIndex` (the document's title), to
    /// be inserted at `insertionIndex`.
    init(theme: Theme, blocks: [StyledBlock], language: String?, insertionIndex: Int, titleIndex: Int?) {
        self.theme = theme
        title = SectionNames.contents(language: language)
        self.insertionIndex = insertionIndex
        entries = blocks.enumerated().compactMap { index, block in
            index == titleIndex ? nil : TableOfContents.entry(for: block)
        }
    }

    /// Lists `entries` (gathered with ``entry(for:)`` as the document streams, the title's
    /// heading left out), to be inserted at `insertionIndex`, under `title` (nil: the
    /// language's word).
    init(theme: Theme, entries: [Entry], language: String?, insertionIndex: Int, title: String? = nil) {
        self.theme = theme
        self.title = title ?? SectionNames.contents(language: language)
        self.insertionIndex = insertionIndex
        self.entries = entries
    }

    /// The deepest heading level listed when no depth is given (Pandoc's `toc-depth` default).
    static let defaultDepth = 3

    /// The entry `block` gives the contents: a heading of level 1 to `depth` with an id, not
    /// marked `unlisted`; nil otherwise.
    static func entry(for block: StyledBlock, depth: Int = defaultDepth) -> Entry? {
        guard let outline = block.outline, let anchor = block.anchor, outline.level <= depth, outline.listed else {
            return nil
        }
        return (outline.title, outline.level, anchor, outline.runs, block.location)
    }

    /// The structure id of the contents' elements (apart from the styled blocks' ids).
    static let structureID = 900_000_000

    /// `blocks` with the contents inserted; `pages` maps anchors to page numbers (missing → "–").
    func inserted(into blocks: [StyledBlock], pages: [String: Int]) -> [StyledBlock] {
        guard !entries.isEmpty else { return blocks }
        var blocks = blocks
        blocks.insert(contentsOf: self.blocks(pages: pages), at: insertionIndex)
        return blocks
    }

    /// The contents' blocks — its heading, then one entry per heading listed — with the page
    /// numbers of `pages` (anchor → page; missing → "–"); none when no heading is listed.
    func blocks(pages: [String: Int]) -> [StyledBlock] {
        guard !entries.isEmpty else { return [] }
        let minLevel = entries.map(\.level).min() ?? 1
        var contents = [
            theme.paragraphBlock(
                title, role: .title3, color: theme.textColor, spaceBefore: theme.page.blockSpacing * 2,
                spaceAfter: theme.page.blockSpacing, keepWithNext: true)
        ]
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
            var style = ParagraphStyle(
                baseFont: font, lineHeight: body.lineHeight, leftIndent: Double(depth) * body.size * 1.5)
            // Every entry starts at the left, its leader running to the number at the right,
            // whatever the direction of its heading's text.
            style.leftIsStart = false
            let page = pages[entry.anchor].map(String.init) ?? "–"
            contents.append(
                StyledBlock(
                    .entry(
                        StyledParagraph(runs: entryRuns(entry.runs, title: entry.title, style: run), style: style),
                        trailing: StyledParagraph(runs: [StyledRun(page, style: numberRun)], style: style)),
                    spaceBefore: depth == 0 ? theme.page.blockSpacing * 0.6 : 0, spaceAfter: 1))
            // An entry's warnings (a face or character its font lacks) point at its heading.
            contents[contents.count - 1].location = entry.location
            contents[contents.count - 1].structure = [
                toc, StructureElement(.tocItem, id: TableOfContents.structureID, index: contents.count),
            ]
        }
        contents[contents.count - 1].spaceAfter = theme.page.blockSpacing * 2
        return contents
    }

    /// An entry's text in the entry's `style`, keeping what the heading's runs mark inline: the
    /// monospaced face of code (at code's 0.92 of the size, on its tint), italic, strikethrough,
    /// a formula (set at the entry's size), a subscript's or superscript's smaller size and
    /// shift (in proportion to the entry's size), and its language. Footnote markers are left
    /// out.
    func entryRuns(_ runs: [StyledRun], title: String, style: RunStyle) -> [StyledRun] {
        var result: [StyledRun] = []
        // The heading's own size: its text's, which scripts and code are set smaller than.
        let headingSize = runs.lazy.filter { $0.style.baselineOffset == 0 }.map(\.style.font.size).max() ?? 0
        for run in runs {
            if case .internal(let target)? = run.style.link, target.hasPrefix("fn-") { continue }
            var entryStyle = style
            if var formula = run.style.inlineFormula {
                formula.textFont.weight = style.font.weight
                formula.textFont.italic = style.font.italic
                entryStyle.inlineFormula = formula
                result.append(StyledRun(run.text, style: entryStyle))
                continue
            }
            if run.style.baselineOffset != 0, headingSize > 0, run.style.font.size > 0 {
                let scale = style.font.size / headingSize
                entryStyle.font.size = run.style.font.size * scale
                entryStyle.baselineOffset = run.style.baselineOffset * scale
            }
            if run.style.font.families.first == theme.monospaceFamilies.first {
                entryStyle.font.families = run.style.font.families
                entryStyle.font.size = (style.font.size * 0.92 * 10).rounded() / 10
                entryStyle.background = run.style.background
                entryStyle.letterSpacing = 0
            }
            entryStyle.font.italic = run.style.font.italic
            entryStyle.strikethrough = run.style.strikethrough
            // Read in its heading's language (`# Résumé {lang=fr}`: the entry's `/Lang`).
            entryStyle.language = run.style.language
            result.append(StyledRun(run.text, style: entryStyle))
        }
        // The heading's runs are already trimmed; a heading of footnote markers alone keeps its title.
        return result.isEmpty ? [StyledRun(title, style: style)] : result
    }
}
