import Foundation
import TestSupport
import Testing

/// One paragraph of n bytes costs time and memory linear in n, whatever it holds: for each kind of
/// paragraph that once cost quadratic time (a long link URL or e-mail address set over many lines,
/// a letter with thousands of combining marks, a run of soft hyphens, thousands of links or hard
/// breaks, a link around thousands of words, a displayed formula of thousands of problems,
/// thousands of notes referred to from one paragraph, a tag of thousands of attributes), eight
/// times the size takes at most ten times the time and the peak memory of the typeset command,
/// measured in the same run (the pair measured again, up to three times, until it holds: a cost
/// that grows too fast fails every time, a moment of load once).
@Suite(.serialized) struct ParagraphScalingTests {
    /// The kinds: a name, the paragraph of size n, the size n, and a word the PDF must end with.
    static let kinds: [(name: String, size: Int, last: String, markdown: @Sendable (Int) -> String)] = [
        (
            "link URL", 2_500, "here",
            { "See [the link](https://example.com/" + String(repeating: "a", count: $0) + ") here.\n" }
        ),
        (
            "autolink URL", 2_500, "here",
            { "See <https://example.com/" + String(repeating: "a", count: $0) + "> here.\n" }
        ),
        ("bare URL", 2_500, "here", { "See https://example.com/" + String(repeating: "a", count: $0) + " here.\n" }),
        ("e-mail address", 2_500, "now", { "Mail " + String(repeating: "a", count: $0) + "@example.com now.\n" }),
        ("combining marks", 8_000, "here", { "e" + String(repeating: "\u{301}", count: $0) + " here\n" }),
        ("soft hyphens", 6_000, "here", { String(repeating: "\u{AD}", count: $0) + " here\n" }),
        ("links", 1_500, "here", { (0..<$0).map { "[l\($0)](u\($0))" }.joined(separator: " ") + " here\n" }),
        ("hard breaks", 3_000, "here", { (0..<$0).map { "w\($0)\\\n" }.joined() + "here\n" }),
        // 10,000 words, not 5,000: the smaller document took 0.06 s of processor time, which
        // `time` reads to 10 ms, so its tenfold bound moved by a sixth with one tick.
        (
            "link of words", 10_000, "here",
            { "[" + Array(repeating: "word", count: $0).joined(separator: " ") + "](https://example.com) here\n" }
        ),
        // Each problem of a formula was placed by counting the lines of the source before it,
        // and each `^` after a superscript copied the scripts before it.
        (
            "displayed formula of unknown commands", 2_000, "here",
            { "$$" + String(repeating: "\\foo + ", count: $0) + "$$\n\nhere\n" }
        ),
        (
            "displayed formula of double scripts", 2_000, "here",
            { "$$x" + String(repeating: "^x", count: $0) + "_y" + String(repeating: "_y", count: $0) + "$$\n\nhere\n" }
        ),
        // libxml2 compares each attribute's name with every one before it.
        (
            "HTML attributes", 2_500, "here",
            { "<span " + (0..<$0).map { "a\($0)=\"v\"" }.joined(separator: " ") + ">x</span> here\n" }
        ),
        (
            "footnote references", 1_500, "here",
            { count in
                (1...count).map { "w[^\($0)]" }.joined(separator: " ") + " here\n\n"
                    + (1...count).map { "[^\($0)]: Note \($0)." }.joined(separator: "\n") + "\n"
            }
        ),
    ]

    /// Renders `markdown` with the typeset command: processor time (s), peak (MiB) and text
    /// (``Render/measured(_:name:scratch:)``).
    func render(_ markdown: String, name: String) throws -> (seconds: Double, mebibytes: Double, text: String) {
        try Render.measured(markdown, name: name, scratch: "paragraph-scaling")
    }

    @Test(.slow, arguments: 0..<kinds.count)
    func eightTimesTheParagraphCostsAtMostTenTimesAsMuch(kind: Int) throws {
        let (name, size, last, markdown) = Self.kinds[kind]
        let large = try Render.expectLinear(name, size: size, scratch: "paragraph-scaling", markdown: markdown)
        let words = large.text.split(whereSeparator: \.isWhitespace)
        #expect(words.contains { $0.hasPrefix(last) }, "\(name): the word after the paragraph's long part is set")
    }

    /// Words for the paragraphs below, about six bytes each with their space.
    static let words = [
        "the", "measure", "of", "a", "line", "is", "set", "by", "paragraph", "composer", "breaks",
        "into", "lines", "nearly", "equal", "width", "reader", "sees", "even", "grey", "across", "page",
    ]

    /// `bytes` bytes of words with spaces, and no line end.
    static func wordText(bytes: Int) -> String {
        var text = ""
        var index = 0
        text.reserveCapacity(bytes + 16)
        while text.utf8.count < bytes {
            text += words[index % words.count] + " "
            index += 1
        }
        return text
    }

    /// An ordinary document of about `bytes` bytes: paragraphs of about 600 bytes of words.
    static func prose(bytes: Int) -> String {
        var text = ""
        while text.utf8.count < bytes { text += wordText(bytes: 600) + "\n\n" }
        return text
    }

