import DocumentModel
import Testing

@testable import MarkdownParser

func parse(_ text: String) -> ParseResult { MarkdownParser.parse(text, file: "t.md") }
func blocks(_ text: String) -> [Block] { Array(parse(text).document.blocks) }

@Suite struct BlockTests {
    @Test func headingLevels() {
        let b = blocks("# One\n\n## Two\n\n###### Six\n\nSetext\n---\n")
        let levels = b.compactMap { if case .heading(let l, _) = $0.kind { l } else { nil } }
        #expect(levels == [1, 2, 6, 2])
        #expect(b[0].kind == .heading(level: 1, [.text("One")]))
    }

    @Test func inlineTrees() {
        let b = blocks("A *em* **strong** `code` ~~del~~ [link](http://x.y \"T\") ![alt *x*](p.png)")
        guard case .paragraph(let i) = b[0].kind else {
            Issue.record("not a paragraph")
            return
        }
        #expect(i[0] == .text("A "))
        #expect(i[1] == .emphasis([.text("em")]))
        #expect(i[3] == .strong([.text("strong")]))
        #expect(i[5] == .code("code"))
        #expect(i[7] == .strikethrough([.text("del")]))
        #expect(i[9] == .link(destination: "http://x.y", title: "T", children: [.text("link")]))
        guard case .image(let src, _, let alt, let loc) = i[11] else {
            Issue.record("no image")
            return
        }
        #expect(src == "p.png")
        #expect(alt == [.text("alt "), .emphasis([.text("x")])])
        #expect(loc == SourceLocation(file: "t.md", line: 1, column: 57))
    }

    @Test func breaksAndAutolinks() {
        let b = blocks("one\ntwo  \nthree see www.example.com now")
        guard case .paragraph(let i) = b[0].kind else {
            Issue.record()
            return
        }
        #expect(i[0] == .text("one"))
        #expect(i[1] == .softBreak)
        #expect(i[2] == .text("two"))
        #expect(i[3] == .lineBreak)
        #expect(i[4] == .text("three see "))
        #expect(i[5] == .link(destination: "http://www.example.com", title: "", children: [.text("www.example.com")]))
        #expect(i[6] == .text(" now"))
        // No empty text nodes survive.
        #expect(!i.contains(.text("")))
    }

