import DocumentModel
import Testing

@testable import MarkdownParser

/// Jekyll's `{% highlight %}` and Hugo's `{{< highlight >}}` blocks are code blocks in their
/// language, line for line; in Markdown code, and never closed, they stay as written.
@Suite struct SiteCodeBlockTests {
    private func blocks(_ text: String) -> [Block.Kind] {
        MarkdownParser.parse(text, file: "t.md").document.blocks.map(\.kind)
    }

    @Test func highlightBlocksAreCodeInTheirLanguage() {
        let cases: [(String, String, String)] = [
            (
                "{% highlight ruby %}\ndef greet\n  puts \"hi\"\nend\n{% endhighlight %}\n", "ruby",
                "def greet\n  puts \"hi\"\nend"
            ),
            (
                "{{< highlight go >}}\nfunc main() {\n\tx := 1\n}\n{{< /highlight >}}\n", "go",
                "func main() {\n\tx := 1\n}"
            ),
            (
                "{% highlight python linenos %}\ndef f():\n    return 1\n{% endhighlight %}\n", "python",
                "def f():\n    return 1"
            ),
            ("{{< highlight js \"linenos=table,hl_lines=2\" >}}\nlet a = 1;\n{{< /highlight >}}\n", "js", "let a = 1;"),
        ]
        for (markdown, language, code) in cases {
            let found = blocks("Lead.\n\n" + markdown)
            guard case .codeBlock(let info, let text)? = found.last else {
                Issue.record("\(markdown): \(found)")
                continue
            }
            #expect(info.contains(language) && text == code + "\n", "\(markdown): \(info) \(text.debugDescription)")
            #expect(info.contains("numberLines") == markdown.contains("linenos"), "\(info)")
        }
    }

    @Test func tagsInCodeOrNeverClosedStayAsWritten() {
        let fenced = "```liquid\n{% highlight ruby %}\nx\n{% endhighlight %}\n```\n"
        #expect(blocks(fenced) == [.codeBlock(info: "liquid", text: "{% highlight ruby %}\nx\n{% endhighlight %}\n")])
        let unclosed = blocks("{% highlight ruby %}\nputs 1\n")
        guard case .paragraph(let inlines)? = unclosed.first else {
            Issue.record("\(unclosed)")
            return
        }
        #expect(inlines.map(\.plainText).joined().hasPrefix("{% highlight ruby %}"))
    }
}
