import Foundation
import Testing

/// The parsed document is not held as Swift values: its blocks and tables' rows are converted
/// from cmark-gfm's tree as each pass reads them. The peak resident size of a render (in a
/// subprocess, `--no-tags`, see ``HugeTableMemoryTests``) then grows with the document by
/// little more than cmark-gfm's own tree.
///
/// cmark-gfm's tree is held while the document is set (and freed before the PDF is finished):
/// for a table it is the larger part, about 18 MiB for 10,000 rows of four cells (heaptrack),
/// so the table's bound allows for it. Measured: 1,000 rows 46 MiB, 10,000 rows 67 MiB; text
/// of 0.25 and 0.74 MB within a few MiB of each other. Before, the Swift copy of the converted
/// document was half the parse's heap on a 1.5 MB text (heaptrack: 17.7 of 36.4 MiB), freed
/// before layout; now at most one top-level block (of a table, one row) is converted at a time.
@Suite(.serialized) struct LazyParseMemoryTests {
    static let words = ["glyph", "stream", "measure", "baseline", "kerning", "leading", "tracking", "ascent", "descent", "face"]

    /// Prose like the benchmark corpus: headings, paragraphs with emphasis and code, a list
    /// and a quote per section; `sections` sections of about 3 KB each.
    static func prose(sections: Int) -> String {
        var text = ""
        for s in 0..<sections {
            text += "## \(s + 1) Section \(words[s % 10])\n\n"
            for p in 0..<5 {
                let sentence = (0..<60).map { i in
                    let w = words[(s * 7 + p * 3 + i) % 10]
                    return i % 11 == 0 ? "*\(w)*" : i % 17 == 0 ? "`\(w)()`" : w
                }.joined(separator: " ")
                text += sentence + ".\n\n"
            }
            text += "- \(words[s % 10]) item\n- \"quoted\" item -- with dashes...\n\n> A quote about \(words[(s + 3) % 10]).\n\n"
        }
        return text
    }

    @Test func tenThousandRowsPeakWithinCmarksTreeOfOneThousand() throws {
        let small = try HugeTableMemoryTests.peak(HugeTableMemoryTests.table(rows: 1_000), name: "lazy-table-1000")
        let large = try HugeTableMemoryTests.peak(HugeTableMemoryTests.table(rows: 10_000), name: "lazy-table-10000")
        #expect(large.mebibytes - small.mebibytes < 24, "1,000 rows \(small.mebibytes) MiB, 10,000 rows \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("9999") && text.contains("last line"))
    }

    @Test func threeTimesTheTextPeaksWithinFifteenMiB() throws {
        let one = Self.prose(sections: 100), three = Self.prose(sections: 300)
        #expect(three.utf8.count > 700_000)
        let small = try HugeTableMemoryTests.peak(one, name: "lazy-prose-1")
        let large = try HugeTableMemoryTests.peak(three, name: "lazy-prose-3")
        #expect(large.mebibytes - small.mebibytes < 15, "×1 \(small.mebibytes) MiB, ×3 \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("300 Section"))
    }
}
