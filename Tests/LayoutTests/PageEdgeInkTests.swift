import Layout
import Styling
import Testing
import Typography

/// Lines whose box is smaller than their glyphs (a line height far below the face's natural
/// height) keep their ink inside the text area at a page's top and bottom, as TeX's `\topskip`
/// keeps a page's first baseline at least the first box's height below the top. The fake
/// shaper's ink is its ascent (0.8 em) and descent (0.2 em).
@Suite struct PageEdgeInkTests {
    /// A 10 pt paragraph on a 2 pt step: each line box is 2 pt tall, its glyphs 10 pt.
    func tight(_ text: String) -> StyledBlock { paragraph(text, lineHeight: .absolute(2)) }

    /// Every text line's glyphs (baseline − 8 to baseline + 2) within the text area (20 … 120 on
    /// `smallPage(lines: 10)`).
    func expectInk(
        _ result: PageCollector, top: Double = 20, bottom: Double = 120,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for line in result.lines {
            #expect(
                line.baseline - 8 >= top - 1e-9, "page \(line.page) '\(line.text)' at \(line.baseline)",
                sourceLocation: sourceLocation)
            #expect(
                line.baseline + 2 <= bottom + 1e-9, "page \(line.page) '\(line.text)' at \(line.baseline)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theFirstLineOfAPageStartsItsInkAtTheTextAreasTop() throws {
        let result = try layout([tight("Hello")], page: smallPage(lines: 10))
        // Before: the box's top at 20 put the baseline at 24 and the glyphs' top at 16.
        #expect(result.lines.map(\.baseline) == [28])
        expectInk(result)
    }

    @Test func afterAForcedPageBreakToo() throws {
        let result = try layout([paragraph("one"), StyledBlock(.pageBreak), tight("two")], page: smallPage(lines: 10))
        #expect(result.lines.map(\.page) == [1, 2])
        #expect(result.lines.last?.baseline == 28)
        expectInk(result)
    }

    @Test func everyPageOfALongTightParagraphKeepsItsInkInside() throws {
        // 200 lines of 2 pt: the last line on each page must leave its descent room.
        let result = try layout([tight(lines(200))], page: smallPage(lines: 10), widows: 1, orphans: 1)
        #expect(result.lines.count == 200)
        #expect(result.pages.count > 1)
        expectInk(result)
        // The page is full up to its descent: one more 2 pt line would put its descent past 120.
        for page in result.pages {
            let last = result.lines.filter { $0.page == page.number }.map(\.baseline).max()!
            if page.number < result.pages.count {
                #expect(last + 2 + 2 > 120, "page \(page.number) ends early at \(last)")
            }
        }
    }

    @Test func aSmallItemBeforeTheLineDoesNotLetItsInkOut() throws {
        // A 1 pt rule first, then the tight line: its glyphs would rise 4 pt above its box, 3
        // above the text area.
        let rule = StyledBlock(.rule(color: .black, thickness: 1))
        let result = try layout([rule, tight("after")], page: smallPage(lines: 10))
        expectInk(result)
    }

    @Test func ordinaryLinesArePlacedAsBefore() throws {
        let result = try layout([paragraph(lines(25))], page: smallPage(lines: 10))
        let baselines: [Double] = result.lines.prefix(10).map(\.baseline)
        let expected: [Double] = (0..<10).map { (k: Int) -> Double in 28 + Double(k) * 10 }
        #expect(baselines == expected)
        #expect(result.pages.count == 3)
    }

    @Test func textTallerThanTheTextAreaIsReported() throws {
        // 150 pt glyphs on a 2 pt step: 150 pt of ink in a 100 pt text area, 20 pt margins.
        let collector = PageCollector()
        let paginator = Paginator(
            shaper: FakeShaper(), options: LayoutOptions(page: smallPage(lines: 10)), renderer: collector)
        try paginator.add(paragraph("Big", size: 150, lineHeight: .absolute(2)))
        try paginator.add(paragraph("after"))
        try paginator.finish()
        #expect(paginator.inkOverflows.count == 1)
        let overflow = try #require(paginator.inkOverflows.first)
        #expect(abs(overflow.excess - 50) < 1e-9)
        #expect(overflow.crossesPageEdge)
        // Its ink still starts at the text area's top; the next block goes to the next page.
        #expect(abs((collector.lines.first?.baseline ?? 0) - 140) < 1e-9)
        #expect(collector.lines.last?.page == 2)
    }

    @Test func runningTextsStayOnThePage() throws {
        // Margins of 4 pt: the header's baseline would be at 2 pt, its 8 pt ascent off the page;
        // the footer's at 148.2, its 2 pt descent past 150.
        let page = PageSetup(paper: PaperSize(width: 300, height: 150), margins: Margins(all: 4), blockSpacing: 0)
        let font = FontSpec(families: ["X"], size: 10)
        let running = StyledParagraph(
            runs: [StyledRun("Running", style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        let collector = PageCollector()
        let paginator = Paginator(
            shaper: FakeShaper(),
            options: LayoutOptions(page: page, header: { _ in running }, footer: { _ in running }),
            renderer: collector)
        try paginator.add(paragraph("body"))
        try paginator.finish()
        let baselines = collector.lines.filter { $0.text == "Running" }.map(\.baseline)
        #expect(baselines == [8, 148])
    }
}
