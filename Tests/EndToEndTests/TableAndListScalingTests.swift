import Foundation
import Testing

/// Time and memory linear in the input for long tables and lists: sizes n and 8n rendered by
/// the `typeset` executable in the same run, the larger taking at most 10 times the time and
/// the peak memory of the smaller (linear with slack; a stage quadratic in rows or items takes
/// 64 times). Each size's time is the better of two runs, so that a moment of load on a
/// shared machine does not decide it.
@Suite(.serialized) struct TableAndListScalingTests {
    /// A table of two columns and `rows` rows, every cell different.
    static func twoColumnTable(rows: Int) -> String {
        "| a | b |\n|---|---|\n" + (0..<rows).map { "| \($0) | x\($0) |\n" }.joined() + "\nlast line\n"
    }

    /// `items` empty list items.
    static func emptyItems(_ items: Int) -> String {
        String(repeating: "-\n", count: items) + "\nlast line\n"
    }

    /// The better wall time of two renders of `markdown`, and the larger peak memory, in MiB.
    static func measure(_ markdown: String, name: String) throws -> (seconds: Double, mebibytes: Double, pdf: String) {
        let first = try HugeTableMemoryTests.peak(markdown, name: name)
        let second = try HugeTableMemoryTests.peak(markdown, name: name)
        return (min(first.seconds, second.seconds), max(first.mebibytes, second.mebibytes), second.pdf)
    }

    static func expectLinear(small: (seconds: Double, mebibytes: Double, pdf: String),
                             large: (seconds: Double, mebibytes: Double, pdf: String), what: String) throws {
        #expect(large.seconds <= 10 * small.seconds, "\(what): ×1 \(small.seconds) s, ×8 \(large.seconds) s")
        #expect(large.mebibytes <= 10 * small.mebibytes,
                "\(what): ×1 \(small.mebibytes) MiB, ×8 \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("last line"), "\(what): what follows is drawn")
    }

    @Test func eightTimesTheTableRowsTakeAtMostTenTimesTheTimeAndMemory() throws {
        let small = try Self.measure(Self.twoColumnTable(rows: 600), name: "scaling-table-600")
        let large = try Self.measure(Self.twoColumnTable(rows: 4_800), name: "scaling-table-4800")
        try Self.expectLinear(small: small, large: large, what: "2-column table")
        #expect(try PDFProbe.run("pdftotext", [large.pdf, "-"]).output.contains("x4799"))
    }

    @Test func eightTimesTheEmptyListItemsTakeAtMostTenTimesTheTimeAndMemory() throws {
        let small = try Self.measure(Self.emptyItems(1_200), name: "scaling-list-1200")
        let large = try Self.measure(Self.emptyItems(9_600), name: "scaling-list-9600")
        try Self.expectLinear(small: small, large: large, what: "empty list items")
    }
}
