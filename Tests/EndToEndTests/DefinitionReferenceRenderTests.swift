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
}
