import DocumentModel
import Testing

@testable import MarkdownParser

private func loc(_ line: Int, _ column: Int) -> DocumentModel.SourceLocation {
    DocumentModel.SourceLocation(file: "t.md", line: line, column: column)
}

private func inlines(_ text: String) -> [Inline] {
    guard case .paragraph(let i)? = blocks(text).first?.kind else { return [] }
    return i
}

@Suite struct AttributeListTests {
    @Test func allForms() throws {
        let bytes = Array(#"{#intro .display .big tracking=-0.5 font="Inter Display" alt='it''s' italic k-e_y=v}"#.utf8)
        // `'it''s'` is two quoted tokens glued together: invalid.
        #expect(AttributeListParser.parse(bytes) == nil)

        let ok = Array(#"{#intro .display .big tracking=-0.5 font="Inter \"D\"" alt='x y' italic}"#.utf8)
        let p = try #require(AttributeListParser.parse(ok))
        #expect(p.id == "intro")
        #expect(p.classes == ["display", "big"])
        #expect(p.pairs.map(\.key) == ["tracking", "font", "alt", "italic"])
        #expect(p.pairs.map(\.value) == ["-0.5", "Inter \"D\"", "x y", nil])
        #expect(p.pairs[0].offset == 22)
        #expect(p.end == ok.count)
    }

    @Test func invalidLists() {
        for text in ["{", "{.a", "{key=}", "{key=\"open}", "{.}", "{#}", "{a = b}", "{a=b{c}", "no"] {
            #expect(AttributeListParser.parse(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(AttributeListParser.parse(Array("{}".utf8))?.end == 2)
    }

    @Test func camelAndKebabKeysKeptAsWritten() throws {
        let p = try #require(AttributeListParser.parse(Array("{letterSpacing=1 line-height=1.2}".utf8)))
        #expect(p.pairs.map(\.key) == ["letterSpacing", "line-height"])
    }
}

@Suite struct HeadingAttributeTests {
    @Test func attributesRemovedFromText() throws {
        let b = blocks("## Text {.display #intro tracking=-0.5}\n")
        #expect(b[0].kind == .heading(level: 2, [.text("Text")]))
        let a = b[0].attributes
        #expect(a.id == "intro")
        #expect(a.classes == ["display"])
        #expect(a.pairs == [Attributes.Pair(key: "tracking", value: "-0.5", location: loc(1, 26))])
        #expect(a.location == loc(1, 9))
    }

    @Test func withEmphasisAndClosingHashes() {
        let b = blocks("# *Big* title {.x} ##\n\nSetext {#s}\n======\n")
        #expect(b[0].kind == .heading(level: 1, [.emphasis([.text("Big")]), .text(" title")]))
        #expect(b[0].attributes.classes == ["x"])
        #expect(b[1].kind == .heading(level: 1, [.text("Setext")]))
        #expect(b[1].attributes.id == "s")
    }

    @Test func unterminatedBraceStaysLiteral() {
        let b = blocks("# Title {.x\n\n# Set {a}b}\n")
        #expect(b[0].kind == .heading(level: 1, [.text("Title {.x")]))
        #expect(b[0].attributes.isEmpty)
        #expect(b[1].attributes.isEmpty)
    }

    @Test func quotedBraceInValue() {
        let b = blocks(#"# T {title="a}b" .c}"#)
        #expect(b[0].kind == .heading(level: 1, [.text("T")]))
        #expect(b[0].attributes.pairs.first?.value == "a}b")
        #expect(b[0].attributes.classes == ["c"])
    }

    @Test func escapedBraceIsNotAttributes() {
        let b = blocks(#"# T \{.c}"#)
        #expect(b[0].kind == .heading(level: 1, [.text("T {.c}")]))
        #expect(b[0].attributes.isEmpty)
    }
}

@Suite struct SpanTests {
    @Test func simpleSpan() {
        let i = inlines("A [text]{.headline kerning=-0.2} end")
        #expect(i.count == 3)
        #expect(i[0] == .text("A "))
        guard case .span(let a, let c) = i[1] else {
            Issue.record("no span: \(i)")
            return
        }
        #expect(c == [.text("text")])
        #expect(a.classes == ["headline"])
        #expect(a.pairs == [Attributes.Pair(key: "kerning", value: "-0.2", location: loc(1, 20))])
        #expect(a.location == loc(1, 9))
        #expect(i[2] == .text(" end"))
    }

    @Test func nestedSpans() {
        let i = inlines("[a [b]{.x} c]{.y}")
        guard case .span(let outer, let children)? = i.first, i.count == 1 else {
            Issue.record("\(i)")
            return
        }
        #expect(outer.classes == ["y"])
        #expect(children.count == 3)
        #expect(children[0] == .text("a "))
        #expect(children[1] == .span(Attributes(classes: ["x"], location: loc(1, 7)), [.text("b")]))
        #expect(children[2] == .text(" c"))
    }

    @Test func emphasisAndCodeInside() {
        let i = inlines("[**굵게** and `code` *기울임*]{.kr}")
        guard case .span(let a, let c)? = i.first, i.count == 1 else {
            Issue.record("\(i)")
            return
        }
        #expect(a.classes == ["kr"])
        #expect(c == [.strong([.text("굵게")]), .text(" and "), .code("code"), .text(" "), .emphasis([.text("기울임")])])
    }

    @Test func nextToRealLinks() {
        let i = inlines("[link](http://a.b) [span]{.s} [again](u){.not}")
        #expect(i[0] == .link(destination: "http://a.b", title: "", children: [.text("link")]))
        #expect(i[1] == .text(" "))
        guard case .span(let a, let c) = i[2] else {
            Issue.record("\(i)")
            return
        }
        #expect(a.classes == ["s"])
        #expect(c == [.text("span")])
        // Pandoc's link attributes: the link is wrapped in a span carrying them.
        #expect(
            i[4]
                == .span(
                    Attributes(classes: ["not"], location: loc(1, 41)),
                    [.link(destination: "u", title: "", children: [.text("again")])]))
        #expect(i.count == 5)
    }

    @Test func spanInsideLinkTextAndEmphasis() {
        let i = inlines("*x [y]{.z}*")
        guard case .emphasis(let c)? = i.first else {
            Issue.record("\(i)")
            return
        }
        #expect(c[1] == .span(Attributes(classes: ["z"], location: loc(1, 7)), [.text("y")]))
    }

    @Test func literalBracketsUntouched() {
        #expect(inlines("a [b] c {d}") == [.text("a [b] c {d}")])
        #expect(inlines("[open]{.x") == [.text("[open]{.x")])
        #expect(inlines("\\[esc]{.x}") == [.text("[esc]{.x}")])
        #expect(inlines("x] [y]{.z") == [.text("x] [y]{.z")])
    }

    @Test func spanInHeadingAlongsideAttributes() {
        let b = blocks("## [제목]{.kr} 글 {#h}\n")
        #expect(b[0].attributes.id == "h")
        guard case .heading(2, let i) = b[0].kind else {
            Issue.record()
            return
        }
        #expect(i.first == .span(Attributes(classes: ["kr"], location: loc(1, 12)), [.text("제목")]))
        #expect(i.last == .text(" 글"))
    }

    @Test func spanLocationOnLaterLine() {
        let i = inlines("first line\nsecond [x]{k=v}")
        guard case .span(let a, _) = i.last else {
            Issue.record("\(i)")
            return
        }
        #expect(a.pairs.first?.location == loc(2, 12))
    }
}

@Suite struct DivTests {
    @Test func divWithAttributes() {
        let md = """
            before

            ::: {.caption align=center #cap}
            Inside *text*.

            More.
            :::

            after
            """
        let r = parse(md)
        #expect(r.diagnostics.isEmpty)
        let b = r.document.blocks
        #expect(b.count == 3)
        guard case .div(let inner) = b[1].kind else {
            Issue.record("\(b)")
            return
        }
        #expect(b[1].location == loc(3, 1))
        #expect(b[1].attributes.classes == ["caption"])
        #expect(b[1].attributes.id == "cap")
        #expect(b[1].attributes.pairs == [Attributes.Pair(key: "align", value: "center", location: loc(3, 15))])
        #expect(
            inner.map(\.kind) == [
                .paragraph([.text("Inside "), .emphasis([.text("text")]), .text(".")]),
                .paragraph([.text("More.")]),
            ])
        #expect(inner.map { $0.location?.line } == [4, 6])
        #expect(b[2].kind == .paragraph([.text("after")]))
        #expect(b[2].location?.line == 9)
    }

    /// Pandoc: a fence line right after a paragraph line continues the paragraph, and any
    /// closing fence closes the innermost open div.
    @Test func fenceAfterAParagraphLineIsText() {
        let r = parse("::: outer\none\n:::: {.inner}\ntwo\n::::\nthree\n:::\n")
        guard case .div(let outer)? = r.document.blocks.first?.kind else {
            Issue.record("\(r.document.blocks)")
            return
        }
        #expect(
            outer.map(\.kind) == [
                .paragraph([.text("one"), .softBreak, .text(":::: {.inner}"), .softBreak, .text("two")])
            ])
        #expect(r.document.blocks.dropFirst().map(\.kind) == [.paragraph([.text("three"), .softBreak, .text(":::")])])
        #expect(r.diagnostics.map { $0.location?.line } == [3, 7])
    }

    @Test func shorthandAndNesting() {
        let md = """
            ::: outer
            one

            :::: {.inner}
            two
            ::::
            three
            :::
            """
        let r = parse(md)
        #expect(r.diagnostics.isEmpty)
        guard r.document.blocks.count == 1, case .div(let outer) = r.document.blocks[0].kind else {
            Issue.record("\(r.document.blocks)")
            return
        }
        #expect(r.document.blocks[0].attributes.classes == ["outer"])
        #expect(outer.count == 3)
        #expect(outer[0].kind == .paragraph([.text("one")]))
        guard case .div(let inner) = outer[1].kind else {
            Issue.record("\(outer)")
            return
        }
        #expect(outer[1].attributes.classes == ["inner"])
        #expect(inner.map(\.kind) == [.paragraph([.text("two")])])
        #expect(outer[2].kind == .paragraph([.text("three")]))
    }

    @Test func divInsideListItemAndQuote() {
        let md = """
            - item

              ::: note
              inside item
              :::

            > ::: warn
            > quoted
            > :::
            """
        let b = blocks(md)
        guard case .list(let l) = b[0].kind else {
            Issue.record("\(b)")
            return
        }
        guard case .div(let d) = l.items[0].blocks[1].kind else {
            Issue.record("\(l)")
            return
        }
        #expect(l.items[0].blocks[1].attributes.classes == ["note"])
        #expect(d.map(\.kind) == [.paragraph([.text("inside item")])])
        guard case .blockQuote(let q) = b[1].kind, case .div(let qd) = q.first?.kind else {
            Issue.record("\(b)")
            return
        }
        #expect(q[0].attributes.classes == ["warn"])
        #expect(qd.map(\.kind) == [.paragraph([.text("quoted")])])
    }

    @Test func unclosedDivIsTextWithAWarning() {
        let r = parse("::: box\ntext\n")
        #expect(r.document.blocks.map(\.kind) == [.paragraph([.text("::: box"), .softBreak, .text("text")])])
        #expect(r.diagnostics.count == 1)
        #expect(r.diagnostics.first?.location == loc(1, 1))
    }

    /// The issue's examples: a `:::` line inside a paragraph neither splits it nor vanishes, and
    /// a `::: note` line inside a paragraph opens no div.
    @Test func fencesInsideParagraphsAreText() {
        #expect(
            blocks("Ratio 1:2\n:::\nend\n").map(\.kind) == [
                .paragraph([.text("Ratio 1:2"), .softBreak, .text(":::"), .softBreak, .text("end")])
            ])
        #expect(
            blocks("text\n::: note\nmore\n:::\n").map(\.kind) == [
                .paragraph([
                    .text("text"), .softBreak, .text("::: note"), .softBreak, .text("more"), .softBreak, .text(":::"),
                ])
            ])
        // After a blank line the same fence opens a div, and a close may end a paragraph.
        guard case .div(let d)? = blocks("text\n\n::: note\nmore\n:::\n").last?.kind else {
            Issue.record()
            return
        }
        #expect(d.map(\.kind) == [.paragraph([.text("more")])])
    }

