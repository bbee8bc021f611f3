import Foundation
import TestSupport
import Testing

/// Memory does not grow with the document's length: the parsed document holds its text, not
/// its blocks (each pass parses and converts a window of about 128 KB of source at a time), and
/// the parse itself finds the top-level blocks from bounded chunks. The peak resident size of
/// a render (in a subprocess, `--no-tags`, ``Render/peak(_:name:options:tagged:)``) of three times the
/// text then stays within a few per cent of one time the text's; holding cmark-gfm's tree and the
/// Swift copy of it cost about 24 bytes per byte of prose (heaptrack on the benchmark's
/// `large`: 18.4 + 17.8 MiB for 1.5 MB), about 18 MiB more for the 0.74 MB added here.
@Suite(.serialized, .slow) struct DocumentLengthMemoryTests {
    @Test func threeTimesTheTextPeaksLittleHigher() throws {
        let one = Prose.sections(150)
        let three = Prose.sections(450)
        #expect(three.utf8.count - one.utf8.count > 700_000)
        let small = try Render.peak(one, name: "length-prose-1")
        let large = try Render.peak(three, name: "length-prose-3")
        let figures = "×1 \(small.mebibytes) MiB, ×3 \(large.mebibytes) MiB"
        // Measured ×1.03 (36.0 → 37.0 MiB); holding the whole tree: about ×1.5.
        #expect(large.mebibytes < 1.25 * small.mebibytes, "\(figures)")
        let text = try PDFProbe.text(large.pdf)
        #expect(text.contains("450 Section"))
    }
}
