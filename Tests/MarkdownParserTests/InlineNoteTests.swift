import DocumentModel
import Testing

@testable import MarkdownParser

/// Pandoc's inline note `^[…]` (Pandoc manual, "Extension: inline_notes") is a note like a
/// written one: numbered where it is cited among the others, its text the note's paragraph,
/// alike in the whole-document and the windowed parse; what only looks like one stays text.
@Suite struct InlineNoteTests {
    /// Each reference's number and the first word of the note under it, in reading order.
    static func citations(_ text: String, lazily: Bool) -> (cited: [(Int, String)], parsed: ParseResult) {
        let parsed = MarkdownParser.parse(text, file: "n.md", lazily: lazily, windowBytes: 0)
        var cited: [(Int, String)] = []
        func firstWord(_ number: Int) -> String {
            let words = DefinitionReferenceTests.inlines(parsed.document.footnotes[number] ?? []).map(\.plainText)
            return words.joined().split(separator: " ").first.map(String.init) ?? ""
        }
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .footnoteReference(_, let number):
                    cited.append((number, firstWord(number)))
                case .emphasis(let children), .strong(let children), .strikethrough(let children),
                    .link(_, _, let children), .span(_, let children), .presentation(_, let children):
                    visit(children)
                default: break
                }
            }
        }
        for block in parsed.document.blocks { visit(Self.inlines(of: block)) }
        return (cited, parsed)
    }

    static func inlines(of block: Block) -> [Inline] {
        var result: [Inline] = []
        _ = block.mappingChildren(
            blocks: { blocks in
                for inner in blocks { result += inlines(of: inner) }
                return blocks
            },
            inlines: { inlines in
                result += inlines
                return inlines
            })
        return result
    }

    /// Written and inline notes numbered together in reading order, in a paragraph, a list
    /// item, a table cell and a heading; with a note citing a note (cmark-gfm's tree numbers
    /// the written ones) and without.
    @Test(arguments: [false, true])
    func inlineNotesAreNumberedAmongWrittenOnes(lazily: Bool) {
        let cases: [(String, [(Int, String)])] = [
            (
                "A[^a] B^[Inline-b *with* [a link](#x).] C[^c].\n\nD^[Inline-d.]\n\n[^a]: Note-a.\n[^c]: Note-c.\n",
                [(1, "Note-a."), (2, "Inline-b"), (3, "Note-c."), (4, "Inline-d.")]
            ),
            (
                "- item^[In-item.]\n\n| h |\n|---|\n| cell^[In-cell.] |\n\n## Head^[In-heading.]\n\nThen[^z].\n\n"
                    + "[^z]: Note-z.\n",
                [(1, "In-item."), (2, "In-cell."), (3, "In-heading."), (4, "Note-z.")]
            ),
            (
                "A[^a] b^[Inline-b.] c[^c].\n\nd^[Inline-d.]\n\n[^a]: Note-a cites[^n].\n[^c]: Note-c.\n"
                    + "[^n]: Note-n.\n",
                [(1, "Note-a"), (2, "Inline-b."), (3, "Note-c."), (4, "Inline-d.")]
            ),
        ]
        for (text, expected) in cases {
            let (cited, parsed) = Self.citations(text, lazily: lazily)
            #expect(cited.map(\.0) == expected.map(\.0), "\(text): \(cited)")
            #expect(cited.map(\.1) == expected.map(\.1), "\(text): \(cited)")
            #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        }
    }

    /// A note inside an inline note is numbered after it, and its reference in the outer
    /// note's text carries that number.
    @Test func aNoteInsideAnInlineNoteFollowsIt() throws {
        let (cited, parsed) = Self.citations(
            "Outer^[Outer-text ^[Inner-text] end.] after[^w].\n\n[^w]: W.\n", lazily: false)
        #expect(cited.map(\.0) == [1, 3], "\(cited)")
        let outer = try #require(parsed.document.footnotes[1])
        let inner = DefinitionReferenceTests.inlines(outer).compactMap { inline -> Int? in
            if case .footnoteReference(_, let number) = inline { number } else { nil }
        }
        #expect(inner == [2])
        #expect(
            DefinitionReferenceTests.inlines(parsed.document.footnotes[2] ?? []).map(\.plainText).joined()
                == "Inner-text")
    }

    /// What only looks like a note stays text: an escaped caret or bracket, a space between
    /// `^` and `[`, a code span, a superscript (`^[^` too); an unclosed `^[` is warned about
    /// where it is.
    @Test func whatIsNotANoteStaysText() {
        let text = "E \\^[a] f ^\\[b] g ^ [c] `^[d]` 2^10^ k ^[^ h^[e\n"
        let parsed = MarkdownParser.parse(text, file: "n.md")
        #expect(parsed.document.footnotes.isEmpty)
        let words = parsed.document.blocks.map { Self.inlines(of: $0).map(\.plainText).joined() }.joined()
        #expect(words == "E ^[a] f ^[b] g ^ [c] ^[d] 210 k [ h^[e", "\(words)")
        let warnings = parsed.diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
        #expect(warnings == ["1:45 '^[' opens a Pandoc inline note with no closing ']'; set as text"], "\(warnings)")
    }

    /// `^[x]{.a}` is a note followed by text, as Pandoc reads it.
    @Test func aNoteIsReadBeforeASpan() {
        let (cited, parsed) = Self.citations("A^[Note-x]{.a} b.\n", lazily: false)
        #expect(cited.map(\.1) == ["Note-x"])
        let words = parsed.document.blocks.map { Self.inlines(of: $0).map(\.plainText).joined() }.joined()
        #expect(words == "A{.a} b.", "\(words)")
    }

    /// An inline note in a loose definition's later blocks (parsed on their own): in a
    /// paragraph, a list item (with a note inside it) and a quote, with its text, numbered among
    /// the document's notes.
    @Test(arguments: [false, true])
    func inlineNotesInADefinitionsBlocksKeepTheirText(lazily: Bool) {
        let text = """
            Term

            :   Def^[First-note].

                Para^[Para-note] and[^w].

                - item^[Item-note ^[Nested-note]]

                > q^[Quote-note]

            After^[After-note].

            [^w]: Written.
            """
        let (cited, parsed) = Self.citations(text, lazily: lazily)
        #expect(
            cited.map(\.1) == ["First-note", "Para-note", "Written.", "Item-note", "Quote-note", "After-note"],
            "\(cited)")
        #expect(cited.map(\.0) == [1, 2, 3, 4, 5, 7], "\(cited)")
        #expect(
            DefinitionReferenceTests.inlines(parsed.document.footnotes[6] ?? []).map(\.plainText).joined()
                == "Nested-note")
        // Every note has a distinct label: two continuations' notes are never one.
        #expect(Set(parsed.document.footnotes.keys) == Set(1...7))
    }
}
