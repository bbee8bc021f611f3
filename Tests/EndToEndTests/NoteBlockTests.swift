import Foundation
import TestSupport
import Testing

/// The blocks of one footnote stand apart as blocks of the text do: two code blocks in a row
/// are two panels, and paragraphs are apart by more than their lines, a list's items not.
/// Read back from the page's pixels and pdftotext's word boxes.
@Suite struct NoteBlockTests {
    /// Between the lines of two code blocks in a row of a note, the page is white across the
    /// panels' width: two panels, not one.
    @Test(arguments: ["fenced", "indented then fenced"])
    func twoCodeBlocksInARowOfANoteAreTwoPanels(kind: String) throws {
        let second = kind == "fenced" ? "    ```\n    twoline\n    ```\n" : "    ```python\n    twoline\n    ```\n"
        let first = kind == "fenced" ? "    ```\n    oneline\n    ```\n" : "        oneline\n"
        let markdown = "Text[^n].\n\n[^n]: Note.\n\n" + first + "\n" + second
        let (pdf, _) = try Render.markdown(markdown, name: "note-panels-\(kind.prefix(8))")
        let words = try PDFProbe.words(pdf)
        let one = try #require(words.first { $0.text == "oneline" })
        let two = try #require(words.first { $0.text == "twoline" })
        // At 144 dpi, 2 px a pt: the rows between the two lines, across the first line's text.
        let image = try PDFProbe.greyImage(pdf, page: 1, dpi: 144)
        let columns = Int(one.xMin * 2)..<Int(one.xMax * 2)
        let white = (Int(one.yMax * 2)..<Int(two.yMin * 2)).filter { y in
            columns.allSatisfy { image.samples[y * image.width + $0] == 255 }
        }
        #expect(!white.isEmpty, "one panel runs from 'oneline' to 'twoline'")
    }

    /// A note's second paragraph stands further from its first than its lines from each other;
    /// the items of a list in a note stand as close as lines.
    @Test func aNotesParagraphsStandApartItsListItemsDoNot() throws {
        let markdown =
            "Text[^a] and[^b].\n\n[^a]: Firstpara of the note.\n\n    Secondpara of the note.\n\n"
            + "[^b]: Listing:\n\n    - itemone\n    - itemtwo\n    - itemthree\n"
        let (pdf, _) = try Render.markdown(markdown, name: "note-paragraphs")
        let words = try PDFProbe.words(pdf)
        func top(_ text: String) throws -> Double { try #require(words.first { $0.text == text }).yMin }
        let paragraphs = try top("Secondpara") - top("Firstpara")
        let items = try top("itemtwo") - top("itemone")
        #expect(abs(try top("itemthree") - top("itemtwo") - items) < 0.1)
        #expect(paragraphs > items + 3, "paragraphs \(paragraphs) pt apart, items \(items) pt")
    }
}
