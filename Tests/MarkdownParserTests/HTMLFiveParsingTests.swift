import DocumentModel
import Foundation
import Testing

@testable import MarkdownParser

/// Raw HTML read as an HTML5 browser reads it (WHATWG HTML Living Standard §13.2, "Parsing HTML
/// documents"), where libxml2's HTML 4 parser alone reads otherwise: comments, end-tag quirks,
/// `<image>`, RAWTEXT elements, character references and headings that close what is open.
@Suite struct HTMLFiveParsingTests {
    /// Each block as one line, `kind: text`, a line break written `⏎`; containers flattened.
    func outline(_ markdown: String) -> [String] {
        func text(_ inlines: [Inline]) -> String {
            inlines.map { inline in
                switch inline {
                case .lineBreak: "⏎"
                case .softBreak: " "
                case .emphasis(let children), .strong(let children), .strikethrough(let children),
                    .span(_, let children), .presentation(_, let children), .link(_, _, let children):
                    text(children)
                default: inline.plainText
                }
            }.joined()
        }
        func lines(_ blocks: [Block]) -> [String] {
            blocks.flatMap { block -> [String] in
                switch block.kind {
                case .paragraph(let inlines): ["p: " + text(inlines).trimmingCharacters(in: .whitespaces)]
                case .heading(let level, let inlines): ["h\(level): " + text(inlines)]
                case .codeBlock(_, let code): ["pre: " + code]
                case .div(let children), .blockQuote(let children): lines(children)
                case .list(let list): list.items.flatMap { lines($0.blocks) }
                case .table(let table): (table.header + table.rows.flatMap { $0 }).map { "td: " + text($0) }
                default: []
                }
            }
        }
        return lines(blocks(markdown))
    }

    /// An end tag `</p>` with no `<p>` open is an empty paragraph (*"in body"*), so the text on
    /// either side is not joined; one that closes an open `<p>`, or a `<p>` a block closed, is
    /// not.
    @Test func strayParagraphEndTagSeparatesTheTextAround() {
        #expect(outline("<div>a</p>b</div>\n") == ["p: a", "p: b"])
        #expect(outline("<table><tr><td>a</p>b</td></tr></table>\n").last == "td: a⏎⏎b")
        #expect(outline("<div>x <p>in p</div></p>after\n") == ["p: x", "p: in p", "p: after"])
        #expect(outline("<div><p>one</p> two</div>\n") == ["p: one", "p: two"])
        #expect(outline("<div>one <b>two</b> three</div>\n") == ["p: one two three"])
    }

    /// `<ol reversed>` counts down: from its `start`, or from the number of its items when it
    /// has none (HTML, "The ol element").
    @Test func reversedListsCountDown() {
        func numbers(_ html: String) -> [Int] {
            blocks(html).flatMap { block -> [Int] in
                guard case .list(let list) = block.kind else { return [] }
                return list.items.indices.map { list.number(at: $0) }
            }
        }
        #expect(numbers("<ol start=\"5\" reversed><li>five</li><li>four</li></ol>\n") == [5, 4])
        #expect(numbers("<ol reversed><li>a</li><li>b</li><li>c</li></ol>\n") == [3, 2, 1])
        #expect(numbers("<ol reversed start=\"1\"><li>a</li><li>b</li></ol>\n") == [1, 0])
        #expect(numbers("<ol start=\"2\"><li>a</li><li>b</li></ol>\n") == [2, 3])
        #expect(numbers("<ul reversed><li>a</li></ul>\n") == [1])
    }

