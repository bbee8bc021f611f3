import DocumentModel
import Testing

@testable import MarkdownParser

/// Markdown the parser cannot set whole still loses no word in silence: raw HTML libxml2 gives
/// up on shows its text with a warning; a footnote definition nothing cites is named.
@Suite struct NothingLostTests {
    /// Every text of the blocks, in order, inline markup dropped.
    func text(_ blocks: [Block]) -> String {
        blocks.map { block -> String in
            switch block.kind {
            case .paragraph(let inlines), .heading(_, let inlines): inlines.plainText
            case .div(let inner), .blockQuote(let inner), .alert(_, let inner): text(inner)
            case .list(let list): list.items.map { text($0.blocks) }.joined(separator: " ")
            case .definitionList(let items):
                items.map { $0.term.plainText + " " + text(Array($0.definitions.joined())) }.joined(separator: " ")
            default: ""
            }
        }.joined(separator: " ")
    }

    /// Parses `lines` (joined, one per source line) and gives the result and the warnings whose
    /// message holds `phrase`, with their positions (`file:line:column`).
    func warnings(_ lines: [String], containing phrase: String) -> (
        result: ParseResult, found: [Diagnostic], at: [String]
    ) {
        let result = parse(lines.joined(separator: "\n") + "\n")
        let found = result.diagnostics.filter { $0.message.contains(phrase) }
        return (result, found, found.map { $0.location.map { "\($0.file):\($0.line):\($0.column)" } ?? "nowhere" })
    }

    func unparsedWarnings(_ result: ParseResult) -> [Diagnostic] {
        result.diagnostics.filter { $0.message.contains("HTML parser cannot read") }
    }

    /// libxml2 halts past 256 nested elements (without XML_PARSE_HUGE): the text inside, and
    /// after, is kept, with one warning at the HTML block's line and column.
    @Test(arguments: [300, 5_000])
    func deeplyNestedBlockHTMLKeepsItsText(depth: Int) {
        let html = String(repeating: "<div>", count: depth) + "deepword" + String(repeating: "</div>", count: depth)
        for source in [html + "\n", "Before.\n\n" + html + "\n\nAfter paragraph.\n"] {
            let result = parse(source)
            let shown = text(Array(result.document.blocks))
            #expect(shown.contains("deepword"), "\(depth): \(shown.prefix(200))")
            if source.hasPrefix("Before") { #expect(shown.contains("Before.") && shown.contains("After paragraph.")) }
            let warnings = unparsedWarnings(result)
            #expect(warnings.count == 1, "\(result.diagnostics)")
            let line = source.hasPrefix("Before") ? 3 : 1
            #expect(warnings.first?.location == SourceLocation(file: "t.md", line: line, column: 1))
        }
    }

    /// Inline tags arrive one at a time: nesting of any depth keeps the text, and needs no warning.
    @Test(arguments: [300, 5_000])
    func deeplyNestedInlineHTMLKeepsItsText(depth: Int) {
        let source =
            "Lead " + String(repeating: "<span><b>", count: depth) + "innerword"
            + String(repeating: "</b></span>", count: depth) + " tail.\n"
        let result = parse(source)
        let shown = text(Array(result.document.blocks))
        #expect(
            shown.contains("Lead") && shown.contains("innerword") && shown.contains("tail."), "\(shown.prefix(200))")
    }

    /// A text node past libxml2's 10,000,000-byte limit (XML_MAX_TEXT_LENGTH) halts the parser:
    /// the fragment is read as its stripped text instead, every word and entity kept.
    /// A form feed — white space to CommonMark, no glyph in any font — reads as a space
    /// wherever it is written: a paragraph, a list item, a table cell, a code block.
    @Test func aFormFeedIsASpace() {
        let markdown = "a\u{0C}b\n\n- c\u{0C}d\n\n| e\u{0C}f | g |\n|---|---|\n| h\u{0C}i | j |\n\n```\nk\u{0C}l\n```\n"
        let blocks = Array(parse(markdown).document.blocks)
        #expect(text(blocks).hasPrefix("a b c d "), "\(text(blocks))")
        var cells: [String] = []
        var code = ""
        for block in blocks {
            if case .table(let table) = block.kind {
                cells = (table.header + table.rows.joined()).map(\.plainText)
            }
            if case .codeBlock(_, let text) = block.kind { code = text }
        }
        #expect(cells == ["e f", "g", "h i", "j"], "\(cells)")
        #expect(code == "k l\n", "\(code)")
    }