    @Test func nestedListsFourDeep() throws {
        let md = """
            3. three
            4. four
               - [x] done
               - [ ] todo
                 1. a
                    1) deep
                    2) deeper

            """
        let b = blocks(md)
        guard case .list(let l1) = b[0].kind else {
            Issue.record("no list")
            return
        }
        #expect(l1.ordered && l1.start == 3 && l1.tight)
        #expect(l1.items.count == 2)
        #expect(l1.items[0].task == nil)
        guard case .list(let l2) = l1.items[1].blocks[1].kind else {
            Issue.record("no level 2")
            return
        }
        #expect(!l2.ordered)
        #expect(l2.items.map(\.task) == [true, false])
        #expect(
            l2.items[0].blocks == [
                Block(.paragraph([.text("done")]), location: SourceLocation(file: "t.md", line: 3, column: 10))
            ])
        guard case .list(let l3) = l2.items[1].blocks[1].kind else {
            Issue.record("no level 3")
            return
        }
        #expect(l3.ordered && l3.start == 1)
        // An ordered list interrupting a paragraph must start at 1 (CommonMark §5.2).
        try #require(l3.items.first?.blocks.count == 2)
        guard case .list(let l4) = l3.items[0].blocks[1].kind else {
            Issue.record("no level 4")
            return
        }
        #expect(l4.ordered && l4.start == 1 && l4.items.count == 2)
        #expect(l4.items[1].blocks.first?.kind == .paragraph([.text("deeper")]))
    }

    @Test func looseList() {
        guard case .list(let l) = blocks("- a\n\n- b\n")[0].kind else {
            Issue.record()
            return
        }
        #expect(!l.tight)
    }

    @Test func table() {
        let md = "| 이름 | 값 | c | d |\n|:--|--:|:-:|---|\n| **a** | 1 | x | y |\n| b | 2 |\n"
        guard case .table(let t) = blocks(md)[0].kind else {
            Issue.record("no table")
            return
        }
        #expect(t.alignments == [.left, .right, .center, .none])
        #expect(t.header == [[.text("이름")], [.text("값")], [.text("c")], [.text("d")]])
        #expect(t.rows.count == 2)
        #expect(t.rows[0][0] == [.strong([.text("a")])])
        #expect(t.rows[1][1] == [.text("2")])
    }

    @Test func codeBlocks() {
        let b = blocks("```swift title=x\nlet a = 1\n:::\n```\n\n    indented\n")
        #expect(b[0].kind == .codeBlock(info: "swift title=x", text: "let a = 1\n:::\n"))
        #expect(b[1].kind == .codeBlock(info: "", text: "indented\n"))
    }

    /// A code fence never closed runs to the end of its container (CommonMark), taking the rest
    /// of the document with it: a warning stands at the fence. A fence closed by a longer run,
    /// with spaces or a carriage return after it, or inside a quote, is closed.
    @Test(
        arguments: [
            ("```python\ndef f():\n\nAfter.\n", "1:1 '```'", "the document"),
            ("Text\n\n~~~~", "3:1 '~~~~'", "the document"),
            ("- item\n\n  ```js\n  x\n- next\n", "3:3 '```'", "the list item or quote"),
            ("> ```\n> quoted\n\nAfter.\n", "1:3 '```'", "the list item or quote"),
            ("````md\n```python\nx\n```\n", "1:1 '````'", "the document"),
            ("```\nclosed\n```\n\nAfter.\n", nil, nil), ("~~~~\nx\n~~~~~  \n", nil, nil),
            ("```\r\nx\r\n```\r\n", nil, nil), ("> ```\n> x\n> ```\n", nil, nil),
        ] as [(String, String?, String?)])
    func unclosedCodeFencesAreWarnedAbout(markdown: String, place: String?, rest: String?) {
        let warnings = MarkdownParser.parse(markdown, file: "f.md").diagnostics.filter {
            $0.message.contains("never closed")
        }
        guard let place, let rest else {
            #expect(warnings.isEmpty, "\(warnings)")
            return
        }
        let warning = warnings.first
        #expect(warnings.count == 1, "\(warnings)")
        let parts = place.split(separator: " ")
        #expect(warning?.location.map { "\($0.line):\($0.column)" } == String(parts[0]), "\(warnings)")
        #expect(warning?.message.hasPrefix(parts[1] + " opens a code block") == true, "\(warnings)")
        #expect(warning?.message.contains("to the end of \(rest)") == true, "\(warnings)")
    }

    @Test func htmlBlocksAndInlineHTML() {
        let b = blocks("<div class=\"x\">\nhi\n</div>\n\npara <b>bold</b>\n")
        // HTML is read by libxml2's HTML parser (RawHTMLTests has the details).
        #expect(b[0].kind == .paragraph([.text("hi")]))
        guard case .paragraph(let i) = b[1].kind else {
            Issue.record()
            return
        }
        #expect(i[1] == .strong([.text("bold")]))
    }

    @Test func blockQuoteAndThematicBreak() {
        let b = blocks("> quoted\n> > inner\n\n***\n")
        guard case .blockQuote(let q) = b[0].kind else {
            Issue.record()
            return
        }
        #expect(q[0].kind == .paragraph([.text("quoted")]))
        guard case .blockQuote(let inner) = q[1].kind else {
            Issue.record()
            return
        }
        #expect(inner[0].kind == .paragraph([.text("inner")]))
        #expect(b[1].kind == .thematicBreak)
    }

    @Test func footnotesNumberedByFirstUse() {
        let md = """
            First[^b], second[^a], again[^B].

            [^a]: Note A.
            [^b]: Note **B**.
            [^unused]: Never referenced.
            """
        let doc = parse(md).document
        guard case .paragraph(let i) = doc.blocks[0].kind else {
            Issue.record()
            return
        }
        #expect(i[1] == .footnoteReference(label: "b", number: 1))
        #expect(i[3] == .footnoteReference(label: "a", number: 2))
        #expect(i[5] == .footnoteReference(label: "B", number: 1))
        #expect(doc.footnotes.count == 2)
        #expect(doc.footnotes[1]?.first?.kind == .paragraph([.text("Note "), .strong([.text("B")]), .text(".")]))
        #expect(doc.footnotes[2]?.first?.kind == .paragraph([.text("Note A.")]))
        // Definitions are not left in the body.
        #expect(doc.blocks.count == 1)
    }

    @Test func pageBreak() {
        let b = blocks("before\n\n\\newpage\n\nafter \\newpage\n")
        #expect(b[1].kind == .pageBreak)
        #expect(b[1].location?.line == 3)
        #expect(b[2].kind == .paragraph([.text("after \\newpage")]))
    }

    @Test func sourceLines() {
        let b = blocks("# Title\n\npara\ngraph\n\n- item\n\n> q\n\n```\ncode\n```\n")
        #expect(b.map { $0.location?.line } == [1, 3, 6, 8, 10])
        #expect(b.allSatisfy { $0.location?.file == "t.md" && $0.location?.column == 1 })
    }

    @Test func koreanHeadingWithAttributes() {
        let b = blocks("## 안녕하세요 {#intro}\n")
        #expect(b[0].kind == .heading(level: 2, [.text("안녕하세요")]))
        #expect(b[0].attributes.id == "intro")
        // `{` is byte 20 (each Hangul syllable is 3 UTF-8 bytes).
        #expect(b[0].attributes.location == SourceLocation(file: "t.md", line: 1, column: 20))
    }
}
