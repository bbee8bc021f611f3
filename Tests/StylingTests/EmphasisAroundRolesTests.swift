import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

/// A role span inside Markdown emphasis keeps the emphasis, as HTML `<strong>` and `<em>`
/// around a `<span>` whose class sets a font: the role sets family, size, spacing and its own
/// weight; strong is a CSS `bolder` step on top of that weight, emphasis keeps it italic; a
/// `weight=` or `italic=false` written on the span wins.
@Suite struct EmphasisAroundRolesTests {
    func runs(_ markdown: String, theme: Theme = .default) -> [StyledRun] {
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        return Styler.style(document, theme: theme).blocks.flatMap(\.paragraphs).flatMap(\.runs)
    }

    /// The font of the run holding the word `word` (runs of equal style are merged).
    func font(_ word: String, in runs: [StyledRun]) throws -> FontSpec {
        let run = runs.first { $0.text.split(separator: " ").contains(Substring(word)) }
        return try #require(run, "no run with '\(word)' in \(runs.map(\.text))").style.font
    }

    @Test(arguments: TextRole.allCases) func strongAroundARoleIsOneBolderStepAboveTheRole(role: TextRole) throws {
        let theme = Theme.default
        let around = runs("**bold [x]{.\(role.rawValue)} bold**")
        let inside = runs("[**x**]{.\(role.rawValue)}")
        let expected = Styler.bolder(theme[role].weight)
        let x = try font("x", in: around)
        #expect(x.weight == expected, "\(role): \(x.weight) around, \(expected) expected")
        #expect(x.size == theme[role].size && x.families == theme[role].families && !x.italic)
        #expect(try font("x", in: inside) == x, "strong inside or around the span gives one face")
        #expect(try font("bold", in: around).weight == .bold)
    }

