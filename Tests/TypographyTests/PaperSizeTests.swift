import Testing

@testable import Typography

/// Paper names (ISO 216, ISO 269, JIS P 0138, US), orientation, and custom sizes with units.
struct PaperSizeTests {
    func mm(_ points: Double) -> Double { (points * 25.4 / 72 * 10).rounded() / 10 }

    @Test(arguments: [
        ("a0", 841.0, 1189.0), ("A3", 297, 420), ("a4", 210, 297), ("a10", 26, 37), ("b0", 1000, 1414),
        ("B5", 176, 250), ("b10", 31, 44), ("c5", 162, 229), ("JIS-B5", 182, 257), ("b5-jis", 182, 257),
        ("jis-b4", 257, 364), ("letter", 215.9, 279.4), ("tabloid", 279.4, 431.8), ("ledger", 431.8, 279.4),
    ])
    func namedSizesInMillimetres(name: String, width: Double, height: Double) throws {
        let size = try PaperSize(parsing: name)
        #expect(
            mm(size.width) == width && mm(size.height) == height, "\(name): \(mm(size.width)) × \(mm(size.height)) mm")
    }

    func close(_ a: PaperSize, _ b: PaperSize) -> Bool {
        abs(a.width - b.width) < 0.001 && abs(a.height - b.height) < 0.001
    }

    @Test func namedSizesMatchTheConstants() throws {
        for (name, size) in [
            ("A4", PaperSize.a4), ("a5", .a5), ("letter", .letter), ("US-Letter", .letter), ("legal", .legal),
        ] {
            #expect(try PaperSize(parsing: name) == size, "\(name)")
        }
    }

    @Test func landscapeAndPortraitTurnThePage() throws {
        for text in ["a4 landscape", "landscape a4", "A4-landscape", "a4_landscape"] {
            let size = try PaperSize(parsing: text)
            #expect(close(size, PaperSize(width: PaperSize.a4.height, height: PaperSize.a4.width)), "\(text)")
        }
        let ledger = try PaperSize(parsing: "ledger portrait")
        #expect(ledger.width < ledger.height)
        let custom = try PaperSize(parsing: "6in x 9in landscape")
        #expect(custom.width == 648 && custom.height == 432)
    }

    @Test func customSizesNeedUnits() throws {
        #expect(close(try PaperSize(parsing: "210mm x 297mm"), .a4))
        for text in ["210 x 297", "210 x 297mm", "8.5 x 11in"] {
            do {
                _ = try PaperSize(parsing: text)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.description.contains("unit"), "\(error)")
            }
        }
        for text in ["a11", "b5x", "0mm x 10mm", "huge"] { #expect(PaperSize(name: text) == nil, "\(text)") }
    }

    @Test func marginsReadLikeCSS() {
        #expect(Margins(css: "36pt") == Margins(all: 36))
        #expect(Margins(css: "1in 36pt") == Margins(top: 72, right: 36, bottom: 72, left: 36))
        #expect(Margins(css: "10pt 20pt 30pt") == Margins(top: 10, right: 20, bottom: 30, left: 20))
        #expect(Margins(css: "1pt 2pt 3pt 4pt") == Margins(top: 1, right: 2, bottom: 3, left: 4))
        #expect(Margins(css: "wide") == nil)
        #expect(Margins(css: "20") == nil)  // a length needs a unit, as in Typst
        #expect(Margins(css: "20mm 5") == nil)
        // CSS: a bare 0 needs no unit.
        #expect(Margins(css: "0 20mm") == Margins(top: 0, right: 20 * 72 / 25.4, bottom: 0, left: 20 * 72 / 25.4))
        #expect(Margins(css: "1pt 2pt 3pt 4pt 5pt") == nil)
    }
}
