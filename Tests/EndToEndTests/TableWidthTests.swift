import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Table column widths (CSS 2.1 automatic table layout) read back from the PDF.
@Suite(.serialized) struct TableWidthTests {
    /// The default theme's text area on A4: its measure follows its Body face.
    static let page = Typesetter.fittedPage(of: .default)
    static let left = page.margins.left, right = page.paper.width - page.margins.right

    /// Table cells take tabular figures: in a right-aligned column, amounts of as many figures
    /// are one width and their decimal points stand in line (proportional figures made
    /// `1111.11` 9 pt narrower than `8888.88` in the default face); a span that turns `tnum`
    /// off has its proportional figures back.
    @Test func figuresInCellsStandInLine() throws {
        let markdown = """
            | Item | Amount |
            |:-----|-------:|
            | one | 1111.11 |
            | eight | 8888.88 |
            | mixed | 4071.96 |
            | off | [1111.11]{features="-tnum"} |
            """
        let (pdf, _) = try Render.markdown(markdown, name: "table-tabular-figures")
        let words = try PDFProbe.words(pdf)
        let amounts = words.filter { ["1111.11", "8888.88", "4071.96"].contains($0.text) }
        try #require(amounts.count == 4, "\(words.map(\.text))")
        let widths = amounts.prefix(3).map { $0.xMax - $0.xMin }
        #expect(widths.max()! - widths.min()! < 0.05, "\(widths)")
        let rightEdges = amounts.map(\.xMax)
        #expect(rightEdges.max()! - rightEdges.min()! < 0.05, "right-aligned: \(rightEdges)")
        #expect(widths[0] - (amounts[3].xMax - amounts[3].xMin) > 1, "proportional again: \(amounts)")
    }

    @Test func shortWordsStayWholeWhileProseWraps() throws {
        let prose =
            "Distance from the baseline to the top of the tallest glyphs of the primary face, measured in points"
        let markdown = """
            | Term | 한국어 | Meaning | Unit |
            |:-----|:-------|:--------|:----:|
            | Term | 한국어 | \(prose) | pt |
            | CMYK | 인쇄 4원색 | \(prose) | % |
            | Descent | 디센트 | \(prose) | pt |
            """
        let options = RenderOptions(themeRequest: ThemeRequest(sizeCategory: .accessibility2))
        let (pdf, _) = try Render.markdown(markdown, name: "table-short-words", options: options)
        let words = try PDFProbe.words(pdf)
        for word in ["Term", "CMYK", "Descent", "한국어", "디센트"] {
            #expect(words.contains { $0.text == word }, "'\(word)' whole in \(words.map(\.text))")
        }
        #expect(
            !words.contains { $0.text.count > 1 && $0.endsInHyphen },
            "no hyphenated fragments: \(words.map(\.text))")
        // The prose column wraps: "Distance" appears on several lines.
        #expect(words.filter { $0.text == "Distance" }.count == 3)
        let lines = Set(words.filter { $0.text == "Distance" }.map(\.yMin))
        #expect(words.contains { $0.text == "points" && !lines.contains($0.yMin) }, "prose wraps")
        // The page follows the adapted Body: its measure is the AX2 Body's 68 characters.
        let page = Typesetter.fittedPage(of: Theme.default.applying(sizeCategory: .accessibility2))
        let (left, right) = (page.margins.left, page.paper.width - page.margins.right)
        for word in words where word.yMax < 780 {
            #expect(word.xMin >= left - 0.5 && word.xMax <= right + 0.5, "\(word)")
        }
    }

    @Test func sixtyColumnsStayInsideTheMargins() throws {
        let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz01234567")
        let headers: [String] = symbols.map { String($0) }
        let rule = String(repeating: "---|", count: 60)
        let body = String(repeating: " . |", count: 60)
        let markdown = "| " + headers.joined(separator: " | ") + " |\n|" + rule + "\n|" + body + "\n"
        let (pdf, _) = try Render.markdown(markdown, name: "table-sixty", options: RenderOptions())
        let words = try PDFProbe.words(pdf).filter { $0.yMax < 780 }  // footer excluded
        let text = words.map(\.text).joined()
        for header in headers { #expect(text.contains(header), "header \(header) in the PDF") }
        for word in words { #expect(word.xMin >= Self.left - 0.5 && word.xMax <= Self.right + 0.5, "\(word)") }
    }

    @Test func trackedCellStaysOnOneLine() throws {
        let markdown = """
            | Attribute | Sample |
            |:----------|:-------|
            | `tracking=3` | [TYPESETTING]{tracking=3} |
            """
        let (pdf, _) = try Render.markdown(markdown, name: "table-tracked", options: RenderOptions())
        let words = try PDFProbe.words(pdf).filter { $0.yMax < 780 }
        // poppler may split tracked text into several words: all of them on one line.
        let tracked = words.filter {
            "TYPESETTING".contains($0.text) && $0.text.uppercased() == $0.text && !$0.text.isEmpty
        }
        #expect(tracked.map(\.text).joined() == "TYPESETTING", "\(words)")
        #expect(Set(tracked.map { ($0.yMin * 10).rounded() }).count == 1, "one line: \(tracked)")
    }

    /// Squeezed tables (their widest words overflow the measure) of several shapes: cells
    /// without spaces, so every word on a line is in a column of its own. Adjacent columns' text
    /// keeps a gap of at least the cell padding (4 pt) — the long word breaks instead — and
    /// nothing crosses the margins.
    @Test(arguments: [
        "| a | b | c |\n|---|---|---|\n| aaa | `longish_identifier_name_longish_identifier_name_longish_identifier` | "
            + "ital |",
        "| one | two |\n|---|---|\n| Donaudampfschifffahrtsgesellschaftskapitänswitwe | "
            + "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz |",
        "| a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|\n| internationalization | localization "
            + "| `configuration_value` | typesetting | 12345.678 | hyphenation | justification | composition |",
        "| 가 | 나 | 다 |\n|---|---|---|\n| 가나 | 대한민국헌법제일조대한민국은민주공화국이다대한민국의주권은국민에게있고모든권력은국민으로부터나온다 | 끝 |",
    ])
    func squeezedColumnsKeepTheirGap(markdown: String) throws {
        let (pdf, _) = try Render.markdown(markdown, name: "table-squeezed-gap", options: RenderOptions())
        let words = try PDFProbe.words(pdf).filter { $0.yMax < 780 }
        var byLine: [Int: [PDFProbe.Word]] = [:]
        for word in words { byLine[Int(word.yMin.rounded()), default: []].append(word) }
        // A table split into parts of columns labels each part with a line of prose: its words
        // are not columns.
        byLine = byLine.filter { _, line in !line.contains { ["Columns", "Continued:"].contains($0.text) } }
        #expect(byLine.count >= 3, "the long word wraps: \(words)")
        for line in byLine.values {
            let sorted = line.sorted { $0.xMin < $1.xMin }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(b.xMin - a.xMax >= 4 - 0.5, "gap between '\(a.text)' and '\(b.text)': \(b.xMin - a.xMax)")
            }
        }
        for word in words { #expect(word.xMin >= Self.left - 0.5 && word.xMax <= Self.right + 0.5, "\(word)") }
    }
}
