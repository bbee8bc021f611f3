import Foundation
import Layout
import Styling
import TaggedPDF
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// A composed paragraph is shaped once and its lines are cut from the measured glyphs: they
/// must be the lines a second layout at the chosen breaks gave (same breaks, text, widths and,
/// in the PDF, the same glyph positions), and the widths the composer measured must be the
/// widths drawn.
@Suite struct MeasuredLinesTests {
    static let measure = 230.0

    /// Paragraphs whose lines could differ if cutting were wrong: tracking (Pango trims it at
    /// line starts), kerning across runs, Hangul in the fallback face, hyphenation and soft
    /// hyphens, small caps, baseline shifts, links, underlines and code backgrounds.
    static func cases(_ alignment: TextAlignment) -> [(String, StyledParagraph)] {
        func style(_ families: [String] = Support.interKR, size: Double = 11, tracking: Double = 0) -> RunStyle {
            var s = Support.style(families, size: size, letterSpacing: tracking)
            s.hyphenate = true
            return s
        }
        func paragraph(_ runs: [StyledRun]) -> StyledParagraph {
            StyledParagraph(runs: runs, style: ParagraphStyle(baseFont: runs[0].style.font, alignment: alignment))
        }
        let prose =
            "Typography arranges type to make written language legible and appealing when displayed, "
            + "and the arrangement involves selecting typefaces, point sizes, line lengths and letter spacing."
        var bold = style()
        bold.font.weight = .bold
        var red = style()
        red.color = RGBAColor(red: 0.8, green: 0.2, blue: 0.2)
        var smallCaps = style()
        smallCaps.smallCaps = .lowercase
        var raised = style(size: 7)
        raised.baselineOffset = 4
        var link = style()
        link.link = .external("https://example.com/typography")
        link.underline = .black
        var code = style(["Noto Sans Mono"], size: 10)
        code.isCode = true
        code.background = RGBAColor(red: 0.9, green: 0.9, blue: 0.9)
        return [
            ("tracking +3", paragraph([StyledRun(prose, style: style(tracking: 3))])),
            (
                "tracking -0.8",
                paragraph([
                    StyledRun("WAVE " + prose, style: style(tracking: -0.8)),
                    StyledRun(" AVATAR To", style: style(tracking: 1.5)),
                ])
            ),
            (
                "kerning across runs",
                paragraph([
                    StyledRun("AV", style: style()), StyledRun("AV Wa", style: bold),
                    StyledRun("ve To", style: red), StyledRun("ky " + prose, style: style()),
                ])
            ),
            (
                "Hangul fallback",
                paragraph([
                    StyledRun(
                        "Typeset 한국어 조판은 글자를 배열하는 기술이며 Latin and 한글 "
                            + "share one baseline 어절 단위로 줄을 바꾼다 " + prose, style: style())
                ])
            ),
            (
                "hyphenation",
                paragraph([
                    StyledRun(
                        "Extraordinary incomprehensibilities characterize "
                            + "internationalization co\u{AD}op\u{AD}er\u{AD}a\u{AD}tion " + prose, style: style())
                ])
            ),
            (
                "small caps",
                paragraph([StyledRun("Plain words then ", style: style()), StyledRun(prose, style: smallCaps)])
            ),
            (
                "baseline shift, link, code",
                paragraph([
                    StyledRun("E = mc", style: style()), StyledRun("2", style: raised),
                    StyledRun(" and a linked phrase that wraps across the line end ", style: link),
                    StyledRun("with code_spans() inside", style: code),
                    StyledRun(" " + prose, style: style()),
                ])
            ),
        ]
    }

    private func shape(_ paragraph: StyledParagraph, cut: Bool) -> ShapedParagraph {
        let shaper = PangoShaper()
        shaper.cutsMeasuredLines = cut
        return shaper.shape(paragraph, width: Self.measure)
    }

    /// Draws each paragraph's lines on its own page, 18 pt apart, left edge at 40 pt.
    private func draw(_ paragraphs: [ShapedParagraph], to path: String) throws {
        let renderer = try CairoPDFRenderer(
            path: path, info: DocumentInfo(), creationDate: Date(timeIntervalSince1970: 0))
        for (index, paragraph) in paragraphs.enumerated() {
            var page = Page(number: index + 1, size: .a4)
            for (i, line) in paragraph.lines.enumerated() {
                page.elements.append(.text(line, x: 40 + line.x, baseline: 60 + 18 * Double(i)))
            }
            try renderer.render(page)
        }
        try renderer.finish()
    }

