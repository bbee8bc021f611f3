import Foundation
import TestSupport
import Testing

/// A `$…$` formula spans only text that Markdown reads as one run of inline text: a dollar
/// pairs with no dollar across a table row's cells or rows, an HTML tag or comment, the raw
/// text of `<pre>` (whose dollars are kept as written), or a link's title, as GitHub and Pandoc
/// read them (they parse tables, HTML and links before math). Each case's words, dollars and
/// markup-free text must all reach the page, and the formulas beside them stay formulas.
@Suite struct FormulaBoundaryTests {
    @Test(arguments: [
        ("| a | b |\n|---|---|\n| $a | one |\n| b$ | two |\n", ["$a", "one", "b$", "two"]),
        ("x | y\n--|--\n$p | q$\nr | s\n", ["$p", "q$", "r", "s"]),
        ("| cell | other |\n|---|---|\n| <code>$</code> | one |\n| <code>$</code> | two |\n", ["$", "one", "two"]),
        ("Use <span>$</span> or <span>$</span> here.\n", ["Use $ or $ here."]),
        ("<pre>\nx $y$ z\n\nafter $w$ blank\n</pre>\n", ["x $y$ z", "after $w$ blank"]),
        ("<pre><code>total $amount$ here</code></pre>\n", ["total $amount$ here"]),
        ("<details><summary>S</summary>\n\n<pre>a $$b$$ c</pre>\n</details>\n", ["a $$b$$ c"]),
        (#"[link](http://x.com "cost $a$ b") after"# + "\n", ["link after"]),
        ("[ref link][r] after\n\n" + #"[r]: http://y.com "ref $t$ title""# + "\n", ["ref link after"]),
        ("Cost $5 <!-- was $7 --> now, total x$ alpha.\n", ["Cost $5 now, total x$ alpha."]),
        ("<!--\n$hidden$\n\nstill $hidden$\n-->\n\nshown\n", ["shown"]),
    ])
    func dollarsAcrossMarkdownsBoundariesStayText(markdown: String, expected: [String]) throws {
        // A file a case: the cases run in parallel.
        let name = "formula-boundary-\(markdown.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFFFF })"
        let (pdf, report) = try Render.markdown(markdown, name: name)
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for words in expected { #expect(text.contains(words), "'\(words)' missing from '\(text)'") }
        #expect(!text.contains("typeset-math") && !text.contains("hidden") && !text.contains("title"), "\(text)")
        #expect(!report.diagnostics.contains { $0.message.contains("names no definition") }, "\(report.diagnostics)")
    }

    /// Formulas beside those boundaries are still set: in a cell (with `\|` a `|` of the
    /// formula), after a tag, around a comment, with `<` in TeX, and over a line break.
    @Test func formulasBesideTheBoundariesAreSet() throws {
        let markdown = """
            | x | y |
            |---|---|
            | $x^2$ | $a\\|b$ |

            <span>tag</span> then $E=mc^2$ <!-- note --> and $a<b$ and
            $c
            + d$ across lines.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "formula-boundary-math")
        let text = try PDFProbe.text(pdf)
        for source in ["x^2", "a|b", "E=mc^2", "a<b", "c\n+ d"] {
            #expect(!text.contains("$" + source + "$"), "$\(source)$ left as text")
        }
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("Math") }, "no math face")
    }
}
