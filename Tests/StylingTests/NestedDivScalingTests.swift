import DocumentModel
import Foundation
import MarkdownParser
import Styling
import TestSupport
import Testing
import Typography

/// Many small divs and notes inside one outer div: the outer div is one top-level block of
/// thousands of styled blocks, and its notes are given to the blocks citing them in one pass
/// (a search per note from the end of the block made 2,000 sections take 28 s instead of 3 s).
@Suite(.serialized) struct NestedDivScalingTests {
    /// `sections` paragraphs each citing its own note, each followed by a small div, all inside one div.
    static func document(sections: Int) -> String {
        var text = "::: {.outer}\n\n"
        for i in 0..<sections {
            text += "Paragraph \(i) with a note[^n\(i)].\n\n::: {.caption}\ndiv \(i) content\n:::\n\n"
        }
        text += ":::\n\n"
        for i in 0..<sections { text += "[^n\(i)]: Note \(i).\n\n" }
        return text
    }

    /// Parse and style, seconds, and the styled document.
    func styled(_ text: String) -> (Double, StyledDocument) {
        let start = Date()
        let styled = Styler.style(MarkdownParser.parse(text, file: "t.md").document, theme: .default)
        return (Date().timeIntervalSince(start), styled)
    }

    @Test(.slow) func fourTimesTheDivsTakeAtMostSixTimesTheTime() {
        // The two sizes are timed in turn, four times, and the best of each kept, so that other
        // tests running at the same time slow neither more than the other.
        let small = Self.document(sections: 300)
        let large = Self.document(sections: 1_200)
        var t1 = Double.infinity
        var t4 = Double.infinity
        var largeDocument: StyledDocument?
        for _ in 0..<4 {
            t1 = min(t1, styled(small).0)
            let (seconds, document) = styled(large)
            t4 = min(t4, seconds)
            largeDocument = document
        }
        #expect(t4 <= 6 * t1, "× 300 \(t1) s, × 1 200 \(t4) s")
        // Every note is set once, with the block that cites it.
        let holders = largeDocument!.blocks.filter { !$0.footnotes.isEmpty }
        #expect(holders.count == 1_200)
        #expect(holders.allSatisfy { block in block.footnotes.keys.allSatisfy { block.links(to: "fn-\($0)") } })
    }
}
