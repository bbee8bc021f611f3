import Foundation
import TestSupport
import Testing

/// A word that no installed font draws, for ``MissingGlyphTextTests``.
enum MissingGlyph {
    /// Words in scripts a machine may have no font for, the first ones with marks that join
    /// their letters into clusters; the last in the Supplementary Private Use Area-A.
    static let candidates = [
        "สวัสดี", "नमस्ते", "བོད", "ሰላም", "ᏣᎳᎩ", "\u{F0000}\u{F0001}\u{F0002}",
    ]

    /// The first candidate none of whose characters any installed font has (`fc-list
    /// :charset=…` lists none); nil when every candidate has a font.
    static let word: String? = candidates.first { word in
        word.unicodeScalars.allSatisfy { scalar in
            let charset = ":charset=" + String(scalar.value, radix: 16)
            guard let listed = try? PDFProbe.run("fc-list", [charset, "family"], standardErrorToo: false) else {
                return false
            }
            return listed.status == 0 && listed.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
    }
}

/// Characters no installed font has, through the `typeset` executable: the page shows Pango's
/// boxes, and every reader reads the characters as written, in order, never the boxes' hex
/// digits: the structure tree (`pdfinfo -struct-text`), `pdftotext`, `pdftotext -raw` and pypdf
/// for a tagged PDF, `pdftotext` for one made with `--no-tags`.
@Suite(.enabled(if: MissingGlyph.word != nil, "every candidate script has a font on this machine"))
struct MissingGlyphTextTests {
    static let word = MissingGlyph.word

    /// Members of the kind: each place text is drawn, a missing word beside Hangul and an
    /// emoji, a line of missing words alone and a longer run of them; the Markdown (`W` the
    /// missing word) and the text it reads as.
    static let documents: [(name: String, markdown: String, reads: String)] = [
        ("paragraph", "Before W after, and Wend.\n", "Before W after, and Wend."),
        ("heading", "# Heading W here\n\nBody.\n", "Heading W here Body."),
        ("table", "| Cell W | Other |\n|---|---|\n| W | plain |\n", "Cell W Other W plain"),
        ("code-block", "```\nlet greeting = \"W\"\n```\n", "let greeting = \"W\""),
        ("highlighted", "```swift\nlet greeting = \"W\" // W\n```\n", "let greeting = \"W\" // W"),
        ("inline-code", "Inline `code W` here.\n", "Inline code W here."),
        ("link", "A [link W](https://example.com) here.\n", "A link W here."),
        ("list", "- Item W one\n- Item two\n", "• Item W one • Item two"),
        ("emphasis", "Some *W* and **W**.\n", "Some W and W."),
        ("hangul-emoji", "한국어 W 🎵 끝 W🎵W.\n", "한국어 W 🎵 끝 W🎵W."),
        ("line-alone", "Before.\n\nW W W\n\nAfter.\n", "Before. W W W After."),
        ("long-run", "WWWWWW\n", "WWWWWW"),
    ]

    /// The words (runs of letters and digits: hex digits would show up as words) and emoji
    /// (each grapheme cluster with an emoji presentation) of `text`, in order.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            let emoji = character.unicodeScalars.contains { $0.properties.isEmojiPresentation }
            if character.isLetter || character.isNumber, !emoji {
                word.append(character)
                continue
            }
            if !word.isEmpty { tokens.append(word) }
            word = ""
            if emoji { tokens.append(String(character)) }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    /// The ``tokens(_:)`` of a reader's text of a one-page document, without the page number
    /// (an artifact, which readers of the page's content read last).
    static func pageTokens(_ text: String) -> [String] {
        var tokens = tokens(text)
        if tokens.last == "1" { tokens.removeLast() }
        return tokens
    }

