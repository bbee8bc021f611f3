import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// The attribute layer against CommonMark and Pandoc: each test is one kind of fault the layer
/// must never make again, with several members of the kind.
@Suite struct PandocSyntaxTests {
    private func paragraph(_ text: String) -> [Inline] {
        guard case .paragraph(let i)? = blocks(text).first?.kind else { return [] }
        return i
    }

    private func heading(_ text: String) -> (inlines: [Inline], attributes: Attributes) {
        guard let b = blocks(text).first, case .heading(_, let i) = b.kind else { return ([], .none) }
        return (i, b.attributes)
    }

    /// A heading's trailing `{…}` of bare words alone is its text, as Pandoc and GitHub read it
    /// (`## Tips {underline}`); with an id, a class or a `key=value` it is the heading's
    /// attributes, bare flags among them. A span's `[x]{bold}` stays a span.
    @Test(arguments: ["{bold}", "{underline}", "{monospaced}", "{italic smallCaps}", "{optional}"])
    func aHeadingsBareWordsInBracesAreText(braces: String) {
        let h = heading("## Placeholders like \(braces)")
        #expect(h.inlines.plainText == "Placeholders like \(braces)")
        #expect(h.attributes.isEmpty)
    }

    @Test func aHeadingsAttributesNameAnIdAClassOrAValue() {
        #expect(heading("## Title {#intro}").attributes.id == "intro")
        #expect(heading("## Title {.caption italic}").attributes.classes == ["caption"])
        #expect(heading("## Title {.caption italic}").inlines.plainText == "Title")
        #expect(heading("## Title {underline=#D0453A}").inlines.plainText == "Title")
        #expect(paragraph("Call [it]{bold} now.").contains { if case .span = $0 { true } else { false } })
    }

