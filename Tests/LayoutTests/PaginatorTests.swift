import Layout
import Styling
import Testing
import Typography

/// A page whose text area holds exactly `lines` lines of 10 pt text at step 10 pt.
func smallPage(lines: Int) -> PageSetup {
    PageSetup(paper: PaperSize(width: 300, height: Double(lines) * 10 + 40), margins: Margins(all: 20), blockSpacing: 0)
}

func paragraph(_ text: String, size: Double = 10, lineHeight: LineHeight? = nil) -> StyledBlock {
    let font = FontSpec(families: ["X"], size: size)
    return StyledBlock(
        .paragraph(
            StyledParagraph(
                runs: [StyledRun(text, style: RunStyle(font: font))],
                style: ParagraphStyle(baseFont: font, lineHeight: lineHeight))))
}

/// `count` words that each fill one 260 pt line (52 characters of 5 pt).
func lines(_ count: Int, tag: String = "L") -> String {
    (1...count).map { (i: Int) -> String in
        let number = String(i)
        return tag + String(repeating: "x", count: 51 - number.count) + number
    }.joined(separator: " ")
}

func layout(_ blocks: [StyledBlock], page: PageSetup, widows: Int = 2, orphans: Int = 2) throws -> PageCollector {
    let collector = PageCollector()
    let paginator = Paginator(
        shaper: FakeShaper(), options: LayoutOptions(page: page, widows: widows, orphans: orphans), renderer: collector)
    for block in blocks { try paginator.add(block) }
    try paginator.finish()
    return collector
}

@Suite struct PaginatorTests {
    @Test func baselinesFollowTheLineHeightStep() throws {
        let page = PageSetup(paper: .a4, margins: Margins(all: 50), blockSpacing: 0)
        for (rule, step) in [
            (nil, 10.0), (LineHeight.multiple(2), 20.0), (.absolute(30), 30.0), (.relativeToSize(1.5), 15.0),
        ] {
            let result = try layout([paragraph(lines(4), lineHeight: rule)], page: page)
            let baselines = result.lines.map(\.baseline)
            #expect(baselines.count == 4)
            for (a, b) in zip(baselines, baselines.dropFirst()) {
                #expect(abs((b - a) - step) < 1e-9, "rule \(String(describing: rule))")
            }
            // Half-leading: the first baseline sits at half the extra space plus the ascent.
            #expect(abs(baselines[0] - (50 + (step - 10) / 2 + 8)) < 1e-9)
        }
    }

