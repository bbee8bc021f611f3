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

    /// Parse and style, best of three runs, seconds.
    func seconds(_ text: String) -> (Double, StyledDocument) {
        var best = Double.infinity
        var last: StyledDocument?
        for _ in 0..<3 {
            let start = Date()
            let styled = Styler.style(MarkdownParser.parse(text, file: "t.md").document, theme: .default)
            best = min(best, Date().timeIntervalSince(start))
            last = styled
        }
        return (best, last!)
    }

    @Test(.slow) func fourTimesTheDivsTakeAtMostSixTimesTheTime() {
        let (t1, _) = seconds(Self.document(sections: 300))
        let (t4, styled) = seconds(Self.document(sections: 1_200))
        #expect(t4 <= 6 * t1, "× 300 \(t1) s, × 1 200 \(t4) s")
        // Every note is set once, with the block that cites it.
        let holders = styled.blocks.filter { !$0.footnotes.isEmpty }
        #expect(holders.count == 1_200)
        #expect(holders.allSatisfy { block in block.footnotes.keys.allSatisfy { block.links(to: "fn-\($0)") } })
    }
}
