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

    /// A filter primitive counts ``SVGWork/filterPrimitiveWeight`` elements each time its
    /// filter is applied: 3,000 blurs applied once, or 2 applied to 200 elements (in an
    /// attribute, a `style` or a style sheet), pass the limit; a drop shadow does not, nor
    /// 199 blurs applied once, and a filter applied to nothing costs nothing. Primitives'
    /// parts (`feMergeNode`, `feFuncR`) weigh as elements.
    @Test func filterPrimitivesWeighAsTheirPixelWork() {
        let blurs = String(repeating: "<feGaussianBlur stdDeviation=\"50\"/>", count: 3_000)
        let weight = SVGWork.filterPrimitiveWeight
        let chain = "<svg><filter id=\"f\">" + blurs + "</filter><rect filter=\"url(#f)\"/></svg>"
        #expect(count(chain) == SVGWork.maxElements + 1)
        let most = String(repeating: "<feGaussianBlur/>", count: SVGWork.maxElements / weight - 1)
        #expect(
            count("<svg><filter id=\"f\">" + most + "</filter><rect filter=\"url(#f)\"/></svg>") <= SVGWork.maxElements)
        #expect(count("<svg><filter id=\"f\">" + blurs + "</filter><rect/></svg>") == 2)
        let shadow =
            "<filter id=\"s\"><feGaussianBlur/><feOffset/><feMerge><feMergeNode/><feMergeNode/></feMerge></filter>"
        #expect(
            count("<svg>" + shadow + "<rect filter=\"url(#s)\"/></svg>") == 3 * weight + 3 + 2,
            "a filter counts where it is applied")
        let twoBlurs = "<filter id=\"f\"><feGaussianBlur/><feGaussianBlur/></filter>"
        let rects = String(repeating: "<rect filter=\"url(#f)\"/>", count: 200)
        #expect(count("<svg>" + twoBlurs + rects + "</svg>") == SVGWork.maxElements + 1)
        let styled = String(repeating: "<rect style=\"fill:red; filter: url('#f')\"/>", count: 200)
        #expect(count("<svg>" + twoBlurs + styled + "</svg>") == SVGWork.maxElements + 1)
        let sheet = "<style>rect { filter: url(#f) }</style>" + String(repeating: "<rect/>", count: 200)
        #expect(count("<svg>" + twoBlurs + sheet + "</svg>") == SVGWork.maxElements + 1)
        #expect(count("<svg>" + twoBlurs + String(repeating: "<rect/>", count: 200) + "</svg>") < 2 * weight + 300)
    }

    /// A primitive whose parameters multiply its passes over the pixels weighs that many times
    /// more: `feTurbulence` by its octaves, `feConvolveMatrix` by its kernel's cells,
    /// `feMorphology` by the cells of its window. A few hundred bytes asking for 100,000
    /// octaves, a 100 × 100 kernel or a radius of 1,000 pass the limit (each ran for minutes or
    /// stopped the process inside librsvg); the values a drawing uses do not.
    @Test func primitiveParametersMultiplyTheirWork() {
        let weight = SVGWork.filterPrimitiveWeight
        // The root, the rectangle, the filter it applies and the primitive.
        func filtered(_ primitive: String) -> Int {
            count("<svg><filter id=\"f\">" + primitive + "</filter><rect filter=\"url(#f)\"/></svg>")
        }
        for refused in [
            "<feTurbulence baseFrequency=\"0.01\" numOctaves=\"100000\"/>",
            "<feTurbulence numOctaves=\"1000\"/>", "<feTurbulence numOctaves='1e300'/>",
            "<feConvolveMatrix order=\"100\" kernelMatrix=\"1\"/>", "<feConvolveMatrix order=\"3 2000\"/>",
            "<feMorphology radius=\"1000\"/>", "<feMorphology radius=\"1 500\"/>",
        ] {
            #expect(filtered(refused) == SVGWork.maxElements + 1, "\(refused)")
        }
        #expect(filtered("<feTurbulence numOctaves=\"4\"/>") == 4 * weight + 3)
        #expect(filtered("<feConvolveMatrix order=\"3\" kernelMatrix=\"0 1 0 1 -4 1 0 1 0\"/>") == 9 * weight + 3)
        #expect(filtered("<feMorphology radius=\"2\"/>") == 25 * weight + 3)
        #expect(filtered("<feMorphology radius=\"x\"/>") == weight + 3, "a radius that does not read: one pass")
        #expect(filtered("<feGaussianBlur stdDeviation=\"1000\"/>") == weight + 3)
    }

    /// Masks, clip paths, patterns and markers draw their content again for each element that
    /// refers to them (a marker at each vertex): 1,000 shapes masking, clipping or filling 200
    /// elements, or a marker of 100 shapes on a line of 2,000 points, pass the limit.
    @Test func masksClipPathsPatternsAndMarkersDrawAgain() {
        let content = String(repeating: "<rect/>", count: 1_000)
        for (definition, property) in [("mask", "mask"), ("clipPath", "clip-path"), ("pattern", "fill")] {
            let defined = "<\(definition) id=\"d\">" + content + "</\(definition)>"
            let users = String(repeating: "<rect \(property)=\"url(#d)\"/>", count: 200)
            #expect(count("<svg>" + defined + users + "</svg>") == SVGWork.maxElements + 1, "\(definition)")
            #expect(count("<svg>" + defined + "<rect \(property)=\"url(#d)\"/></svg>") == 2 * 1_001 + 2)
        }
        let marker = "<marker id=\"m\">" + String(repeating: "<circle/>", count: 100) + "</marker>"
        let points = (0..<2_000).map { "\($0),\($0)" }.joined(separator: " ")
        #expect(
            count("<svg>" + marker + "<polyline marker-mid=\"url(#m)\" points=\"\(points)\"/></svg>") == SVGWork
                .maxElements + 1)
        #expect(
            count("<svg>" + marker + "<path marker-end=\"url(#m)\" d=\"M0 0 L10 10\"/></svg>") == 3 * 101 + 2,
            "a path of two vertices draws its marker at each")
        let patterns = "<pattern id=\"p\">" + content + "</pattern><pattern id=\"q\" href=\"#p\"/>"
        #expect(count("<svg>" + patterns + "</svg>") == 2 * 1_001 + 2, "a pattern's href draws its template's content")
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

