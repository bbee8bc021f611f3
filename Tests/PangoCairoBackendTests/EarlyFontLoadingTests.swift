import Foundation
import Styling
import Testing
import Typography

@testable import PangoCairoBackend

/// ``FontLibrary/startLoading()`` sets up a font map of the installed fonts on a thread of its
/// own; what font queries answer afterwards is what they answer on a font map set up on demand.
@Suite struct EarlyFontLoadingTests {
    @Test func theFlagIsSetOnce() {
        let flag = OnceFlag()
        #expect(flag.swap(true) == false)
        #expect(flag.swap(true) == true)
        #expect(flag.swap(true) == true)
    }

    @Test func startingEarlySetsUpAFontMap() throws {
        FontLibrary.startLoading()
        FontLibrary.startLoading()
        // Wait (at most 10 s) until the thread has set up its font map and given it back.
        var ready = false
        for _ in 0..<1000 where !ready {
            ready = FontLibrary.loadingFinished.value
            if !ready { usleep(10_000) }
        }
        #expect(ready)
    }

    @Test func queriesAnswerAsOnAFontMapSetUpOnDemand() {
        FontLibrary.startLoading()
        let fresh = PangoSetup()
        let session = FontSession()
        for (spec, family) in [
            (FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 10.5), "Inter"),
            (FontSpec(families: ["Inter", "Noto Sans CJK KR"], weight: .bold, size: 20), "Inter"),
            (FontSpec(families: ["DejaVu Sans Mono", "Noto Sans Mono CJK KR"], size: 9.7), "DejaVu Sans Mono"),
        ] {
            let resolved = FontLibrary.resolve(spec, in: session)
            #expect(resolved.familyFound)
            #expect(resolved.family == family)
            #expect(resolved.weight == spec.weight)
            // Ascent, descent, x-height and cap height, pt: the same from the early map as from a
            // map set up on demand.
            let metrics = (session.setup.metrics(spec), fresh.metrics(spec))
            #expect(metrics.0 == metrics.1)
            #expect(metrics.0.ascent > spec.size * 0.5)
        }
    }
}
