import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// Long and unbreakable paragraphs: every character is set, no line is wider than the measure,
/// and the cost grows linearly with the length.
@Suite struct LongParagraphTests {
    let shaper = PangoShaper()
    static let measure = 453.5

    private func body(_ text: String, size: Double = 10.5) -> StyledParagraph {
        Support.paragraph(text, Support.style(Support.interKR, size: size))
    }

    private func check(_ text: String, _ label: String, size: Double = 10.5) -> ShapedParagraph {
        let shaped = shaper.shape(body(text, size: size), width: Self.measure)
        let wide = shaped.lines.filter { $0.width > Self.measure + 0.01 }
        #expect(wide.isEmpty, "\(label): \(wide.count) lines wider than the measure, e.g. \(wide.first?.width ?? 0) pt")
        let set = shaped.lines.map(\.text).joined().filter { !$0.isWhitespace }
        #expect(
            set == text.filter { !$0.isWhitespace },
            "\(label): \(set.count) of \(text.filter { !$0.isWhitespace }.count) characters set")
        return shaped
    }

    /// Each composed line's text is its slice of the paragraph (Latin with accents, Hangul,
    /// emoji: one to four UTF-8 bytes a character), a hyphenated line's with "-" in place of
    /// the soft hyphen it breaks at.
    @Test func composedLinesCarryTheirSliceOfTheText() {
        let text =
            "Typographic extraordinarily com\u{AD}prehensive café résumé 한국어 문장을 😀 incomprehensibilities "
            + "naïveté über\u{AD}zeugend internationalization 🇰🇷 representativeness characteristically 가나다라마바사"
        let paragraph = Support.paragraph(text, Support.style(Support.interKR, size: 11), alignment: .justify)
        let shaped = shaper.shape(paragraph, width: 120)
        #expect(shaped.lines.count > 5)
        let hyphenated = shaped.lines.filter { $0.text.hasSuffix("-") }
        #expect(!hyphenated.isEmpty, "\(shaped.lines.map(\.text))")
        let rebuilt = shaped.lines.map { $0.text.hasSuffix("-") ? String($0.text.dropLast()) : $0.text }.joined()
        func letters(_ s: String) -> String {
            s.replacingOccurrences(of: "\u{AD}", with: "").filter { !$0.isWhitespace }
        }
        #expect(
            letters(rebuilt) == letters(text),
            "\(shaped.lines.map(\.text))")
        #expect(shaped.lines.allSatisfy { !$0.text.contains("\u{AD}-") })
    }

    @Test func spacesNoBreakMayFollowAreBrokenAtInAnEmergency() {
        // UAX #14 LB14 (OP SP* ×): "[ [ [" has no break opportunity at all; the emergency pass
        // breaks after its spaces instead of leaving one line running off the page.
        for unit in ["[ ", "( ", "{ ", "« "] {
            let shaped = check(String(repeating: unit, count: 300), "'\(unit)' × 300")
            #expect(shaped.lines.count >= 5, "'\(unit)' × 300: \(shaped.lines.count) lines")
            #expect(
                shaped.lines.dropFirst().allSatisfy { !($0.text.first?.isWhitespace ?? false) },
                "'\(unit)': no line starts with a space")
        }
    }

    @Test func aParagraphTooWideForOneLayoutIsComposedInPieces() {
        // Past 1,000,000 pt at 2 em a character (here at 40 pt, so that the test stays short)
        // the paragraph is measured in pieces: still composed, every character set.
        let brackets = String(repeating: "[ ", count: 7_000)
        #expect(PangoShaper.unwrappedWidthBound(body(brackets, size: 40)) >= PangoShaper.composedWidth)
        let shaped = check(brackets, "'[ ' × 7,000", size: 40)
        #expect(shaped.lines.count > 300)
        let words = (0..<2_500).map { ["measure", "glyph", "leading", "tracking", "baseline"][$0 % 5] }.joined(
            separator: " ")
        #expect(PangoShaper.unwrappedWidthBound(body(words, size: 40)) >= PangoShaper.composedWidth)
        let prose = check(words, "2,500 words", size: 40)
        #expect(prose.lines.count > 300)
    }

    @Test(.slow) func composingTimeGrowsLinearly() {
        // Processor time of 4N ≤ 8 × that of N (best of five runs each, the thread's time, so
        // a busy machine inflates neither; quadratic work would take 16 ×), for text without
        // break opportunities, one-letter words and prose, at 40 pt: the 4N paragraphs pass
        // the one-layout limit (measured in pieces), the N ones do not.
        func seconds(_ text: String, runs: Int) -> Double {
            Timing.bestThreadSeconds(of: runs) { _ = shaper.shape(body(text, size: 40), width: Self.measure) }
        }
        let prose = ["measure", "glyph", "leading", "tracking", "baseline"]
        for (label, unit) in [
            ("'[ '", { (_: Int) in "[ " }), ("'a '", { (_: Int) in "a " }),
            ("words", { (i: Int) in prose[i % 5] + " " }),
        ] {
            let n = 1_600
            let small = (0..<n).map(unit).joined()
            let large = (0..<4 * n).map(unit).joined()
            #expect(PangoShaper.unwrappedWidthBound(body(large, size: 40)) >= PangoShaper.composedWidth, "\(label)")
            let t1 = seconds(small, runs: 5)
            let t4 = seconds(large, runs: 5)
            #expect(t4 <= 8 * t1, "\(label): N \(String(format: "%.3f", t1)) s, 4N \(String(format: "%.3f", t4)) s")
        }
    }
}
