import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

/// Runs of spaces in Markdown's running text are one word space wherever text is styled
/// (paragraphs, headings, list items, table cells), across the edges of runs, as HTML, Pandoc
/// and TeX set them; code spans and other kinds of space keep theirs.
@Suite struct SpaceCollapsingTests {
    func blocks(_ markdown: String) -> [StyledBlock] {
        Styler.style(MarkdownParser.parse(markdown, file: "t.md").document, theme: .default).blocks
    }

    /// The text of every paragraph and table cell of `markdown`, in order.
    func texts(_ markdown: String) -> [String] {
        blocks(markdown).flatMap { block -> [String] in
            switch block.content {
            case .paragraph(let paragraph): [paragraph.runs.map(\.text).joined()]
            case .table(let table): table.header.map { $0.runs.map(\.text).joined() }
            default: []
            }
        }
    }

    /// The spaces around a `<br>` end one line and would begin the next: a browser removes
    /// them (CSS Text 3 §4.1.2), and so does Typeset, on the same line, across a line end, in
    /// emphasis and in a table cell; an ideographic space after a break stays (an indent).
    @Test func spacesAroundAnHTMLBreakAreRemoved() {
        #expect(texts("Text <br> break") == ["Text\u{2028}break"])
        #expect(texts("line one<br>\nline two") == ["line one\u{2028}line two"])
        #expect(texts("*a <br>* b") == ["a\u{2028}b"])
        #expect(texts("| x <br> y |\n|---|") == ["x\u{2028}y"])
        #expect(texts("a<br>\u{3000}indented") == ["a\u{2028}\u{3000}indented"])
    }

    @Test func runsOfSpacesAreOneWordSpace() {
        #expect(texts("Two  spaces after a period.  Next sentence.") == ["Two spaces after a period. Next sentence."])
        #expect(texts("# A    heading") == ["A heading"])
        #expect(texts("- Khaled Hosny             <khaled@example.org>") == ["Khaled Hosny khaled@example.org"])
        #expect(texts("| a   b | c |\n|---|---|\n| d | e |").prefix(2) == ["a b", "c"])
        #expect(texts("tab\t\tseparated") == ["tab separated"])
    }

    @Test func spacesAcrossTheEdgesOfRunsCollapse() {
        let runs = blocks("word **bold**  *emphasis*  and [  link](https://example.org) end").compactMap { block in
            if case .paragraph(let paragraph) = block.content { paragraph.runs } else { nil }
        }[0]
        #expect(runs.map(\.text).joined() == "word bold emphasis and link end")
        #expect(runs.first { $0.style.font.italic }?.text == "emphasis")
        #expect(runs.first { $0.style.link != nil }?.text == "link")
    }

    /// Zero-width space, non-joiner, joiner, word joiner and zero-width no-break space beside a
    /// space (inside a run of spaces, at its ends, across the edges of runs) are dropped, so the
    /// run is one run of spaces; elsewhere (inside a word, an emoji sequence, code) they stay.
    @Test(arguments: ["\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}"])
    func invisibleControlsBesideSpacesAreDropped(control: String) {
        let ideographic = "\u{3000}\u{3000}"
        #expect(texts("a\(ideographic)\(control)\(ideographic)b") == ["a\(ideographic)\(ideographic)b"])
        #expect(texts("a \(control)b and c\(control) d") == ["a b and c d"])
        #expect(texts("a\u{2003}\(control)*b* \(control)\(control) c") == ["a\u{2003}b c"])
        #expect(texts("a\(control)*\(control) b*") == ["a b"], "across the edge of a run")
        #expect(texts("\(control)b c") == ["b c"], "at the paragraph's start")
        #expect(texts("a\(control)b") == ["a\(control)b"], "inside a word")
        #expect(texts("a `\(control) x` b") == ["a \(control) x b"], "in code")
    }

    @Test func emojiSequencesKeepTheirJoiners() {
        #expect(texts("family 👨\u{200D}👩\u{200D}👧 here") == ["family 👨\u{200D}👩\u{200D}👧 here"])
    }

    /// Default-ignorable characters that modify the character before them (variation
    /// selectors, combining grapheme joiner, soft hyphen, Hangul filler, tags) are dropped
    /// after a space, where they modify nothing, and kept after anything else, a space after
    /// them or not: an emoji keeps its presentation selector.
    @Test(arguments: ["\u{FE0F}", "\u{FE00}", "\u{034F}", "\u{00AD}", "\u{3164}", "\u{E0041}", "\u{E0100}"])
    func ignorablesAfterASpaceAreDropped(mark: String) {
        #expect(texts("a\u{2001}\(mark)\u{2001}b") == ["a\u{2001}\u{2001}b"])
        #expect(texts("a \(mark)b") == ["a b"])
        #expect(texts("\(mark)b c") == ["b c"], "at the paragraph's start")
        #expect(texts("*\(mark)b* c") == ["b c"], "at the paragraph's start, in a run")
        #expect(texts("❤\(mark) love") == ["❤\(mark) love"], "after a character, before a space")
        #expect(texts("a\(mark)b") == ["a\(mark)b"], "inside a word")
        #expect(texts("a `\u{2001}\(mark)` b") == ["a \u{2001}\(mark) b"], "in code")
    }

    /// Directional marks and controls order the line: beside a space they stay.
    @Test(arguments: ["\u{200E}", "\u{200F}", "\u{061C}", "\u{202B}", "\u{2067}"])
    func directionalControlsStay(control: String) {
        #expect(texts("a \(control) b") == ["a \(control) b"])
    }

    @Test func codeSpansAndOtherSpacesKeepTheirWidth() {
        #expect(texts("a `x  y` b") == ["a x  y b"])
        #expect(
            texts("a\u{00A0}\u{00A0}b and 가\u{3000}\u{3000}나 and c\u{2003}\u{2003}d") == [
                "a\u{00A0}\u{00A0}b and 가\u{3000}\u{3000}나 and c\u{2003}\u{2003}d"
            ])
    }
}
