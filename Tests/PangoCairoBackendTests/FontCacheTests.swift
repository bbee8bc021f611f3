import Foundation
import Layout
@testable import PangoCairoBackend
import Styling
import Testing
import Typography

/// Each font request is resolved through fontconfig once per process (``FontCache``), and the
/// cheaper ways of reading metrics give Pango's own numbers.
@Suite struct FontCacheTests {
    /// Font loads the backend issued while `body` ran, under the font lock so that no other
    /// test's loads are counted.
    private func loads(_ body: () -> Void) -> Int {
        FontState.lock.reading {
            let before = FontCache.fontLoads
            body()
            return FontCache.fontLoads - before
        }
    }

    @Test func aSecondLookupOfTheSameRequestLoadsNothing() {
        let shaper = PangoShaper()
        // Sizes no other test uses, so the first lookups are cold.
        for (index, spec) in [FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 13.37),
                              FontSpec(families: ["Inter"], weight: .semibold, italic: true, size: 11.11),
                              FontSpec(families: ["No Such Family 15", "Noto Sans CJK KR"], weight: .bold, size: 9.87),
                              FontSpec(families: ["DejaVu Sans Mono"], size: 8.76)].enumerated() {
            FontState.lock.reading {
                let first = loads { _ = shaper.metrics(of: spec) }
                #expect(first >= 1, "request \(index): the first lookup loads its face")
                #expect(loads { _ = shaper.metrics(of: spec) } == 0, "request \(index): metrics again")
                #expect(loads { _ = PangoShaper().metrics(of: spec) } == 0, "request \(index): another shaper shares the cache")
                // The face query for the same request reuses the face the metrics loaded.
                #expect(loads { _ = FontLibrary.resolve(spec) } == 0, "request \(index): resolve")
                #expect(loads { _ = FontLibrary.resolve(spec) } == 0, "request \(index): resolve again")
                _ = shaper.shape(Support.paragraph("Typeset 한글", RunStyle(font: spec)), width: 200)
                #expect(loads { _ = shaper.shape(Support.paragraph("Typeset 한글 again", RunStyle(font: spec)), width: 200) } == 0,
                        "request \(index): shaping again")
            }
        }
    }

    @Test func everyShaperAndFontQueryShareOneFontMap() {
        let a = PangoShaper(), b = PangoShaper()
        #expect(a.setup === b.setup)
        #expect(FontState.lock.reading { PangoSetup.shared } === a.setup)
    }

    @Test func harfBuzzExtentsAreWhatPangoFontMetricsReports() {
        // Upright, italic (real and synthesized: Noto Sans CJK KR has no italic), bold, and a
        // synthesized bold, across sizes.
        let setup = FontState.lock.reading { PangoSetup.shared }
        for families in [["Inter"], ["Inter", "Noto Sans CJK KR"], ["Noto Sans CJK KR"], ["DejaVu Sans Mono"], ["DejaVu Serif"]] {
            for weight in [FontWeight.regular, .semibold, .bold] {
                for italic in [false, true] {
                    for size in [7.5, 10.5, 17, 48] {
                        let spec = FontSpec(families: families, weight: weight, italic: italic, size: size)
                        FontState.lock.reading {
                            let ours = setup.metrics(spec)
                            guard let pango = setup.pangoFontMetrics(spec) else { Issue.record("no face for \(spec)"); return }
                            #expect(abs(ours.ascent - pango.ascent) < 0.001 && abs(ours.descent - pango.descent) < 0.001,
                                    "\(families) \(weight.rawValue) \(italic ? "italic" : "") \(size) pt: \(ours) vs \(pango)")
                        }
                    }
                }
            }
        }
    }

    @Test func theFirstFamilysMetricsWhateverTheFallbacks() {
        let shaper = PangoShaper()
        for size in [9.0, 17, 40] {
            for weight in [FontWeight.regular, .bold] {
                let alone = shaper.metrics(of: FontSpec(families: ["Inter"], weight: weight, size: size))
                let listed = shaper.metrics(of: FontSpec(families: ["Inter", "Noto Sans CJK KR"], weight: weight, size: size))
                #expect(alone == listed, "Inter \(weight.rawValue) \(size) pt")
            }
        }
        // A first family that is not installed: what it alone resolves to, not the fallback's
        // metrics (Noto Sans CJK KR is 1.45 em tall).
        let missing = shaper.metrics(of: FontSpec(families: ["No Such Family 15", "Noto Sans CJK KR"], size: 10))
        let missingAlone = shaper.metrics(of: FontSpec(families: ["No Such Family 15"], size: 10))
        #expect(missing == missingAlone)
        let resolved = FontLibrary.resolve(FontSpec(families: ["No Such Family 15", "Noto Sans CJK KR"], size: 10))
        #expect(!resolved.familyFound && resolved.family != "Noto Sans CJK KR")
    }
}
