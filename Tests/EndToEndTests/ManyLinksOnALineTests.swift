import Foundation
import TestSupport
import Testing

/// A tagged line that holds many links is drawn in pieces, each link's glyphs in its own `Link`
/// element (PDF/UA-1 §7.18.5): the cost of a piece must be that of its own glyphs, not of the
/// whole line, or a line of k links costs k² and a wide page full of short links takes
/// seconds where prose of the same size takes a tenth of one. Each kind is rendered tagged
/// beside ordinary prose of the same number of bytes on the same wide page (A0 landscape,
/// 5 mm margins: about 500 links a line), in turn, the best of three of each, and may take at
/// most 10 times the prose's wall time. Drawn piece by piece a link costs a few times a word
/// (its own marked content, annotation and structure element): 4 and 6 times here; redrawing
/// the whole line for each piece took 17 and 30 times.
@Suite(.serialized, .slow) struct ManyLinksOnALineTests {
    static let bytes = 10_000
    static let page = ["--paper", "A0 landscape", "--margins", "5mm"]

    /// `unit` repeated to about ``bytes`` bytes, then `ending`.
    static func repeated(_ unit: String, ending: String) -> String {
        String(repeating: unit, count: bytes / unit.utf8.count) + "\n\nlast line\n\n" + ending
    }

    static let kinds: [(name: String, markdown: String)] = [
        ("links to a heading", repeated("[a](#a) ", ending: "# a\n")),
        ("footnote references", repeated("x[^1] ", ending: "[^1]: The note.\n")),
    ]

    @Test(arguments: 0..<kinds.count)
    func aLineOfManyLinksCostsAboutWhatProseOfItsSizeCosts(kind: Int) throws {
        let (name, markdown) = Self.kinds[kind]
        let prose = Prose.paragraph(bytes: Self.bytes) + "\nlast line\n"
        var best = (links: Double.infinity, prose: Double.infinity)
        var pdf = ""
        for _ in 0..<3 {
            let links = try Render.peak(markdown, name: "many-links-\(kind)", options: Self.page, tagged: true)
            let plain = try Render.peak(prose, name: "many-links-prose-\(kind)", options: Self.page, tagged: true)
            best = (min(best.links, links.seconds), min(best.prose, plain.seconds))
            pdf = links.pdf
        }
        #expect(
            best.links <= 10 * best.prose,
            "\(name): \(best.links) s against \(best.prose) s for prose of \(Self.bytes) bytes")
        let text = try PDFProbe.run("pdftotext", [pdf, "-"]).output
        #expect(text.contains("last line"), "\(name): what follows the links is drawn")
        let info = try PDFProbe.run("pdfinfo", ["-struct", pdf]).output
        #expect(info.contains("Link"), "\(name): the links are tagged")
    }
}
