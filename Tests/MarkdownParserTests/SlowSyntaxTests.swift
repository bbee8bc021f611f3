import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// Markdown that cmark-gfm 0.29 reads in time (or memory) quadratic in its size is rewritten
/// before the parse into Markdown it reads as the same document in linear time: tables wider
/// than a table may be, image openers no `]` closes, paragraphs of bare e-mail addresses.
@Suite struct SlowSyntaxTests {
    /// The links of `inlines`, each its text and destination, in order.
    func links(_ inlines: [Inline]) -> [String] {
        inlines.flatMap { inline -> [String] in
            switch inline {
            case .link(let destination, _, let children): [children.plainText + " → " + destination]
            case .emphasis(let inner), .strong(let inner), .strikethrough(let inner), .span(_, let inner):
                links(inner)
            default: []
            }
        }
    }

    /// The inlines of the document's first paragraph.
    func paragraph(_ result: ParseResult) -> [Inline] {
        for block in result.document.blocks {
            if case .paragraph(let inlines) = block.kind { return inlines }
        }
        return []
    }

    /// Each kind, 2,000 and 16,000 times: eight times the input takes well under sixteen times
    /// as long (each was quadratic in cmark-gfm: rendered, `![a [b](c) ` 20,000 times took
    /// 6.4 s, a table row of 40,000 cells 9.5 s; 20,000 e-mail addresses in a paragraph held
    /// 446 MiB).
    @Test(.slow, arguments: ["unclosed images", "brackets", "addresses", "wide row", "wide table"])
    func slowSyntaxParsesInLinearTime(kind: String) {
        func source(_ count: Int) -> String {
            switch kind {
            case "unclosed images": String(repeating: "![a [b](c) ", count: count)
            case "brackets": String(repeating: "![[]()", count: count)
            case "addresses": (0..<count).map { "u\($0)@b.example.com" }.joined(separator: " ")
            case "wide row": "| a |\n|---|\n|" + String(repeating: "b|", count: count)
            default: "|" + String(repeating: "c|", count: count) + "\n|" + String(repeating: "-|", count: count)
            }
        }
        func seconds(_ count: Int) -> Double {
            let text = source(count) + "\n"
            return Timing.bestSeconds { _ = MarkdownParser.parse(text, file: "t.md") }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(kind): \(figures) s for 2,000 and 16,000")
    }

    /// A table wider than the limit is set as text, every cell's text kept, with a warning at
    /// its header row; one at the limit is a table. Inside a block quote and a list item too.
    @Test(arguments: ["", "> ", "- "])
    func aTableWiderThanTheLimitIsText(container: String) {
        let limit = MathSyntax.maximumTableColumns
        for (columns, isTable) in [(limit, true), (limit + 1, false), (3 * limit, false)] {
            let header = "| " + (1...columns).map { "h\($0)" }.joined(separator: " | ") + " |"
            let delimiter = "|" + Array(repeating: "---", count: columns).joined(separator: "|") + "|"
            let row = "| " + (1...columns).map { "c\($0)" }.joined(separator: " | ") + " |"
            let indent = container == "- " ? "  " : container
            let source = "Before.\n\n" + container + header + "\n" + indent + delimiter + "\n" + indent + row + "\n"
            let result = MarkdownParser.parse(source, file: "t.md")
            let wide = result.diagnostics.filter { $0.message.contains("wider than the \(limit)") }
            var tables = 0
            var text = ""
            func visit(_ blocks: [Block]) {
                for block in blocks {
                    switch block.kind {
                    case .table: tables += 1
                    case .paragraph(let inlines): text += inlines.plainText + " "
                    case .blockQuote(let inner), .div(let inner): visit(inner)
                    case .list(let list): for item in list.items { visit(item.blocks) }
                    default: break
                    }
                }
            }
            visit(Array(result.document.blocks))
            #expect(tables == (isTable ? 1 : 0), "\(columns) columns in '\(container)'")
            if isTable {
                #expect(wide.isEmpty)
            } else {
                #expect(wide.count == 1, "\(result.diagnostics.map(\.message))")
                #expect(wide.first?.message.hasPrefix("table of \(columns) columns") == true)
                #expect(wide.first?.location == SourceLocation(file: "t.md", line: 3, column: 1 + container.count))
                for cell in ["h1", "h\(columns)", "c1", "c\(columns)"] {
                    let kept = text.contains(" \(cell) ")
                    #expect(kept, "\(cell) kept in '\(container)'")
                }
                let escapeShows = text.contains("\\|")
                #expect(!escapeShows)
            }
        }
    }

    /// A table whose rows leave most of its grid empty (a header of 1,000 cells over rows of
    /// one: 8 KB that made a million cells, 22 s and 855 pages) is set as text with a warning at
    /// its header, every cell's text kept; a table whose rows write their cells stays a table,
    /// however many, and so does a small sparse one.
    @Test(arguments: [
        (1000, 1000, 1, false), (200, 300, 2, false), (40, 400, 40, true), (60, 60, 1, true), (16, 2000, 1, true),
    ])
    func aTableOfMostlyEmptyPlacesIsSetAsText(columns: Int, rows: Int, cellsPerRow: Int, isTable: Bool) {
        let header = "|" + (1...columns).map { "h\($0)" }.joined(separator: "|") + "|"
        let delimiter = "|" + Array(repeating: "-", count: columns).joined(separator: "|") + "|"
        let body = (1...rows).map { row in "|" + (1...cellsPerRow).map { "r\(row)c\($0)" }.joined(separator: "|") + "|"
        }
        let source = "Before.\n\n" + ([header, delimiter] + body).joined(separator: "\n") + "\n\nAfter.\n"
        let result = MarkdownParser.parse(source, file: "t.md")
        let tables = result.document.blocks.filter { if case .table = $0.kind { true } else { false } }
        let warnings = result.diagnostics.filter { $0.message.contains("for each cell written; set as text") }
        #expect(tables.count == (isTable ? 1 : 0), "\(columns) × \(rows)")
        #expect(warnings.count == (isTable ? 0 : 1), "\(result.diagnostics.map(\.message))")
        if !isTable {
            #expect(warnings.first?.location == SourceLocation(file: "t.md", line: 3, column: 1))
            let text = result.document.blocks.compactMap { block -> String? in
                if case .paragraph(let inlines) = block.kind { inlines.plainText } else { nil }
            }.joined(separator: " ")
            for cell in ["h1", "h\(columns)", "r1c1", "r\(rows)c\(cellsPerRow)", "After."] {
                #expect(text.contains(cell), "\(cell)")
            }
        }
    }

    /// The same in HTML: a row of 400 cells over 400 rows of one (3.3 s and 138 pages) sets
    /// each row as a paragraph, with a warning; a full table stays a table.
    @Test func anHTMLTableOfMostlyEmptyPlacesIsSetAsText() {
        let wide = "<tr>" + String(repeating: "<td>x</td>", count: 400) + "</tr>"
        let short = String(repeating: "<tr><td>y</td></tr>", count: 400)
        let result = MarkdownParser.parse("<table>\(wide)\(short)</table>\n\nAfter.\n", file: "t.md")
        #expect(!result.document.blocks.contains { if case .table = $0.kind { true } else { false } })
        let paragraphs = result.document.blocks.compactMap { block -> String? in
            if case .paragraph(let inlines) = block.kind { inlines.plainText } else { nil }
        }
        #expect(paragraphs.count == 402, "\(paragraphs.count)")
        #expect(paragraphs.first == Array(repeating: "x", count: 400).joined(separator: " "))
        #expect(paragraphs.filter { $0 == "y" }.count == 400)
        #expect(result.diagnostics.contains { $0.message.contains("each row is set as a paragraph") })
        let full = "<table>" + String(repeating: "<tr><td>a</td><td>b</td></tr>", count: 3000) + "</table>\n"
        #expect(
            MarkdownParser.parse(full, file: "t.md").document.blocks.contains {
                if case .table = $0.kind { true } else { false }
            })
    }

