import TestSupport
import Testing

/// Pandoc's inline notes `^[…]` read back from the PDF: set at the foot of the page with the
/// written notes, numbered in the order they are cited, each a Note in the tagged structure
/// after the paragraph that cites it; no `^[` is left in the text.
@Suite(.serialized) struct InlineNoteRenderTests {
    @Test func inlineNotesAreSetAtTheFootInCitationOrder() throws {
        let markdown = """
            Alpha[^a] beta^[INLINEB with *emphasis*.] gamma[^c].

            Delta^[INLINED in a second paragraph.]

            [^a]: WRITTENA note.
            [^c]: WRITTENC note.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "inline-notes")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let text = try PDFProbe.text(pdf)
        #expect(!text.contains("^[") && !text.contains("[^"), "\(text)")
        let words = try PDFProbe.words(pdf)
        let notes = try ["WRITTENA", "INLINEB", "WRITTENC", "INLINED"].map { name in
            try #require(words.first { $0.text == name }, "\(name) is set")
        }
        // Top to bottom in citation order, all below the body.
        #expect(zip(notes, notes.dropFirst()).allSatisfy { $0.0.yMin < $0.1.yMin }, "\(notes)")
        let body = try #require(words.first { $0.text.hasPrefix("Delta") })
        #expect(notes[0].yMin > body.yMax)
        // Each note's number stands before it on its line.
        for (index, note) in notes.enumerated() {
            let number = words.first {
                $0.text == "\(index + 1)" && abs($0.yMax - note.yMax) < 2 && $0.xMax <= note.xMin
            }
            #expect(number != nil, "note \(index + 1) is numbered")
        }
        let tree = try AccessibilityTests.structure(pdf)
        let tagged = tree.all.filter { $0.name == "Note" }.map(\.text)
        #expect(tagged.count == 4, "\(tagged)")
        #expect(tagged.contains { $0.contains("INLINEB") } && tagged.contains { $0.contains("INLINED") }, "\(tagged)")
    }
}
