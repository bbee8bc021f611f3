import DocumentModel
import TestSupport
import Testing

@testable import MarkdownParser

/// Reference links, images and footnotes cited inside a loose definition's indented blocks
/// (parsed on their own, ``PandocDefinitions``) resolve against definitions written anywhere in
/// the document — before the list, after it, or both — and the notes take their numbers in
/// document order, alike in the whole-document and the windowed parse.
@Suite struct DefinitionReferenceTests {
    static let text = """
        [before]: https://example.com/before
        [^pre]: A note defined before.

        Term
        :   Intro paragraph.

            Second block with [a link][before], [after][after], ![img][pic] and notes[^pre][^post].

            > Quoted [after] and *emphasis with a note*[^third].

        Other text[^post] and [after].

        [after]: https://example.com/after
        [pic]: /pictures/after.png
        [^post]: A note defined after.
        [^third]: The third note.
        """

    /// Every inline of `blocks`, depth first.
    static func inlines(_ blocks: [Block]) -> [Inline] {
        var result: [Inline] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                result.append(inline)
                switch inline {
                case .emphasis(let children), .strong(let children), .strikethrough(let children),
                    .link(_, _, let children), .span(_, let children), .presentation(_, let children):
                    visit(children)
                default: break
                }
            }
        }
        func visit(_ blocks: [Block]) {
            for block in blocks {
                switch block.kind {
                case .paragraph(let content), .heading(_, let content): visit(content)
                case .blockQuote(let content), .div(let content), .alert(_, let content): visit(content)
                case .definitionList(let items):
                    for item in items {
                        visit(item.term)
                        for definition in item.definitions { visit(definition) }
                    }
                case .list(let list): for item in list.items { visit(item.blocks) }
                default: break
                }
            }
        }
        visit(blocks)
        return result
    }

    @Test(arguments: [false, true])
    func linksImagesAndNotesInsideADefinitionResolve(lazily: Bool) throws {
        let parsed = MarkdownParser.parse(Self.text, file: "d.md", lazily: lazily, windowBytes: 0)
        let blocks = Array(parsed.document.blocks)
        guard case .definitionList(let items)? = blocks.first?.kind else {
            Issue.record("\(blocks.map(\.kind))")
            return
        }
        let definition = Self.inlines(try #require(items.first?.definitions.first))
        let destinations = definition.compactMap { inline -> String? in
            if case .link(let destination, _, _) = inline { return destination }
            return nil
        }
        #expect(
            destinations == ["https://example.com/before", "https://example.com/after", "https://example.com/after"])
        #expect(
            definition.contains {
                if case .image(let source, _, _, _) = $0 { source == "/pictures/after.png" } else { false }
            })
        let text = definition.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
        #expect(!text.contains("[") && !text.contains("]"), "\(text)")
        // Notes numbered in document order: pre, post (inside the definition), third.
        let notes = definition.compactMap { inline -> String? in
            if case .footnoteReference(let label, let number) = inline { return "\(label)=\(number)" }
            return nil
        }
        #expect(notes == ["pre=1", "post=2", "third=3"])
        let outside = Self.inlines(Array(blocks.dropFirst()))
        #expect(outside.contains(.footnoteReference(label: "post", number: 2)))
        let footnotes = parsed.document.footnotes
        #expect(footnotes.keys.sorted() == [1, 2, 3])
        #expect(Self.inlines(footnotes[1] ?? []) == [.text("A note defined before.")])
        #expect(Self.inlines(footnotes[2] ?? []) == [.text("A note defined after.")])
        #expect(Self.inlines(footnotes[3] ?? []) == [.text("The third note.")])
        // No "never cited" warning: the notes cited in the definition count.
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        // The definition's second paragraph keeps its place in the file.
        #expect(items.first?.definitions.first?.dropFirst().first?.location?.line == 7)
    }

    @Test func theWindowedAndWholeParsesAgree() {
        WindowedParseTests.expectSame(Self.text, "definition-references.md")
        let many =
            (0..<30).map { index in
                "Term \(index)\n:   First.\n\n    See [ref \(index % 3)] and a note[^n\(index)].\n\n"
                    + "[^n\(index)]: Note \(index).\n"
            }.joined(separator: "\n") + "\n[ref 0]: /zero\n[ref 1]: /one\n[ref 2]: /two\n"
        WindowedParseTests.expectSame(many, "many-definition-references.md")
        let parsed = MarkdownParser.parse(many, file: "m.md")
        #expect(parsed.document.footnotes.count == 30)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
    }

    /// Notes are numbered in the order of their first reference in the file, wherever it
    /// stands: in running text, in another note's definition (a note citing a note, which
    /// cmark-gfm numbers itself) or in a definition's indented blocks (parsed on their own) —
    /// alike in the whole-document and the windowed parse.
    @Test(arguments: [false, true])
    func notesCitedInADefinitionTakeTheirPlaceWhenANoteCitesANote(lazily: Bool) {
        let texts = [
            // A note cited only in a definition, between notes cited in running text.
            "Intro[^a].\n\n[^a]: Note a cites[^b].\n\nTerm\n:   First.\n\n    Inside[^c].\n\n"
                + "After[^d].\n\n[^b]: Note b.\n[^c]: Note c.\n[^d]: Note d.\n",
            // Two, one of them also cited later; the citing note defined last.
            "Intro[^a].\n\nTerm\n:   First.\n\n    Inside[^c] and[^e].\n\nAfter[^d] and[^c].\n\n"
                + "[^c]: Note c.\n[^d]: Note d.\n[^e]: Note e.\n[^a]: Note a cites[^b].\n[^b]: Note b.\n",
            // In a definition nested in a list item, and in a definition's block quote.
            "- Item[^a].\n\n  Term\n  :   First.\n\n      > Quoted[^c].\n\nAfter[^d].\n\n"
                + "[^a]: Note a cites[^b].\n[^b]: Note b.\n[^c]: Note c.\n[^d]: Note d.\n",
        ]
        let expected = [
            ["a": 1, "b": 2, "c": 3, "d": 4],
            ["a": 1, "c": 2, "e": 3, "d": 4, "b": 5],
            ["a": 1, "c": 2, "d": 3, "b": 4],
        ]
        for (text, numbers) in zip(texts, expected) {
            let parsed = MarkdownParser.parse(text, file: "n.md", lazily: lazily, windowBytes: 0)
            var found: [String: Int] = [:]
            var cited: [Int] = []
            for case .footnoteReference(let label, let number) in Self.inlines(Array(parsed.document.blocks)) {
                #expect(found[label] == nil || found[label] == number, "\(label) numbered twice")
                found[label] = number
                cited.append(number)
            }
            for (_, note) in parsed.document.footnotes {
                for case .footnoteReference(let label, let number) in Self.inlines(note) { found[label] = number }
            }
            #expect(found == numbers, "\(text)")
            // Each note's text under its number.
            for (label, number) in numbers {
                let words = Self.inlines(parsed.document.footnotes[number] ?? []).map(\.plainText).joined()
                #expect(words.hasPrefix("Note \(label)"), "\(label) → \(number): \(words)")
            }
            #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        }
    }

    /// A reference with no definition anywhere stays text, as it does outside a definition.
    @Test func anUndefinedReferenceStaysText() {
        let parsed = MarkdownParser.parse("Term\n:   First.\n\n    A [missing] link.\n", file: "u.md")
        guard case .definitionList(let items)? = Array(parsed.document.blocks).first?.kind else {
            Issue.record("\(Array(parsed.document.blocks))")
            return
        }
        let inlines = Self.inlines(items.first?.definitions.first ?? [])
        let text = inlines.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
        #expect(text == "FirstA [missing] link." || text.hasSuffix("A [missing] link."), "\(inlines)")
        #expect(!inlines.contains { if case .link = $0 { true } else { false } })
    }

    /// A definition's blocks are parsed after the definitions they may cite, not all of them
    /// (``CitedDefinitions``), but none they cite is left out: one in a block quote, one with
    /// its title on the next line, one whose label spans two lines, one with an escaped
    /// bracket, a note with a lazy line and an indented block, labels in other cases and
    /// spacing.
    @Test func definitionsOfEveryShapeAreFoundFromADefinition() throws {
        let text = """
            Term
            :   First.

                [Quoted], [titled], [Two Lines], [a\\]b], [CASE  Label] and a note[^lazy].

            > [quoted]: /quoted

            [titled]: /titled
              "The title"

            [two
            lines]: /two

            [a\\]b]: /escaped
            [case label]: /case

            [^lazy]: A note
            continued lazily.

                Its second paragraph.
            """
        let parsed = MarkdownParser.parse(text, file: "shapes.md")
        let destinations = Self.inlines(Array(parsed.document.blocks)).compactMap { inline -> String? in
            if case .link(let destination, _, _) = inline { destination } else { nil }
        }
        #expect(destinations == ["/quoted", "/titled", "/two", "/escaped", "/case"], "\(destinations)")
        let note = try #require(parsed.document.footnotes[1])
        let noteText = Self.inlines(note).compactMap { if case .text(let text) = $0 { text } else { nil } }
        #expect(noteText.joined(separator: " ").contains("continued lazily"), "\(noteText)")
        #expect(note.count == 2, "\(note)")
    }

    /// Each definition's blocks cost what they cite, not the document's whole list of
    /// definitions: 8 times the definitions and references take about 8 times the processor
    /// time (parsed after every definition, it was 60 times).
    @Test(.slow) func definitionsCitingReferencesParseInLinearTime() {
        func document(_ count: Int) -> String {
            (0..<count).map { "Term \($0)\n\n:   Definition.\n\n    About [the thing][r\($0)].\n" }
                .joined(separator: "\n") + "\n" + (0..<count).map { "[r\($0)]: /\($0)" }.joined(separator: "\n")
        }
        let texts = [250, 2_000].map(document)
        // Measured again, up to three times, until the bound holds: a moment of load fails
        // nothing, and a cost that grows faster than the document fails every time.
        let seconds = Timing.firstHolding {
            texts.map { text in Timing.bestThreadSeconds(of: 2) { _ = MarkdownParser.parse(text, file: "many.md") } }
        } holds: {
            $0[1] < 14 * $0[0]
        }
        #expect(seconds[1] < 14 * seconds[0], "\(seconds)")
    }
}
