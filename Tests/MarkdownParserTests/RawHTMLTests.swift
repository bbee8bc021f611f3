import DocumentModel
import Testing

@testable import MarkdownParser

/// Raw HTML as READMEs write it: parsed by libxml2's HTML parser into document values.
@Suite struct RawHTMLTests {
    func paragraphInlines(_ text: String) -> [Inline] {
        for block in blocks(text) { if case .paragraph(let i) = block.kind { return i } }
        return []
    }

    /// An HTML table whose cells hold Markdown between blank lines (a README's "before | after")
    /// is one table, each cell's Markdown inside it as GitHub shows it: a paragraph's inlines,
    /// each line of code as code, each list item on a line of its own; the text after the
    /// table follows it. A table never closed keeps its Markdown as blocks after it.
    @Test func markdownInsideHTMLTableCellsStaysInTheCells() {
        let markdown = """
            <table>
            <tr><th>Before</th><th>After</th></tr>
            <tr>
            <td>

            ```python
            def f(x):
                return x
            ```

            </td>
            <td>

            - one
            - **two**

            Some *text*.

            </td>
            </tr>
            </table>

            End.
            """
        let parsed = blocks(markdown)
        guard parsed.count == 2, case .table(let table) = parsed[0].kind else {
            Issue.record("\(parsed.map(\.kind))")
            return
        }
        #expect(table.header.map(\.plainText) == ["Before", "After"])
        func lines(_ cell: [Inline]) -> [String] {
            cell.split(separator: .lineBreak).map { Array($0).plainText }
        }
        #expect(lines(table.rows[0][0]) == ["def f(x):", "    return x"], "\(table.rows[0][0])")
        #expect(table.rows[0][0].first == .code("def f(x):"))
        #expect(lines(table.rows[0][1]) == ["•\u{00A0}one", "•\u{00A0}two", "Some text."], "\(table.rows[0][1])")
        #expect(parsed[1].kind == .paragraph([.text("End.")]))
        let unclosed = blocks("<table><tr><td>\n\nInside.\n\nAfter.\n")
        #expect(unclosed.map(\.kind).contains(.paragraph([.text("Inside.")])), "\(unclosed.map(\.kind))")
        #expect(unclosed.map(\.kind).last == .paragraph([.text("After.")]))
    }

    /// A formula written in an HTML block's text is a formula, in a table cell, a paragraph or a
    /// summary, and the text after it is kept (libxml2 reads the marker as an element holding
    /// it).
    @Test func formulasInHTMLBlocksAreKept() {
        func math(_ inlines: [Inline]) -> [String] {
            inlines.compactMap { if case .math(let source, _, _, _) = $0 { source } else { nil } }
        }
        let table = blocks("<table><tr><td>$x^2$ after</td><td>plain</td></tr></table>\n")
        guard case .table(let parsed)? = table.first?.kind else {
            Issue.record("\(table)")
            return
        }
        let cell: [Inline] = parsed.header[0] + (parsed.rows.first?[0] ?? [])
        #expect(math(cell) == ["x^2"], "\(parsed)")
        let cellText = cell.plainText
        #expect(cellText.contains("after"))
        let paragraph = paragraphInlines("<div>\n$x^2$ and more, $$y$$ after\n</div>\n")
        #expect(math(paragraph) == ["x^2", "y"], "\(paragraph)")
        #expect(paragraph.plainText.contains(" and more, ") && paragraph.plainText.hasSuffix("after"), "\(paragraph)")
        #expect(!paragraph.plainText.contains("\u{2060}"))
    }

