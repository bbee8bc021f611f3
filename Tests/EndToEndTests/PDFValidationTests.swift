import Foundation
import TestSupport
import Testing

/// Issue 28: tagged PDFs checked by a PDF/UA-1 validator (page-validation from PyPI, which
/// `make pdf-check` installs under `.build/` and `make test` passes in `TYPESET_PDF_CHECK`):
/// the templates, the real-world documents and a document with every construct (headings that
/// skip levels, a title from the front matter, links across lines, inline and linked images,
/// a figure, notes, `lang` spans and divs, code, lists nested four deep, a table over pages)
/// pass under `ua1` but for the rules listed in ``allowed``.
@Suite(.serialized) struct PDFValidationTests {
    /// Rules that may fire, each with why it is not Typeset's fault.
    static let allowed: [String: String] = [
        // The check reads each CID's width from the CFF program's charstrings; for Noto Sans
        // CJK's subsets it reads the width of another glyph (5657 for a CID whose advance is
        // 920/1000 em in the font's hmtx and in /W). Typst's PDF of the same text fails alike.
        "PDFUA1-FONT-GLYPH-WIDTH-001": "the validator's reading of CFF CID widths"
    ]

    /// The Python with page-validation and pypdf, nil when not installed (then the suite fails
    /// under `make test`, which installs it, and is skipped elsewhere).
    static func checker() -> String? {
        if let path = ProcessInfo.processInfo.environment["TYPESET_PDF_CHECK"] { return path }
        let cached = Render.packageRoot + "/.build/pdf-check/bin/python"
        return FileManager.default.isExecutableFile(atPath: cached) ? cached : nil
    }

    /// The failing rules of each of `pdfs` under `profile`, by rule: count and first message.
    static func validate(_ pdfs: [String], profile: String = "ua1") throws -> [String: [String: (Int, String)]] {
        guard let python = checker() else { return [:] }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let run = try PDFProbe.run(python, [script, "validate", profile] + pdfs, standardErrorToo: false)
        #expect(run.status == 0, "pdf-check.py failed")
        let json = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String: Any]] ?? [:]
        var result: [String: [String: (Int, String)]] = [:]
        for (path, report) in json {
            let rules = report["rules"] as? [String: [Any]] ?? [:]
            result[path] = rules.mapValues { (($0.first as? Int) ?? 0, ($0.last as? String) ?? "") }
        }
        return result
    }

    /// Expects no rule outside ``allowed`` to fail for any of `pdfs`.
    static func expectValid(_ pdfs: [String], profile: String = "ua1") throws {
        guard checker() != nil else {
            #expect(
                ProcessInfo.processInfo.environment["TYPESET_REQUIRE_SPEC"] == nil,
                "page-validation is missing: run `make pdf-check`")
            return
        }
        let reports = try validate(pdfs, profile: profile)
        #expect(reports.count == pdfs.count, "every file validated")
        for (path, rules) in reports.sorted(by: { $0.key < $1.key }) {
            for (rule, (count, message)) in rules.sorted(by: { $0.key < $1.key }) where Self.allowed[rule] == nil {
                Issue.record("\((path as NSString).lastPathComponent): \(rule) ×\(count): \(message)")
            }
        }
    }

    /// A document with every construct the tagging pass writes, with the two images it shows
    /// copied beside it.
    static func constructsDocument(folder: String) throws -> String {
        for image in ["press.jpg", "type-scale.png"] {
            let target = folder + "/" + image
            if !FileManager.default.fileExists(atPath: target) {
                try FileManager.default.copyItem(
                    atPath: Render.packageRoot + "/templates/images/" + image, toPath: target)
            }
        }
        let rows = (1...90).map { "| row \($0) | value \($0 * 7) | \($0 % 3 == 0 ? "office" : "fifty") affine |" }
        let markdown = """
            ---
            title: Every Construct
            author: Test
            lang: en
            justify: true
            ---

            # Overview

            ### A heading that skips a level

            The office staff offered fifty affine flows. An international organization keeps the
            internationalization of characteristically incomprehensible documentation under review,
            and a [link whose words run across a line break inside a justified paragraph of some
            length](https://example.com/a-long-address) closes the sentence.[^note] An inline image
            ![a small type scale](type-scale.png) sits in the text, and a linked one
            [![the press photo](press.jpg)](https://example.com/press) too.

            [^note]: The note says something about offices and fifty flowers.

            ![The printing press, a photograph](press.jpg)

            Some text with [un texte en français]{lang=fr} and [한국어 문장]{lang=ko} inside.

            ::: {lang=fr}
            Ceci est un paragraphe en français, avec des mots assez longs pour la césure automatique.
            :::

            ```swift
            let office = "fifty"
            ```

            - one
              - two
                - three
                  - four deep
            - back to one

            > A quote with the word efficient.

            | Name | Value | Note |
            | --- | --- | --- |
            \(rows.joined(separator: "\n"))

            ##### Closing

            The end, with baffle, waffle and officer.
            """
        let path = folder + "/constructs.md"
        try markdown.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Renders `source` with the command line into `folder`; returns the PDF's path.
    static func render(_ source: String, into folder: String, name: String) throws -> String {
        let pdf = folder + "/" + name + ".pdf"
        let result = try typeset(["render", source, "-o", pdf])
        #expect(result.status == 0, "\(source): \(result.output)")
        return pdf
    }

    @Test func templatesAndRealDocumentsPassPDFUA1() throws {
        let folder = try Render.scratchFolder("ua-templates")
        var sources: [String] = []
        let templates = Render.packageRoot + "/templates"
        for name in try FileManager.default.contentsOfDirectory(atPath: templates).sorted() where name.hasSuffix(".md")
        {
            sources.append(templates + "/" + name)
        }
        let shared = Render.packageRoot + "/../shared/fixtures/real"
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? []).sorted()
        where name.hasSuffix(".md") {
            sources.append(shared + "/" + name)
        }
        #expect(sources.count >= 5)
        let pdfs = try sources.enumerated().map { try Self.render($0.element, into: folder, name: "doc\($0.offset)") }
        try Self.expectValid(pdfs)
    }

    @Test func everyConstructPassesPDFUA1() throws {
        let folder = try Render.scratchFolder("ua-constructs")
        let pdf = try Self.render(try Self.constructsDocument(folder: folder), into: folder, name: "constructs")
        try Self.expectValid([pdf])
    }
}
