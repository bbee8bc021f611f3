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

    /// The text of each `Link` element of `pdf`'s structure tree, in order (`pdfinfo
    /// -struct-text`), and the number of link annotations.
    static func links(_ pdf: String) throws -> (texts: [String], annotations: Int) {
        let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output.split(separator: "\n")
        var texts: [String] = []
        var annotations = 0
        var open: Int? = nil
        for line in tree {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if let depth = open, indent <= depth { open = nil }
            if content.hasPrefix("Link (inline)") {
                open = indent
                texts.append("")
            } else if open != nil, content.hasPrefix("\""), content.hasSuffix("\"") {
                texts[texts.count - 1] += content.dropFirst().dropLast()
            } else if open != nil, content.hasPrefix("Object ") {
                annotations += 1
            }
        }
        return (texts, annotations)
    }

    /// Each link of a paragraph is a `Link` element of its own holding its own words, with an
    /// annotation of its own, in the order the links are written: two links in a paragraph set
    /// right to left (the second was an empty element read before the first, its words left in
    /// the paragraph), and two links to one target on two lines (they were one element and one
    /// annotation spanning the text between them). A link wrapped over two lines stays one.
    /// Members: Hebrew, Arabic, one target twice, two targets, a wrapped link.
    @Test(arguments: [
        (
            "שלום [קישור אחד](https://example.com/a) עולם ועוד [קישור שני](https://example.com/b) סוף.",
            ["קישור אחד", "קישור שני"]
        ),
        (
            "مرحبا [الرابط الأول](https://example.com/a) ثم [الرابط الثاني](https://example.com/b) نهاية.",
            ["الرابط الأول", "الرابط الثاني"]
        ),
        (
            "First [link](https://example.com/1) here. This is a long line of filler words that pushes the "
                + "next link onto a second line of the page, well past the end [link](https://example.com/1) end.",
            ["link", "link"]
        ),
        (
            "First [one](https://example.com/1) here. This is a long line of filler words that pushes the "
                + "next link onto a second line of the page, well past the end [two](#top) end.",
            ["one", "two"]
        ),
        (
            "A wrapped one: lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt "
                + "[a link whose words run across the line break](https://example.com/w) and more.",
            ["a link whose words run across the line break"]
        ),
    ])
    func eachLinkIsAnElementOfItsOwn(markdown: String, texts: [String]) throws {
        let (pdf, _) = try Render.markdown(
            "# top\n\n" + markdown + "\n", name: "links-\(texts.count)-\(markdown.count)")
        let found = try Self.links(pdf)
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(found.texts.map(words) == texts, "\(found.texts)")
        #expect(found.annotations == texts.count, "\(found)")
    }
}