    /// Kind 1: what CommonMark escapes or writes as a reference is text, wherever it stands —
    /// after an entity, after an escaped backslash, as a numeric reference.
    @Test func escapesAndReferencesAreNeverSyntax() {
        #expect(paragraph("A &amp; B \\[x\\]{.caption} end.") == [.text("A & B [x]{.caption} end.")])
        #expect(paragraph("\\\\\\[x\\]{.caption}") == [.text("\\[x]{.caption}")])
        #expect(paragraph("&lt;&#91;x&#93;{.caption}") == [.text("<[x]{.caption}")])
        #expect(paragraph("[x]&#123;.caption}") == [.text("[x]{.caption}")])
        #expect(paragraph("[x]\\{.caption}") == [.text("[x]{.caption}")])
        #expect(
            paragraph("&copy; \\& [x]{.caption}") == [
                .text("© & "), .span(Attributes(classes: ["caption"], location: loc(1, 14)), [.text("x")]),
            ])
        let h = heading("# A &amp; B \\{#id}")
        #expect(h.inlines == [.text("A & B {#id}")])
        #expect(h.attributes.isEmpty)
        #expect(heading("# A &#123;.x}").inlines == [.text("A {.x}")])
        // An unknown entity stays as written, and what follows still works.
        #expect(
            paragraph("&nosuch; [x]{.c}").last == .span(Attributes(classes: ["c"], location: loc(1, 13)), [.text("x")]))
    }

    /// Code spans are resolved by cmark first: brackets and braces inside code are code.
    @Test func codeIsNeverSyntax() {
        #expect(paragraph("`[x]{.c}` and `# {#id}`") == [.code("[x]{.c}"), .text(" and "), .code("# {#id}")])
        #expect(heading("# Use `{x}`").inlines == [.text("Use "), .code("{x}")])
    }

    /// Continuation lines (indented, lazy, after a tab) still know their escapes.
    @Test func escapesOnContinuationLines() {
        #expect(paragraph("one\n   two \\[x\\]{.c}") == [.text("one"), .softBreak, .text("two [x]{.c}")])
        #expect(paragraph("one\n\tt \\[x\\]{.c}") == [.text("one"), .softBreak, .text("t [x]{.c}")])
        guard case .blockQuote(let q)? = blocks("> one\nlazy \\[x\\]{.c}").first?.kind,
            case .paragraph(let i)? = q.first?.kind
        else {
            Issue.record()
            return
        }
        #expect(i == [.text("one"), .softBreak, .text("lazy [x]{.c}")])
        let spanned = paragraph("one\n   two [x]{.c}")
        #expect(spanned.last == .span(Attributes(classes: ["c"], location: loc(2, 11)), [.text("x")]))
    }

    /// Kind 2 and 8: only a brace group that parses as an attribute list is one.
    @Test func bracesThatAreNotAttributeListsStay() {
        #expect(heading("# The set {x}").inlines == [.text("The set {x}")])
        #expect(heading("## Then use ${HOME}").inlines == [.text("Then use ${HOME}")])
        #expect(heading("## Sets like {a, b, c}").inlines == [.text("Sets like {a, b, c}")])
        #expect(paragraph("[a few words]{foo}") == [.text("[a few words]{foo}")])
        #expect(paragraph("[w]{.a foo}") == [.text("[w]{.a foo}")])
        #expect(paragraph("[a] {.c}") == [.text("[a] {.c}")])
        // Typeset's own flags (docs/markdown.md) are the bare words that are attributes.
        #expect(
            paragraph("[w]{italic}") == [
                .span(
                    Attributes(pairs: [.init(key: "italic", value: nil, location: loc(1, 5))], location: loc(1, 4)),
                    [.text("w")])
            ])
        #expect(heading("# T {x=1}").attributes.pairs.map(\.key) == ["x"])
        #expect(heading("# Title{.x}").attributes.classes == ["x"])
    }

    /// Kind 3: a heading ending in a span keeps the span; the heading gets no attributes.
    @Test func headingEndingInASpan() {
        let h = heading("# Title with [a span]{.caption}")
        #expect(
            h.inlines == [
                .text("Title with "), .span(Attributes(classes: ["caption"], location: loc(1, 22)), [.text("a span")]),
            ])
        #expect(h.attributes.isEmpty)
        let both = heading("# T [s]{.a} {.b}")
        #expect(both.attributes.classes == ["b"])
        #expect(both.inlines.count == 2)
    }

    /// Kind 5: an ATX closing sequence before the attributes goes, as Pandoc does.
    @Test func closingHashesBeforeAttributes() {
        let h = heading("## Heading text ## {#h5}")
        #expect(h.inlines == [.text("Heading text")])
        #expect(h.attributes.id == "h5")
        #expect(heading("# C# {.x}").inlines == [.text("C#")])
        #expect(heading("# Issue \\# {.x}").inlines == [.text("Issue #")])
        #expect(heading("# A ##### {.x}").inlines == [.text("A")])
    }

    /// Kind 7: attributes on links, autolinks, images and code spans; raw inlines and blocks
    /// for other formats are dropped.
    @Test func attributesOnElements() {
        let link = Inline.link(destination: "https://example.com", title: "", children: [.text("a link")])
        #expect(
            paragraph("[a link](https://example.com){.external}") == [
                .span(Attributes(classes: ["external"], location: loc(1, 30)), [link])
            ])
        #expect(
            paragraph("`print(1)`{.python}") == [
                .span(Attributes(classes: ["python"], location: loc(1, 11)), [.code("print(1)")])
            ])
        guard case .span(let a, let c)? = paragraph("<https://a.b>{#x}").first else {
            Issue.record()
            return
        }
        #expect(a.id == "x")
        #expect(c == [.link(destination: "https://a.b", title: "", children: [.text("https://a.b")])])
        guard case .span(let ia, let ic)? = paragraph("![cap](pic.png){width=50% height=2in}").first,
            case .image(let source, _, let alt, _)? = ic.first
        else {
            Issue.record()
            return
        }
        #expect(source == "pic.png")
        #expect(alt == [.text("cap")])
        #expect(ia.pairs.map(\.key) == ["width", "height"])
        #expect(ia.pairs.map(\.value) == ["50%", "2in"])
        #expect(paragraph("raw `\\noindent`{=latex} and `x`{=openxml} end") == [.text("raw and  end")])
        #expect(
            blocks("```{=latex}\n\\clearpage\n```\n\ntext").map(\.kind) == [.pageBreak, .paragraph([.text("text")])])
        // Not directly after: text.
        #expect(paragraph("`x` {.c}") == [.code("x"), .text(" {.c}")])
    }

    /// A backslash ending a paragraph right after an image keeps the image in its line (Pandoc's
    /// way of saying "not a figure"): read as a line break, which shows nothing; after text it
    /// stays a backslash, as CommonMark reads it. Members: a bare image, one with attributes,
    /// text before the image, text before the backslash.
    @Test func aBackslashAfterAnImageKeepsItInItsLine() {
        func kinds(_ inlines: [Inline]) -> [String] {
            inlines.map { inline in
                switch inline {
                case .image: "image"
                case .span(_, let content) where content.count == 1:
                    if case .image = content[0] { "image" } else { "span" }
                case .lineBreak: "break"
                case .text(let text): text
                default: "other"
                }
            }
        }
        #expect(kinds(paragraph("![a](p.png)\\")) == ["image", "break"])
        #expect(kinds(paragraph("![a](p.png){width=20%}\\")) == ["image", "break"])
        #expect(kinds(paragraph("See ![a](p.png)\\")) == ["See ", "image", "break"])
        #expect(kinds(paragraph("a path C:\\")) == ["a path C:\\"])
    }

    /// Pandoc's raw attribute (Pandoc manual, "Extension: raw_attribute"): raw HTML is read as
    /// HTML written in the text, raw TeX as TeX written in the text (its text commands styled,
    /// layout commands left out), as Pandoc's LaTeX route keeps raw TeX in a PDF; any other
    /// format is left out with a warning where its `{` is. Members: inline and block, `html`,
    /// `latex`, `tex`, upper case, `openxml`, `ms`.
    @Test func rawContentForHTMLAndTeXIsReadAndOtherFormatsWarn() {
        #expect(paragraph("a `\\textbf{b}`{=latex} c") == [.text("a "), .strong([.text("b")]), .text(" c")])
        #expect(paragraph("a `\\emph{b}`{=TeX} c") == [.text("a "), .emphasis([.text("b")]), .text(" c")])
        #expect(paragraph("a `<b>b</b>`{=html} c") == [.text("a "), .strong([.text("b")]), .text(" c")])
        let latex = blocks("```{=latex}\n\\begin{center}\n\\textbf{Centred}\n\\end{center}\n```\n")
        #expect(latex.map(\.kind) == [.paragraph([.strong([.text("Centred")])])])
        let html = blocks("```{=html}\n<p><b>Bold</b> kept</p>\n```\n")
        #expect(html.map(\.kind) == [.paragraph([.strong([.text("Bold")]), .text(" kept")])])
        for (text, place) in [("a `x`{=openxml} b", "t.md:1:6"), ("para\n\n```{=ms}\n.PP\n```\n", "t.md:3:1")] {
            let diagnostics = parse(text).diagnostics
            let warnings = diagnostics.filter { $0.message.contains("is left out") }
            #expect(warnings.map { $0.location?.description } == [place], "\(diagnostics)")
        }
    }

    /// The attribute layer is linear: 40 000 unclosed brackets, brace groups, or bracket-brace
    /// pairs parse in time linear in their count (cmark alone takes milliseconds).
    @Test(.slow) func linearTime() {
        // Time of 4N ≤ 10 × time of N (best of three runs each; quadratic work would take
        // 16 ×), so the bound holds on a busy machine as well as an idle one.
        func seconds(_ text: String) -> Double {
            var blocks = 0
            let best = Timing.bestThreadSeconds(of: 3) { blocks = parse(text).document.blocks.count }
            #expect(blocks > 0)
            return best
        }
        for unit in ["[ ", "[]{ ", "]{.a ", "{#x ", "\\[{ ", "&amp;[ ", "`a`{ ", ": ", "[a]{.b} "] {
            let t1 = seconds(String(repeating: unit, count: 10_000))
            let t4 = seconds(String(repeating: unit, count: 40_000))
            #expect(t4 <= 10 * t1, "'\(unit)': × 10 000 \(t1) s, × 40 000 \(t4) s")
        }
        let t1 = seconds("# " + String(repeating: "{a ", count: 5_000) + "}")
        let t4 = seconds("# " + String(repeating: "{a ", count: 20_000) + "}")
        #expect(t4 <= 10 * t1, "heading: \(t1) s, \(t4) s")
    }

    /// Footnote references on one long line read their labels without copying the line: the
    /// same references (one note or many) take about as long on one line as one a line (a copy
    /// of the line per reference made the one-line parse 2.7 times as long at 32,000). Thread
    /// time, the two in turn, best of three each.
    @Test(.slow) func footnoteReferencesOnOneLineParseInLinearTime() {
        func references(_ count: Int, note: (Int) -> String, separator: String) -> String {
            (0..<count).map { "x[^\(note($0))]" }.joined(separator: separator)
        }
        for (name, note, definitions) in [
            ("one note", { (_: Int) in "1" }, "[^1]: note\n"),
            ("500 notes", { (index: Int) in "n\(index % 500)" }, (0..<500).map { "[^n\($0)]: note\n" }.joined()),
        ] {
            let oneLine = references(32_000, note: note, separator: " ") + "\n\n" + definitions
            let lineEach = references(32_000, note: note, separator: "\n") + "\n\n" + definitions
            var best = (oneLine: Double.infinity, lineEach: Double.infinity)
            for _ in 0..<3 {
                best.oneLine = min(best.oneLine, Timing.bestThreadSeconds(of: 1) { _ = parse(oneLine) })
                best.lineEach = min(best.lineEach, Timing.bestThreadSeconds(of: 1) { _ = parse(lineEach) })
            }
            #expect(
                best.oneLine <= 1.5 * best.lineEach,
                "\(name): 32,000 references on one line \(best.oneLine) s, one a line \(best.lineEach) s")
        }
    }
}