    @Test(arguments: [TextAlignment.left, .justify, .right])
    func cutLinesAreTheLinesOfASecondLayout(_ alignment: TextAlignment) throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var cut: [ShapedParagraph] = []
        var twice: [ShapedParagraph] = []
        for (label, paragraph) in Self.cases(alignment) {
            let a = shape(paragraph, cut: true)
            let b = shape(paragraph, cut: false)
            #expect(a.lines.count > 2, "\(label): \(a.lines.count) lines")
            #expect(a.lines.map(\.text) == b.lines.map(\.text), "\(label)")
            for (x, y) in zip(a.lines, b.lines) {
                #expect(abs(x.width - y.width) < 0.001 && abs(x.x - y.x) < 0.001, "\(label): \(x.text)")
                #expect(
                    x.ascent == y.ascent && x.descent == y.descent && x.shiftedAscent == y.shiftedAscent,
                    "\(label): \(x.text)")
                #expect(x.links.count == y.links.count, "\(label): \(x.text)")
                for (l, m) in zip(x.links, y.links) {
                    #expect(abs(l.x - m.x) < 0.001 && abs(l.width - m.width) < 0.001, "\(label)")
                }
            }
            cut.append(a)
            twice.append(b)
        }
        if alignment == .justify {
            #expect(cut.flatMap(\.lines).contains { $0.text.hasSuffix("-") }, "a justified case is hyphenated")
        }
        let cutPDF = dir.appendingPathComponent("cut.pdf").path
        let twicePDF = dir.appendingPathComponent("twice.pdf").path
        try draw(cut, to: cutPDF)
        try draw(twice, to: twicePDF)
        #expect(try PDFProbe.run("qpdf", ["--check", cutPDF]).0 == 0)
        let a = try PDFProbe.words(cutPDF)
        let b = try PDFProbe.words(twicePDF)
        #expect(a.count == b.count && a.count > 150, "\(a.count) and \(b.count) words")
        #expect(a.map(\.text) == b.map(\.text))
        let worst =
            zip(a, b).map {
                max(abs($0.xMin - $1.xMin), abs($0.xMax - $1.xMax), abs($0.yMin - $1.yMin), abs($0.yMax - $1.yMax))
            }.max() ?? 0
        #expect(worst < 0.01, "glyph positions moved by \(worst) pt")
    }

    @Test func drawnLineWidthsAreTheMeasuredWidths() throws {
        // Right-aligned and justified lines end at the measure only if what is drawn is as wide
        // as what the composer measured. pdftotext puts a word's right edge where the PDF
        // font's advance widths end, up to about 0.2 pt short of HarfBuzz's advances at 11 pt,
        // so the bound is 0.25 pt: a space, a tracking step or a glyph drawn that was not
        // measured (or the reverse) is more. Tracking is trimmed from the paragraph's last line
        // only, so the tracked cases are compared with the second layout above instead; so are
        // lines ending in an added hyphen, which the composer measures without the kerning
        // before it (Inter kerns "r-" by about 0.4 pt at 11 pt).
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var shaped: [ShapedParagraph] = []
        for alignment in [TextAlignment.right, .justify] {
            for (label, paragraph) in Self.cases(alignment) where !label.hasPrefix("tracking") {
                var p = paragraph
                p.style.hangingPunctuation = false
                shaped.append(shape(p, cut: true))
            }
        }
        var checked = 0
        for (index, paragraph) in shaped.enumerated() {
            let pdf = dir.appendingPathComponent("widths-\(index).pdf").path
            try draw([paragraph], to: pdf)
            // pdftotext's words, grouped by the line whose baseline (60 + 18 i) is nearest.
            var rightEdge: [Int: Double] = [:]
            for word in try PDFProbe.words(pdf) {
                let line = Int(((word.yMax - 60) / 18).rounded())
                rightEdge[line] = max(rightEdge[line] ?? 0, word.xMax)
            }
            for (i, line) in paragraph.lines.enumerated()
            where (i < paragraph.lines.count - 1 || line.x > 0.01) && !line.text.hasSuffix("-") {
                guard let drawn = rightEdge[i] else {
                    Issue.record("line \(i) '\(line.text)' not found")
                    continue
                }
                #expect(
                    abs(drawn - (40 + line.x + line.width)) < 0.25,
                    "'\(line.text)': drawn to \(drawn) pt, measured \(40 + line.x + line.width) pt")
                checked += 1
            }
        }
        #expect(checked > 40)
    }
}
