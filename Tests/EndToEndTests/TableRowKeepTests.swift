import Foundation
import TestSupport
import Testing

/// A table split over pages keeps at least two rows on each side, as a paragraph keeps two lines
/// (the document's orphans and widows): no header with one row at a page's foot, no row alone
/// under the repeated header at the next page's top. Read back page by page from the rows'
/// keys, over tables that start lower and lower on their page, so the page ends after every
/// row in turn.
@Suite struct TableRowKeepTests {
    static let words = (0..<60).map { ["line", "measure", "rule", "column", "type", "page"][$0 % 6] + "\($0)" }

    static func text(_ count: Int) -> String { words.prefix(count).joined(separator: " ") }

    @Test func aSplitTableKeepsTwoRowsOnEachPage() throws {
        // Each table opens a page after a stack of one-line lines, one more a variant: the
        // table starts a line lower each time, so every way its rows can meet the page's foot
        // is met.
        var markdown = ""
        for variant in 0..<24 {
            let lines = (0..<(26 + variant)).map { "V\(variant) line \($0)" }.joined(separator: "\\\n")
            markdown += "\\newpage\n\n\(lines)\n\n| Key | Text |\n|---|---|\n"
            markdown +=
                (0..<12).map { "| V\(variant)R\($0) | \(Self.text(30)) |" }.joined(separator: "\n") + "\n\nAfter.\n\n"
        }
        let (pdf, _) = try Render.markdown(markdown, name: "table-row-keep")
        var rowsOnPage: [String: [Int: Int]] = [:]
        for word in try PDFProbe.words(pdf) {
            guard let match = word.text.wholeMatch(of: /V(\d+)R\d+/) else { continue }
            rowsOnPage[String(match.output.1), default: [:]][word.page, default: 0] += 1
        }
        let split = rowsOnPage.filter { $0.value.count > 1 }
        #expect(split.count >= 8, "\(rowsOnPage)")
        for (variant, pages) in split {
            #expect(pages.values.allSatisfy { $0 >= 2 }, "table V\(variant): rows by page \(pages)")
            #expect(pages.values.reduce(0, +) == 12)
        }
    }
}
