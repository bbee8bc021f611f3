internal import CYAML
import DocumentModel

/// Turns libyaml's marks into the places diagnostics name. libyaml counts a mark's line from 0
/// and its column in characters; a ``SourceLocation`` has 1-based lines of the file and 1-based
/// columns in UTF-8 bytes, as every other place Typeset names.
struct YAMLPlaces {
    let file: String
    /// The source line of the text's first line (1-based).
    let firstLine: Int
    private let text: [UInt8]
    /// The byte offset at which each line of `text` starts.
    private let lineStarts: [Int]

    init(text: [UInt8], firstLine: Int, file: String) {
        self.text = text
        self.firstLine = firstLine
        self.file = file
        var starts = [0]
        for (offset, byte) in text.enumerated() where byte == 0x0A {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// The spaces `line` (0-based) of the text begins with, in bytes; 0 past its last line.
    func indent(ofLine line: Int) -> Int {
        guard line < lineStarts.count else { return 0 }
        return text[lineStarts[line]...].prefix { $0 == 0x20 }.count
    }

    /// Where `mark` is in the file.
    func location(_ mark: yaml_mark_t) -> SourceLocation {
        let line = Int(mark.line)
        return SourceLocation(
            file: file, line: firstLine + line, column: byteColumn(line: line, characters: Int(mark.column)))
    }

    /// The 1-based UTF-8 column of the character `characters` characters into the 0-based
    /// `line` of the text, kept within the line; time linear in the line's length.
    func byteColumn(line: Int, characters: Int) -> Int {
        guard line < lineStarts.count else { return 1 }
        let start = lineStarts[line]
        var index = start
        var counted = 0
        while index < text.count, text[index] != 0x0A, counted < characters {
            index += 1
            // A UTF-8 continuation byte (10xxxxxx) belongs to the character before it.
            while index < text.count, text[index] & 0xC0 == 0x80 { index += 1 }
            counted += 1
        }
        return index - start + 1
    }
}