    /// An HTML table's cells set their column's alignment as most of its cells ask (`align`, or
    /// CSS `text-align`); `<img align="right">` asks its figure to stand at the right.
    @Test func cellsAndPicturesKeepTheirAlignment() {
        let table = blocks(
            #"<table><tr><td align="center">x</td><td style="text-align: right">y</td><td>z</td></tr></table>"#)
        guard case .table(let parsed)? = table.first?.kind else {
            Issue.record("\(table)")
            return
        }
        #expect(parsed.alignments == [.center, .right, .none])
        let picture = paragraphInlines(#"<img align="right" src="a.png" width="100">"# + "\n\nText.")
        guard case .span(let attributes, _)? = picture.first else {
            Issue.record("\(picture)")
            return
        }
        #expect(attributes.pairs.contains { $0.key == "align" && $0.value == "right" })
    }

    /// An `<img>`'s `src` is read as a browser reads a URL, without the spaces around it
    /// (`src=" logo.png "` named a file ` logo.png ` that was not found), a block or inline.
    @Test(arguments: [
        "<img src=\" logo.png \" alt=x>", "<img src=\"\nlogo.png\t\" alt=x>", "Text <img src=\" logo.png\">",
    ])
    func anImageAddressLosesTheSpacesAroundIt(_ html: String) {
        var sources: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                if case .image(let source, _, _, _) = inline { sources.append(source) }
                if case .span(_, let children) = inline { visit(children) }
            }
        }
        visit(paragraphInlines(html + "\n\nAfter."))
        #expect(sources == ["logo.png"], "\(sources)")
    }

