import Foundation
import TestSupport
import Testing

/// Text read back without layout analysis comes back as written. The words read
/// through the structure tree (`pdfinfo -struct-text`), from the content stream in order
/// (`pdftotext -raw`) and by pypdf equal the source's words in order: no two words glued at a
/// line break, none split or changed, in ragged and justified paragraphs, links wrapped over
/// lines, quotes and table cells.
@Suite struct TextFidelityTests {
    /// Words of `count` from a fixed list, varied so that no two neighbours repeat.
    static func words(_ count: Int, seed: Int) -> [String] {
        let list = [
            "twelve", "thirteen", "office", "fifty", "affine", "baseline", "measure", "kerning", "paragraph",
            "glyph", "waffle", "leading", "reader", "flowing", "stream", "typeset",
        ]
        return (0..<count).map { list[($0 * 7 + seed * 3 + $0 / list.count) % list.count] }
    }

    /// The document and its words in reading order.
    static func document() -> (markdown: String, words: [String]) {
        var expected: [String] = ["Words", "read", "back"]
        var blocks: [String] = []
        func add(_ markdown: String, _ words: [String]) {
            blocks.append(markdown)
            expected += words
        }
        // Some 300 line ends: a space is lost where Cairo drops it (one line end in 80 or so
        // before the renderer moved spaces off whole device units).
        for paragraph in 0..<12 {
            let ragged = words(150, seed: 1 + paragraph)
            add(ragged.joined(separator: " "), ragged)
            let justified = words(150, seed: 20 + paragraph)
            add("::: {align=justify}\n" + justified.joined(separator: " ") + "\n:::", justified)
        }
        let before = words(9, seed: 3)
        let inside = words(30, seed: 4)
        let after = words(12, seed: 5)
        add(
            before.joined(separator: " ") + " [" + inside.joined(separator: " ") + "](https://example.com) "
                + after.joined(separator: " "), before + inside + after)
        let quoted = words(60, seed: 6)
        add("> " + quoted.joined(separator: " "), quoted)
        let cells = (0..<3).map { words(14, seed: 7 + $0) }
        add(
            "| Name | Text |\n| --- | --- |\n"
                + cells.map { "| \($0[0]) | \($0.dropFirst().joined(separator: " ")) |" }.joined(separator: "\n"),
            ["Name", "Text"] + cells.flatMap { $0 })
        let markdown =
            "---\ntitle: Words read back\nhyphenate: false\n---\n\n" + blocks.joined(separator: "\n\n") + "\n"
        return (markdown, expected)
    }

    /// The text lines of `pdfinfo -struct-text`, in tree order. `joiningRuns`: the marked-
    /// content sequences of one element (lines at one indent with nothing between them, which
    /// `pdfinfo` prints one a line) are read as one text, as PDF 1.7 §14.7.2 reads an
    /// element's content.
    static func structureText(_ pdf: String, joiningRuns: Bool = false) throws -> String {
        let output = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        var text = ""
        var previousIndent: Int?
        for line in output.split(separator: "\n") {
            let body = line.drop { $0 == " " }
            guard body.hasPrefix("\""), body.count >= 2 else {
                previousIndent = nil
                continue
            }
            let indent = line.count - body.count
            if !text.isEmpty { text += joiningRuns && previousIndent == indent ? "" : "\n" }
            text += String(body.dropFirst().dropLast())
            previousIndent = indent
        }
        return text
    }

    /// The words of `text`: runs of letters.
    static func words(of text: String) -> [String] {
        text.split { !$0.isLetter }.map(String.init)
    }

    /// The words of `read` not in `vocabulary`, but for two neighbours that join into one of
    /// its words: a word wider than its table column is broken between letters at the column's
    /// edge, and a reader of lines (pypdf) reads its two pieces.
    static func unknownWords(_ read: [String], vocabulary: Set<String>) -> [String] {
        var unknown: [String] = []
        var index = 0
        while index < read.count {
            if !vocabulary.contains(read[index]) {
                if index + 1 < read.count, vocabulary.contains(read[index] + read[index + 1]) {
                    index += 2
                    continue
                }
                unknown.append(read[index])
            }
            index += 1
        }
        return unknown
    }