    @Test func hugeTextNodeFallsBackToItsText() {
        let body = String(repeating: "longtext ", count: 1_200_000)  // 10.8 MB
        let html = "<div><p>start &amp; " + body + "endword</p></div>"
        let parsed = HTMLFragment.parseChecked(html)
        #expect(!parsed.complete)
        guard case .text(let shown)? = parsed.nodes.first else {
            Issue.record("no text node")
            return
        }
        #expect(shown.hasPrefix("  start & longtext") && shown.hasSuffix("endword  "), "\(shown.prefix(40))")
        #expect(shown.components(separatedBy: "longtext").count - 1 == 1_200_000)
    }

    /// What libxml2 reads whole is reported complete (no fallback, no warning).
    @Test func ordinaryHTMLIsComplete() {
        for html in [
            "<p>a <b>b</b></p>", "<details><summary>S</summary>body</details>", "if a < b",
            "<unknown-tag>x</unknown-tag>",
            String(repeating: "<div>", count: 200) + "x" + String(repeating: "</div>", count: 200),
        ] {
            #expect(HTMLFragment.parseChecked(html).complete, "\(html.prefix(40))")
        }
        #expect(parse("<div>\n<p>Fine <em>HTML</em></p>\n</div>\n").diagnostics.isEmpty)
    }

    /// The fallback text: tags and comments out, references decoded, a lone `<` kept.
    @Test func strippedText() {
        #expect(HTMLFragment.strippedText("<p title=\"a>b\">x &lt; y &#233;&#x41;</p><!-- c -->z") == " x < y éA z")
        #expect(HTMLFragment.strippedText("a < b <br/>c") == "a < b  c")
    }

    /// An uncited definition is named at its `[` — at the top level, in a quote, in a list
    /// item — and a cited one, or one inside a code block, is not.
    @Test func uncitedFootnotesAreNamed() {
        let (result, notes, at) = warnings(
            [
                "Cited[^a] and Cited again[^B].", "", "[^a]: first note.", "", "[^b]: second note.", "",  // lines 1–6
                "[^unused]: never cited.", "", "```", "[^code]: a code line", "```", "",  // lines 7–12
                "> [^quoted]: in a quote", "", "    [^indented]: indented code", "", "- item", "",  // lines 13–18
                "  [^listed]: in a list",  // line 19
            ], containing: "never cited")
        #expect(at == ["t.md:7:1", "t.md:13:3", "t.md:19:3"], "\(result.diagnostics)")
        #expect(notes.first?.message.contains("[^unused]") == true)
        #expect(result.document.footnotes.count == 2)
        #expect(parse("Text[^1].\n\n[^1]: note.\n").diagnostics.isEmpty)
    }

    /// A definition that opens a list item (`- [^a]: …`, `1. [^b]: …`, inside a quote too) is
    /// a note as one at the top level is: named when it is never cited or defined again, not
    /// dropped in silence.
    @Test func definitionsOpeningListItemsAreNamed() {
        let (result, notes, at) = warnings(
            [
                "Text[^dup].", "", "- [^bullet]: never cited.", "", "1. [^ordered]: never cited.", "",  // lines 1–6
                "> * [^quoted]: never cited.", "", "+ [^dup]: first.", "", "[^dup]: second.", "",  // lines 7–12
                "3) - [^nested]: never cited.",  // line 13
            ], containing: "footnote")
        #expect(at == ["t.md:3:3", "t.md:5:4", "t.md:7:5", "t.md:11:1", "t.md:13:6"], "\(result.diagnostics)")
        #expect(notes.filter { $0.message.contains("never cited") }.count == 4)
        #expect(notes.contains { $0.message.contains("[^dup] is defined again") })
        #expect(parse("Text[^a].\n\n- [^a]: cited.\n").diagnostics.isEmpty)
        #expect(parse("- item\n- [x] done\n").diagnostics.isEmpty)
    }