    /// A list in a cell of an HTML table keeps its bullets and numbers (`start`, `reversed`),
    /// an item a line, nested items an em in.
    @Test func listsInHTMLTableCellsKeepTheirMarkers() {
        let html =
            "<table><tr><td><ol start=\"3\"><li>x</li><li>y<ul><li>z</li></ul></li></ol></td>"
            + "<td><ol reversed><li>a</li><li>b</li></ol></td></tr></table>\n"
        var cells: [[Inline]] = []
        for block in blocks(html) {
            if case .table(let table) = block.kind { cells = table.rows.first ?? [] }
        }
        let texts = cells.map { cell in
            cell.map { if case .lineBreak = $0 { "|" } else { $0.plainText } }.joined()
                .split(separator: "|").map(String.init)
        }
        #expect(
            texts == [["3.\u{00A0}x", "4.\u{00A0}y", "\u{2003}•\u{00A0}z"], ["2.\u{00A0}a", "1.\u{00A0}b"]],
            "\(texts)")
    }

    /// A list written in a line of inline HTML (a table cell's `<ul><li>…`, as GitHub shows
    /// it) sets each item on a line of its own behind its bullet or number, nested items an em
    /// in, and the text after the list on a line of its own: no empty first line.
    /// An element Typeset does not read says what became of it: its text shown, or, with no
    /// text (a site component's `<Badge text="v1.9" />`), that nothing is shown and its
    /// attributes are not read; both say how a tag meant as text is written.
    /// A tag after an inline written over several lines — a formula, a displayed formula, a
    /// code span, a tag's attribute — is placed on its own line, in a paragraph, a quote and a
    /// list item (cmark-gfm counts the lines inside such an inline only with its source
    /// positions on).
    @Test func aTagAfterAnInlineOverLinesIsPlacedOnItsLine() {
        let cases: [(String, String)] = [
            ("a $x\ny$ b\nc <foo>x</foo>\n", "3:3"), ("a $$b\nc\nd$$ e <foo>x</foo>\n", "3:7"),
            ("a `x\ny` b\nc <foo>x</foo>\n", "3:3"), ("a <span title=\"x\ny\">s</span> b\nc <foo>x</foo>\n", "3:3"),
            ("> a `x\n> y` b\n> c <foo>x</foo>\n", "3:5"), ("- a `x\n  y` b\n  c <foo>x</foo>\n", "3:5"),
            ("a\n`x\ny\nz` <foo>x</foo>\n", "4:4"),
        ]
        for (markdown, place) in cases {
            let places = parse(markdown).diagnostics.filter { $0.message.contains("<foo>") }
                .compactMap { $0.location.map { "\($0.line):\($0.column)" } }
            #expect(places == [place], "\(markdown.debugDescription)")
        }
    }

    @Test func anUnsupportedElementSaysWhetherItShowsAnything() {
        let cases: [(String, String)] = [
            (
                "Hello <Badge type=\"tip\" text=\"v1.9+\" /> world.",
                "<badge> is not supported; it holds no text, so nothing"
            ),
            ("Tabs <TabItem label=\"Yarn\"></TabItem> here.", "<tabitem> is not supported; it holds no text"),
            (
                "A <blink>blinking</blink> word.",
                "<blink> is not supported; its text is shown; a tag meant as text is written \\<blink\\>"
            ),
        ]
        for (markdown, expected) in cases {
            let messages = MarkdownParser.parse(markdown + "\n", file: "t.md").diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(expected) }, "\(markdown): \(messages)")
        }
    }

    @Test func inlineListsSetAnItemALine() {
        func lines(_ inlines: [Inline]) -> [String] {
            var result = [""]
            for inline in inlines {
                if case .lineBreak = inline { result.append("") } else { result[result.count - 1] += inline.plainText }
            }
            return result
        }
        let cases: [(String, [String])] = [
            ("<ul><li>x</li><li>y</li></ul>", ["•\u{00A0}x", "•\u{00A0}y"]),
            (
                "<ol start=\"3\"><li>c</li><li>d<ul><li>e</li></ul></li></ol> after",
                ["3.\u{00A0}c", "4.\u{00A0}d", "\u{2003}•\u{00A0}e", "after"]
            ),
            ("Text <ul><li>item</li></ul> more.", ["Text ", "•\u{00A0}item", "more."]),
            // A block element in a line (`<details>`, `<summary>`, `<p>`, `<div>`) is a line of
            // its own: no empty first line, and the text after its end on the next.
            ("<details><summary>S</summary>B</details>", ["S", "B"]),
            ("x <details>S</details> y", ["x ", "S", "y"]),
            ("<p>a</p><p>b</p>", ["a", "b"]),
            ("<div>a</div>b", ["a", "b"]),
        ]
        for (html, expected) in cases {
            var cell: [Inline] = []
            for block in blocks("| A |\n|---|\n| \(html) |\n") {
                if case .table(let table) = block.kind { cell = table.rows.first?.first ?? [] }
            }
            #expect(lines(cell) == expected, "\(html): \(lines(cell))")
        }
    }

    /// `<q>` is set between quotation marks, as a browser draws it: double, single inside
    /// another `q`, in a paragraph's inline HTML and in an HTML block alike.
    @Test(arguments: [
        "He said <q>hello <q>inner</q> there</q> and left.", "<p>He said <q>hello <q>inner</q> there</q> and left.</p>",
    ])
    func quotationsAreQuoted(markdown: String) {
        #expect(
            paragraphInlines(markdown).plainText
                == "He said \u{201C}hello \u{2018}inner\u{2019} there\u{201D} and left.")
    }

    @Test func commentsVanishWithoutAWord() {
        for source in [
            "<!-- introduced_in=v0.10.0 -->\n\nText.", "Text <!-- inline --> more.", "<!--\nmany\nlines\n-->\n\nText.",
            "<!-- TOC -->\n- item\n<!-- /TOC -->",
        ] {
            let result = parse(source)
            #expect(result.diagnostics.isEmpty, "\(source): \(result.diagnostics)")
            #expect(!result.document.blocks.contains { if case .html = $0.kind { true } else { false } })
            let text = result.document.blocks.map { block -> String in
                switch block.kind {
                case .paragraph(let i): i.plainText
                case .list(let l):
                    l.items.flatMap(\.blocks).map { if case .paragraph(let i) = $0.kind { i.plainText } else { "" } }
                        .joined()
                default: ""
                }
            }.joined()
            #expect(!text.contains("introduced") && !text.contains("TOC") && !text.contains("inline"), "\(text)")
        }
        // A comment between two spaces leaves one space, as a browser collapses white space;
        // one against a word leaves the words as written.
        #expect(paragraphInlines("Text <!-- c --> upsilon").plainText == "Text upsilon")
        #expect(paragraphInlines("a <!-- c --><!-- d --> b").plainText == "a b")
        #expect(paragraphInlines("a<!-- c --> b").plainText == "a b")
        #expect(paragraphInlines("a <!-- c -->b").plainText == "a b")
        #expect(paragraphInlines("a <b>x</b> <!-- c --> <i>y</i>").plainText == "a x y")
    }

    /// A CDATA section or another declaration that is neither a comment nor a document type
    /// is, in HTML, a bogus comment ending at its first `>`: nothing of it shows, in a line or
    /// in an HTML block, and the words around it keep their places. A processing instruction
    /// and a document type show nothing either; a `<!` in a comment is the comment's.
    @Test(arguments: [
        ("Alpha <![CDATA[ xray ]]> bravo.", "Alpha bravo."),
        ("Alpha <!ELEMENT br EMPTY> bravo.", "Alpha bravo."),
        ("Alpha <?php echo 1; ?> bravo <!DOCTYPE html> charlie <![CDATA[ x ]]> delta.", "Alpha bravo charlie delta."),
        ("<p>alpha <![CDATA[ xray ]]> bravo <!-- <!x> --> charlie <!x-y--z> delta</p>", "alpha bravo charlie delta"),
        ("<![CDATA[ a > b ]]> after", "b ]]> after"),
    ])
    func declarationsShowNothing(markdown: String, shown: String) {
        let result = parse(markdown)
        let text = result.document.blocks.map { block -> String in
            if case .paragraph(let i) = block.kind { i.plainText } else { "" }
        }.joined()
        #expect(text == shown)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    /// A CDATA section written as an HTML block of its own (CommonMark's kind 5) shows nothing;
    /// the paragraphs around it stay.
    @Test func aCDATABlockShowsNothing() {
        let texts = blocks("Before.\n\n<![CDATA[\nx < y\n]]>\n\nAfter.").map { block -> String in
            if case .paragraph(let i) = block.kind { i.plainText } else { "" }
        }
        #expect(texts.filter { !$0.isEmpty } == ["Before.", "After."])
    }

    @Test func anchorsFromIdAndName() {
        #expect(blocks("<a id=\"install\"></a>\n## Install")[0].kind == .paragraph([.anchor("install")]))
        #expect(
            paragraphInlines("Go <a name=\"here\">here</a> now.") == [
                .text("Go "), .anchor("here"), .text("here"), .text(" now."),
            ])
        #expect(
            paragraphInlines("<a href=\"https://x.y\" id=\"l\">x</a>") == [
                .anchor("l"), .link(destination: "https://x.y", title: "", children: [.text("x")]),
            ])
        guard case .heading(_, let inlines) = blocks("## <a id=\"h\"></a>Head")[0].kind else {
            Issue.record("no heading")
            return
        }
        #expect(inlines.first == .anchor("h"))
    }

    @Test func textLevelElements() {
        let i = paragraphInlines(
            "<b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <code>c</code> <kbd>K</kbd> <sup>2</sup> <sub>n</sub> "
                + "<s>x</s> <del>d</del> <ins>n</ins> <mark>m</mark> <small>f</small> a<br>b"
        )
        let kinds = i.filter { if case .text = $0 { false } else { true } }
        #expect(
            kinds == [
                .strong([.text("b")]), .strong([.text("s")]), .emphasis([.text("i")]), .emphasis([.text("e")]),
                .code("c"),
                .presentation(.keyboard, [.text("K")]), .presentation(.superscript, [.text("2")]),
                .presentation(.subscript, [.text("n")]),
                .strikethrough([.text("x")]), .strikethrough([.text("d")]), .presentation(.underline, [.text("n")]),
                .presentation(.highlight, [.text("m")]), .presentation(.small, [.text("f")]), .lineBreak,
            ])
        // Markdown inside HTML inline elements stays Markdown; an unclosed element closes at the end.
        #expect(paragraphInlines("<b>**x** y") == [.strong([.strong([.text("x")]), .text(" y")])])
    }

    @Test func entitiesDecodedInHTMLBlocks() {
        let b = blocks("<p>&eacute; &mdash; &#8212; &#x41; &copy; &amp; &nbsp;end</p>")
        #expect(b[0].kind == .paragraph([.text("é — — A © & \u{A0}end")]))
    }

    @Test func aBareLessThanKeepsTheRestOfTheBlock() {
        for (source, expected) in [
            ("<div>\nif a < b then c\n</div>", "if a < b then c"),
            ("<div>\n1 < 2 and 3 > 2, x << 1\n</div>", "1 < 2 and 3 > 2, x << 1"),
            ("<p>a <= b\nand more</p>", "a <= b and more"),
        ] {
            #expect(blocks(source).first?.kind == .paragraph([.text(expected)]), "\(source)")
        }
    }

    @Test func oneWarningPerUnsupportedKind() {
        let result = parse(
            "<blink>a</blink> and "
                + "<blink>b</blink>\n\n<marquee>m</marquee>\n\n<div><blink>c</blink><script>x()</script></div>\n"
        )
        let messages = result.diagnostics.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.filter { $0.contains("<blink>") }.count == 1)
        #expect(messages.contains { $0.contains("<marquee>") && $0.contains("text is shown") })
        #expect(messages.contains { $0.contains("<script>") && $0.contains("left out") })
        #expect(paragraphInlines("<blink>a</blink> and <blink>b</blink>").plainText == "a and b")
    }

    /// Every "not supported" warning says what is drawn: a hidden element with its content in
    /// the same HTML block is left out whole; one alone on its line (the Markdown after a blank
    /// line is set) loses only its tags; an element inside a hidden one, or an option of a
    /// select, is not warned about on its own.
    @Test func unsupportedWarningsSayWhatIsDrawn() {
        let own = parse("<template>\n\nSHOWN text\n\n</template>\n")
        #expect(own.document.blocks.contains { $0.kind == .paragraph([.text("SHOWN text")]) }, "\(own.document.blocks)")
        #expect(
            own.diagnostics.map(\.message).contains {
                $0.contains("<template>")
                    && $0.contains("it is left out, but the Markdown blocks between its tags are shown")
            },
            "\(own.diagnostics)")
        #expect(!own.diagnostics.contains { $0.message.contains("it and its content are left out") })

        let inline = parse("Inline <template>gone <b>x</b></template> x\n")
        #expect(!paragraphInlines("Inline <template>gone</template> x").plainText.contains("gone"))
        #expect(
            inline.diagnostics.map(\.message) == [
                "HTML element <template> is not supported; it and its content are left out, as a browser shows none "
                    + "of it (one warning for all <template> elements treated so)"
            ])

        for source in ["<select><option>OPT</option></select>\n", "Pick <select><option>OPT</option></select> now\n"] {
            let nested = parse(source)
            #expect(
                !nested.diagnostics.contains { $0.message.contains("<option>") }, "\(source): \(nested.diagnostics)")
            #expect(
                nested.diagnostics.contains {
                    $0.message.contains("<select>") && $0.message.contains("its other options are left out")
                },
                "\(source)")
        }
        // Both fates in one document: a warning for each, so neither says something untrue.
        let both = parse("<video>\n\nCaption\n\n</video>\n\n<video>clip</video>\n")
        #expect(both.diagnostics.filter { $0.message.contains("<video>") }.count == 2, "\(both.diagnostics)")
    }

    @Test func detailsTablesAlignedBlocksAndImages() {
        let details = blocks("<details>\n<summary>More</summary>\nBody text\n</details>")
        #expect(details.map(\.kind) == [.paragraph([.strong([.text("More")])]), .paragraph([.text("Body text")])])

        let table = blocks("<table>\n<tr><th>A</th><th>B</th></tr>\n<tr><td>1</td><td><b>2</b></td></tr>\n</table>")
        guard case .table(let t) = table.first?.kind else {
            Issue.record("no table: \(table)")
            return
        }
        #expect(t.header == [[.text("A")], [.text("B")]])
        #expect(t.rows == [[[.text("1")], [.strong([.text("2")])]]])

        let centred = blocks("<p align=\"center\">\n  <img src=\"logo.png\" alt=\"Logo\" width=\"96\">\n</p>")
        #expect(centred.first?.attributes.pairs.first?.value == "center")
        guard case .paragraph(let i) = centred.first?.kind, case .span(let a, let c) = i.first else {
            Issue.record("\(centred)")
            return
        }
        #expect(a.pairs.map(\.key) == ["caption", "width"] && a.pairs[1].value == "96px")
        guard case .image(let src, _, let alt, _) = c.first else {
            Issue.record("no image")
            return
        }
        #expect(src == "logo.png" && alt == [.text("Logo")])

        let heading = blocks("<h1 align=\"center\" id=\"top\">Lumen</h1>")
        #expect(heading.first?.kind == .heading(level: 1, [.text("Lumen")]))
        #expect(heading.first?.attributes.id == "top")
    }

    /// Cells spanning rows and columns keep every other cell in its own column (the HTML table
    /// model's grid): the span's text in its first slot, the slots it covers empty, one warning.
    @Test func spanningCellsKeepTheGrid() {
        func table(_ html: String) -> Table? {
            guard case .table(let t) = blocks(html).first?.kind else { return nil }
            return t
        }
        let t = table(
            "<table>\n<tr><th>Name</th><th>Value</th></tr>\n<tr><td "
                + "rowspan=\"2\">span</td><td>first</td></tr>\n<tr><td>second</td></tr>\n<tr><td "
                + "colspan=\"2\">wide</td></tr>\n</table>"
        )
        #expect(t?.header == [[.text("Name")], [.text("Value")]])
        #expect(t?.rows == [[[.text("span")], [.text("first")]], [[], [.text("second")]], [[.text("wide")], []]])
        // A span in the middle, over three rows, past the row's last cell, and a colspan in the header.
        let u = table(
            "<table><tr><th colspan=3>Head</th></tr><tr><td>a</td><td "
                + "rowspan=3>m</td><td>c</td></tr><tr><td>d</td><td>f</td></tr><tr><td>g</td></tr>"
                + "<tr><td>j</td><td>k</td><td>l</td></tr></table>"
        )
        #expect(u?.header == [[.text("Head")], [], []])
        #expect(
            u?.rows == [
                [[.text("a")], [.text("m")], [.text("c")]], [[.text("d")], [], [.text("f")]], [[.text("g")], [], []],
                [[.text("j")], [.text("k")], [.text("l")]],
            ])
        // Absurd spans are capped; spans of 1 or less are ordinary cells, with no warning.
        #expect(table("<table><tr><td colspan=99999>x</td></tr></table>")?.rows.first?.count == 1_000)
        let warnings = parse(
            "<table><tr><td rowspan=2 colspan=2>x</td></tr><tr><td>y</td></tr></table>\n\n<table><tr><td "
                + "colspan=2>z</td></tr></table>\n"
        ).diagnostics
        #expect(warnings.filter { $0.message.contains("spans columns or rows") }.count == 1, "\(warnings)")
        #expect(parse("<table><tr><td colspan=1 rowspan=0>x</td></tr></table>\n").diagnostics.isEmpty)
    }

    @Test func containersOpenedAndClosedInSeparateHTMLBlocks() {
        let b = blocks("<div align=\"center\">\n\n# Title\n\nText.\n\n</div>\n\nAfter.")
        guard case .div(let inner) = b.first?.kind else {
            Issue.record("\(b)")
            return
        }
        #expect(b.first?.attributes.pairs.first.map { [$0.key, $0.value] } == ["align", "center"])
        #expect(inner.map(\.kind) == [.heading(level: 1, [.text("Title")]), .paragraph([.text("Text.")])])
        #expect(b.last?.kind == .paragraph([.text("After.")]))
        // <center>, <details> with its summary in a block of its own, a stray and an unclosed tag.
        #expect(blocks("<center>\n\nMid\n\n</center>").first?.attributes.pairs.first?.value == "center")
        #expect(
            blocks("<details>\n\n<summary>Sum</summary>\n\nBody\n\n</details>").map(\.kind)
                == [.paragraph([.strong([.text("Sum")])]), .paragraph([.text("Body")])])
        #expect(
            blocks("Text\n\n</div>\n\nMore").map(\.kind) == [.paragraph([.text("Text")]), .paragraph([.text("More")])])
        guard case .div(let open) = blocks("<div align=\"right\">\n\nNever closed").first?.kind else {
            Issue.record("unclosed")
            return
        }
        #expect(open.map(\.kind) == [.paragraph([.text("Never closed")])])
        #expect(parse("<div align=\"center\">\n\nx\n\n</div>").diagnostics.isEmpty)
    }

    /// A `<details>`, `<div>` or `<center>` opened in an HTML block of its own and never closed
    /// is named where it opens (its content is kept, closed at its container's end, where
    /// GitHub would hold the rest of the file inside it); one closed later, in a quote or at
    /// the top, is not named.
    @Test func containersNeverClosedAreNamed() {
        func named(_ markdown: String) -> [String] {
            parse(markdown).diagnostics.filter { $0.message.contains("never closed") }.compactMap { diagnostic in
                diagnostic.location.map { "\($0.line):\($0.column)" }
            }
        }
        #expect(named("<details>\n<summary>More</summary>\n\nHidden.\n\n## After\n") == ["1:1"])
        #expect(named("Intro.\n\n<div align=\"center\">\n\nCentred\n") == ["3:1"])
        #expect(named("> <center>\n>\n> In a quote\n\nAfter.\n") == ["1:3"])
        #expect(named("<details>\n\nBody\n\n</details>\n\n<div>\n\nx\n\n</div>\n").isEmpty)
        #expect(parse("<details>\n\nBody\n").diagnostics.first?.message.contains("'<details>'") == true)
    }

    @Test func unclosedInlineTagsNestNoDeeperThanTheLimit() {
        let i = paragraphInlines(String(repeating: "<b>", count: 5000) + "deep")
        func depth(_ inlines: [Inline]) -> Int {
            inlines.map { if case .strong(let c) = $0 { 1 + depth(c) } else { 0 } }.max() ?? 0
        }
        #expect(depth(i) <= RawHTML.maxInlineDepth + 1)
        #expect(i.plainText == "deep")
    }
    /// A warning about an element of an HTML block stands at the element's tag, and a picture's
    /// size at its attribute, not at the block's start: on the block's first line and later
    /// ones, in an indented block, and for the second element of a name (its own tag).
    @Test func elementsOfAnHTMLBlockArePlacedAtTheirTags() throws {
        let markdown = """
            <div>
            <p>first</p>
            <p>second <blink>blinky</blink></p>
            <img src="small.png" alt="s"
                 height="0">
            </div>

              <p>para <marquee>m</marquee></p>

            <p><span>a</span> <marquee>again</marquee></p>
            """
        let result = parse(markdown)
        func place(_ needle: String) -> String? {
            result.diagnostics.first { $0.message.contains(needle) }?.location.map { "\($0.line):\($0.column)" }
        }
        #expect(place("<blink>") == "3:11", "\(result.diagnostics)")
        #expect(place("<marquee>") == "8:11", "\(result.diagnostics)")
        var heights: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                guard case .span(let attributes, let children) = inline else { continue }
                heights += attributes.pairs.filter { $0.key == "height" }.compactMap {
                    $0.location.map { "\($0.line):\($0.column)" }
                }
                visit(children)
            }
        }
        func visit(_ block: Block) {
            switch block.kind {
            case .paragraph(let inlines): visit(inlines)
            case .div(let children): children.forEach(visit)
            default: break
            }
        }
        result.document.blocks.forEach(visit)
        #expect(heights == ["5:6"])
    }
}
