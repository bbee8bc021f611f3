import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend
@testable import TaggedPDF

/// A line whose glyphs a layout thread read out (``LineGlyphs``) is drawn by Cairo alone, with
/// no Pango object touched: the PDF must be the file Pango's own drawing of the line makes, byte
/// for byte, tagged or not, and the lines only Pango can draw must not be read out.
@Suite struct LineGlyphsTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Paragraphs of every kind of run read out: tracking, kerning across runs, colour, Hangul
    /// in a fallback face, hyphenation, small caps, baseline shifts and code backgrounds.
    static func readCases() -> [(String, StyledParagraph)] {
        MeasuredLinesTests.cases(.justify).map { label, paragraph in
            // Links are underlined here: their runs are drawn by Pango, so they are left out.
            var paragraph = paragraph
            paragraph.runs = paragraph.runs.map {
                var run = $0
                run.style.underline = nil
                return run
            }
            return (label, paragraph)
        }
    }

    /// Runs only Pango draws: each makes its line's read-out nil.
    static func pangoCases() -> [(String, StyledParagraph)] {
        var underlined = Support.style(Support.interKR)
        underlined.underline = .black
        var struck = Support.style(Support.interKR)
        struck.strikethrough = .black
        let emoji = Support.style(["Inter", "Noto Sans CJK KR", "Noto Color Emoji"])
        return [
            ("underline", Support.paragraph("an underlined phrase", underlined)),
            ("strikethrough", Support.paragraph("a struck phrase", struck)),
            ("colour emoji", Support.paragraph("a smile 😀 here", emoji)),
            ("right to left", Support.paragraph("שלום עולם", Support.style(["Noto Sans Hebrew", "Inter"]))),
            ("missing glyph", Support.paragraph("an Ol Chiki \u{1C5A} letter", Support.style(["Inter"]))),
        ]
    }

    /// `paragraphs` shaped at 230 pt, each line with its glyphs read out as a layout thread
    /// reads them (inside a shared font map), or not.
    func lines(of paragraphs: [StyledParagraph], readOut: Bool) -> [[ShapedLine]] {
        let shaper = PangoShaper()
        let shared = SharedFontMap()
        return shared.sharing(with: shaper) {
            paragraphs.map { paragraph in
                shaper.shape(paragraph, width: MeasuredLinesTests.measure).lines.map {
                    var line = $0
                    if readOut { line.glyphs = shaper.readOutGlyphs(of: line) }
                    return line
                }
            }
        }
    }

    /// Each paragraph on a page of its own, a line every 18 pt, each line followed by its word
    /// space and, when it ends in a hyphen, by its added hyphen; the file's bytes.
    func draw(_ paragraphs: [[ShapedLine]], tagged: Bool, to path: String) throws -> Data {
        let renderer = try CairoPDFRenderer(
            path: path, info: DocumentInfo(title: "Glyphs"), creationDate: date,
            tagging: tagged ? PDFTagging() : nil)
        for (index, lines) in paragraphs.enumerated() {
            var page = Page(number: index + 1, size: .a4)
            page.elements.append(.structure([StructureElement(.paragraph, id: index + 1)]))
            for (i, line) in lines.enumerated() {
                let baseline = 60 + 18 * Double(i)
                page.elements.append(.text(line, x: 40 + line.x, baseline: baseline))
                if line.text.hasSuffix("-") { page.elements.append(.addedHyphen(after: line)) }
                page.elements.append(.wordSpace(after: line, x: 40 + line.x + line.width, baseline: baseline))
            }
            page.elements.append(.structure([]))
            try renderer.render(page)
        }
        try renderer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: [false, true])
    func readOutLinesDrawAsPangoDrawsThem(tagged: Bool) throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let paragraphs = Self.readCases().map(\.1)
        let read = lines(of: paragraphs, readOut: true)
        let unread = lines(of: paragraphs, readOut: false)
        for ((label, _), lines) in zip(Self.readCases(), read) {
            let missing = lines.filter { $0.glyphs == nil }.map(\.text)
            #expect(missing.isEmpty, "\(label): lines not read out: \(missing)")
        }
        #expect(read.joined().contains { $0.text.hasSuffix("-") }, "a case ends a line in an added hyphen")
        let fromGlyphs = try draw(read, tagged: tagged, to: dir.appendingPathComponent("glyphs.pdf").path)
        let throughPango = try draw(unread, tagged: tagged, to: dir.appendingPathComponent("pango.pdf").path)
        #expect(fromGlyphs == throughPango, "the PDFs differ (\(fromGlyphs.count) and \(throughPango.count) bytes)")
        #expect(try PDFProbe.qpdfClean(dir.appendingPathComponent("glyphs.pdf").path))
    }

    @Test func linesOnlyPangoDrawsAreNotReadOut() {
        let cases = Self.pangoCases()
        for ((label, _), lines) in zip(cases, lines(of: cases.map(\.1), readOut: true)) {
            #expect(lines.contains { $0.glyphs == nil }, "\(label) was read out")
        }
    }

    @Test func nothingIsReadOutWithoutASharedFontMap() {
        let shaper = PangoShaper()
        let line = shaper.shape(Self.readCases()[0].1, width: MeasuredLinesTests.measure).lines[0]
        #expect(shaper.readOutGlyphs(of: line) == nil)
    }
}
