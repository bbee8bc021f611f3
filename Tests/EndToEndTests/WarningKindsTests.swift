import Foundation
import TestSupport
import Testing

/// Warnings people can act on, through the `typeset` executable: each says what is wrong,
/// quoting it, at the line and column where it is written; warnings that say the same thing are
/// said once with their count; every `--diagnostics json` line has a kind a script can select.
@Suite(.serialized) struct WarningKindsTests {
    /// The kinds `--diagnostics json` gives warnings (`Diagnostic.Kind`), as documented.
    static let kinds: Set<String> = [
        "font", "link", "overfull", "image", "attribute", "front-matter", "encoding", "html", "theme",
        "footnote", "structure", "output", "content",
    ]

    struct Line: Decodable {
        var file: String?
        var line: Int?
        var column: Int?
        var severity: String
        var kind: String
        var message: String
    }

    func folder() throws -> String { try Render.scratchFolder("warnings") }

    /// Renders `markdown` with `--diagnostics json` (and `extra` arguments); the exit status and
    /// the JSON lines.
    func render(_ markdown: String, _ extra: [String] = []) throws -> (status: Int32, lines: [Line], pdf: String) {
        let dir = try folder()
        try write(markdown, dir + "/in.md")
        let result = try typeset(["render", dir + "/in.md", "-o", dir + "/out.pdf", "--diagnostics", "json"] + extra)
        let lines = result.output.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        return (result.status, lines, dir + "/out.pdf")
    }

