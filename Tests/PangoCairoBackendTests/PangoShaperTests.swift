import Foundation
import Layout
import PangoCairoBackend
import Styling
import TestSupport
import Testing
import Typography

@Suite struct PangoShaperTests {
    let shaper = PangoShaper()

    @Test func interMetricsAt72dpi() {
        let m = shaper.metrics(of: FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 17))
        #expect(abs(m.ascent - 16.469) < 0.01)
        #expect(abs(m.descent - 4.105) < 0.01)
        // Inter 4: x-height 1118/2048 em, cap height 1490/2048 em (OS/2).
        #expect(abs(m.xHeight - 17 * 1118 / 2048) < 0.05)
        #expect(abs(m.capHeight - 17 * 1490 / 2048) < 0.05)
    }

    @Test func notoCJKMetricsAreTallerThanInter() {
        let m = shaper.metrics(of: FontSpec(families: ["Noto Sans CJK KR"], size: 10))
        #expect(abs(m.naturalHeight - 14.48) < 0.05)
    }

    @Test func trackingWidensTenGlyphsByNineGaps() {
        let plain = shaper.shape(Support.paragraph("Typesetter", Support.style()), width: nil)
        let tracked = shaper.shape(Support.paragraph("Typesetter", Support.style(letterSpacing: 3)), width: nil)
        #expect(plain.lines.count == 1 && tracked.lines.count == 1)
        // Pango trims the spacing at both line ends: (n − 1) × 3 pt.
        #expect(abs(tracked.lines[0].width - plain.lines[0].width - 27) < 0.05)
    }

    /// "AVAVAV" in Inter at 17 pt, one run, or one run per letter with alternating colours;
    /// `code` marks the paragraph as a code block (`breakAnywhere`).
    private func kernedWidths(code: Bool) -> (oneColour: Double, alternating: Double) {
        let font = FontSpec(families: Support.inter, size: 17)
        let red = RGBAColor(red: 0.8, green: 0.1, blue: 0.1)
        var style = ParagraphStyle(baseFont: font)
        style.breakAnywhere = code
        let text = "AVAVAV"
        let one = StyledParagraph(runs: [StyledRun(text, style: RunStyle(font: font))], style: style)
        let alternating = StyledParagraph(
            runs: text.enumerated().map { index, letter in
                StyledRun(String(letter), style: RunStyle(font: font, color: index.isMultiple(of: 2) ? red : .black))
            },
            style: style)
        return (shaper.shape(one, width: nil).naturalWidth, shaper.shape(alternating, width: nil).naturalWidth)
    }

    @Test func codeColoursDoNotSplitShaping() {
        // A code block's glyphs of one font are shaped as one item whatever their colours, so
        // the kerning of A–V reaches across each change of colour (and highlighting costs
        // HarfBuzz no extra items).
        let code = kernedWidths(code: true)
        #expect(abs(code.alternating - code.oneColour) < 0.001, "\(code)")
        // Prose keeps an item per run (a link's first glyph is not kerned against the text
        // before it): the same runs lose their kerning, which shows the pair is kerned.
        let prose = kernedWidths(code: false)
        #expect(abs(prose.oneColour - code.oneColour) < 0.001)
        #expect(prose.alternating > prose.oneColour + 1, "\(prose)")
    }

    /// A wrapped code line does not end after a dash that opens a word (`-` | `↪ DisableReboots`
    /// was set): at every measure from 60 to 300 pt, each drawn line of a command line of flags
    /// ends elsewhere; the dashes that join words (`windows_boxstarter-x`) still break.
    @Test func aWrappedCodeLineKeepsAWordOpeningDashWithItsWord() {
        let font = FontSpec(families: ["DejaVu Sans Mono"], size: 9)
        var style = ParagraphStyle(baseFont: font)
        style.breakAnywhere = true
        let text = "choco install windows_boxstarter -DisableReboots -Force --verbose (-Db_lto=true) \"-y\" end"
        let paragraph = StyledParagraph(runs: [StyledRun(text, style: RunStyle(font: font))], style: style)
        for width in stride(from: 60.0, through: 300, by: 7.5) {
            let lines = shaper.shape(paragraph, width: width).lines.map { $0.text.trimmingCharacters(in: .whitespaces) }
            #expect(lines.joined().filter { !$0.isWhitespace } == text.filter { !$0.isWhitespace }, "\(lines)")
            for line in lines.dropLast() {
                #expect(!line.hasSuffix(" -") && !line.hasSuffix("--") && !line.hasSuffix("(-"), "\(width): \(lines)")
                #expect(line != "-" && line != "\"-", "\(width): \(lines)")
            }
        }
    }

    @Test func zeroLetterSpacingEmitsNoAttribute() {
        // DejaVu Serif has f-ligatures; any letter-spacing attribute (even tiny) turns them off.
        let text = "fi ffi ffl"
        let zero = shaper.shape(Support.paragraph(text, Support.style(["DejaVu Serif"], letterSpacing: 0)), width: nil)
        let tiny = shaper.shape(
            Support.paragraph(text, Support.style(["DejaVu Serif"], letterSpacing: 0.001)), width: nil)
        let again = shaper.shape(Support.paragraph(text, Support.style(["DejaVu Serif"])), width: nil)
        #expect(zero.lines[0].width == again.lines[0].width)
        #expect(abs(zero.lines[0].width - tiny.lines[0].width) > 0.05)
    }

    @Test func hangulFallbackDoesNotChangeTheLineBox() {
        let latin = shaper.shape(Support.paragraph("Typeset line", Support.style(Support.interKR)), width: nil)
        let mixed = shaper.shape(Support.paragraph("Typeset 한국어 조판", Support.style(Support.interKR)), width: nil)
        #expect(latin.lines[0].ascent == mixed.lines[0].ascent)
        #expect(latin.lines[0].descent == mixed.lines[0].descent)
        #expect(abs(mixed.lines[0].ascent - 16.469) < 0.01)
    }

    @Test func baselineOffsetRaisesTheLineBox() {
        var raised = Support.style()
        raised.baselineOffset = 4
        let p = StyledParagraph(
            runs: [StyledRun("x", style: Support.style()), StyledRun("2", style: raised)],
            style: ParagraphStyle(baseFont: raised.font))
        let line = shaper.shape(p, width: nil).lines[0]
        // The raised run is measured apart: it may use the half-leading (LineGrid).
        #expect(abs(line.shiftedAscent - (16.469 + 4)) < 0.01)
        #expect(abs(line.ascent - 16.469) < 0.01)
        #expect(abs(line.descent - 4.105) < 0.01)
    }

    static let korean = "타이포그래피는 글자를 배열하는 기술이며 한국어 문장은 어절 단위로 줄을 바꾼다"

    @Test func keepAllBreaksOnlyBetweenWords() {
        let words = Set(Self.korean.split(separator: " ").map(String.init))
        let shaped = shaper.shape(Support.paragraph(Self.korean, Support.style(Support.interKR)), width: 120)
        #expect(shaped.lines.count > 2)
        for line in shaped.lines {
            for word in line.text.split(separator: " ") {
                #expect(words.contains(String(word)), "broke inside: \(line.text)")
            }
            #expect(line.width <= 120.01)
        }
        #expect(shaped.lines.map(\.text).joined() == Self.korean)
    }

    @Test func anywhereBreaksInsideWords() {
        let words = Set(Self.korean.split(separator: " ").map(String.init))
        let shaped = shaper.shape(
            Support.paragraph(Self.korean, Support.style(Support.interKR), hangul: .anywhere), width: 120)
        let broken = shaped.lines.flatMap { $0.text.split(separator: " ") }.filter { !words.contains(String($0)) }
        #expect(!broken.isEmpty)
    }

    @Test func keepAllStillBreaksAWordWiderThanTheMeasure() {
        let long = "가나다라마바사아자차카타파하가나다라마바사아자차카타파하 짧은 말"
        let shaped = shaper.shape(Support.paragraph(long, Support.style(Support.interKR)), width: 100)
        #expect(shaped.lines.count > 2)
        for line in shaped.lines { #expect(line.width <= 100.01) }
    }

    @Test func longURLNeverOverflows() {
        let url = "https://example.com/a/very/long/path/without/any/spaces/at/all/index.html"
        let shaped = shaper.shape(Support.paragraph(url, Support.style()), width: 150)
        #expect(shaped.lines.count > 1)
        for line in shaped.lines { #expect(line.width <= 150.01) }
    }

    @Test func alignmentOffsetsTheLine() {
        let left = shaper.shape(Support.paragraph("Centre", Support.style()), width: 300).lines[0]
        let centre = shaper.shape(Support.paragraph("Centre", Support.style(), alignment: .center), width: 300).lines[0]
        let right = shaper.shape(Support.paragraph("Centre", Support.style(), alignment: .right), width: 300).lines[0]
        #expect(left.x == 0)
        #expect(abs(centre.x - (300 - centre.width) / 2) < 0.01)
        #expect(abs(right.x + right.width - 300) < 0.01)
    }

    @Test func justifyStretchesAllButTheLastLine() {
        let text = String(repeating: "Justified text fills the measure exactly. ", count: 4)
        let shaped = shaper.shape(Support.paragraph(text, Support.style(), alignment: .justify), width: 200)
        #expect(shaped.lines.count > 2)
        for line in shaped.lines.dropLast() {
            // Edge characters protrude into the margins (microtype's default table): a final
            // hyphen or period by at most 0.3 em, a letter at either edge by at most 0.1 em.
            let hangs = [".", ",", "-"].contains(line.text.trimmingCharacters(in: .whitespaces).last ?? " ")
            let protrusion = (hangs ? 0.3 : 0.1) * 17 + 0.1 * 17
            #expect(
                line.width >= 199.99 && line.width <= 200.01 + protrusion, "\(line.width) \(line.text)")
        }
        #expect(shaped.lines.last!.width < 199)
    }

    @Test func emptyParagraphHasOneLineWithBaseMetrics() {
        let p = StyledParagraph(runs: [], style: ParagraphStyle(baseFont: FontSpec(families: ["Inter"], size: 17)))
        let shaped = shaper.shape(p, width: 200)
        #expect(shaped.lines.count == 1)
        #expect(abs(shaped.lines[0].ascent - 16.469) < 0.01)
        #expect(shaped.lines[0].width == 0)
    }

    @Test func hardBreaksMakeLines() {
        let shaped = shaper.shape(Support.paragraph("one\ntwo\nthree", Support.style()), width: nil)
        #expect(shaped.lines.map(\.text) == ["one", "two", "three"])
    }

    @Test func linkSpansCoverTheLinkedRun() {
        var link = Support.style()
        link.link = .external("https://example.com")
        let p = StyledParagraph(
            runs: [
                StyledRun("See ", style: Support.style()), StyledRun("the site", style: link),
                StyledRun(" now.", style: Support.style()),
            ],
            style: ParagraphStyle(baseFont: link.font, alignment: .center))
        let plain = shaper.shape(Support.paragraph("See ", Support.style()), width: nil).lines[0].width
        let linked = shaper.shape(Support.paragraph("the site", Support.style()), width: nil).lines[0].width
        let line = shaper.shape(p, width: 400).lines[0]
        #expect(line.links.count == 1)
        #expect(abs(line.links[0].x - (line.x + plain)) < 0.05)
        #expect(abs(line.links[0].width - linked) < 0.05)
        #expect(line.links[0].target == .external("https://example.com"))
    }
}
