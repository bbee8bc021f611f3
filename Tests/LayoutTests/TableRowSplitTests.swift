import Layout
import Styling
import Testing
import Typography

/// A table row taller than a page is split where the page ends: each cell at its own last line
/// boundary that fits, keeping widows and orphans, whichever column is tall, whatever the
/// cells' sizes, over as many pages as it takes, with the header repeated above each part.
/// Over the fake shaper (0.5 em per character, a 10 pt line every 10 pt).
@Suite struct TableRowSplitTests {
    /// A text line as placed: its page, text, left edge and bottom (baseline + descent), pt.
    struct PlacedLine {
        var page: Int
        var text: String
        var x: Double
        var bottom: Double
    }

    func cell(_ text: String, size: Double = 10) -> StyledParagraph {
        let font = FontSpec(families: ["X"], size: size)
        return StyledParagraph(
            runs: [StyledRun(text, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
    }

    /// `count` words `<tag>1`, `<tag>2`, …
    func words(_ tag: String, _ count: Int) -> String { (1...count).map { "\(tag)\($0)" }.joined(separator: " ") }

    /// `count` words `<tag>qqq…0001` of 25 characters (125 pt at 10 pt): one a line in a
    /// column narrower than two of them.
    func longWords(_ tag: String, _ count: Int) -> String {
        (1...count).map { i in
            let number = String(i)
            return tag + String(repeating: "q", count: 24 - tag.count - number.count) + String(repeating: "0", count: 1)
                + number
        }.joined(separator: " ")
    }

    func table(header: [StyledParagraph], rows: [[StyledParagraph]]) -> StyledTable {
        StyledTable(
            alignments: header.map { _ in .left }, header: header, rows: rows, ruleColor: .black, cellPadding: 4)
    }

    func placedLines(_ result: PageCollector) -> [PlacedLine] {
        result.pages.flatMap { page in
            page.elements.compactMap { element -> PlacedLine? in
                guard case .text(let line, let x, let baseline) = element else { return nil }
                return PlacedLine(page: page.number, text: line.text, x: x, bottom: baseline + line.descent)
            }
        }
    }

    /// The lines of the cell whose words are `<tag><digits>`.
    func cellLines(_ lines: [PlacedLine], tag: String) -> [PlacedLine] {
        lines.filter { line in
            guard line.text.hasPrefix(tag), let next = line.text.dropFirst(tag.count).first else { return false }
            return next.isNumber || next == "q"
        }
    }

    /// The cell tagged `tag` fills every page it continues from: its last line there ends inside
    /// the text area, and one more line (`step` pt) would not fit — unless taking it would
    /// leave fewer than `widows` lines for the last page. Its words are all there, once, in order.
    func expectFilled(
        _ lines: [PlacedLine], tag: String, count: Int, step: Double, page: PageSetup, widows: Int = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let cell = cellLines(lines, tag: tag)
        let limit = page.margins.top + page.textHeight
        let pages = Array(Set(cell.map(\.page))).sorted()
        #expect(pages.count >= 2, "the cell is split", sourceLocation: sourceLocation)
        for (n, p) in pages.enumerated() {
            let here = cell.filter { $0.page == p }
            let bottom = here.map(\.bottom).max() ?? 0
            #expect(
                bottom <= limit + 1e-6, "page \(p): \(bottom) below the text area (\(limit))",
                sourceLocation: sourceLocation)
            guard n < pages.count - 1 else { continue }
            let later = cell.filter { $0.page > p }.count
            let onLast = cell.filter { $0.page == pages.last! }.count
            let widowRule = later == onLast && onLast == widows
            #expect(
                bottom + step > limit + 1e-6 || widowRule,
                "page \(p): the cell ends at \(bottom), room for another \(step) pt line above \(limit)",
                sourceLocation: sourceLocation)
        }
        let found = cell.flatMap { $0.text.split(separator: " ").map(String.init) }
        let expected = (1...count).map { "\(tag)\($0)" }
        #expect(
            found == expected, "every word once, in order: \(found.count) of \(count)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [0, 1, 2])
    func aSplitRowFillsEachPageWhicheverColumnIsTall(column: Int) throws {
        let page = smallPage(lines: 20)
        var cells = [cell("short"), cell("mid"), cell("end")]
        cells[column] = cell(words("x", 400))
        let blocks = [
            paragraph(lines(7)),
            StyledBlock(
                .table(
                    table(
                        header: [cell("H1"), cell("H2"), cell("H3")],
                        rows: [cells, [cell("after"), cell("row"), cell("here")]]))),
        ]
        let result = try layout(blocks, page: page)
        let lines = placedLines(result)
        expectFilled(lines, tag: "x", count: 400, step: 10, page: page)
        // The row starts under the paragraph, on page 1, and the header opens every later page.
        #expect(cellLines(lines, tag: "x").first?.page == 1)
        for p in result.pages.dropFirst() {
            #expect(
                lines.filter { $0.page == p.number }.prefix(3).map(\.text) == ["H1", "H2", "H3"], "page \(p.number)")
        }
        // The short cells are on the row's first page.
        for text in ["short", "mid", "end"] where text != ["short", "mid", "end"][column] {
            #expect(lines.first { $0.text == text }?.page == 1, "'\(text)'")
        }
    }

    @Test func aCellOfLargerTextBreaksAtItsOwnLines() throws {
        let page = smallPage(lines: 20)
        let row = [cell(words("x", 300)), cell(words("y", 120), size: 16)]
        let result = try layout(
            [paragraph(lines(3)), StyledBlock(.table(table(header: [cell("H1"), cell("H2")], rows: [row])))], page: page
        )
        let lines = placedLines(result)
        expectFilled(lines, tag: "x", count: 300, step: 10, page: page)
        expectFilled(lines, tag: "y", count: 120, step: 16, page: page)
    }

    @Test func aRowOverSeveralPagesRepeatsTheHeaderAboveEachPart() throws {
        let page = smallPage(lines: 20)
        let row = [cell(words("x", 1500)), cell("short")]
        let result = try layout(
            [StyledBlock(.table(table(header: [cell("H1"), cell("H2")], rows: [row, [cell("next"), cell("row")]])))],
            page: page)
        let lines = placedLines(result)
        #expect(Set(cellLines(lines, tag: "x").map(\.page)).count >= 4)
        expectFilled(lines, tag: "x", count: 1500, step: 10, page: page)
        for p in result.pages {
            #expect(lines.filter { $0.page == p.number }.prefix(2).map(\.text) == ["H1", "H2"], "page \(p.number)")
        }
        #expect(lines.last?.text == "row")
    }

    @Test func aHeaderTallerThanAPageIsSplitTheSameWay() throws {
        let page = smallPage(lines: 20)
        let header = [cell(words("x", 500)), cell("H2")]
        let result = try layout(
            [paragraph(lines(7)), StyledBlock(.table(table(header: header, rows: [[cell("r1"), cell("1")]])))],
            page: page)
        let lines = placedLines(result)
        expectFilled(lines, tag: "x", count: 500, step: 10, page: page)
        #expect(lines.filter { $0.text == "H2" }.count == 1, "a header taller than half a page is not repeated")
    }

    /// 15 lines of text, then a table whose one row holds 21 lines of one word each: 2 of them
    /// fit under the header on page 1, 18 on a page under the repeated header.
    @Test(arguments: [(2, 2, [2, 17, 2]), (1, 1, [2, 18, 1]), (2, 3, [0, 17, 4])])
    func widowsAndOrphansHoldInsideACell(widows: Int, orphans: Int, perPage: [Int]) throws {
        let page = smallPage(lines: 20)
        let row = [cell(longWords("x", 21)), cell("s")]
        let result = try layout(
            [paragraph(lines(15)), StyledBlock(.table(table(header: [cell("H1"), cell("H2")], rows: [row])))],
            page: page, widows: widows, orphans: orphans)
        let cell = cellLines(placedLines(result), tag: "x")
        #expect(cell.count == 21)
        #expect(
            (1...3).map { p in cell.filter { $0.page == p }.count } == perPage, "widows \(widows), orphans \(orphans)")
        // A row that cannot start on page 1 takes the header with it.
        let header = placedLines(result).filter { $0.text == "H1" }.map(\.page)
        #expect(header.first == (perPage[0] == 0 ? 2 : 1))
    }

