import Foundation
import TestSupport
import Testing

/// Colour emoji (drawn as images) beside Hangul in several kinds of block, through the `typeset`
/// executable: the PDF is tagged, no fallback warning, `qpdf --check` clean once the process has
/// exited (what a C library flushes at exit lands in the file too), the text around kept.
@Suite struct ColorEmojiPDFTests {
    static let long = String(repeating: "x", count: 40)

    /// Members of the kind: a line of emoji alone drawn first on a page (a paragraph, heading,
    /// link or emphasis opening page 1 or, after a break, page 2; a narrow table column), and
    /// emoji beside Hangul in lists and table cells.
    static let documents: [(name: String, markdown: String)] = [
        ("paragraph", "😀\n\n가나다 \(long)\n"),
        ("heading", "# 😀\n\n가나다\n"),
        ("link", "[😀](https://example.com)\n\n가나다 [👍🏽 link](#x)\n\n# X {#x}\n"),
        ("emphasis", "*👍🏽*\n\n가\n"),
        ("second-page", "가나다\n\n\\newpage\n\n😀\n\n가\n"),
        ("list", "- 😀\n- 👍🏽 가나다\n  1. 😀\n"),
        ("table", "| 😀 | 가나다 |\n|---|---|\n| 👍🏽 | 😀 \(long) |\n| 가 | 😀 |\n"),
        (
            "audit",
            (try? String(
                contentsOfFile: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/emoji-hangul-table.md",
                encoding: .utf8)) ?? ""
        ),
    ]

    @Test(arguments: documents.indices)
    func emojiWithHangulIsTaggedAndClean(_ index: Int) throws {
        let (name, markdown) = Self.documents[index]
        #expect(!markdown.isEmpty)
        let dir = try Render.scratchFolder("emoji-\(name)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try markdown.write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset([
            "render", dir + "/doc.md", "--paper", "a6", "--margins", "15mm", "--theme", "hig", "-o", pdf,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("could not be tagged"), "\(result.output)")
        let check = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(check.status == 0 && !check.output.contains("WARNING"), "\(check.output)")
        #expect(try PDFProbe.info(pdf)["Tagged"] == "yes")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("가") || !markdown.contains("가"))
        // Each emoji is painted as an image XObject.
        #expect(try PDFProbe.contentStreams(pdf).contains("/Subtype /Image"))
    }

    /// Members of the kind for reading emoji back: several different emoji on a line (a ZWJ
    /// sequence, a skin tone, a flag, a keycap), a paragraph that wraps with emoji throughout
    /// (some at line starts and ends), a line of emoji alone, emoji in a code block, a heading
    /// and table cells, and beside Hangul.
    static let readDocuments: [(name: String, markdown: String)] = [
        ("one-line", "Mixed 🎵 notes 👩‍💻 coder 👍🏽 thumbs 🇰🇷 flag 1️⃣ keycap and more words follow here.\n"),
        (
            "wrapped",
            (0..<40).map {
                ["word", "🎵", "reader", "👍🏽", "glyph", "🇰🇷", "line", "👩‍💻"][$0 % 8] + ($0 % 5 == 0 ? "," : "")
            }
            .joined(separator: " ") + ".\n"
        ),
        ("alone", "Before the line.\n\n🎵👍🏽🇰🇷👩‍💻\n\nAfter the line.\n"),
        ("code", "Some code:\n\n```\nlet note = \"🎵\" // by 👩‍💻 done\nsecond 👍🏽 line\n```\n"),
        ("heading", "# Title 🎵 here\n\nBody text 👍🏽 after it.\n"),
        ("table", "| Name 👍🏽 cell | Second |\n|---|---|\n| 한국 🇰🇷 어 | plain 🎵 text |\n"),
        ("hangul", "한국어 🎵 문장 👍🏽 입니다 그리고🇰🇷국기 끝.\n"),
    ]

    /// An emoji followed at once by text drawn in another text object (a highlighted token,
    /// emphasis, inline code): the document, and what must read back unbroken.
    static let joinedDocuments: [(markdown: String, joined: String)] = [
        ("Inline `x = \"🎵\"`{.python} code.\n", "\"🎵\""),
        ("A note 🎵 *and* 👍🏽**strong** here.\n", "👍🏽strong"),
        ("A note 👍🏽*stressed* here.\n", "👍🏽stressed"),
        ("A note 🇰🇷`code` here.\n", "🇰🇷code"),
    ]

