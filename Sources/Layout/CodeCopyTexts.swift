/// What each drawn line of a code block copies as (``ShapedLine/copyText``), read off the
/// block's source (``StyledBlock/codeSource``) line for line with the text its paragraph draws
/// (tabs expanded to spaces).
///
/// Readers that take a line's text from its glyphs and their positions (`pdftotext`, a
/// viewer's copy) read a run of spaces as one space, read none at a line's start or end, and
/// read a tab as the spaces it is drawn with, and see nothing of a character that draws no
/// glyph. A source line with a tab, a space at its start or end, two spaces in a row, or such a
/// character therefore copies as the source line itself. A source line
/// wrapped behind ↪ copies whole from its first drawn line, and its later drawn lines copy as
/// nothing, so that it copies as one line. An empty line, which draws no glyph, copies with the
/// line before it, as a line feed after its text (with the line after it, before its text, at
/// the block's start). Other lines copy as their glyphs read.
struct CodeCopyTexts {
    /// The source's lines, each without its line end.
    private let source: [Substring]
    /// The number of UTF-8 bytes of each line as the paragraph draws it.
    private let drawnBytes: [Int]
    /// By source line, the empty lines before it and after it that it copies with: an empty
    /// line draws no glyph to carry its line end, so the line before it carries it (the line
    /// after it when none is before it).
    private var emptyBefore: [Int]
    private var emptyAfter: [Int]
    /// The source line of the drawn line read last (-1 before the first).
    private var line = -1
    /// Whether that source line copies as its source (its later drawn lines as nothing).
    private var lineCopiesAsWritten = false

    /// The copy texts of a block whose source is `source` and whose paragraph draws `drawn`;
    /// nil when their lines do not pair up.
    init?(source: String, drawn: String) {
        let sourceLines = Self.lines(of: source)
        // The paragraph draws the source without its last line end (`Styler`): given back, a
        // source ending in an empty line splits as its drawing does.
        let drawnLines = Self.lines(of: source.unicodeScalars.last == "\n" ? drawn + "\n" : drawn)
        guard sourceLines.count == drawnLines.count else { return nil }
        self.source = sourceLines
        drawnBytes = drawnLines.map(\.utf8.count)
        emptyBefore = Array(repeating: 0, count: sourceLines.count)
        emptyAfter = emptyBefore
        var pending = 0
        var lastDrawn: Int?
        for (index, bytes) in drawnBytes.enumerated() {
            if bytes > 0 {
                emptyBefore[index] = pending
                pending = 0
                lastDrawn = index
            } else if let lastDrawn {
                emptyAfter[lastDrawn] += 1
            } else {
                pending += 1
            }
        }
    }

    /// Gives the code line `item` draws (its last text), the block's next drawn line, the text
    /// it copies as (``ShapedLine/copyText``).
    mutating func setCopyText(of item: inout Item) {
        let last = item.elements.lastIndex { element in
            if case .text = element { return true }
            return false
        }
        guard let last, case .text(var line, let x, let baseline) = item.elements[last] else { return }
        line.copyText = copyText(of: line)
        item.elements[last] = .text(line, x: x, baseline: baseline)
    }

    /// The copy text of `shaped`, the block's next drawn line: nil when it copies as its glyphs
    /// read.
    mutating func copyText(of shaped: ShapedLine) -> String? {
        if shaped.isWrapContinuation { return lineCopiesAsWritten ? "" : nil }
        line += 1
        lineCopiesAsWritten = false
        guard line < source.count else { return nil }
        let written = source[line]
        let wrapped = shaped.text.utf8.count < drawnBytes[line]
        let empties = (before: emptyBefore[line], after: emptyAfter[line])
        // The first drawn line of a wrapped line that is white space alone (a space before a
        // word wider than the line, which goes whole to the next drawn line, the space left at
        // the wrap undrawn) draws no glyph, and poppler drops the replacement text of a span
        // without one: such a line copies as its glyphs read.
        // A line holding right-to-left text is drawn in pieces in reading order, which carry no
        // replacement text: it copies as its glyphs read, every drawn line of it (its drawn
        // lines after the first copied as nothing, and the first's glyphs alone were read).
        guard !shaped.text.isEmpty, !(wrapped && shaped.text.allSatisfy(\.isWhitespace)),
            wrapped || empties != (0, 0) || Self.copiesOtherwise(written), !Self.holdsRightToLeft(written)
        else { return nil }
        lineCopiesAsWritten = true
        let before = String(repeating: "\n", count: empties.before)
        return before + written + String(repeating: "\n", count: empties.after)
    }

    /// Whether `line`, read off its glyphs, would not copy as written: it has a tab, starts or
    /// ends with a space, has two spaces in a row, holds a character that draws no glyph
    /// (Unicode's Default_Ignorable_Code_Point: a zero-width space or joiner, a word joiner, a
    /// soft hyphen, a byte order mark), which a reader of glyphs cannot see, or a space other
    /// than U+0020 (a no-break space, a figure or thin space, Unicode's Zs), drawn with a face's
    /// space glyph and read back as U+0020.
    static func copiesOtherwise(_ line: Substring) -> Bool {
        var previousIsSpace = true
        var isASCII = true
        for byte in line.utf8 {
            if byte == 0x09 { return true }
            let isSpace = byte == 0x20
            if isSpace && previousIsSpace { return true }
            previousIsSpace = isSpace
            if byte >= 0x80 { isASCII = false }
        }
        if previousIsSpace && !line.isEmpty { return true }
        return !isASCII
            && line.unicodeScalars.contains {
                $0.properties.isDefaultIgnorableCodePoint
                    || ($0 != " " && $0.properties.generalCategory == .spaceSeparator)
            }
    }

    /// Whether `line` holds right-to-left letters (not the byte order mark that ends their
    /// presentation forms' block) or a control that sets text right to left (RLE, RLO, RLI,
    /// RLM: UAX #9), which Pango draws in runs out of their logical order.
    static func holdsRightToLeft(_ line: Substring) -> Bool {
        line.utf8.contains { $0 >= 0xC0 }
            && line.unicodeScalars.contains {
                ($0 != "\u{FEFF}" && ParagraphComposer.isRightToLeft($0))
                    || ["\u{202B}", "\u{202E}", "\u{2067}", "\u{200F}"].contains($0)
            }
    }

    /// `text`'s lines, split at line feeds, each without a carriage return before its line
    /// feed; a last line feed ends the last line rather than starting an empty one.
    static func lines(of text: String) -> [Substring] {
        // Split by scalars: a carriage return and line feed are one `Character`.
        let scalars = text.unicodeScalars
        var lines = scalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            Substring(line.last == "\r" ? line.dropLast() : line)
        }
        if scalars.last == "\n", lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