    /// The first place `read` departs from `expected`, described; nil when they are equal.
    static func difference(_ read: [String], _ expected: [String]) -> String? {
        guard read != expected else { return nil }
        let k = zip(read, expected).prefix { $0 == $1 }.count
        return
            "word \(k): read \(read[k..<min(read.count, k + 4)]), expected \(expected[k..<min(expected.count, k + 4)])"
            + " (\(read.count) words read, \(expected.count) expected)"
    }

    @Test func wordsComeBackThroughTheTagsTheStreamAndPypdf() throws {
        let (markdown, expected) = Self.document()
        let (pdf, _) = try Render.markdown(markdown, name: "text-fidelity")
        let tree = Self.words(of: try Self.structureText(pdf))
        #expect(
            Self.difference(tree, expected) == nil,
            "through the structure tree: \(Self.difference(tree, expected) ?? "")")
        let raw = Self.words(of: try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(Self.difference(raw, expected) == nil, "pdftotext -raw: \(Self.difference(raw, expected) ?? "")")
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = Self.words(of: try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output)
        #expect(Self.difference(pypdf, expected) == nil, "pypdf: \(Self.difference(pypdf, expected) ?? "")")
    }
}

extension TextFidelityTests {
    /// Hyphenated words come back whole: the hyphen hyphenation adds at a line's end is an
    /// artifact whose `/ActualText` is a soft hyphen, so the structure tree reads the word
    /// whole and `pdftotext -raw` reads it with a soft hyphen at the line's end (a reader that
    /// drops a soft hyphen and its line break rejoins it). A hyphen the source has stays a
    /// hyphen. pypdf, which does not read `/ActualText`, reads the soft hyphen from the
    /// ToUnicode of the face the hyphen is drawn with.
    @Test func hyphenatedWordsComeBackWhole() throws {
        let long = [
            "internationalization", "characteristically", "incomprehensible", "documentation",
            "uncharacteristically", "responsibilities", "organizational", "interdisciplinary",
        ]
        let sentence = (0..<120).map { long[($0 * 3 + $0 / 8) % long.count] }
        let markdown =
            "---\ntitle: Hyphens\njustify: true\nhyphenate: true\nmargins: 20mm 80mm\n---\n\n"
            + sentence.joined(separator: " ") + " a well-known fact.\n\n| Cell |\n| --- |\n| "
            + sentence.prefix(30).joined(separator: " ") + " |\n"
        let expected = ["Hyphens"] + sentence + ["a", "well", "known", "fact", "Cell"] + sentence.prefix(30)
        let (pdf, _) = try Render.markdown(markdown, name: "text-fidelity-hyphens")
        let raw = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output
        let added = raw.components(separatedBy: "\u{AD}\n").count - 1
        #expect(added >= 20, "\(added) line ends with an added hyphen")
        #expect(raw.contains("well-"), "the source's own hyphen stays a hyphen")
        let tree = Self.words(of: try Self.structureText(pdf, joiningRuns: true))
        #expect(
            Self.difference(tree, expected) == nil,
            "through the structure tree: \(Self.difference(tree, expected) ?? "")")
        let rejoined = Self.words(of: raw.replacingOccurrences(of: "\u{AD}\n", with: ""))
        #expect(
            Self.difference(rejoined, expected) == nil, "pdftotext -raw: \(Self.difference(rejoined, expected) ?? "")")
        if let python = PDFValidationTests.checker() {
            let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
            let text = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
            let softHyphens = text.components(separatedBy: "\u{AD}\n").count - 1
            #expect(softHyphens == added, "pypdf reads \(softHyphens) soft hyphens at line ends, pdftotext \(added)")
            #expect(text.contains("well-"), "pypdf reads the source's own hyphen")
            let pypdf = Self.words(of: text.replacingOccurrences(of: "\u{AD}\n", with: ""))
            #expect(Self.difference(pypdf, expected) == nil, "pypdf: \(Self.difference(pypdf, expected) ?? "")")
        }
        try PDFValidationTests.expectValid([pdf])
    }

    /// A long document's line ends (about 3,700 of them, 120 sections of prose with emphasis,
    /// links, tables and lists): where the space at a break is lost (Cairo drops a space glyph
    /// whose origin falls on a whole device unit, one line end in 80 or so), two words read
    /// as one through the structure tree.
    @Test(.slow) func noWordsGlueAcrossTheLineEndsOfALongDocument() throws {
        let words = Prose.words
        var markdown = "---\ntitle: Long\n---\n\n"
        for section in 0..<120 {
            markdown += "## \(section + 1) Section \(words[section % 10])\n\n"
            for paragraph in 0..<5 {
                let sentence = (0..<60).map { i in
                    let word = words[(section * 7 + paragraph * 3 + i) % 10]
                    return i % 11 == 0 ? "*\(word)*" : word
                }
                markdown += sentence.joined(separator: " ") + " [a link](https://example.com/x) office fifty.\n\n"
            }
            markdown += "| A | B |\n| --- | --- |\n| one two | three four |\n\n- item\n- item two\n\n"
        }
        let vocabulary = Set(Self.words(of: markdown))
        let (pdf, _) = try Render.markdown(markdown, name: "text-fidelity-long")
        let read = Self.words(of: try Self.structureText(pdf))
        let glued = read.filter { !vocabulary.contains($0) }
        #expect(read.count > 35_000)
        #expect(glued.isEmpty, "\(glued.count) words read that the source does not have: \(glued.prefix(5))")
    }
}