    /// A row of a narrow table with more cells than a table may have keeps its row, and the
    /// warning for its cells past the table's names their true number and text.
    @Test func aRowOfThousandsOfCellsKeepsItsTableAndWarnsOfItsCells() {
        let cells = 3 * MathSyntax.maximumTableColumns
        let row = "| x | y | " + (3...cells).map { "c\($0)" }.joined(separator: " | ") + " |"
        let result = MarkdownParser.parse("| a | b |\n|---|---|\n" + row + "\n| d | e |\n", file: "t.md")
        guard case .table(let table)? = result.document.blocks.first?.kind else {
            Issue.record("no table: \(result.document.blocks)")
            return
        }
        #expect(table.rows.map { $0.map(\.plainText) } == [["x", "y"], ["d", "e"]])
        let warning = result.diagnostics.first { $0.message.hasPrefix("table row has") }
        #expect(
            warning?.message.hasPrefix("table row has \(cells) cells but the table has 2 columns: 'c3 | c4") == true)
        let quoted = warning?.message.components(separatedBy: "'").dropFirst().first ?? ""
        #expect(!quoted.contains("\\|"), "\(quoted.prefix(80))")
        #expect(warning?.location == SourceLocation(file: "t.md", line: 3, column: 11))
    }

    /// Image openers no `]` closes, many in a paragraph, are text as before, and every link
    /// and image around them is kept: a closed image, a link, an image in a link, brackets in
    /// code.
    @Test func unclosedImageOpenersStayTextAndLinksStayLinks() {
        let many = String(repeating: "![open [link](l) ", count: 40)
        let kept = "![alt](i.png) [![inner](j.png)](k) `![code` [after](m) ![last"
        for math in [true, false] {
            let result = MarkdownParser.parse(many + kept + "\n", file: "t.md", math: math)
            let inlines = paragraph(result)
            #expect(inlines.plainText.components(separatedBy: "![open").count - 1 == 40)
            #expect(inlines.plainText.hasSuffix("![code after ![last"), "\(inlines.plainText.suffix(40))")
            #expect(links(inlines).filter { $0 == "link → l" }.count == 40)
            #expect(links(inlines).suffix(2) == ["inner → k", "after → m"])
            let images = inlines.filter { if case .image = $0 { true } else { false } }
            #expect(images.count == 1)
        }
    }

    /// Bare e-mail addresses, many in a paragraph, are the links GitHub makes of them, and
    /// the edge cases are read as they are with few: after `/` or `<`, `_` in the domain, a
    /// final `.` or `-`, an address in a link's text or in code.
    @Test func manyBareAddressesAreTheLinksFewAre() {
        let edges = [
            "name.last+tag@example.co.uk.", "/p@q.com", "<e@f.com>", "a@b_c.com", "x@y.z-", "tail@dom.com-x",
            "u@v", "`c@d.com`", "[l@m.com](https://k)", "x@-bad.com",
        ]
        for edge in edges {
            let few = paragraph(MarkdownParser.parse("Write to \(edge) today.\n", file: "t.md"))
            let manyText = (0..<80).map { "user\($0)@example.com" }.joined(separator: " ")
            let many = paragraph(MarkdownParser.parse(manyText + " Write to \(edge) today.\n", file: "t.md"))
            #expect(links(many).count == 80 + links(few).count, "\(edge)")
            #expect(Array(links(many).suffix(links(few).count)) == links(few), "\(edge)")
            #expect(many.plainText.hasSuffix(few.plainText), "\(edge): \(many.plainText.suffix(40))")
        }
        // cmark-gfm's extension stops linking 1,000 deep: every address of 1,500 is a link.
        let text = (0..<1_500).map { "user\($0)@example.com" }.joined(separator: " ")
        #expect(links(paragraph(MarkdownParser.parse(text + "\n", file: "t.md"))).count == 1_500)
    }
}
