import Foundation
import TestSupport
import Testing

/// A code block's text read back from the PDF as `pdftotext` reads it (poppler's text
/// extraction, what a poppler viewer copies): every line as its source writes it, whatever
/// white space it holds. Read off the glyphs alone, a tab read as the spaces it is drawn with,
/// the spaces at a line's start and end were lost and two spaces in a row read as one; a line
/// wrapped behind ↪ read as two lines.
@Suite struct CodeCopyTests {
    /// A code block whose text is `code` (`language` its info string), between two
    /// paragraphs, rendered by the `typeset` binary, and its text as `pdftotext` reads it: the
    /// lines between the two paragraphs. The render warns only when `warns` (characters no
    /// installed face draws).
    static func copied(
        _ code: String, language: String = "", name: String, crlf: Bool = false, warns: Bool = false
    ) throws -> String {
        var markdown = "Before.\n\n```\(language)\n\(code)```\n\nAfter.\n"
        if crlf { markdown = markdown.replacingOccurrences(of: "\n", with: "\r\n") }
        let source = Render.folder + "/code-copy-\(name).md"
        let pdf = Render.folder + "/code-copy-\(name).pdf"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: source))
        let result = try typeset(["render", source, "-o", pdf])
        #expect(result.status == 0 && result.output.contains("warning") == warns, "\(name): \(result.output)")
        #expect(try PDFProbe.qpdfClean(pdf), "\(name): qpdf --check")
        let text = try PDFProbe.text(pdf)
        let start = try #require(text.range(of: "Before.\n"), "\(name): \(text)").upperBound
        let end = try #require(text.range(of: "\n\nAfter.", range: start..<text.endIndex), "\(name): \(text)")
        return String(text[start..<end.lowerBound])
    }

    /// Members of the kind: a Makefile recipe's tab, Python's indentation, tabs inside a line,
    /// spaces at a line's end, spaces in a row, a line of spaces and a tab only, Hangul
    /// indented by a tab, and characters that draw no glyph (zero-width space, joiner and
    /// non-joiner, word joiner, soft hyphen, byte order mark), which were lost, and blocks
    /// ending in empty lines.
    static let members: [(name: String, code: String)] = [
        ("makefile", "all: app\n\tcc -o app main.c\n"),
        ("python", "def f(x):\n    if x:\n        return 1\n    return 0\n"),
        ("tab-inside", "key\tvalue\nname:\t\tTypeset\n"),
        ("trailing-spaces", "x = 1   \ny = 2\n"),
        ("spaces-in-a-row", "a  = 1  # one\nbb = 22 # two\n"),
        ("white-space-line", "if x:\n  \t \n    y()\n"),
        ("hangul", "def 인사():\n\treturn \"안녕  하세요\"\n"),
        ("zero-width", "x = \"a\u{200B}b\"\ny = \"c\u{200D}d\"\n"),
        ("joiner-and-soft-hyphen", "w = \"g\u{2060}h\"\nz = \"e\u{00AD}f\"\n"),
        ("byte-order-mark", "s = \"\u{FEFF}x\" + \"\u{200C}\"\n"),
        // Spaces other than U+0020, drawn with the space glyph, which reads back as U+0020.
        ("no-break-space", "const d = \"nbsp\u{00A0}here\";\n"),
        ("figure-and-thin-space", "n = \"1\u{2007}000\u{2009}m\u{202F}x\"\n"),
        // A block ending in an empty line (as code pasted from an editor does): its lines
        // copied as their glyphs read, the source's lines and the drawn ones not paired up.
        ("trailing-empty-line", "all: app\n\tcc -o app main.c\n\n"),
        ("empty-lines-after", "a  b = 1\n   \n\n\n"),
    ]

    @Test(arguments: members)
    func aCodeLineCopiesAsWritten(name: String, code: String) throws {
        for language in ["", "python"] {
            let copied = try Self.copied(code, language: language, name: name + language)
            #expect(copied == String(code.dropLast()), "\(name) \(language): \(copied.debugDescription)")
        }
    }

    /// A tab in inline code reaches the next stop counted from the code's first character, as
    /// a block's tabs do from the line's: drawn as a tab, it was a gap that the structure tree
    /// read as nothing (`keyvalue`).
    @Test func aTabInInlineCodeIsTheSpacesToItsStop() throws {
        let markdown = "Lead `a\tb` and `key\t\tvalue` and `abcd\tx` and `x\ty`{.python} end.\n"
        let source = Render.folder + "/inline-code-tabs.md"
        let pdf = Render.folder + "/inline-code-tabs.pdf"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: source))
        let result = try typeset(["render", source, "-o", pdf])
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
        let structure = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        for drawn in ["a   b", "key     value", "abcd    x", "x   y"] {
            #expect(structure.contains(drawn), "\(drawn.debugDescription) in \(structure.debugDescription)")
        }
        // Poppler parts words more than about 0.7 em apart into columns, as it does inline code
        // that holds two spaces in a row: every word is read, not all in order.
        let words = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(["Lead", "a", "b", "key", "value", "abcd", "x", "y", "end."].allSatisfy(words.contains), "\(words)")
    }

    /// A wrapped code line holding right-to-left text keeps every word when copied: its drawn
    /// lines after the first copied as nothing, while the first, drawn in pieces in reading
    /// order, copied as its own glyphs (a fuzz case lost `hotel`). Members: Hebrew, Arabic, and
    /// Latin set right to left by RLO.
    @Test(arguments: ["print(\"שלום\")", "x = \"مرحبا\"", "s = \"\u{202E}abc\u{202C}\""])
    func aWrappedLineWithRightToLeftTextKeepsEveryWord(_ opening: String) throws {
        // Words none of which holds another (`w1x` is not in `w10x`): poppler may join the first
        // to the right-to-left text before it.
        let words = (0..<120).map { $0 == 60 ? "hotel" : "w\($0)x" }
        let code = opening + " " + words.joined(separator: " ") + "\n"
        let copied = try Self.copied(code, language: "python", name: "rtl-\(abs(opening.hashValue) % 1000)")
        #expect(words.allSatisfy(copied.contains), "\(words.filter { !copied.contains($0) })")
    }

    /// A code block in a footnote copies as written, as one in the text does: its lines were
    /// read off their glyphs (a tab as spaces, two spaces as one, a line's end apart).
    @Test(arguments: [
        ("note-tab", "def note():\treturn  1  # comment\nx = 1\n"),
        ("note-makefile", "all: app\n\tcc -o app main.c\n"),
        ("note-indent", "if x:\n    y()   \n"),
    ])
    func aCodeBlockInANoteCopiesAsWritten(name: String, code: String) throws {
        let indented = code.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    " + $0 }
        let markdown =
            "Body.[^1]\n\n[^1]: Before.\n\n    ```python\n" + indented.joined(separator: "\n")
            + "\n    ```\n\n    After.\n"
        let source = Render.folder + "/code-copy-\(name).md"
        let pdf = Render.folder + "/code-copy-\(name).pdf"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: source))
        let result = try typeset(["render", source, "-o", pdf])
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains(String(code.dropLast())), "\(text.debugDescription)")
    }

    /// A source line with CRLF line ends copies with its tab, its lines apart.
    @Test func aCRLFSourceCopiesAsWritten() throws {
        let code = "all: app\n\tcc -o app main.c\n\t@echo done\n"
        let copied = try Self.copied(code, language: "makefile", name: "crlf", crlf: true)
        #expect(copied == String(code.dropLast()), "\(copied.debugDescription)")
    }

    /// A line too long for the measure, wrapped behind ↪ (at a run of spaces too, so that a
    /// drawn line starts with spaces), copies as one line, without the mark; so do the
    /// numbered lines of a `.numberLines` block, without their numbers. (`pdftotext` sets an
    /// empty line after the wrapped line, where its later drawn lines stand.)
    @Test func aWrappedLineCopiesAsOneLine() throws {
        let items = (0..<30).map { "item_\($0)" }.joined(separator: ",     ")
        let code = "x = 1\n\tvalues = [\(items)]\n    y = 2\n"
        for language in ["", "{.python .numberLines}"] {
            let copied = try Self.copied(code, language: language, name: "wrapped-\(language.isEmpty)")
            let lines = copied.split(separator: "\n", omittingEmptySubsequences: true)
            let expected = code.split(separator: "\n", omittingEmptySubsequences: true)
            #expect(lines == expected, "\(language): \(copied.debugDescription)")
            #expect(!copied.contains("↪"))
        }
    }

    /// A line holding characters drawn in spans of replacement text of their own (an emoji,
    /// a character no installed face draws), which sit inside the line's copy text: with a
    /// tab, with spaces in a row, and wrapped behind ↪ after them or before them.
    @Test func aLineWithEmojiOrCharactersNoFaceDrawsCopiesAsWritten() throws {
        let word = String(repeating: "bravo", count: 25)
        var members = [("emoji", "🎵"), ("emoji-sequence", "👩‍💻✅")]
        if let missing = MissingGlyph.word { members.append(("missing", missing)) }
        for (name, glyphs) in members {
            let code =
                "x\t= \"\(glyphs)\"  # tab\n  \(glyphs)\tmusic  done\ny = \"\(glyphs) \(word) end\"\n"
                + "z = \"\(word) \(glyphs)\"\n"
            let copied = try Self.copied(code, language: "swift", name: "own-spans-\(name)", warns: name == "missing")
            let lines = copied.split(separator: "\n", omittingEmptySubsequences: true)
            let expected = code.split(separator: "\n", omittingEmptySubsequences: true)
            #expect(lines == expected, "\(name): \(copied.debugDescription)")
        }
    }

    /// A code line holding a line or paragraph separator (U+2028, U+2029), at which Pango
    /// breaks the drawn line, is one source line: its later drawn lines continue it (behind ↪,
    /// unnumbered), and the lines after it keep their text. Before, each drawn line took the
    /// next source line's copy text: the line after was lost and the last one read twice.
    @Test func aLineHoldingALineSeparatorCopiesAsOneLine() throws {
        for (name, separator) in [("line", "\u{2028}"), ("paragraph", "\u{2029}")] {
            let code =
                "one two\(separator)three four\n= \"alpha\"\nx\(separator)\(separator)y\n"
                + "print(beta)\(separator)\nlast\n"
            for language in ["", "python", "{.python .numberLines}"] {
                let copied = try Self.copied(code, language: language, name: "separator-\(name)-\(language.count)")
                let words = { (text: String) in text.split { $0.isWhitespace || $0.isNewline }.map(String.init) }
                #expect(words(copied) == words(code), "\(name) \(language): \(copied.debugDescription)")
            }
        }
    }

    /// A line that opens with a space before a word wider than the measure, whose first drawn
    /// line is the space alone (no glyph box to carry a replacement text), keeps every letter
    /// of the word, read off its glyphs.
    @Test func aLineWhoseFirstDrawnLineIsASpaceKeepsItsWord() throws {
        let word = String(repeating: "charlie", count: 19)
        let copied = try Self.copied("print(code)\n \(word) hotel\n", language: "", name: "space-then-word")
        let letters = copied.filter { !$0.isWhitespace }
        #expect(letters == "print(code)" + word + "hotel", "\(copied.debugDescription)")
    }
}
