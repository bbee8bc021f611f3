import DocumentModel
import TestSupport
import Testing

@testable import MarkdownParser

@Suite struct FrontMatterTests {
    /// Recursive and exploding aliases are errors at the alias, and the front matter is not
    /// read; an alias used twice is ordinary YAML.
    @Test func aliasBombsAreErrorsAndAliasesWork() {
        for (yaml, line, column) in [
            ("a: &a [*a]", 2, 8), ("m: &m {k: [*m]}", 2, 12),
            (
                "x: &x [1,1,1,1,1,1,1,1,1,1]\ny: &y [*x,*x,*x,*x,*x,*x,*x,*x,*x,*x]\nz: &z "
                    + "[*y,*y,*y,*y,*y,*y,*y,*y,*y,*y]\nw: &w [*z,*z,*z,*z,*z,*z,*z,*z,*z,*z]\nv: "
                    + "[*w,*w,*w,*w,*w,*w,*w,*w,*w,*w,*w]",
                6, 26
            ),
        ] {
            let r = parse("---\n\(yaml)\ntitle: T\n---\n\nBody\n")
            let errors = r.diagnostics.filter { $0.severity == .error }
            #expect(
                errors.count == 1 && errors.first?.location == SourceLocation(file: "t.md", line: line, column: column),
                "\(r.diagnostics)")
            #expect(r.document.metadata.title == nil)
        }
        let r = parse("---\ntitle: &f Inter\nsubtitle: *f\n---\n\nBody\n")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        #expect(r.document.metadata.title == "Inter" && r.document.metadata.subtitle == "Inter")
    }

    /// A key given twice (libyaml accepts it) is a warning at the second, naming the first's
    /// line; the later value is used. Spellings of one key (`bold_text`, `bold-text`) count as one.
    /// YAML's merge key (`<<: *base`, a list of aliases, nested merges) gives the mapping the
    /// keys it does not give itself, at the top and in nested mappings; a quoted `'<<'` is a
    /// key like any other, and a mapping merged into itself stops.
    @Test func mergeKeysGiveTheKeysNotGiven() {
        let r = parse(
            "---\nbase: &b {title: Merged, subtitle: Base}\nmore: &m {date: 2026, <<: *b}\n<<: [*m]\n"
                + "subtitle: Own\nmargins:\n  <<: {top: 20mm, left: 10mm}\n  left: 15mm\n---\n\nBody\n")
        #expect(r.document.metadata.title == "Merged")
        #expect(r.document.metadata.subtitle == "Own")
        #expect(r.document.metadata.date == "2026")
        #expect(r.document.metadata.fields["margins.top"] == "20mm")
        #expect(r.document.metadata.fields["margins.left"] == "15mm")
        #expect(!r.diagnostics.contains { $0.message.contains("<<") }, "\(r.diagnostics)")
        let quoted = parse("---\n'<<': {title: Not}\n---\n\nBody\n")
        #expect(quoted.document.metadata.title == nil)
        let recursive = parse("---\nm: &m {title: Self, <<: *m}\ntitle: T\n---\n\nBody\n")
        #expect(recursive.document.metadata.title == "T" || !recursive.diagnostics.isEmpty)
    }

    /// A list given to a key of one value that no list makes sense for (a switch, a number, a
    /// size) is warned about at the list and ignored; a mapping for an author with no name is
    /// warned about where it is written.
    @Test func listsForOneValueAndNamelessAuthorsAreWarnedAbout() {
        for (yaml, key, column) in [
            ("justify: [true]", "justify", 10), ("toc-depth: [2, 3]", "toc-depth", 12),
            ("fontsize:\n  - 12pt", "fontsize", 3),
        ] {
            let r = parse("---\n\(yaml)\n---\n\nBody\n")
            let warning = r.diagnostics.first { $0.message.contains("'\(key)' takes one value, not a list") }
            #expect(warning != nil, "\(yaml): \(r.diagnostics)")
            #expect(warning?.location?.column == column, "\(yaml)")
            #expect(r.document.metadata.fields[key] == nil, "\(yaml)")
        }
        let titled = parse("---\ntitle: [A, B]\n---\n\nBody\n")
        #expect(titled.document.metadata.title == "A, B" && titled.diagnostics.isEmpty)
        let r = parse("---\nauthor:\n  - name: Ann\n  - {a: 1}\n---\n\nBody\n")
        let nameless = r.diagnostics.first { $0.message.contains("a mapping with no 'name'") }
        #expect(nameless?.location == SourceLocation(file: "t.md", line: 4, column: 5), "\(r.diagnostics)")
    }

    @Test func aRepeatedKeyIsWarnedAtTheRepeat() {
        let r = parse("---\ntitle: First\ndate: 2024\ntitle: Second\nbold_text: true\nbold-text: false\n---\n\nBody\n")
        let repeats = r.diagnostics.filter { $0.message.contains("is given again") }
        #expect(
            repeats.map(\.location) == [
                SourceLocation(file: "t.md", line: 4, column: 1), SourceLocation(file: "t.md", line: 6, column: 1),
            ], "\(r.diagnostics)")
        #expect(
            repeats.first?.message
                == "front matter key 'title' is given again (first at line 2); this later value is used")
        #expect(repeats.last?.message.contains("first at line 5") == true)
        #expect(r.document.metadata.title == "Second")
        #expect(parse("---\ntitle: A\nmargins: {top: 1mm, left: 2mm}\n---\n\nBody\n").diagnostics.isEmpty)
    }

    /// Nothing of the front matter is dropped in silence: `include` given a mapping or a nested
    /// list, and any value nested past the depth read, are warned about where they are written.
    @Test func includeMappingsAndDeepValuesAreWarnedAbout() {
        let mapping = parse("---\ninclude: {a: 1}\n---\n\nBody\n")
        #expect(
            mapping.diagnostics.map {
                "\($0.location.map { "\($0.line):\($0.column)" } ?? "") \($0.message.prefix(40))"
            }
                == ["2:10 front matter 'include' takes a file or a"], "\(mapping.diagnostics)")
        let nested = parse("---\ninclude: [a.md, [b.md]]\n---\n\nBody\n")
        #expect(nested.document.metadata.includes.map(\.path) == ["a.md"])
        #expect(nested.diagnostics.contains { $0.location?.column == 17 && $0.message.contains("nested list") })
        let deep = parse(
            "---\ntitle: " + String(repeating: "[", count: 20) + "deep" + String(repeating: "]", count: 20) + "\n---\n")
        #expect(deep.diagnostics.contains { $0.message.contains("more than 16 deep") && $0.location?.line == 2 })
        #expect(parse("---\ntitle: [[[shallow]]]\n---\n").document.metadata.title == "shallow")
    }

    @Test func knownFieldsAndUnknownKeyWarning() {
        let md = """
            ---
            title: 보고서
            subtitle: "A: study"
            author:
              - Kim Minji
              - name: Lee Joon
            date: 2024-05-01
            lang: ko-KR
            keywords: [type, 조판]
            theme: editorial
            margins:
              top: 20mm
              inner: 18mm
            sizeCategory: large
            colour: red
            ---
            # Heading
            """
        let r = parse(md)
        let m = r.document.metadata
        #expect(m.title == "보고서")
        #expect(m.subtitle == "A: study")
        #expect(m.author == "Kim Minji, Lee Joon")
        #expect(m.date == "2024-05-01")
        #expect(m.lang == "ko-KR")
        #expect(m.keywords == ["type", "조판"])
        #expect(m.fields["theme"] == "editorial")
        #expect(m.fields["margins.top"] == "20mm")
        #expect(m.fields["margins.inner"] == "18mm")
        #expect(m.fields["size-category"] == "large")
        #expect(m.fields["colour"] == "red")
        // A key Typeset does not read is silent and listed as unused, as Pandoc ignores it.
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        #expect(m.unusedKeys == ["colour"])
        // Line numbers after the front matter are those of the file.
        #expect(r.document.blocks.map(\.kind) == [.heading(level: 1, [.text("Heading")])])
        #expect(r.document.blocks.first?.location?.line == 17)
    }

    /// An author is a name, or a mapping whose `name` is the name (Pandoc's and Quarto's
    /// `author: {name: …, affiliation: …}`) or a CSL name (`given` and `family`), alone or in
    /// a list; a mapping with none of these reads as its values.
    @Test(arguments: [
        ("author:\n  name: Alice Smith\n  affiliation: Univ X\n  email: a@x.edu", "Alice Smith"),
        ("author: {affiliation: Univ X, name: Alice Smith}", "Alice Smith"),
        ("author:\n  - name: Alice Smith\n    email: a@x.edu\n  - Bob", "Alice Smith, Bob"),
        ("authors: [Ann, Ben]", "Ann, Ben"),
        ("author:\n  family: Lee\n  given: Ann\n  email: a@b.c", "Ann Lee"),
        ("author:\n  affiliation: Univ X", "Univ X"),
    ])
    func anAuthorIsItsName(yaml: String, expected: String) {
        #expect(parse("---\n\(yaml)\n---\n\nBody\n").document.metadata.author == expected)
    }

    @Test func commaKeywordsAndDotsTerminator() {
        let r = parse("---\nauthor: Solo\nkeywords: a, b ,c\n...\ntext\n")
        #expect(r.document.metadata.author == "Solo")
        #expect(r.document.metadata.keywords == ["a", "b", "c"])
        #expect(r.document.blocks.first?.location?.line == 5)
        #expect(r.diagnostics.isEmpty)
    }

    /// The warning about YAML that does not load stands where the construct libyaml was reading
    /// begins (an unclosed bracket or quote, found only lines later), else where libyaml found
    /// the problem, line and column (UTF-8 bytes, a character before it counted by its bytes).
    @Test(arguments: [
        ("---\ntitle: [unclosed\nauthor: x\n---\n\n# H\n", 2, 8),
        ("---\ntitle: \"Broken: front matter\nauthor: [a, b\nfoo: bar\n---\n\nx\n", 2, 8),
        ("---\ntitle: ok\nauthor: [a, b\nfoo: bar\n---\n\nx\n", 3, 9),
        ("---\ntitle: a\n  bad: indent\n---\n\nx\n", 3, 6),
        ("---\ntitle: b\nsubtitle: é: c\n---\n\nx\n", 3, 13),
    ])
    func invalidYAMLIsWarnedAboutWhereTheProblemIs(markdown: String, line: Int, column: Int) {
        let warning = parse(markdown).diagnostics.first { $0.message.contains("invalid YAML") }
        #expect(
            warning?.location?.line == line && warning?.location?.column == column, "\(String(describing: warning))")
    }

    /// Front matter is YAML that loads to a mapping (Pandoc); anything else is Markdown, kept
    /// whole, with one warning.
    @Test func invalidYAMLIsMarkdownWithAWarning() {
        let r = parse("---\ntitle: ok\nbad: [unclosed\n---\nbody\n")
        #expect(r.document.metadata == Metadata())
        #expect(r.diagnostics.count == 1)
        let d = r.diagnostics.first
        #expect(d?.message.contains("invalid YAML") == true)
        #expect((d?.location?.line ?? 0) >= 3)
        #expect(
            r.document.blocks.map(\.kind) == [
                .thematicBreak,
                .heading(level: 2, [.text("title: ok"), .softBreak, .text("bad: [unclosed")]),
                .paragraph([.text("body")]),
            ])
    }

    @Test func notAMappingIsMarkdown() {
        let r = parse("---\n- a\n- b\n---\n")
        #expect(r.diagnostics.count == 1)
        guard r.document.blocks.count == 3, case .list(let list) = r.document.blocks[1].kind else {
            Issue.record("\(r.document.blocks)")
            return
        }
        #expect(list.items.count == 2)
    }

    /// The issue's two examples: a rule and a setext heading; a paragraph between rules.
    @Test func ruleAndSetextHeadingAreNotFrontMatter() {
        let r = parse("---\nFoo\n---\nBar\n")
        #expect(
            r.document.blocks.map(\.kind) == [
                .thematicBreak, .heading(level: 2, [.text("Foo")]), .paragraph([.text("Bar")]),
            ])
        #expect(r.diagnostics.count == 1)
        let s = blocks("---\nnot front matter\n\n---\n\nEnd.\n")
        #expect(
            s.map(\.kind) == [
                .thematicBreak, .paragraph([.text("not front matter")]), .thematicBreak, .paragraph([.text("End.")]),
            ])
        #expect(parse("---\ntitle: T\n---\nBody\n").document.metadata.title == "T")
        #expect(parse("---\nplain words\n---\nBody\n").document.blocks.count == 3)
    }

    @Test func leadingThematicBreakIsNotFrontMatter() {
        let b = blocks("---\n\ntext\n\n---\n")
        #expect(b.map(\.kind) == [.thematicBreak, .paragraph([.text("text")]), .thematicBreak])
    }

    @Test func unclosedFrontMatterIsMarkdown() {
        let r = parse("---\ntitle: x\n")
        #expect(r.document.metadata.title == nil)
        #expect(!r.document.blocks.isEmpty)
    }

    /// Pandoc's title block: title, authors and date from `%` lines, fields left empty or out,
    /// continuation lines, authors parted by semicolons, quotes and backslashes read as
    /// written; the block is not set as text, and what follows it is the body.
    @Test func aPandocTitleBlockGivesTitleAuthorsAndDate() {
        let cases: [(String, title: String?, author: String?, date: String?, body: String)] = [
            (
                "% My Title\n% Ada Lovelace; Charles Babbage\n% 6 December 2026\n\nBody.\n",
                "My Title", "Ada Lovelace, Charles Babbage", "6 December 2026", "Body."
            ),
            ("% Title only\n\nBody.\n", "Title only", nil, nil, "Body."),
            ("%\n% Ada\n% 2026\nBody.\n", nil, "Ada", "2026", "Body."),
            ("% A long\n  title\n% Ada\n  Charles\n%\n\n# Heading\n", "A long title", "Ada, Charles", nil, "Heading"),
            ("% Say \"hi\": C:\\path\n\nBody.\n", "Say \"hi\": C:\\path", nil, nil, "Body."),
            ("%    \n%\n%\n% Fourth line is text\n", nil, nil, nil, "% Fourth line is text"),
        ]
        for (source, title, author, date, body) in cases {
            let result = parse(source)
            let metadata = result.document.metadata
            #expect(metadata.title == title, "\(source.debugDescription)")
            #expect(metadata.author == author, "\(source.debugDescription)")
            #expect(metadata.date == date, "\(source.debugDescription)")
            let text = HTMLRenderedElementTests.text(Array(result.document.blocks))
            #expect(text == body, "\(source.debugDescription): \(text.debugDescription)")
            #expect(result.diagnostics.isEmpty, "\(source.debugDescription): \(result.diagnostics)")
        }
    }

    /// A control character in a title block's title, authors or date is warned about on the
    /// line of that value, and only there.
    @Test func aTitleBlocksValueIsWarnedAboutOnItsLine() {
        let sources = [
            ("% Title\u{7}\n% Ada\n% 2026\n\nBody.\n", 1), ("%\n% Ada\u{7}\n\nBody.\n", 2),
            ("% Title\n% Ada\n% 20\u{7}26\n\nBody.\n", 3),
        ]
        for (source, line) in sources {
            let lines = parse(source).diagnostics.compactMap { $0.location?.line }
            #expect(lines == [line], "\(source.debugDescription): \(lines)")
        }
    }

    @Test func canonicalKeys() {
        #expect(FrontMatter.canonicalKey("sizeCategory") == "size-category")
        #expect(FrontMatter.canonicalKey("bold_text") == "bold-text")
        #expect(FrontMatter.canonicalKey("line-break") == "line-break")
    }
}