    /// Footnote syntax left as text warns where it is written: a reference with no definition
    /// (in a paragraph, a list item, a table cell, a quote) and Pandoc's inline note `^[…]`
    /// never closed; a defined reference, a caret in prose (`2^10`), `[^` in code and brackets
    /// written escaped (`\[^x\]`) do not.
    @Test func footnoteSyntaxLeftAsTextWarnsWhereItIs() throws {
        let markdown = """
            Undefined[^zz]. Inline note^[alpha beta.

            - item [^missing]

            A | B
            --|--
            x [^cell] | `[^code]` and 2^10

            Defined[^a]. Written escaped: \\[^x\\] and \\[^y].

            [^a]: A note.
            """
        let result = try render(markdown)
        #expect(result.status == 0)
        let notes = result.lines.filter { $0.kind == "footnote" }
        let places = notes.map { "\($0.line ?? 0):\($0.column ?? 0)" }
        // The references with no definition are one warning, at the first, naming the others.
        #expect(places == ["1:10", "1:28"], "\(notes)")
        #expect(
            notes.contains {
                $0.message.contains("'[^zz]' has no definition")
                    && $0.message.contains("(3 like this in all; also at 3:8 '[^missing]', 7:3 '[^cell]')")
            }, "\(notes)")
        #expect(notes.contains { $0.message.contains("Pandoc inline note with no closing") }, "\(notes)")
        #expect(!notes.contains { $0.message.contains("[^a]") || $0.message.contains("[^code]") }, "\(notes)")
        let words = try PDFProbe.text(result.pdf)
        #expect(words.contains("[^zz]") && words.contains("^[alpha beta."), "the text is kept: \(words)")
    }

    /// A word set twice from one place — a heading's and its contents entry's, a table's first
    /// column repeated beside each part of its columns — is warned about once, where it is
    /// written.
    @Test func aWordSetTwiceFromOnePlaceIsWarnedAboutOnce() throws {
        let long = "Averyvery" + String(repeating: "very", count: 20) + "longword"
        let heading = try render("# T\n\nText.\n\n## \(long)\n\nText.\n", ["--toc"])
        let words = heading.lines.filter { $0.kind == "overfull" }
        #expect(words.count == 1 && words.first?.line == 5 && words.first?.column == 4, "\(words)")
        #expect(!(words.first?.message.contains("like this") ?? true), "\(words)")
        let columns = 14
        let table =
            "| Name | " + (0..<columns).map { "Column\($0)" }.joined(separator: " | ") + " |\n|"
            + String(repeating: "---|", count: columns + 1) + "\n| `timeout_milliseconds` | "
            + (0..<columns).map { "some words \($0)" }.joined(separator: " | ") + " |\n"
        let split = try render(table)
        let cells = split.lines.filter { $0.kind == "overfull" && $0.message.contains("timeout") }
        #expect(cells.count == 1 && cells.first?.line == 3 && cells.first?.column == 4, "\(split.lines)")
        #expect(!(cells.first?.message.contains("like this") ?? true), "\(cells)")
    }

    /// 52 links with a scheme no PDF reader should open: one warning, at the first link's
    /// destination (not the paragraph's start), quoting it, with the count.
    @Test func linksWithOtherSchemesWarnOnceAtTheFirstLink() throws {
        let links = (1...52).map { "[l\($0)](gopher://host/\($0))" }.joined(separator: " ")
        let result = try render("# Links\n\nSee " + links + ".\n")
        let warnings = result.lines.filter { $0.kind == "link" }
        #expect(warnings.count == 1, "\(result.lines)")
        let first = try #require(warnings.first)
        #expect(first.line == 3 && first.column == 10, "\(first)")
        #expect(
            first.message.contains("'gopher://host/1'") && first.message.contains("52 like this"), "\(first.message)")
    }

    /// A word wider than the measure is quoted and placed where it is written.
    @Test func overfullWordIsQuotedAtItsPlace() throws {
        let word = "Pneumono" + String(repeating: "ultramicroscopic", count: 8)
        let result = try render("Some words first.\n\nA paragraph with " + word + " in it.\n")
        let warning = try #require(result.lines.first { $0.kind == "overfull" }, "\(result.lines)")
        #expect(warning.line == 3 && warning.column == 18, "\(warning)")
        #expect(warning.message.contains("'Pneumonoultramicroscopic"), "\(warning.message)")
    }

    /// The default theme's semibold headings and table headers meeting inline code ask the
    /// monospaced family for a weight it lacks: the theme's doing, not the document's, so no
    /// warning; a weight the document itself asks for still warns, as a `font` warning.
    @Test func theThemeDoesNotWarnAboutItself() throws {
        let ownCascade = try render("## A `code` heading\n\n| `head` | b |\n|---|---|\n| 1 | 2 |\n\n### More `code`\n")
        #expect(!ownCascade.lines.contains { $0.message.contains("lacks weight") }, "\(ownCascade.lines)")
        // The same face and weight, asked for by an attribute in body text.
        let asked = try render("Text [heavy]{weight=600 family=\"DejaVu Sans Mono\"}.\n")
        let warning = try #require(asked.lines.first { $0.message.contains("lacks weight 600") }, "\(asked.lines)")
        #expect(warning.kind == "font" && warning.line == 1 && warning.column == 7, "\(warning)")
    }

    /// Weights a family lacks are said apart, one warning for each weight asked for and the
    /// weight given, each at the first place it is needed: a 600 → 700 and a 500 → 400 were
    /// said as one warning, "2 like this in all", the second place named under the first's
    /// numbers. Warnings alike in every number are still said once.
    @Test func weightsAFamilyLacksAreSaidApart() throws {
        let result = try render(
            """
            Text [a]{weight=600 family="DejaVu Serif"} and [b]{weight=500 family="DejaVu Serif"}.

            More [c]{weight=600 family="DejaVu Serif"} and [d]{weight=300 family="DejaVu Serif"}.
            """)
        let weights = result.lines.filter { $0.message.contains("lacks weight") }
        #expect(weights.count == 3, "\(weights)")
        for (weight, given, column) in [(600, 700, 7), (500, 400, 49)] {
            let message = "lacks weight \(weight); using the nearest: \(weight) → \(given)"
            let warning = weights.first { $0.message.contains(message) }
            #expect(warning?.line == 1 && warning?.column == column, "\(weights)")
            #expect(warning?.message.contains("like this") == false, "\(weights)")
        }
    }

    /// Emphasis in Hangul or Han text is slanted as a browser slants it, with no warning: their
    /// faces have no italics, and `--strict` refused every Korean document with `*강조*`
    /// ("no italic in 'Noto Sans CJK KR'"). Members: Korean, Chinese, Japanese kanji, Korean
    /// under a Latin family swapped in; a Latin face without italic still warns.
    @Test(arguments: [
        ("이것은 *강조*이다.", nil), ("这是*强调*的。", nil), ("これは*強調*です。", nil),
        ("이것은 *강조*이다.", "DejaVu Serif"),
    ])
    func emphasisInScriptsWithoutItalicsIsNotWarned(_ text: String, _ family: String?) throws {
        let result = try render(
            "Plain *emphasis* and \(text)\n", ["--strict"] + (family.map { ["--family", $0] } ?? []))
        #expect(result.status == 0, "\(result.lines)")
        #expect(!result.lines.contains { $0.message.contains("no italic") }, "\(result.lines)")
    }

    @Test func aLatinFaceWithoutItalicStillWarns() throws {
        let result = try render("Plain *emphasis*.\n", ["--family", "DejaVu Math TeX Gyre"])
        #expect(result.lines.contains { $0.message.contains("no italic in 'DejaVu Math TeX Gyre'") }, "\(result.lines)")
    }

    /// Every JSON line has one of the documented kinds, and a document with problems of several
    /// kinds gives them apart.
    @Test func jsonLinesCarrySelectableKinds() throws {
        let markdown = """
            ---
            title: T
            tocc: red
            ---

            Text [x]{sizee=3} and [y](javascript:alert) and ![](missing.png) and <blink>b</blink>.

            [^a]: never cited
            """
        let result = try render(markdown)
        #expect(result.lines.allSatisfy { Self.kinds.contains($0.kind) }, "\(result.lines)")
        let kinds = Set(result.lines.map(\.kind))
        #expect(kinds.isSuperset(of: ["front-matter", "attribute", "link", "image", "footnote"]), "\(kinds)")
    }

    /// Repeated entries in one attribute list warn at the repeat; a language tag that is not
    /// BCP 47 is refused on a span as in the front matter.
    @Test func repeatedAttributesAndBadLanguageTagsWarn() throws {
        let result = try render(
            "Text [big]{size=10 size=30 .headline .caption #a #b} [x]{lang=../../etc/passwd} [y]{lang=de-CH}.\n")
        let attribute = result.lines.filter { $0.kind == "attribute" }
        #expect(attribute.contains { $0.message.contains("'size' is given again") && $0.column == 20 }, "\(attribute)")
        #expect(attribute.contains { $0.message.contains("'.caption' replaces '.headline'") }, "\(attribute)")
        #expect(
            attribute.contains { $0.message.contains("'#a' is replaced by '#b'") && $0.column == 47 }, "\(attribute)")
        #expect(
            attribute.contains { $0.message.contains("'../../etc/passwd' is not a BCP 47 language tag") },
            "\(attribute)")
        #expect(!attribute.contains { $0.message.contains("'de-CH'") }, "\(attribute)")
    }

    /// A mapping for a key that takes one value, and a `lang` that is a boolean, empty or not
    /// a tag, each warn at the value; the document is still set.
    @Test(arguments: [
        ("paper: {a: 1}", "'paper' takes one value", 8),
        ("lang: true", "'true' is a YAML boolean", 7),
        ("lang: \"\"", "the value is empty", 7),
        ("lang: ../../etc/passwd", "not a BCP 47 language tag", 7),
    ])
    func frontMatterValuesOfTheWrongShapeWarn(entry: String, message: String, column: Int) throws {
        let result = try render("---\ntitle: T\n\(entry)\n---\n\nText.\n")
        #expect(result.status == 0)
        let warning = try #require(result.lines.first { $0.kind == "front-matter" }, "\(result.lines)")
        #expect(warning.message.contains(message) && warning.line == 3 && warning.column == column, "\(warning)")
    }

    /// 60,000 plain keys are front matter, read (keys Typeset does not read are silent);
    /// nine levels of nine aliases are still refused at an alias.
    @Test func aliasBudgetCountsAliasesNotKeys() throws {
        let keys = (0..<60_000).map { "k\($0): v" }.joined(separator: "\n")
        let plain = try render("---\n\(keys)\n---\n\nText.\n")
        #expect(plain.status == 0, "\(plain.lines.prefix(3))")
        let unknown = plain.lines.filter { $0.message.contains("unknown front matter key") }
        #expect(unknown.isEmpty, "\(unknown)")
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            bomb += "\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ", ") + "]\n"
            previous = name
        }
        let refused = try render("---\n" + bomb + "---\n\nText.\n")
        #expect(refused.status == 1 && refused.lines.contains { $0.message.contains("alias bomb") }, "\(refused.lines)")
    }

    /// Front matter that is opened and never closed: a warning at 1:1 saying what closes it,
    /// and its lines are still set.
    @Test func unclosedFrontMatterWarnsAndKeepsItsText() throws {
        let result = try render("---\ntitle: Ok\n\nSome text here.\n")
        let warning = try #require(result.lines.first { $0.kind == "front-matter" }, "\(result.lines)")
        #expect(
            warning.line == 1 && warning.column == 1 && warning.message.contains("not closed")
                && warning.message.contains("'---' or '...'"), "\(warning)")
        let text = try PDFProbe.text(result.pdf)
        #expect(text.contains("title: Ok") && text.contains("Some text here."), "\(text)")
    }

    /// `theme check` and `render --theme` judge a theme file alike: the same first line, at the
    /// same position, and both fail.
    @Test(arguments: [
        ("{\n  \"name\": \"m\",\n  \"monospace\": \"x\"\n}\n", ":3:16: monospace: family 'x' is not installed"),
        (
            "{\n  \"name\": \"f\",\n  \"families\": {\"sans\": [\"Nope1\", \"Nope2\"]},\n  \"roles\": {\"body\": "
                + "{\"family\": \"sans\"}}\n}\n",
            ":3:25: role Display: family 'Nope1', 'Nope2' is not installed"
        ),
        ("{\n  \"name\": \"b\",\n  \"page\": {\n    \"blockSpacing\": -5\n  }\n}\n", ":4:5: page.blockSpacing must be"),
        ("{\n  \"name\": \"\u{FFFF}\"\n}\n", ""),
    ])
    func checkAndRenderJudgeAThemeAlike(theme: String, expected: String) throws {
        let dir = try folder()
        var data = Data(theme.utf8)
        var expected = expected
        if expected.isEmpty {
            // A name with a byte that is not UTF-8.
            data = Data("{\n  \"name\": \"".utf8) + Data([0xFF, 0xFE]) + Data("\"\n}\n".utf8)
            expected = ":2:12: the file is not UTF-8"
        }
        try data.write(to: URL(fileURLWithPath: dir + "/t.json"))
        try write("# Doc\n\nText `code`.\n", dir + "/d.md")
        let checked = try typeset(["theme", "check", dir + "/t.json"])
        let rendered = try typeset(["render", dir + "/d.md", "--theme", dir + "/t.json", "-o", dir + "/d.pdf"])
        #expect(checked.status == 1 && checked.output.hasPrefix(dir + "/t.json" + expected), "\(checked.output)")
        #expect(rendered.status == 1 && rendered.output.hasPrefix(dir + "/t.json" + expected), "\(rendered.output)")
    }

    /// A front matter `theme:` naming a file that is not a theme says it was read as the theme.
    @Test func aMarkdownFileNamedAsTheThemeIsSaidToBeReadAsOne() throws {
        let dir = try folder()
        try write("---\ntheme: \(dir)/other.md\n---\n\nText.\n", dir + "/in.md")
        try write("# Not a theme\n", dir + "/other.md")
        let result = try typeset(["render", dir + "/in.md", "-o", dir + "/out.pdf"])
        #expect(result.status == 1, "\(result.output)")
        #expect(
            result.output.contains(dir + "/in.md:2:8: front matter 'theme'")
                && result.output.contains("read as the theme"),
            "\(result.output)")
        #expect(result.output.contains(dir + "/other.md:1:1: invalid JSON"), "\(result.output)")
    }

    /// A design-token file whose only tokens are an alias cycle: `theme check` and
    /// `theme import` both refuse it, with the same lines.
    @Test func checkAndImportJudgeTokensAlike() throws {
        let dir = try folder()
        try write("{\n  \"a\": {\"$value\": \"{b}\"},\n  \"b\": {\"$value\": \"{a}\"}\n}\n", dir + "/t.json")
        let checked = try typeset(["theme", "check", dir + "/t.json"])
        let imported = try typeset(["theme", "import", dir + "/t.json", "-o", dir + "/out.json"])
        #expect(checked.status == 1 && imported.status == 1, "\(checked.output)\n\(imported.output)")
        #expect(
            checked.output.contains("alias cycle: a → b → a") && checked.output.contains("no typography tokens found"),
            "\(checked.output)")
        #expect(checked.output == imported.output, "\(checked.output)\n\(imported.output)")
    }
}
