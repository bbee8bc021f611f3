import Foundation
import TestSupport
import Testing

/// Colour emoji (drawn as images) beside Hangul in several kinds of block, through the `typeset`
/// executable: the PDF is tagged, no fallback warning, `qpdf --check` clean once the process has
/// exited (what a C library flushes at exit lands in the file too), the text around kept.
@Suite struct ColorEmojiPDFTests {
    static let long = String(repeating: "x", count: 40)

    /// Members of the kind: a line of emoji alone drawn first on a page (a paragraph, heading,
    /// link or emphasis opening page 1 or, after a break, page 2; a narrow table column), and
    /// emoji beside Hangul in lists and table cells.
    static let documents: [(name: String, markdown: String)] = [
        ("paragraph", "😀\n\n가나다 \(long)\n"),
        ("heading", "# 😀\n\n가나다\n"),
        ("link", "[😀](https://example.com)\n\n가나다 [👍🏽 link](#x)\n\n# X {#x}\n"),
        ("emphasis", "*👍🏽*\n\n가\n"),
        ("second-page", "가나다\n\n\\newpage\n\n😀\n\n가\n"),
        ("list", "- 😀\n- 👍🏽 가나다\n  1. 😀\n"),
        ("table", "| 😀 | 가나다 |\n|---|---|\n| 👍🏽 | 😀 \(long) |\n| 가 | 😀 |\n"),
        (
            "audit",
            (try? String(
                contentsOfFile: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/emoji-hangul-table.md",
                encoding: .utf8)) ?? ""
        ),
    ]

    @Test(arguments: documents.indices)
    func emojiWithHangulIsTaggedAndClean(_ index: Int) throws {
        let (name, markdown) = Self.documents[index]
        #expect(!markdown.isEmpty)
        let dir = try Render.scratchFolder("emoji-\(name)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try markdown.write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset([
            "render", dir + "/doc.md", "--paper", "a6", "--margins", "15mm", "--theme", "hig", "-o", pdf,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("could not be tagged"), "\(result.output)")
        let check = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(check.status == 0 && !check.output.contains("WARNING"), "\(check.output)")
        #expect(try PDFProbe.info(pdf)["Tagged"] == "yes")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("가") || !markdown.contains("가"))
        // Each emoji is painted as an image XObject.
        #expect(try PDFProbe.contentStreams(pdf).contains("/Subtype /Image"))
    }
}