extension TextFidelityTests {
    /// A glyph that stands for several characters or another case reads as its letters: a
    /// ligature (`ﬃ`, which Cairo's ToUnicode gives as its presentation form) reads `ffi`,
    /// and a synthesized small capital (the capital's glyph, drawn smaller) reads as the small
    /// letter, through the structure tree, `pdftotext -raw` and pypdf, in faces that form
    /// ligatures (DejaVu Sans and Serif) and one that does not (Inter); the files validate as
    /// PDF/UA-1.
    @Test func ligaturesAndSmallCapitalsReadAsTheirLetters() throws {
        let folder = try Render.scratchFolder("ligatures")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sentence = "The office sold fifty flow meters to an affluent buyer, and Typeset set them."
        let markdown =
            "---\ntitle: Ligatures\nhyphenate: false\n---\n\n\(sentence)\n\n[Typeset office]{.smallcaps} "
            + "shows the official waffle.\n"
        let expected =
            ["Ligatures"] + Self.words(of: sentence) + ["Typeset", "office", "shows", "the", "official", "waffle"]
        try markdown.write(toFile: folder + "/ligatures.md", atomically: false, encoding: .utf8)
        var pdfs: [String] = []
        var ligatured = 0
        for family in ["Inter", "DejaVu Sans", "DejaVu Serif"] {
            let name = family.replacingOccurrences(of: " ", with: "-")
            let pdf = folder + "/\(name).pdf"
            let untagged = folder + "/\(name)-untagged.pdf"
            let source = folder + "/ligatures.md"
            #expect(try typeset(["render", source, "--family", family, "-q", "-o", pdf]).status == 0)
            #expect(try typeset(["render", source, "--family", family, "-q", "--no-tags", "-o", untagged]).status == 0)
            // Whether the face forms ligatures: Cairo's own file marks each f-ligature with
            // replacement text.
            if try PDFProbe.contentStreams(untagged).contains("/ActualText <feff0066") { ligatured += 1 }
            let tree = Self.words(of: try Self.structureText(pdf, joiningRuns: true))
            #expect(Self.difference(tree, expected) == nil, "\(family), tree: \(Self.difference(tree, expected) ?? "")")
            let raw = Self.words(of: try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
            #expect(
                Self.difference(raw, expected) == nil, "\(family), pdftotext: \(Self.difference(raw, expected) ?? "")")
            if let python = PDFValidationTests.checker() {
                let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
                let text = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
                #expect(!text.unicodeScalars.contains { (0xFB00...0xFB06).contains($0.value) }, "\(family): \(text)")
                let pypdf = Self.words(of: text)
                #expect(
                    Self.difference(pypdf, expected) == nil,
                    "\(family), pypdf: \(Self.difference(pypdf, expected) ?? "")")
            }
            pdfs.append(pdf)
        }
        #expect(ligatured == 2, "DejaVu Sans and Serif form ligatures")
        try PDFValidationTests.expectValid(pdfs)
    }
}