@Suite struct RobustnessTests {
    @Test func oddInputsNeverCrash() {
        let inputs = [
            "", "\n", "\0", "\u{FFFD}\u{FEFF}", "---", "---\n---", ":::", "::::::::::", "[", "]{", "[]{}", "{}",
            String(repeating: ">", count: 5000) + " deep",
            String(repeating: "- ", count: 3000) + "x",
            String(repeating: "*", count: 4000) + "a" + String(repeating: "*", count: 4000),
            String(repeating: "[", count: 5000) + "x" + String(repeating: "]{.a}", count: 5000),
            String(repeating: "::: a\n", count: 2000),
            String(repeating: ":::\n", count: 2000),
            "# " + String(repeating: "{", count: 3000) + "}",
            "| a | b |\n|---|---|\n" + String(repeating: "| 1 | 2 | 3 |\n", count: 5000),
            "[^x]\n\n[^x]:\n", "[^]: x", "text[^a]\n\n> [^a]: in quote\n",
            "---\nk: &a [*a]\n---\n", "---\n" + String(repeating: "[", count: 2000) + "\n---\n",
            "\r\n# Title {.x}\r\n\r\n::: a\r\nbody\r\n:::\r\n",
        ]
        for input in inputs {
            let r = MarkdownParser.parse(input, file: "odd.md")
            #expect(r.document.file == "odd.md")
        }
    }

