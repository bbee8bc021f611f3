import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// Each font request is resolved through fontconfig once per font map (``FontCache``), and the
/// cheaper ways of reading metrics give Pango's own numbers.
@Suite struct FontCacheTests {
    /// Font loads `setup` issued while `body` ran (a setup is used by one session at a time, so
    /// no other test's loads are counted).
    private func loads(_ setup: PangoSetup, _ body: () -> Void) -> Int {
        let before = setup.fontLoads
        body()
        return setup.fontLoads - before
    }

    @Test func aSecondLookupOfTheSameRequestLoadsNothing() {
        let session = FontSession()
        let shaper = PangoShaper(session: session)
        let setup = session.setup
        // Sizes no other test uses, so the first lookups are cold.
        for (index, spec) in [
            FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 13.37),
            FontSpec(families: ["Inter"], weight: .semibold, italic: true, size: 11.11),
            FontSpec(families: ["No Such Family 15", "Noto Sans CJK KR"], weight: .bold, size: 9.87),
            FontSpec(families: ["DejaVu Sans Mono"], size: 8.76),
        ].enumerated() {
            do {
                let first = loads(setup) { _ = shaper.metrics(of: spec) }
                #expect(first >= 1, "request \(index): the first lookup loads its face")
                #expect(loads(setup) { _ = shaper.metrics(of: spec) } == 0, "request \(index): metrics again")
                #expect(
                    loads(setup) { _ = PangoShaper(session: session).metrics(of: spec) } == 0,
                    "request \(index): another shaper on the session shares the cache")
                // The face query for the same request reuses the face the metrics loaded.
                #expect(loads(setup) { _ = FontLibrary.resolve(spec, in: session) } == 0, "request \(index): resolve")
                #expect(
                    loads(setup) { _ = FontLibrary.resolve(spec, in: session) } == 0, "request \(index): resolve again")
                _ = shaper.shape(Support.paragraph("Typeset 한글", RunStyle(font: spec)), width: 200)
                #expect(
                    loads(setup) {
                        _ = shaper.shape(Support.paragraph("Typeset 한글 again", RunStyle(font: spec)), width: 200)
                    }
                        == 0,
                    "request \(index): shaping again")
            }
        }
    }

    @Test func aShaperAndTheFontQueriesOfOneSessionShareOneFontMap() {
        let session = FontSession()
        #expect(PangoShaper(session: session).setup === session.setup)
        #expect(PangoShaper(session: session).setup === PangoShaper(session: session).setup)
    }

    @Test func harfBuzzExtentsAreWhatPangoFontMetricsReports() {
        // Upright, italic (real and synthesized: Noto Sans CJK KR has no italic), bold, and a
        // synthesized bold, across sizes.
        let session = FontSession()
        let setup = session.setup
        for families in [
            ["Inter"], ["Inter", "Noto Sans CJK KR"], ["Noto Sans CJK KR"], ["DejaVu Sans Mono"], ["DejaVu Serif"],
        ] {
            for weight in [FontWeight.regular, .semibold, .bold] {
                for italic in [false, true] {
                    for size in [7.5, 10.5, 17, 48] {
                        let spec = FontSpec(families: families, weight: weight, italic: italic, size: size)
                        do {
                            let ours = setup.metrics(spec)
                            guard let pango = setup.pangoFontMetrics(spec) else {
                                Issue.record("no face for \(spec)")
                                return
                            }
                            #expect(
                                abs(ours.ascent - pango.ascent) < 0.001 && abs(ours.descent - pango.descent) < 0.001,
                                """
                                \(families) \(weight.rawValue) \(italic ? "italic" : "") \(size) pt: \(ours) vs \
                                \(pango)
                                """
                            )
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
                let listed = shaper.metrics(
                    of: FontSpec(families: ["Inter", "Noto Sans CJK KR"], weight: weight, size: size))
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

/// Text the first family's face has is shaped with that family alone — the fontconfig pattern
/// Pango's own metrics ask for — and PDF lines are measured with the PDF surface's glyph
/// options, so a one-page document sorts the installed faces and loads its glyphs no more
/// often than it must (docs/performance.md, "One page").
@Suite struct SharedFontPatternTests {
    private let latin = "Typeset sets 12 \"quoted\" words, (parenthesized) & more."

    @Test func latinTextAsksForThePatternPangosMetricsAsk() {
        // Faces that are what they were asked for (Pango's metrics describe the face itself: a
        // family whose italic is named Oblique, or a semibold drawn from the bold face, is
        // described as that face, which is another pattern either way).
        let session = FontSession()
        let setup = session.setup
        var specs: [FontSpec] = []
        for weight in [FontWeight.regular, .semibold, .bold] {
            for italic in [false, true] {
                for size in [9.0, 10.5, 28] {
                    specs.append(
                        FontSpec(families: ["Inter", "Noto Sans CJK KR"], weight: weight, italic: italic, size: size))
                }
            }
        }
        for weight in [FontWeight.regular, .bold] {
            specs.append(FontSpec(families: ["DejaVu Sans Mono", "Noto Sans Mono CJK KR"], weight: weight, size: 9.7))
            specs.append(FontSpec(families: ["DejaVu Serif", "Noto Sans CJK KR"], weight: weight, size: 12))
        }
        for spec in specs {
            do {
                let shaping = setup.shapingDescription(spec, for: latin)
                guard let sample = setup.metricsSampleDescription(spec) else {
                    Issue.record("no face for \(spec)")
                    return
                }
                #expect(shaping.isEqual(to: sample), "\(spec): shaping '\(shaping.text)', metrics '\(sample.text)'")
                #expect(!shaping.isEqual(to: setup.description(spec)), "\(spec): not the whole list")
            }
        }
    }

    @Test func textBeyondTheFirstFaceKeepsTheWholeList() {
        let session = FontSession()
        let setup = session.setup
        do {
            let listed = FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 10.5)
            let whole = setup.description(listed)
            // Hangul (Inter has none), a line separator beside it changes nothing.
            #expect(setup.shapingDescription(listed, for: "Typeset 한글\u{2028}").isEqual(to: whole))
            #expect(!setup.shapingDescription(listed, for: "Typeset\u{2028}\n").isEqual(to: whole))
            // A first family that is not installed: its fallback is not the list's.
            let missing = FontSpec(families: ["No Such Family 15", "Noto Sans CJK KR"], size: 10.5)
            #expect(setup.shapingDescription(missing, for: latin).isEqual(to: setup.description(missing)))
            // A single family is its own list.
            let alone = FontSpec(families: ["Inter"], size: 10.5)
            #expect(setup.shapingDescription(alone, for: "한글").isEqual(to: setup.description(alone)))
        }
    }

    @Test func whatACharacterIsSetInIsTheSameEitherWay() {
        // Coverage through the whole list and through the description shaping picks agree.
        let spec = FontSpec(families: ["Inter", "Noto Sans CJK KR"], weight: .bold, size: 10.5)
        let mixed = FontLibrary.coverage(of: spec, text: latin + " 한글")
        let latinOnly = FontLibrary.coverage(of: spec, text: latin)
        #expect(Array(mixed.prefix(latinOnly.count)) == latinOnly)
        #expect(latinOnly.allSatisfy { $0.family == "Inter" })
        #expect(mixed.suffix(2).allSatisfy { $0.family == "Noto Sans CJK KR" })
    }

    @Test func pdfLinesAreDrawnWithTheScaledFontTheyWereMeasuredWith() {
        let session = FontSession()
        let setup = session.setup
        for spec in [
            FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 10.5),
            FontSpec(families: ["DejaVu Sans Mono"], weight: .bold, size: 9.7),
        ] {
            do {
                #expect(setup.drawsOnPDFWithMeasuredScaledFont(spec, pictures: false), "\(spec)")
                // The check can fail: the picture context's options are not the PDF surface's.
                #expect(!setup.drawsOnPDFWithMeasuredScaledFont(spec, pictures: true), "\(spec) (picture context)")
            }
        }
    }
}
