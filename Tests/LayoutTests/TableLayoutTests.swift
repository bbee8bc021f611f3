@testable import Layout
import Styling
import Testing
import Typography

/// CSS 2.1 automatic table layout (§17.5.2.2) over the fake shaper (0.5 em per character).
@Suite struct TableLayoutTests {
    func cell(_ text: String, size: Double = 10) -> StyledParagraph {
        let font = FontSpec(families: ["X"], size: size)
        return StyledParagraph(runs: [StyledRun(text, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
    }

    /// Every text line and rule of a laid-out table, pt on the page.
    func layoutTable(_ header: [String], _ rows: [[String]], size: Double = 10, page: PageSetup) throws -> PageCollector {
        let table = StyledTable(alignments: header.map { _ in .left }, header: header.map { cell($0, size: size) },
                                rows: rows.map { $0.map { cell($0, size: size) } }, ruleColor: .black, cellPadding: 4)
        return try layout([StyledBlock(.table(table))], page: page)
    }

    /// Nothing drawn left of the left margin or right of the measure.
    func expectInsideMeasure(_ result: PageCollector, page: PageSetup) {
        let left = page.margins.left, right = page.margins.left + page.measure
        for p in result.pages {
            for element in p.elements {
                switch element {
                case .text(let line, let x, _):
                    #expect(x >= left - 1e-9 && x + line.width <= right + 1e-9, "'\(line.text)' at \(x)…\(x + line.width), measure \(left)…\(right)")
                case .line(let from, let to, _, _):
                    #expect(min(from.x, to.x) >= left - 1e-9 && max(from.x, to.x) <= right + 1e-9, "rule \(from.x)…\(to.x)")
                default: break
                }
            }
        }
    }

    @Test func maxContentWidthsWhenTheyFit() {
        #expect(Paginator.columnWidths(minimum: [10, 20], maximum: [50, 60], available: 200) == [50, 60])
        // Exactly the measure still counts as fitting.
        #expect(Paginator.columnWidths(minimum: [10, 20], maximum: [80, 120], available: 200) == [80, 120])
    }

    @Test func betweenMinAndMaxTheSlackGoesInProportionToWhatEachColumnWants() {
        let w = Paginator.columnWidths(minimum: [20, 40], maximum: [60, 240], available: 200)
        // Σmin 60, Σmax 300: (200 − 60) / (300 − 60) of each column's max − min.
        #expect(abs(w[0] - (20 + 40.0 * 140 / 240)) < 1e-9)
        #expect(abs(w[1] - (40 + 200.0 * 140 / 240)) < 1e-9)
        #expect(abs(w.reduce(0, +) - 200) < 1e-9)
        for (width, minimum) in zip(w, [20.0, 40]) { #expect(width >= minimum) }
    }

    @Test func overflowingMinimumsAreScaledToFitExactly() {
        let w = Paginator.columnWidths(minimum: [100, 200], maximum: [300, 400], available: 150)
        #expect(abs(w[0] - 50) < 1e-9 && abs(w[1] - 100) < 1e-9, "\(w)")
        // A column narrower than an equal share keeps its minimum; the others share the rest.
        let v = Paginator.columnWidths(minimum: [10, 200, 300], maximum: [10, 300, 900], available: 260)
        #expect(v[0] == 10)
        #expect(abs(v[1] - 100) < 1e-9 && abs(v[2] - 150) < 1e-9, "\(v)")
        #expect(abs(v.reduce(0, +) - 260) < 1e-9)
    }

    @Test func aLongWordKeepsItsWidthWhileTheProseColumnWraps() throws {
        let page = smallPage(lines: 40)  // measure 260 pt
        let prose = "words that go on and on about nothing in particular until the column has to wrap them twice over"
        let result = try layoutTable(["Term", "Meaning"], [["Supercalifragilistic", prose], ["CMYK", "short"]], page: page)
        let texts = result.lines.map(\.text)
        // 20 characters of 5 pt: 100 pt + padding would be lost under plain natural-width sharing.
        #expect(texts.contains("Supercalifragilistic"), "\(texts)")
        #expect(texts.contains("CMYK") && texts.contains("Term"))
        let proseLines = texts.filter { prose.contains($0) && $0.contains(" ") }
        #expect(proseLines.count >= 2, "the prose column wraps: \(texts)")
        #expect(proseLines.joined(separator: " ") == prose)
        expectInsideMeasure(result, page: page)
    }

    @Test func sixtyColumnsFitTheMeasureExactly() throws {
        let page = PageSetup(paper: .a4, margins: Margins(all: 64), blockSpacing: 0)
        let header = (1...60).map { "c\($0)" }
        let result = try layoutTable(header, [header.map { _ in "x" }], size: 4, page: page)
        #expect(result.pages.count == 1)
        // The top rule spans the table: exactly the measure.
        let rules = result.pages[0].elements.compactMap { element -> Double? in
            if case .line(let from, let to, _, _) = element { return to.x - from.x } else { return nil }
        }
        #expect(!rules.isEmpty)
        for width in rules { #expect(abs(width - page.measure) < 1e-6, "rule \(width) vs measure \(page.measure)") }
        expectInsideMeasure(result, page: page)
        // Every header's characters are drawn (broken, since 60 columns cannot hold them whole).
        #expect(result.lines.map(\.text).joined().filter { $0 != "x" } == header.joined())
    }

    @Test func minContentComesFromEachWordInItsOwnStyle() {
        let regular = RunStyle(font: FontSpec(families: ["X"], size: 10))
        var big = regular; big.font.size = 20
        let paragraph = StyledParagraph(runs: [StyledRun("ab cd", style: regular), StyledRun("ef gh-ij 漢字", style: big)],
                                        style: ParagraphStyle(baseFont: regular.font))
        let words = TableLayout.words(of: paragraph).map { $0.map(\.text).joined() }
        #expect(words == ["ab", "cdef", "gh-", "ij", "漢", "字"])
        #expect(TableLayout.words(of: paragraph)[1].map(\.style) == [regular, big], "a word keeps the style of each of its runs")
    }

    @Test func squeezedColumnsKeepTheirPaddingAndSqueezeTheirText() {
        // Minimums include 4 pt of padding on each side; the content parts (12 and 292 pt) are
        // squeezed into 200 − 2 × 8 pt and the padding is added back.
        let w = TableLayout.columnWidths(minimum: [20, 300], maximum: [40, 400], available: 200, padding: 4)
        #expect(abs(w[0] - 20) < 1e-9 && abs(w[1] - 180) < 1e-9, "\(w)")
        // Fitting minimums are laid out as without padding.
        #expect(TableLayout.columnWidths(minimum: [20, 30], maximum: [50, 60], available: 200, padding: 4) == [50, 60])
        // The padding shrinks only when it would leave less than each column's least content.
        #expect(TableLayout.sidePadding(2, content: [10, 10], available: 100) == 2)
        #expect(abs(TableLayout.sidePadding(2, content: Array(repeating: 4, count: 20), available: 120) - 1) < 1e-9)
        #expect(TableLayout.sidePadding(2, content: Array(repeating: 10, count: 20), available: 120) == 0)
    }

    @Test func squeezedTableKeepsAGapOfThePaddingBetweenColumns() throws {
        let page = smallPage(lines: 60)  // measure 260 pt
        let long = String(repeating: "identifier_", count: 8)  // 88 characters, 440 pt
        let result = try layoutTable(["a", "b", "c"], [["aaa", long, "ital"], ["bb", long + long, "x"]], page: page)
        expectInsideMeasure(result, page: page)
        // Every drawn line, by column (its left edge), as its span on the page.
        var spans: [Double: [(Double, Double)]] = [:]
        for p in result.pages {
            for case .text(let line, let x, _) in p.elements { spans[x, default: []].append((x, x + line.width)) }
        }
        let columns = spans.keys.sorted()
        #expect(columns.count == 3, "\(columns)")
        for (a, b) in zip(columns, columns.dropFirst()) {
            let end = spans[a]!.map(\.1).max()!
            #expect(b - end >= 4 - 1e-9, "gap between columns at \(a) and \(b): \(b - end)")
        }
        // The long word is broken, every character of it drawn.
        #expect(result.lines.map(\.text).filter { long.hasPrefix($0) || long.contains($0) }.count > 2)
    }
}
