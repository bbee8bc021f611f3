import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

@Suite struct StylerTests {
    func style(_ markdown: String, options: StylingOptions = StylingOptions()) -> StyledDocument {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default, options: options)
    }

    /// A thematic break inside quotes and alerts names the quotes its bars belong to, as the
    /// paragraphs around it do in their structure.
    @Test func aRuleInsideAQuoteNamesItsQuotes() throws {
        for markdown in ["> a\n>\n> ---\n>\n> b\n", "> [!TIP]\n> a\n>\n> ***\n", "> a\n> > b\n> >\n> > ---\n"] {
            let blocks = style(markdown).blocks
            let rule = try #require(blocks.first { if case .rule = $0.content { true } else { false } }, "\(markdown)")
            let quoted = try #require(blocks.last { if case .paragraph = $0.content { true } else { false } })
            let owners = quoted.structure.filter { $0.role == .blockQuote || $0.role == .note }.map(\.id)
            #expect(!rule.quoteBarOwners.isEmpty && rule.quoteBarOwners == owners, "\(markdown)")
            #expect(rule.quoteBars.count == rule.quoteBarOwners.count, "\(markdown)")
        }
    }

    func paragraphs(_ doc: StyledDocument) -> [StyledParagraph] {
        doc.blocks.compactMap { if case .paragraph(let p) = $0.content { return p } else { return nil } }
    }

    @Test func headingsMapOntoTheScale() {
        let doc = style("# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six\n\nBody")
        let sizes = paragraphs(doc).map(\.style.baseFont.size)
        let theme = Theme.default
        #expect(
            sizes == [
                theme[.largeTitle].size, theme[.title].size, theme[.title3].size, theme[.headline].size,
                theme[.body].size, theme[.caption].size, theme[.body].size,
            ])
        #expect(doc.blocks.prefix(6).allSatisfy { $0.keepWithNext })
        #expect(doc.firstHeading == "One")
    }

    @Test func justifyLeavesHeadingsAlone() {
        let doc = style("# Heading\n\nBody text.", options: StylingOptions(justify: true))
        #expect(paragraphs(doc).map(\.style.alignment) == [.left, .justify])
        let aligned = style("# Heading {align=justify}\n\nBody.", options: StylingOptions(justify: true))
        #expect(paragraphs(aligned)[0].style.alignment == .justify)
    }

    @Test func inlineStylesResolve() {
        let runs = paragraphs(style("a *b* **c** `d` ~~e~~ [f](https://x.y)"))[0].runs
        func run(_ text: String) -> RunStyle? { runs.first { $0.text == text }?.style }
        #expect(run("b")?.font.italic == true)
        #expect(run("c")?.font.weight == .bold)
        #expect(run("d")?.font.families == Theme.default.monospaceFamilies)
        #expect(run("e")?.strikethrough != nil)
        #expect(run("f")?.link == .external("https://x.y"))
    }

    @Test func trackingWinsOverKerningAndKerningAloneReplacesInheritedTracking() {
        let runs = paragraphs(style("[a]{kerning=2 tracking=1} [b]{.display kerning=3} [c]{.display}"))[0].runs
        func spacing(_ text: String) -> Double? { runs.first { $0.text == text }?.style.letterSpacing }
        #expect(spacing("a") == 1)
        #expect(spacing("b") == 3, "kerning set on a span replaces the role's tracking")
        #expect(spacing("c") == Theme.default[.display].letterSpacing)
    }

    @Test func spanRoleKeepsInheritedColourUnlessSet() {
        let runs = paragraphs(style("::: {color=#FF0000}\nx [y]{.headline} [z]{.caption color=#00FF00}\n:::"))[0].runs
        #expect(runs.first { $0.text == "y" }?.style.color == RGBAColor(hex: "#FF0000"))
        #expect(runs.first { $0.text == "z" }?.style.color == RGBAColor(hex: "#00FF00"))
        #expect(runs.first { $0.text == "y" }?.style.font.size == Theme.default[.headline].size)
    }

    @Test func divRoleGivesItsParagraphsTheRole() {
        let doc = style("::: {.caption}\nFirst.\n\nSecond.\n:::\n\nAfter.")
        #expect(paragraphs(doc).map(\.style.baseFont.size) == [9, 9, 10.5])
    }

    @Test func listsNestWithMarkersAndNumbers() {
        let doc = style("3. three\n4. four\n   - nested\n     - deeper\n       - deepest\n- [x] done")
        let ps = paragraphs(doc)
        #expect(ps.map { $0.marker?.first?.text } == ["3.", "4.", "◦", "▪", "–", "☑"])
        // The delimiter as written: `1)` stays `1)`, and a `)` list after a `.` list is its own.
        let parenthesized = paragraphs(style("1) one\n2) two\n\n1. dot\n\nText.\n\n7) seven\n"))
        #expect(parenthesized.map { $0.marker?.first?.text } == ["1)", "2)", "1.", nil, "7)"])
        let indents = ps.map(\.style.leftIndent)
        #expect(indents[1] < indents[2] && indents[2] < indents[3] && indents[3] < indents[4])
    }

    @Test func unknownAttributesWarnAndHTMLIsReported() {
        let doc = style(
            "Text [x]{.captio foo=1 sizee=12 colr=red dir=rtl custom-style=Quote data-x=1 target=_blank}.\n\n"
                + "<div>shown</div>\n\n<marquee>moving</marquee>\n")
        let messages = doc.diagnostics.map(\.description)
        #expect(
            messages.contains {
                $0.hasPrefix("t.md:1:") && $0.contains("unknown role '.captio'; did you mean '.caption'?")
            })
        // A key one edit from one Typeset reads is a slip; any other is kept for other tools, silent.
        #expect(messages.contains { $0.contains("unknown attribute 'sizee'; did you mean 'size'?") }, "\(messages)")
        #expect(messages.contains { $0.contains("unknown attribute 'colr'; did you mean 'color'?") })
        for key in ["foo", "dir", "custom-style", "data-x", "target"] {
            #expect(!messages.contains { $0.contains("'\(key)'") }, "\(key): \(messages)")
        }
        #expect(!messages.contains { $0.hasPrefix("t.md:3:") }, "a <div> is rendered: nothing to report")
        let parsed = MarkdownParser.parse("<marquee>moving</marquee>\n", file: "t.md").diagnostics.map(\.description)
        #expect(parsed.contains { $0.hasPrefix("t.md:1:") && $0.contains("<marquee>") }, "\(parsed)")
        #expect(paragraphs(doc).contains { $0.text == "shown" } && paragraphs(doc).contains { $0.text == "moving" })
    }

    @Test func danglingAndUnsafeLinksWarn() {
        let doc = style(
            "# Head\n\n[ok](#head) [bad](#nowhere) [js](javascript:alert(1)) [empty]() [mail](mailto:a@b.c)")
        let messages = doc.diagnostics.map(\.description)
        #expect(
            messages.contains { $0.hasPrefix("t.md:3:") && $0.contains("'#nowhere' matches no heading") }, "\(messages)"
        )
        #expect(
            paragraphs(doc)[1].runs.first { $0.text == "bad" }?.style.link == nil, "a link to nowhere is plain text")
        #expect(paragraphs(doc)[1].runs.first { $0.text == "ok" }?.style.link == .internal("head"))
        #expect(messages.contains { $0.hasPrefix("t.md:3:") && $0.contains("'javascript:'") })
        #expect(!messages.contains { $0.contains("#head") })
        let runs = paragraphs(doc)[1].runs
        #expect(runs.first { $0.text == "js" }?.style.link == nil)
        #expect(runs.first { $0.text == "empty" }?.style.link == nil)
        #expect(runs.first { $0.text == "mail" }?.style.link == .external("mailto:a@b.c"))
    }

    /// GitHub's id of a heading written with `--` or `---` (`#install----linux`) reaches the
    /// heading, whose smart dash is no letter of its own id (`install--linux`); exact ids win.
    @Test func gitHubIdsOfHeadingsWithDashesReachThem() {
        let doc = style(
            "## Install -- Linux\n\n## Foo & Bar --- Baz\n\n[a](#install----linux) [b](#foo--bar-----baz)\n")
        let messages = doc.diagnostics.map(\.description)
        #expect(!messages.contains { $0.contains("matches no heading") }, "\(messages)")
        let runs = paragraphs(doc).last?.runs ?? []
        #expect(runs.first { $0.text == "a" }?.style.link != nil)
        #expect(runs.first { $0.text == "b" }?.style.link != nil)
    }

    /// The syntax of site generators, set as written, is named once a kind at its first place:
    /// Liquid tags, Hugo shortcodes, template expressions, MkDocs admonitions and content tabs,
    /// MDX imports; in code, and as ordinary prose, it is not.
    @Test func siteGeneratorSyntaxIsNamed() {
        let cases: [(String, String)] = [
            ("Text {% include note.html %} here.", "Liquid tag (Jekyll)"),
            ("{{< figure src=\"x.png\" >}}", "Hugo shortcode"), ("{{% notice info %}}", "Hugo shortcode"),
            ("Welcome to {{ site.title }}.", "template expression"),
            ("!!! note \"Before you begin\"\n    Body.", "MkDocs admonition"),
            ("=== \"Linux\"\n\n    apt install x", "MkDocs content tab"),
            ("import Tabs from '@theme/Tabs';", "MDX import"),
        ]
        for (markdown, kind) in cases {
            let doc = style("Lead.\n\n" + markdown + "\n\nAfter {% tag %} again.\n")
            let named = doc.diagnostics.filter {
                $0.message.contains("site generator") || $0.message.contains("MkDocs")
                    || $0.message.contains("MDX")
            }
            #expect(named.first?.message.contains(kind) == true, "\(markdown): \(named)")
            #expect(named.first?.location?.line == 3, "\(markdown): \(named)")
        }
        for markdown in [
            "`{% raw %}` in code", "```\n{{ x }}\n```", "Braces {like this} and !!! emphasis", "Import the data.",
        ] {
            let doc = style(markdown + "\n")
            #expect(
                !doc.diagnostics.contains { $0.message.contains("site generator") }, "\(markdown): \(doc.diagnostics)")
        }
    }

    /// GitHub's emoji shortcodes are their emoji in running text, emphasis, links and headings
    /// (their bookmarks too), as GitHub and Pandoc's `emoji` extension read them; code, a
    /// formula, a name no emoji has and a time keep their colons; a heading's id is made of its
    /// text as written (GitHub's `#desert_island-installation`).
    @Test func emojiShortcodesAreTheirEmoji() throws {
        try #require(EmojiShortcodes.isAvailable, "node-emoji's table at \(EmojiShortcodes.tablePath)")
        let doc = style(
            "## :desert_island: Installation\n\nAt 12:30:45 :tada: :+1: **:fire:** "
                + "[go :zap:](#desert_island-installation) `:smile:` $a:b:c$ :no_such_emoji: a:smile:b\n\n"
                + "```\n:smile:\n```\n")
        let texts = paragraphs(doc).map(\.text)
        #expect(texts.first == "🏝️ Installation", "\(texts)")
        #expect(doc.blocks.first?.anchor == "desert_island-installation")
        #expect(doc.blocks.first?.outline?.title == "🏝️ Installation")
        let running = try #require(texts.first { $0.hasPrefix("At ") })
        #expect(running.hasPrefix("At 12:30:45 🎉 👍 🔥 go ⚡ :smile: "), "\(running)")
        #expect(running.contains(":no_such_emoji: a😄b"), "\(running)")
        #expect(texts.contains(":smile:"), "a code block keeps its text")
        #expect(!doc.diagnostics.contains { $0.message.contains("matches no heading") }, "\(doc.diagnostics)")
        #expect(EmojiShortcodes.replacing(in: "::rocket: :: :rocket") == ":🚀 :: :rocket")
    }

    /// A fenced block GitHub draws instead of showing its code (Mermaid, GeoJSON and TopoJSON
    /// maps, STL models) is set as its source and named at its fence, whatever case its
    /// language is written in; code in a language GitHub shows as code is not named.
    @Test func blocksGitHubDrawsAreNamed() {
        let doc = style(
            "```mermaid\ngraph TD; A-->B\n```\n\n```Mermaid\nsequenceDiagram\n```\n\n```topojson\n{}\n```\n\n"
                + "```stl\nsolid x\n```\n\n```python\nx = 1\n```\n\n```{.mermaid}\ngraph LR\n```\n")
        let named = doc.diagnostics.filter { $0.message.hasPrefix("GitHub draws a ```") }
        #expect(named.compactMap(\.location?.line) == [1, 5, 9, 13, 21], "\(named.map(\.description))")
        #expect(named.first?.message.contains("as a Mermaid diagram; it is set here as its source") == true)
        #expect(named[2].message.contains("```topojson block as a map"), "\(named[2].message)")
        #expect(paragraphs(doc).contains { $0.text == "graph TD; A-->B" }, "the source is set")
    }

    /// GitHub's element ids, `user-content-` and the id (`#user-content-faq`, a note's
    /// `#user-content-fn-1`), reach the heading or note; a prefix before nothing, or before no
    /// destination, still warns.
    @Test func gitHubsElementIdsReachTheirDestinations() {
        let doc = style(
            "## FAQ\n\n## Install & Run\n\nSee[^1].\n\n[a](#user-content-faq) [b](#User-Content-install--run) "
                + "[c](#user-content-fn-1) [d](#user-content-) [e](#user-content-nowhere)\n\n[^1]: A note.\n")
        let messages = doc.diagnostics.map(\.message).filter { $0.contains("matches no heading") }
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.contains { $0.contains("'#user-content-'") } && messages.contains { $0.contains("nowhere") })
        let runs = paragraphs(doc).first { $0.text.hasPrefix("a b") }?.runs ?? []
        #expect(runs.first { $0.text == "a" }?.style.link == .internal("faq"), "\(runs.map(\.style.link))")
        #expect(runs.first { $0.text == "b" }?.style.link == .internal("install--run"))
        #expect(runs.first { $0.text == "c" }?.style.link == .internal("fn-1"))
        #expect(runs.first { $0.text == "d" }?.style.link == nil)
    }

    /// Pandoc's identifier of a heading (`auto_identifiers`: its text from the first letter on,
    /// punctuation dropped, words joined by one hyphen) reaches the heading too: a document
    /// written for Pandoc links to `#results-discussion` for `# 2024 Results & Discussion`,
    /// where GitHub's id is `2024-results--discussion`. Members: leading digits, leading
    /// punctuation and digits, an ampersand between words; a fragment that is no heading's in
    /// either form still warns.
    /// A heading's text written as a reference link (Pandoc's implicit heading references)
    /// reaches the heading, with no warning.
    @Test func implicitHeadingReferencesReachTheirHeadings() {
        let doc = style(
            "# 2024 Results & Discussion\n\n## Setup *steps*\n\nSee [2024 Results & Discussion] and "
                + "[the steps][Setup *steps*].\n")
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
        let runs = paragraphs(doc).last?.runs ?? []
        for text in ["2024 Results & Discussion", "the steps"] {
            #expect(runs.first { $0.text == text }?.style.link != nil, "\(text): \(runs.map(\.text))")
        }
    }

    @Test func pandocIdsOfHeadingsReachThem() {
        let doc = style(
            "# 2024 Results & Discussion\n\n## 3.1 (Draft) Notes\n\n## Q&A\n\n"
                + "[a](#results-discussion) [b](#draft-notes) [c](#qa) [d](#discussion)\n")
        let messages = doc.diagnostics.map(\.description)
        #expect(messages.filter { $0.contains("matches no heading") }.count == 1, "\(messages)")
        #expect(messages.contains { $0.contains("'#discussion' matches no heading") }, "\(messages)")
        let runs = paragraphs(doc).last?.runs ?? []
        for text in ["a", "b", "c"] { #expect(runs.first { $0.text == text }?.style.link != nil, "\(text)") }
    }

    /// A link's address over 64 KiB is not made a link (its text is set), with a warning where
    /// it is written; one of 64 KiB is a link. Links, bare URLs and reference links alike.
    @Test func anAddressOverSixtyFourKiBIsNoLink() {
        let long = "https://example.com/" + String(repeating: "a", count: 70_000)
        let fits = "https://example.com/" + String(repeating: "b", count: 65_536 - 20)
        let doc = style("Text [long](\(long)) [fits](\(fits)) \(long) [ref][r]\n\n[r]: \(long)\n")
        let runs = paragraphs(doc)[0].runs
        #expect(runs.first { $0.text == "long" }?.style.link == nil)
        #expect(runs.first { $0.text == "fits" }?.style.link == .external(fits))
        #expect(runs.first { $0.text == "ref" }?.style.link == nil)
        #expect(!runs.contains { $0.style.link == .external(long) })
        let warnings = doc.diagnostics.filter { $0.message.contains("over the 65536 a link may have") }
        #expect(warnings.count == 3, "\(doc.diagnostics.map(\.description))")
        #expect(warnings.first?.location?.line == 1)
        #expect(paragraphs(doc)[0].text.contains(long))
    }

    @Test func slugsKeepHangulAndDeduplicate() {
        var slugs = SlugGenerator()
        #expect(slugs.slug(for: "한국어 타이포그래피") == "한국어-타이포그래피")
        #expect(slugs.slug(for: "Hello, World!") == "hello-world")
        #expect(slugs.slug(for: "Hello, World!") == "hello-world-1")
        #expect(slugs.slug(for: "Hello World 1") == "hello-world-1-1", "a generated id is never handed out twice")
        #expect(slugs.register("intro") && !slugs.register("intro"))
        #expect(slugs.slug(for: "Intro") == "intro-1")
    }

    @Test func headingIdsAreUniqueAndLinksInTablesAreChecked() {
        let doc = style("# Intro {#x}\n\n# Other {#x}\n\n# A\n\n# A\n\n| [x](#missing) | y |\n|---|---|\n| 1 | 2 |\n")
        let anchors = doc.blocks.compactMap(\.anchor)
        #expect(anchors == ["x", "a", "a-1"], "the second #x gets no destination")
        let messages = doc.diagnostics.map(\.description)
        #expect(messages.contains { $0.hasPrefix("t.md:3:") && $0.contains("'#x' is already used") }, "\(messages)")
        #expect(messages.contains { $0.contains("'#missing'") })
    }

    @Test func footnotesAttachToTheBlockHoldingTheReference() {
        let doc = style("First.\n\nSecond with a note.[^n]\n\n[^n]: The note.")
        #expect(doc.blocks[0].footnotes.isEmpty)
        #expect(doc.blocks[1].footnotes[1]?.first?.paragraphs.first?.text == "The note.")
    }

    /// A note that opens with a list sets its number on a line of its own and keeps every
    /// item's marker (bullets, numbers, task boxes); one that opens with text sets the number
    /// beside it.
    @Test(arguments: [
        ("- one\n    - two", ["•", "•"]), ("3. one\n    4. two", ["3.", "4."]),
        ("- [ ] one\n    - [x] two", ["☐", "☑"]),
    ])
    func aNoteOpeningWithAListKeepsItsMarkers(list: String, markers: [String]) {
        let doc = style("Text.[^n]\n\n[^n]: \(list)")
        let note = (doc.blocks[0].footnotes[1] ?? []).flatMap(\.paragraphs)
        #expect(note.map(\.text) == ["", "one", "two"])
        #expect(note.map { $0.marker?.map(\.text).joined() } == ["1"] + markers)
        let prose = (style("Text.[^n]\n\n[^n]: Some text.").blocks[0].footnotes[1] ?? []).flatMap(\.paragraphs)
        #expect(prose.map(\.text) == ["Some text."])
        #expect(prose.first?.marker?.first?.text == "1")
    }

    /// A task in an ordered list keeps its number as its marker, in the column of the other
    /// items' numbers, and its box opens its text, as GitHub draws it; a bullet list's task
    /// shows the box alone as its marker.
    @Test(arguments: [
        ("1. [ ] first\n2. [x] second\n3. plain", ["1.", "2.", "3."], ["☐\u{00A0}first", "☑\u{00A0}second", "plain"]),
        ("7. [x] seven\n8. [ ] eight", ["7.", "8."], ["☑\u{00A0}seven", "☐\u{00A0}eight"]),
        ("- [ ] one\n- [x] two\n- three", ["☐", "☑", "•"], ["one", "two", "three"]),
        ("> 1. [ ] quoted", ["1."], ["☐\u{00A0}quoted"]),
        ("1. [ ]\n2. [x]", ["1.", "2."], ["☐\u{00A0}", "☑\u{00A0}"]),
    ])
    func orderedTasksKeepTheirNumbers(markdown: String, markers: [String], texts: [String]) {
        let drawn = paragraphs(style(markdown))
        #expect(drawn.map { $0.marker?.map(\.text).joined() ?? "" } == markers, "\(drawn)")
        #expect(drawn.map(\.text) == texts, "\(drawn.map(\.text))")
    }

    /// A note's quote keeps its bar and its code its panel, shifted with the note's text; a
    /// note that opens with either sets its number on a line of its own.
    @Test func aNotesQuotesAndCodeKeepTheirBarsAndPanels() {
        let doc = style("Text.[^n]\n\n[^n]: > Quoted.\n\n    ```\n    code\n    ```\n\n    After.")
        let note = doc.blocks[0].footnotes[1] ?? []
        #expect(note.map { $0.paragraphs.first?.text } == ["", "Quoted.", "code", "After."])
        #expect(note[0].paragraphs.first?.marker?.first?.text == "1" && note[0].quoteBars.isEmpty)
        let hang = note[3].paragraphs.first?.style.leftIndent ?? 0
        #expect(hang > 0)
        #expect(note[1].quoteBars.count == 1 && (note[1].quoteBars.first ?? 0) >= hang, "\(note[1].quoteBars)")
        #expect(note[2].background != nil && (note[2].paragraphs.first?.style.leftIndent ?? 0) >= hang)
        #expect(note[1].quoteBars.isEmpty == false && note[3].quoteBars.isEmpty && note[3].background == nil)
    }

    /// A table in a note is set as lines of text, a row a line, its header first and its
    /// cells apart by a bar, so that no word and no note marker in it is lost: a note cited
    /// in a cell keeps its marker and is set with the note. One warning says so.
    @Test(arguments: ["| x | y |\n    |---|---|\n    | 1 | 2[^b] |", "|   |   |\n    |---|---|\n    | 1 | 2[^b] |"])
    func aTableInANoteIsSetAsLinesOfText(table: String) {
        let doc = style("Text.[^a]\n\n[^a]: Has a table:\n\n    \(table)\n\n[^b]: Nested.")
        let notes = doc.blocks[0].footnotes
        let lines = (notes[1] ?? []).map { $0.paragraphs.first?.text ?? "" }
        let header = table.hasPrefix("| x") ? ["x\u{2002}|\u{2002}y"] : []
        #expect(lines == ["Has a table:"] + header + ["1\u{2002}|\u{2002}22"], "\(lines)")
        #expect(notes[2]?.first?.paragraphs.first?.text == "Nested.", "\(notes.keys.sorted())")
        let warnings = doc.diagnostics.filter { $0.message.contains("table") }
        #expect(warnings.count == 1 && warnings.first?.message.contains("as lines of text") == true, "\(warnings)")
        #expect(!doc.diagnostics.contains { $0.message.contains("last page") }, "\(doc.diagnostics)")
    }

    /// Pandoc's line block (every line opening with `| `) is set as its lines: the `| ` dropped,
    /// a line break after each line, a line's opening spaces kept as no-break spaces, an empty
    /// `|` line an empty line; no warning. Members: two lines, an indented line, an empty line,
    /// emphasis inside; a line block written escaped stays text.
    @Test func aLineBlockIsSetAsItsLines() {
        let doc = style("| The limerick *packs*\n|    laughs anatomical\n|\n| Into space\n")
        #expect(!doc.diagnostics.contains { $0.message.contains("Pandoc's") }, "\(doc.diagnostics)")
        let runs = doc.blocks.flatMap(\.paragraphs).flatMap(\.runs)
        let text = runs.map(\.text).joined()
        #expect(
            text == "The limerick packs\u{2028}\u{00A0}\u{00A0}\u{00A0}laughs anatomical\u{2028}\u{2028}Into space",
            "\(text.debugDescription)")
        #expect(runs.contains { $0.text == "packs" && $0.style.font.italic })
        let escaped = style("\\| The limerick packs\n| In space\n").blocks.flatMap(\.paragraphs).flatMap(\.runs)
        #expect(escaped.map(\.text).joined().hasPrefix("| The limerick"))
    }

    /// Pandoc's block syntax that CommonMark reads as text — a grid table whose cells span, an
    /// example list, a table's `Table:` caption, and list markers of letters, Roman numerals,
    /// `#` or Hangul on lines directly after text, or a capital and a period with one space
    /// after it, where Pandoc opens no list — is set as text
    /// with a warning at its first line; prose that only starts alike (`A. Smith`, one `i.`
    /// line), a pipe table, an opening written escaped (`\(@)`) and a list that opens as
    /// Pandoc's do (after a blank line, under an item's text) are not warned about.
    @Test func pandocOnlyBlockSyntaxIsNamed() {
        let warned: [(String, String, Int)] = [
            ("+---+---+\n| a     |\n+===+===+\n| 1 | 2 |\n+---+---+", "grid table with cells that span", 3),
            ("Prose\n(@) First.\n(@) Second.", "example list", 3),
            ("Table: Sales by month. {#tbl:sales}", "table caption", 3),
            ("Some prose before\n(a) alpha\n(b) beta", "letters", 3),
            ("Prose\nii. two\niii. three", "Roman", 3), ("Prose\n#. one\n#. two", "# as markers", 3),
            ("Prose\n가. 첫째\n나. 둘째", "counted in Hangul", 3),
            ("A. one\nB. two", "two spaces after it", 3),
        ]
        for (markdown, name, line) in warned {
            let doc = style("Lead.\n\n" + markdown + "\n")
            let warnings = doc.diagnostics.filter { $0.message.contains("Pandoc") }
            #expect(warnings.count == 1 && warnings.first?.message.contains(name) == true, "\(markdown): \(warnings)")
            #expect(warnings.first?.location?.line == line, "\(markdown): \(warnings)")
        }
        for markdown in [
            "A. Smith wrote this.", "i. alone on a line", "| a | b |\n|---|---|\n| 1 | 2 |", "Plain text.",
            "(a) alone on a line", "Table of contents.", "(see below) and\n(more) text",
            "Prose that wraps before\nI. once only", "1. one\n2. two\n   a. once", "a) alpha\nb) beta",
            "1. one\n2. two\n   a. nested\n   b. nested two", "- item\n  i. first\n  ii. second", "가. 첫째\n나. 둘째",
            "(@) First.\n(@) Second.", "(@a_much_longer_label) one",
            // Written escaped, the opening is text by intent.
            "\\(@) First.\n(@) Second.", "\\| The limerick packs\n| In space", "> \\(@) First.\n> (@) Second.",
        ] {
            let doc = style(markdown + "\n")
            let warnings = doc.diagnostics.filter { $0.message.contains("Pandoc") }
            #expect(warnings.isEmpty, "\(markdown): \(doc.diagnostics)")
        }
    }

    /// An image shown as its alt text inside a line reads on its panel whatever the theme's
    /// panel colour: its text meets WCAG AA contrast (4.5:1) on a light and on a dark panel.
    @Test(arguments: ["#F3F4F7", "#202020", "#7A7A7A"])
    func anInlineImagesAltTextReadsOnItsPanel(panel: String) throws {
        var theme = Theme.default
        theme.colors["codeBackground"] = RGBAColor(hex: panel)!
        let doc = Styler.style(
            MarkdownParser.parse("Text ![remote alt](https://e.org/x.png) here.\n", file: "t.md").document,
            theme: theme, options: StylingOptions())
        let run = try #require(paragraphs(doc).first?.runs.first { $0.text == "remote alt" })
        let background = try #require(run.style.background)
        #expect(run.style.color.contrastRatio(against: background) >= 4.5, "\(panel): \(run.style.color)")
    }

    /// An image kept out of a figure by a backslash after it (Pandoc's idiom) is set at its own
    /// size at the text's edge without a caption, with its width attribute; with text beside
    /// it, it stays in its line.
    @Test func anImageKeptOutOfAFigureHasNoCaption() throws {
        for markdown in ["![Not a figure](p.png)\\\n", "![Sized](p.png){width=50%}\\\n"] {
            let doc = style("Lead.\n\n" + markdown)
            let image = try #require(
                doc.blocks.compactMap { block -> StyledImage? in
                    if case .image(let image) = block.content { return image } else { return nil }
                }.first, "\(markdown.debugDescription)")
            #expect(image.caption == nil && image.alignment == .left, "\(markdown.debugDescription)")
            #expect(markdown.contains("width") == (image.width != nil))
        }
        let inline = style("See ![a](p.png)\\\n")
        #expect(!inline.blocks.contains { if case .image = $0.content { true } else { false } })
    }

    /// A figure's caption keeps its alt text's emphasis, strong emphasis, code and formulas,
    /// as Pandoc's implicit figures do; the alt text (the PDF's /Alt) stays plain.
    @Test func aCaptionKeepsItsInlineFormatting() throws {
        let doc = style("![A *soft* and **strong** `code` $x$ caption](pic.png)\n")
        let image = try #require(
            doc.blocks.compactMap { block -> StyledImage? in
                if case .image(let image) = block.content { return image } else { return nil }
            }.first)
        let runs = try #require(image.caption?.runs)
        #expect(image.alt == "A soft and strong code x caption", "\(image.alt)")
        #expect(runs.contains { $0.text == "soft" && $0.style.font.italic })
        #expect(runs.contains { $0.text == "strong" && $0.style.font.weight.rawValue >= 600 })
        #expect(runs.contains { $0.text == "code" && $0.style.isCode })
        #expect(runs.contains { $0.style.inlineFormula != nil })
    }

    /// An alert's label follows the language of the text it is in: Korean labels (참고, 팁,
    /// 중요, 경고, 주의) in a Korean document, English ones in an English div inside it, and
    /// English labels in an English document.
    @Test func alertLabelsFollowTheLanguage() {
        let alerts = ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"].map { "> [!\($0)]\n> Body." }
        let markdown = alerts.joined(separator: "\n\n") + "\n\n::: {lang=en}\n> [!NOTE]\n> Body.\n:::\n"
        var korean = StylingOptions()
        korean.language = "ko"
        for (options, expected) in [
            (korean, ["참고", "팁", "중요", "경고", "주의", "Note"]),
            (StylingOptions(), ["Note", "Tip", "Important", "Warning", "Caution", "Note"]),
        ] {
            let labels = paragraphs(style(markdown, options: options)).map(\.text).filter { $0 != "Body." }
            #expect(labels == expected, "\(labels)")
        }
    }

    /// A heading in a note is the note's size set bold, with no bookmark or contents entry and
    /// no section number, and its id is still a link target.
    @Test(arguments: ["# Head {#h}", "### Head {#h}", "Head {#h}\n    ---"])
    func aHeadingInANoteIsSetAsTheNotesText(heading: String) {
        var options = StylingOptions()
        options.sectionNumbering = SectionNumbering()
        let doc = style("# Doc\n\nText.[^n] See [it](#h).\n\n[^n]: \(heading)\n\n    Body.", options: options)
        let note = doc.blocks.compactMap { $0.footnotes[1] }.first ?? []
        let head = note.first { $0.paragraphs.first?.text == "Head" }
        let body = note.first { $0.paragraphs.first?.text == "Body." }
        let headRun = head?.paragraphs.first?.runs.first?.style
        let bodyRun = body?.paragraphs.first?.runs.first?.style
        #expect(headRun != nil && headRun?.font.size == bodyRun?.font.size, "\(note)")
        #expect((headRun?.font.weight.rawValue ?? 0) > (bodyRun?.font.weight.rawValue ?? 0))
        #expect(head?.outline == nil && head?.anchor == "h")
        #expect(!doc.diagnostics.contains { $0.message.contains("'#h'") }, "\(doc.diagnostics)")
    }

    /// Every block a quote holds draws its bar in the theme's `quote` colour — an image, the
    /// text shown for a raw HTML block, a table in a list item (its marker hangs beside it) —
    /// not only paragraphs, headings and code.
    @Test func everyQuotedBlockHasTheQuoteBarColour() throws {
        let markdown = """
            > Text.
            >
            > ![Figure](missing.png)
            >
            > <div>raw html</div>
            >
            > - | a | b |
            >   |---|---|
            >   | 1 | 2 |
            >
            > ```
            > code
            > ```
            """
        let doc = style(markdown)
        let quote = try #require(Theme.default.color(named: "quote"))
        let barred = doc.blocks.filter { !$0.quoteBars.isEmpty }
        #expect(barred.count >= 5, "\(barred.map(\.content))")
        #expect(barred.contains { if case .image = $0.content { true } else { false } })
        #expect(barred.contains { if case .table = $0.content { true } else { false } })
        for block in barred { #expect(block.quoteBarColor == quote, "\(block.content)") }
    }

    /// An alert colours its own bar; the bars of the quotes and alerts around it keep theirs.
    @Test func anAlertColoursOnlyItsOwnBar() throws {
        let markdown =
            "> Outer.\n>\n> > [!WARNING]\n> > Inner.\n> >\n> > > [!NOTE]\n> > > Deepest.\n\n> [!TIP]\n> Alone."
        let doc = style(markdown)
        let quote = try #require(Theme.default.color(named: "quote"))
        func block(_ text: String) -> StyledBlock? {
            doc.blocks.first { block in block.paragraphs.contains { $0.text == text } }
        }
        func colors(of text: String) -> [RGBAColor]? { block(text)?.colorsOfQuoteBars }
        // Each alert's colour is its label's.
        let warning = try #require(block("Warning")?.paragraphs.first?.runs.first?.style.color)
        let note = try #require(block("Note")?.paragraphs.first?.runs.first?.style.color)
        let tip = try #require(block("Tip")?.paragraphs.first?.runs.first?.style.color)
        #expect(Set([quote, warning, note, tip]).count == 4)
        #expect(colors(of: "Outer.") == [quote])
        #expect(colors(of: "Warning") == [quote, warning])
        #expect(colors(of: "Inner.") == [quote, warning])
        #expect(colors(of: "Deepest.") == [quote, warning, note])
        #expect(colors(of: "Alone.") == [tip])
    }
}

