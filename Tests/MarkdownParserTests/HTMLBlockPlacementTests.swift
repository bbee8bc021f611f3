import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// Every element of an HTML block keeps its text in a block of its own, where a browser places
/// it: what follows a void element or a closing tag is never inside that element, and block
/// elements (headings, paragraphs, quotes, lists, tables, details, pre, center) are blocks.
@Suite struct HTMLBlockPlacementTests {
    /// The blocks' text, in order, one string per leaf block (list items and quotes opened).
    static func leafTexts(_ blocks: [Block]) -> [String] {
        blocks.flatMap { block -> [String] in
            switch block.kind {
            case .paragraph(let inlines), .heading(_, let inlines): [inlines.plainText]
            case .div(let inner), .blockQuote(let inner), .alert(_, let inner): leafTexts(inner)
            case .list(let list): list.items.flatMap { leafTexts($0.blocks) }
            case .definitionList(let items):
                items.flatMap { [$0.term.plainText] + leafTexts(Array($0.definitions.joined())) }
            case .codeBlock(_, let text): [text]
            case .table(let table):
                (table.caption.isEmpty ? [] : [table.caption.plainText])
                    + ((table.header.allSatisfy(\.isEmpty) ? [] : table.header) + table.rows.flatMap { $0 })
                    .map(\.plainText)
            case .thematicBreak: ["---"]
            default: []
            }
        }
    }

    /// A short name for each block's kind, for comparing structures.
    static func kinds(_ blocks: [Block]) -> [String] {
        blocks.map { block in
            switch block.kind {
            case .paragraph: "p"
            case .heading(let level, _): "h\(level)"
            case .div: "div"
            case .blockQuote: "blockquote"
            case .list(let list): list.ordered ? "ol" : "ul"
            case .codeBlock: "pre"
            case .table: "table"
            case .thematicBreak: "hr"
            default: "other"
            }
        }
    }

    static func alignment(_ block: Block?) -> String? {
        block?.attributes.pairs.first { $0.key == "align" }?.value
    }

    /// HTML's void elements (HTML Living Standard §13.1.2), alone and with attributes, then a
    /// paragraph in the same HTML block: the paragraph is a block of its own after them, and
    /// text after them stays (in the same paragraph, after an inline one such as `<img>`).
    @Test(arguments: [
        "hr", "br", "img src=\"a.png\" alt=\"A\"", "wbr", "input type=\"text\"",
        "source srcset=\"a.webp\"", "area", "base href=\"/\"", "col", "embed src=\"a.swf\"",
        "link rel=\"x\"", "meta charset=\"utf-8\"",
        "track", "param name=\"p\"", "hr/", "br /",
    ])
    func whatFollowsAVoidElementIsItsOwnBlock(tag: String) {
        for source in [
            "<\(tag)>\n<p>second words</p>\n", "<p>first</p><\(tag)><p>second words</p>\n",
            "<div><\(tag)><p>second words</p></div>\n",
        ] {
            let blocks = Array(parse(source).document.blocks)
            #expect(Self.leafTexts(blocks).last == "second words", "\(source.debugDescription): \(blocks)")
            #expect(blocks.last.map { Self.kinds([$0]) } == ["p"], "\(source.debugDescription): \(blocks)")
            #expect(Self.leafTexts(blocks).dropLast().allSatisfy { !$0.contains("second") }, "\(blocks)")
        }
        for source in ["<\(tag)>\nsecond words\n", "<p>first <\(tag)> second words</p>\n"] {
            let texts = Self.leafTexts(Array(parse(source).document.blocks))
            #expect(texts.last?.hasSuffix("second words") == true, "\(source.debugDescription): \(texts)")
        }
    }

    /// A closing tag ends its element: text and elements after it are blocks of their own, in
    /// the order written, never part of what was closed.
    @Test(
        arguments: [
            ("<h1>Head</h1>", ["h1"], ["Head"]), ("<h3>Three</h3>", ["h3"], ["Three"]),
            ("<h6>Six</h6>", ["h6"], ["Six"]),
            ("<p>Para</p>", ["p"], ["Para"]), ("<div>Div</div>", ["p"], ["Div"]),
            ("<blockquote>Quote</blockquote>", ["blockquote"], ["Quote"]),
            ("<ul><li>one</li><li>two</li></ul>", ["ul"], ["one", "two"]),
            ("<ol><li>first</li></ol>", ["ol"], ["first"]),
            ("<table><tr><td>cell</td></tr></table>", ["table"], ["cell"]),
            ("<details><summary>Sum</summary>Body</details>", ["p", "p"], ["Sum", "Body"]),
            ("<pre>code  kept</pre>", ["pre"], ["code  kept"]), ("<center>Mid</center>", ["p"], ["Mid"]),
            ("<dl><dt>Term</dt><dd>Meaning</dd></dl>", ["p", "p"], ["Term", "Meaning"]),
        ] as [(String, [String], [String])])
    func whatFollowsAClosingTagIsItsOwnBlock(element: String, kinds: [String], texts: [String]) {
        let followers = [
            ("<p>after words</p>", ["p"]), ("after words", ["p"]), ("<h2>after words</h2>", ["h2"]),
            ("<blockquote>after words</blockquote>", ["blockquote"]),
        ]
        for (after, afterKinds) in followers {
            let afterTexts = ["after words"]
            let source = element + "\n" + after + "\n"
            let blocks = Array(parse(source).document.blocks)
            #expect(Self.kinds(blocks) == kinds + afterKinds, "\(source.debugDescription): \(blocks)")
            #expect(Self.leafTexts(blocks) == texts + afterTexts, "\(source.debugDescription): \(blocks)")
        }
    }

