import Foundation
import TestSupport
import Testing

/// Footnotes cited only inside other footnotes, in bounded memory. A block's notes that are
/// cited on none of its own lines (a note that cites another, which cites the next, and so
/// on) follow the block's last line; they are laid out, a note at a time in number order, only
/// as far as the page being filled needs them, so that about a page of note lines is held at
/// once, not every note of the chain. Holding all of them (each with its Pango lines, glyphs
/// read out for drawing and page elements, about 11 KB a note) made 6,000 notes each citing
/// the next peak at 109 MiB, 2.0 times the same notes each cited from a paragraph of its own
/// (55 MiB); laid out as the pages need them, 59 MiB (1.1 times); 16,000 of them, 95 MiB.
///
/// The peak resident size (``Render/peak(_:name:options:tagged:)``: a subprocess's own, which a
/// busy machine does not change) of the chain is set beside the peak of the same notes cited
/// from paragraphs, rendered in the same run.
@Suite(.serialized, .slow) struct ChainedNotesMemoryTests {
    /// `count` notes after a one-line paragraph that cites the first, each citing the next.
    static func chain(_ count: Int) -> String {
        "Start[^n0].\n\n" + (0..<count).map { "[^n\($0)]: Note \($0) cites[^n\($0 + 1)].\n\n" }.joined()
            + "[^n\(count)]: Note \(count).\n"
    }

    /// `count` notes with the words of ``chain(_:)``, each cited from a paragraph of its own.
    static func cited(_ count: Int) -> String {
        (0...count).map { "Start[^n\($0)].\n\n" }.joined()
            + (0...count).map { "[^n\($0)]: Note \($0) cites.\n\n" }.joined()
    }

    @Test func aChainOfNotesPeaksNearTheSameNotesCitedFromParagraphs() throws {
        let count = 6_000
        let chained = try Render.peak(Self.chain(count), name: "notes-chained")
        let paragraphs = try Render.peak(Self.cited(count), name: "notes-cited")
        let ratio = chained.mebibytes / paragraphs.mebibytes
        let peaks =
            "\(count) notes chained \(Int(chained.mebibytes)) MiB, cited from paragraphs "
            + "\(Int(paragraphs.mebibytes)) MiB (\(String(format: "%.2f", ratio))×)"
        #expect(ratio < 1.5, "\(peaks)")
        let text = try PDFProbe.text(chained.pdf)
        #expect(text.contains("Note \(count)."), "the chain's last note is set")
    }
}
