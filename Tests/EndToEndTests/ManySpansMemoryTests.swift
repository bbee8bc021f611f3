import Foundation
import TestSupport
import Testing

/// A paragraph of many small inline spans (code spans, emphasis, footnote references) holds
/// arrays of megabytes that grow by doubling while it is styled, measured and broken into lines
/// (its runs, the line breaker's items and nodes). glibc serves a block above its mmap threshold
/// from a mapping of its own, but raises that threshold to the size of each such block freed,
/// so the later copies come from the heap and leave there free blocks no later array fits. The
/// `typeset` command fixes the threshold (mallopt(3), `M_MMAP_THRESHOLD`), so each freed copy
/// goes back to the system, and a paragraph's run array is copied only when a displayed
/// formula's label is placed.
///
/// The peak resident size (``Render/peak(_:name:options:tagged:)``, a subprocess's own) of 50,000
/// code spans in one paragraph is set beside a paragraph of plain words of the same bytes, in
/// the same run: 84 against 55 MiB (×1.53) when the threshold rose and the runs were copied,
/// 73 against 54 MiB (×1.35) now. A peak moves with how far the render's threads run ahead of
/// each other, so the pair is measured again, up to three times, until it holds.
@Suite(.serialized, .slow) struct ManySpansMemoryTests {
    @Test func aParagraphOfCodeSpansPeaksNearPlainWordsOfItsBytes() throws {
        let count = 50_000
        let spans = String(repeating: "`a` ", count: count) + "`end`\n"
        let words = String(repeating: "abc ", count: count) + "`end`\n"
        #expect(spans.utf8.count == words.utf8.count)
        let (plain, code) = try Timing.firstHolding {
            (try Render.peak(words, name: "spans-plain"), try Render.peak(spans, name: "spans-code"))
        } holds: {
            $0.1.mebibytes < 1.45 * $0.0.mebibytes
        }
        let peaks = "code spans \(code.mebibytes) MiB, plain words \(plain.mebibytes) MiB"
        #expect(code.mebibytes < 1.45 * plain.mebibytes, "\(peaks)")
        let text = try PDFProbe.text(code.pdf)
        #expect(text.contains("end"), "the paragraph's last span is drawn")
    }
}
