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
        #expect(
            Self.address(source.cmarkInput) == Self.address(source.lines.buffer),
            "cmark-gfm reads the input, not a copy")
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

    /// A buffer set aside reads back the same bytes, and holds them again until set aside anew.
    @Test func aSetAsideSourceIsReadBackUnchanged() throws {
        let bytes =
            Array("# Title\n\nÜber *text*, 한국어.\n".utf8) + (0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let buffer = SourceBuffer(bytes, setAsideMinimum: 0)
        #expect(!buffer.isSetAside)
        buffer.setAside()
        #expect(buffer.isSetAside, "moved to a file")
        #expect(buffer.count == bytes.count)
        #expect(buffer.bytes == bytes)
        #expect(!buffer.isSetAside, "held again once read")
        buffer.setAside()
        #expect(buffer.isSetAside)
        #expect(buffer.bytes == bytes, "the file written once still holds them")
    }

    /// A source under the minimum stays in memory: a file would cost more than it saves.
    @Test func aSmallSourceStaysInMemory() {
        let buffer = SourceBuffer(Array("Short.\n".utf8))
        buffer.setAside()
        #expect(!buffer.isSetAside)
        #expect(buffer.bytes == Array("Short.\n".utf8))
    }

    /// A short document keeps its last window when released after the survey, so layout does
    /// not parse it again (`[ ` × 40,000 in one window: parsed twice cost 9 % of its time and
    /// 15 MiB of peak memory); its source stays in memory.
    @Test func releasingAShortDocumentKeepsItsWindow() throws {
        let document = MarkdownParser.parse(String(repeating: "[ ", count: 40_000) + "\n", file: "brackets.md").document
        let windows = try #require(Self.windows(document))
        _ = Array(document.blocks)
        #expect(windows.keepsAWindow)
        document.releaseSource()
        #expect(windows.keepsAWindow, "the survey's window is kept for layout")
        #expect(document.source.storage.map { !$0.isSetAside } ?? true)
    }

    /// A document of a megabyte or more, released after its last pass (before Cairo finishes a
    /// file), sets its one buffer aside — windows and positions alike — and reads it back when
    /// its blocks or positions are read again: the same blocks, the same positions.
    @Test func releasingALongDocumentSetsItsSourceAsideAndReadsItBack() throws {
        let paragraph = "A paragraph with *emphasis*, `code` and [a link](https://example.com) in it.\n\n"
        let text =
            "# Title\n\n" + String(repeating: paragraph, count: 1_100_000 / paragraph.utf8.count)
            + "Last ünïcode paragraph.\n"
        #expect(text.utf8.count >= 1 << 20)
        let document = MarkdownParser.parse(text, file: "long.md").document
        let windows = try #require(Self.windows(document))
        #expect(windows.buffer === document.source.storage, "one buffer for both")
        let count = document.blocks.count
        let first = document.blocks[0]
        let middle = document.blocks[count / 2]
        let last = document.blocks[count - 1]
        document.releaseSource()
        #expect(windows.buffer.isSetAside, "the source is in a file, not in memory")
        #expect(document.blocks[count - 1] == last)
        #expect(document.blocks[0] == first)
        #expect(document.blocks[count / 2] == middle)
        #expect(windows.buffer.isSetAside, "a window reads its own bytes from the file, not the whole text back")
        #expect(windows.wholeDocumentParses == 0)
        let location = try #require(last.location)
        var cursor = try #require(SourceCursor(document.source, at: location))
        let found = cursor.find("ü")
        #expect(found?.line == location.line)
        #expect(found?.column == 6, "byte column of 'ü' in 'Last ünïcode'")
    }

    /// A window's lines hold only the window's bytes; a line outside them reads as empty and is
    /// recorded, so the window is made from the whole text instead.
    @Test func aWindowsLinesRecordAReadOutsideThem() {
        let text = Array("zero\none\ntwo\nthree\n".utf8)
        let whole = SourceText(String(decoding: text, as: UTF8.self), file: "w.md").lines
        let start = whole.ranges[1].lowerBound
        let end = whole.ranges[2].upperBound
        let window = SourceLines.window(Array(text[start..<end]), base: start, ranges: whole.ranges)
        #expect(window[1] == Array("one".utf8))
        #expect(window[2] == Array("two".utf8))
        #expect(window.outside?.happened == false)
        #expect(window[3] == [], "outside the window")
        #expect(window.outside?.happened == true)
        #expect(whole[3] == Array("three".utf8))
    }
}