    /// No reader inserts a space after an emoji where the text goes on at once in another text
    /// object: the stand-in's box spans the emoji's advance there too (pdftotext -raw, pypdf).
    @Test(arguments: joinedDocuments.indices)
    func emojiBeforeAnotherTextObjectReadsWithoutASpace(_ index: Int) throws {
        let (markdown, joined) = Self.joinedDocuments[index]
        let dir = try Render.scratchFolder("emoji-joined-\(index)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try markdown.write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset(["render", dir + "/doc.md", "-o", pdf])
        #expect(result.status == 0, "\(result.output)")
        let raw = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output
        #expect(raw.contains(joined), "pdftotext -raw: \(raw)")
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
        #expect(pypdf.contains(joined), "pypdf: \(pypdf)")
    }

    /// The words (runs of letters) and emoji (each grapheme cluster with an emoji
    /// presentation) of `text`, in order.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in text {
            let emoji = character.unicodeScalars.contains {
                $0.properties.isEmojiPresentation || $0 == "\u{FE0F}" || $0 == "\u{20E3}"
            }
            if character.isLetter, !emoji {
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

    /// Every emoji reads back, in its place among the words, through the structure tree
    /// (`pdfinfo -struct-text`), `pdftotext -raw` and pypdf; the file is clean and valid
    /// PDF/UA-1.
    @Test(arguments: readDocuments.indices)
    func emojiReadBackInOrder(_ index: Int) throws {
        let (name, markdown) = Self.readDocuments[index]
        let dir = try Render.scratchFolder("emoji-read-\(name)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A title, which PDF/UA-1 asks for (and the title block shows first).
        let title = "Emoji read back"
        try ("---\ntitle: \(title)\n---\n\n" + markdown).write(
            toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset(["render", dir + "/doc.md", "--paper", "a6", "--margins", "12mm", "-o", pdf])
        #expect(result.status == 0, "\(result.output)")
        let expected = Self.tokens(title) + Self.tokens(markdown)
        #expect(expected.contains("🎵") || expected.contains("👍🏽"))
        let structure = Self.tokens(try TextFidelityTests.structureText(pdf, joiningRuns: true))
        #expect(structure == expected, "structure tree: \(structure)")
        let raw = Self.tokens(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(raw == expected, "pdftotext -raw: \(raw)")
        let check = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(check.status == 0 && !check.output.contains("WARNING"), "\(check.output)")
        try PDFValidationTests.expectValid([pdf])
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = Self.tokens(try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output)
        #expect(pypdf == expected, "pypdf: \(pypdf)")
    }

    /// Each kind of colour glyph, at each size, is one image in the PDF however often it is
    /// shown: on one line, many times on a page, on many pages, in a heading and a table cell,
    /// with and without tags. The document with every emoji hundreds of times holds as many
    /// images as the one with each once, each size its own, is `qpdf --check` clean (one key a
    /// use in a page's resources) and reads back every emoji.
    @Test(arguments: [true, false])
    func eachKindOfColourGlyphIsOneImage(tagged: Bool) throws {
        func document(_ copies: Int) -> String {
            let line = Array(repeating: "😀 👍🏽 🇰🇷 👩‍💻", count: copies).joined(separator: " ")
            return "# Title 😀\n\n\(line) end.\n\n| 😀 | 🇰🇷 |\n|---|---|\n| x | y |\n"
        }
        let dir = try Render.scratchFolder("emoji-images-\(tagged)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var images: [Int] = []
        for copies in [1, 400] {
            try document(copies).write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
            let pdf = dir + "/doc-\(copies).pdf"
            let result = try typeset(
                ["render", dir + "/doc.md", "--paper", "a6", "-o", pdf] + (tagged ? [] : ["--no-tags"]))
            #expect(result.status == 0, "\(result.output)")
            #expect(try PDFProbe.info(pdf)["Pages"].flatMap { Int($0) } ?? 0 > (copies == 1 ? 0 : 5))
            let check = try PDFProbe.run("qpdf", ["--check", pdf])
            #expect(check.status == 0 && !check.output.contains("WARNING"), "\(check.output)")
            let objects = try PDFProbe.contentStreams(pdf)
            images.append(objects.components(separatedBy: "/Subtype /Image").count - 1)
            // The heading's emoji are larger than the paragraph's and the table's: images of
            // their own, never one size's image drawn at another's place.
            let widths = Set(objects.matches(of: /\/Width (\d+)/).map { String($0.output.1) })
            #expect(widths.count >= 3, "image widths \(widths)")
            if tagged {
                let emoji = Self.tokens(try PDFProbe.text(pdf)).filter { $0 == "😀" }.count
                #expect(emoji == copies + 2, "\(copies) copies")
            }
        }
        #expect(images[0] > 0 && images[1] == images[0], "images with each emoji once, and 400 times: \(images)")
    }
}
