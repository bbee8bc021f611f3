import DocumentModel
import Testing

@testable import MarkdownParser

/// GitHub alerts, Pandoc sub- and superscript and GitHub's empty task items, on the parsed
/// document: each kind with members that are syntax and members that must stay text.
@Suite struct GitHubAndPandocConventionTests {
    private func parsed(_ text: String) -> [Block] {
        Array(MarkdownParser.parse(text, file: "t.md").document.blocks)
    }

    private func paragraph(_ text: String) -> [Inline] {
        guard case .paragraph(let inlines)? = parsed(text).first?.kind else { return [] }
        return inlines
    }

    @Test func everyAlertKindIsRecognisedWithItsContent() {
        for kind in AlertKind.allCases {
            for marker in ["[!\(kind.rawValue.uppercased())]", "[!\(kind.rawValue)]"] {
                let blocks = parsed("> \(marker)\n> Body *text*.\n>\n> Second.")
                guard case .alert(let found, let content)? = blocks.first?.kind else {
                    Issue.record("\(marker): \(blocks)")
                    continue
                }
                #expect(found == kind)
                #expect(content.count == 2)
                #expect(content.first?.kind == .paragraph([.text("Body "), .emphasis([.text("text")]), .text(".")]))
            }
        }
        #expect(AlertKind.caution.label == "Caution")
    }

    @Test func quotesThatAreNotAlertsStayQuotes() {
        // An unknown kind, text on the marker's line, a marker alone, an escaped bracket.
        for text in ["> [!DANGER]\n> Body", "> [!NOTE] Body", "> [!NOTE]", "> \\[!NOTE]\n> Body", "> Body\n> [!NOTE]"] {
            guard case .blockQuote(let content)? = parsed(text).first?.kind else {
                Issue.record("\(text) is not a quote")
                continue
            }
            #expect(content.map(\.kind).contains { if case .paragraph = $0 { true } else { false } })
        }
    }

    @Test func alertsInsideListsAndDivsAndNotes() {
        let blocks = parsed("- item\n\n  > [!TIP]\n  > Inside.\n\n::: box\n> [!WARNING]\n> Also.\n:::\n")
        guard case .list(let list)? = blocks.first?.kind, case .alert(.tip, _)? = list.items[0].blocks.last?.kind
        else {
            Issue.record("\(blocks)")
            return
        }
        guard case .div(let children)? = blocks.last?.kind, case .alert(.warning, _)? = children.first?.kind else {
            Issue.record("\(blocks)")
            return
        }
    }

