import DocumentModel
import Testing

@testable import MarkdownParser

/// `SourceCursor` finds each printed character where the Markdown wrote it: past escapes,
/// entities, smart punctuation, soft line breaks and syntax that never prints.
@Suite struct SourceCursorTests {
    /// The line and column the cursor gives for each character of `printed` that is in
    /// `targets`, reading from the first block's start.
    func locate(_ markdown: String, printed: String, targets: Set<Character>) -> [Character: (Int, Int)] {
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        guard let start = document.blocks.first?.location, var cursor = SourceCursor(document.source, at: start) else {
            return [:]
        }
        var found: [Character: (Int, Int)] = [:]
        for character in printed {
            if let at = cursor.find(character), targets.contains(character), found[character] == nil {
                found[character] = (at.line, at.column)
            }
        }
        return found
    }

    @Test func escapesAndEntitiesAreStepped() {
        // `\*` is two bytes, `&amp;` five, `&#x48;` six: Z is at byte 20.
        let found = locate("a \\* b &amp; &#x48; Z\n", printed: "a * b & H Z", targets: ["*", "&", "H", "Z"])
        #expect(found["*"]! == (1, 3))
        #expect(found["&"]! == (1, 8))
        #expect(found["H"]! == (1, 14))
        #expect(found["Z"]! == (1, 21))
    }

    @Test func smartPunctuationAndSoftBreaks() {
        let markdown = "> \"Quoted\" -- it's...\n> next ‘line’ Z\n"
        let printed = "“Quoted” – it’s… next ‘line’ Z"
        let found = locate(markdown, printed: printed, targets: ["“", "–", "…", "Z"])
        #expect(found["“"]! == (1, 3))
        #expect(found["–"]! == (1, 12))
        #expect(found["…"]! == (1, 19))
        // The second line: after `> `, `next ` and ‘line’ (three bytes a curly quote).
        #expect(found["Z"]! == (2, 19))
    }

    @Test func syntaxThatNeverPrintsIsSkipped() {
        // The link's destination holds a `w`; the printed `w` is the word after the link.
        let markdown = "[go](https://w.example/x \"title\"){.c} w <kbd>k</kbd> [^1] z\n\n[^1]: note\n"
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        var cursor = SourceCursor(document.source, at: document.blocks[0].location!)!
        for character in "go " { _ = cursor.find(character) }
        #expect(cursor.find("w").map { [$0.line, $0.column] } == [1, 39])
        for character in " " { _ = cursor.find(character) }
        #expect(cursor.find("k").map { [$0.line, $0.column] } == [1, 46])
        #expect(cursor.findFootnoteReference().map { [$0.line, $0.column] } == [1, 54])
        #expect(cursor.find("z").map { [$0.line, $0.column] } == [1, 59])
    }

    @Test func aCharacterNotWrittenLeavesTheCursorInPlace() {
        let document = MarkdownParser.parse("abc def\n", file: "t.md").document
        var cursor = SourceCursor(document.source, at: document.blocks[0].location!)!
        #expect(cursor.find("•") == nil)
        #expect(cursor.find("a").map(\.column) == 1)
        #expect(cursor.find("d").map(\.column) == 5)
    }

    @Test func aDocumentBuiltInCodeHasNoSource() {
        let parsed = MarkdownParser.parse("x\n", file: "t.md").document
        let built = Document(
            blocks: Array(parsed.blocks), metadata: parsed.metadata, footnotes: parsed.footnotes, file: "t.md")
        #expect(SourceCursor(built.source, at: built.blocks[0].location!) == nil)
        #expect(SourceCursor(parsed.source, at: parsed.blocks[0].location!) != nil)
        #expect(parsed == built, "the source is not part of the document's value")
    }
}
