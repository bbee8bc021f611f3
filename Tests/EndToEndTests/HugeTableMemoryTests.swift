import Foundation
import TestSupport
import Testing

/// Long tables and lists in bounded memory: the peak resident size of a render (GNU `time`'s
/// maximum RSS, in a subprocess of its own) grows little from 100 rows or items to 10,000 or
/// 5,000. Untagged (`--no-tags`), so that the figure is the pipeline's own and not the
/// accessibility post-pass's, which holds the PDF's structure tree.
///
/// Before tables streamed, 10,000 four-column rows took 108 MiB more than 100 rows (every
/// row shaped and held before the first was placed, every cell's styles held whole). Laying
/// out, placing and releasing a row at a time leaves about 28 MiB, all of it before layout:
/// cmark-gfm's tree, the parsed cells and the font check's list of every cell.
@Suite(.serialized, .slow) struct HugeTableMemoryTests {
    @Test func tenThousandTableRowsCostLittleMoreThanAHundred() throws {
        let small = try Render.peak(Prose.table(rows: 100), name: "table-100")
        let large = try Render.peak(Prose.table(rows: 10_000), name: "table-10000")
        let figures =
            "100 rows \(small.mebibytes) MiB \(small.seconds) s, 10,000 rows \(large.mebibytes) MiB \(large.seconds) s"
        // Measured ×1.6 (33 → 53 MiB); every row shaped and held before the first is placed: ×4.3.
        #expect(large.mebibytes < 2.2 * small.mebibytes, "\(figures)")
        // A hundred times the rows: measured ×30 (most of a small render is the start);
        // quadratic work would take 10,000 times as long.
        #expect(large.seconds < 100 * small.seconds, "\(figures)")
        let text = try PDFProbe.text(large.pdf)
        #expect(text.contains("9999") && text.contains("last line"), "the last row and what follows are drawn")
    }

    @Test func fiveThousandListItemsCostLittleMoreThanAHundred() throws {
        let small = try Render.peak(Prose.list(items: 100), name: "list-100")
        let large = try Render.peak(Prose.list(items: 5_000), name: "list-5000")
        let figures = "100 items \(small.mebibytes) MiB, 5,000 items \(large.mebibytes) MiB"
        // Measured ×1.4 (32 → 44 MiB).
        #expect(large.mebibytes < 1.6 * small.mebibytes, "\(figures)")
        let text = try PDFProbe.text(large.pdf)
        #expect(text.contains("item 4999") && text.contains("last line"))
    }
}