    @Test func strayCloseWarnsAndStaysText() {
        let r = parse("text\n\n:::\n\nmore\n")
        #expect(
            r.document.blocks.map(\.kind) == [
                .paragraph([.text("text")]), .paragraph([.text(":::")]), .paragraph([.text("more")]),
            ])
        #expect(r.diagnostics.count == 1)
        #expect(r.diagnostics.first?.location?.line == 3)
        #expect(r.diagnostics.first?.severity == .warning)
    }

    @Test func fencesInCodeStayLiteral() {
        let b = blocks("```\n::: x\n:::\n```\n\n    ::: indented\n")
        #expect(b[0].kind == .codeBlock(info: "", text: "::: x\n:::\n"))
        #expect(b[1].kind == .codeBlock(info: "", text: "::: indented\n"))
    }

    @Test func invalidFenceIsText() {
        let b = blocks("::: two words\n\n::: {.open\n")
        #expect(b.map(\.kind) == [.paragraph([.text("::: two words")]), .paragraph([.text("::: {.open")])])
    }

    @Test func markerLookalikeInInputIsNotADiv() {
        let b = blocks("<!--typeset-div:1-->\n\n::: x\nin\n:::\n")
        // The look-alike is an HTML comment: dropped; the real fence still opens a div.
        #expect(b.count == 1)
        guard case .div = b[0].kind else {
            Issue.record("\(b)")
            return
        }
    }
}