extension TextFidelityTests {
    /// The words a source can be read as: its letter runs as written, and as read with link
    /// targets, attribute blocks, emphasis and code marks left out and character references
    /// decoded (`C&eacute;` reads `Cé`, `[Inter](…)와` reads `Inter와`).
    static func vocabulary(ofSource source: String) -> Set<String> {
        var plain = source.replacingOccurrences(of: #"\]\([^)]*\)"#, with: "", options: .regularExpression)
        plain = plain.replacingOccurrences(of: #"\{[^}]*\}"#, with: " ", options: .regularExpression)
        for (reference, character) in [
            ("&eacute;", "é"), ("&nbsp;", " "), ("&mdash;", "—"), ("&ndash;", "–"), ("&copy;", "©"), ("&amp;", "&"),
        ] {
            plain = plain.replacingOccurrences(of: reference, with: character)
        }
        plain = plain.replacingOccurrences(of: #"[*_`\[\]<>#|~\\]"#, with: "", options: .regularExpression)
        return Set(words(of: source) + words(of: plain))
    }

    /// The source's paragraphs of prose, each as its words in order: blocks that begin with a
    /// letter at the margin, outside code fences, fenced divs and front matter, and that hold
    /// nothing whose letters the renderer leaves out or moves (link targets, attributes,
    /// footnote references, images, reference links, HTML, character references, math).
    static func proseParagraphs(ofSource source: String) -> [[String]] {
        var paragraphs: [[String]] = []
        var block: [Substring] = []
        var fence: Substring?
        var divDepth = 0
        var frontMatter = source.hasPrefix("---\n")
        func endBlock() {
            defer { block = [] }
            guard let first = block.first?.first, first.isLetter, divDepth == 0 else { return }
            let text = block.joined(separator: " ")
            let moved = ["](", "][", "]{", "![", "[^", "<", "&", "$", "\\", "{"]
            guard !moved.contains(where: { text.contains($0) }),
                !block.contains(where: { line in line.allSatisfy { $0 == "=" || $0 == "-" } })
            else { return }
            // Code and emphasis marks draw nothing: `Text`에 reads as one word.
            let words = Self.words(of: text.filter { $0 != "`" && $0 != "*" && $0 != "~" })
            if words.count >= 6 { paragraphs.append(words) }
        }
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if frontMatter {
                if index > 0, line == "---" || line == "..." { frontMatter = false }
                continue
            }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                endBlock()
                fence = trimmed.prefix(3)
                continue
            }
            if trimmed.hasPrefix(":::") {
                endBlock()
                divDepth += trimmed.drop { $0 == ":" }.trimmingCharacters(in: .whitespaces).isEmpty ? -1 : 1
                divDepth = max(0, divDepth)
                continue
            }
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                endBlock()
            } else {
                block.append(line)
            }
        }
        endBlock()
        return paragraphs
    }