/// Whether a file is an SVG, and its size, read past a long prolog.
@Suite struct SVGPrologTests {
    /// An SVG whose `<svg>` root comes after a long comment (a licence) or document type
    /// declaration is an SVG with its size: after 4 KiB of prolog it was refused as in no format
    /// read. A PNG holding the text `<svg` in its data is no SVG.
    @Test(arguments: [100, 8_000, 300_000])
    func theRootIsFoundPastTheProlog(prologBytes: Int) throws {
        let path = NSTemporaryDirectory() + "prolog-\(prologBytes)-\(UUID().uuidString.prefix(6)).svg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let svg =
            "<?xml version=\"1.0\"?>\n<!-- " + String(repeating: "x", count: prologBytes) + " -->\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\"><rect width=\"100\" "
            + "height=\"50\"/></svg>\n"
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        #expect(ImageProbe.isSVG(path))
        let examination = ImageProbe.examine(path)
        #expect(examination.size?.width == 100 && examination.size?.height == 50, "\(examination.problem ?? "")")
        let png = NSTemporaryDirectory() + "fake-\(prologBytes)-\(UUID().uuidString.prefix(6)).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(svg.utf8)).write(
            to: URL(fileURLWithPath: png))
        #expect(!ImageProbe.isSVG(png))
    }

    /// The files an SVG links to: what `<image>`, `<use>`, `<feImage>`, `<pattern>` and
    /// `<tref>` load, `url(…)` and `@import` naming a file; not `#id` references, `data:`
    /// URLs, nor an `<a>` link.
    @Test func linkedFilesAreWhatItLoads() {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
            <style>@import "sheet.css"; rect { fill: url(#g); stroke: url('stroke.svg#p') }</style>
            <image xlink:href="photo.png"/><use href="#r"/><use href="parts.svg#wheel"/>
            <feImage href="data:image/png;base64,AAAA"/><a href="https://example.com">x</a>
            <rect style="fill: url( texture.png )"/>
            </svg>
            """
        #expect(
            SVGWork.linkedFiles(Array(svg.utf8)) == [
                "photo.png", "parts.svg#wheel", "stroke.svg#p", "texture.png", "sheet.css",
            ])
    }

    /// Links are made groups byte for byte, whatever their prefix; nothing else changes, not
    /// `<abbr>`, `<animate>`, a comment or character data.
    @Test func linksAreMadeGroups() {
        let svg = """
            <svg><a href="x"><rect/></a><svg:a xlink:href="y"/><abbr/><animate/>\
            <!-- <a> --><![CDATA[<a>]]><a\nhref="z"></a ></svg>
            """
        let made = String(decoding: SVGWork.linksMadeGroups(Array(svg.utf8)), as: UTF8.self)
        #expect(
            made == """
                <svg><g href="x"><rect/></g><svg:g xlink:href="y"/><abbr/><animate/>\
                <!-- <a> --><![CDATA[<a>]]><g\nhref="z"></g ></svg>
                """)
    }
}