    /// A note cited only in its own text is kept by cmark-gfm (and set at the foot of the last
    /// page): it is not named as never cited, whether the text has blocks or not.
    @Test func aNoteCitedOnlyByItselfIsNotNamedAsNeverCited() {
        for text in ["[^a]: def only\n[^a]\n", "Body.\n\n[^a]: Cites itself[^a].\n"] {
            let result = parse(text)
            #expect(!result.diagnostics.contains { $0.message.contains("never cited") }, "\(result.diagnostics)")
            #expect(result.document.footnotes.count == 1, "\(text)")
        }
    }

    /// A definition whose label holds a space or a tab is no note to cmark-gfm (as to GitHub):
    /// it is text or a link reference definition, and is named as such where it is written, at
    /// the top level and in a quote, not as a note never cited.
    @Test func aLabelWithASpaceIsNamedAsText() {
        let (result, spaced, at) = warnings(
            ["Cited [^my note] here.", "", "[^my note]: spaced.", "", "> [^tab\tbed]: tabbed."],
            containing: "holds a space")
        #expect(at == ["t.md:3:1", "t.md:5:3"], "\(result.diagnostics)")
        #expect(spaced.first?.message.contains("write [^my-note]") == true, "\(spaced)")
        #expect(!result.diagnostics.contains { $0.message.contains("never cited") }, "\(result.diagnostics)")
        #expect(result.document.footnotes.isEmpty)
        let text = result.document.blocks.map { InlineNoteTests.inlines(of: $0).map(\.plainText).joined() }
        #expect(text == ["Cited ^my note here.", ""], "\(text)")  // both lines define links
    }

    /// A label defined again (at the top level, in a list item, in a quote, in another case) is
    /// named at the later definition with the line of the first, which is the one set.
    @Test func aSecondDefinitionOfALabelIsNamed() {
        let (result, again, at) = warnings(
            [
                "One[^a], two[^d] and three[^A].", "",  // lines 1–2
                "- item", "", "  [^d]: first d, in a list.", "",  // lines 3–6
                "[^d]: second d.", "",  // lines 7–8
                "[^a]: first a.", "",  // lines 9–10
                "> [^A]: second a, in a quote", "",  // lines 11–12
                "[^d]: third d.",  // line 13
            ], containing: "defined again")
        #expect(at == ["t.md:7:1", "t.md:11:3", "t.md:13:1"], "\(result.diagnostics)")
        #expect(again.first?.message.contains("line 5") == true)
        #expect(again.dropFirst().first?.message.contains("line 9") == true)
        #expect(!result.diagnostics.contains { $0.message.contains("never cited") })
        // The first definitions are the notes set.
        let notes = result.document.footnotes.values.map { "\($0)" }
        #expect(notes.contains { $0.contains("first d") } && notes.contains { $0.contains("first a") }, "\(notes)")
        #expect(!notes.contains { $0.contains("second") || $0.contains("third") })
    }

    /// A comment opened by an HTML block and never closed runs to the end of its container and
    /// hides everything in it: named at its `<!--` with the lines it hides — at the top level,
    /// in a quote, in a list item; a closed comment, even over several lines, is not.
    @Test func anUnclosedCommentIsNamed() {
        func warnings(_ text: String) -> [Diagnostic] {
            parse(text).diagnostics.filter { $0.message.contains("never closed") }
        }
        let top = warnings("Before.\n\n<!-- forgot to close\n\nImportant one.\n\n## Heading\n\nImportant two.\n")
        #expect(top.map(\.location) == [SourceLocation(file: "t.md", line: 3, column: 1)])
        #expect(top.first?.message.contains("the 6 lines after it") == true, "\(top)")
        let quoted = warnings("> quote\n> <!-- open\n> hidden\n\nafter the quote\n")
        #expect(quoted.map(\.location) == [SourceLocation(file: "t.md", line: 2, column: 3)])
        #expect(parse("> quote\n> <!-- open\n> hidden\n\nafter the quote\n").document.blocks.count == 2)
        let listed = warnings("- item\n\n  <!-- open\n  hidden\n")
        #expect(listed.map(\.location) == [SourceLocation(file: "t.md", line: 3, column: 3)])
        #expect(warnings("a\n\n<!-- closed -->\n\nb\n").isEmpty)
        #expect(warnings("a\n\n<!-- over\nseveral\n\nlines -->\n\nb\n").isEmpty)
        #expect(warnings("a\n\n<!-- at the very end").isEmpty)
    }
}

