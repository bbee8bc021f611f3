import Foundation
import Testing
import Typesetter

/// Table column widths (CSS 2.1 automatic table layout) read back from the PDF.
@Suite(.serialized) struct TableWidthTests {
    static let left = 125.0, right = 595.2756 - 125

    @Test func shortWordsStayWholeWhileProseWraps() throws {
        let prose = "Distance from the baseline to the top of the tallest glyphs of the primary face, measured in points"
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
        #expect(!words.contains { $0.text.count > 1 && ($0.text.hasSuffix("-") || $0.text.hasSuffix("\u{2010}")) },
                "no hyphenated fragments: \(words.map(\.text))")
        // The prose column wraps: "Distance" appears on several lines.
        #expect(words.filter { $0.text == "Distance" }.count == 3)
        let lines = Set(words.filter { $0.text == "Distance" }.map(\.yMin))
        #expect(words.contains { $0.text == "points" && !lines.contains($0.yMin) }, "prose wraps")
        for word in words where word.yMax < 780 { #expect(word.xMin >= Self.left - 0.5 && word.xMax <= Self.right + 0.5, "\(word)") }
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
        let tracked = words.filter { "TYPESETTING".contains($0.text) && $0.text.uppercased() == $0.text && !$0.text.isEmpty }
        #expect(tracked.map(\.text).joined() == "TYPESETTING", "\(words)")
        #expect(Set(tracked.map { ($0.yMin * 10).rounded() }).count == 1, "one line: \(tracked)")
    }
}