private func loc(_ line: Int, _ column: Int) -> DocumentModel.SourceLocation {
    DocumentModel.SourceLocation(file: "t.md", line: line, column: column)
}

/// Syntax read from the source after a hard break written as a backslash at a line's end,
/// whose next line cmark-gfm does not count: a no-break space, a span, a superscript and a
/// LaTeX text command are read on every line after one or more such breaks, as on the first,
/// and a warning there names its own line.
@Suite struct BackslashBreakTests {
    private func inlines(_ text: String) -> [Inline] {
        guard case .paragraph(let inlines)? = MarkdownParser.parse(text, file: "t.md").document.blocks.first?.kind
        else { return [] }
        return inlines
    }

    @Test func syntaxAfterABackslashBreakIsRead() {
        for breaks in [1, 2, 3] {
            let lead = String(repeating: "A line\\\n", count: breaks)
            let nbsp = inlines(lead + "Dr.\\ Smith.\n").map(\.plainText).joined()
            #expect(nbsp.hasSuffix("Dr.\u{00A0}Smith."), "\(breaks): \(nbsp.debugDescription)")
            let span = inlines(lead + "A [word]{.smallcaps} here.\n")
            #expect(span.contains { if case .span = $0 { true } else { false } }, "\(breaks): \(span)")
            let superscript = inlines(lead + "x^2^ squared.\n")
            #expect(!superscript.map(\.plainText).joined().contains("^"), "\(breaks): \(superscript)")
            let command = inlines(lead + "An \\emph{emphasised} word.\n")
            #expect(command.contains { if case .emphasis = $0 { true } else { false } }, "\(breaks): \(command)")
        }
        let parsed = MarkdownParser.parse("One\\\ntwo\\\nthree \\foo{x} four.\n", file: "t.md")
        let warning = parsed.diagnostics.first { $0.message.contains("\\foo") }
        #expect(warning?.location?.line == 3, "\(parsed.diagnostics)")
    }
}
