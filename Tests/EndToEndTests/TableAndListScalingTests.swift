import Foundation
import TestSupport
import Testing

/// Time and memory linear in the input for long tables and lists: sizes n and 8n rendered by
/// the `typeset` executable in the same run, the larger taking at most 10 times the time and
/// the peak memory of the smaller (linear with slack; a stage quadratic in rows or items takes
/// 64 times). Each size's time is the best of three runs, so that a moment of load on a
/// shared machine does not decide it, and the smaller size takes a few tenths of a second, so
/// that the start-up is not most of it.
@Suite(.serialized, .slow) struct TableAndListScalingTests {
    /// A table of two columns and `rows` rows, every cell different.
    static func twoColumnTable(rows: Int) -> String {
        "| a | b |\n|---|---|\n" + (0..<rows).map { "| \($0) | x\($0) |\n" }.joined() + "\nlast line\n"
    }

    /// A table of two columns and `rows` rows, every row the same (cells remembered, not
    /// measured and shaped again).
    static func repeatedRowTable(rows: Int) -> String {
        "| a | b |\n|---|---|\n" + String(repeating: "| x | y |\n", count: rows) + "\nlast line\n"
    }

    /// `items` empty list items, each written as `item` (`-`, `1.`, `- ` and a line end).
    static func emptyItems(_ items: Int, item: String = "-\n") -> String {
        String(repeating: item, count: items) + "\nlast line\n"
    }

    /// The best wall time of three renders of `markdown`, and the largest peak memory, in MiB.
    static func measure(_ markdown: String, name: String) throws -> (seconds: Double, mebibytes: Double, pdf: String) {
        let runs = try (0..<3).map { _ in try Render.peak(markdown, name: name) }
        let seconds = runs.map(\.seconds).min() ?? .infinity
        return (seconds, runs.map(\.mebibytes).max() ?? .infinity, runs[runs.count - 1].pdf)
    }

    /// Measures `small` and `large` (eight times its size), the pair again (up to three times)
    /// until the larger takes at most ten times the time and memory of the smaller, and
    /// expects that of the last pair and that the text after the long part, "last line", is
    /// drawn. Returns the larger's PDF.
    static func expectLinear(small: String, large: String, name: String, what: String) throws -> String {
        let (small, large) = try Timing.firstHolding {
            (try measure(small, name: name + "-1"), try measure(large, name: name + "-8"))
        } holds: {
            $0.1.seconds <= 10 * $0.0.seconds && $0.1.mebibytes <= 10 * $0.0.mebibytes
        }
        #expect(large.seconds <= 10 * small.seconds, "\(what): ×1 \(small.seconds) s, ×8 \(large.seconds) s")
        #expect(
            large.mebibytes <= 10 * small.mebibytes,
            "\(what): ×1 \(small.mebibytes) MiB, ×8 \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("last line"), "\(what): what follows is drawn")
        return large.pdf
    }

    @Test func eightTimesTheTableRowsTakeAtMostTenTimesTheTimeAndMemory() throws {
        let pdf = try Self.expectLinear(
            small: Self.twoColumnTable(rows: 600), large: Self.twoColumnTable(rows: 4_800), name: "scaling-table",
            what: "2-column table")
        #expect(try PDFProbe.run("pdftotext", [pdf, "-"]).output.contains("x4799"))
    }

    @Test func eightTimesTheRepeatedTableRowsTakeAtMostTenTimesTheTimeAndMemory() throws {
        _ = try Self.expectLinear(
            small: Self.repeatedRowTable(rows: 600), large: Self.repeatedRowTable(rows: 4_800),
            name: "scaling-same-rows", what: "2-column table of equal rows")
    }

