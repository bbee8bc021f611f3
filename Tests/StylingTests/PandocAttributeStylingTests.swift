import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

/// Pandoc attribute forms as the Styler applies them: span classes, ids as link targets,
/// figures sized by attributes and captioned with their alt text.
@Suite struct PandocAttributeStylingTests {
    func style(_ markdown: String) -> StyledDocument {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default, options: StylingOptions())
    }

    func runs(_ doc: StyledDocument) -> [StyledRun] {
        doc.blocks.flatMap { block -> [StyledRun] in
            if case .paragraph(let p) = block.content { return p.runs } else { return [] }
        }
    }

    @Test func pandocSpanClasses() {
        let doc = style("[caps]{.smallcaps} [under]{.underline} [marked]{.mark} plain")
        let r = runs(doc)
        let caps = r.first { $0.text == "caps" }
        let under = r.first { $0.text == "under" }
        let marked = r.first { $0.text == "marked" }
        #expect(caps?.style.smallCaps == .lowercase)
        #expect(under?.style.underline != nil)
        #expect(marked?.style.background == RGBAColor(hex: "#FFF2A8"))
        #expect(r.first { $0.text.contains("plain") }?.style.background == nil)
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
    }

    /// `textCase=` and `textDecoration=` set a role's case and line on a span, or turn a role's
    /// own off (`none`); a role named inside sets its own; a value that is neither is named.
    @Test func caseAndLineAttributes() {
        var theme = Theme.default
        var caption = theme[.caption]
        caption.textCase = .uppercase
        caption.textDecoration = .underline
        theme.styles[.caption] = caption
        let markdown =
            "[a b]{textCase=uppercase textDecoration=line-through} [c d]{.caption textCase=none textDecoration=none} "
            + "[e f]{.caption} [g]{textCase=shouty}"
        let doc = Styler.style(
            MarkdownParser.parse(markdown, file: "t.md").document, theme: theme, options: StylingOptions())
        let r = runs(doc)
        #expect(r.first { $0.text == "A B" }?.style.strikethrough != nil, "\(r.map(\.text))")
        let plain = r.first { $0.text == "c d" }
        #expect(plain != nil && plain?.style.underline == nil, "\(r.map(\.text))")
        #expect(r.first { $0.text == "E F" }?.style.underline != nil, "\(r.map(\.text))")
        #expect(
            doc.diagnostics.map(\.message) == [
                "'textCase' is uppercase, lowercase, capitalize, small-caps or none, not 'shouty'"
            ])
    }

    /// Pandoc: every identifier is a link target — spans, divs and figures as well as headings.
    @Test func spanDivAndFigureIdsAreLinkTargets() {
        let doc = style(
            """
            See [s](#sp), [d](#dv), [f](#fig).

            Text [here]{#sp} and more.

            ::: {#dv}
            Inside.
            :::

            ![Alt](missing.png){#fig}
            """)
        let anchors = doc.blocks.flatMap { [$0.anchor].compactMap { $0 } + $0.extraAnchors }
        #expect(Set(anchors).isSuperset(of: ["sp", "dv", "fig"]))
        #expect(!doc.diagnostics.contains { $0.message.contains("matches no heading") }, "\(doc.diagnostics)")
        #expect(runs(doc).filter { $0.style.link != nil }.count == 3)
        let duplicate = style("[a]{#x} [b]{#x}")
        #expect(duplicate.diagnostics.contains { $0.message.contains("already used") })
    }

    /// Figures: the alt text is the caption (the title is not shown); width and height set
    /// the size; a code span's language class is no role warning.
    @Test func figuresAndCodeClasses() throws {
        let doc = style("![The alt text](pic.png \"A title\"){width=50% height=3cm}\n\n`x`{.python}")
        guard case .image(let image)? = doc.blocks.first?.content else {
            Issue.record("\(doc.blocks)")
            return
        }
        #expect(image.caption?.runs.map(\.text).joined() == "The alt text")
        #expect(image.width == .fraction(0.5))
        guard case .points(let h)? = image.height else {
            Issue.record("\(String(describing: image.height))")
            return
        }
        #expect(abs(h - 3 * 72 / 2.54) < 1e-9)
        #expect(!doc.diagnostics.contains { $0.message.contains("python") })
        let bad = style("![a](p.png){width=wide}")
        #expect(bad.diagnostics.contains { $0.message.contains("'width' of an image") })
        #expect(ImageDimension("300px") == .points(225))
        #expect(ImageDimension("300") == .points(225))
        #expect(ImageDimension("2in") == .points(144))
        #expect(ImageDimension("150%") == nil)
        #expect(ImageDimension("0") == nil)
    }
}