    @Test func randomInputsNeverCrash() {
        var rng = SeededRandom(seed: 0x7E57)
        let alphabet = Array("abc 가나 \n\n*_`[]{}().#=\"':>-|!^\\<>&;~0123456789")
        for _ in 0..<400 {
            let length = Int(rng.next() % 300)
            let text = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            _ = MarkdownParser.parse(text, file: "r.md")
        }
    }

    @Test func deepNestingIsFlattenedWithAWarning() {
        let r = parse(String(repeating: "> ", count: 200) + "deep")
        #expect(r.diagnostics.contains { $0.message.contains("nested more than") })
    }

    @Test func nestingStaysBounded() {
        func depth(_ i: Inline) -> Int {
            switch i {
            case .span(_, let c), .emphasis(let c), .strong(let c): 1 + (c.map(depth).max() ?? 0)
            default: 1
            }
        }
        func depth(_ b: Block) -> Int {
            switch b.kind {
            case .div(let c), .blockQuote(let c), .alert(_, let c): 1 + (c.map(depth).max() ?? 0)
            case .paragraph(let i): 1 + (i.map(depth).max() ?? 0)
            default: 1
            }
        }
        let n = 20_000
        let spans = blocks(String(repeating: "[", count: n) + "x" + String(repeating: "]{.a}", count: n))
        #expect(spans.map(depth).max() ?? 0 <= 40)
        let divs = parse(String(repeating: "::: a\n", count: n) + "x\n" + String(repeating: ":::\n", count: n))
        #expect(divs.document.blocks.map(depth).max() ?? 0 <= 80)
        #expect(divs.diagnostics.count == 1)
    }