    /// A row taller than many pages (one cell of n words) is placed a page's fragment at a time:
    /// eight times the words take at most four times the peak memory (each fragment's rest was
    /// placed by recursion, every level holding the rest it split: 15,000 and 60,000 words
    /// peaked at 72 and 573 MiB).
    ///
    /// And in time linear in its lines: each split places a page's lines and leaves the rest's
    /// lines where they are, made elements only when the rest is placed whole (each split
    /// moved and listed the whole rest again: 10,000 and 80,000 words in a cell beside a short
    /// one took 0.27 and 4.3 s). Pipe and HTML tables, one cell alone and beside another.
    @Test(arguments: ["pipe", "html"])
    func aRowTallerThanManyPagesHoldsItsRestOnce(table: String) throws {
        func cell(_ words: Int) -> String {
            let text = (0..<words).map { "w\($0)" }.joined(separator: " ")
            return table == "pipe"
                ? "| a | b |\n|---|---|\n| " + text + " | short |\n\nlast line\n"
                : "<table><tr><td>\(text)</td><td>short</td></tr></table>\n\nlast line\n"
        }
        let (small, large) = try Timing.firstHolding {
            (
                (
                    try Render.processorSeconds(cell(10_000), name: "scaling-tall-row-\(table)-1"),
                    try Render.peak(cell(10_000), name: "scaling-tall-row-\(table)-1")
                ),
                (
                    try Render.processorSeconds(cell(80_000), name: "scaling-tall-row-\(table)-8"),
                    try Render.peak(cell(80_000), name: "scaling-tall-row-\(table)-8")
                )
            )
        } holds: {
            $0.1.0 <= 11 * $0.0.0
        }
        #expect(large.1.mebibytes <= 4 * small.1.mebibytes, "\(small.1.mebibytes) MiB, then \(large.1.mebibytes) MiB")
        #expect(large.0 <= 11 * small.0, "\(small.0) s, then \(large.0) s")
        let text = try PDFProbe.run("pdftotext", [large.1.pdf, "-"]).output
        #expect(text.contains("w79999") && text.contains("short") && text.contains("last line"))
    }

    /// An HTML table of `columns` columns, a header row and one body row, every cell different.
    static func wideTable(columns: Int) -> String {
        "<table>\n<tr>" + (0..<columns).map { "<th>h\($0)</th>" }.joined() + "</tr>\n<tr>"
            + (0..<columns).map { "<td>x\($0)</td>" }.joined() + "</tr>\n</table>\n\nlast line\n"
    }

    /// A table too wide for the measure is split into parts of a few columns each: each part
    /// reads and shapes only its own cells of every row, so eight times the columns take at most
    /// ten times the processor time and memory (a part reading every row whole is quadratic:
    /// 22 times). An HTML table, as cmark-gfm 0.29 appends each cell of a Markdown row by
    /// walking the row's list of cells, quadratic in the row's cells before layout begins.
    @Test func eightTimesTheColumnsTakeAtMostTenTimesTheTimeAndMemory() throws {
        func measure(_ columns: Int) throws -> (seconds: Double, mebibytes: Double, pdf: String) {
            let name = "scaling-columns-\(columns)"
            let seconds = try Render.processorSeconds(Self.wideTable(columns: columns), name: name)
            let peak = try Render.peak(Self.wideTable(columns: columns), name: name)
            return (seconds, peak.mebibytes, peak.pdf)
        }
        let (small, large) = try Timing.firstHolding {
            (try measure(2_000), try measure(16_000))
        } holds: {
            $0.1.seconds <= 10 * $0.0.seconds && $0.1.mebibytes <= 10 * $0.0.mebibytes
        }
        #expect(large.seconds <= 10 * small.seconds, "×1 \(small.seconds) s, ×8 \(large.seconds) s")
        #expect(large.mebibytes <= 10 * small.mebibytes, "×1 \(small.mebibytes) MiB, ×8 \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("h15999") && text.contains("x15999") && text.contains("last line"))
    }

    @Test(arguments: ["-\n", "1.\n"])
    func eightTimesTheEmptyListItemsTakeAtMostTenTimesTheTimeAndMemory(item: String) throws {
        let kind = item == "-\n" ? "bullet" : "number"
        _ = try Self.expectLinear(
            small: Self.emptyItems(2_000, item: item), large: Self.emptyItems(16_000, item: item),
            name: "scaling-\(kind)-list", what: "empty list items (\(kind)s)")
    }
}
