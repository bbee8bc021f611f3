import Foundation
import Testing

/// A single long paragraph in bounded memory. The total-fit composer (Knuth–Plass) weighs the
/// whole paragraph: while it chooses the breaks it holds the paragraph's measurements (per
/// character its advance, run and break opportunities) and its boxes, glue and penalties, and
/// the chosen lines are all shaped before the first is drawn. What it no longer holds: every
/// break node it ever made (it drops those no active break descends from and sets aside the
/// settled lines; a megabyte made 800,000 nodes, 69 MB), three running-sum arrays over the
/// items, an item array grown by doubling, and the measurements while the chosen lines are
/// laid out. heaptrack on the benchmark's 1 MB paragraph (A4, 25 mm margins): 155 → 66 MB peak
/// heap; peak resident size 158 → 94 MiB.
///
/// The peak resident size (``HugeTableMemoryTests/peak(_:name:options:)``: a subprocess's own,
/// which a busy machine does not change) of a 1 MB paragraph is set beside a 250 KB one's, on
/// the benchmark's page: the difference was 93 MiB (62 → 155 MiB) and is 46 now (48 → 94 MiB).
/// The paragraph still costs about 60 bytes a byte (its glyphs and measurements); a flat peak
/// needs lines shaped and drawn a page at a time.
@Suite(.serialized) struct LongParagraphMemoryTests {
    /// One paragraph of `bytes` bytes of words (no markup) and a last word, "END.".
    static func paragraph(bytes: Int) -> String {
        let words = ["the", "measure", "of", "a", "line", "is", "set", "by", "paragraph", "composer", "breaks",
                     "into", "lines", "nearly", "equal", "width", "reader", "sees", "even", "grey", "across", "page"]
        var text = "", i = 0
        text.reserveCapacity(bytes + 16)
        while text.utf8.count < bytes { text += words[i % words.count]; text += " "; i += 1 }
        return text + "END.\n"
    }

    @Test func aMegabyteParagraphStaysUnderTheLimit() throws {
        let page = ["--paper", "a4", "--margins", "25mm"]
        let small = try HugeTableMemoryTests.peak(Self.paragraph(bytes: 250_000), name: "paragraph-250KB", options: page)
        let large = try HugeTableMemoryTests.peak(Self.paragraph(bytes: 1_000_000), name: "paragraph-1MB", options: page)
        #expect(large.mebibytes - small.mebibytes < 65, "250 KB \(small.mebibytes) MiB, 1 MB \(large.mebibytes) MiB")
        #expect(large.mebibytes < 100, "1 MB paragraph \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("END."), "the paragraph's last word is drawn")
    }
}
