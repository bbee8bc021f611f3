import Foundation
import TestSupport
import Testing

/// Links, images and notes cited inside a loose definition's indented blocks, defined before
/// and after the list, read back from the PDF: the links are link annotations to their
/// destinations, no bracketed reference is left as text, and both notes are set at the foot of
/// the page, numbered in document order.
@Suite(.serialized) struct DefinitionReferenceRenderTests {
    @Test func referencesInsideADefinitionResolveInThePDF() throws {
        let markdown = """
            [before]: https://example.com/before
            [^pre]: PRENOTE defined before the list.

            Term
            :   Intro paragraph.

                Second block with [a link][before], [after][after] and notes[^pre][^post].

            Other text[^post] and [after].

            [after]: https://example.com/after
            [^post]: POSTNOTE defined after the list.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "definition-references")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf)
        #expect(!text.contains("[a link]") && !text.contains("[before]") && !text.contains("[^"), "\(text)")
        #expect(text.contains("PRENOTE") && text.contains("POSTNOTE"))
        let words = try PDFProbe.words(pdf)
        let pre = try #require(words.first { $0.text == "PRENOTE" })
        let post = try #require(words.first { $0.text == "POSTNOTE" })
        // Note 1 (cited first, inside the definition) above note 2.
        #expect(pre.yMin < post.yMin)
        let body = try #require(words.first { $0.text == "Other" })
        #expect(pre.yMin > body.yMax)
        let streams = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"]).output
        #expect(streams.contains("https://example.com/before") && streams.contains("https://example.com/after"))
    }

    /// Every warning from inside a definition's indented blocks (parsed on their own) is given
    /// at its line and column in the file: a missing picture, a formula that does not parse, an
    /// unknown attribute value — in a paragraph, a block quote, a list item, and after a tab.
    /// The same lines written as top-level paragraphs give the same warnings four columns to
    /// the left (one column for the tab), on the same lines.
    @Test func warningsInsideADefinitionAreAtTheirPlaceInTheFile() throws {
        let blocks = [
            "See ![pic](missing-a.png) here.", "",
            "A formula $\\frac{1}{$ here.", "",
            "> Quoted [word]{tracking=abc} text.", "",
            "- Item ![pic](missing-b.png) and $\\sqrt{$.", "",
            "Last $\\left( x$ one.",
        ]
        let indents = ["    ", "", "    ", "", "    ", "", "    ", "", "\t"]
        let inside =
            "Term\n:   First.\n\n" + zip(indents, blocks).map { $0 + $1 }.joined(separator: "\n") + "\n"
        let outside = "Term\n\nFirst.\n" + blocks.joined(separator: "\n") + "\n"
        let (_, insideReport) = try Render.markdown(inside, name: "definition-warnings")
        let (_, outsideReport) = try Render.markdown(outside, name: "definition-warnings-outside")
        let places = insideReport.diagnostics.map {
            "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.kind)"
        }.sorted()
        let expected = outsideReport.diagnostics.map { diagnostic -> String in
            let line = diagnostic.location?.line ?? 0
            let shift = line == 12 ? 1 : 4
            return "\(line):\((diagnostic.location?.column ?? 0) + shift) \(diagnostic.kind)"
        }.sorted()
        // Pictures, formulas (alike ones said once, at the first) and an attribute, outside and
        // inside alike.
        #expect(outsideReport.diagnostics.count >= 4, "\(outsideReport.diagnostics)")
        #expect(places == expected, "\(insideReport.diagnostics)")
    }
}
