import Foundation
import Testing

/// Memory does not grow with the document's length: the parsed document holds its text, not
/// its blocks (each pass parses and converts a window of about 128 KB of source at a time), and
/// the parse itself finds the top-level blocks from bounded chunks. The peak resident size of
/// a render (in a subprocess, `--no-tags`, see ``HugeTableMemoryTests``) of three times the
/// text then stays within a few MiB of one time the text; holding cmark-gfm's tree and the
/// Swift copy of it cost about 24 bytes per byte of prose (heaptrack on the benchmark's
/// `large`: 18.4 + 17.8 MiB for 1.5 MB), about 18 MiB more for the 0.74 MB added here.
@Suite(.serialized) struct DocumentLengthMemoryTests {
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

    @Test func threeTimesTheTextPeaksWithinFifteenMiB() throws {
        let one = Self.prose(sections: 150), three = Self.prose(sections: 450)
        #expect(three.utf8.count - one.utf8.count > 700_000)
        let small = try HugeTableMemoryTests.peak(one, name: "length-prose-1")
        let large = try HugeTableMemoryTests.peak(three, name: "length-prose-3")
        #expect(large.mebibytes - small.mebibytes < 15, "×1 \(small.mebibytes) MiB, ×3 \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("450 Section"))
    }
}
