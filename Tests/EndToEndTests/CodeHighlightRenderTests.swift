import CodeHighlighting
import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Fenced code coloured by its language, read back from the PDF's fill colours per
/// stretch of glyphs (poppler `pdftohtml -xml`), and the code's text extracted exactly.
@Suite struct CodeHighlightRenderTests {
    /// One language's sample and, for each fragment, the token kind whose colour it must have.
    struct Sample {
        var language: String
        var source: String
        var expected: [(fragment: String, token: CodeToken)]
    }

    static let samples: [Sample] = [
        Sample(
            language: "python", source: "def f(x):\n    # note\n    return x + 42, \"text\"",
            expected: [
                ("def", .keyword), ("return", .keyword), ("# note", .comment), ("42", .number), ("\"text\"", .string),
            ]),
        Sample(
            language: "swift", source: "// note\nlet count = 42\nlet name = \"text\"",
            expected: [("let", .keyword), ("// note", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "javascript", source: "// note\nconst n = 42;\nlet s = \"text\";",
            expected: [("const", .keyword), ("// note", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "TypeScript", source: "// note\nconst n: number = 42;\nlet s = \"text\";",
            expected: [("const", .keyword), ("number", .type), ("// note", .comment), ("42", .number)]),
        Sample(
            language: "json", source: "{\"key\": \"text\", \"n\": 42, \"ok\": true}",
            expected: [("\"text\"", .string), ("42", .number), ("true", .keyword)]),
        Sample(
            language: "yml", source: "# note\nkey: \"text\"\nn: 42",
            expected: [("# note", .comment), ("\"text\"", .string), ("42", .number)]),
        Sample(
            language: "bash", source: "# note\nif [ \"$x\" = \"text\" ]; then\n  echo 42\nfi",
            expected: [("if", .keyword), ("then", .keyword), ("# note", .comment), ("\"text\"", .string)]),
        Sample(
            language: "c", source: "/* note */\nint main(void) {\n  return 42;\n}\nconst char *s = \"text\";",
            expected: [
                ("return", .keyword), ("int", .type), ("/* note */", .comment), ("42", .number),
                ("\"text\"", .string),
            ]),
        Sample(
            language: "c++", source: "// note\nint main() {\n    auto s = \"text\";\n    return 42;\n}",
            expected: [("auto", .keyword), ("// note", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "rust", source: "// note\nfn main() {\n    let n = 42;\n    let s = \"text\";\n}",
            expected: [
                ("fn", .keyword), ("let", .keyword), ("// note", .comment), ("42", .number),
                ("\"text\"", .string),
            ]),
        Sample(
            language: "golang", source: "// note\nfunc main() {\n\tn := 42\n\ts := \"text\"\n}",
            expected: [("func", .keyword), ("// note", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "java", source: "// note\npublic class A {\n  int n = 42;\n  String s = \"text\";\n}",
            expected: [("class", .keyword), ("// note", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "kotlin", source: "// note\nfun main() {\n    val n = 42\n    val s = \"text\"\n}",
            expected: [
                ("fun", .keyword), ("val", .keyword), ("// note", .comment), ("42", .number),
                ("\"text\"", .string),
            ]),
        Sample(
            language: "SQL", source: "-- note\nSELECT name FROM t WHERE n = 42 AND s = 'text';",
            expected: [("SELECT", .keyword), ("-- note", .comment), ("42", .number), ("'text'", .string)]),
        Sample(
            language: "html", source: "<!-- note -->\n<p class=\"text\">Hello</p>",
            expected: [("<!-- note -->", .comment), ("\"text\"", .string), ("<p", .keyword)]),
        Sample(
            language: "css", source: "/* note */\np { margin: 42px; content: \"text\"; }",
            expected: [("margin", .keyword), ("/* note */", .comment), ("42", .number), ("\"text\"", .string)]),
        Sample(
            language: "md", source: "# Title\n\nSome `code` <!-- note -->",
            expected: [("<!-- note -->", .comment), ("# Title", .function)]),
        Sample(
            language: "Dockerfile", source: "# note\nFROM debian:12\nRUN echo \"text\"",
            expected: [("FROM", .keyword), ("RUN", .keyword), ("# note", .comment), ("\"text\"", .string)]),
        Sample(
            language: "diff", source: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new",
            expected: [("--- a/x", .keyword), ("-old", .deleted), ("+new", .inserted)]),
    ]

    static func markdown(_ samples: [Sample], info: (Sample) -> String = { $0.language }) -> String {
        samples.map { "```\(info($0))\n\($0.source)\n```" }.joined(separator: "\n\n") + "\n"
    }

    static func hex(_ token: CodeToken, _ style: CodeStyle = .light) -> String {
        style.style(for: token)!.color.hex.lowercased()
    }

    /// Every fragment of every sample is drawn in its token's colour, and the words pdftotext
    /// extracts are the sources' words, in order.
    @Test func nineteenLanguagesColourKeywordsStringsCommentsAndNumbers() throws {
        let (pdf, report) = try Render.markdown(Self.markdown(Self.samples), name: "code-languages")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let stretches = try PDFColoredText.read(pdf)
        for sample in Self.samples {
            for (fragment, token) in sample.expected {
                let colours = Set(
                    stretches.filter { $0.text.contains(fragment) }.map(\.color))
                #expect(
                    colours.contains(Self.hex(token)),
                    "\(sample.language): '\(fragment)' should be \(token) \(Self.hex(token)), found \(colours)")
            }
        }
        let extracted = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).filter {
            !$0.allSatisfy(\.isNumber)
        }
        let written = Self.samples.flatMap { $0.source.split(whereSeparator: \.isWhitespace) }
        #expect(extracted == written.filter { !$0.allSatisfy(\.isNumber) })
    }

    /// A diff's removed lines are drawn in the `deleted` colour and its added lines in the
    /// `inserted` colour, never in the string colour the library's Diff definition marks
    /// removed lines with: in unified form and in context form (`!` lines, changed), by the
    /// names `diff` and `patch`, in both built-in styles, and in a library style, whose lines
    /// take its String and Variable colours, as Kate shows them.
    @Test(arguments: ["light", "dark", "breeze-light"])
    func diffLinesAreColouredAsAddedAndRemoved(styleName: String) throws {
        let unified = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n same\n-old line\n+new line"
        let context = "*** a/y\n--- b/y\n***************\n*** 1 ****\n! was here\n--- 1 ----\n! is here"
        let markdown = "```diff\n\(unified)\n```\n\n```patch\n\(context)\n```\n"
        let style = try #require(CodeStyle.builtIn[styleName] ?? LibraryCodeStyles.byName[styleName])
        var theme = Theme.default
        theme.code = style
        let (pdf, report) = try Render.markdown(
            markdown, name: "code-diff-\(styleName)", options: RenderOptions(theme: theme))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let stretches = try PDFColoredText.read(pdf)
        let deleted = Self.hex(.deleted, style)
        let inserted = Self.hex(.inserted, style)
        #expect(deleted != inserted)
        if styleName != "breeze-light" { #expect(deleted != Self.hex(.string, style)) }
        for (fragment, colour) in [("-old line", deleted), ("+new line", inserted), ("! was here", deleted)] {
            let found = Set(stretches.filter { $0.text.contains(fragment) }.map(\.color))
            #expect(found == [colour], "\(styleName): '\(fragment)' should be \(colour), found \(found)")
        }
        let changed = Set(stretches.filter { $0.text.contains("! is here") }.map(\.color))
        #expect(changed == [inserted], "\(styleName): '! is here' should be \(inserted), found \(changed)")
        #expect(
            stretches.contains { $0.text.contains("same") && !$0.text.contains("line") && $0.color != deleted },
            "a context line is neither added nor removed")
    }

    /// The same document with highlighting off (front matter, `-V`, `{.nohighlight}`) or with
    /// a language no definition knows is drawn in the one text colour, with no warning.
    @Test func offSwitchesAndUnknownLanguagesSetCodePlain() throws {
        let samples = Array(Self.samples.prefix(4))
        let text = Theme.default.textColor.hex.lowercased()
        func colours(_ pdf: String) throws -> Set<String> {
            Set(try PDFColoredText.read(pdf).filter { !$0.text.allSatisfy(\.isNumber) }.map(\.color))
        }
        let frontMatter = try Render.markdown(
            "---\nhighlight: false\n---\n\n" + Self.markdown(samples), name: "code-off")
        #expect(try colours(frontMatter.pdf) == [text])
        #expect(frontMatter.report.diagnostics.isEmpty)
        let classes = try Render.markdown(
            Self.markdown(samples) { "{.\($0.language) .nohighlight}" }, name: "code-nohighlight")
        #expect(try colours(classes.pdf) == [text])
        let unknown = try Render.markdown(Self.markdown(samples) { _ in "no-such-language" }, name: "code-unknown")
        #expect(try colours(unknown.pdf) == [text])
        #expect(unknown.report.diagnostics.isEmpty)

        let folder = try Render.scratchFolder("code-variable")
        try Self.markdown(samples).write(toFile: folder + "/in.md", atomically: false, encoding: .utf8)
        let off = try typeset(["render", folder + "/in.md", "-o", folder + "/off.pdf", "-V", "highlight=false"])
        #expect(off.status == 0, "\(off.output)")
        #expect(try colours(folder + "/off.pdf") == [text])
        let on = try typeset(["render", folder + "/in.md", "-o", folder + "/on.pdf"])
        #expect(on.status == 0, "\(on.output)")
        #expect(try colours(folder + "/on.pdf").count > 4)
    }

    /// Pandoc's attribute form picks the language and keeps the options (`.numberLines`,
    /// `startFrom`) out of it; inline code with a language class is highlighted too.
    @Test func pandocClassesAndInlineCodePickTheLanguage() throws {
        let markdown = """
            ```{.python .numberLines startFrom="10"}
            def f(): return 42
            ```

            Call `print("hi", 7)`{.python} or `def`{.nohighlight}.

            """
        let (pdf, report) = try Render.markdown(markdown, name: "code-pandoc")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let stretches = try PDFColoredText.read(pdf)
        // A space after a token takes its colour, so a stretch may end in one.
        #expect(
            stretches.contains {
                $0.text.trimmingCharacters(in: .whitespaces) == "def" && $0.color == Self.hex(.keyword)
            })
        #expect(stretches.contains { $0.text == "\"hi\"" && $0.color == Self.hex(.string) })
        #expect(stretches.contains { $0.text.contains("7") && $0.color == Self.hex(.number) })
        let plainDef = stretches.filter {
            $0.text.contains("def") && $0.color == Theme.default.textColor.hex.lowercased()
        }
        #expect(!plainDef.isEmpty, "the inline `def` with no language stays plain")
    }

    /// A long highlighted block (thousands of coloured runs in one paragraph, laid out in many
    /// pieces) renders in time linear in its length: eight times the lines take at most about
    /// eight times as long (quadratic: 64 times).
    @Test(.slow) func aLongHighlightedBlockRendersInLinearTime() throws {
        func block(_ lines: Int) -> String {
            let body = (0..<lines).map { "def f\($0)(x): return x * \($0)  # note \"q\"" }
            return "```python\n" + body.joined(separator: "\n") + "\n```\n"
        }
        // Measured again (up to three times) until the pair holds: one moment of load on a shared
        // machine stretches one figure, a quadratic cost stretches every pair.
        let (smallSeconds, largeSeconds) = try Timing.firstHolding {
            (
                try Timing.bestSeconds { _ = try Render.markdown(block(200), name: "code-long-small") },
                try Timing.bestSeconds { _ = try Render.markdown(block(1_600), name: "code-long-large") }
            )
        } holds: {
            $0.1 < 16 * $0.0
        }
        #expect(largeSeconds < 16 * smallSeconds, "\(smallSeconds) s for 200 lines, \(largeSeconds) s for 1,600")
    }

    /// A block whose tokens differ only in colour keeps its colours beside its one run, by byte
    /// (``TokenColors``): each byte keeps its colour where layout cuts the block's text into the
    /// parts a long block is laid out in (2,000 source lines each), and where it leaves out
    /// repeated soft hyphens. Every `def` of 2,100 lines is in the keyword colour, every comment
    /// in the comment colour, before and after the cut, and after the soft hyphens.
    @Test(.slow) func tokenColoursStayOnTheirBytesAcrossPartsAndSoftHyphens() throws {
        let lines = (0..<2_100).map { "def f\($0)(x): return \"s\($0)\"  # c\($0)" }
        let markdown =
            "```python\n" + lines.joined(separator: "\n") + "\n```\n\n"
            + "```python\nx = \"a\u{AD}\u{AD}\u{AD}b\"  # after\n```\n"
        let (pdf, _) = try Render.markdown(markdown, name: "code-token-colours")
        let stretches = try PDFColoredText.read(pdf)
        let keywords = stretches.filter { $0.text.contains("def") }
        #expect(keywords.map { $0.text.components(separatedBy: "def").count - 1 }.reduce(0, +) == 2_100)
        #expect(Set(keywords.map(\.color)) == [Self.hex(.keyword)])
        for comment in ["# c0", "# c1999", "# c2000", "# c2099", "# after"] {
            let found = stretches.filter { $0.text.contains(comment) }
            #expect(!found.isEmpty && Set(found.map(\.color)) == [Self.hex(.comment)], "\(comment): \(found)")
        }
    }

    /// Highlighting costs little: 60 blocks of the first ten languages (each block its sample
    /// eight times, about 30 pages) take at most 1.7 times the instructions with highlighting
    /// as without (`-V highlight=false`), counted by Callgrind
    /// (``Render/instructions(_:name:options:)``), which the machine's load does not change.
    /// Measured ×1.54 (0.785 against 0.510 billion; ×1.58 before a block of colour-only tokens
    /// was one run, ×1.72 when the built-in style set keywords bold): most of what highlighting
    /// adds to so short a document is fixed, loading KSyntaxHighlighting and the ten languages'
    /// definitions; the bound fails when what it adds grows by a fifth. Where the instructions
    /// go, and the figure for 500 blocks, are in docs/performance.md ("Syntax highlighting").
    @Test(
        .slow,
        .enabled(
            if: ProcessInfo.processInfo.environment["TYPESET_BIN"] != nil,
            "instructions are counted on the release binary (TYPESET_BIN, as make test sets it)"))
    func highlightingCostsLittleWork() throws {
        let document = (0..<60).map { index in
            let sample = Self.samples[index % 10]
            let source = Array(repeating: sample.source, count: 8).joined(separator: "\n")
            return "```\(sample.language)\n\(source)\n```"
        }.joined(separator: "\n\n")
        let highlighted = try Render.instructions(document, name: "code-cost-highlighted")
        let plain = try Render.instructions(document, name: "code-cost-plain", options: ["-V", "highlight=false"])
        let ratio = Double(highlighted) / Double(plain)
        print("highlighting cost: \(highlighted) instructions highlighted, \(plain) plain: ×\(ratio)")
        #expect(ratio > 1.05, "the highlighted render found no highlighting library: ×\(ratio)")
        #expect(ratio <= 1.7, "\(highlighted) instructions highlighted, \(plain) plain: ×\(ratio)")
    }

    /// An untagged PDF, which has no tagging pass to paint a block's colours, draws each
    /// stretch of one colour on its own: every character in the colour the tagged PDF paints
    /// it, and the same visible text.
    @Test func untaggedCodeKeepsItsColours() throws {
        let markdown = Self.markdown(Array(Self.samples.prefix(4)))
        let (tagged, _) = try Render.markdown(markdown, name: "code-tagged")
        var options = RenderOptions()
        options.tagged = false
        let (untagged, _) = try Render.markdown(markdown, name: "code-untagged", options: options)
        let taggedStretches = try PDFColoredText.read(tagged)
        let untaggedStretches = try PDFColoredText.read(untagged)
        // Each visible character with its colour (a space has no ink: the tagged PDF leaves it
        // in the colour before it, the untagged one in its own).
        func inked(_ stretches: [PDFColoredText]) -> [String] {
            stretches.flatMap { stretch in stretch.text.filter { !$0.isWhitespace }.map { "\($0) \(stretch.color)" } }
        }
        #expect(Set(taggedStretches.map(\.color)).count > 4)
        #expect(inked(untaggedStretches) == inked(taggedStretches))
        // The same text; white space aside, which the tagged PDF's code copies as written
        // (replacement text of the tagging pass) and the untagged one as its glyphs read.
        func visible(_ pdf: String) throws -> String { try PDFProbe.text(pdf).filter { !$0.isWhitespace } }
        #expect(try visible(untagged) == visible(tagged))
    }

    /// A line holding what is drawn beside its glyphs — a colour emoji (drawn as a picture,
    /// with a stand-in glyph in its span of replacement text), the space primed before a face's
    /// first stand-in, a character of a fallback face (Japanese, Korean), a combining mark — is
    /// painted glyph for glyph as the untagged PDF draws it by bytes: no token's colour moves
    /// onto the characters beside it, on its line or the lines after. A line that ends in a
    /// fallback face's character ends with that face's word space, which extraction reads.
    @Test func tokenColoursStayOnTheirCharactersBesideEmojiAndOtherScripts() throws {
        let markdown = """
            ```python
            # 한글
            def g(name: str) -> None: pass  # テスト
            s = "テ🎉"
            # 漢字 🎉
            # comment and end
            t = "héllo 한글 テスト 🎉👍🏽 👨‍👩‍👧" + str(42)
            # emoji comment 🚀 and combining e\u{301}
            def f(x): return x  # done
            ```
            """
        let (taggedInk, untaggedInk) = try Self.asciiInk(markdown, name: "code-emoji")
        #expect(taggedInk == untaggedInk)
        // The closing quote is a string's, the comments' last letters a comment's.
        #expect(taggedInk.filter { $0.hasPrefix("\" ") }.allSatisfy { $0 == "\" \(Self.hex(.string))" }, "\(taggedInk)")
        #expect(taggedInk.contains("d \(Self.hex(.comment))") && !taggedInk.contains("= \(Self.hex(.string))"))
    }

    /// The same in a document over 64 KiB, whose lines are laid out ahead and drawn from their
    /// glyphs (``LineGlyphs``): every block's comment ending in Hangul or kana keeps the colours
    /// of the lines after it.
    @Test(.slow) func tokenColoursStayOnTheirCharactersInADocumentLaidOutAhead() throws {
        let block = """
            ```python
            # 한글 주석
            def greet(name: str) -> None:
                print(f"hello, {name}!")  # テスト
            ```

            A paragraph between the blocks.


            """
        let (taggedInk, untaggedInk) = try Self.asciiInk(String(repeating: block, count: 600), name: "code-ahead")
        #expect(taggedInk == untaggedInk)
        // Each block's `def`, as the untagged PDF draws it, in one colour.
        let defs = taggedInk.filter { $0.hasPrefix("d ") }
        #expect(defs.count == 600 && Set(defs).count == 1, "\(Set(defs))")
    }

    /// Each visible ASCII character of `markdown`'s PDF with its colour, tagged and untagged.
    static func asciiInk(_ markdown: String, name: String) throws -> (tagged: [String], untagged: [String]) {
        let (tagged, _) = try Render.markdown(markdown, name: "\(name)-tagged")
        var options = RenderOptions()
        options.tagged = false
        let (untagged, _) = try Render.markdown(markdown, name: "\(name)-untagged", options: options)
        func inked(_ stretches: [PDFColoredText]) -> [String] {
            stretches.flatMap { stretch in
                stretch.text.filter { $0.isASCII && !$0.isWhitespace }.map { "\($0) \(stretch.color)" }
            }
        }
        return (inked(try PDFColoredText.read(tagged)), inked(try PDFColoredText.read(untagged)))
    }

    /// Code in a quote, highlighted or plain, is in the code text colour, as outside it: the
    /// quote's muted colour is its prose's, not its code's (GitHub sets `pre` so).
    @Test func codeInAQuoteKeepsTheCodeColours() throws {
        let markdown = """
            > Quoted prose.
            >
            > ```bash
            > for item in 1 2 3; do echo $item; done
            > ```
            >
            > ```
            > plainword in quote
            > ```

            ```bash
            for item in 1 2 3; do echo $item; done
            ```
            """
        let (pdf, _) = try Render.markdown(markdown, name: "code-in-quote")
        let stretches = try PDFColoredText.read(pdf)
        let text = Theme.default.textColor.hex.lowercased()
        let prose = try #require(stretches.first { $0.text.contains("Quoted") }?.color)
        #expect(prose != text, "the quote's prose is muted: \(prose)")
        let items = stretches.filter { $0.text.contains("item") && !$0.text.contains("$") }
        #expect(items.count >= 2 && items.allSatisfy { $0.color == text }, "\(items)")
        #expect(stretches.filter { $0.text.contains("plainword") }.map(\.color) == [text], "\(stretches)")
    }

    /// A theme's code style (here the built-in dark one) colours the tokens.
    @Test func theDarkStyleColoursWithItsOwnPalette() throws {
        var theme = Theme.default
        theme.code = .dark
        let (pdf, _) = try Render.markdown(
            Self.markdown(Array(Self.samples.prefix(1))), name: "code-dark", options: RenderOptions(theme: theme))
        let stretches = try PDFColoredText.read(pdf)
        #expect(
            stretches.contains {
                $0.text.trimmingCharacters(in: .whitespaces) == "def" && $0.color == Self.hex(.keyword, .dark)
            })
        #expect(
            stretches.contains {
                $0.text.trimmingCharacters(in: .whitespaces) == "# note" && $0.color == Self.hex(.comment, .dark)
            })
        #expect(stretches.contains { $0.text.contains("f(x)") && $0.color == CodeStyle.dark.text!.hex.lowercased() })
    }
}