    @Test func windowsLineEndings() {
        let r = parse("# Title {.x}\r\n\r\n::: a\r\nbody\r\n:::\r\n")
        #expect(r.document.blocks.first?.attributes.classes == ["x"])
        guard case .div(let d)? = r.document.blocks.last?.kind else {
            Issue.record("\(r.document.blocks)")
            return
        }
        #expect(d.map(\.kind) == [.paragraph([.text("body")])])
        #expect(r.diagnostics.isEmpty)
    }

    /// Pandoc's keys whose text Pandoc would print and Typeset does not — raw text around the
    /// body, a bibliography for citations — warn at the key, saying why; Pandoc's layout-only
    /// keys stay silent. Members: `include-before`, `include-after`, `bibliography`, `csl`,
    /// `references`, `header-includes` (silent), `documentclass` (silent).
    @Test func pandocKeysThatWouldPrintTextWarnWhereWritten() {
        let r = parse(
            "---\ninclude-before: B\ninclude-after: A\nbibliography: refs.bib\ncsl: apa.csl\n"
                + "references: []\nheader-includes: x\ndocumentclass: report\n---\n\nText [@doe].\n")
        let places = r.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
        #expect(places == ["2:1", "3:1", "4:1", "5:1", "6:1"], "\(r.diagnostics)")
        #expect(r.diagnostics.prefix(2).allSatisfy { $0.message.contains("not printed") })
        #expect(r.diagnostics.dropFirst(2).allSatisfy { $0.message.contains("citations are not processed") })
    }

