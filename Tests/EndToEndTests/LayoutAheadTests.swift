import DocumentModel
import Foundation
import Layout
import MarkdownParser
import TestSupport
import Testing

@testable import Typesetter

/// A long document is laid out on a thread of its own while its pages are placed and drawn
/// (``LayoutAndDraw``'s layout ahead, the two threads taking turns with the render's font map):
/// the PDF's bytes and the warnings are those of the document laid out and drawn on one
/// thread, through every kind of block, a contents and `{pages}` (whose passes are laid out
/// ahead too), notes, tables split over pages, formulas, right-to-left text and warnings.
@Suite(.serialized) struct LayoutAheadTests {
    static let fixed = Date(timeIntervalSince1970: 1_700_000_000)

    /// About 160 KB: past ``LayoutAndDraw/aheadFromBytes``, each section with a heading, prose
    /// long enough to hyphenate, a list, a quote, code, a table, a formula, a footnote, a link,
    /// Hebrew with an English word, a code span, Korean, struck words and an emoji (lines the
    /// drawing thread draws from glyphs read out for it, ``LineGlyphs``, and lines it draws
    /// through Pango), and now and then a word wider than the measure; halfway, a
    /// table long enough to be laid out in place (``LayoutAhead/laysOutInPlace(_:)``).
    static func document(sections: Int) -> String {
        var text = "---\ntitle: Laid Out Ahead\n---\n\n"
        let prose = Array(
            repeating: "Composition and pagination run beside each other, the type scale's Body role "
                + "setting justified paragraphs with hyphenation where the measure asks for it.",
            count: 6
        ).joined(separator: " ")
        for k in 0..<sections {
            text +=
                "## Section \(k)\n\n\(prose)[^n\(k)]\n\n- item one of \(k)\n- item [two](#section-\(max(0, k - 1)))\n\n"
            text += "> A quote in section \(k), with $x_\(k)^2 + y = \\frac{a}{b}$ inline.\n\n"
            text += "```swift\nlet value\(k) = \(k) // code\n```\n\n| a | b | c |\n|---|---|---|\n"
            text += (0..<6).map { "| \(k) | row \($0) | \(String(repeating: "w", count: $0 * 3)) |" }.joined(
                separator: "\n")
            text += "\n\nשלום עולם, see English \(k) here.\n\n"
            text += "Inline `code_span(\(k))` beside 한국어 조판, ~~struck~~ words and an emoji 😀.\n\n"
            if k % 20 == 0 { text += String(repeating: "x", count: 120) + "\n\n" }
            text += "[^n\(k)]: Note \(k), with a second sentence in it.\n\n"
            // A table long enough to be laid out in place, by the drawing thread.
            if k == sections / 2 {
                text += "| key | value |\n|---|---|\n"
                text +=
                    (0..<LayoutAhead.inPlaceRows + 20).map { "| k\($0) | v\($0) |" }.joined(separator: "\n") + "\n\n"
            }
        }
        return text
    }

    @Test(arguments: [true, false])
    func aheadIsByteIdenticalToOneThread(tagged: Bool) throws {
        let markdown = Self.document(sections: 90)
        var options = RenderOptions(
            creationDate: Self.fixed, header: "{title}", footer: "{page} of {pages}", tableOfContents: true)
        options.tagged = tagged
        let parsed = MarkdownParser.parse(markdown, file: "ahead.md")
        #expect(parsed.document.source.byteCount >= LayoutAndDraw.aheadFromBytes)
        let outputs = try Render.onOneThreadAndMore(parsed, options: options, name: "ahead-\(tagged)")
        #expect(outputs[0].0 == outputs[1].0, "PDF bytes differ")
        #expect(outputs[0].1 == outputs[1].1, "diagnostics differ")
        #expect(outputs[1].1.contains { $0.message.contains("wider than the measure") }, "\(outputs[1].1)")
        let pdf = Render.folder + "/ahead-\(tagged)-true.pdf"
        #expect(try PDFProbe.qpdfClean(pdf))
        #expect(try PDFProbe.text(pdf).contains("Note 89, with a second sentence in it."))
    }
}

extension Render {
    /// `parsed` rendered with `options` on one thread and then with the render's other threads
    /// (styling, layout ahead), each PDF's bytes with its warnings, in that order; the files are
    /// `NAME-false.pdf` and `NAME-true.pdf` in ``folder``.
    static func onOneThreadAndMore(
        _ parsed: ParseResult, options: RenderOptions, name: String
    ) throws -> [(Data, [Diagnostic])] {
        try [false, true].map { threaded in
            let path = folder + "/\(name)-\(threaded).pdf"
            let report = try Typesetter.render(
                document: parsed.document, diagnostics: parsed.diagnostics, to: path, options: options,
                threaded: threaded)
            return (try Data(contentsOf: URL(fileURLWithPath: path)), report.diagnostics)
        }
    }
}
