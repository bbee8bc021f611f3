import DocumentModel
import Testing

@testable import MarkdownParser

/// A carriage return alone ends a line, as a line feed and `\r\n` do (CommonMark spec 0.30,
/// §2.1): a file written with classic Mac or Windows line endings parses to the same document,
/// with the same diagnostics at the same lines and columns, as the file written with line feeds.
@Suite struct LineEndingTests {
    /// One document per syntax the layers around cmark-gfm read line by line.
    static let documents: [String] = [
        "---\ntitle: CR Title\nlang: en\n---\n\nBody text.\n",
        "# H {#h tracking=0.5}\n\n[y]{.headline} and [z]{bogus=1}.\n\n::: {.caption}\ndiv text\n:::\n",
        "::: outer\n::: {.inner}\nnested\n:::\n\n> ::: quote\n> in a quote\n> :::\n:::\n",
        "A paragraph\n::: not-a-fence\n\n:::\n\n::: never closed\ntext\n",
        "| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter.\n",
        "```swift\nlet x = 1\n::: inside code\n```\n\n~~~\n---\n~~~\n",
        "Text[^a] and[^b].\n\n[^a]: Note a\n    continued.\n\n[^b]: Note b.\n\n[^c]: Never cited.\n",
        "<div class=\"x\">\n<p>raw <b>html</b></p>\n</div>\n\n<span>inline</span> <unclosed\n\nEnd.\n",
        "Setext\n======\n\n- item one\n- item two\n\n  continued {.x}\n\n\\newpage\n\nLast line without ending",
        "---\nsmart: maybe\n---\n\n\"Quoted\" -- text... and `code`{.c} [link](u){.k}\n",
        "+---+---+\n| a | b |\n+===+===+\n| 1 | 2 |\n+---+---+\n\nTable: Grid *caption*\n",
        "  Right  Left\n-------  ------\n     12  12\n\n: Simple caption\n",
        "-----------------\n Multi    Line\n-------- --------\n First    row\n          cont\n\n-----------------\n",
        "Intro.\n\n> $$\n> a +\n> b\n> $$\n\nAfter $x$.\n",
    ]

    func parse(_ text: String) -> ParseResult { MarkdownParser.parse(text, file: "t.md") }

    @Test(arguments: documents.indices)
    func loneCarriageReturnsParseAsLineFeeds(index: Int) {
        let lf = Self.documents[index]
        let cr = String(lf.map { $0 == "\n" ? "\r" : $0 })
        let crlf = lf.replacingAll("\n", with: "\r\n")
        #expect(cr.utf8.count == lf.utf8.count && !cr.contains("\n"))
        let expected = parse(lf)
        for (name, text) in [("CR", cr), ("CRLF", crlf)] {
            let result = parse(text)
            #expect(Array(result.document.blocks) == Array(expected.document.blocks), "\(name) #\(index)")
            #expect(result.document.metadata == expected.document.metadata, "\(name) #\(index)")
            #expect(result.document.footnotes == expected.document.footnotes, "\(name) #\(index)")
            #expect(
                result.diagnostics == expected.diagnostics,
                "\(name) #\(index): \(result.diagnostics) vs \(expected.diagnostics)")
        }
    }

    /// The syntax the audit found printed as text: front matter, a span, a heading's and a
    /// span's attributes and a div, with the one warning at the line and column of the LF file.
    @Test func classicMacSyntaxIsRead() {
        let result = parse(
            "# H {#h tracking=0.5}\r\r[y]{.headline} and [z]{bogus=1}.\r\r::: {.caption}\rdiv text\r:::\r")
        let blocks = Array(result.document.blocks)
        #expect(blocks.count == 3)
        #expect(blocks.first?.attributes.id == "h")
        guard case .div(let inner)? = blocks.last?.kind else {
            Issue.record("\(blocks)")
            return
        }
        #expect(inner.map(\.kind) == [.paragraph([.text("div text")])])
        #expect(blocks.first?.attributes.pairs.first?.key == "tracking")
        guard case .paragraph(let inlines)? = blocks.dropFirst().first?.kind else {
            Issue.record("\(blocks)")
            return
        }
        #expect(inlines.plainText == "y and z.")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let front = parse("---\rtitle: CR Title\r---\r\rBody text.\r")
        #expect(front.document.metadata.title == "CR Title")
        #expect(Array(front.document.blocks).map(\.kind) == [.paragraph([.text("Body text.")])])
    }

    /// Longer than a window of the lazy conversion: the windows read the same lines.
    @Test func longClassicMacTextMatchesItsLineFeedText() {
        var lf = ""
        for i in 0..<3_000 { lf += "## Part \(i) {.p}\n\nSome words for part \(i), [a span]{.s}.\n\n" }
        let cr = String(lf.map { $0 == "\n" ? "\r" : $0 })
        let a = parse(lf)
        let b = parse(cr)
        #expect(Array(a.document.blocks) == Array(b.document.blocks))
        #expect(a.diagnostics == b.diagnostics)
    }

    @Test func onlyLoneCarriageReturnsChange() {
        #expect(LineEndings.normalizingLoneCarriageReturns("a\rb\r\nc\n\r") == "a\nb\r\nc\n\n")
        #expect(LineEndings.normalizingLoneCarriageReturns("\r") == "\n")
        #expect(LineEndings.normalizingLoneCarriageReturns("plain\r\n") == "plain\r\n")
        #expect(LineEndings.normalizingLoneCarriageReturns("한\r글") == "한\n글")
    }
}
