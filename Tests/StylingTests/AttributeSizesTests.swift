import DocumentModel
import MarkdownParser
import Testing
import Typography

@testable import Styling

/// The sizes written in attributes: the first 64 distinct ones set as written, each later one
/// at the nearest of those, with one warning (``AttributeSizes``).
@Suite struct AttributeSizesTests {
    @Test func pastTheLimitASizeIsSetAtTheNearestWrittenBefore() {
        var sizes = AttributeSizes()
        let written = (0..<AttributeSizes.limit).map { 10 + Double($0) }
        for size in written { #expect(sizes.admit(size, at: nil) == size) }
        #expect(sizes.firstMoved == nil)
        #expect(sizes.admit(10.4, at: nil) == 10, "the nearer below")
        #expect(sizes.admit(10.6, at: nil) == 11, "the nearer above")
        #expect(sizes.admit(12.5, at: nil) == 12, "halfway: the smaller")
        #expect(sizes.admit(2, at: nil) == 10, "below them all: the smallest")
        #expect(sizes.admit(500, at: nil) == written.last, "above them all: the largest")
        #expect(sizes.admit(11, at: nil) == 11, "a size written before stays")
        #expect(sizes.admit(10.4, at: nil) == 10, "a size moved before moves the same way")
        #expect(sizes.count == AttributeSizes.limit + 5)
        #expect(sizes.firstMoved?.size == 10.4 && sizes.firstMoved?.setAt == 10)
    }

    @Test func sizesPangoCannotTellApartAreOneSize() {
        var sizes = AttributeSizes()
        #expect(sizes.admit(10.3, at: nil) == 10.3, "a size is set as written")
        #expect(sizes.admit(10.3 + 1 / 4096, at: nil) == 10.3, "within half a Pango unit: the size written first")
        #expect(sizes.admit(10.3 + 1 / 1024, at: nil) == 10.3 + 1 / 1024, "a Pango unit apart: a size of its own")
        #expect(sizes.count == 2)
    }

    @Test func aDocumentOfManySizesWarnsOnceAtTheFirstMoved() {
        let spans = (0..<70).map { "[x]{size=\(8.25 + Double($0) / 2)}" }
        let markdown = "::: {size=7}\nA div.\n:::\n\n" + spans.joined(separator: " ") + "\n"
        let document = Styler.style(
            MarkdownParser.parse(markdown, file: "t.md").document, theme: .default, options: StylingOptions())
        var sizes: [Double] = []
        for block in document.blocks {
            if case .paragraph(let paragraph) = block.content {
                sizes += paragraph.runs.filter { $0.text == "x" }.map(\.style.font.size)
            }
        }
        #expect(sizes.count == 70)
        // The div's size is the first written, then 63 spans' (8.25 … 39.25 pt; none the body's
        // size, whose runs join the spaces around them); each later span is set at the nearest
        // of those, 39.25 pt.
        #expect(Array(sizes.prefix(63)) == (0..<63).map { 8.25 + Double($0) / 2 })
        #expect(sizes.suffix(7).allSatisfy { $0 == 39.25 }, "\(sizes.suffix(7))")
        let warnings = document.diagnostics.filter { $0.message.contains("distinct font sizes") }
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.message.hasPrefix("71 distinct font sizes are written in attributes; past the first 64")
                == true, "\(warnings)")
        #expect(warnings.first?.location?.line == 5)
    }
}
