import DocumentModel
import Testing

@testable import MarkdownParser

/// Smart punctuation (CommonMark's smart extension, as cmark-gfm's `CMARK_OPT_SMART` sets it).
@Suite struct SmartPunctuationTests {
    func text(_ markdown: String) -> String {
        parse(markdown).document.blocks.map { block -> String in
            switch block.kind {
            case .paragraph(let i), .heading(_, let i): i.plainText
            case .codeBlock(_, let t): t
            default: ""
            }
        }.joined(separator: "\n")
    }

    @Test func quotesPairAndApostrophesCurl() {
        #expect(
            text("\"Hello,\" she said. 'Quoted' and it's the users' turn.")
                == "\u{201C}Hello,\u{201D} she said. \u{2018}Quoted\u{2019} and it\u{2019}s the users\u{2019} turn.")
        #expect(text("# The \"best\" title") == "The \u{201C}best\u{201D} title")
        #expect(
            text("'Tis \"nested 'single' inside\" text")
                == "\u{2019}Tis \u{201C}nested \u{2018}single\u{2019} inside\u{201D} text")
    }

    /// A quote between two punctuation marks after an equals sign, an opening bracket, a slash
    /// or a dash opens, as Pandoc's smart quotes open a quote that follows no word: a template's
    /// `src="/x.png"`, `x="(y)"`, `["(a)", "(b)"]`, `and/"or"`, `—"(quoted)"`; a quote after a
    /// closing bracket or a word still closes.
    @Test func aQuoteBetweenPunctuationAfterAnOpeningMarkOpens() {
        let open = "\u{201C}"
        let close = "\u{201D}"
        let cases: [(String, String)] = [
            ("A src=\"/images/x.png\" here.", "A src=\(open)/images/x.png\(close) here."),
            ("Set x=\"(y)\" now.", "Set x=\(open)(y)\(close) now."),
            ("A list [\"(a)\", \"(b)\"] here.", "A list [\(open)(a)\(close), \(open)(b)\(close)] here."),
            ("This and/\"(or)\" that.", "This and/\(open)(or)\(close) that."),
            ("He said —\"(quoted)\" there.", "He said —\(open)(quoted)\(close) there."),
            ("Call f(\"x\") and (\"(y)\").", "Call f(\(open)x\(close)) and (\(open)(y)\(close))."),
        ]
        for (markdown, expected) in cases {
            #expect(text(markdown) == expected, "\(markdown)")
        }
    }

    /// An apostrophe is never a quotation mark: between Latin letters or figures it closes no
    /// quote (`'Twas … it's` stays two apostrophes), and before a decade or an elided word it
    /// opens none, whatever follows; a quote after a figure that closes nothing is a prime.
    @Test(arguments: [
        ("\"'Twas brillig,\" it's said.", "\u{201C}\u{2019}Twas brillig,\u{201D} it\u{2019}s said."),
        ("'tis the season to be 'jolly'", "\u{2019}tis the season to be \u{2018}jolly\u{2019}"),
        ("In the '90s 'twas fine, wasn't it?", "In the \u{2019}90s \u{2019}twas fine, wasn\u{2019}t it?"),
        (
            "'Em and 'til 'cause 'bout it's 'done'",
            "\u{2019}Em and \u{2019}til \u{2019}cause \u{2019}bout it\u{2019}s \u{2018}done\u{2019}"
        ),
        ("'Don't,' she said.", "\u{2018}Don\u{2019}t,\u{2019} she said."),
        ("He is 5' 10\" tall, 3' long.", "He is 5\u{2032} 10\u{2033} tall, 3\u{2032} long."),
        ("The \"1\" key and '2' too.", "The \u{201C}1\u{201D} key and \u{2018}2\u{2019} too."),
        ("In 1990's style.", "In 1990\u{2019}s style."),
        // The word after the quote is read across markup, a character at a time: an elision
        // opens no quote that a later one could close.
        ("'*tis* the seasons' end, 'nothing'", "\u{2019}tis the seasons\u{2019} end, \u{2018}nothing\u{2019}"),
        ("'**em** and the boys' toys", "\u{2019}em and the boys\u{2019} toys"),
        (
            "'t*wa*s the kids' toys, '*90s* kids' games",
            "\u{2019}twas the kids\u{2019} toys, \u{2019}90s kids\u{2019} games"
        ),
        ("'*emblem*' and 'ours'", "\u{2018}emblem\u{2019} and \u{2018}ours\u{2019}"),
        (
            "Add MAKEFLAGS=\"-j1\" and v2' then (3') and 1.5\" x",
            "Add MAKEFLAGS=\u{201C}-j1\u{201D} and v2\u{2019} then (3\u{2032}) and 1.5\u{2033} x"
        ),
    ])
    func apostrophesAndPrimesAreNotQuotes(markdown: String, expected: String) {
        #expect(text(markdown) == expected)
    }

    /// A quote after the punctuation ending a quotation and before a letter closes the open one,
    /// as Korean writes a quote and its particle; an opening bracket before a quote still opens.
    @Test(arguments: [
        ("그는 \"안녕하세요.\"라고 말했다.", "그는 \u{201C}안녕하세요.\u{201D}라고 말했다."),
        ("'작은따옴표'를 쓴 '예시.'는 여기에.", "\u{2018}작은따옴표\u{2019}를 쓴 \u{2018}예시.\u{2019}는 여기에."),
        ("He said \"Hi.\"He left.", "He said \u{201C}Hi.\u{201D}He left."),
        ("\"a (\"b\") c\" ok", "\u{201C}a (\u{201C}b\u{201D}) c\u{201D} ok"),
    ])
    func quotesCloseAfterTheirPunctuationBeforeALetter(markdown: String, expected: String) {
        #expect(text(markdown) == expected)
    }

    @Test func quotesPairAcrossInlineBoundaries() {
        let b = parse("He said \"*very* well\" and \"[linked](https://example.com)\".").document.blocks
        guard case .paragraph(let i) = b[0].kind else {
            Issue.record("not a paragraph")
            return
        }
        #expect(i.plainText == "He said \u{201C}very well\u{201D} and \u{201C}linked\u{201D}.")
        guard case .link(let destination, _, _) = i.first(where: { if case .link = $0 { true } else { false } }) else {
            Issue.record("no link")
            return
        }
        #expect(destination == "https://example.com")
    }

    @Test func dashesAndEllipses() {
        #expect(text("1--2, a --- b, wait...") == "1\u{2013}2, a \u{2014} b, wait\u{2026}")
        // cmark's hyphen-run rule: 4 → two en dashes, 5 → em + en, 6 → two em dashes, 7 → em + two en.
        #expect(
            text("a----b a-----b a------b a-------b")
                == "a\u{2013}\u{2013}b a\u{2014}\u{2013}b a\u{2014}\u{2014}b a\u{2014}\u{2013}\u{2013}b")
        #expect(text("a-b stays") == "a-b stays")
    }

    /// The rules read ASCII bytes only, so text in other scripts around them is kept intact,
    /// and text with nothing to change is returned as it was.
    @Test func dashesEllipsesAndQuotesBesideOtherScripts() {
        #expect(text("한글--글자 é---x 日本...語 ü-ü") == "한글\u{2013}글자 é\u{2014}x 日本\u{2026}語 ü-ü")
        #expect(text("\"한국어\" 'é' 😀--😀") == "\u{201C}한국어\u{201D} \u{2018}é\u{2019} 😀\u{2013}😀")
        #expect(text("a.b..c -x- ‐‐ — …") == "a.b..c -x- ‐‐ — …")
        #expect(
            SmartPunctuation.hasDashesOrEllipsis("x--") && SmartPunctuation.hasDashesOrEllipsis("...")
                && !SmartPunctuation.hasDashesOrEllipsis("-.-.") && !SmartPunctuation.hasDashesOrEllipsis(".. ."))
        let inlines: [Inline] = [.text("plain 한글 text"), .emphasis([.text("no marks")])]
        #expect(SmartPunctuation.apply(inlines) == inlines)
        #expect(SmartPunctuation.string(Array("é😀a".unicodeScalars)) == "é😀a")
    }

    @Test func codeAndAttributesAreNeverChanged() {
        #expect(text("Use `\"x\" -- ...` here") == "Use \"x\" -- ... here")
        #expect(text("```\n\"quoted\" -- ...\n```\n") == "\"quoted\" -- ...\n")
        let b = parse("[words]{.caption title=\"it's -- fine\"}").document.blocks
        guard case .paragraph(let i) = b[0].kind, case .span(let attributes, let children) = i.first else {
            Issue.record("no span: \(b)")
            return
        }
        #expect(children.plainText == "words")
        #expect(attributes.pairs.contains { $0.value == "it's -- fine" }, "\(attributes)")
    }

    /// An autolink's text is its address, set as written: `<…>`, GitHub's bare URL, `www.` and
    /// e-mail autolinks keep `--`, `...` and `'`; a link with other text is punctuated, and the
    /// quotes around an autolink still pair.
    @Test func autolinksAreNeverChanged() {
        let markdown =
            "See https://e.com/a--b...c, <https://e.com/x--y>, www.e.com/w--z, a--b@e.com, "
            + "https://e.com/it's and [a--b...](https://e.com/q) \"https://e.com/q\"."
        #expect(
            text(markdown)
                == "See https://e.com/a--b...c, https://e.com/x--y, www.e.com/w--z, a--b@e.com, "
                + "https://e.com/it's and a–b… “https://e.com/q”.")
    }

    /// A quote just after an address that closes nothing is the end of what the address left
    /// out (GitHub ends `https://e.com/?x="y"` before its last `"`): set as written, as GitHub
    /// shows it; one that closes a quote opened before the address still pairs.
    @Test(arguments: [
        ("Alpha https://e.com/?x=\"y\" bravo.", "Alpha https://e.com/?x=\"y\" bravo."),
        ("Alpha www.e.com/?q='y' bravo.", "Alpha www.e.com/?q='y' bravo."),
        ("He wrote \"see https://e.com/a\" twice.", "He wrote “see https://e.com/a” twice."),
    ])
    func aQuoteJustAfterAnAddressIsSetAsWritten(markdown: String, expected: String) {
        #expect(text(markdown) == expected)
    }

    /// Punctuation written escaped or as a character reference is set as written, as
    /// CommonMark's smart extension (cmark's `smart_punct.txt`) and Pandoc set it — in a
    /// paragraph, a heading, emphasis, a span, an image's description, a table cell and a note
    /// — while the unescaped punctuation beside it still changes, an escaped quote reads as
    /// the punctuation it is beside the quotes that pair.
    @Test(arguments: [
        ("\\\"This is not smart.\\\"", "\"This is not smart.\""),
        ("This isn\\'t either.", "This isn't either."),
        ("5\\'8\\\"", "5'8\""),
        ("One \\-- two \\--- three \\... four \\-\\- five \\.\\.\\.", "One -- two -– three ... four -- five ..."),
        ("&quot;ent&quot; a&#45;&#45;b &#x27;c&#x27; &#46;&#46;&#46;", "\"ent\" a--b 'c' ..."),
        ("\"quote \\\" inside\" and *\\\"emph\\\"*", "\u{201C}quote \" inside\u{201D} and \"emph\""),
        ("# Heading \\-\\- \\\"h\\\" -- ok", "Heading -- \"h\" – ok"),
        ("[\\\"span\\\" --]{.x}", "\"span\" –"),
    ])
    func escapedPunctuationIsSetAsWritten(markdown: String, expected: String) {
        #expect(text(markdown) == expected)
    }

    @Test func escapedPunctuationInCellsDescriptionsAndNotes() {
        let document = parse(
            "| a\\-\\-b | \\\"c\\\" |\n|---|---|\n| x -- y | z |\n\n"
                + "![alt \\.\\.\\. \"q\"](p.png) n[^1]\n\n[^1]: note \\-\\- \\'here\\'\n"
        ).document
        var texts: [String] = []
        for block in document.blocks {
            switch block.kind {
            case .table(let table):
                texts += table.header.map(\.plainText) + table.rows.flatMap { $0.map(\.plainText) }
            case .paragraph(let inlines):
                for case .image(_, _, let alt, _) in inlines { texts.append(alt.plainText) }
            default: break
            }
        }
        for note in document.footnotes.values.flatMap({ $0 }) {
            if case .paragraph(let inlines) = note.kind { texts.append(inlines.plainText) }
        }
        #expect(texts == ["a--b", "\"c\"", "x – y", "z", "alt ... \u{201C}q\u{201D}", "note -- 'here'"])
        // No stand-in is left anywhere in the document's text.
        #expect(!texts.joined().unicodeScalars.contains { KeptPunctuation.original(of: $0) != nil })
    }

    /// With smart punctuation off, escapes are read as CommonMark reads them and nothing is kept.
    @Test func escapesWithSmartPunctuationOff() {
        #expect(text("---\nsmart: false\n---\n\n\\\"a\\\" \\-\\- b...") == "\"a\" -- b...")
    }

    @Test func frontMatterTurnsItOff() {
        #expect(text("---\nsmart: false\n---\n\n\"Straight\" -- as written...") == "\"Straight\" -- as written...")
        let bad = parse("---\nsmart: maybe\n---\n\n\"x\"")
        #expect(bad.diagnostics.contains { "\($0)".contains("'smart'") })
        #expect(text("---\nsmart: maybe\n---\n\n\"x\"") == "\u{201C}x\u{201D}")
    }
}
