import Styling
import TestSupport
import Testing
import Typography

@testable import Layout

/// Tables stream like paragraphs: a row is shaped, placed and released before the next one is
/// made, so a long table holds only the rows of the page being filled.
@Suite struct TableStreamingTests {
    /// Counts the shaper's calls: `wrapped` are the calls at a width (laying out a cell),
    /// the others measure (column widths).
    final class CountingShaper: TextShaper {
        let inner = FakeShaper()
        var wrapped = 0
        var unwrapped = 0
        func metrics(of font: FontSpec) -> FontMetrics { inner.metrics(of: font) }
        func shape(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph {
            if width != nil { wrapped += 1 } else { unwrapped += 1 }
            return inner.shape(paragraph, width: width)
        }
    }

    /// Records, as each page is drawn, how many cells had been laid out.
    final class Recorder: PageRenderer {
        let shaper: CountingShaper
        var cellsAtPage: [Int] = []
        var rowsOnPage: [Int] = []
        init(_ shaper: CountingShaper) { self.shaper = shaper }
        func render(_ page: Page) throws {
            cellsAtPage.append(shaper.wrapped)
            rowsOnPage.append(
                page.elements.filter { if case .text(let line, _, _) = $0 { line.text.hasPrefix("r") } else { false } }
                    .count)
        }
    }

