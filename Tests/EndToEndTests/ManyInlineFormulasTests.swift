import Foundation
import TestSupport
import Testing

/// A paragraph of many small inline formulas costs a bounded multiple of prose of its bytes.
/// Each formula is read from its marker (an HTML tag the parser hands cmark-gfm), styled,
/// looked up among the formulas laid out, measured, drawn and tagged; reading the marker's
/// attributes with a locale-aware substring search and writing each lookup's key as text
/// made 20,000 formulas `$x^2$` take about ten times the processor time of 20,000 words of
/// the same bytes. The processor times (``Render/processorSeconds(_:name:options:)``, user
/// and system) of the two, tagged, measured in turn in the same run, the best of two each:
/// the formulas may take at most 8 times the words (the pair measured again, up to three
/// times, until it holds).
/// Measured 2026-12-04: 2.2 s against 0.22 s (×10) before, 1.3 s against 0.22 s (×5.8) after.
@Suite(.serialized, .slow) struct ManyInlineFormulasTests {
    @Test func aParagraphOfInlineFormulasCostsABoundedMultipleOfProse() throws {
        let count = 20_000
        let formulas = String(repeating: "$x^2$ ", count: count) + "end\n"
        let words = String(repeating: "abcde ", count: count) + "end\n"
        #expect(formulas.utf8.count == words.utf8.count)
        let best = try Timing.firstHolding {
            var best = (formulas: Double.infinity, words: Double.infinity)
            for _ in 0..<2 {
                best.formulas = min(best.formulas, try Render.processorSeconds(formulas, name: "inline-formulas"))
                best.words = min(best.words, try Render.processorSeconds(words, name: "inline-formulas-words"))
            }
            return best
        } holds: {
            $0.formulas <= 8 * $0.words
        }
        #expect(
            best.formulas <= 8 * best.words,
            "\(count) inline formulas \(best.formulas) s, \(count) words of their bytes \(best.words) s")
    }
}
