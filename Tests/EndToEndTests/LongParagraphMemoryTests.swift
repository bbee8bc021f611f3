import Foundation
import TestSupport
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
/// The peak resident size (``Render/peak(_:name:options:tagged:)``: a subprocess's own, which a
/// busy machine does not change) of a 1 MB paragraph is set beside two peaks of the same run, on
/// the benchmark's page: a 250 KB paragraph's (49 → 97 MiB, ×1.97; ×2.5 when every break node
/// is kept) and an ordinary document's, 60 KB of sections of prose (34 MiB; the paragraph ×2.8,
/// ×4.5 when every break node is kept). The paragraph costs about 60 bytes a byte (its glyphs
/// and measurements); a flat peak needs lines shaped and drawn a page at a time.
@Suite(.serialized, .slow) struct LongParagraphMemoryTests {
    @Test func aMegabyteParagraphCostsLittleMoreThanAnOrdinaryDocument() throws {
        let page = ["--paper", "a4", "--margins", "25mm"]
        let ordinary = try Render.peak(Prose.sections(20), name: "paragraph-ordinary", options: page)
        let small = try Render.peak(Prose.paragraph(bytes: 250_000), name: "paragraph-250KB", options: page)
        let large = try Render.peak(Prose.paragraph(bytes: 1_000_000), name: "paragraph-1MB", options: page)
        let peaks = "ordinary \(ordinary.mebibytes) MiB, 250 KB \(small.mebibytes) MiB, 1 MB \(large.mebibytes) MiB"
        #expect(large.mebibytes < 2.3 * small.mebibytes, "\(peaks)")
        #expect(large.mebibytes < 3.2 * ordinary.mebibytes, "\(peaks)")
        let text = try PDFProbe.text(large.pdf)
        #expect(text.contains("END."), "the paragraph's last word is drawn")
    }

    /// In a paragraph of one short word repeated, every line could start a word earlier or later
    /// at almost the same cost, so the best paths to the active breaks never meet: the search
    /// holds every node of about a hundred paths, one a line each, and compaction settles
    /// nothing. So a node is small (32 bytes: the sums a break's nodes share are kept once for
    /// its active group, and worked out again for the chosen lines), nodes are compacted in
    /// place, never into a second array, and an item is 48 bytes. The peak of 980 KB of
    /// one-letter words (490,000 words, about a million items) is set beside that of a
    /// paragraph of prose of the same size, in the same run: about ×1.45 (×2.0 with 104-byte
    /// nodes and 56-byte items).
    @Test func aParagraphWhosePathsNeverMeetCostsLittleMoreThanProse() throws {
        let prose = try Render.peak(Prose.paragraph(bytes: 980_000), name: "paragraph-prose-980KB")
        let letters = try Render.peak(String(repeating: "a ", count: 490_000) + "END.\n", name: "paragraph-letters")
        let peaks = "prose \(prose.mebibytes) MiB, one-letter words \(letters.mebibytes) MiB"
        #expect(letters.mebibytes < 1.7 * prose.mebibytes, "\(peaks)")
        let text = try PDFProbe.text(letters.pdf)
        #expect(text.contains("END."), "the paragraph's last word is drawn")
    }
}
