import Layout
import Styling
import Testing
import Typography

/// A footnote's blocks keep what marks them in the text: a quoted paragraph its bar, a code
/// block its panel, drawn at the foot of the page beside and behind the note's lines.
@Suite struct FootnoteBlockTests {
    static let panelColor = RGBAColor(red: 0.9, green: 0.9, blue: 0.95)

    /// A page whose one paragraph cites a note of prose, a quoted paragraph of two lines and a
    /// code line.
    func page() throws -> (page: Page, lines: [(page: Int, text: String, baseline: Double)]) {
        var citing = paragraph("Text")
        let font = FontSpec(families: ["X"], size: 10)
        var link = RunStyle(font: font)
        link.link = .internal("fn-1")
        if case .paragraph(var text) = citing.content {
            text.runs.append(StyledRun("1", style: link))
            citing.content = .paragraph(text)
        }
        var quoted = paragraph(lines(2, tag: "Q"))
        quoted.quoteBars = [3]
        var code = paragraph("code")
        code.background = Self.panelColor
        code.backgroundPadding = 4
        citing.footnotes = [1: [paragraph("Note"), quoted, code]]
        let collector = try layout([citing], page: smallPage(lines: 20))
        return (collector.pages[0], collector.lines)
    }

    @Test func aQuoteInANoteKeepsItsBar() throws {
        let (page, lines) = try page()
        let quotedBaselines = lines.filter { $0.text.hasPrefix("Q") }.map(\.baseline)
        #expect(quotedBaselines.count == 2, "\(lines)")
        let bars = page.elements.compactMap { element -> (x: Double, top: Double, bottom: Double)? in
            guard case .line(let from, let to, _, _) = element, from.x == to.x else { return nil }
            return (from.x, min(from.y, to.y), max(from.y, to.y))
        }
        // One bar, 3 pt right of the text area's left edge (20 pt), beside both quoted lines and
        // no other line.
        #expect(bars.count == 1 && bars.first?.x == 23, "\(bars)")
        let bar = try #require(bars.first)
        for baseline in quotedBaselines { #expect(bar.top < baseline && baseline < bar.bottom, "\(bar) \(baseline)") }
        for other in lines where !other.text.hasPrefix("Q") {
            #expect(other.baseline < bar.top || other.baseline > bar.bottom + 5, "\(other) \(bar)")
        }
    }

    @Test func codeInANoteKeepsItsPanel() throws {
        let (page, lines) = try page()
        let panels = page.elements.compactMap { element -> Rect? in
            guard case .fill(let rect, let color) = element, color == Self.panelColor else { return nil }
            return rect
        }
        let code = try #require(lines.first { $0.text == "code" })
        // One panel, behind the code line with its padding above and below.
        #expect(panels.count == 1, "\(panels)")
        let panel = try #require(panels.first)
        #expect(panel.y < code.baseline - 8 && code.baseline < panel.y + panel.height, "\(panel) \(code)")
        #expect(panel.height >= 10 + 8 - 0.01, "\(panel)")
        // The panel is drawn before (behind) the code's glyphs.
        let fillIndex = page.elements.firstIndex { if case .fill = $0 { true } else { false } }
        let textIndex = page.elements.firstIndex {
            if case .text(let line, _, _) = $0 { line.text == "code" } else { false }
        }
        #expect(try #require(fillIndex) < #require(textIndex))
    }
}
