import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// Raw HTML tables whose cells span rows and columns: spans clamped as the HTML table model
/// clamps them, and a grid no larger than its written cells can fill, so that a table takes
/// time and memory linear in its source (1,000 rows of `colspan=65535 rowspan=65535`, 46 KB,
/// took over 20 s and 1.3 GB).
@Suite struct HTMLTableSpanTests {
    /// The first table of `html`, with the parse's warnings.
    func table(_ html: String) -> (table: Table?, warnings: [String]) {
        let result = parse(html + "\n")
        for block in result.document.blocks {
            if case .table(let table) = block.kind { return (table, result.diagnostics.map(\.message)) }
        }
        return (nil, result.diagnostics.map(\.message))
    }

    /// The text of each cell of each row (header first, when there is one).
    func texts(_ table: Table?) -> [[String]] {
        guard let table else { return [] }
        let header = table.header.allSatisfy(\.isEmpty) ? [] : [table.header]
        return (header + table.rows).map { $0.map(\.plainText) }
    }

    /// A table of `count` rows of one cell with `attributes`, the cell of row k holding `xk`.
    func spanning(_ count: Int, _ attributes: String) -> String {
        "<table>\n" + (0..<count).map { "<tr><td \(attributes)>x\($0)</td></tr>" }.joined() + "\n</table>"
    }

    /// A rowspan never reaches past the last row of its row group, and `rowspan=0` spans to
    /// the group's end (HTML Living Standard §4.9.12, "forming a table").
    @Test func rowSpansEndWithTheirRowGroup() {
        let grouped = table(
            "<table><tbody><tr><td rowspan=5>a</td><td>b</td></tr><tr><td>c</td></tr></tbody>"
                + "<tbody><tr><td>d</td><td>e</td></tr></tbody></table>")
        #expect(texts(grouped.table) == [["a", "b"], ["", "c"], ["d", "e"]])
        let toTheEnd = table(
            "<table><tr><td rowspan=0>a</td><td>b</td></tr><tr><td>c</td></tr><tr><td>d</td></tr></table>")
        #expect(texts(toTheEnd.table) == [["a", "b"], ["", "c"], ["", "d"]])
        // Rows written straight in the table are one group, ended by a group element.
        let direct = table(
            "<table><tr><td rowspan=0>a</td><td>b</td></tr><tr><td>c</td></tr>"
                + "<tfoot><tr><td>f</td><td>g</td></tr></tfoot></table>")
        #expect(texts(direct.table) == [["a", "b"], ["", "c"], ["f", "g"]])
        // Values as HTML parses them: leading spaces and digits read, `+` allowed.
        let parsed = table("<table><tr><td colspan=' +2px'>a</td></tr><tr><td>b</td><td>c</td></tr></table>")
        #expect(texts(parsed.table) == [["a", ""], ["b", "c"]])
    }

    /// Spans that would make a grid of more slots than the cells written can fill (rows of
    /// `colspan=1000`, rows each pushed right by the spans of the rows above) are not kept:
    /// every cell is set in the next column, all its text kept, with one warning, and a
    /// value past HTML's caps warns too.
    @Test(arguments: ["rowspan=65535 colspan=65535", "colspan=1000", "rowspan=65534", "rowspan=0 colspan=20"])
    func aGridIsBoundedByItsWrittenCells(attributes: String) {
        let count = 100
        let (table, warnings) = table(spanning(count, attributes))
        guard let table else {
            Issue.record("no table")
            return
        }
        let slots = (table.rows.count + 1) * table.alignments.count
        let budget = max(RawHTML.spanSlotFloor, RawHTML.slotsPerWrittenCell * count)
        #expect(slots <= budget, "\(attributes): \(table.rows.count) rows × \(table.alignments.count) columns")
        let text = texts(table).joined().joined(separator: " ")
        #expect((0..<count).allSatisfy { text.contains("x\($0) ") || text.hasSuffix("x\($0)") })
        #expect(warnings.contains { $0.contains("spans are not kept") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("65,534") } == attributes.contains("65535"), "\(warnings)")
    }

    /// A table of small spans keeps them, with no warning but the one that spans are not drawn.
    @Test func smallSpansAreKept() {
        let (kept, warnings) = table(spanning(3, "rowspan=2 colspan=2"))
        #expect(texts(kept) == [["x0", "", "", ""], ["", "", "x1", ""], ["x2", "", "", ""]])
        #expect(warnings.count == 1 && warnings[0].contains("spans columns or rows"), "\(warnings)")
    }

    /// Four times the rows of spanning cells take about four times as long, not sixteen (the
    /// grid grew with the rows times the columns the spans pushed the cells to).
    @Test(arguments: [("rowspan=65535 colspan=65535", 40), ("rowspan=65535", 250)])
    func spanningRowsParseInLinearTime(attributes: String, rows: Int) {
        func seconds(_ count: Int) -> Double {
            let html = spanning(count, attributes) + "\n"
            return Timing.bestSeconds { _ = MarkdownParser.parse(html, file: "t.md") }
        }
        let figures = Timing.firstHolding {
            [seconds(rows), seconds(4 * rows)]
        } holds: {
            $0[1] < 8 * $0[0]
        }
        #expect(figures[1] < 8 * figures[0], "\(attributes): \(figures) s for \(rows) and \(4 * rows) rows")
    }
}