    /// Renders member `index` (with `options`) into a scratch folder; returns the PDF's path,
    /// the expected tokens and the folder, for the caller to remove.
    static func render(_ index: Int, options: [String] = []) throws -> (pdf: String, expected: [String], dir: String) {
        let word = try #require(Self.word)
        let (name, markdown, reads) = Self.documents[index]
        let dir = try Render.scratchFolder("missing-glyph-\(name)")
        try markdown.replacingOccurrences(of: "W", with: word).write(
            toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset(["render", dir + "/doc.md", "-o", pdf] + options)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("print as boxes"), "the word has no font: \(result.output)")
        // The warning names each character by its code points in the Unicode Standard's
        // notation (at least four hexadecimal digits: U+0E2A, not U+E2A), every code point of a
        // character made of several (a letter with its marks: 'ดี' U+0E14 U+0E35).
        func notation(_ scalar: Unicode.Scalar) -> String {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        for character in word {
            let named = "'\(character)' " + character.unicodeScalars.map(notation).joined(separator: " ")
            #expect(result.output.contains(named), "\(named): \(result.output)")
        }
        #expect(!result.output.contains("could not be tagged"), "\(result.output)")
        return (pdf, tokens(reads.replacingOccurrences(of: "W", with: word)), dir)
    }

    /// The missing characters read back in order through the structure tree, `pdftotext -raw`
    /// and pypdf, and through `pdftotext` (whose layout analysis may order table cells and
    /// blocks its own way) as the same words; the file is tagged and clean.
    @Test(arguments: documents.indices)
    func missingCharactersReadAsWrittenInATaggedPDF(_ index: Int) throws {
        let (pdf, expected, dir) = try Self.render(index)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try PDFProbe.info(pdf)["Tagged"] == "yes")
        #expect(try PDFProbe.qpdfClean(pdf))
        let structure = Self.tokens(try TextFidelityTests.structureText(pdf, joiningRuns: true))
        #expect(structure == expected, "structure tree: \(structure)")
        let raw = Self.pageTokens(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(raw == expected, "pdftotext -raw: \(raw)")
        let text = Self.pageTokens(try PDFProbe.text(pdf))
        #expect(text.sorted() == expected.sorted(), "pdftotext: \(text)")
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = Self.pageTokens(try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output)
        #expect(pypdf == expected, "pypdf: \(pypdf)")
    }

    /// With `--no-tags` (no tagging pass), `pdftotext` reads the missing characters from
    /// Cairo's spans of replacement text: in order with `-raw`, as the same words without.
    @Test(arguments: documents.indices)
    func missingCharactersReadAsWrittenInAnUntaggedPDF(_ index: Int) throws {
        let (pdf, expected, dir) = try Self.render(index, options: ["--no-tags"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try PDFProbe.qpdfClean(pdf))
        let raw = Self.pageTokens(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(raw == expected, "pdftotext -raw: \(raw)")
        let text = Self.pageTokens(try PDFProbe.text(pdf))
        #expect(text.sorted() == expected.sorted(), "pdftotext: \(text)")
    }

    /// The baseline of the first line of `pdf`: the least vertical place of a text matrix
    /// (`Tm`) in its content, in Cairo's units (pt down from the page's top).
    static func firstBaseline(_ pdf: String) throws -> Double {
        let places = try PDFProbe.contentStreams(pdf).split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: " ")
            guard fields.count == 7, fields[6] == "Tm" else { return nil }
            return Double(fields[5])
        }
        return try #require(places.min())
    }

    /// A line of stand-ins and spaces alone (missing words; emoji) whose baseline falls on a
    /// whole point, where Cairo leaves out a drawing of glyphs without ink, keeps its text:
    /// the top margin is set so that the line's baseline falls there.
    @Test(arguments: ["W W", "🎵👍🏽🇰🇷👩‍💻"])
    func aLineOfStandInsOnAWholePointKeepsItsText(_ line: String) throws {
        let word = try #require(Self.word)
        let dir = try Render.scratchFolder("missing-glyph-whole-point")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = line.replacingOccurrences(of: "W", with: word)
        try (text + "\n").write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let probe = dir + "/probe.pdf"
        #expect(try typeset(["render", dir + "/doc.md", "--no-tags", "--margins", "72pt", "-o", probe]).status == 0)
        let baseline = try Self.firstBaseline(probe)
        let margin = 72 - (baseline - baseline.rounded(.down))
        for options in [[], ["--no-tags"]] {
            let pdf = dir + "/doc\(options.count).pdf"
            let arguments = ["render", dir + "/doc.md", "--margins", "\(margin)pt", "-o", pdf] + options
            #expect(try typeset(arguments).status == 0)
            // The premise: the line's baseline lies on a whole point, give or take the 1/128 pt
            // a stand-in is moved off it.
            let placed = try Self.firstBaseline(pdf)
            #expect(abs(placed - placed.rounded()) <= 1.0 / 128 + 1e-6, "baseline \(placed)")
            let raw = Self.pageTokens(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
            #expect(raw == Self.tokens(text), "pdftotext -raw \(options): \(raw)")
            guard options.isEmpty else { continue }
            let structure = Self.tokens(try TextFidelityTests.structureText(pdf, joiningRuns: true))
            #expect(structure == Self.tokens(text), "structure tree: \(structure)")
        }
    }

    /// A formula's `\text{…}` that no font draws (inline and displayed) is warned about at the
    /// formula; no reader reads the boxes' hex digits (the structure tree, `pdftotext -raw`,
    /// pypdf), and `pdftotext` reads the formula's source, its replacement text, with the word,
    /// also for a formula of boxes alone.
    @Test func aFormulasMissingTextReadsNoHexDigits() throws {
        let word = try #require(Self.word)
        let dir = try Render.scratchFolder("missing-glyph-formula")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let markdown =
            "Formula $x + \\text{\(word)} = y$ here.\n\n$$\\text{\(word)} + 1$$\n\nAlone $\\text{\(word)}$ here.\n"
        try markdown.write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset(["render", dir + "/doc.md", "-o", pdf])
        #expect(result.status == 0)
        // The missing characters are warned about once, where the first formula that has
        // them is written (its `$`).
        #expect(result.output.contains("doc.md:1:9: warning: no installed font draws"), "\(result.output)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let digits = word.unicodeScalars.map { String(format: "%04X", $0.value) }
        var readers = [
            ("structure tree", try TextFidelityTests.structureText(pdf, joiningRuns: true)),
            ("pdftotext -raw", try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output),
        ]
        if let python = PDFValidationTests.checker() {
            let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
            readers.append(("pypdf", try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output))
        }
        for (reader, text) in readers {
            #expect(!digits.contains { text.contains($0) }, "\(reader) reads hex digits: \(text)")
        }
        #expect(try PDFProbe.text(pdf).contains("\\text{\(word)}"))
        // A piece of boxes alone still draws a glyph inside the formula's span, so readers of
        // `/ActualText` read the source there too.
        let raw = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output
        #expect(raw.contains("Alone \\text{\(word)} here"), "\(raw)")
    }

    /// The boxes still show: where the missing word's text is placed, the page has ink.
    @Test func theBoxesStillShow() throws {
        let word = try #require(Self.word)
        let dir = try Render.scratchFolder("missing-glyph-ink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "Before \(word) after.\n".write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        #expect(try typeset(["render", dir + "/doc.md", "-o", pdf]).status == 0)
        let box = try #require(try PDFProbe.words(pdf).first { $0.text == word })
        #expect(try PDFProbe.inkHeight(pdf, in: box) > 2)
    }

    /// Each box of a code point, face and colour is drawn once on a tagged PDF and painted
    /// where it stands: 400 times the missing word (in a paragraph, a heading and a coloured
    /// link) adds a few dozen bytes a box, where its outlines are some 2 KB (a page of Thai
    /// with no Thai font was 260 MB at 900 KB of text); the file stays `qpdf --check` clean
    /// (each form listed once in a page's resources), the boxes show, and the text reads as
    /// written. Without tags, the boxes are outlines as before.
    @Test(arguments: [true, false])
    func eachBoxIsDrawnOnce(tagged: Bool) throws {
        let word = try #require(Self.word)
        let dir = try Render.scratchFolder("missing-glyph-forms-\(tagged)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var sizes: [Int] = []
        for copies in [1, 400] {
            let line = Array(repeating: "\(word) [\(word)](https://example.com)", count: copies).joined(separator: " ")
            try "# Title \(word)\n\n\(line) end.\n".write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
            let pdf = dir + "/doc-\(copies).pdf"
            let result = try typeset(["render", dir + "/doc.md", "-o", pdf] + (tagged ? [] : ["--no-tags"]))
            #expect(result.status == 0, "\(result.output)")
            let check = try PDFProbe.run("qpdf", ["--check", pdf])
            #expect(check.status == 0 && !check.output.contains("WARNING"), "\(check.output.prefix(300))")
            let read = Self.tokens(try PDFProbe.text(pdf)).filter { $0 == word }.count
            #expect(read == 1 + 2 * copies, "\(copies) copies read \(read) times")
            sizes.append(try FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int ?? 0)
        }
        let boxes = 2 * 399 * word.unicodeScalars.count
        let bytesABox = Double(sizes[1] - sizes[0]) / Double(boxes)
        if tagged {
            #expect(bytesABox < 120, "\(sizes) bytes: \(bytesABox) a box")
        } else {
            #expect(bytesABox > 200, "outlines without tags: \(sizes) bytes, \(bytesABox) a box")
        }
    }
}
