import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// `$…$`, `` $`…`$ ``, `$$…$$` and ```` ```math ```` as GitHub and Pandoc read them, and dollars
/// that are not math.
@Suite struct MathSyntaxTests {
    /// Every formula of `text`: its source and whether it is displayed.
    static func formulas(_ text: String) -> [(source: String, display: Bool)] {
        var found: [(String, Bool)] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .math(let source, let display, _, _): found.append((source, display))
                case .emphasis(let children), .strong(let children), .span(_, let children): visit(children)
                default: break
                }
            }
        }
        for block in blocks(text) {
            if case .paragraph(let inlines) = block.kind { visit(inlines) }
        }
        return found
    }

    static func text(_ markdown: String) -> String {
        blocks(markdown).compactMap { block -> String? in
            if case .paragraph(let inlines) = block.kind { return inlines.plainText }
            return nil
        }.joined(separator: "\n")
    }

    /// LaTeX's tie before a reference in running text, `Eq.~\eqref{key}` and `Fig.~\ref{key}`,
    /// is a no-break space (the reference read as a formula, as without it); an escaped `\~`
    /// or a doubled `~~` before one is text, and a `~` before anything else is untouched.
    @Test func aTieBeforeAReferenceIsANoBreakSpace() {
        let text = Self.text(#"Eq.~\eqref{a}, Fig.~\ref{b}, not \~\ref{c}, x~y."#)
        #expect(text == "Eq.\u{00A0}\\eqref{a}, Fig.\u{00A0}\\ref{b}, not ~\\ref{c}, x~y.", "\(text)")
        #expect(Self.formulas(#"Eq.~\eqref{a} and Fig.~\ref{b}"#).map(\.source) == [#"\eqref{a}"#, #"\ref{b}"#])
    }

    /// A `$` that opens TeX no `$` closes is set as text and named at its place; a dollar
    /// before a price or a shell variable, one that closes, and one in code are not named.
    @Test func aFormulaLeftOpenIsNamed() {
        func places(_ markdown: String) -> [String] {
            MarkdownParser.parse(markdown, file: "t.md").diagnostics.filter { $0.message.contains("no '$' closes") }
                .compactMap { $0.location.map { "\($0.line):\($0.column)" } }
        }
        #expect(places("The energy $E = mc^2 is conserved, and the mass $m$ is constant.\n") == ["1:12"])
        #expect(places("A $x_1 and then $y$ here.\n\nThe price $\\alpha is odd.\n") == ["1:3", "3:11"])
        #expect(places("It costs $5 and $10; see $HOME/bin and $PATH, `$x^2`.\n").isEmpty)
        #expect(places("Fine $a^2$ and $b$, $USD and $_SESSION.\n").isEmpty)
        // Environment variables' names and Markdown's escapes are not TeX; a capital's subscript is.
        #expect(places("Add $PYENV_ROOT/bin to PATH, and $MY_2ND_VAR too.\n").isEmpty)
        #expect(places("See RegExp.$\\_ and RegExp.$\\* in the notes.\n").isEmpty)
        #expect(places("A sum $X_1 + y never closed.\n") == ["1:7"])
        #expect(Self.text("The energy $E = mc^2 is here.\n") == "The energy $E = mc^2 is here.")
        // The quote ends before a character, not inside one, whatever the text's script.
        for text in ["$\\alpha 가나다라마바사아자차카타파하", "$x^2 é é é é é é é é é é é é é é é", "$\\beta 😀😀😀😀😀😀😀😀😀"] {
            for shift in 0..<4 {
                let markdown = text.replacingOccurrences(of: " ", with: String(repeating: " ", count: shift + 1)) + "\n"
                let messages = MarkdownParser.parse(markdown, file: "t.md").diagnostics.map(\.message)
                    .filter { $0.contains("no '$' closes") }
                #expect(messages.count == 1, "\(markdown)")
                #expect(messages.allSatisfy { !$0.contains("\u{FFFD}") }, "\(messages)")
            }
        }
    }

    @Test func inlineAndDisplayFormulas() {
        let found = Self.formulas("Euler: $e^{i\\pi} + 1 = 0$, and $`a^2`$ too.\n\n$$\n\\int_0^1 x\\,dx\n$$\n")
        #expect(found.map(\.source) == [#"e^{i\pi} + 1 = 0"#, "a^2", #"\int_0^1 x\,dx"#])
        #expect(found.map(\.display) == [false, false, true])
        let fenced = blocks("```math\n\\frac{a}{b}\n```\n")
        #expect(
            fenced.map(\.kind) == [
                .paragraph([
                    .math(
                        #"\frac{a}{b}"#, display: true, location: fenced[0].location,
                        sourceStart: SourceLocation(file: "t.md", line: 2, column: 1))
                ])
            ])
    }

    /// A display environment written bare at a line's start, without dollars (Jupyter's and
    /// Pandoc's documents), is a displayed formula, its `\\` kept; one in a line's middle, in
    /// code, or never closed stays text.
    @Test func bareDisplayEnvironmentsAreMath() {
        let markdown =
            "Intro.\n\n\\begin{align}\na &= b \\\\\n&= c\n\\end{align}\n\nAfter \\begin{align} x \\end{align}.\n"
        #expect(Self.formulas(markdown).map(\.source) == ["\\begin{align}\na &= b \\\\\n&= c\n\\end{align}"])
        #expect(Self.formulas(markdown).map(\.display) == [true])
        #expect(Self.formulas("`\\begin{align}x\\end{align}`\n\n    \\begin{equation}y\\end{equation}\n").isEmpty)
        #expect(Self.formulas("\\begin{align}\nnever closed\n").isEmpty)
        #expect(Self.formulas("\\begin{itemize}\nnot math\n\\end{itemize}\n").isEmpty)
    }

    /// In a table row, `\|` inside a formula is the `|` the cell keeps, as GitHub reads it;
    /// elsewhere it is TeX's `\|` (‖).
    @Test func anEscapedPipeInATableCellIsAPipe() {
        var sources: [String] = []
        for block in blocks("| a | b |\n|---|---|\n| $a \\| b$ | y |\n\n$\\|x\\|$\n") {
            if case .table(let table) = block.kind {
                for case .math(let source, _, _, _) in table.rows.flatMap({ $0 }).flatMap({ $0 }) {
                    sources.append(source)
                }
            }
            if case .paragraph(let inlines) = block.kind {
                for case .math(let source, _, _, _) in inlines { sources.append(source) }
            }
        }
        #expect(sources == ["a | b", #"\|x\|"#], "\(sources)")
    }

    @Test func escapesReachTheMathAsWritten() {
        #expect(Self.formulas(#"$\{a\}\,\\ b$"#).map(\.source) == [#"\{a\}\,\\ b"#])
        #expect(Self.formulas(#"$a \$ b$"#).map(\.source) == [#"a \$ b"#])
    }

    @Test func codeKeepsItsDollars() {
        #expect(Self.formulas("`$x$` and\n\n```\n$y$\n```\n\n    $z$\n").isEmpty)
    }

    /// A code span binds tighter than a formula: a `$` in prose never pairs with one in code,
    /// inline or displayed, before or after it, and the text keeps every dollar and the code
    /// span; a formula beside code is still one.
    @Test func aDollarInCodeClosesNoFormula() {
        for (markdown, expected) in [
            ("It costs $5 and `$` is the sign.", "It costs $5 and $ is the sign."),
            (
                "In shell, $1 is the first argument and `$#` the count.",
                "In shell, $1 is the first argument and $# the count."
            ),
            ("Display $$ and `$$` code.", "Display $$ and $$ code."),
            ("Over lines $a\nand `b$` here.", "Over lines $a and b$ here."),
            ("Two `` $x` `` then $y and more.", "Two $x` then $y and more."),
        ] {
            #expect(Self.formulas(markdown).isEmpty, "\(markdown.debugDescription)")
            #expect(Self.text(markdown) == expected, "\(markdown.debugDescription)")
        }
        let mixed = Self.formulas("A $a + b$ then `$` code, and `c` before $d$.")
        #expect(mixed.map(\.source) == ["a + b", "d"])
    }

    /// Code that the marking pass, which reads lines without parsing their containers, takes
    /// for prose (a tab in a list item's or quote's indent makes its code): the code shows each
    /// formula as written, delimiters included, never the marker that stood for it.
    @Test(arguments: [
        "-\t\t$x$ and $$y$$ code", ">\t\t$x$ and $$y$$ code", ">   \t$x$ and $$y$$ code",
        "1.\t\t$x$ and $$y$$ code", "> -\t\t$x$ and $$y$$ code",
    ])
    func codeInContainersShowsItsFormulasAsWritten(line: String) {
        var code: [String] = []
        func visit(_ blocks: [Block]) {
            for block in blocks {
                switch block.kind {
                case .codeBlock(_, let text): code.append(text)
                case .blockQuote(let children), .div(let children): visit(children)
                case .list(let list):
                    for item in list.items { visit(item.blocks) }
                default: break
                }
            }
        }
        visit(blocks(line + "\n"))
        #expect(code.count == 1 && code[0].hasSuffix("$x$ and $$y$$ code\n"), "\(code)")
        #expect(!code.joined().contains(FormulaMarkers.tag))
    }

    /// A list item's and a footnote's blocks are indented; they are paragraphs, not code, up to
    /// four columns past the content's indent, and their math is set: a note's later
    /// paragraphs (four columns in), a display formula there, an item's second paragraph. Code
    /// indented past that, fenced code in them, and code after them keep their dollars.
    @Test(arguments: [
        (
            "[^1]: First $a$.\n\n    Second $b$.\n\n    $$c$$\n\n    - item $d$\n\n          $code$\n",
            ["$a$", "$b$", "$$c$$", "$d$"], ["$code$"]
        ),
        ("[^1]: Note.\n\n    ```\n    $fenced$\n    ```\n\n    After $e$.\n", ["$e$"], ["$fenced$"]),
        ("- item\n\n      $code$\n\n  para $x$\n", ["$x$"], ["$code$"]),
        ("10. item\n\n    second $y$\n\n    - nested\n\n      nested para $z$\n", ["$y$", "$z$"], []),
        ("- a\n\ntext $t$\n\n    $code$\n", ["$t$"], ["$code$"]),
        ("> - quoted $q$\n", ["$q$"], []),
        // A note's text may open with a formula: `[^1]:` is no link reference definition, whose
        // destination would be kept as written.
        ("[^1]: $f$ opens the note.\n", ["$f$"], []),
        ("   [^note]:   $$g$$ and $h$\n", ["$$g$$", "$h$"], []),
        ("[^1]:\t$i$\n\n[ref]: https://a.com/$kept$\n", ["$i$"], ["$kept$"]),
    ])
    func indentedBlocksOfItemsAndNotesSetTheirMath(markdown: String, math: [String], code: [String]) {
        let marked = MathSyntax.marking(markdown).text
        for formula in math { #expect(!marked.contains(formula), "\(formula) not set in \(markdown)") }
        for literal in code { #expect(marked.contains(literal), "\(literal) set as math in \(markdown)") }
    }

    /// A `$` inside an address is part of it, as GitHub and Pandoc read it (they parse links
    /// and HTML before math): a link's or reference definition's destination, an autolink, an
    /// HTML tag's attribute, a bare URL. Math around them is still math.
    @Test(arguments: [
        "[link](https://a.com/$y$/p) and $m$", "<https://a.com/$y$/p> and $m$",
        #"<a href="https://x.com/$d$">text</a> and $m$"#, #"<img src="a.png" alt="$c$"> and $m$"#,
        #"<span title="cost $x$">inline</span> after $m$"#, "see https://example.com/$x$/long and $m$",
        "www.example.com/$x$/ then $m$", "[ref]\n\n[ref]: https://a.com/$q$/r\n\nand $m$",
        "[a](<b $c$ d>) and $m$",
    ])
    func dollarsInAddressesAreNotMath(markdown: String) {
        let marked = MathSyntax.marking(markdown).text
        let kept = markdown.replacingOccurrences(of: "$m$", with: "")
        #expect(marked.hasPrefix(String(kept.prefix { $0 != "\n" }.prefix(20))), "\(marked)")
        #expect(marked.components(separatedBy: MathSyntax.tag).count == 2, "one formula: \(marked)")
        #expect(MathSyntax.unmarked(marked) == markdown)
    }

    @Test func fiftyLinesOfDollarsThatAreNotMath() {
        let lines = [
            "It costs $5 and $10.", "Between $5 and $10 a day.", "echo $HOME", "export PATH=$PATH:$HOME/bin",
            "Prices: $ 5, $ 10.", "He paid $20, she paid $30.", "A $ sign alone.", "The range $1-$2.",
            "Costs $3.50 or $4.", "Use \\$x\\$ for a literal.", "$ 5 $", "US$5 and CA$7.", "Tip: $1,000 and $2,000.",
            "Save $$ now", "$", "$$", "A lone $ and another $ spaced.", "cash $5; card $6", "From $0 to $9",
            "$USER and $SHELL", "`$x$` in code", "Between $1.5m and $2m", "${HOME}/bin", "$(pwd) is here",
            "$? is the status", "say \"$5\" and \"$6\"", "earn $100k, spend $50k", "costs $5.", "($5)", "[$6]",
            "*$7* and *$8*", "$5/month or $50/year", "$5\u{00A0}and $6", "5$ and 6$ in Europe", "$1 + $2 = $3",
            "The $ is strong and the $ is weak", "Deposit $5 then withdraw $2", "$9.99 $19.99", "between $ and $",
            "$-5 and $-6", "a $ b $ c", "$3 for 2 and $4 for 3", "x$y$2", "$10 to $20\nand more",
            "Send $$$ now", "$5 + tax, $6 + tax", "Only $ 7 $ 8", "Price: $12 (was $15)", "$HOME and $PWD",
            "1$ 2$ 3$",
        ]
        #expect(lines.count == 50)
        for line in lines {
            #expect(Self.formulas(line).isEmpty, "\(line) read as math: \(Self.formulas(line))")
            #expect(Self.text(line).contains("$"), "\(line) lost its dollars: \(Self.text(line))")
        }
    }

    /// A formula followed by an English suffix (`$n$th`, `$x$s`), which GitHub's rule keeps as
    /// text, is warned about where it is written, once; the fifty lines of dollars that are not
    /// math warn about nothing.
    @Test func aFormulaWithASuffixIsWarnedAbout() {
        for (line, written) in [
            ("The $n$th term.", "$n$th"), ("All $x$s here", "$x$s"), ("the $k$-th and $i$rd", "$i$rd"),
        ] {
            let found = MathSyntax.marking(line).findings.suffixedFormulas
            #expect(found.map(\.written) == [written], "\(line): \(found)")
            let column = line.distance(from: line.startIndex, to: line.range(of: written)!.lowerBound) + 1
            #expect(found.first?.column == column, "\(line)")
        }
        let diagnostics = MarkdownParser.parse("A\n\nThe $n$th term and $k$th.\n", file: "t.md").diagnostics
        #expect(diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == ["3:5", "3:20"])
        for line in ["echo $HOME and $PATH", "export PATH=$PATH:$HOME/bin", "$5 and $10th", "$x$stuff", "$n$-th"] {
            #expect(MathSyntax.marking(line).findings.suffixedFormulas.isEmpty, "\(line)")
        }
    }

    /// A formula inside `\text{…}` in an inline formula is part of it: dollars inside braces
    /// close nothing, as MathJax balances braces between its delimiters; braces that never
    /// close leave the first dollar to close, as before.
    @Test func dollarsInsideBracesCloseNothing() {
        #expect(Self.formulas(#"A $|x| = \text{$x$ if $x>0$}$ here."#).map(\.source) == [#"|x| = \text{$x$ if $x>0$}"#])
        #expect(Self.formulas(#"$\text{a $b$}$ and $c$"#).map(\.source) == [#"\text{a $b$}"#, "c"])
        #expect(Self.formulas(#"$f{x$ and $y$"#).map(\.source) == ["f{x", "y"])
        #expect(Self.formulas(#"$\{x$ and $y\}$"#).map(\.source) == [#"\{x"#, #"y\}"#])
    }

    /// Dollars inside braces that never close cost each opening dollar a bounded scan.
    @Test func unclosedBracesBetweenDollarsAreReadInLinearTime() {
        func seconds(_ count: Int) -> Double {
            let text = String(repeating: "$x{y", count: count) + "\n"
            return Timing.bestSeconds { _ = MathSyntax.marking(text) }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(figures) s for 2,000 and 16,000")
    }

    @Test func mathFalseKeepsDollarsAsText() {
        let text = "---\nmath: false\n---\n\n$x^2$ and $$y$$\n"
        #expect(Self.formulas(text).isEmpty)
        #expect(Self.text(text) == "$x^2$ and $$y$$")
    }

    @Test func formulasKnowWhereTheyStart() {
        let paragraph = blocks("Text $a$ and\nmore $b$.")[0]
        guard case .paragraph(let inlines) = paragraph.kind else { return }
        let places = inlines.compactMap { inline -> (Int, Int)? in
            if case .math(_, _, let location?, _) = inline { return (location.line, location.column) }
            return nil
        }
        #expect(places.map(\.0) == [1, 2])
        #expect(places.map(\.1) == [6, 6])
    }

    /// After front matter (YAML or TOML, any length), a formula's place is its line in the file:
    /// the Markdown after the front matter is marked alone, counting lines from where it begins.
    @Test(arguments: ["---\ntitle: T\nauthor: A\n---\n", "+++\ntitle = \"T\"\n+++\n", "---\n---\n"])
    func formulasAfterFrontMatterKnowTheirLine(frontMatter: String) throws {
        let before = frontMatter.count { $0 == "\n" }
        let parsed = MarkdownParser.parse(frontMatter + "\nText $a$ and\nmore $b$.\n\n$$c$$\n", file: "t.md")
        var places: [(Int, Int)] = []
        for block in parsed.document.blocks {
            guard case .paragraph(let inlines) = block.kind else { continue }
            for case .math(_, _, let location?, _) in inlines { places.append((location.line, location.column)) }
        }
        #expect(places.map(\.0) == [before + 2, before + 3, before + 5], "\(places)")
        #expect(places.map(\.1) == [6, 6, 1], "\(places)")
    }

    /// A formula over several lines of a block quote (or an alert, or a quote in a list item)
    /// leaves the quote's `>` markers out of its source: they are the quote's, not TeX.
    @Test func formulasInQuotesLeaveTheQuoteMarkersOut() {
        let cases: [(String, String)] = [
            ("> $$\n> a + b = c\n> $$\n", "a + b = c"),
            ("> [!NOTE]\n> $$\n> x = 1\n> $$\n", "x = 1"),
            ("> $$a + b\n> = c$$\n", "a + b\n= c"),
            ("> > $$\n> > y\n> >   + z\n> > $$\n", "y\n  + z"),
            ("- item\n\n  > $$\n  > w = 2\n  > $$\n", "w = 2"),
            ("> $a +\n> b$ inline\n", "a +\nb"),
            ("$$\na > b\n> c\n$$\n", "a > b\n> c"),
        ]
        for (markdown, expected) in cases {
            let marked = MathSyntax.marking(markdown).text
            let markers = marked.components(separatedBy: "<\(MathSyntax.tag) ").dropFirst().map {
                "<\(MathSyntax.tag) " + $0.prefix { $0 != ">" } + ">"
            }
            let sources = markers.compactMap { MathSyntax.formula(inMarker: $0)?.source }
            #expect(sources == [expected], "\(markdown): \(sources)")
        }
    }

    /// Marking formulas takes time in proportion to the text, in every shape that used to make
    /// each formula re-read what came before it or what follows it in its paragraph: formulas
    /// in one long paragraph, on many lines, and unclosed `$$`, `` $` `` and backtick runs.
    @Test(.slow) func markingTimeGrowsLinearly() {
        let shapes: [(String, (Int) -> String)] = [
            ("one paragraph", { n in (0..<n).map { "$x_{\($0)}$" }.joined(separator: " ") }),
            ("a formula a line", { n in (0..<n).map { "$x_{\($0)}$\n" }.joined() }),
            ("unclosed $$", { n in String(repeating: "a $$ b ", count: n) }),
            ("unclosed $`", { n in String(repeating: "a $` b ", count: n) }),
            ("unclosed backticks", { n in (0..<n).map { "``x $y$ `z" + ($0 % 2 == 0 ? " " : "\n") }.joined() }),
        ]
        let small = 4_000
        for (name, make) in shapes {
            let (smallText, largeText) = (make(small), make(small * 8))
            func seconds(_ text: String) -> Double {
                Timing.bestThreadSeconds(of: 2) { #expect(!MathSyntax.marking(text).text.isEmpty) }
            }
            // Below 10 ms the clock's grain and the fixed costs dominate: compare with 10 ms then.
            let (smallSeconds, largeSeconds) = Timing.firstHolding(
                { (seconds(smallText), seconds(largeText)) }, holds: { $0.1 / max($0.0, 0.01) <= 10 })
            let ratio = largeSeconds / max(smallSeconds, 0.01)
            #expect(ratio <= 10, "\(name): ×8 the text took \(smallSeconds) s → \(largeSeconds) s")
        }
    }

    /// A warning's quoted word written apart in the source (a code span inside it, emphasis) is
    /// placed where its longest start is written, not left at its block's start: in a
    /// paragraph's second line and in a table's third row.
    @Test func aWordWrittenApartIsPlacedWhereItStarts() {
        for (markdown, line, column) in [
            ("First line\nthen Environmentvariable`API_KEY_VALUE`isconfigured end.\n", 2, 6),
            ("| a | b |\n|---|---|\n| x | y |\n| 1 | 환경변수`API_KEY`에설정 |\n", 4, 7),
            ("Words *and* a **Longwordwith**emphasisinside end.\n", 1, 17),
        ] {
            let document = MarkdownParser.parse(markdown, file: "t.md").document
            let printed =
                markdown.contains("환경")
                ? "환경변수API_KEY에설정"
                : markdown.contains("Long") ? "LongwordwithemphasisinsideX" : "EnvironmentvariableAPI_KEY"
            let diagnostic = Diagnostic(
                .warning, "w", at: SourceLocation(file: "t.md", line: 1, column: 1), subject: String(printed.prefix(24))
            )
            let placed = document.source.placingSubjects(of: [diagnostic]).first?.location
            #expect(placed == SourceLocation(file: "t.md", line: line, column: column), "\(markdown)")
        }
    }

    /// Placing warnings on a line of many formulas reads the line's markers once, not once a
    /// warning: n warnings on a line of n formulas, and 8n on a line of 8n, take at most ten
    /// times as long (a `make fuzz` find: 19 to 58 s for a 12–68 KB input).
    @Test(.slow) func placingWarningsOnALineOfFormulasIsLinear() {
        func seconds(_ n: Int) -> Double {
            let line = (0..<n).map { "$x_{\($0)}$ w\($0)" }.joined(separator: " ")
            let document = MarkdownParser.parse(line + "\n", file: "t.md").document
            let diagnostics = (0..<n).map {
                Diagnostic(.warning, "w", at: SourceLocation(file: "t.md", line: 1, column: 1), subject: "w\($0) ")
            }
            return Timing.bestThreadSeconds(of: 2) {
                #expect(document.source.placingSubjects(of: diagnostics).count == n)
            }
        }
        let (small, large) = Timing.firstHolding(
            { (seconds(500), seconds(4_000)) }, holds: { $0.1 / max($0.0, 0.01) <= 10 })
        #expect(large / max(small, 0.01) <= 10, "×8 the warnings took \(small) s → \(large) s")
    }

    /// A `$$` with no closing `$$` in its paragraph stays text and is warned about where it is
    /// written (after front matter, in a quote and a list item); a closed one and one in code
    /// are not.
    @Test func anUnclosedDisplayIsWarnedAboutWhereItIs() {
        let markdown = """
            ---
            title: T
            ---
            Intro $$x$$ closed.

            $$ x^2 + y^2
            and more text

            ```
            $$ in code
            ```

            > quoted $$a

            - item `$$` then $$b
            """
        let parsed = MarkdownParser.parse(markdown, file: "m.md")
        let places = parsed.diagnostics.filter { $0.message.contains("'$$' opens display math") }.map {
            "\($0.location?.line ?? 0):\($0.location?.column ?? 0)"
        }
        #expect(places == ["6:1", "13:10", "15:18"], "\(parsed.diagnostics)")
        #expect(Self.text(markdown).contains("$$ x^2 + y^2"))
    }
    /// An HTML comment or `<pre>` opened and never closed is searched to its paragraph's end
    /// once, not once each: a paragraph of many takes time linear in its length (8× the
    /// openings, at most 16× the time; each searched to the end would be 64×). Also `<` in a
    /// formula's search looks a bounded way for a tag.
    @Test(arguments: ["<!-- x ", "<pre> x ", "<PRE>x ", "<a"])
    func manyUnclosedCommentsAndRawElementsMarkInLinearTime(opening: String) {
        func document(_ count: Int) -> String { "$a " + String(repeating: opening, count: count) + "$\n" }
        let small = document(4_000)
        let large = document(32_000)
        let seconds = Timing.firstHolding {
            [
                Timing.bestSeconds { _ = MathSyntax.marking(small) },
                Timing.bestSeconds { _ = MathSyntax.marking(large) },
            ]
        } holds: {
            $0[1] < 16 * $0[0]
        }
        #expect(seconds[1] < 16 * seconds[0], "\(seconds)")
        #expect(MathSyntax.unmarked(MathSyntax.marking(small).text) == small)
    }
}
