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
}
