import Styling
import TestSupport
import Testing
import Typography

@testable import Layout
@testable import PangoCairoBackend

/// The table's measuring call (`naturalWidth(of:)`, no drawable lines) against the full path
/// it replaces (`shape(_:width: nil).naturalWidth`): the same number to the bit for every kind
/// of cell, so column widths — and the drawn table — cannot change.
@Suite struct NaturalWidthTests {
    static func cells() -> [StyledParagraph] {
        let body = Support.style(Support.interKR, size: 10.5)
        var bold = Support.style(Support.interKR, size: 10.5, weight: .bold)
        bold.underline = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)
        let tracked = Support.style(Support.interKR, size: 12, letterSpacing: 0.6)
        var code = Support.style(["Noto Sans Mono"], size: 9.5)
        code.isCode = true
        var smallCaps = Support.style(Support.interKR, size: 10.5)
        smallCaps.smallCaps = .lowercase
        var linked = Support.style(Support.interKR, size: 10.5)
        linked.link = .external("https://example.com/a")
        var raised = Support.style(Support.interKR, size: 8)
        raised.baselineOffset = 3
        var cells: [StyledParagraph] = [
            Support.paragraph("k1", body),
            Support.paragraph("70", body, alignment: .right),
            Support.paragraph("설명 1", body),
            Support.paragraph("설명이 긴 한국어 셀 keep-all", body, hangul: .auto),
            Support.paragraph("설명이 긴 한국어 셀", body, hangul: .anywhere),
            Support.paragraph("centered and tracked", tracked, alignment: .center),
            Support.paragraph("line one\u{2028}a longer line two\nthree", body),
            Support.paragraph("", body),
            Support.paragraph("emoji 😀 and small caps", smallCaps),
            Support.paragraph("baseline-to-baseline — dashes", body, alignment: .justify),
            StyledParagraph(
                runs: [
                    StyledRun("plain ", style: body), StyledRun("bold link", style: bold),
                    StyledRun(" x", style: raised),
                    StyledRun(" site", style: linked),
                ],
                style: ParagraphStyle(baseFont: body.font)),
        ]
        var codeCell = Support.paragraph("let x = compute(value) // a code cell", code)
        codeCell.style.breakAnywhere = true
        cells.append(codeCell)
        var hanging = Support.paragraph("a hanging indent takes the full path", body)
        hanging.style.hangingIndent = 12
        cells.append(hanging)
        cells.append(Support.paragraph(String(repeating: "abcdefghij", count: 300), body))
        return cells
    }

    @Test func measuringCallAgreesWithShapingUnwrapped() {
        let shaper = PangoShaper()
        for cell in Self.cells() {
            let full = shaper.shape(cell, width: nil).naturalWidth
            let measured = shaper.naturalWidth(of: cell)
            #expect(measured == full, "\(cell.runs.map(\.text).joined()): \(measured) pt, shaped \(full) pt")
        }
    }

    @Test func keptMeasuringAgreesWithShapingUnwrapped() {
        let shaper = PangoShaper()
        for cell in Self.cells() {
            let full = PangoShaper().shape(cell, width: nil).naturalWidth
            let measured = shaper.naturalWidth(of: cell, keepingLayout: true)
            #expect(measured == full, "\(cell.runs.map(\.text).joined()): kept \(measured) pt, shaped \(full) pt")
        }
        shaper.forgetKeptLayouts()
    }

    /// Lines compared as they draw: position, width, metrics, text and every glyph.
    static func drawn(_ paragraph: ShapedParagraph) -> [String] {
        paragraph.lines.map { line in
            "\(line.x) \(line.width) \(line.ascent) \(line.descent) \(line.links.map(\.x)) \(line.text) "
                + "\(PangoShaper.glyphSummary(of: line))"
        }
    }

    /// A cell drawn from the layout its measuring kept is drawn as one shaped afresh, at the
    /// width it fits in and at narrower ones (wrapped, or cut from the kept layout's glyphs).
    @Test func keptCellsDrawAsCellsShapedAfresh() {
        for width in [400.0, 60.0, 25.0] {
            let keeping = PangoShaper()
            let fresh = PangoShaper()
            fresh.keptCells.removeAll()
            let cells = Self.cells()
            for cell in cells { _ = keeping.naturalWidth(of: cell, keepingLayout: true) }
            // All but the two keep-all Hangul cells, the line separator, the empty, code and hanging ones.
            #expect(keeping.keptCells.count == cells.count - 6, "\(keeping.keptCells.count) of \(cells.count) kept")
            for cell in cells {
                let kept = Self.drawn(keeping.shape(cell, width: width))
                let again = Self.drawn(fresh.shape(cell, width: width))
                #expect(kept == again, "\(cell.runs.map(\.text).joined()) at \(width) pt")
                #expect(!kept.isEmpty)
            }
            #expect(keeping.keptCells.count == 0, "every kept layout is drawn once")
            keeping.forgetKeptLayouts()
        }
    }

    /// A kept layout is handed only to an equal paragraph, once: the same text in another
    /// size or tracking, or drawn a second time, is shaped afresh — never a stale cell.
    @Test func keptLayoutNeverServesAnotherCell() {
        let keeping = PangoShaper()
        let fresh = PangoShaper()
        let small = Support.paragraph("k12345", Support.style(Support.interKR, size: 10.5))
        let large = Support.paragraph("k12345", Support.style(Support.interKR, size: 21))
        let tracked = Support.paragraph("k12345", Support.style(Support.interKR, size: 10.5, letterSpacing: 2))
        _ = keeping.naturalWidth(of: small, keepingLayout: true)
        for other in [large, tracked, small, small] {
            #expect(Self.drawn(keeping.shape(other, width: 300)) == Self.drawn(fresh.shape(other, width: 300)))
        }
        let a = fresh.shape(small, width: 300).naturalWidth
        let b = fresh.shape(large, width: 300).naturalWidth
        #expect(abs(b - 2 * a) < 0.05)
        keeping.forgetKeptLayouts()
    }

    /// The same text in another style or at another width is measured afresh: nothing is
    /// remembered between calls that could hand back a stale width.
    @Test func sameTextInAnotherStyleIsMeasuredAfresh() {
        let shaper = PangoShaper()
        let small = Support.paragraph("k12345", Support.style(Support.interKR, size: 10.5))
        let large = Support.paragraph("k12345", Support.style(Support.interKR, size: 21))
        let tracked = Support.paragraph("k12345", Support.style(Support.interKR, size: 10.5, letterSpacing: 2))
        let a = shaper.naturalWidth(of: small)
        let b = shaper.naturalWidth(of: large)
        let c = shaper.naturalWidth(of: tracked)
        #expect(abs(b - 2 * a) < 0.05, "\(a) pt at 10.5 pt, \(b) pt at 21 pt")
        #expect(abs(c - (a + 5 * 2)) < 0.05, "five gaps of 2 pt tracking: \(a) → \(c) pt")
        #expect(shaper.naturalWidth(of: small) == a)
    }

    /// A cell's words read from its own measured layout are as wide as each word laid out
    /// alone (what the table measured before, one layout per word): to the bit, so min-content
    /// widths — and the drawn table — cannot change. Letter-spaced cells, cells measured in
    /// pieces and hanging indents report none (the table then measures each word alone).
    @Test func wordWidthsFromTheCellAgreeWithWordsSetAlone() {
        let shaper = PangoShaper()
        let body = Support.style(Support.interKR, size: 10.5)
        let extra: [StyledParagraph] = [
            Support.paragraph("AV Wa To Ty “curly” «quotes» (parenthesised) x² 1,234.56 e.g.", body),
            Support.paragraph("한국어 설명이 길게 이어지는 문장입니다 漢字かなカナ混じり文", body, hangul: .anywhere),
            Support.paragraph("super-cali-fragilistic — well-known typography's rules", body),
        ]
        var measuredCells = 0
        for cell in Self.cells() + extra {
            let ranges = TableLayout.wordRanges(of: cell)
            let measured = shaper.naturalWidths(of: cell, words: ranges, keepingLayout: false)
            #expect(measured.paragraph == shaper.naturalWidth(of: cell))
            let tracked = cell.runs.contains { $0.style.letterSpacing != 0 }
            guard let widths = measured.words else {
                #expect(
                    tracked || cell.style.hangingIndent != 0 || cell.runs.map(\.text.utf8.count).reduce(0, +) > 1_000,
                    "\(cell.runs.map(\.text).joined()): no word widths")
                continue
            }
            #expect(!tracked)
            measuredCells += 1
            #expect(widths.count == ranges.count)
            var style = cell.style
            style.alignment = .left
            style.leftIndent = 0
            style.rightIndent = 0
            style.hangingIndent = 0
            for (range, width) in zip(ranges, widths) {
                let word = TableLayout.runs(of: cell, in: range)
                let alone = shaper.naturalWidth(of: StyledParagraph(runs: word, style: style))
                #expect(
                    width == alone,
                    """
                    '\(word.map(\.text).joined())' in '\(cell.runs.map(\.text).joined())': \(width) pt, alone \
                    \(alone) pt
                    """
                )
            }
        }
        #expect(measuredCells >= 10)
    }

    /// Measuring a table's columns shapes each cell once — its words are read from that
    /// shaping, not laid out one by one — and drawing a row takes one more layout per cell at
    /// most (none for the first cells, whose measured layouts are kept). Measuring each word
    /// alone, as before, took one more layout for every new word (600 here).
    @Test func aTableIsShapedOncePerCellToMeasureAndOnceToDraw() {
        let shaper = PangoShaper()
        let body = Support.style(Support.interKR, size: 10.5)
        func cell(_ text: String, _ alignment: TextAlignment = .left) -> StyledParagraph {
            Support.paragraph(text, body, hangul: .anywhere, alignment: alignment)
        }
        let header = [cell("Key"), cell("Value", .right), cell("Note")]
        let rows = (1...600).map { [cell("k\($0)"), cell("\($0 * 7)", .right), cell("설명 \($0) more words")] }
        let page = PageSetup(paper: PaperSize(width: 595, height: 842), margins: Margins(all: 72), blockSpacing: 0)
        let table = TableLayout(shaper: shaper, options: LayoutOptions(page: page))
        let before = shaper.layoutsMade
        let bounds = table.columnBounds(header: header, rows: rows, columns: 3, padding: 4)
        #expect(
            shaper.layoutsMade - before == 3 * (rows.count + 1),
            "\(shaper.layoutsMade - before) layouts for \(3 * (rows.count + 1)) cells")
        #expect(bounds[2].minimum < bounds[2].maximum, "the note's widest word is narrower than its widest cell")
        shaper.forgetKeptLayouts()

        let styled = StyledTable(
            alignments: [.left, .right, .left], header: header, rows: rows, ruleColor: .black, cellPadding: 4)
        let start = shaper.layoutsMade
        var items = 0
        table.layOut(styled, path: []) { _ in items += 1 }
        #expect(items == rows.count + 1)
        let made = shaper.layoutsMade - start
        // Fewer when the first cells' measured layouts are kept (not when another test
        // registers a font folder meanwhile: kept layouts are then dropped).
        #expect(made <= 2 * 3 * (rows.count + 1), "\(made) layouts to measure and draw \(3 * (rows.count + 1)) cells")
    }

    /// A list sets the same bullet thousands of times: a short unwrapped paragraph is shaped
    /// once and its lines reused; another text or style, a paragraph set to a width, or a
    /// longer paragraph, is shaped anew.
    @Test func aShortUnwrappedParagraphIsShapedOnce() {
        let shaper = PangoShaper()
        let body = Support.style(Support.interKR, size: 10.5)
        let bullet = Support.paragraph("•", body)
        let first = shaper.shape(bullet, width: nil)
        let start = shaper.layoutsMade
        for _ in 0..<100 { #expect(shaper.shape(bullet, width: nil).lines.map(\.width) == first.lines.map(\.width)) }
        #expect(shaper.layoutsMade == start, "the bullet is not shaped again")
        _ = shaper.shape(bullet, width: 200)
        _ = shaper.shape(bullet, width: 200)
        _ = shaper.shape(Support.paragraph("12.", body), width: nil)
        _ = shaper.shape(Support.paragraph("•", Support.style(Support.interKR, size: 12)), width: nil)
        #expect(shaper.layoutsMade - start == 4, "a width (twice), a new text or size is shaped")
        let long = Support.paragraph("a longer paragraph of words", body)
        _ = shaper.shape(long, width: nil)
        let afterLong = shaper.layoutsMade
        _ = shaper.shape(long, width: nil)
        #expect(shaper.layoutsMade > afterLong, "longer paragraphs are shaped each time")
    }
}
