import MarkdownParser
import Styling
import TestSupport
import Testing
import Typography

/// Code blocks' info strings and the runs a highlighted block becomes.
@Suite struct CodeColoringTests {
    @Test func infoStringsNameTheLanguageAndOptions() {
        let plain = CodeBlockInfo(info: "python")
        #expect(plain.language == "python" && plain.highlight && !plain.numberLines && plain.startFrom == 1)
        let pandoc = CodeBlockInfo(info: "{.numberLines .Python startFrom=\"10\"}")
        #expect(pandoc.language == "Python" && pandoc.numberLines && pandoc.startFrom == 10)
        let both = CodeBlockInfo(info: "rust {.number-lines}")
        #expect(both.language == "rust" && both.numberLines)
        let off = CodeBlockInfo(info: "{.swift .nohighlight}")
        #expect(off.language == "swift" && !off.highlight && off.definition == nil)
        #expect(CodeBlockInfo(info: "text").definition == nil)
        #expect(CodeBlockInfo(info: "").definition == nil)
        #expect(CodeBlockInfo(info: "no-such-language").definition == nil)
        #expect(CodeBlockInfo(info: "PY").definition == "Python")
        #expect(pandoc.problems.isEmpty && CodeBlockInfo(info: "{.c startFrom=-3}").startFrom == -3)
    }

    /// The language is the first word up to a comma (rustdoc's and mdBook's
    /// ```` ```rust,ignore ````), and GitHub Linguist's aliases of the languages the library
    /// has name them: these were set plain.
    @Test func rustdocFencesAndLinguistAliasesNameTheirLanguage() {
        #expect(CodeBlockInfo(info: "rust,ignore").definition == "Rust")
        #expect(CodeBlockInfo(info: "rust,no_run,edition2021").definition == "Rust")
        #expect(CodeBlockInfo(info: "python,ignore {.numberLines}").definition == "Python")
        #expect(CodeBlockInfo(info: ",rust").language == nil)
        let aliases = [
            "batchfile", "dosini", "starlark", "bazel", "pycon", "pandoc", "cperl", "mak", "apacheconf", "tsql",
            "coffee", "gradle", "kts", "mjs", "raku", "lisp", "clj",
        ]
        for alias in aliases {
            #expect(CodeBlockInfo(info: alias).definition != nil, "\(alias)")
        }
    }

    /// Quarto's and R Markdown's executable chunks name their language first in the braces:
    /// they were set plain.
    @Test func quartoChunksNameTheirLanguage() {
        #expect(CodeBlockInfo(info: "{python}").definition == "Python")
        #expect(CodeBlockInfo(info: "{r, echo=FALSE}").definition == "R Script")
        #expect(CodeBlockInfo(info: "{r label}").language == "r")
        #expect(CodeBlockInfo(info: "{#id .ruby}").language == "ruby")
        #expect(CodeBlockInfo(info: "{#id}").language == nil)
    }

    /// A `startFrom` that is no whole number (a word, a fraction, past a billion) is said, and
    /// the lines are numbered from 1.
    @Test(arguments: ["ten", "1.5", "", "99999999999999999999", "2000000000"])
    func startFromThatIsNoNumberIsSaid(value: String) {
        let info = CodeBlockInfo(info: "{.python .numberLines startFrom=\"\(value)\"}")
        #expect(info.startFrom == 1)
        #expect(info.problems.count == 1 && info.problems[0].contains("startFrom=\"\(value)\""), "\(info.problems)")
    }

    /// A block's own `tab-size` sets its tab stops, as a div's sets those of the blocks in it
    /// (it was silently ignored); one that is no whole number from 1 to 16 is said.
    @Test func aBlocksTabSizeIsItsOwn() {
        #expect(CodeBlockInfo(info: "{.go tab-size=8}").tabSize == 8)
        #expect(CodeBlockInfo(info: "go {tabsize=2}").tabSize == 2)
        #expect(CodeBlockInfo(info: "go").tabSize == nil)
        for value in ["0", "17", "x", "2.5"] {
            let info = CodeBlockInfo(info: "{.go tab-size=\(value)}")
            #expect(info.tabSize == nil && info.problems.count == 1, "\(value): \(info.problems)")
        }
    }