    @Test func singleTildesAroundAWordAreSubscript() {
        #expect(paragraph("H~2~O") == [.text("H"), .presentation(.subscript, [.text("2")]), .text("O")])
        #expect(
            paragraph("a ~*i*~ b") == [.text("a "), .presentation(.subscript, [.emphasis([.text("i")])]), .text(" b")])
        // Strikethrough is two tildes; one on each side around whitespace is text, as Pandoc
        // reads it: a range, a home folder, an approximation lose no tilde.
        #expect(paragraph("~~gone~~") == [.strikethrough([.text("gone")])])
        #expect(paragraph("~~two words~~") == [.strikethrough([.text("two words")])])
        for text in ["~two words~", "3월~5월이며 시간은 9시~18시", "범위: 1~2, 3~4", "~/.bashrc and ~user/ and file~1~"] {
            let inlines = paragraph(text)
            #expect(inlines.plainText == text)
            #expect(!inlines.contains { if case .strikethrough = $0 { true } else { false } }, "\(inlines)")
        }
        #expect(paragraph("~a *b* c~ d").plainText == "~a b c~ d")
        #expect(paragraph("\\~2~") == [.text("~2~")])
        #expect(paragraph("`~2~`") == [.code("~2~")])
    }

    /// An HTML `<pre>` names its code's language as GitHub reads it: `lang="python"`, or a
    /// `language-`/`lang-` class on the `<pre>` or on its one `<code>`; the code was set plain.
    @Test func anHTMLPreNamesItsLanguage() {
        let cases: [(String, String)] = [
            ("<pre lang=\"python\">\nx = 1\n</pre>", "python"),
            ("<pre><code class=\"language-js\">let x = 1;\n</code></pre>", "js"),
            ("<pre class=\"highlight lang-go\">x := 1\n</pre>", "go"),
            ("<pre><code>plain\n</code></pre>", ""),
            ("<pre lang=\"\">x\n</pre>", ""),
        ]
        for (html, language) in cases {
            guard case .codeBlock(let info, _)? = parsed(html).first?.kind else {
                Issue.record("\(html): \(parsed(html))")
                continue
            }
            #expect(info == language, "\(html)")
        }
    }

    /// Tildes are counted in the source, not from where the first thing inside starts: a
    /// code span's node starts after its backtick, a link's text after its bracket, so
    /// `~~`y` x~~` was read as one tilde a side and set as `~y x~`, unstruck.
    @Test func strikethroughOpeningWithCodeOrALinkIsStruck() {
        #expect(paragraph("a ~~`y` x~~ b") == [.text("a "), .strikethrough([.code("y"), .text(" x")]), .text(" b")])
        #expect(paragraph("~~`y`~~") == [.strikethrough([.code("y")])])
        #expect(paragraph("~~[`y`](u) x~~").first.map { if case .strikethrough = $0 { true } else { false } } == true)
        #expect(
            paragraph("~~*y* x~~ and ~~**y**~~").filter { if case .strikethrough = $0 { true } else { false } }.count
                == 2)
        #expect(paragraph("~`y`~") == [.presentation(.subscript, [.code("y")])])
        #expect(paragraph("~`y` x~").plainText == "~y x~")
    }

    /// A definition that opens with a fenced code block (`: ````, `~ ~~~`, one or two spaces
    /// after the marker, after its term or a blank line after it) holds the code, closed by its
    /// own fence: the closing fence opened a code block that ran to the end of the document,
    /// and every heading after it was set as code. A fence inside code, or a marker line with
    /// no term before it, is left as it was; windowed and whole parses agree.
    @Test(arguments: [
        "T\n: ```\n  code\n  ```\n\n# After\n\nText.\n",
        "Term\n\n:  ~~~python\n   x = 1\n   ~~~\n\n: second def\n\n# After\n\nText.\n",
        "Intro.\n\nT\n~ ```\n  a\n\n  b\n  ```\n\n# After\n\nText.\n",
    ])
    func aDefinitionOpeningWithFencedCodeHoldsIt(markdown: String) {
        let blocks = parsed(markdown)
        guard let list = blocks.firstIndex(where: { if case .definitionList = $0.kind { true } else { false } }),
            case .definitionList(let items) = blocks[list].kind
        else {
            Issue.record("\(blocks)")
            return
        }
        #expect(
            items.first?.definitions.first?.first.map { if case .codeBlock = $0.kind { true } else { false } } == true)
        #expect(blocks.last?.kind == .paragraph([.text("Text.")]), "\(blocks)")
        #expect(blocks.contains { if case .heading(1, _) = $0.kind { true } else { false } })
        let lazy = MarkdownParser.parse(markdown, file: "t.md", lazily: true, windowBytes: 0)
        #expect(Array(lazy.document.blocks) == blocks)
    }

    @Test func aFenceInCodeOrWithoutATermIsNotADefinition() {
        let code = parsed("```\nT\n: ```\n```\n")
        #expect(code.map(\.kind) == [.codeBlock(info: "", text: "T\n: ```\n")])
        let first = parsed(": ```\n  x\n  ```\n")
        #expect(!first.contains { if case .definitionList = $0.kind { true } else { false } })
    }

    /// A definition that opens with a list, a quote or a heading (`: - item`, `: 1. item`,
    /// `: > quote`, `: ## Heading`), in the compact or the loose form or after another
    /// definition, holds that block, as Pandoc reads it: the marker line was a paragraph's, so
    /// `: - item` was set as text and the list's later items as a list of their own, outside
    /// the definition. Windowed and whole parses agree.
    @Test(arguments: [
        ("T\n: - one\n  - two\n\n# After\n\nText.\n", "list"),
        ("T\n\n: 3. one\n   4. two\n\n# After\n\nText.\n", "list"),
        ("T\n: first\n: 1. one\n\n# After\n\nText.\n", "list"),
        ("T\n: > quoted\n  more\n\n# After\n\nText.\n", "quote"),
        ("T\n~ > [!NOTE]\n  > An alert.\n\n# After\n\nText.\n", "alert"),
        ("T\n: ## Heading\n\n# After\n\nText.\n", "heading"),
    ])
    func aDefinitionOpeningWithABlockHoldsIt(markdown: String, kind: String) {
        let blocks = parsed(markdown)
        guard case .definitionList(let items)? = blocks.first?.kind, let block = items.first?.definitions.last?.first
        else {
            Issue.record("\(blocks)")
            return
        }
        let found: String? =
            switch block.kind {
            case .list(let list): list.items.count == 2 || markdown.contains("first") ? "list" : nil
            case .blockQuote(let quoted):
                quoted.first?.kind == .paragraph([.text("quoted"), .softBreak, .text("more")]) ? "quote" : nil
            case .alert(.note, _): "alert"
            case .heading(2, [.text("Heading")]): "heading"
            default: nil
            }
        #expect(found == kind, "\(block.kind)")
        #expect(blocks.count == 3, "\(blocks)")
        #expect(blocks.last?.kind == .paragraph([.text("Text.")]))
        let lazy = MarkdownParser.parse(markdown, file: "t.md", lazily: true, windowBytes: 0)
        #expect(Array(lazy.document.blocks) == blocks)
    }

    /// A marker line before which no term or definition stands, or whose block cmark-gfm would
    /// not start there (a numbered item from 3 interrupting the term's paragraph, a rule), keeps
    /// its marker: nothing of the line is lost.
    @Test(arguments: [
        "# Heading\n: - item\n", "One\ntwo\n: - item\n", ": - item\n", "T\n: 3. item\n", "T\n: * * *\n",
        "    code\n\n: - item\n",
    ])
    func aMarkerLineWithNoTermKeepsItsMarker(markdown: String) {
        let blocks = parsed(markdown)
        let defined = blocks.contains { if case .definitionList = $0.kind { true } else { false } }
        let marked = blocks.contains {
            switch $0.kind {
            case .paragraph(let inlines): inlines.plainText.contains(": - item")
            case .codeBlock(_, let text): text.contains(": - item")
            default: false
            }
        }
        #expect(defined || marked, "\(blocks)")
        #expect(!blocks.contains { if case .list = $0.kind { true } else { false } }, "\(blocks)")
    }

    /// A bracketed span's, an inline note's and a table caption's text is read as running text
    /// is: its superscripts, LaTeX text commands and raw HTML (`<kbd>`, `<b>`, `<sup>`), at
    /// every depth of spans, as the text around them.
    @Test func spansNotesAndCaptionsReadTheirContentAsRunningText() {
        func presentations(_ inlines: [Inline]) -> [InlinePresentation] {
            inlines.flatMap { inline -> [InlinePresentation] in
                switch inline {
                case .presentation(let kind, let children): [kind] + presentations(children)
                case .span(_, let children), .emphasis(let children), .strong(let children): presentations(children)
                default: []
                }
            }
        }
        func strong(_ inlines: [Inline]) -> Bool {
            inlines.contains {
                switch $0 {
                case .strong: true
                case .span(_, let children), .presentation(_, let children): strong(children)
                default: false
                }
            }
        }
        let spans = paragraph("[y^2^ <kbd>J</kbd> <sup>s</sup> \\textbf{b}]{.mark} and [[x <kbd>N</kbd>]{.a}]{.b}")
        #expect(presentations(spans) == [.superscript, .keyboard, .superscript, .keyboard], "\(spans)")
        #expect(strong(spans) && !spans.contains { if case .rawHTML = $0 { true } else { false } })
        let document = MarkdownParser.parse("A^[x^2^ and <kbd>K</kbd> and <b>bold</b>] b.", file: "t.md").document
        let note = document.footnotes.values.first?.first
        guard case .paragraph(let inlines)? = note?.kind else {
            Issue.record("\(document.footnotes)")
            return
        }
        #expect(presentations(inlines) == [.superscript, .keyboard], "\(inlines)")
        #expect(strong(inlines))
        let caption = parsed("| a |\n|---|\n| b |\n\n: x^2^ caption\n")
        #expect(
            caption.contains { block in
                guard case .paragraph(let inlines) = block.kind else { return false }
                return presentations(inlines) == [.superscript]
            }, "\(caption)")
    }

    /// A space escaped by a backslash inside a subscript or superscript is Pandoc's no-break
    /// space, not the end of it: `x^a\ b^`, `H~2\ x~O`, `P~a\ b\ c~`.
    @Test func anEscapedSpaceStaysInsideASubscriptOrSuperscript() {
        #expect(paragraph("x^a\\ b^") == [.text("x"), .presentation(.superscript, [.text("a\u{00A0}b")])])
        #expect(paragraph("H~2\\ x~O") == [.text("H"), .presentation(.subscript, [.text("2\u{00A0}x")]), .text("O")])
        #expect(paragraph("P~a\\ b\\ c~") == [.text("P"), .presentation(.subscript, [.text("a\u{00A0}b\u{00A0}c")])])
        // An unescaped space still ends neither: the text stays as written.
        #expect(paragraph("x^a b^") == [.text("x^a b^")])
    }

    /// A space escaped by a backslash is a no-break space wherever it is written, as Pandoc
    /// reads it: in a paragraph, a heading, emphasis, a link's text, a table cell, a span; not
    /// in code, and not after a backslash that is itself escaped or a reference.
    @Test func anEscapedSpaceIsANoBreakSpace() {
        #expect(paragraph("Dr.\\ Smith ran 10\\ km.") == [.text("Dr.\u{00A0}Smith ran 10\u{00A0}km.")])
        #expect(
            paragraph("*a\\ b* [c\\ d](u)") == [
                .emphasis([.text("a\u{00A0}b")]), .text(" "),
                .link(destination: "u", title: "", children: [.text("c\u{00A0}d")]),
            ])
        #expect(paragraph("[e\\ f]{.x}").plainText == "e\u{00A0}f")
        guard case .heading(1, let heading)? = parsed("# Part\\ 1").first?.kind,
            case .table(let table)? = parsed("| a\\ b |\n|---|\n| c\\ d |").first?.kind
        else {
            Issue.record("no heading or table")
            return
        }
        #expect(heading == [.text("Part\u{00A0}1")])
        #expect(table.header.first == [.text("a\u{00A0}b")])
        #expect(table.rows.first?.first == [.text("c\u{00A0}d")])
        #expect(paragraph("`a\\ b`") == [.code("a\\ b")])
        #expect(paragraph("C:\\\\ and &#92; x") == [.text("C:\\ and \\ x")])
        // A backslash that ends a Windows path stays: after a drive's colon, in a path.
        #expect(paragraph("stat() calls to C:\\ (Bert)") == [.text("stat() calls to C:\\ (Bert)")])
        #expect(paragraph("share \\\\server\\docs\\ here") == [.text("share \\server\\docs\\ here")])
        #expect(paragraph("p.\\ 5 and dir\\sub\\ x") == [.text("p.\u{00A0}5 and dir\\sub\\ x")])
        // A backslash that joins no word to the next stays: after a space, a hyphen, a slash or
        // an opening bracket, first on a line; after a letter, figure, Hangul, closing
        // punctuation or an inline, it is the no-break space.
        for written in ["treat \\ the same as /", "Ctrl-\\ now works", "a /\\ b", "(\\ x)", "\\ first", "one\n\\ two"] {
            #expect(paragraph(written).plainText == written.replacingOccurrences(of: "\n", with: " "), "\(written)")
        }
        for (written, joined) in [
            ("그림\\ 3", "그림\u{A0}3"), ("(a)\\ b", "(a)\u{A0}b"), ("x,\\ y", "x,\u{A0}y"),
            ("*em*\\ x", "em\u{A0}x"), ("“q”\\ x", "“q”\u{A0}x"),
        ] {
            #expect(paragraph(written).plainText == joined, "\(written)")
        }
    }

    @Test func caretsAroundAWordAreSuperscript() {
        #expect(
            paragraph("x^2^ + 2^10^") == [
                .text("x"), .presentation(.superscript, [.text("2")]), .text(" + 2"),
                .presentation(.superscript, [.text("10")]),
            ])
        #expect(paragraph("^**b**^") == [.presentation(.superscript, [.strong([.text("b")])])])
        // Whitespace, nothing between, escapes, code and an unclosed caret stay text.
        #expect(paragraph("a^b c^d") == [.text("a^b c^d")])
        #expect(paragraph("a^^b") == [.text("a^^b")])
        #expect(paragraph("\\^x^") == [.text("^x^")])
        #expect(paragraph("`x^2^`") == [.code("x^2^")])
        #expect(paragraph("2^10") == [.text("2^10")])
        // In a heading and with a span after it.
        guard case .heading(_, let inlines)? = parsed("# E = mc^2^ {#energy}").first?.kind else {
            Issue.record("no heading")
            return
        }
        #expect(inlines == [.text("E = mc"), .presentation(.superscript, [.text("2")])])
    }

    @Test func taskItemsWithNoTextAreTasks() {
        guard case .list(let list)? = parsed("- [x]\n- [ ]\n- [X]\n- [x] done\n- [y]").first?.kind else {
            Issue.record("no list")
            return
        }
        #expect(list.items.map(\.task) == [true, false, true, true, nil])
        #expect(list.items[0].blocks.isEmpty)
        #expect(list.items[4].blocks.first?.kind == .paragraph([.text("[y]")]))
    }

    /// An item that opens with a box is a task wherever its list stands, as GitHub draws it:
    /// in a quote, a quote in a quote, a list in a quote, a footnote, ordered or not; a box
    /// without white space after it is text.
    @Test(arguments: [
        "> - [ ] open\n> - [x] done\n> - [ ]text",
        "> > - [ ] open\n> > - [X] done\n> > - [ ]text",
        "> 7. [ ] open\n> 8. [x] done\n> 9. [ ]text",
        "- [ ] open\n- [x] done\n- [ ]text",
    ])
    func boxesOpenTasksWhereverTheListStands(markdown: String) {
        var block = parsed(markdown).first
        while case .blockQuote(let children)? = block?.kind { block = children.first }
        guard case .list(let list)? = block?.kind else {
            Issue.record("no list in \(markdown)")
            return
        }
        #expect(list.items.map(\.task) == [false, true, nil], "\(markdown)")
        #expect(
            list.items.map { $0.blocks.first?.kind } == [
                .paragraph([.text("open")]), .paragraph([.text("done")]), .paragraph([.text("[ ]text")]),
            ], "\(markdown)")
    }

    @Test func compactDefinitionListsAreRecognised() {
        let blocks = parsed("Term *one*\n: First definition\ncontinued\n: Second\n\nPlain\n\\: not a list\n")
        guard case .definitionList(let items)? = blocks.first?.kind else {
            Issue.record("\(blocks)")
            return
        }
        #expect(items.count == 1)
        #expect(items[0].term == [.text("Term "), .emphasis([.text("one")])])
        #expect(
            items[0].definitions.map { $0.map(\.kind) } == [
                [.paragraph([.text("First definition"), .softBreak, .text("continued")])],
                [.paragraph([.text("Second")])],
            ])
        // An escaped colon, a colon with no space, a first line that is a definition: text.
        #expect(blocks.last?.kind == .paragraph([.text("Plain"), .softBreak, .text(": not a list")]))
        for text in ["Ratio\n:1 to 2", ": alone\n: twice", "Term\n:"] {
            guard case .paragraph? = parsed(text).first?.kind else {
                Issue.record("\(text): \(parsed(text))")
                continue
            }
        }
        // Inside a list item and a quote.
        guard case .list(let list)? = parsed("- Term\n  : Meaning\n").first?.kind,
            case .definitionList? = list.items.first?.blocks.first?.kind
        else {
            Issue.record("in a list")
            return
        }
        guard case .blockQuote(let quoted)? = parsed("> Term\n> : Meaning\n").first?.kind,
            case .definitionList? = quoted.first?.kind
        else {
            Issue.record("in a quote")
            return
        }
    }

    /// The loose form: a blank line between term and definition, continuation blocks indented
    /// four spaces (paragraphs, code, lists) parsed as the definition's own, several
    /// definitions per term, both markers.
    @Test func looseDefinitionsHoldTheirIndentedBlocks() {
        let text = """
            Term 1

            :   First paragraph of the definition.

                Second paragraph, indented four spaces.

                    code inside the definition

                - one
                - two

            :   Another definition.

            Term 2
            ~ Definition with a tilde marker

            After.
            """
        let blocks = parsed(text)
        #expect(blocks.count == 3, "\(blocks.map(\.kind))")
        guard case .definitionList(let first)? = blocks.first?.kind, let item = first.first,
            case .definitionList(let second)? = blocks.dropFirst().first?.kind
        else {
            Issue.record("\(blocks.map(\.kind))")
            return
        }
        #expect(item.term == [.text("Term 1")])
        #expect(item.definitions.count == 2)
        let kinds = item.definitions.first?.map(\.kind) ?? []
        #expect(kinds.count == 4, "\(kinds)")
        #expect(kinds.first == .paragraph([.text("First paragraph of the definition.")]))
        #expect(kinds.dropFirst().first == .paragraph([.text("Second paragraph, indented four spaces.")]))
        #expect(kinds.dropFirst(2).first == .codeBlock(info: "", text: "code inside the definition\n"))
        guard case .list(let list)? = kinds.last else {
            Issue.record("no list: \(kinds)")
            return
        }
        #expect(list.items.count == 2 && !list.ordered)
        #expect(item.definitions.last?.map(\.kind) == [.paragraph([.text("Another definition.")])])
        #expect(second.first?.term == [.text("Term 2")])
        #expect(
            second.first?.definitions.map { $0.map(\.kind) } == [
                [.paragraph([.text("Definition with a tilde marker")])]
            ])
        #expect(blocks.last?.kind == .paragraph([.text("After.")]))
        // The second paragraph is located at its line (5), past the four columns.
        #expect(item.definitions.first?.dropFirst().first?.location?.line == 5)
    }

    /// What stays as it was: a two-line paragraph is no term, an indented block after a plain
    /// paragraph is code, an escaped marker is text.
    @Test func looseDefinitionsNeedAOneLineTermAndAMarker() {
        let twoLines = parsed("Line one\nline two\n\n:   Meaning\n")
        #expect(twoLines.count == 2)
        guard case .paragraph? = twoLines.last?.kind else {
            Issue.record("\(twoLines)")
            return
        }
        let code = parsed("Plain.\n\n    code\n")
        #expect(code.last?.kind == .codeBlock(info: "", text: "code\n"))
        // A continuation starting with `---` is a rule, not front matter; its warnings are
        // located in the file (an unclosed div at line 5, column 5).
        let ruled = MarkdownParser.parse("Term\n\n:   Meaning\n\n    ---\n    ::: note\n    Inside.\n", file: "t.md")
        guard case .definitionList(let items)? = Array(ruled.document.blocks).first?.kind else {
            Issue.record("\(Array(ruled.document.blocks))")
            return
        }
        #expect(items.first?.definitions.first?.dropFirst().first?.kind == .thematicBreak)
        #expect(ruled.diagnostics.count == 1, "\(ruled.diagnostics)")
        let unclosed = ruled.diagnostics.first { $0.message.contains("never closed") }
        #expect(unclosed?.location?.line == 6 && unclosed?.location?.column == 5, "\(ruled.diagnostics)")
        let escaped = parsed("Term\n\n\\:   Meaning\n")
        #expect(escaped.count == 2)
        guard case .paragraph? = escaped.last?.kind else {
            Issue.record("\(escaped)")
            return
        }
    }

    /// The windowed parse keeps a term, its definition and the definition's indented blocks in
    /// one segment: a tiny window gives what the whole-document conversion gives.
    @Test func looseDefinitionsSurviveTheWindowedParse() {
        let one = "Term\n\n:   First.\n\n    Second.\n\n        code\n\nText between.\n\n"
        let text = String(repeating: one, count: 20)
        let whole = Array(MarkdownParser.parse(text, file: "t.md", lazily: false).document.blocks)
        let windowed = Array(MarkdownParser.parse(text, file: "t.md", lazily: true, windowBytes: 0).document.blocks)
        #expect(whole.count == 40)
        #expect(whole == windowed)
        guard
            case .definitionList(let items)? = windowed.last(where: { $0.kind != .paragraph([.text("Text between.")]) }
            )?.kind
        else {
            Issue.record("\(windowed.suffix(2))")
            return
        }
        #expect(items.first?.definitions.first?.count == 3)
    }
}

