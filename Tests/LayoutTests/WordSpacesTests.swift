import Styling
import Testing
import Typography

@testable import Layout

/// Where a paragraph's lines break between words (so the renderer puts a space that
/// shows nothing there), read off the paragraph's text line by line.
@Suite struct WordSpacesTests {
    /// For each line of `lines` but the last, whether it ends between words in `text`.
    static func breaks(_ text: String, _ lines: [String]) -> [Bool] {
        let font = FontSpec(families: [], size: 10)
        let paragraph = StyledParagraph(
            runs: [StyledRun(text, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        var spaces = WordSpaces(paragraph)
        return lines.dropLast().map {
            spaces.endsBetweenWords(ShapedLine(handle: nil, x: 0, width: 0, ascent: 0, descent: 0, text: $0))
        }
    }

    @Test func aBreakAtAWordSpaceOrAHardBreakIsBetweenWords() {
        #expect(Self.breaks("one two three four", ["one two", "three four"]) == [true])
        #expect(Self.breaks("one two  three\u{2028}four", ["one two", "three", "four"]) == [true, true])
        // Pango keeps the space the line broke at in the line's text.
        #expect(Self.breaks("one two three", ["one two ", "three"]) == [true])
        #expect(Self.breaks("one\ntwo", ["one", "two"]) == [true])
    }

    /// Lines of code: indented lines, blank lines, a long line wrapped at a space. Each lost
    /// the reading of every later line (the struct tree read `b1 b2b3`, and a wrapped line's
    /// `890,` ran into its next word).
    @Test func indentedAndBlankLinesKeepTheReading() {
        #expect(
            Self.breaks("def f():\n    return {1, 2}\n\nb2\nb3", ["def f():", "    return {1, ", "2}", "", "b2", "b3"])
                == [true, true, true, false, true])
        #expect(
            Self.breaks("a\n\n\n  b\n    c d", ["a", "", "", "  b", "    c ", "d"]) == [true, false, false, true, true])
        #expect(Self.breaks("x\n\ty", ["x", "\ty"]) == [true])
    }

    @Test func aBreakInsideAWordIsNot() {
        // An added hyphenation hyphen, a soft hyphen printed as one, a hard hyphen, CJK text.
        #expect(Self.breaks("international organization", ["interna-", "tional", "organization"]) == [false, true])
        #expect(Self.breaks("inter\u{AD}national word", ["inter-", "national word"]) == [false])
        #expect(Self.breaks("well-known word", ["well-", "known word"]) == [false])
        #expect(Self.breaks("漢字漢字", ["漢字", "漢字"]) == [false])
    }

    @Test func textThatIsNotTheParagraphsEndsTheReading() {
        #expect(Self.breaks("one two three four", ["uno dos", "three", "four"]) == [false, false])
        #expect(Self.breaks("one two", ["one", "two", "three"]) == [true, false])
    }
}
