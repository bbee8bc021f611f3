import Styling

/// Where a paragraph's lines break between words, found by reading each line's text
/// (``ShapedLine/text``) off the paragraph's own text in order: a line followed in the paragraph
/// by white space (the word space a break drops, or a hard line break) ends between words, and
/// so does a line whose own text ends in white space before more text. A line ending in a
/// hyphen that the paragraph's text does not have (an added hyphenation hyphen) continues its
/// word, as does a line broken inside a word (CJK text, a long code line). A line may begin
/// with white space of its own (an indented line of code) and may be empty (a blank one). When a line's text
/// is not where the previous line ended (a shaper that rewrites its text), no later line of
/// the paragraph is said to end between words.
///
/// The renderer draws such a break as a space that shows nothing (``PageElement/wordSpace(after:x:baseline:)``),
/// so text read without layout analysis keeps the words apart (PDF 1.7 §14.8.2.5).
struct WordSpaces {
    private let bytes: [UInt8]
    private var position = 0
    private var lost = false
    /// Where the text of the line read last ends in the paragraph's bytes.
    private var previousLineEnd = 0
    /// Whether the line last passed to ``endsBetweenWords(_:)`` ends in a hyphen the
    /// paragraph's text does not have (an added hyphenation hyphen).
    private(set) var endedInAddedHyphen = false
    /// Whether the line last passed to ``endsBetweenWords(_:)`` ends in a hyphen, added or the
    /// text's own (a hyphenation point, `Node-` | `API`), or a dash inside a word: a page
    /// should not turn after it.
    private(set) var endedInHyphen = false

    init(_ paragraph: StyledParagraph) {
        bytes = Array(paragraph.text.utf8)
    }

    /// Whether `line`, the paragraph's next line, ends at a break between words.
    mutating func endsBetweenWords(_ line: ShapedLine) -> Bool {
        endedInAddedHyphen = false
        endedInHyphen = line.text.last.map { "-\u{2010}\u{2013}\u{2014}".contains($0) } ?? false
        guard !lost else { return false }
        let text = Array(line.text.utf8)
        // An empty line (a blank line of code, of a `<pre>`) holds no word, and needs no space.
        guard !text.isEmpty else { return false }
        // The white space after the line before is skipped: a line that begins with its own
        // (an indented line of code) begins that much before the next word.
        skipWhiteSpace()
        let leading = text.prefix { Self.isSpaceByte($0) }.count
        if leading > 0, position - leading >= previousLineEnd {
            position -= leading
        }
        if matches(text[...]) {
            position += text.count
        } else if text.last == 0x2D, matches(text.dropLast()) {
            // A hyphenation hyphen: the word goes on (past a soft hyphen, C2 AD, at the break).
            position += text.count - 1
            if position + 1 < bytes.count, bytes[position] == 0xC2, bytes[position + 1] == 0xAD { position += 2 }
            previousLineEnd = position
            endedInAddedHyphen = true
            return false
        } else {
            lost = true
            return false
        }
        previousLineEnd = position
        let endsInSpace = text.last.map(Self.isSpaceByte) ?? false
        let before = position
        skipWhiteSpace()
        return (endsInSpace || position > before) && position < bytes.count
    }

    private func matches(_ text: ArraySlice<UInt8>) -> Bool {
        guard !text.isEmpty, position + text.count <= bytes.count else { return false }
        return bytes[position..<position + text.count].elementsEqual(text)
    }

    /// Steps over spaces, tabs, line breaks and U+2028 LINE SEPARATOR (E2 80 A8).
    private mutating func skipWhiteSpace() {
        while position < bytes.count {
            if Self.isSpaceByte(bytes[position]) {
                position += 1
            } else if position + 2 < bytes.count, bytes[position] == 0xE2, bytes[position + 1] == 0x80,
                bytes[position + 2] == 0xA8
            {
                position += 3
            } else {
                return
            }
        }
    }

    private static func isSpaceByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
