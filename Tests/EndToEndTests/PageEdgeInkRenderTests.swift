import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// No glyph is cut by the page edge where a line box is smaller than its glyphs (a line height
/// far below the face's natural height): the first line of a page starts its ink at the text
/// area's top, the last ends it above the text area's bottom — after a forced page break, in a
/// block quote, a list, a table, a footnote, and for type shrunk to fit the page. Checked on
/// the rasterized pages (the ink a reader sees) and with `pdftotext -bbox-layout` (boxes from
/// the faces' ascent and descent, which hold the ink of these Latin glyphs).
@Suite(.serialized) struct PageEdgeInkRenderTests {
    /// A theme whose Body and Caption steps are a tenth of their sizes (40 pt on 4, 30 pt on 3).
    static let tightTheme: String = {
        let path = Render.folder + "/tight-steps.json"
        let json = """
            { "name": "tight", "extends": "default",
              "roles": { "body": { "family": "sans", "weight": "regular", "size": 40, "lineHeight": 4, "relativeTo": \
            "body" },
                         "caption": { "family": "sans", "weight": "regular", "size": 30, "lineHeight": 3, \
            "relativeTo": "caption" } } }
            """
        FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        return path
    }()

    /// The first and last rows holding ink (grey below 128) on `page`, pt from the page's top,
    /// from a 144 dpi rendering; nil for a blank page.
    static func inkRows(_ pdf: String, page: Int) throws -> (first: Double, last: Double)? {
        let dpi = 144.0
        let rows = try PDFProbe.rowsWithInk(pdf, page: page, dpi: dpi)
        guard let first = rows.first, let last = rows.last else { return nil }
        return (Double(first) * 72 / dpi, Double(last + 1) * 72 / dpi)
    }

    @Test(
        arguments: [
            ("top", "# HÉ {size=200 lineHeight=20}\n\nbody\n", "", 1),
            ("newpage", "First.\n\n\\newpage\n\n# HÉ {size=200 lineHeight=20}\n\nbody\n", "", 2),
            ("shrunk", "# HÉ {size=300 lineHeight=30}\n\nbody\n", "", 1),
            ("quote", "> # HÉ {size=200 lineHeight=20}\n>\n> quoted\n", "", 1),
            ("list", "::: {size=100 lineHeight=10}\n- ÉÅ gy\n- two\n:::\n", "", 1),
            ("table", "| HÉ | Åg |\n| --- | --- |\n| ÉÉ | gy |\n", "tight", 1),
        ] as [(String, String, String, Int)])
    func theFirstLineStartsItsInkAtTheTextAreasTop(name: String, markdown: String, theme: String, page: Int) throws {
        let margins = "margins: 10mm\nfooter: \"\"\n" + (theme.isEmpty ? "" : "theme: \(Self.tightTheme)\n")
        let (pdf, report) = try Render.markdown("---\n\(margins)---\n\n" + markdown, name: "edge-top-\(name)")
        #expect(
            report.diagnostics.allSatisfy { $0.message.contains("too large for the text area") },
            "\(report.diagnostics)")
        let top = 10 * 72 / 25.4
        let ink = try #require(try Self.inkRows(pdf, page: page))
        // Before: the ink rose above the text area, through the margin, past the page's top.
        #expect(ink.first >= top - 0.6, "ink starts at \(ink.first), the text area at \(top)")
        if theme.isEmpty { #expect(ink.first <= top + 1.5, "the line moved further than its ink needs: \(ink.first)") }
        try expectBoxesOnThePage(pdf)
    }

    @Test func theLastLineEndsItsInkAboveTheTextAreasBottom() throws {
        // 60 pt descenders on a 6 pt step, many pages; margins of 5 mm: before, the last line's
        // descenders were cut by the page's bottom edge.
        let words = Array(repeating: "gjpqy", count: 400).joined(separator: " ")
        let (pdf, report) = try Render.markdown(
            "---\nmargins: 5mm\nfooter: \"\"\n---\n\n::: {size=60 lineHeight=6}\n\(words)\n:::\n", name: "edge-bottom")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let margin = 5 * 72 / 25.4
        let height = Theme.default.page.paper.height
        #expect(report.pageCount >= 2)
        for page in 1...report.pageCount {
            let ink = try #require(try Self.inkRows(pdf, page: page))
            #expect(ink.first >= margin - 0.6, "page \(page): ink starts at \(ink.first)")
            #expect(
                ink.last <= height - margin + 0.6,
                "page \(page): ink ends at \(ink.last), the text area at \(height - margin)")
        }
        try expectBoxesOnThePage(pdf)
    }

    @Test func aFootnoteKeepsItsInkAboveTheTextAreasBottom() throws {
        // Caption at 30 pt on a 3 pt step: before, the note's descenders crossed the page's edge
        // and its capitals its rule.
        let (pdf, _) = try Render.markdown(
            "---\nmargins: 3mm\nfooter: \"\"\ntheme: \(Self.tightTheme)\n---\n\nText[^1] gÉ.\n\n[^1]: gÉ note\n",
            name: "edge-note")
        let margin = 3 * 72 / 25.4
        let ink = try #require(try Self.inkRows(pdf, page: 1))
        #expect(ink.last <= Theme.default.page.paper.height - margin + 0.6, "ink ends at \(ink.last)")
        let words = try PDFProbe.words(pdf).map(\.text)
        #expect(words.contains("note"), "\(words)")
        try expectBoxesOnThePage(pdf)
    }

    /// Every word box `pdftotext -bbox-layout` reports lies on its page.
    func expectBoxesOnThePage(_ pdf: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let height = Theme.default.page.paper.height
        let outside = try PDFProbe.words(pdf).filter { $0.yMin < -0.5 || $0.yMax > height + 0.5 }
        #expect(outside.isEmpty, "\(outside.prefix(3))", sourceLocation: sourceLocation)
        #expect(try PDFProbe.qpdfClean(pdf), sourceLocation: sourceLocation)
    }
}
