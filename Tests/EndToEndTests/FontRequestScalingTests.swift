import Foundation
import TestSupport
import Testing

/// A paragraph whose spans each ask for a font of their own costs about what the same spans
/// asking for one font cost: thousands of distinct families that are not installed (each warned
/// about, then asked of fontconfig as one unknown name), thousands of distinct sizes (the first
/// 64 set as written, each later one at the nearest of those), and a few hundred sizes taken in
/// turn (more than the 256 fontsets Pango keeps). Each costs the typeset command's processor
/// time linear in the input too. Ratios of figures measured in the same run (the pair measured
/// again, up to three times, until it holds).
@Suite(.serialized) struct FontRequestScalingTests {
    /// `count` spans of one letter, the i-th asking for the family `NoSuchFamily<i>` (`distinct`),
    /// or every one for `NoSuchFamily`.
    static func families(_ count: Int, distinct: Bool) -> String {
        (0..<count).map { "[x]{family=\"NoSuchFamily\(distinct ? String($0) : "")\"} " }.joined() + "end\n"
    }

    /// `count` spans of one letter, the i-th at 5 + 0.01 × (i mod `turn`) pt.
    static func sizes(_ count: Int, turn: Int) -> String {
        (0..<count).map { "[x]{size=\(String(format: "%.2f", 5 + Double($0 % turn) * 0.01))pt} " }.joined() + "end\n"
    }

    /// Processor time of `markdown` and of `baseline` (``Render/measured(_:name:scratch:)``),
    /// measured again until the first takes at most `factor` times the second; the last pair.
    func compared(
        _ markdown: String, with baseline: String, within factor: Double, name: String
    ) throws -> (seconds: Double, baseline: Double, text: String) {
        let (measured, base) = try Timing.firstHolding {
            (
                try Render.measured(markdown, name: name, scratch: "font-requests"),
                try Render.measured(baseline, name: name + "-baseline", scratch: "font-requests")
            )
        } holds: {
            $0.0.seconds <= factor * $0.1.seconds
        }
        return (measured.seconds, base.seconds, measured.text)
    }

    @Test(.slow) func distinctMissingFamiliesCostWhatOneMissingFamilyCosts() throws {
        let figures = try compared(
            Self.families(2_000, distinct: true), with: Self.families(2_000, distinct: false), within: 3,
            name: "missing-families")
        #expect(
            figures.seconds <= 3 * figures.baseline,
            "2,000 missing families \(figures.seconds) s, one missing family 2,000 times \(figures.baseline) s")
        let large = try Render.expectLinear("missing families", size: 2_000, scratch: "font-requests") {
            Self.families($0, distinct: true)
        }
        // The letters in the fallback face and the spaces in the body's: pdftotext joins them.
        #expect(large.text.filter { $0 == "x" }.count == 16_000, "every span is set")
    }

    @Test(.slow) func distinctSizesCostWhatOneSizeCosts() throws {
        let figures = try compared(
            Self.sizes(2_000, turn: 2_000), with: Self.sizes(2_000, turn: 1), within: 3, name: "sizes")
        #expect(
            figures.seconds <= 3 * figures.baseline,
            "2,000 sizes \(figures.seconds) s, one size 2,000 times \(figures.baseline) s")
        let large = try Render.expectLinear("distinct sizes", size: 2_000, scratch: "font-requests") {
            Self.sizes($0, turn: $0)
        }
        #expect(large.text.filter { $0 == "x" }.count == 16_000, "every span is set")
    }

    @Test(.slow) func sizesTakenInTurnPastPangosFontsetCacheCostWhatOneSizeCosts() throws {
        // 300 sizes, each with its fontset: more than the 256 Pango 1.50 keeps, so each run of
        // the paragraph asked fontconfig again for the fontset the run before last pushed out.
        let figures = try compared(
            Self.sizes(16_000, turn: 300), with: Self.sizes(16_000, turn: 1), within: 2, name: "sizes-in-turn")
        #expect(
            figures.seconds <= 2 * figures.baseline,
            "300 sizes in turn \(figures.seconds) s, one size \(figures.baseline) s (16,000 spans each)")
    }

    @Test(.slow) func sizesPastTheLimitAreSetAtTheNearestWrittenBefore() throws {
        // 100 sizes from 5 pt up in steps of 0.25 pt: the first 64 as written (5 … 20.75 pt), the
        // rest at the largest of them.
        let spans = (0..<100).map { "[Xx]{size=\(5 + Double($0) * 0.25)} " }
        let markdown = spans.joined() + "\n"
        let (pdf, report) = try Render.markdown(markdown, name: "sizes-past-limit")
        let heights = try PDFProbe.words(pdf).filter { $0.text == "Xx" }.map(\.height)
        #expect(heights.count == 100, "every span is set")
        let distinct = Set(heights.map { ($0 * 100).rounded() })
        #expect(distinct.count == 64, "64 distinct sizes set, found \(distinct.count)")
        #expect(
            heights.suffix(36).allSatisfy { abs($0 - heights[63]) < 0.001 }, "each later size is set at 20.75 pt")
        let warnings = report.diagnostics.filter { $0.message.contains("distinct font sizes") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.message.hasPrefix("100 distinct font sizes are written in attributes") == true)
        let start = spans.prefix(64).joined().count + 1
        let column = warnings.first?.location?.column ?? 0
        #expect((start..<start + spans[64].count).contains(column), "placed at the 65th size, found column \(column)")
    }
}