    /// Inside braces a quoted value is one word, spaces and all, as Pandoc reads attributes:
    /// a class or a brace written inside quotes named the language or ended the braces.
    @Test func quotedValuesAreOneWord() {
        #expect(CodeBlockInfo(info: "{.numberLines title=\"my .python file\"}").language == nil)
        #expect(CodeBlockInfo(info: "{title=\"a b\" .rust}").language == "rust")
        #expect(CodeBlockInfo(info: "{title='x .py y' .go}").language == "go")
        #expect(CodeBlockInfo(info: "{title=\"a}b\" .rust}").language == "rust")
        #expect(CodeBlockInfo(info: "{.python startFrom=\" 12 \"}").startFrom == 12)
        let split = CodeBlockInfo(info: "{.python .numberLines startFrom=\"1 2\"}")
        #expect(split.startFrom == 1 && split.problems.first?.contains("startFrom=\"1 2\"") == true)
    }

    /// HTML's class for a code element's language (`language-python`, `lang-go`) names the
    /// language, in braces and as the first word.
    @Test func languagePrefixedClassesNameTheLanguage() {
        #expect(CodeBlockInfo(info: "{.language-python}").definition == "Python")
        #expect(CodeBlockInfo(info: "language-rust").definition == "Rust")
        #expect(CodeBlockInfo(info: "{.lang-go .numberLines}").definition == "Go")
        #expect(CodeBlockInfo(info: "language-").language == "language-")
    }

    /// A code span's attributes turn highlighting off as a fence's do, whatever their order: a
    /// language class beside `.nohighlight` highlighted the span.
    @Test func inlineCodeReadsNoHighlightAsBlocksDo() {
        for attributes in [
            "{.python .nohighlight}", "{.nohighlight .python}", "{.python .no-highlight}", "{.python highlight=false}",
            "{.python .plaintext}",
        ] {
            #expect(codeRuns("A `print(1)`\(attributes) B\n").count == 3, "\(attributes)")
        }
        #expect(codeRuns("A `print(1)`{.python} B\n").count > 3)
        #expect(codeRuns("A `print(1)`{.language-python} B\n").count > 3)
    }

    /// A fence closed at once has no line to number; a block of blank lines numbers them.
    @Test func aBlockWithoutLinesHasNoNumbers() {
        func numbered(_ markdown: String) -> [Bool] {
            let document = MarkdownParser.parse(markdown, file: "t.md").document
            return Styler.style(document, theme: .default).blocks.map { $0.codeLineNumbers != nil }
        }
        #expect(numbered("```{.python .numberLines}\n```\n") == [false])
        #expect(numbered("~~~{.numberLines startFrom=\"5\"}\n~~~\n") == [false])
        #expect(numbered("```{.python .numberLines}\n\n```\n") == [true])
        #expect(numbered("```{.python .numberLines}\nx\n```\n") == [true])
    }

    /// The runs of `markdown`'s paragraphs, a block's token colours made runs.
    func codeRuns(_ markdown: String, theme: Theme = .default) -> [StyledRun] {
        codeParagraphs(markdown, theme: theme).flatMap { $0.expandingTokenColors().runs }
    }

    func codeParagraphs(_ markdown: String, theme: Theme = .default) -> [StyledParagraph] {
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        return Array(Styler.style(document, theme: theme).blocks.flatMap(\.paragraphs))
    }

    /// A document's code blocks are highlighted up to ``Styler/highlightedCodeBudget`` bytes:
    /// the block that would pass it and every block after it are set plain, a warning at the
    /// first; a block without a language counts nothing.
    @Test func highlightingStopsAtTheDocumentsBudget() throws {
        let lines = Styler.highlightedCodeBudget / 2 / 20
        func block(_ name: String) -> String {
            "```python\n" + (0..<lines).map { "\(name)_\($0) = \($0 % 10)  # c" }.joined(separator: "\n") + "\n```\n"
        }
        let markdown = [block("a"), "```\nplain\n```\n", block("b"), block("c"), "```python\nx = 1\n```\n"]
            .joined(separator: "\n")
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        let styled = Styler.style(document, theme: .default)
        let colored = styled.blocks.flatMap(\.paragraphs).map { $0.tokenColors != nil }
        #expect(colored == [true, false, true, false, false], "\(colored)")
        let warnings = styled.diagnostics.filter { $0.message.contains("without syntax highlighting") }
        let cLine = markdown.components(separatedBy: "c_0")[0].filter { $0 == "\n" }.count
        #expect(warnings.count == 1 && warnings.first?.location?.line == cLine, "\(warnings)")
    }