    func cell(_ text: String) -> StyledParagraph {
        let font = FontSpec(families: ["X"], size: 10)
        return StyledParagraph(
            runs: [StyledRun(text, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
    }

    @Test(arguments: [200, 2_000])
    func rowsAreLaidOutOnlyAsThePagesNeedThem(rows: Int) throws {
        let table = StyledTable(
            alignments: [.left, .right], header: [cell("Name"), cell("Value")],
            rows: (1...rows).map { [cell("r\($0)"), cell("\($0)")] }, ruleColor: .black, cellPadding: 2)
        let shaper = CountingShaper()
        let recorder = Recorder(shaper)
        let paginator = Paginator(
            shaper: shaper, options: LayoutOptions(page: smallPage(lines: 20)), renderer: recorder)
        try paginator.add(StyledBlock(.table(table)))
        try paginator.finish()
        #expect(recorder.rowsOnPage.reduce(0, +) == rows, "every row is drawn once")
        let perPage = recorder.rowsOnPage.max() ?? 0
        #expect(recorder.cellsAtPage.count > rows / perPage - 1)
        // When page n is drawn, the rows laid out are those of pages 1…n, the row that did not
        // fit and the one held back behind it (2 cells a row, the header's 2 cells once) — not
        // the whole table.
        var drawn = 0
        for (n, cells) in recorder.cellsAtPage.enumerated().dropLast() {
            drawn += recorder.rowsOnPage[n]
            #expect(cells <= 2 + 2 * (drawn + 2), "page \(n + 1): \(cells) cells laid out for \(drawn) rows drawn")
        }
        #expect(recorder.cellsAtPage.last == 2 + 2 * rows)
    }

    /// A cell equal to one met shortly before is neither measured nor shaped again: a table of
    /// 1,000 rows of two repeated cells measures and shapes four cells (the header's two and
    /// the body's two), and draws every row. Cells that all differ are each shaped (the test
    /// above), and a memory full of them is emptied, so repeats after that are shaped again.
    @Test func repeatedCellsAreMeasuredAndShapedOnce() throws {
        let rows = 1_000
        let table = StyledTable(
            alignments: [.left, .right], header: [cell("Name"), cell("Value")],
            rows: (1...rows).map { _ in [cell("r x"), cell("y")] }, ruleColor: .black, cellPadding: 2)
        let shaper = CountingShaper()
        let recorder = Recorder(shaper)
        let paginator = Paginator(
            shaper: shaper, options: LayoutOptions(page: smallPage(lines: 20)), renderer: recorder)
        try paginator.add(StyledBlock(.table(table)))
        try paginator.finish()
        #expect(recorder.rowsOnPage.reduce(0, +) == rows, "every row is drawn")
        #expect(shaper.wrapped == 4, "\(shaper.wrapped) cells shaped at their widths")
        #expect(shaper.unwrapped <= 8, "\(shaper.unwrapped) cells and words measured")

        let distinct = CountingShaper()
        let cycle = CellMemory.capacity + 1
        let cycling = StyledTable(
            alignments: [.left], header: [cell("Name")], rows: (0..<(2 * cycle)).map { [cell("r\($0 % cycle)")] },
            ruleColor: .black, cellPadding: 2)
        let layout = TableLayout(shaper: distinct, options: LayoutOptions(page: smallPage(lines: 20)))
        layout.layOut(cycling, path: []) { _ in }
        #expect(distinct.wrapped > 2 * CellMemory.capacity, "a full memory is emptied, not grown")
    }

    /// A table's items are the same whether taken at once or one at a time, and the same as a
    /// table built from arrays (the compact rows change nothing).
    @Test func streamedItemsMatchTheWholeTable() throws {
        let rows = (1...40).map { i in
            [cell("row \(i) " + String(repeating: "word ", count: i % 7)), cell("\(i * 37)")]
        }
        let table = StyledTable(
            alignments: [.left, .right], header: [cell("Name"), cell("Value")], rows: rows, ruleColor: .black,
            cellPadding: 4)
        let layout = TableLayout(shaper: FakeShaper(), options: LayoutOptions(page: smallPage(lines: 20)))
        var streamed: [Item] = []
        layout.layOut(table, path: []) { streamed.append($0) }
        let whole = layout.items(for: table, path: [])
        #expect(streamed.count == whole.count && streamed.count == 41)
        for (a, b) in zip(streamed, whole) {
            #expect(a.height == b.height && a.breakBefore == b.breakBefore && a.elements.count == b.elements.count)
        }
    }
}

/// The words a column's min-content width is measured on, found in one walk over each run,
/// are those of the character-by-character definition: text between whitespace, split after a
/// hyphen or dash followed by a letter, each CJK ideograph alone, each word as the runs
/// (styles) holding its characters; but not after dashes that open a word, nor inside the
/// last 24 characters of the last word (23 before a line separator) after its last CJK
/// character, where the composer allows no break either.
@Suite struct TableWordTests {
    static func reference(_ paragraph: StyledParagraph) -> [[StyledRun]] {
        var words: [[StyledRun]] = []
        var current: [StyledRun] = []
        func flush() {
            if !current.isEmpty {
                words.append(current)
                current = []
            }
        }
        let characters = paragraph.runs.flatMap { run in run.text.map { (character: $0, style: run.style) } }
        func isSeparator(_ c: Character) -> Bool { ["\n", "\u{2028}", "\u{2029}"].contains(c.unicodeScalars.first) }
        // Whether character i is in the last word of its line, counted as the composer counts.
        func inLastWord(_ i: Int) -> Bool {
            guard i < characters.count else { return false }
            var end = i
            while end < characters.count, !characters[end].character.isWhitespace { end += 1 }
            guard end == characters.count || isSeparator(characters[end].character) else { return false }
            let tail = characters[i..<end].map(\.character)
            let limit = end == characters.count ? 24 : 23
            let scalarsAfter = tail.dropFirst().reduce(0) { $0 + $1.unicodeScalars.count }
            return !tail.contains { $0.unicodeScalars.contains { $0.value >= 0x2E80 } } && 1 + scalarsAfter <= limit
        }
        var onlyDashes = true
        for (i, (character, style)) in characters.enumerated() {
            if character.isWhitespace {
                flush()
                onlyDashes = true
                continue
            }
            let breaksAround = character.unicodeScalars.first.map(TableLayout.isIdeographic) ?? false
            if breaksAround { flush() }
            if let last = current.indices.last, current[last].style == style {
                current[last].text.append(character)
            } else {
                current.append(StyledRun(String(character), style: style))
            }
            onlyDashes = onlyDashes && "-–—".contains(character)
            let nextIsLetter = i + 1 < characters.count && characters[i + 1].character.isLetter
            let dashBreak = "-‐–—".contains(character) && nextIsLetter && !onlyDashes
            if breaksAround || dashBreak && !(inLastWord(i) && inLastWord(i + 1)) { flush() }
        }
        flush()
        return words
    }

    @Test func wordsMatchTheCharacterByCharacterDefinition() {
        let plain = RunStyle(font: FontSpec(families: ["X"], size: 10))
        var bold = plain
        bold.font.weight = .bold
        let pieces = [
            "ab", "c", " ", "-", "—", "x-y", "漢字", "한국어", "  ", "e\u{301}", "9", "–z", "", "-1", "é-", "\n",
            "\u{2028}", "raised-eyebrow", "--flag", "a-b-c-d-e-f-g-h-i-j-k-l-m",
        ]
        var generator = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func random(_ n: Int) -> Int { generator.below(n) }
        for _ in 0..<500 {
            let runs = (0..<(1 + random(5))).map { _ in
                StyledRun(
                    (0..<random(4)).map { _ in pieces[random(pieces.count)] }.joined(),
                    style: random(3) == 0 ? bold : plain)
            }
            let paragraph = StyledParagraph(runs: runs, style: ParagraphStyle(baseFont: plain.font))
            #expect(TableLayout.words(of: paragraph) == Self.reference(paragraph), "\(runs.map(\.text))")
        }
    }
}
