import DocumentModel
import Testing

@testable import MarkdownParser

/// Pandoc's implicit heading references: `[Heading]`, `[Heading][]` and `[text][Heading]` link
/// to the heading of that text (ATX, with closing hashes or an id, and setext), the first of two;
/// a definition the document writes wins; a heading in code or a quote defines nothing; a text
/// that ends in an open fence gets nothing appended.
@Suite struct HeadingReferenceTests {
    /// The destinations of the links in `text`'s paragraphs, in order.
    private func destinations(_ text: String) -> [String] {
        var found: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .link(let destination, _, let children):
                    found.append(destination)
                    visit(children)
                case .emphasis(let children), .strong(let children), .span(_, let children): visit(children)
                default: break
                }
            }
        }
        for block in MarkdownParser.parse(text, file: "t.md").document.blocks {
            if case .paragraph(let inlines) = block.kind { visit(inlines) }
        }
        return found
    }

    @Test func eachFormLinksToItsHeading() {
        let cases: [(String, [String])] = [
            (
                "# My Section\n\n[My Section], [My Section][] and [this][my  section].\n",
                Array(repeating: "#My Section", count: 3)
            ),
            ("## Closed ##\n\nSee [Closed].\n", ["#Closed"]),
            ("## Other Part {#other .unnumbered}\n\nSee [Other Part].\n", ["#other"]),
            ("Setext Heading\n==============\n\nSee [Setext Heading].\n", ["#Setext Heading"]),
            ("Under Dashes\n---\n\nSee [Under Dashes].\n", ["#Under Dashes"]),
            ("# The *quick* fox\n\nSee [The *quick* fox].\n", ["#The quick fox"]),
            ("# Twice {#first}\n\n# Twice {#second}\n\nSee [Twice].\n", ["#first"]),
            ("# Defined\n\nSee [Defined].\n\n[Defined]: https://example.com\n", ["https://example.com"]),
        ]
        for (markdown, expected) in cases {
            #expect(destinations(markdown) == expected, "\(markdown.debugDescription): \(destinations(markdown))")
        }
    }

    @Test func headingsInCodeOrQuotesAndOpenFencesDefineNothing() {
        for markdown in [
            "```\n# In code\n```\n\nSee [In code].\n", "> # Quoted\n\nSee [Quoted].\n",
            "# Open\n\nSee [Open].\n\n```\nnever closed\n", "# [Brackets] inside\n\nSee [[Brackets] inside].\n",
            "# Styled\n\nA [Styled]{.smallcaps} span and [Styled].\n",
            "<pre>\n\n# In pre\n</pre>\n\nSee [In pre].\n", "<!--\n\n# Commented\n-->\n\nSee [Commented].\n",
            "# Late\n\nSee [Late].\n\n<pre>\nnever closed\n",
        ] {
            #expect(destinations(markdown).isEmpty, "\(markdown.debugDescription): \(destinations(markdown))")
        }
        let warned = MarkdownParser.parse("# Part\n\nSee [the part][Part].\n", file: "t.md").diagnostics
        #expect(!warned.contains { $0.message.contains("names no definition") }, "\(warned)")
    }
}