    /// Jekyll's and Hugo's keys are silent and listed in source order; a key one edit from a
    /// key Typeset reads warns at the key with the suggestion.
    @Test func keysOfOtherToolsAreSilentAndTyposWarn() {
        let r = parse(
            "---\nlayout: post\ncategory: news\npermalink: /a/\ntags: [a, b]\ntitel: T\nthem: x\n---\n\nText.\n")
        #expect(r.document.metadata.unusedKeys == ["layout", "category", "permalink", "tags"])
        let messages = r.diagnostics.map(\.message)
        #expect(
            messages == [
                "unknown front matter key 'titel'; did you mean 'title'?",
                "unknown front matter key 'them'; did you mean 'theme'?",
            ], "\(messages)")
        #expect(r.diagnostics.first?.location == DocumentModel.SourceLocation(file: "t.md", line: 6, column: 1))
    }

    /// A value is placed where it is written, not at its key: a scalar, a list, each entry of
    /// a nested mapping, a bad `lang`; columns count UTF-8 bytes, so a Hangul value before
    /// another on the line moves it by 3 bytes a syllable.
    @Test func valuesArePlacedWhereTheyAreWritten() {
        let r = parse(
            "---\ntitle:   A title\nkeywords:\n  - one\nmargins: {top: 한글, left: 5mm}\npaper:\n  tabloid\n"
                + "lang: ../x\n---\n\nBody\n")
        let places = r.document.metadata.fieldLocations
        func at(_ line: Int, _ column: Int) -> DocumentModel.SourceLocation {
            DocumentModel.SourceLocation(file: "t.md", line: line, column: column)
        }
        #expect(places["title"] == at(2, 10), "\(places)")
        #expect(places["keywords"] == at(4, 3), "\(places)")
        #expect(places["margins.top"] == at(5, 16) && places["margins.left"] == at(5, 30), "\(places)")
        #expect(places["paper"] == at(7, 3), "\(places)")
        let lang = r.diagnostics.first { $0.message.contains("'lang'") }
        #expect(lang?.location == at(8, 7), "\(r.diagnostics)")
    }

    /// Front matter is read as written when the document sets math: a `$` in a quoted,
    /// single-quoted, plain, block or listed value neither breaks the YAML nor sets the front
    /// matter again as Markdown.
    @Test(arguments: [
        "title: \"A $x$ B\"", "title: 'A $x$ B'", "title: A $x$ B", "title: |\n  A $x$ B",
        "author: [\"$x$\", Me]", "subtitle: \"$\\alpha$ and $$y$$\"",
    ])
    func frontMatterWithDollarsStaysFrontMatter(entry: String) {
        let r = parse("---\n\(entry)\nlang: en\n---\n\n# H\n\nBody $y$.\n")
        #expect(r.document.metadata.lang == "en", "\(entry): \(r.diagnostics)")
        let kinds = r.document.blocks.map { "\($0.kind)" }
        #expect(kinds.count == 2 && kinds[0].hasPrefix("heading"), "\(entry): \(kinds)")
        #expect(!kinds.joined().contains("lang"), "\(entry): \(kinds)")
        // In double quotes YAML reads `\a` as U+0007: warned of, with the way to keep it.
        let warnings = r.diagnostics.map(\.message)
        if entry.contains("\\alpha") {
            #expect(warnings.count == 1 && warnings[0].contains("U+0007") && warnings[0].contains("'$\\alpha$'"))
        } else {
            #expect(warnings.isEmpty, "\(entry): \(warnings)")
        }
    }

    /// A plain `null`, `Null`, `NULL` or `~` is no value, as YAML reads it: nothing is set
    /// and nothing warns; quoted, it is text.
    @Test func nullValuesAreAbsent() {
        let r = parse("---\ntitle: Doc\nauthor: null\ndate: ~\nsubtitle: NULL\nlang: Null\npaper: ~\n---\n\nBody\n")
        let metadata = r.document.metadata
        #expect(metadata.title == "Doc" && metadata.author == nil && metadata.date == nil && metadata.subtitle == nil)
        #expect(metadata.lang == nil && metadata.fields["paper"] == nil, "\(metadata.fields)")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        let quoted = parse("---\ntitle: \"null\"\nauthor: '~'\n---\n\nBody\n").document.metadata
        #expect(quoted.title == "null" && quoted.author == "~")
    }

    /// A control character a YAML escape writes into a printed value (`"\e"`, `"\a"`, `"\0"`,
    /// `"\x7F"`), which the page sets as U+FFFD, is warned of at the value, as the body's are: in
    /// a title, in an author list, in a field a variable prints, in a nested mapping. A value
    /// without one, or a setting's, is not warned of.
    @Test func controlCharactersInPrintedValuesAreWarnedOfAtTheValue() {
        for (yaml, line, column, count) in [
            ("title: \"\\e]0;x\\a T\\0X\"", 2, 8, 3),
            ("author: [Ann, \"B\\x7Fob\"]", 2, 9, 1),
            ("company: \"A\\x01C\"", 2, 10, 1),
            ("meta:\n  short: \"\\x1b\"", 3, 3, 1),
        ] {
            let r = parse("---\n\(yaml)\n---\n\nBody\n")
            let warnings = r.diagnostics.filter { $0.message.contains("no PDF can hold") }
            #expect(warnings.count == 1, "\(yaml): \(r.diagnostics)")
            #expect(warnings.first?.location == SourceLocation(file: "t.md", line: line, column: column), "\(yaml)")
            #expect(warnings.first?.message.contains(count == 1 ? "a character" : "\(count) characters") == true)
        }
        // A setting's value is not printed: what reads it says what is wrong (a path with NUL).
        #expect(
            !parse("---\ntheme: \"t.json\\0x\"\n---\n\nBody\n").diagnostics.contains {
                $0.message.contains("no PDF can hold")
            })
        #expect(parse("---\ntitle: \"Tab\\there\"\n---\n\nBody\n").diagnostics.isEmpty)
    }
}
