import Testing
@testable import DocumentModel
@testable import MarkdownParser

/// A parsed document holds its source once: the buffer its windows of blocks are parsed again
/// from is the one its source positions read (``SourcePositions``), and the parse gives
/// cmark-gfm that same buffer rather than a copy, whenever the text goes to cmark-gfm as
/// written. Front matter (blanked) and accepted div fences (replaced by markers) make the text
/// cmark-gfm reads differ from the file's: the positions then keep the text as written.
@Suite struct SourceStorageTests {
    static func address(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    static func windows(_ document: Document) -> SourceWindows? { document.blocks.provider as? SourceWindows }

    @Test(arguments: [
        "# Title\n\nSome *text* and `code`.\n\n- item\n- item\n\n> quote\n",
        "Uses a note[^n].\n\n[^n]: The note.\n",  // the whole-tree parse
        "::: note\ntext\n",  // a fence-like line no fence accepts
    ])
    func theWindowsAndThePositionsShareOneBuffer(text: String) throws {
        let source = SourceText(text, file: "s.md")
        #expect(source.isInputAsGiven)
        #expect(Self.address(source.cmarkInput) == Self.address(source.lines.buffer), "cmark-gfm reads the input, not a copy")
        let document = MarkdownParser.parse(text, file: "s.md").document
        let windows = try #require(Self.windows(document))
        #expect(document.source.bytes == Array(text.utf8))
        #expect(Self.address(windows.sourceBuffer) != nil)
        #expect(Self.address(windows.sourceBuffer) == Self.address(document.source.bytes))
    }

    @Test func frontMatterAndFencesKeepTheTextAsWritten() throws {
        let text = "---\ntitle: T\n---\n\n::: note\nInside.\n:::\n\nAfter [^n].\n\n[^n]: Note.\n"
        let source = SourceText(text, file: "s.md")
        #expect(!source.isInputAsGiven)
        let document = MarkdownParser.parse(text, file: "s.md").document
        #expect(document.source.bytes == Array(text.utf8), "positions are read in the file's text")
        let windows = try #require(Self.windows(document))
        #expect(windows.sourceBuffer != Array(text.utf8), "cmark-gfm reads the front matter blanked")
    }
}
