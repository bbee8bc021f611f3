import CodeHighlighting
import DocumentModel
import MarkdownParser
import TestSupport
import Testing
import Typography

@testable import Styling

/// A code block's token colours found from its tokens (``TokenStyleTable/colors(of:in:)``),
/// without making a run a token: the same colours, stretch for stretch, as the runs give, in
/// every code style and language tried, and with less work than making the runs.
@Suite struct TokenColorsFromTokensTests {
    /// Code in a few languages, with blanks between tokens, a diff's lines and characters of
    /// several UTF-8 lengths.
    static let samples: [(language: String, text: String)] = [
        ("python", "def f(x):  # é 😀\n    return \"s\" + str(42 * x)\n\n\nclass A:\n    pass"),
        ("c", "#include <stdio.h>\n/* c */ int main(void) {\n\treturn printf(\"%d\\n\", 0x1F);\n}"),
        ("diff", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old line\n+new line\n context"),
        ("bash", "for f in \"$@\"; do\n  echo \"$f: $(wc -l < \"$f\")\"   # count\ndone"),
        ("html", "<p class=\"a\">x &amp; y</p>\n<!-- c -->"),
        ("json", "{\"a\": [1, 2.5, true, null]}"),
        ("sql", "SELECT id FROM t WHERE x > 10; -- c"),
    ]

    /// Every built-in and library code style: some give tokens backgrounds of their own, some
    /// bold or italic ones (whose blocks keep their runs).
    static var codeStyles: [CodeStyle] {
        [CodeStyle.light, CodeStyle.dark] + LibraryCodeStyles.names.compactMap { LibraryCodeStyles.byName[$0] }
    }

    @Test func slotsFollowTheTokenKindsOrder() {
        for (index, token) in CodeToken.allCases.enumerated() {
            #expect(TokenStyleTable.slot(of: token) == index, "\(token)")
        }
    }

    /// The colours a block is given are those of the runs its tokens make, in each code style.
    @Test func coloursFromTokensAreTheColoursOfTheRuns() throws {
        let styles = Self.codeStyles
        #expect(styles.count > 10)
        var direct = 0
        for code in styles {
            var theme = Theme.default
            theme.code = code
            let styler = Styler(theme: theme)
            var base = RunStyle(font: FontSpec(families: theme.monospaceFamilies, size: 9))
            base.color = code.text ?? theme.textColor
            for sample in Self.samples {
                let definition = try #require(CodeHighlighter.definition(forLanguage: sample.language))
                let block = styler.codeBlockRuns(sample.text, definition: definition, base: base)
                let runs = styler.codeRuns(sample.text, definition: definition, base: base)
                #expect(runs.map(\.text).joined() == sample.text)
                let expected = TokenColors(runs, base: base)
                #expect(block.colors == expected, "\(code.name), \(sample.language)")
                if let colors = block.colors {
                    #expect(block.runs.count == 1 && block.runs[0].style == base)
                    let table = TokenStyleTable.table(base: base, code: code)
                    let spans = CodeHighlighter.tokens(in: sample.text, definition: definition)
                    #expect(table.colors(of: spans, in: sample.text) == colors)
                    direct += 1
                } else {
                    #expect(block.runs == runs, "\(code.name), \(sample.language)")
                }
            }
        }
        // The built-in styles' blocks, and others', are coloured without their runs.
        #expect(direct > 2 * Self.samples.count)
    }

    /// Styling distinct highlighted blocks whose tokens are already found, against styling them
    /// plain: with their colours found from the tokens 1.9-2.0 times the plain blocks' work in a
    /// debug build; making a run a token and reading the colours back from the runs (the token
    /// styles made once) 2.9-3.1 times. Since the text passes read a code block's bytes with
    /// `memchr` (tabs, separators), the work both share fell by about a fifth and the first
    /// measures 2.4-2.6 times (about 11.4 against 4.5 ms); the second's added work, the same,
    /// would now measure about 3.4 times. Processor time of the calling thread, best of five,
    /// each block new to the styler's cache at each styling. The limit, 2.9, is between the two.
    @Test func findingTheColoursCostsLittleMoreThanPlainCode() throws {
        let sample =
            "def area(radius, name):\n    \"\"\"The area.\"\"\"\n    # pi r squared\n"
            + "    return 3.14159 * radius ** 2, f\"{name}: {radius:.2f}\", [1, 2, 3]"
        let definition = try #require(CodeHighlighter.definition(forLanguage: "python"))
        var round = 0
        func document(highlighted: Bool) -> Document {
            round += 1
            let blocks = (0..<200).map { index in
                let text = "# block \(index) of \(round)\n\(sample)"
                // The tokens are found before the styling that is timed.
                _ = CodeHighlighter.tokens(in: text, definition: definition)
                return "```python\n\(text)\n```"
            }
            let front = highlighted ? "" : "---\nhighlight: false\n---\n\n"
            return MarkdownParser.parse(front + blocks.joined(separator: "\n\n"), file: "t.md").document
        }
        var figures: [(highlighted: Double, plain: Double)] = []
        for _ in 0..<3 where figures.allSatisfy({ $0.highlighted >= 2.9 * $0.plain }) {
            let highlighted = (0..<5).map { _ in document(highlighted: true) }
            let plain = (0..<5).map { _ in document(highlighted: false) }
            var next = 0
            let highlightedSeconds = Timing.bestThreadSeconds(of: 5) {
                _ = Styler.style(highlighted[next], theme: .default)
                next += 1
            }
            next = 0
            let plainSeconds = Timing.bestThreadSeconds(of: 5) {
                _ = Styler.style(plain[next], theme: .default)
                next += 1
            }
            figures.append((highlightedSeconds, plainSeconds))
        }
        #expect(figures.contains { $0.highlighted < 2.9 * $0.plain }, "highlighted, plain (s): \(figures)")
    }
}