/// A pipe table whose header and delimiter rows have different numbers of cells is no table
/// to GitHub: its lines are set as text, and that is said at the delimiter row — at the top
/// level, in a quote, in a list item; rows of as many cells are a table, and a line of pipes
/// and hyphens after prose with no pipe is not taken for one.
@Suite struct MismatchedDelimiterRowTests {
    func warnings(_ markdown: String) -> [String] {
        MarkdownParser.parse(markdown, file: "t.md").diagnostics.filter { $0.message.contains("delimiter row") }.map {
            "\($0.location.map { "\($0.line):\($0.column)" } ?? "nowhere") \($0.message)"
        }
    }

    @Test func aDelimiterRowOfOtherCellsIsNamed() {
        let top = warnings("| a | b |\n|---|\n| 1 | 2 |\n")
        #expect(top.count == 1 && top[0].hasPrefix("2:1 a table's header row has 2 cells and its delimiter row 1"))
        #expect(warnings("> | x | y | z |\n> |---|---|\n").map { $0.prefix(4) } == ["2:3 "])
        #expect(warnings("- | p | q |\n  |:-:|\n").map { $0.prefix(4) } == ["2:3 "])
        #expect(warnings("| ok | fine |\n|----|------|\n| 1 | 2 |\n").isEmpty)
        #expect(warnings("Prose without a pipe\n|---|---|\n").isEmpty)
        let both = warnings("| a | b |\n|---|\n\n| a | b | c |\n|---|\n")
        #expect(both.count == 2, "each such table is named: \(both)")
    }
}

/// Table cells past the delimiter row's count, which GitHub (and cmark-gfm) drop: one warning
/// a table at the first such cell, quoting their text, counting the rows; a row whose extra
/// cells are empty loses nothing and is not named.
@Suite struct ExcessTableCellTests {
    func warnings(_ markdown: String) -> [String] {
        parse(markdown).diagnostics.filter { $0.message.contains("is not set, as GitHub") }.map { warning in
            "\(warning.location.map { "\($0.line):\($0.column)" } ?? "nowhere") \(warning.message)"
        }
    }

    @Test func extraCellsAreNamedWhereTheyBegin() throws {
        let found = warnings("| A | B |\n|---|---|\n| 1 | 2 |  3 extra |\n| `x|y` | z |\n| p | q | |\n")
        #expect(found.count == 1, "\(found)")
        let warning = try #require(found.first)
        #expect(warning.hasPrefix("3:12 table row has 3 cells but the table has 2 columns: '3 extra'"), "\(warning)")
        #expect(warning.hasSuffix("(2 rows like this in all)"), "\(warning)")
    }

    /// Inside a quote (the row starts past `> `), with an escaped pipe (not a cell's edge), and
    /// a row with no pipe at its end.
    @Test func theRowIsReadFromWhereItStarts() {
        #expect(warnings("> | a |\n> |---|\n> | b | c |\n").map { $0.prefix(4) } == ["3:9 "])
        #expect(warnings("| a | b |\n|---|---|\n| e\\|f | g |\n").isEmpty)
        #expect(warnings("a | b\n--|--\n1 | 2 | three\n").map { $0.prefix(4) } == ["3:9 "])
    }
}

/// A note cited only in the front matter (`title: "A[^t]"`) is not set, as one never cited is
/// not, but the warning says where its marker is and why it sets nothing; a note cited nowhere
/// keeps the plain warning.
@Suite struct FrontMatterCitationTests {
    @Test func aNoteCitedOnlyInTheFrontMatterIsNamedSo() {
        let result = parse("---\ntitle: \"A title[^t] here\"\n---\n\nBody.[^b]\n\n[^t]: T.\n\n[^b]: B.\n\n[^u]: U.\n")
        let messages = result.diagnostics.map { "\($0.location?.line ?? 0) \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("7 footnote [^t] is cited only in the front matter") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("11 footnote [^u] is never cited") }, "\(messages)")
        #expect(messages.count == 2, "\(messages)")
    }
}
