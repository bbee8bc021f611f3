import Foundation
import TestSupport
import Testing
import Typesetter

/// A line whose runs go both ways and that holds a link is read in the text's order: the
/// structure tree gives its words as written, the links in their `Link` elements, whichever
/// way each stretch is set (ISO 32000-1 §14.8.2.3; Unicode's bidirectional algorithm, UAX #9).
@Suite struct MixedDirectionLinkTests {
    /// Members of the kind: Hebrew with a link in an English line, a link set in Hebrew inside
    /// English, an override (U+202E) running to the paragraph's end across a link, an English
    /// phrase with a link inside a Hebrew paragraph, a link whose text changes direction
    /// halfway; each with the text the structure tree must read (the override itself is no
    /// text) and its number of links.
    static let documents: [(name: String, markdown: String, reads: String, links: Int)] = [
        (
            "hebrew-in-english", "Before שלום [עולם](https://e.org) טוב after [link](https://x.org) end.\n",
            "Before שלום עולם טוב after link end.", 2
        ),
        (
            "override", "Before words abc\u{202E}def[lnk](https://example.com)ghi jkl after words here.\n",
            "Before words abcdeflnkghi jkl after words here.", 1
        ),
        (
            "english-in-hebrew", "שלום לכם, see [the manual](https://e.org) now, ותודה רבה.\n",
            "שלום לכם, see the manual now, ותודה רבה.", 1
        ),
        (
            "link-across-directions", "Read [the book ספר טוב](https://e.org) today, friends.\n",
            "Read the book ספר טוב today, friends.", 1
        ),
    ]

    @Test(arguments: documents.map(\.name))
    func theStructureTreeReadsTheTextInOrder(name: String) throws {
        let document = try #require(Self.documents.first { $0.name == name })
        let (pdf, report) = try Render.markdown(document.markdown, name: "mixed-direction-\(name)")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let read = try TextFidelityTests.structureText(pdf, joiningRuns: true)
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(words(read.replacingOccurrences(of: "\n", with: "")) == words(document.reads), "\(read)")
        let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        let linkElements = tree.split(separator: "\n").filter { $0.contains("Link (inline)") }.count
        #expect(linkElements == document.links, "\(tree)")
    }
}
