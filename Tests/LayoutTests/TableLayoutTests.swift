import Styling
import Testing
import Typography

@testable import Layout

/// CSS 2.1 automatic table layout (§17.5.2.2) over the fake shaper (0.5 em per character).
@Suite struct TableLayoutTests {
    func cell(_ text: String, size: Double = 10) -> StyledParagraph {
        let font = FontSpec(families: ["X"], size: size)
        return StyledParagraph(
            runs: [StyledRun(text, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
    }

    /// Every text line and rule of a laid-out table, pt on the page.
    func layoutTable(_ header: [String], _ rows: [[String]], size: Double = 10, page: PageSetup) throws -> PageCollector
    {
        let table = StyledTable(
            alignments: header.map { _ in .left }, header: header.map { cell($0, size: size) },
            rows: rows.map { $0.map { cell($0, size: size) } }, ruleColor: .black, cellPadding: 4)
        return try layout([StyledBlock(.table(table))], page: page)
    }

    /// Nothing drawn left of the left margin or right of the measure.
    func expectInsideMeasure(_ result: PageCollector, page: PageSetup) {
        let left = page.margins.left
        let right = page.margins.left + page.measure
        for p in result.pages {
            for element in p.elements {
                switch element {
                case .text(let line, let x, _):
                    #expect(
                        x >= left - 1e-9 && x + line.width <= right + 1e-9,
                        "'\(line.text)' at \(x)…\(x + line.width), measure \(left)…\(right)")
                case .line(let from, let to, _, _):
                    #expect(
                        min(from.x, to.x) >= left - 1e-9 && max(from.x, to.x) <= right + 1e-9, "rule \(from.x)…\(to.x)")
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
        let result = try layoutTable(
            ["Term", "Meaning"], [["Supercalifragilistic", prose], ["CMYK", "short"]], page: page)
        let texts = result.lines.map(\.text)
        // 20 characters of 5 pt: 100 pt + padding would be lost under plain natural-width sharing.
        #expect(texts.contains("Supercalifragilistic"), "\(texts)")
        #expect(texts.contains("CMYK") && texts.contains("Term"))
        let proseLines = texts.filter { prose.contains($0) && $0.contains(" ") }
        #expect(proseLines.count >= 2, "the prose column wraps: \(texts)")
        #expect(proseLines.joined(separator: " ") == prose)
        expectInsideMeasure(result, page: page)
    }

    /// Sixty columns already at the smallest size for a table (6 pt by default; these are 4 pt)
    /// do not fit the measure: they are split into parts, each repeating the first column,
    /// each rule inside the measure and every header drawn whole.
    @Test func sixtyColumnsSplitIntoPartsInsideTheMeasure() throws {
        let page = PageSetup(paper: .a4, margins: Margins(all: 64), blockSpacing: 0)
        let header = (1...60).map { "c\($0)" }
        let result = try layoutTable(header, [header.map { _ in "x" }], size: 4, page: page)
        #expect(result.pages.count == 1)
        let rules = result.pages[0].elements.compactMap { element -> Double? in
            if case .line(let from, let to, _, _) = element { return to.x - from.x } else { return nil }
        }
        #expect(!rules.isEmpty)
        for width in rules { #expect(width <= page.measure + 1e-6, "rule \(width) vs measure \(page.measure)") }
        expectInsideMeasure(result, page: page)
        let texts = result.lines.map(\.text)
        for name in header { #expect(texts.contains(name), "\(name) drawn whole") }
        let parts = texts.filter { $0.hasPrefix("Continued:") }.count + 1
        #expect(parts >= 2, "\(texts)")
        #expect(texts.filter { $0 == "c1" }.count == parts, "the first column in every part")
        #expect(texts.first?.hasPrefix("Columns 1") == true, "\(texts.prefix(2))")
    }

    /// A table whose columns need a little more than the measure is set smaller, in
    /// proportion, and not split; one that fits is set as styled.
    @Test func aSlightlyTooWideTableIsSetSmaller() throws {
        let page = PageSetup(paper: .a4, margins: Margins(all: 64), blockSpacing: 0)
        // 20 columns of 8 characters at 10 pt (40 pt) plus 8 pt of padding: 960 pt; the
        // measure is 467 pt, the padding at least 4 pt a column: about 0.48 of the size.
        let header = (1...20).map { String(format: "h%07d", $0) }
        let table = StyledTable(
            alignments: header.map { _ in .left }, header: header.map { cell($0, size: 10) },
            rows: [header.map { cell($0, size: 10) }], ruleColor: .black, cellPadding: 4)
        let layout = TableLayout(shaper: FakeShaper(), options: LayoutOptions(page: page))
        var small = table
        small.smallestTextSize = 4
        let fit = layout.fit(small, columns: 20, available: page.measure)
        #expect(fit.parts.count == 1)
        #expect(fit.scale < 0.5 && fit.scale > 0.4, "\(fit.scale)")
        // With the default floor (6 pt) the same table is split, at 6 pt.
        let split = layout.fit(table, columns: 20, available: page.measure)
        #expect(split.parts.count > 1 && abs(split.scale - 0.6) < 1e-9, "\(split.parts) at \(split.scale)")
        #expect(split.parts.dropFirst().allSatisfy { $0.first == 0 })
        #expect(split.parts.flatMap { $0.filter { $0 > 0 } } == Array(1..<20), "every other column once, in order")
        let narrow = StyledTable(
            alignments: [.left, .left], header: [cell("a"), cell("b")],
            rows: [[cell("c"), cell("d")]], ruleColor: .black, cellPadding: 4)
        let fits = layout.fit(narrow, columns: 2, available: page.measure)
        #expect(fits.scale == 1 && fits.parts == [[0, 1]])
    }

    @Test func minContentComesFromEachWordInItsOwnStyle() {
        let regular = RunStyle(font: FontSpec(families: ["X"], size: 10))
        var big = regular
        big.font.size = 20
        let paragraph = StyledParagraph(
            runs: [StyledRun("ab cd", style: regular), StyledRun("ef gh-ij 漢字", style: big)],
            style: ParagraphStyle(baseFont: regular.font))
        let words = TableLayout.words(of: paragraph).map { $0.map(\.text).joined() }
        #expect(words == ["ab", "cdef", "gh-", "ij", "漢", "字"])
        #expect(
            TableLayout.words(of: paragraph)[1].map(\.style) == [regular, big],
            "a word keeps the style of each of its runs")
    }

    @Test func squeezedColumnsKeepTheirPaddingAndSqueezeTheirText() {
        // Minimums include 4 pt of padding on each side; the content parts (12 and 292 pt) are
        // squeezed into 200 − 2 × 8 pt and the padding is added back.
        let w = TableLayout.columnWidths(minimum: [20, 300], maximum: [40, 400], available: 200, padding: 4)
        #expect(abs(w[0] - 20) < 1e-9 && abs(w[1] - 180) < 1e-9, "\(w)")
        // Fitting minimums are laid out as without padding.
        #expect(
            TableLayout.columnWidths(minimum: [20, 30], maximum: [50, 60], available: 200, padding: 4) == [50, 60])
        // The padding shrinks only when it would leave less than each column's least content.
        #expect(TableLayout.sidePadding(2, content: [10, 10], available: 100) == 2)
        #expect(abs(TableLayout.sidePadding(2, content: Array(repeating: 4, count: 20), available: 120) - 1) < 1e-9)
        #expect(TableLayout.sidePadding(2, content: Array(repeating: 10, count: 20), available: 120) == 0)
    }

    /// A column whose widest word is wider than a legible word (a URL) breaks it anyway: when
    /// the minimums fit with it counted at that width, every column shares the room by what its
    /// longest line wants, so a column of short words gets more than its narrowest (a new-user
    /// trial: `word word word word` was set a word a line beside a URL).
    @Test func aLongURLDoesNotHoldTheOtherColumnsToTheirNarrowest() {
        // Content minimums 12, 32 and 392 pt (padding 4 on each side); 80 pt is a legible word.
        let w = TableLayout.columnWidths(
            minimum: [20, 40, 400], maximum: [20, 120, 420], available: 300, padding: 4, legibleWord: 80)
        // Counted at 80 + 8 pt, the URL's minimum leaves Σmin 148: (300 − 148) / (560 − 148) of
        // each column's max − min.
        let share = 152.0 / 412
        #expect(abs(w[0] - 20) < 1e-9 && abs(w[1] - (40 + 80 * share)) < 1e-9, "\(w)")
        #expect(abs(w[2] - (88 + 332 * share)) < 1e-9 && abs(w.reduce(0, +) - 300) < 1e-9, "\(w)")
        // When even the counted minimums overflow, they are squeezed as before.
        let v = TableLayout.columnWidths(
            minimum: [100, 100, 400], maximum: [100, 120, 420], available: 250, padding: 4, legibleWord: 80)
        #expect(abs(v.reduce(0, +) - 250) < 1e-9, "\(v)")
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

    /// The warning's words: what was too wide and what was done.
    @Test func theWarningSaysWhatWasDone() {
        var adjustment = TableAdjustment(
            location: nil, columns: 30, styledSize: 9.5, size: 8.6, parts: 1,
            measure: 345.3)
        #expect(
            adjustment.message == "a table of 30 columns is too wide for the measure (345.3 pt) at 9.5 pt: "
                + "its text is set at 8.6 pt")
        adjustment.size = 8
        adjustment.parts = 4
        #expect(
            adjustment.message.hasSuffix(
                "its text is set at 8 pt (the smallest size for a table) and "
                    + "its columns are split into 4 parts, one after another, "
                    + "each repeating the first column"))
    }
}
