import Foundation
import TestSupport
import Testing

/// A highlighted code block with a line longer than the highlighter's limit
/// (``CodeHighlighting/CodeHighlighter/longestHighlightedLine``): the line is set plain, the
/// lines around it highlighted, and the text of every line is in the PDF.
@Suite struct LongCodeLineRenderTests {
    @Test(arguments: ["html", "js", "c"])
    func everyLineOfABlockWithALongLineIsInThePDF(language: String) throws {
        let long = String(repeating: "<a b=\"", count: 2_000) + "LONGEND"
        let lines = ["<p>FIRSTLINE</p>", long, "<p>LASTLINE</p>"]
        let markdown = "```\(language)\n" + lines.joined(separator: "\n") + "\n```\n"
        let (pdf, _) = try Render.markdown(markdown, name: "long-code-line-\(language)")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("FIRSTLINE") && text.contains("LASTLINE") && text.contains("LONGEND"))
        #expect(text.components(separatedBy: "<a").count - 1 == 2_000, "\(language)")
    }
}