    /// What a definition marks as information — CSS's pseudo-classes, Markdown's code spans —
    /// is coloured as an attribute, not as commentary (it took the comments' grey).
    @Test func informationIsNotDrawnAsAComment() throws {
        let comment = try #require(Theme.default.code.style(for: .comment)).color
        for (markdown, token) in [
            ("```css\na:hover { color: red; }\n```\n", ":hover"), ("```markdown\nSee `code` here.\n```\n", "`code`"),
        ] {
            let runs = codeRuns(markdown)
            let run = try #require(runs.first { $0.text.contains(token) }, "\(runs.map(\.text))")
            #expect(run.style.color != comment, "\(token)")
            #expect(run.style.color == Theme.default.code.style(for: .attribute)?.color, "\(token)")
        }
    }

    /// A block whose tokens differ from its plain style only in colour (the built-in styles')
    /// reaches layout as one run with its colours beside it, byte for byte the colours of the
    /// runs it stands for; a style that bolds a token keeps a run a token.
    @Test func colourOnlyTokensAreOneRunWithTheirColours() throws {
        let source = "def f(x):  # é 😀\n    return \"s\" + str(42 * x)"
        let paragraph = try #require(codeParagraphs("```python\n\(source)\n```\n").first)
        #expect(paragraph.runs.count == 1 && paragraph.runs[0].text == source)
        let colors = try #require(paragraph.tokenColors)
        let expanded = paragraph.expandingTokenColors()
        #expect(expanded.tokenColors == nil && expanded.runs.map(\.text).joined() == source)
        var offset = 0
        for run in expanded.runs {
            for byte in offset..<(offset + run.text.utf8.count) {
                #expect(colors.color(atByte: byte) == run.style.color)
            }
            offset += run.text.utf8.count
        }
        #expect(Set(expanded.runs.map(\.style.color)).count >= 4)
        // A slice starts at 0 and keeps each byte's colour.
        let middle = 7..<30
        let slice = try #require(colors.slice(middle))
        #expect(slice.starts.first == 0)
        for byte in middle { #expect(slice.color(atByte: byte - middle.lowerBound) == colors.color(atByte: byte)) }
        var bold = Theme.default
        bold.code.tokens[.keyword] = CodeTokenStyle(color: RGBAColor(hex: "#A01E2B")!, bold: true)
        let boldParagraph = try #require(codeParagraphs("```python\n\(source)\n```\n", theme: bold).first)
        #expect(boldParagraph.tokenColors == nil && boldParagraph.runs.count > 5)
        // A token with a background of its own keeps it, as a stretch of bytes.
        var boxed = Theme.default
        boxed.code.tokens[.string] = CodeTokenStyle(
            color: RGBAColor(hex: "#0A3069")!, background: RGBAColor(hex: "#FFEEEE")!)
        let boxedParagraph = try #require(codeParagraphs("```python\n\(source)\n```\n", theme: boxed).first)
        let background = try #require(boxedParagraph.tokenColors?.backgrounds.first)
        let bytes = Array(source.utf8)
        #expect(String(decoding: bytes[background.bytes], as: UTF8.self) == "\"s\"")
    }

    /// The runs' text joined is the code as written (tabs expanded), whatever the colours; the
    /// spaces between two tokens join a token's run rather than making one of their own.
    @Test func runsJoinToTheCodeAndSpacesJoinTokens() {
        let source = "def f(x):\n    # note \"quoted\"\n    return [x, 42, 'é', \"😀\"]  # done"
        let runs = codeRuns("```python\n\(source)\n```\n")
        #expect(runs.map(\.text).joined() == source)
        #expect(runs.count > 5)
        #expect(Set(runs.map(\.style.color)).count >= 4)
        #expect(!runs.contains { !$0.text.isEmpty && $0.text.allSatisfy { $0 == " " || $0 == "\n" } })
        let keyword = runs.first { $0.text.hasPrefix("def") }
        #expect(keyword?.style.color == CodeStyle.light.tokens[.keyword]?.color)
        #expect(keyword?.style.font.weight == .regular, "the built-in styles colour keywords without bolding them")
        // A style that sets keywords bold sets them in the bold face.
        var bold = Theme.default
        bold.code.tokens[.keyword] = CodeTokenStyle(color: RGBAColor(hex: "#A01E2B")!, bold: true)
        let boldKeyword = codeRuns("```python\n\(source)\n```\n", theme: bold).first { $0.text.hasPrefix("def") }
        #expect(boldKeyword?.style.font.weight == .bold)
    }

    @Test func frontMatterAndThemeTurnHighlightingOff() {
        let block = "```python\ndef f(): return 1\n```\n"
        #expect(codeRuns("---\nhighlight: false\n---\n\n" + block).count == 1)
        var theme = Theme.default
        theme.code.highlights = false
        #expect(codeRuns(block, theme: theme).count == 1)
        #expect(codeRuns(block).count > 1)
        let document = MarkdownParser.parse("---\nhighlight: maybe\n---\n\n" + block, file: "t.md").document
        let styled = Styler.style(document, theme: .default)
        #expect(styled.diagnostics.contains { $0.message.contains("'highlight' is true or false, not 'maybe'") })
        #expect(styled.blocks.flatMap(\.paragraphs).flatMap { $0.expandingTokenColors().runs }.count > 1)
    }

    /// A document is styled twice (a survey pass for page numbers and links, then the pass that
    /// draws), and each highlighted block's runs are built once: styling the document again
    /// costs about what styling its code plain does. Processor time of the calling thread (the
    /// styler runs on it), best of five, so other suites' load does not stretch one side alone;
    /// the first styling, which reads the Python definition and tokenizes, is not timed. With
    /// the runs kept the second styling measured 1.4-1.5 times the plain one (debug build, the
    /// runs looked up by text and style); rebuilding them, 3.4-3.7 times. The limit, 2, is
    /// between the two with room for a loaded machine (each side takes a few ms).
    @Test func stylingHighlightedCodeAgainCostsAboutWhatPlainCodeCosts() {
        let sample =
            "def area(radius, name):\n    \"\"\"The area.\"\"\"\n    # pi r squared\n"
            + "    return 3.14159 * radius ** 2, f\"{name}: {radius:.2f}\", [1, 2, 3]"
        let blocks = (0..<200).map { index in "```python\n# block \(index)\n\(sample)\n```" }
            .joined(separator: "\n\n")
        let highlighted = MarkdownParser.parse(blocks, file: "highlighted.md").document
        let plain = MarkdownParser.parse("---\nhighlight: false\n---\n\n" + blocks, file: "plain.md").document
        let first = Styler.style(highlighted, theme: .default)
        #expect(first.blocks.flatMap(\.paragraphs).flatMap { $0.expandingTokenColors().runs }.count > 200 * 10)
        // The cache is the process's: another suite's code can fill it and start it over, so
        // each of up to three attempts styles the document once more before timing it.
        var figures: [(again: Double, plain: Double)] = []
        for _ in 0..<3 where figures.allSatisfy({ $0.again >= 2 * $0.plain }) {
            _ = Styler.style(highlighted, theme: .default)
            let again = Timing.bestThreadSeconds(of: 5) { _ = Styler.style(highlighted, theme: .default) }
            let plainSeconds = Timing.bestThreadSeconds(of: 5) { _ = Styler.style(plain, theme: .default) }
            figures.append((again, plainSeconds))
        }
        #expect(figures.contains { $0.again < 2 * $0.plain }, "styled again, plain (s): \(figures)")
    }
}
