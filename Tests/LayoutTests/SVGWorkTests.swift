import Foundation
import TestSupport
import Testing

@testable import Layout

/// The count of elements an SVG draws with its `<use>` references expanded, read before
/// librsvg parses it.
@Suite struct SVGWorkTests {
    func count(_ svg: String, limit: Int = SVGWork.maxElements) -> Int {
        SVGWork.expandedElementCount(Array(svg.utf8), limit: limit)
    }

    /// Plain elements count once; a `<use>` adds what it references (by `href` or
    /// `xlink:href`), nested references multiply; comments, CDATA and unknown references add
    /// nothing; a reference cycle ends.
    @Test func referencesAreExpanded() {
        #expect(count("<svg><rect/><circle/></svg>") == 3)
        #expect(count("<svg><g id=\"a\"><rect/><rect/></g><use href=\"#a\"/><use xlink:href=\"#a\"/></svg>") == 12)
        #expect(count("<svg><!-- <rect/> --><![CDATA[ <rect/> ]]><use href=\"#none\"/></svg>") == 2)
        #expect(count("<svg><g id=\"a\"><use href=\"#a\"/></g></svg>") == 3)
        var levels = ["<g id=\"l0\"><rect/></g>"]
        for level in 1...9 {
            levels.append(
                "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>")
        }
        let bomb = "<svg><defs>" + levels.joined() + "</defs><use href=\"#l9\"/></svg>"
        #expect(count(bomb) == SVGWork.maxElements + 1, "a billion elements stop the count at the limit")
        #expect(count(bomb, limit: 10) == 11)
        let nested =
            "<svg>" + String(repeating: "<g>", count: 200_000) + String(repeating: "</g>", count: 200_000) + "</svg>"
        #expect(count(nested, limit: Int.max - 1) == 200_001, "deep nesting is counted without recursion")
    }

    /// The count is linear in the document: n and 8n chained references (each `<use>`
    /// referencing the group before it) take at most 10× the time. The two sizes are timed in
    /// turn, five times, and the best of each kept, so that other tests running at the same time
    /// slow neither more than the other; the pair is measured again, up to three times, until
    /// the bound holds (``Timing/firstHolding(attempts:_:holds:)``), as a superlinear count
    /// fails every time.
    @Test(.slow) func countingIsLinear() {
        func chain(_ links: Int) -> [UInt8] {
            var text = "<svg><g id=\"g0\"><rect/></g>"
            for link in 1...links { text += "<g id=\"g\(link)\"><use href=\"#g\(link - 1)\"/></g>" }
            return Array((text + "</svg>").utf8)
        }
        let sizes = [4_000, 32_000]
        let documents = sizes.map(chain)
        func measured() -> [Double] {
            var times = [Double.infinity, Double.infinity]
            for _ in 0..<5 {
                for (index, document) in documents.enumerated() {
                    var total = 0
                    let seconds = Timing.bestThreadSeconds(of: 1) {
                        total = SVGWork.expandedElementCount(document, limit: Int.max - 1)
                    }
                    times[index] = min(times[index], seconds)
                    #expect(total > sizes[index])
                }
            }
            return times
        }
        let times = Timing.firstHolding(measured) { $0[1] < $0[0] * 10 + 0.05 }
        #expect(times[1] < times[0] * 10 + 0.05, "\(times)")
    }
}