    /// Long paragraphs whose lines are made, placed and drawn a group at a time: a name, the
    /// Markdown of 8n (the larger size of ``eightTimesTheParagraphCostsAtMostTenTimesAsMuch(kind:)``
    /// for links and hard breaks; about 200 KB of words for the others) and its last word.
    static let longParagraphs: [(name: String, last: String, markdown: @Sendable () -> String)] = [
        ("links", "here", { kinds[6].markdown(8 * kinds[6].size) }),
        ("hard breaks", "here", { kinds[7].markdown(8 * kinds[7].size) }),
        ("words", "END.", { wordText(bytes: 200_000) + "END.\n" }),
        ("words in an HTML block", "END.", { "<div>\n" + wordText(bytes: 200_000) + "END.\n</div>\n" }),
    ]

    /// The peak memory of one long paragraph stays near that of an ordinary document of as
    /// many bytes (paragraphs of 600 bytes), rendered in the same run: at most 2.5 times. Every
    /// line of a paragraph held its Pango line, glyphs and link rectangles until the whole
    /// paragraph was placed, and every link run its style three times over: 50,000 links
    /// peaked at 3.0 times the ordinary document's, 100,000 hard breaks at 3.9 times.
    @Test(arguments: 0..<longParagraphs.count)
    func aLongParagraphPeaksNearAnOrdinaryDocumentOfItsSize(kind: Int) throws {
        let (name, last, markdown) = Self.longParagraphs[kind]
        let slug = name.replacingOccurrences(of: " ", with: "-")
        let long = markdown()
        let paragraph = try render(long, name: "\(slug)-long")
        let ordinary = try render(Self.prose(bytes: long.utf8.count), name: "\(slug)-prose")
        let ratio = paragraph.mebibytes / ordinary.mebibytes
        let figures =
            "\(name), \(long.utf8.count) bytes: \(Int(paragraph.mebibytes)) MiB, "
            + "an ordinary document of as many bytes \(Int(ordinary.mebibytes)) MiB "
            + "(\(String(format: "%.2f", ratio))×)"
        #expect(ratio <= 2.5, "\(figures)")
        let words = paragraph.text.split(whereSeparator: \.isWhitespace)
        #expect(words.contains { $0.hasPrefix(last) }, "\(name): the last word is set")
    }

    /// A heading of thousands of words that the contents list is a named destination of a
    /// short name (``DestinationNames``): named by its slug, each page of the contents' entry
    /// wrote it and Cairo parsed it again, time growing with the pages times the heading.
    @Test func aLongHeadingsDestinationHasAShortName() throws {
        let folder = try Render.scratchFolder("long-heading")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let words = Array(repeating: "word", count: 3_000).joined(separator: " ")
        try ("---\ntoc: true\n---\n## " + words + " here\n").write(
            toFile: folder + "/h.md", atomically: false, encoding: .utf8)
        let run = try typeset(["render", folder + "/h.md", "-q", "-o", folder + "/h.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let expanded = try PDFProbe.run(
            "qpdf", ["--qdf", "--object-streams=disable", folder + "/h.pdf", folder + "/q.pdf"])
        #expect(expanded.status == 0, "\(expanded.output)")
        let bytes = try String(decoding: Data(contentsOf: URL(fileURLWithPath: folder + "/q.pdf")), as: UTF8.self)
        #expect(bytes.contains("(~~0)"))
        #expect(!bytes.contains(String(repeating: "word-", count: 100)))
    }

    /// A link wrapped over many lines and pages is one annotation a page, whose quadrilaterals
    /// cover each of its lines there, and the URI is whole in each.
    @Test func aWrappedLinkIsOneAnnotationAPage() throws {
        // Short enough for one line of the file QDF reads (4 KB), after paragraphs that fill
        // most of the first page, so that the link runs on to the second.
        let letters = String(repeating: "a", count: 3_500)
        let filler = String(repeating: "Filler.\n\n", count: 30)
        let (pdf, report) = try Render.markdown(
            filler + "See <https://example.com/\(letters)> here.\n", name: "wrapped-link")
        // The link's lines: its start and its letters (the first after the slash, before which
        // an address breaks), however few end it on the last line.
        let linked = try PDFProbe.words(pdf).filter {
            let letters = $0.text.drop { $0 == "/" }
            return $0.text.contains("example.com") || (!letters.isEmpty && letters.allSatisfy { $0 == "a" })
        }
        let pages = Set(linked.map(\.page))
        #expect(pages.count >= 2, "the link runs over \(pages.count) of \(report.pageCount) pages")
        let links = try QDF(pdf).objects.values.filter { $0.contains("/Subtype /Link") }
        #expect(links.count == pages.count, "\(links.count) annotations for a link on \(pages.count) pages")
        #expect(links.allSatisfy { $0.contains("/URI (https://example.com/\(letters))") })
        // Eight numbers a quadrilateral, one quadrilateral a line of the link.
        let quadrilaterals = links.reduce(0) { count, link in
            guard let start = link.range(of: "/QuadPoints"), let open = link[start.upperBound...].firstIndex(of: "["),
                let close = link[open...].firstIndex(of: "]")
            else { return count }
            return count + link[link.index(after: open)..<close].split(whereSeparator: \.isWhitespace).count / 8
        }
        let lines = Set(linked.map { "\($0.page) \(Int($0.yMax))" })
        #expect(
            lines.count > 20 && quadrilaterals == lines.count, "\(quadrilaterals) quadrilaterals, \(lines.count) lines")
    }
}
