import Foundation
import TestSupport
import Testing

/// A stand-in (the space glyph drawn for an emoji or for a character no font has) that is the
/// first drawing of its face's space glyph in the document: every later space of that face
/// still reads as a space, and the stand-in as its text. Cairo 1.16 gives a glyph, as its
/// ToUnicode entry, the one character it is first drawn with; before the renderer drew the
/// space first, `👍 text more` read `👍 👍text👍more`. Read back through the structure tree,
/// `pdftotext -raw` and pypdf (ToUnicode alone) in a tagged PDF, and `pdftotext -raw` in one
/// made with `--no-tags`.
struct StandInSpaceTests {
    /// Members of the kind, `M` a character no installed font has (those members are left out
    /// when every character has a font): a single-character emoji or missing character first
    /// in a paragraph, a heading, a list item, a table cell and inline code (the monospaced
    /// face), and an emoji sequence of several characters first (which Cairo never mapped).
    static let documents: [(name: String, markdown: String)] = [
        ("paragraph", "👍 text more words here\n\n🎵x text again\n"),
        ("heading", "# 🎵 Heading words\n\nBody text here.\n"),
        ("list", "- 👍 item words\n- next item here\n"),
        ("table", "| 🎵 cell words | other |\n|---|---|\n| two words | end |\n"),
        ("inline-code", "`🎵 code words` after it\n"),
        ("sequence", "👍🏽 text more words\n"),
        ("missing", "M text more words here\n"),
        ("missing-heading", "# M heading words\n\nBody text.\n"),
    ]

    static let missing: String? = MissingGlyph.word.flatMap { $0.unicodeScalars.first.map { String($0) } }

    /// The indices of ``documents`` this machine can render as meant.
    static let members = documents.indices.filter { missing != nil || !documents[$0].markdown.contains("M") }

    /// `text` with each run of white space one space, without the page number (an artifact
    /// that readers of the content stream read last) and with table and list furniture gone.
    static func normalized(_ text: String) -> String {
        var words = text.split(whereSeparator: { $0.isWhitespace || $0 == "|" || $0 == "•" || $0 == "#" })
        if words.last == "1" { words.removeLast() }
        return words.joined(separator: " ")
    }

    static func render(_ index: Int, options: [String] = []) throws -> (pdf: String, expected: String, dir: String) {
        let (name, markdown) = documents[index]
        let dir = try Render.scratchFolder("stand-in-space-\(name)")
        let text = markdown.replacingOccurrences(of: "M", with: missing ?? "M")
        try text.write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/doc.pdf"
        let result = try typeset(["render", dir + "/doc.md", "-o", pdf] + options)
        #expect(result.status == 0, "\(result.output)")
        // The Markdown's words without its syntax (list markers are artifacts, read by none).
        let visible = text.split(separator: "\n").map { line in
            (line.hasPrefix("- ") ? String(line.dropFirst(2)) : String(line))
                .replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "---", with: "")
        }
        return (pdf, normalized(visible.joined(separator: "\n")), dir)
    }

    @Test(arguments: members)
    func everySpaceReadsAsASpaceInATaggedPDF(_ index: Int) throws {
        let (pdf, expected, dir) = try Self.render(index)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try PDFProbe.qpdfClean(pdf))
        let structure = Self.normalized(try TextFidelityTests.structureText(pdf, joiningRuns: true))
        #expect(structure == expected, "structure tree: \(structure)")
        let raw = Self.normalized(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(raw == expected, "pdftotext -raw: \(raw)")
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = Self.normalized(try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output)
        #expect(pypdf == expected, "pypdf: \(pypdf)")
    }

    /// Without the tagging pass a stand-in keeps its space glyph's own width, so `pdftotext`
    /// may read the rest of the emoji's advance as a word space (`🎵 x` for `🎵x`): the text is
    /// compared without its spaces, where a space read as an emoji still shows.
    @Test(arguments: members)
    func noSpaceReadsAsTheStandInInAnUntaggedPDF(_ index: Int) throws {
        let (pdf, expected, dir) = try Self.render(index, options: ["--no-tags"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try PDFProbe.qpdfClean(pdf))
        let raw = Self.normalized(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(raw.filter { !$0.isWhitespace } == expected.filter { !$0.isWhitespace }, "pdftotext -raw: \(raw)")
    }
}
