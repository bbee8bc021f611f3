import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

/// A list item that opens with something other than a paragraph at its edge hangs its marker
/// outside that block (``HangingMarker``) instead of inside it.
@Suite struct HangingMarkerStylingTests {
    func blocks(_ markdown: String) -> [StyledBlock] {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default).blocks
    }

    func paragraph(_ block: StyledBlock) -> StyledParagraph? {
        if case .paragraph(let p) = block.content { p } else { nil }
    }

    @Test func aPlainItemKeepsItsParagraphMarker() throws {
        let first = try #require(blocks("- plain\n").first)
        #expect(paragraph(first)?.marker?.first?.text == "•")
        #expect(first.hangingMarkers.isEmpty)
    }

    @Test func aCodeBlockHangsTheMarkerOutsideItsPanel() throws {
        let all = blocks("- ```\n  code\n  ```\n")
        #expect(all.count == 1, "no marker line of its own")
        let code = try #require(all.first)
        #expect(code.isCode)
        #expect(paragraph(code)?.marker == nil)
        let marker = try #require(code.hangingMarkers.first)
        #expect(marker.runs.first?.text == "•")
        let indent = try #require(paragraph(code)?.style.leftIndent)
        #expect(abs(marker.edge - (indent - code.backgroundPadding)) < 1e-9, "the panel's left edge is the item's edge")
        #expect(marker.structure.last?.role == .label)
    }

    @Test func aQuoteHangsTheMarkerLeftOfItsBar() throws {
        let quote = try #require(blocks("1. > quoted\n").first)
        let marker = try #require(quote.hangingMarkers.first)
        #expect(marker.runs.first?.text == "1.")
        #expect(paragraph(quote)?.marker == nil)
        let bar = try #require(quote.quoteBars.first)
        #expect(marker.edge < bar)
    }

    @Test func aTableOpeningAnItemCarriesTheMarker() throws {
        let all = blocks("- | a | b |\n  |---|---|\n  | 1 | 2 |\n")
        #expect(all.count == 1)
        guard case .table = all[0].content else {
            Issue.record("expected a table: \(all[0].content)")
            return
        }
        #expect(all[0].hangingMarkers.map { $0.runs.first?.text } == ["•"])
    }

    @Test func aNestedListShowsBothMarkers() throws {
        let first = try #require(blocks("- - inner\n  - second\n").first)
        #expect(paragraph(first)?.marker?.first?.text == "◦")
        #expect(first.hangingMarkers.map { $0.runs.first?.text } == ["•"])
        let inner = try #require(paragraph(first)?.style.leftIndent)
        #expect(first.hangingMarkers[0].edge < inner)
    }
}