    /// Headings of levels 5 and 6 take Body's and Caption's size and, where that role is lighter
    /// than semibold, a `bolder` step (GitHub and LaTeX's `\paragraph` set them bold), so they
    /// do not read as the text around them; a role already semibold or heavier keeps its
    /// weight. Members: each built-in theme, levels 4 to 6.
    @Test(arguments: ThemeLoader.builtInNames) func headingsOfLevelsFiveAndSixAreBold(name: String) throws {
        let theme = try #require(ThemeLoader.builtIn(named: name))
        let all = runs("#### Four\n\n##### Five\n\n###### Six\n\nText\n", theme: theme)
        for (word, role) in [("Four", TextRole.headline), ("Five", .body), ("Six", .caption)] {
            let heading = try font(word, in: all)
            let weight = theme[role].weight
            let expected = role == .headline || weight >= .semibold ? weight : Styler.bolder(weight)
            #expect(heading.weight == expected, "\(name) \(word): \(heading.weight)")
            if role != .headline { #expect(heading.weight >= .semibold, "\(name) \(word): \(heading.weight)") }
            #expect(heading.size == theme[role].size)
        }
        #expect(try font("Text", in: all).weight == theme[.body].weight)
    }

    @Test(arguments: TextRole.allCases) func emphasisAroundARoleKeepsItItalic(role: TextRole) throws {
        let theme = Theme.default
        let x = try font("x", in: runs("*ital [x]{.\(role.rawValue)} ital*"))
        #expect(x.italic)
        #expect(x.weight == theme[role].weight && x.size == theme[role].size)
        #expect(try font("x", in: runs("[*x*]{.\(role.rawValue)}")) == x)
    }

    @Test func strikethroughAndLinksAroundARoleKeepTheirDecorationAndEmphasis() throws {
        let all = runs("~~s [a]{.caption} s~~ [l [b]{.caption} l](https://example.com) ***~~[c]{.caption}~~***")
        let a = try #require(all.first { $0.text == "a" }).style
        #expect(a.strikethrough != nil && a.font.size == Theme.default[.caption].size)
        let b = try #require(all.first { $0.text == "b" }).style
        #expect(b.link == .external("https://example.com"))
        #expect(b.color == Theme.default.color(named: "link"))
        let c = try #require(all.first { $0.text == "c" }).style
        #expect(c.strikethrough != nil && c.font.italic && c.font.weight == .bold)
    }

    @Test func nestedRolesTakeTheInnerRoleWithTheEmphasisAroundBoth() throws {
        let theme = Theme.default
        let all = runs("**[h [x]{.caption2} h]{.headline}** and *[h [y]{.caption} h]{.headline}*")
        let x = try font("x", in: all)
        #expect(x.weight == Styler.bolder(theme[.caption2].weight) && x.size == theme[.caption2].size)
        #expect(try font("h", in: all).weight == Styler.bolder(theme[.headline].weight))
        let y = try font("y", in: all)
        #expect(y.italic && y.size == theme[.caption].size)
    }

    @Test func anExplicitWeightOrSlantWinsOverTheEmphasisAroundIt() throws {
        let all = runs(
            """
            **a [w1]{weight=300} [w2]{.caption weight=300} [w3]{.caption bold=false} [[w4]{.caption}]{weight=300}** \
            [**w5**]{weight=300} *b [i1]{italic=false} [i2]{.caption italic=false} [[i3]{.caption}]{italic=false}*
            """)
        #expect(try font("w1", in: all).weight == .light)
        #expect(try font("w2", in: all).weight == .light)
        #expect(try font("w3", in: all).weight == .regular)
        #expect(try font("w4", in: all).weight == .regular, "a role inside an explicit weight sets its own")
        #expect(try font("w5", in: all).weight == .regular, "strong inside weight=300 is one bolder step: 400")
        for word in ["i1", "i2", "i3"] { #expect(try !font(word, in: all).italic, "\(word)") }
    }

    @Test func headingsKeepTheirEmphasisAroundARoleSpan() throws {
        let theme = Theme.default
        let all = runs("# Title *em [x]{.caption} em* **[y]{.caption}** [**z**]{.caption}")
        let x = try font("x", in: all)
        #expect(x.italic && x.size == theme[.caption].size && x.weight == theme[.caption].weight)
        let y = try font("y", in: all)
        #expect(y.weight == Styler.bolder(theme[.caption].weight) && y.size == theme[.caption].size)
        #expect(try font("z", in: all) == y)
        #expect(try font("Title", in: all).weight == theme[.largeTitle].weight)
    }

    @Test func boldTextMovesARoleInsideStrongUpAsStrongInsideTheRole() throws {
        let all: [FontWeight] = [.thin, .extraLight, .light, .regular, .medium, .semibold, .bold, .extraBold, .black]
        let (theme, _) = Theme.default.applyingBoldText { $0 == "Inter" ? all : [.regular, .bold] }
        let caption = theme[.caption]
        let expected = theme.boldTextWeight(Styler.bolder(caption.weight), families: caption.families)
        let around = try font("x", in: runs("**bold [x]{.caption} bold**", theme: theme))
        #expect(around.weight == expected)
        #expect(around.weight > caption.weight)
        #expect(try font("x", in: runs("[**x**]{.caption}", theme: theme)) == around)
        #expect(try font("x", in: runs("[x]{.caption}", theme: theme)).weight == caption.weight)
    }

    @Test func anItalicDivIsNotEmphasisAndHeadingsInsideItKeepTheirRole() throws {
        let all = runs("::: {italic}\n# Heading\n\nText\n:::")
        #expect(try !font("Heading", in: all).italic)
        #expect(try font("Text", in: all).italic)
    }
}

/// Blocks inside a footnote are sized from the note's text, as inline code is from its line:
/// a code block is 0.9 of the text around it (9.5 pt beside 10.5 pt Body, 8.1 pt in a 9 pt
/// Caption note), never larger than the note.
@Suite struct BlocksInFootnotesTests {
    func style(_ markdown: String, theme: Theme = .default) -> StyledDocument {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: theme)
    }

    /// The runs of note 1, wherever it is attached.
    func noteRuns(_ doc: StyledDocument) throws -> [StyledRun] {
        let note = try #require(doc.blocks.compactMap { $0.footnotes[1] }.first, "no note 1")
        return note.flatMap(\.paragraphs).flatMap { ($0.marker ?? []) + $0.runs }
    }

    func codeSize(_ runs: [StyledRun], theme: Theme = .default) -> [Double] {
        runs.filter { $0.style.font.families == theme.monospaceFamilies }.map(\.style.font.size)
    }

    static let noteBodies: [String] = [
        "A note.\n\n    ```\n    code in note\n    ```",
        "A note.\n\n    - item\n\n      ```\n      code in a list item\n      ```",
        "A note.\n\n    > quoted\n    >\n    > ```\n    > code in a quote\n    > ```",
        "A note.\n\n    <pre>html code</pre>",
    ]

    @Test(arguments: noteBodies) func codeInANoteIsSmallerThanTheNote(body: String) throws {
        let theme = Theme.default
        let runs = try noteRuns(style("Text[^1] here.\n\n[^1]: \(body)\n"))
        let code = codeSize(runs)
        #expect(code == [8.1], "\(runs.map { "\($0.text)@\($0.style.font.size)" })")
        let text = runs.filter { $0.style.font.families != theme.monospaceFamilies }
        #expect(
            text.allSatisfy { $0.style.font.size <= theme[.caption].size },
            "\(text.map { "\($0.text)@\($0.style.font.size)" })")
    }