    /// Where `paragraphs` are first out of reading order in `read` (the words read through the
    /// structure tree), described; nil when each is read after the one before. A paragraph is
    /// read when its words come in order with at most `gap` other words before each (a note,
    /// an inline picture's alternative text or a table of contents may stand between them).
    static func outOfOrder(_ paragraphs: [[String]], in read: [String], gap: Int = 80) -> String? {
        var cursor = 0
        for (number, paragraph) in paragraphs.enumerated() {
            var found: Int?
            var start = cursor
            while found == nil, let first = read[start...].firstIndex(of: paragraph[0]) {
                var position = first
                var matched = true
                for word in paragraph.dropFirst() {
                    let window = (position + 1)..<min(read.count, position + 2 + gap)
                    guard let next = read[window].firstIndex(of: word) else {
                        matched = false
                        break
                    }
                    position = next
                }
                if matched { found = position } else { start = first + 1 }
            }
            guard let end = found else {
                return
                    "paragraph \(number + 1) of \(paragraphs.count) (\(paragraph.prefix(6).joined(separator: " ")) …) "
                    + "is not read after the one before"
            }
            cursor = end + 1
        }
        return nil
    }

    /// Words the renderer writes that no source has: a table of contents' heading, the label
    /// of a table set in parts of columns.
    static let generatedWords: Set<String> = [
        "Contents", "목차", "Columns", "columns", "continues", "below", "Continued",
    ]

    /// The templates, the real-world documents beside the package and the construct document
    /// read through the structure tree (its elements' runs joined, PDF 1.7 §14.7.2), and the
    /// construct document and the documents without letter-spaced or justified Hangul lines
    /// read by pypdf (soft hyphens at line ends rejoined): every word read is a word of the
    /// source, so none is glued to its neighbour, split or changed (a ligature's presentation
    /// form, a small capital read as its capital); and the source's paragraphs of prose
    /// (``proseParagraphs(ofSource:)``) are read through the tree in the source's order, each
    /// one's words in order, though notes, a table of contents or a picture's alternative
    /// text may stand between them.
    @Test func templatesAndRealDocumentsReadAsTheirWords() throws {
        let folder = try Render.scratchFolder("fidelity-templates")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var sources = try PDFValidationTests.sampleDocuments()
        sources.append(try PDFValidationTests.constructsDocument(folder: folder))
        #expect(sources.count >= 6)
        let python = PDFValidationTests.checker()
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        // pypdf starts a new word where the gap between two glyphs is wide: between the
        // letters of a letter-spaced line, and between the syllables of a justified line set in
        // the CJK fallback face.
        let pypdfSpacesLetters: Set<String> = ["attributes.md", "handbook.md", "specimen.md"]
        var paragraphsChecked = 0
        defer { #expect(paragraphsChecked >= 40, "\(paragraphsChecked) paragraphs of prose checked in order") }
        for (index, source) in sources.enumerated() {
            let name = (source as NSString).lastPathComponent
            let pdf = try PDFValidationTests.render(source, into: folder, name: "doc\(index)")
            let vocabulary = Self.vocabulary(ofSource: try String(contentsOfFile: source, encoding: .utf8))
                .union(Self.generatedWords)
            let tree = Self.words(of: try Self.structureText(pdf, joiningRuns: true))
            #expect(tree.count > 40, "\(name): \(tree.count) words through the tree")
            let foreign = tree.filter { !vocabulary.contains($0) }
            #expect(
                foreign.isEmpty,
                "\(name), through the tree: \(foreign.count) words not in the source: \(foreign.prefix(6))")
            let paragraphs = Self.proseParagraphs(ofSource: try String(contentsOfFile: source, encoding: .utf8))
            paragraphsChecked += paragraphs.count
            #expect(
                Self.outOfOrder(paragraphs, in: tree) == nil,
                "\(name), through the tree: \(Self.outOfOrder(paragraphs, in: tree) ?? "")")
            if paragraphs.count >= 3 {
                #expect(Self.outOfOrder(paragraphs.reversed(), in: tree) != nil, "\(name): the order check sees order")
            }
            guard let python, !pypdfSpacesLetters.contains(name) else { continue }
            let text = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
            let pypdf = Self.words(of: text.replacingOccurrences(of: "\u{AD}\n", with: ""))
            let misread = Self.unknownWords(pypdf, vocabulary: vocabulary)
            #expect(misread.isEmpty, "\(name), pypdf: \(misread.count) words not in the source: \(misread.prefix(6))")
        }
    }
}