    /// The vertical quote bars on each page: (top, bottom) of the bar at `x`.
    func bars(_ result: PageCollector, x: Double) -> [Int: (top: Double, bottom: Double)] {
        var bars: [Int: (top: Double, bottom: Double)] = [:]
        for page in result.pages {
            for case .line(let from, let to, _, _) in page.elements where from.x == x && to.x == x {
                let old = bars[page.number] ?? (from.y, to.y)
                bars[page.number] = (min(old.top, from.y), max(old.bottom, to.y))
            }
        }
        return bars
    }

    /// Quote bars run beside everything the quote puts on a page: on a continued page they
    /// start at the top of the text area, beside a table's repeated header row or a code
    /// block's `(continued)` cue, as they start beside the block's first line.
    @Test(arguments: ["rows", "tall row", "code"])
    func quoteBarsRunBesideRepeatedFurniture(kind: String) throws {
        let page = smallPage(lines: 20)
        var block: StyledBlock
        switch kind {
        case "rows":
            block = StyledBlock(
                .table(
                    table(header: [cell("H1"), cell("H2")], rows: (1...60).map { [cell("r\($0)"), cell("\($0)")] })))
        case "tall row":
            block = StyledBlock(
                .table(table(header: [cell("H1"), cell("H2")], rows: [[cell(words("x", 800)), cell("s")]])))
        default:
            var code = paragraph(lines(60))
            code.isCode = true
            code.background = RGBAColor(red: 0.95, green: 0.95, blue: 0.95)
            code.backgroundPadding = 4
            block = code
        }
        block.quoteBars = [2]
        let result = try layout([paragraph(lines(4)), block], page: page)
        #expect(result.pages.count >= 3)
        let found = bars(result, x: page.margins.left + 2)
        let limit = page.margins.top + page.textHeight
        for p in result.pages {
            let bar = try #require(found[p.number], "page \(p.number) has a bar")
            // Page 1: from the block's top, under the 4 lines of text before it.
            #expect(
                abs(bar.top - (p.number == 1 ? page.margins.top + 40 : page.margins.top)) < 1e-6,
                "page \(p.number): bar from \(bar.top)")
            #expect(bar.bottom <= limit + 1e-6)
            let lowest = placedLines(result).filter { $0.page == p.number }.map(\.bottom).max() ?? 0
            #expect(bar.bottom >= lowest - 1e-6, "page \(p.number): the bar reaches the last line")
        }
    }
}