    @Test func inlineCodeAndCodeBlocksScaleAlikeInNotesAndBody() throws {
        let doc = style(
            "Body `inline`.[^1]\n\n```\nbody code\n```\n\n[^1]: Note `inline`.\n\n    ```\n    note code\n    ```\n")
        let body = doc.blocks.flatMap(\.paragraphs).flatMap(\.runs)
        #expect(codeSize(body) == [9.7, 9.5], "inline 0.92 and block 0.9 of 10.5 pt Body")
        #expect(codeSize(try noteRuns(doc)) == [8.3, 8.1], "inline 0.92 and block 0.9 of the 9 pt note")
    }

    @Test func listsAndQuotesInANoteTakeTheNoteSize() throws {
        let runs = try noteRuns(style("x[^1]\n\n[^1]: Note.\n\n    - one\n    - two\n\n    > quoted\n"))
        #expect(!runs.isEmpty)
        #expect(
            runs.allSatisfy { $0.style.font.size == Theme.default[.caption].size },
            "\(runs.map { "\($0.text)@\($0.style.font.size)" })")
    }

    @Test(arguments: ThemeLoader.builtInNames) func codeInANoteFollowsEachThemesCaption(name: String) throws {
        let theme = try #require(ThemeLoader.builtIn(named: name))
        let runs = try noteRuns(style("x[^1]\n\n[^1]: Note.\n\n    ```\n    code\n    ```\n", theme: theme))
        #expect(codeSize(runs, theme: theme) == [(theme[.caption].size * 9).rounded() / 10])
    }

    @Test func codeInADivIsSizedFromTheDivsParagraphs() throws {
        let doc = style(
            "::: {.caption}\nText.\n\n```\ncaption code\n```\n:::\n\n::: {size=14}\n```\nlarge code\n```\n:::\n")
        #expect(codeSize(doc.blocks.flatMap(\.paragraphs).flatMap(\.runs)) == [8.1, 12.6])
    }
}

/// A div's role reaches every block inside it, as a footnote's Caption does: list markers and
/// table cells follow the paragraphs' size; a div without a role changes nothing.
@Suite struct BlocksInRoleDivsTests {
    func style(_ markdown: String) -> StyledDocument {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default)
    }

    @Test func listMarkersAndIndentsFollowTheDivsRole() throws {
        let caption = Theme.default[.caption].size
        let inDiv = style("::: {.caption}\n- one\n- two\n:::\n").blocks.flatMap(\.paragraphs)
        let plain = style("- one\n- two\n").blocks.flatMap(\.paragraphs)
        let markers = inDiv.compactMap(\.marker).flatMap { $0 }
        #expect(
            markers.count == 2 && markers.allSatisfy { $0.style.font.size == caption },
            "\(markers.map(\.style.font.size))")
        #expect(inDiv.flatMap(\.runs).allSatisfy { $0.style.font.size == caption })
        let indent = try #require(inDiv.first).style.leftIndent
        let bodyIndent = try #require(plain.first).style.leftIndent
        #expect(indent < bodyIndent, "the indent step is in the items' em: \(indent) vs \(bodyIndent)")
    }

    func cellSizes(_ doc: StyledDocument) throws -> (header: [Double], body: [Double]) {
        let block = try #require(doc.blocks.first { if case .table = $0.content { true } else { false } })
        guard case .table(let table) = block.content else { return ([], []) }
        let body = block.paragraphs.flatMap(\.runs).map(\.style.font.size)
        return (table.header.flatMap(\.runs).map(\.style.font.size), body)
    }

    @Test func tableCellsAreAPointSmallerThanTheDivsParagraphs() throws {
        let table = "| h |\n|---|\n| cell |\n"
        let caption = try cellSizes(style("::: {.caption}\n\(table):::\n"))
        #expect(caption.header == [8] && caption.body.allSatisfy { $0 == 8 }, "Caption 9 pt − 1: \(caption)")
        let sized = try cellSizes(style("::: {size=14}\n\(table):::\n"))
        #expect(sized.header == [13], "\(sized)")
        let plain = try cellSizes(style(table))
        #expect(plain.header == [9.5], "Body 10.5 pt − 1: \(plain)")
    }
}
