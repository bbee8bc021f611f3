import Foundation
import TestSupport
import Testing

/// Issue 28: text read back without layout analysis comes back as written. The words read
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

    /// The text lines of `pdfinfo -struct-text`, in tree order.
    static func structureText(_ pdf: String) throws -> String {
        let output = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        return output.split(separator: "\n").compactMap { line -> String? in
            let body = line.drop { $0 == " " }
            guard body.hasPrefix("\""), body.count >= 2 else { return nil }
            return String(body.dropFirst().dropLast())
        }.joined(separator: "\n")
    }

    /// The words of `text`: runs of letters.
    static func words(of text: String) -> [String] {
        text.split { !$0.isLetter }.map(String.init)
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