/// READMEs as people write them: tabs, anchors, GitHub-style fragments, empty headings,
/// inline HTML presentation.
@Suite struct ReadmeStylingTests {
    func style(_ markdown: String) -> StyledDocument {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default)
    }
    func texts(_ doc: StyledDocument) -> [String] {
        doc.blocks.compactMap { if case .paragraph(let p) = $0.content { return p.text } else { return nil } }
    }

    @Test func tabsAreSpacesInTextAndStopsInCode() {
        #expect(texts(style("a\tb\t\tc"))[0] == "a b c", "white space in text is one word space")
        #expect(texts(style("```\na\tb\nab\tc\nabcd\te\n```"))[0] == "a   b\nab  c\nabcd    e")
        #expect(texts(style("---\ntab-size: 2\n---\n```\na\tb\n\tc\n```"))[0] == "a b\n  c")
        #expect(texts(style("::: {tab-size=8}\n```\na\tb\n```\n:::"))[0] == "a       b")
    }

    @Test func fragmentsResolveAsGitHubDoes() {
        let doc = style(
            "# Usage Notes\n\n## Déjà vu\n\n[a](#usage-notes) [b](#Usage-Notes) [c](<#Usage Notes>) "
                + "[d](#Usage%20Notes) [e](#déjà-vu) [f](#nowhere)"
        )
        let links = doc.blocks.flatMap(\.paragraphs).flatMap(\.runs).compactMap(\.style.link)
        #expect(links == Array(repeating: .internal("usage-notes"), count: 4) + [.internal("déjà-vu")], "\(links)")
        #expect(doc.diagnostics.map(\.message).filter { $0.contains("#nowhere") }.count == 1)
    }

    /// A fenced code block's `#id` (Pandoc's `fenced_code_attributes`: ```` ```{#lst:main .python} ````)
    /// is a link's destination, as a heading's, a div's and a figure's are; it warned that the
    /// link matched no heading. Members: braces alone, a language before the braces, an id
    /// with a number-lines option; an id taken twice warns as any id does.
    @Test func aCodeBlocksIdIsALinksDestination() {
        let doc = style(
            "```{#lst:main .python}\nprint(1)\n```\n\n```swift {#lst-two .numberLines}\nlet a = 1\n```\n\n"
                + "```{#lst:main}\nagain\n```\n\nSee [one](#lst:main) and [two](#lst-two).\n")
        let messages = doc.diagnostics.map(\.message)
        #expect(!messages.contains { $0.contains("matches no heading") }, "\(messages)")
        #expect(messages.contains { $0.contains("id '#lst:main' is already used") }, "\(messages)")
        let anchors = doc.blocks.flatMap { [$0.anchor].compactMap { $0 } + $0.extraAnchors }
        #expect(anchors == ["lst:main", "lst-two"], "\(anchors)")
        let links = doc.blocks.flatMap(\.paragraphs).flatMap(\.runs).compactMap(\.style.link)
        #expect(links == [.internal("lst:main"), .internal("lst-two")], "\(links)")
    }

    @Test func anchorsLandOnTheNextBlockAndCountForLinks() {
        let doc = style(
            "<a id=\"install\"></a>\n## Install\n\nSee [x](#install) and [y](#inline).\n\nText <a "
                + "name=\"inline\"></a>here."
        )
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
        #expect(doc.blocks[0].extraAnchors == ["install"] && doc.blocks[0].anchor == "install")
        #expect(
            ([doc.blocks[2].anchor].compactMap { $0 } + doc.blocks[2].extraAnchors) == ["inline"],
            "the paragraph takes the anchor")
        #expect(texts(doc).count == 3, "an anchor alone makes no empty paragraph")
    }

    /// A paragraph that prints nothing — an empty span with a role, emphasis or a link around
    /// nothing — takes no line, as an empty `<p>` takes no room; its span's `#id` names the next
    /// block. A no-break space prints (a line kept), as in a browser.
    @Test func aParagraphThatPrintsNothingTakesNoLine() {
        for source in ["[]{.headline}", "[ ]{.caption}", "*[]{.caption}*", "[](https://example.com)", "**[]{.title}**"]
        {
            let doc = style("Before.\n\n\(source)\n\nAfter.")
            #expect(texts(doc) == ["Before.", "After."], "\(source): \(texts(doc))")
        }
        let doc = style("Before.\n\n[]{#here .headline}\n\nAfter, see [it](#here).")
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
        #expect(texts(doc).count == 2)
        #expect(doc.blocks[1].anchor == "here" || doc.blocks[1].extraAnchors.contains("here"))
        #expect(texts(style("Before.\n\n&nbsp;\n\nAfter.")).count == 3, "a no-break space is a line")
    }

    @Test func emptyHeadingsWarnAndLeaveNoBookmark() {
        for source in ["##\n\nText", "# \n\nText", "### ###\n\nText"] {
            let doc = style(source)
            #expect(doc.blocks.allSatisfy { $0.outline == nil }, "\(source)")
            #expect(
                doc.diagnostics.contains { $0.message.contains("empty heading") && $0.location?.line == 1 }, "\(source)"
            )
        }
    }

    @Test func presentationsAndHTMLRuns() {
        let doc = style("x<sup>2</sup> H<sub>2</sub> <kbd>K</kbd> <mark>m</mark> <small>s</small> <ins>i</ins>")
        let runs = doc.blocks[0].paragraphs[0].runs
        func run(_ text: String) -> RunStyle? { runs.first { $0.text == text }?.style }
        let body = Theme.default[.body].size
        #expect(run("2")!.baselineOffset > 0 && run("2")!.font.size < body)
        #expect(runs.filter { $0.text == "2" }.count == 2 || runs.contains { $0.style.baselineOffset < 0 })
        #expect(run("K")?.font.families == Theme.default.monospaceFamilies && run("K")?.background != nil)
        #expect(run("m")?.background != nil)
        #expect(run("s")!.font.size < body)
        #expect(run("i")?.underline != nil)
    }

    @Test func darkModeImagesAreLeftOutAndFragmentsDropped() {
        let doc = style("![T](/logo.svg#gh-light-mode-only)\n![T](/logo-white.svg#gh-dark-mode-only)")
        guard case .image(let image) = doc.blocks.first?.content else {
            Issue.record("\(doc.blocks)")
            return
        }
        #expect(image.path == "/logo.svg" && image.source == "/logo.svg#gh-light-mode-only")
        #expect(doc.blocks.count == 1)
    }

    @Test func linksIntoOtherMarkdownFilesWarnOnce() {
        let doc = style("[a](a.md) [b](docs/b.md#part) [c](c.markdown)\n\n[d](https://x.y/d.md)")
        let messages = doc.diagnostics.map(\.message)
        #expect(messages.count == 1 && messages[0].contains("3 links into other Markdown files"), "\(messages)")
        let links = doc.blocks[0].paragraphs[0].runs.compactMap(\.style.link)
        #expect(links.contains(.external("docs/b.md#part")))
    }

    /// An API reference as Node.js writes its documentation (written for this test): YAML in
    /// comments, `<a id>` anchors, reference links to slugged headings, a box-drawing diagram.
    static let apiReference = #"""
        # File system

        <!--introduced_in=v0.10.0-->

        > Stability: 2 - Stable

        <!-- source_link=lib/fs.js -->

        See [`fs.access()`][] and [the callback API](#callback-api).

        ## Callback API

        <!-- YAML
        added: v0.11.15
        changes:
          - version: v6.3.0
            pr-url: https://github.com/nodejs/node/pull/6534
            description: The constants are now deprecated.
        -->

        ### `fs.access(path[, mode], callback)`

        <!-- YAML
        added: v0.11.15
        -->

        * `path` {string|Buffer|URL}
        * `mode` {integer} **Default:** `fs.constants.F_OK`

        <a id="DEP0001"></a>
        ### DEP0001: `http.OutgoingMessage.prototype.flush`

        Deprecated, see [DEP0001](#DEP0001).

        ```text
           ┌─────────────────────────────────────────────────────────────────────────────────────────────┐
           │                                              href                                              │
           ├──────────┬──┬─────────────────────┬────────────────────────┬───────────────────────────┬───────┤
           │ protocol │  │        auth         │          host          │           path            │ hash  │
           └──────────┴──┴─────────────────────┴────────────────────────┴───────────────────────────┴───────┘
        ```

        [`fs.access()`]: #fsaccesspath-mode-callback
        """#

    @Test func apiReferenceWithCommentsAndAnchorsHasNothingToWarnAbout() {
        let parsed = MarkdownParser.parse(Self.apiReference, file: "fs.md")
        let doc = Styler.style(parsed.document, theme: .default)
        #expect(parsed.diagnostics.isEmpty && doc.diagnostics.isEmpty, "\(parsed.diagnostics + doc.diagnostics)")
        let links = doc.blocks.flatMap(\.paragraphs).flatMap(\.runs).compactMap(\.style.link)
        #expect(
            Set(links) == [.internal("fsaccesspath-mode-callback"), .internal("callback-api"), .internal("DEP0001")],
            "\(links)")
        let text = doc.blocks.flatMap(\.paragraphs).map(\.text).joined(separator: "\n")
        #expect(!text.contains("YAML") && !text.contains("introduced_in") && !text.contains("pr-url"))
    }

    /// Each problem of a formula is warned about where it is written, on the formula's later
    /// lines too (the column counted from the line's start), however many problems it has.
    @Test func formulaProblemsArePlacedOnTheirLines() {
        let markdown = "Text\n\n$$\na + b\n\\foo + c\n  x\\baz + \\foo\n$$\n\nInline $y + \\qux$ here.\n"
        let places = style(markdown).diagnostics.filter { $0.message.hasPrefix("unknown math command") }.map {
            "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message.dropFirst(21).prefix { $0 != ";" })"
        }
        #expect(places == ["5:1 \\foo", "6:4 \\baz", "6:11 \\foo", "9:13 \\qux"])
    }
}