/// Page breaks as writers spell them: LaTeX's `\newpage`, `\pagebreak`, `\clearpage` and
/// `\cleardoublepage` alone in a paragraph, and an HTML block element whose `style` breaks
/// the page before or after it (`page-break-after: always`, `break-before: page`).
@Suite struct PageBreakSpellingTests {
    func kinds(_ markdown: String) -> [String] {
        parse(markdown).document.blocks.map { block in
            switch block.kind {
            case .pageBreak: "break"
            case .paragraph(let inlines): inlines.plainText
            default: "other"
            }
        }
    }

    @Test(arguments: ["\\newpage", "\\pagebreak", "\\clearpage", "\\cleardoublepage"])
    func latexCommandsBreakThePage(command: String) {
        #expect(kinds("A.\n\n\(command)\n\nB.\n") == ["A.", "break", "B."])
    }

    @Test func htmlStylesBreakThePageBeforeOrAfter() {
        #expect(kinds("A.\n\n<div style=\"page-break-after: always;\"></div>\n\nB.\n") == ["A.", "break", "B."])
        #expect(kinds("A.\n\n<p style=\"color: red; break-before: page\">B.</p>\n") == ["A.", "break", "B."])
        #expect(kinds("<div style='PAGE-BREAK-BEFORE:ALWAYS'>\n\nA.\n\n</div>\n") == ["break", "A."])
        #expect(kinds("A.\n\n<p style=\"page-break-after: auto\">B.</p>\n") == ["A.", "B."])
        #expect(RawHTML.pageBreaks(style: "break-after: avoid-page") == (false, false))
    }
}

