import Foundation
import TestSupport
import Testing

/// A page's cost must grow with its drawings, not with their square. Cairo 1.16 analyses each
/// page before writing it, adding every drawing's box to a region that many small drawings
/// (a run a footnote reference or emphasis span, each with its marked-content marker) split
/// into thousands of rectangles, each addition walking them all; the renderer first fills the
/// page's extent marker, which puts the page's whole box in the region, and the tagging pass
/// removes it. Each kind (12,000 of them) is rendered tagged on A5 pages and on one page as
/// wide and 24 times as tall (the same drawings, a page holding 24 times as many), in turn, the
/// best of two processor times of each: the tall page may take at most 1.5 times as long (the
/// pair measured again, up to three times, until it holds).
/// Measured 2026-12-02 with 16,000: 1.0 times with the marker; 2.0 times (emphasis spans) and
/// 2.1 times (footnote references) without it.
@Suite(.serialized, .slow) struct ManyDrawingsOnAPageTests {
    static let units = 12_000
    static let tallPage = ["--paper", "148mm x 5000mm"]
    static let smallPage = ["--paper", "a5"]

    static let kinds: [(name: String, markdown: String)] = [
        ("emphasis spans", String(repeating: "*a* ", count: units) + "\n\nlast line\n"),
        ("footnote references", String(repeating: "x[^1] ", count: units) + "\n\nlast line\n\n[^1]: The note.\n"),
    ]

    @Test(arguments: 0..<kinds.count)
    func aPageOfManyDrawingsCostsWhatItsDrawingsCostOnSmallPages(kind: Int) throws {
        let (name, markdown) = Self.kinds[kind]
        let best = try Timing.firstHolding {
            var best = (tall: Double.infinity, small: Double.infinity)
            for _ in 0..<2 {
                let tall = try Render.processorSeconds(
                    markdown, name: "many-drawings-tall-\(kind)", options: Self.tallPage)
                let small = try Render.processorSeconds(
                    markdown, name: "many-drawings-small-\(kind)", options: Self.smallPage)
                best = (min(best.tall, tall), min(best.small, small))
            }
            return best
        } holds: {
            $0.tall <= 1.5 * $0.small
        }
        #expect(
            best.tall <= 1.5 * best.small,
            "\(name): \(best.tall) s on one tall page against \(best.small) s on A5 pages")
    }

    /// The page's extent marker leaves nothing in a tagged file: no path of two squares from
    /// the page's corner in any content stream, and the text all there.
    @Test func theExtentMarkerIsRemoved() throws {
        let folder = try Render.scratchFolder("extent-marker")
        let input = folder + "/in.md"
        let pdf = folder + "/out.pdf"
        try write("Some *emphasis* and a note.[^1]\n\nlast line\n\n[^1]: The note.\n", input)
        let run = try typeset(["render", input, "-q", "-o", pdf])
        #expect(run.status == 0, "\(run.output)")
        let expanded = folder + "/expanded.pdf"
        _ = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, expanded])
        let content = try String(decoding: Data(contentsOf: URL(fileURLWithPath: expanded)), as: UTF8.self)
        #expect(content.contains("BDC"), "the file is tagged")
        #expect(!content.contains("0 0 m 0.004 0 l"), "the extent marker's path is removed")
        let text = try PDFProbe.run("pdftotext", [pdf, "-"]).output
        #expect(text.contains("emphasis") && text.contains("last line") && text.contains("The note."))
    }
}