    @Test func paragraphContinuesOnNextPageAtALineBoundary() throws {
        let result = try layout([paragraph(lines(25))], page: smallPage(lines: 10))
        #expect(result.pages.count == 3)
        #expect(result.lines.count == 25)
        for line in result.lines { #expect(line.baseline + 2 <= 20 + 100 + 1e-9) }  // descent inside the text area
    }

    @Test func widowsAndOrphansLeaveTwoLinesOnEachSide() throws {
        // 9 lines fill page 1; a 3-line paragraph would leave one line (an orphan) at the bottom.
        let result = try layout(
            [paragraph(lines(9, tag: "A")), paragraph(lines(3, tag: "B"))], page: smallPage(lines: 10))
        let page2 = result.lines.filter { $0.page == 2 }.map(\.text)
        #expect(page2.count == 3, "the whole 3-line paragraph moves: \(page2)")
        // 8 + 3: a 2/1 split would leave a widow, and 1/2 an orphan → B moves whole.
        let r2 = try layout([paragraph(lines(8, tag: "A")), paragraph(lines(3, tag: "B"))], page: smallPage(lines: 10))
        #expect(r2.lines.filter { $0.page == 2 }.count == 3)
        // 7 + 5: 3 lines fit, split 3/2 leaves two on each side.
        let r3 = try layout([paragraph(lines(7, tag: "A")), paragraph(lines(5, tag: "B"))], page: smallPage(lines: 10))
        #expect(r3.lines.filter { $0.page == 1 }.count == 10)
        #expect(r3.lines.filter { $0.page == 2 }.count == 2)
        // 8 + 5 (2 lines fit) split 2/3 is fine; 9 + 5 would leave one orphan: break before B.
        let r4 = try layout([paragraph(lines(9, tag: "A")), paragraph(lines(5, tag: "B"))], page: smallPage(lines: 10))
        #expect(r4.lines.filter { $0.page == 2 }.count == 5)
        // 7 + 4 where 3 lines fit: 3/1 would leave a widow → 2/2.
        let r5 = try layout([paragraph(lines(7, tag: "A")), paragraph(lines(4, tag: "B"))], page: smallPage(lines: 10))
        #expect(r5.lines.filter { $0.page == 1 }.count == 9)
        #expect(r5.lines.filter { $0.page == 2 }.count == 2)
    }

    @Test func headingNeverEndsAPage() throws {
        var heading = paragraph("Heading")
        heading.keepWithNext = true
        let result = try layout(
            [paragraph(lines(9)), heading, paragraph(lines(4, tag: "B"))], page: smallPage(lines: 10))
        let last = result.lines.filter { $0.page == 1 }.last!
        #expect(last.text != "Heading")
        #expect(result.lines.filter { $0.page == 2 }.first?.text == "Heading")
    }

    @Test func forcedPageBreak() throws {
        let result = try layout(
            [paragraph("one"), StyledBlock(.pageBreak), paragraph("two")], page: smallPage(lines: 10))
        #expect(result.pages.count == 2)
        #expect(result.lines.map(\.page) == [1, 2])
    }

    @Test func tableHeaderRepeatsOnContinuedPages() throws {
        let font = FontSpec(families: ["X"], size: 10)
        func cell(_ t: String) -> StyledParagraph {
            StyledParagraph(runs: [StyledRun(t, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        }
        let table = StyledTable(
            alignments: [.left, .right], header: [cell("Name"), cell("Value")],
            rows: (1...30).map { [cell("row\($0)"), cell("\($0)")] }, ruleColor: .black, cellPadding: 2)
        let result = try layout([StyledBlock(.table(table))], page: smallPage(lines: 20))
        #expect(result.pages.count > 1)
        for page in result.pages {
            let texts = result.lines.filter { $0.page == page.number }.map(\.text)
            #expect(texts.prefix(2) == ["Name", "Value"], "page \(page.number) starts with the header")
        }
        #expect(result.lines.filter { $0.text.hasPrefix("row") }.count == 30)
    }

    /// A table whose header cells are all empty (an HTML table without `<th>`) sets no header
    /// band: its first row starts just under the top rule, on every page no header repeats, and
    /// no cell is tagged a header.
    @Test func aTableWithoutAHeaderSetsNoHeaderBand() throws {
        let font = FontSpec(families: ["X"], size: 10)
        func cell(_ t: String) -> StyledParagraph {
            StyledParagraph(
                runs: t.isEmpty ? [] : [StyledRun(t, style: RunStyle(font: font))],
                style: ParagraphStyle(baseFont: font))
        }
        func table(header: [String]) -> StyledTable {
            StyledTable(
                alignments: [.left, .left], header: header.map(cell),
                rows: (1...30).map { [cell("row\($0)"), cell("\($0)")] }, ruleColor: .black, cellPadding: 2)
        }
        let bare = try layout([StyledBlock(.table(table(header: ["", ""])))], page: smallPage(lines: 20))
        let headed = try layout([StyledBlock(.table(table(header: ["Name", "Value"])))], page: smallPage(lines: 20))
        let bareFirst = try #require(bare.lines.first { $0.text == "row1" })
        let headedFirst = try #require(headed.lines.first { $0.text == "row1" })
        // The header band (a line and its padding) is gone above the first row.
        #expect(headedFirst.baseline - bareFirst.baseline >= 10, "\(bareFirst) \(headedFirst)")
        #expect(bare.pages.count > 1)
        for page in bare.pages {
            let first = bare.lines.first { $0.page == page.number }
            #expect(first?.text.hasPrefix("row") == true, "page \(page.number): \(String(describing: first))")
            let headerCells = page.elements.filter { element in
                if case .structure(let path) = element { path.contains { $0.role == .tableHeader } } else { false }
            }
            #expect(headerCells.isEmpty, "page \(page.number)")
        }
        #expect(bare.lines.filter { $0.text.hasPrefix("row") }.count == 30)
    }

    @Test func columnWidthsFitTheMeasure() {
        #expect(Paginator.columnWidths(minimum: [20, 30], maximum: [50, 60], available: 200) == [50, 60])
        let w = Paginator.columnWidths(minimum: [20, 40, 30], maximum: [40, 400, 300], available: 300)
        #expect(abs(w.reduce(0, +) - 300) < 1e-9)
        #expect(w[1] > w[2])
    }
}
