import Foundation
import TestSupport
import Testing

/// A document of many `:::` divs is parsed on cmark-gfm's tree of the whole text (fences are
/// decided on its block structure), then again with the accepted fences replaced by markers.
/// The first tree was still held while the second was built, and every fence was held in
/// dictionaries (each bucket a whole fence, about 370 bytes a fence, twice): 1.2 MB more of
/// sections with a small div each added about 44 MiB per MiB, against 5 without the divs. Now
/// one tree at a time, fences in sorted arrays: about the same as without. The peaks (a
/// subprocess's own, ``Render/peak(_:name:options:tagged:)``) of eight times the sections are set
/// beside one time's, with and without the divs, in MiB per MiB of input added. The peak of a
/// small document varies by a few MiB from run to run (its threads' allocation arenas), so the
/// smaller of two runs is taken, and the growth is measured over about 2 MiB.
@Suite(.serialized, .slow) struct DivMemoryTests {
    /// `sections` sections of headings with attributes, a paragraph, a list, a table, code, a
    /// quote, raw HTML, and (when `divs`) a small div each; otherwise its text as a paragraph.
    static func document(sections: Int, divs: Bool) -> String {
        var text = ""
        for i in 0..<sections {
            let k = String(format: "%05d", i)
            text += """
                ## Section s\(k) {#sec\(k) tracking=0.5}

                Paragraph p\(k) with *emph\(k)* and **strong\(k)** and `code\(k)` and a [link\(k)](#sec\(k)). 한글\(k) 단어.

                - item\(k)a
                - item\(k)b
                  1. sub\(k)c

                | colA\(k) | colB\(k) |
                |:--|--:|
                | a\(k) | b\(k) |

                ```
                codeblock\(k) line
                ```

                > quote\(k) text


                """
            text += divs ? "::: {.caption}\ndiv\(k) content\n:::\n\n" : "div\(k) content\n\n"
            text += "<b>html\(k)</b> raw\n\n"
        }
        return text + "Last paragraph.\n"
    }

    /// Growth of the peak from 900 sections to eight times as many, MiB per MiB added.
    func growth(divs: Bool) throws -> (perMiB: Double, peaks: String, pdf: String) {
        let one = Self.document(sections: 900, divs: divs)
        let eight = Self.document(sections: 7_200, divs: divs)
        let added = Double(eight.utf8.count - one.utf8.count) / 1_048_576
        let name = divs ? "divs" : "no-divs"
        let small = try min(
            Render.peak(one, name: name + "-1").mebibytes, Render.peak(one, name: name + "-1").mebibytes)
        let large = try Render.peak(eight, name: name + "-8")
        let perMiB = (large.mebibytes - small) / added
        return (
            perMiB, "\(name): \(small) MiB, × 8 \(large.mebibytes) MiB, \(perMiB) MiB per MiB added",
            large.pdf
        )
    }

    @Test func manyDivsCostLittleMoreThanTheirText() throws {
        let plain = try growth(divs: false)
        let divs = try growth(divs: true)
        // Measured: about 5.5 MiB per MiB without divs, 5.2 with; with the first tree held while
        // the second is built, 44 against 5.
        #expect(divs.perMiB < 2.5 * plain.perMiB, "\(plain.peaks); \(divs.peaks)")
        let text = try PDFProbe.text(divs.pdf)
        #expect(text.contains("div07199 content") && text.contains("Last paragraph."))
        #expect(!text.contains(":::"), "every fence is read as a fence")
    }
}