    /// The opening of many READMEs: a centred heading, a centred paragraph, badges, details.
    @Test func aCentredReadmeOpeningIsHeadingThenParagraph() {
        let source = """
            <h1 align="center">Lumen</h1>
            <p align="center">A light meter for the command line.</p>
            <p align="center">
              <a href="https://ci.example.com"><img src="ci.svg" alt="CI"></a>
              <a href="https://example.com/license"><img src="mit.svg" alt="MIT"></a>
            </p>
            <!-- a comment between paragraphs -->
            <p>Plain words.</p>
            <details><summary>More</summary>Hidden words.</details>
            <hr>
            <blockquote>Quoted.</blockquote>
            Closing words.

            """
        let blocks = Array(parse(source).document.blocks)
        #expect(Self.kinds(blocks) == ["h1", "p", "p", "p", "p", "p", "hr", "blockquote", "p"], "\(blocks)")
        #expect(
            Self.leafTexts(blocks) == [
                "Lumen", "A light meter for the command line.", "CI MIT", "Plain words.",
                "More",
                "Hidden words.", "---", "Quoted.", "Closing words.",
            ])
        #expect(blocks.prefix(3).map(Self.alignment) == ["center", "center", "center"])
        #expect(Self.alignment(blocks[3]) == nil)
        guard case .paragraph(let badges) = blocks[2].kind else { return }
        let links = badges.filter { if case .link = $0 { true } else { false } }
        #expect(links.count == 2, "two badges, each a link around its image: \(badges)")
    }

    /// A `<picture>` is inline (its `<source>` shows nothing, its `<img>` is the picture): a
    /// paragraph after it is a block of its own, text after it joins its line.
    @Test func aPictureIsInline() {
        let picture =
            "<picture><source srcset=\"a.webp\"><source srcset=\"b.webp\">"
            + "<img src=\"a.png\" alt=\"A\"></picture>"
        let blocks = Array(parse(picture + "\n<p>after words</p>\n").document.blocks)
        #expect(Self.kinds(blocks) == ["p", "p"] && Self.leafTexts(blocks) == ["A", "after words"], "\(blocks)")
        #expect(Self.leafTexts(Array(parse(picture + " after words\n").document.blocks)) == ["A after words"])
    }

    /// Text between elements, and after the last, is a paragraph of its own in its place;
    /// comments between paragraphs leave nothing.
    @Test func textBetweenElementsKeepsItsPlace() {
        let source = "<p>one</p>between<p>two</p><!-- c -->\n<!-- d --><p>three</p>tail <b>bold</b>\n"
        let blocks = Array(parse(source).document.blocks)
        #expect(Self.leafTexts(blocks) == ["one", "between", "two", "three", "tail bold"], "\(blocks)")
        // A written </body> or </html> does not end the fragment.
        let after = Array(parse("<p>in body</p></body>after body</html>after html\n").document.blocks)
        #expect(Self.leafTexts(after) == ["in body", "after body", "after html"], "\(after)")
    }

    /// Lists: an item's paragraphs stay in it; a list written directly inside a list (no <li>
    /// around it) and text outside any item are kept where a browser shows them.
    @Test func listContentOutsideItemsIsKept() {
        let blocks = Array(parse("<ul>before<li>a</li><ul><li>nested</li></ul>tail</ul>after\n").document.blocks)
        #expect(Self.leafTexts(blocks) == ["before", "a", "nested", "tail", "after"], "\(blocks)")
        #expect(Self.kinds(blocks) == ["p", "ul", "p"])
        guard case .list(let list) = blocks[1].kind else { return }
        #expect(Self.kinds(list.items[0].blocks) == ["p", "ul", "p"], "the nested list joins the item before it")
        let paragraphs = Array(parse("<ol start=\" 3 \"><li><p>x</p><p>y</p></li></ol>\n").document.blocks)
        #expect(Self.leafTexts(paragraphs) == ["x", "y"])
    }

    /// Tables: the caption is the table's own, text outside any cell comes before the table (as
    /// a browser moves it), cells keep their columns.
    @Test func tableContentOutsideCellsIsKept() {
        let source =
            "<table><caption>Cap words</caption>stray<tr>row text<td>a</td><td>b</td></tr>"
            + "<tr><td>c</td></tr></table>after\n"
        let blocks = Array(parse(source).document.blocks)
        #expect(Self.kinds(blocks) == ["p", "table", "p"], "\(blocks)")
        // (Text moved ahead of a table joins as a browser joins it: "stray" + "row text".)
        #expect(Self.leafTexts(blocks) == ["strayrow text", "Cap words", "a", "b", "c", "", "after"], "\(blocks)")
        // A caption of a table without cells is a centred paragraph.
        let captionOnly = Array(parse("<table><caption>Cap</caption></table>\n").document.blocks)
        #expect(Self.leafTexts(captionOnly) == ["Cap"] && Self.alignment(captionOnly.first) == "center")
        // No cell at all: the text is still set.
        #expect(Self.leafTexts(Array(parse("<table>only words</table>\n").document.blocks)) == ["only words"])
    }

    /// An HTML `<th>` in a body row is a header cell: heading its row when it opens the row,
    /// else its column, or what its `scope` says.
    @Test func headerCellsInBodyRowsKeepTheirScope() throws {
        let source =
            "<table><tr><th>Q</th><th>S</th></tr><tr><th>Q1</th><td>10</td></tr>"
            + "<tr><th scope=\"col\">Q2</th><td>12</td></tr><tr><td>Q3</td><th>14</th></tr></table>\n"
        guard case .table(let table) = try #require(parse(source).document.blocks.first).kind else {
            Issue.record("not a table")
            return
        }
        #expect(table.header.map(\.plainText) == ["Q", "S"])
        #expect(
            table.headerScopes == [
                TableCellPlace(row: 1, column: 0): .row, TableCellPlace(row: 2, column: 0): .column,
                TableCellPlace(row: 3, column: 1): .column,
            ])
        // No header row: the first row's `<th>` heads its row.
        let noHeader = "<table><tr><th>A</th><td>1</td></tr></table>\n"
        guard case .table(let second) = try #require(parse(noHeader).document.blocks.first).kind else { return }
        #expect(second.headerScopes == [TableCellPlace(row: 1, column: 0): .row])
    }

    /// A container's `align` reaches the paragraphs inside it that have none of their own.
    @Test func containerAlignmentReachesItsParagraphs() {
        let source = "<div align=\"center\"><p>Inner</p><p align=\"right\">Right</p></div>\n"
        let blocks = Array(parse(source).document.blocks)
        #expect(blocks.map(Self.alignment) == ["center", "right"], "\(blocks)")
        let mixed = Array(parse("<div align=\"center\"><h2>Head</h2><p>Inner</p></div>\n").document.blocks)
        #expect(Self.kinds(mixed) == ["div"] && Self.alignment(mixed.first) == "center", "\(mixed)")
    }

    /// HTML blocks of `bytes` bytes of several shapes: one long text node, many paragraphs
    /// with inline elements and comments, badges, table rows, unclosed comments and
    /// containers, text pieces between comments.
    static func shapes(bytes: Int) -> [(name: String, markdown: String)] {
        func repeated(_ piece: String) -> String { String(repeating: piece, count: max(1, bytes / piece.utf8.count)) }
        return [
            ("text node", "<div>\n" + repeated("word and more ") + "\n</div>\n"),
            ("paragraphs", repeated("<p>a <b>bold</b> word<br><!-- c --></p>\n")),
            ("badges", "<p align=\"center\">" + repeated("<a href=\"u\"><img src=\"b.svg\"></a> ") + "</p>\n"),
            ("table", "<table>" + repeated("<tr><td>a</td><td>b</td></tr>") + "</table>\n"),
            ("open comments", "<div>" + repeated("x <!-- ") + "\n"),
            ("open containers", repeated("<div align=\"center\"><details><center>x ") + "\n"),
            ("pieces", "<p>" + repeated("a<!---->") + "</p>\n"),
        ]
    }

    /// Converting HTML blocks takes time linear in their size: 8 times the bytes take at most
    /// 10 times the CPU time (measured on this thread, in the same run).
    @Test(.slow) func htmlBlockTimeGrowsLinearly() {
        let small = 24_000
        let pairs = zip(Self.shapes(bytes: small), Self.shapes(bytes: small * 8))
        for ((name, smallMarkdown), (_, largeMarkdown)) in pairs {
            func seconds(_ markdown: String) -> Double {
                Timing.bestThreadSeconds(of: 2) {
                    let blocks = Array(MarkdownParser.parse(markdown, file: "t.md").document.blocks)
                    #expect(!blocks.isEmpty)
                }
            }
            // Below 10 ms the clock's grain and the fixed costs dominate: compare with 10 ms then.
            let (smallSeconds, largeSeconds) = Timing.firstHolding(
                { (seconds(smallMarkdown), seconds(largeMarkdown)) },
                holds: { $0.1 / max($0.0, 0.01) <= 10 })
            let ratio = largeSeconds / max(smallSeconds, 0.01)
            #expect(ratio <= 10, "\(name): \(small) bytes \(smallSeconds) s, \(small * 8) bytes \(largeSeconds) s")
        }
    }
}