    /// `<!-->` and `<!--->` are complete, empty comments ("abrupt-closing-of-empty-comment"):
    /// the text after them is shown. A comment ends at `--!>` too.
    @Test func emptyCommentsEndWhereTheyStart() {
        #expect(
            outline("<div>\n<!-->\nLINE ONE\n<b>LINE TWO</b>\n</div>\n\nAfter.\n") == [
                "p: LINE ONE LINE TWO", "p: After.",
            ])
        #expect(outline("<p>Start <!--->LOST TEXT</p>\n") == ["p: Start LOST TEXT"])
        #expect(outline("<!--> VIS3 block\n\n<!---> VIS3b\n") == ["p: VIS3 block", "p: VIS3b"])
        #expect(outline("<p>a <!-- hidden --!> shown</p>\n") == ["p: a shown"])
        #expect(outline("<p>x <!-- a -- b --> y</p>\n") == ["p: x y"])
    }

    /// An end tag `</br>` is a `<br>`, in HTML blocks, inline HTML and table cells.
    @Test func endTagBrBreaksTheLine() {
        #expect(outline("<p align=center>Line one</br>line two</p>\n") == ["p: Line one⏎line two"])
        #expect(outline("Line one</br>line two\n") == ["p: Line one⏎line two"])
        #expect(outline("| a |\n|---|\n| c1</br>c2 |\n") == ["td: a", "td: c1⏎c2"])
        #expect(outline("<table><tr><td>x</BR >y</td></tr></table>\n").last == "td: x⏎y")
    }

    /// Character references decode with HTML5's table, legacy names also without `;`, and
    /// numbers as the standard maps them.
    @Test func characterReferencesFollowHTMLFive() {
        #expect(
            outline("<p>&check; &cross; &star; &AMP; &COPY; &NotEqualTilde; &lang;</p>\n") == [
                "p: ✓ ✗ ☆ & © \u{2242}\u{0338} \u{27E8}"
            ])
        #expect(outline("<p>a&#x110000;b&#0;c&#55296;d</p>\n") == ["p: a\u{FFFD}b\u{FFFD}c\u{FFFD}d"])
        #expect(outline("<p>&#x80;&#x9F;&#150;&#x99</p>\n") == ["p: €Ÿ–™"])
        #expect(outline("<p>&copy H &lt I &ampJ &notit; &foo; a&b</p>\n") == ["p: © H < I &J ¬it; &foo; a&b"])
        // In an attribute value a legacy name without `;` before `=` or a letter stays as written.
        let link = blocks("<p><a href=\"?a=1&copy=2&amp;b=3&notx\" title=\"&check;&copy;\">L</a></p>\n")
        guard case .paragraph(let inlines)? = link.first?.kind, case .link(let href, let title, _)? = inlines.first
        else {
            Issue.record("\(link)")
            return
        }
        #expect(href == "?a=1&copy=2&b=3&notx")
        #expect(title == "✓©")
    }

    /// `<image>` is an `<img>`: its alt text is shown, in a block and inline.
    @Test func imageIsImg() {
        #expect(outline("<p>A3 <image src=\"z.png\" alt=\"IMAGEALT\"> end3</p>\n") == ["p: A3 IMAGEALT end3"])
        #expect(outline("W <image alt=\"INLINEALT\"> w\n") == ["p: W INLINEALT w"])
        let parsed = parse("<p><IMAGE src=\"z.png\" alt=\"X\"></p>\n")
        #expect(!parsed.diagnostics.contains { $0.message.contains("<image>") }, "\(parsed.diagnostics)")
    }

    /// A tag's attributes reach libxml2, which compares each name with every one before it, at
    /// most ``HTMLFiveTokens/attributeLimit`` besides those Typeset reads, and each name once
    /// (the first, as the standard keeps it): an `alt` after thousands of other attributes is
    /// still the image's text, in a block and in a paragraph.
    @Test func aTagOfManyAttributesKeepsWhatTypesetReads() {
        let many = (0..<5_000).map { "a\($0)=\"v\"" }.joined(separator: " ")
        let tag = "<img \(many) alt=\"KEPT ALT\" alt=\"second\" src=\"z.png\">"
        let normalized = String(decoding: HTMLFiveTokens.normalized(Array(tag.utf8)), as: UTF8.self)
        #expect(
            normalized.split(separator: "=").count - 1 == HTMLFiveTokens.attributeLimit + 2, "\(normalized.suffix(80))")
        #expect(normalized.contains("alt=\"KEPT ALT\"") && !normalized.contains("second"))
        #expect(outline("<p>A \(tag) B</p>\n") == ["p: A KEPT ALT B"])
        #expect(outline("W \(tag) w\n") == ["p: W KEPT ALT w"])
        #expect(outline("<div \(many) align=\"center\">Centred text</div>\n") == ["p: Centred text"])
    }

    /// In running text too, what `<xmp>` holds up to its end tag, and `<plaintext>` up to the
    /// paragraph's end, is text as the file writes it: tags, references, Markdown and formulas
    /// included, over several lines and in a quote.
    @Test func rawTextElementsInRunningTextKeepWhatTheyHold() {
        #expect(outline("text <xmp><b>bold</b> &amp; x</xmp> end\n") == ["p: text <b>bold</b> &amp; x end"])
        #expect(outline("a <XMP>$x$ and `c` *e*</XMP> b\n") == ["p: a $x$ and `c` *e* b"])
        #expect(outline("a <xmp>one *e*\n`two`</xmp> b\n") == ["p: a one *e* `two` b"])
        #expect(outline("> q <xmp><i>x</i>\n> y</xmp> z\n") == ["p: q <i>x</i> y z"])
        #expect(outline("a <plaintext><i>pt</i> &lt; [l](u)\n") == ["p: a <i>pt</i> &lt; [l](u)"])
        #expect(outline("a <xmp></xmp> b <xmp>\n") == ["p: a  b"])
    }

    /// `<xmp>`, `<plaintext>` and `<listing>` are preformatted text; the content of `<xmp>` and
    /// `<plaintext>` is text, markup included; `<textarea>`'s ends at its end tag, and is shown as
    /// its box shows it, markup included.
    @Test func rawTextElementsKeepTheirMarkupAsText() {
        #expect(outline("<p><xmp><b>XMP raw</b> &amp;</xmp></p>\n") == ["pre: <b>XMP raw</b> &amp;"])
        #expect(outline("<div><xmp>\n<i>x</i></xmp></div>\n") == ["pre: \n<i>x</i>"])
        #expect(
            outline("<div>\n<plaintext><b>all</b> </div> rest\n</div>\n") == ["pre: <b>all</b> </div> rest\n</div>\n"])
        #expect(outline("<div><listing>\nL1\n<b>L2</b></listing></div>\n") == ["pre: L1\nL2"])
        #expect(
            outline("<div><textarea><b>hid</b></p></textarea> after TA</div>\n") == ["p: <b>hid</b></p> after TA"])
        #expect(outline("a <textarea><b>in</b> box</textarea> b\n") == ["p: a <b>in</b> box b"])
    }

    /// A heading start tag in a paragraph's inline HTML closes the paragraph: the heading is a
    /// heading block, after a void element or text alike.
    @Test func headingInAParagraphIsAHeading() {
        #expect(outline("<img src=\"a.png\" alt=\"A\"><h2>H2 after img</h2>\n") == ["p: A", "h2: H2 after img"])
        #expect(outline("<br><h2>H2 after br</h2>\n") == ["h2: H2 after br"])
        #expect(outline("Text <b>bold <h3>Three</h3> tail</b>\n") == ["p: Text bold", "h3: Three", "p: tail"])
        #expect(outline("<span>x</span><h4>A<h5>B</h5>\n") == ["p: x", "h4: A", "h5: B"])
    }

    /// A heading's start tag while a heading is open closes it, in an HTML block.
    @Test func nestedHeadingClosesTheOuterOne() {
        #expect(outline("<h1>Heading<h2>Nested</h2>tail H1</h1>\n") == ["h1: Heading", "h2: Nested", "p: tail H1"])
        #expect(outline("<h3>A<h4>B<h5>C</h5></h4></h3>\n") == ["h3: A", "h4: B", "h5: C"])
    }

    /// The pass is linear: for unclosed markup of each kind, eight times the input takes less
    /// than 24 times as long (the fastest of three runs of each size, measured in one run).
    @Test func normalizingIsLinear() {
        func fastest(_ input: [UInt8]) -> Duration {
            (0..<3).map { _ in ContinuousClock().measure { _ = HTMLFiveTokens.normalized(input) } }.min()!
        }
        for piece in ["<!", "<?", "</ ", "&copy", "&#x", "<a b='", "<xmp>", "<!--"] {
            let small = fastest(Array(String(repeating: piece, count: 4_000).utf8))
            let large = fastest(Array(String(repeating: piece, count: 32_000).utf8))
            #expect(large < small * 24 + .milliseconds(5), "\(piece): \(small) → \(large)")
        }
    }
}