/// The sections Typeset names itself follow `lang` as babel names them for Pandoc's PDFs, by the
/// primary subtag, English otherwise.
@Suite struct SectionNameTests {
    @Test func namesFollowTheLanguage() {
        #expect(SectionNames.contents(language: "de-DE") == "Inhaltsverzeichnis")
        #expect(SectionNames.abstract(language: "de") == "Zusammenfassung")
        #expect(SectionNames.contents(language: "ko-KR") == "목차" && SectionNames.abstract(language: "ko") == "초록")
        #expect(SectionNames.contents(language: "FR_ca") == "Table des matières")
        // Right-to-left languages and scripts beyond Latin and CJK have their names too.
        #expect(
            SectionNames.contents(language: "he-IL") == "תוכן העניינים"
                && SectionNames.abstract(language: "he") == "תקציר")
        #expect(
            SectionNames.contents(language: "ar") == "المحتويات"
                && SectionNames.contents(language: "fa") == "فهرست مطالب")
        #expect(
            SectionNames.contents(language: "el") == "Περιεχόμενα" && SectionNames.contents(language: "th") == "สารบัญ")
        #expect(SectionNames.contents(language: "hi-IN") == "विषय सूची")
        #expect(
            SectionNames.contents(language: nil) == "Contents" && SectionNames.abstract(language: "tlh") == "Abstract")
    }
}
