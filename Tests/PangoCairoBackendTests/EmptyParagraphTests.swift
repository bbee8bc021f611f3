import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// An empty paragraph set to a measure (an empty list item, an empty table cell) is one line
/// that draws nothing, exactly as tall as the empty line Pango lays out for the same paragraph
/// unwrapped: the composer does not lay out a layout of no text.
@Suite struct EmptyParagraphTests {
    let shaper = PangoShaper()

    static let fonts: [(families: [String], size: Double, weight: FontWeight)] = [
        (Support.inter, 17, .regular),
        (Support.interKR, 11, .bold),
        (["Noto Sans CJK KR"], 20, .regular),
        (["DejaVu Sans Mono"], 9.5, .semibold),
    ]

    @Test(arguments: 0..<fonts.count, [TextAlignment.left, .center, .right, .justify])
    func emptyLineMatchesPangosEmptyLine(font index: Int, alignment: TextAlignment) {
        let font = Self.fonts[index]
        let style = Support.style(font.families, size: font.size, weight: font.weight)
        let empty = StyledParagraph(runs: [], style: ParagraphStyle(baseFont: style.font, alignment: alignment))
        let unwrapped = shaper.shape(empty, width: nil).lines
        var composed: [ShapedLine] = []
        shaper.shape(empty, width: 300) { composed += $0.lines }
        #expect(unwrapped.count == 1)
        #expect(composed.count == 1)
        guard let pangoLine = unwrapped.first, let line = composed.first else { return }
        #expect(line.handle == nil)
        #expect(line.width == 0)
        #expect(abs(line.ascent - pangoLine.ascent) < 1e-9, "ascent \(line.ascent) vs Pango's \(pangoLine.ascent)")
        #expect(abs(line.descent - pangoLine.descent) < 1e-9, "descent \(line.descent) vs Pango's \(pangoLine.descent)")
        #expect(line.ascent > font.size * 0.7)
    }
}
