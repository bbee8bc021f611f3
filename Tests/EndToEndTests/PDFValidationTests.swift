import Foundation
import TestSupport
import Testing

/// Tagged PDFs checked by a PDF/UA-1 validator (page-validation from PyPI, which
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
        "PDFUA1-FONT-GLYPH-WIDTH-001": "the validator's reading of CFF CID widths",
        "PDFA2B-TRUETYPE-GLYPH-WIDTH-001": "the same reading, under PDF/A-2b",
        "PDFA2U-TRUETYPE-GLYPH-WIDTH-001": "the same reading, under PDF/A-2u",
        "PDFA3B-TRUETYPE-GLYPH-WIDTH-001": "the same reading, under PDF/A-3b",
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

            a) a lettered list
            b) of two items

            (iv) a Roman list
            (v) that starts at four

            > A quote with the word efficient.

            | Name | Value | Note |
            | --- | --- | --- |
            \(rows.joined(separator: "\n"))

            ##### Closing

            The end, with baffle, waffle and officer.
            """
        let path = folder + "/constructs.md"
        try markdown.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Renders `source` with the command line into `folder`; returns the PDF's path.
    static func render(_ source: String, into folder: String, name: String, options: [String] = []) throws -> String {
        let pdf = folder + "/" + name + ".pdf"
        let result = try typeset(["render", source, "-o", pdf] + options)
        #expect(result.status == 0, "\(source): \(result.output)")
        return pdf
    }

    /// The templates and the real-world documents beside the package.
    static func sampleDocuments() throws -> [String] {
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
        return sources
    }

    @Test func templatesAndRealDocumentsPassPDFUA1() throws {
        let folder = try Render.scratchFolder("ua-templates")
        let sources = try Self.sampleDocuments()
        #expect(sources.count >= 5)
        let pdfs = try sources.enumerated().map { try Self.render($0.element, into: folder, name: "doc\($0.offset)") }
        try Self.expectValid(pdfs)
    }

    /// `--pdf-standard a-2b`: an sRGB output intent, `pdfaid` and the `pdfuaid` extension
    /// schema in XMP, printable links, no interpolated images, `/CharSet` on Type 1 subsets,
    /// dates as PDF writes them; the same files stay PDF/UA-1.
    @Test func templatesAndRealDocumentsPassPDFA2b() throws {
        let folder = try Render.scratchFolder("pdfa-templates")
        let sources = try Self.sampleDocuments()
        #expect(sources.count >= 5)
        let pdfs = try sources.enumerated().map {
            try Self.render($0.element, into: folder, name: "doc\($0.offset)", options: ["--pdf-standard", "a-2b"])
        }
        try Self.expectValid(pdfs, profile: "2b")
        try Self.expectValid(pdfs, profile: "ua1")
    }

    /// Each PDF/A level on the construct document, validated under its own profile, and a file
    /// that declares a level fails the others' identification rules (the check can fail).
    @Test func everyConstructPassesEachPDFALevel() throws {
        let folder = try Render.scratchFolder("pdfa-constructs")
        let source = try Self.constructsDocument(folder: folder)
        for (standard, profile) in [("ua-1,a-2b", "2b"), ("a-2u", "2u"), ("a-3b", "3b")] {
            let pdf = try Self.render(
                source, into: folder, name: "constructs-\(profile)", options: ["--pdf-standard", standard])
            try Self.expectValid([pdf], profile: profile)
            try Self.expectValid([pdf], profile: "ua1")
            guard profile == "2u" else { continue }
            let other = try Self.validate([pdf], profile: "3b")[pdf] ?? [:]
            #expect(other.keys.contains("PDFA3B-ID-PART-001"), "a PDF/A-2u file read as PDF/A-3b: \(other.keys)")
        }
        let plain = try Self.validate([try Self.render(source, into: folder, name: "plain")], profile: "2b")
        #expect(plain.values.first?.keys.contains("PDFA2B-ID-SCHEMA-001") == true, "no PDF/A without asking")
    }

    /// SVG pictures whose masks Cairo writes as transparency groups, each stream's data
    /// followed straight by `endstream` and counted with its end of line in `/Length`: written
    /// again with the end of line outside the length (ISO 19005-2 §6.1.7.1), each file PDF/A-2b
    /// and PDF/UA-1. Members: a black-and-white mask, a grey one, a gradient's luminance, a mask
    /// inside a group with opacity.
    @Test func maskedSVGPicturesPassPDFA2b() throws {
        let folder = try Render.scratchFolder("pdfa-masks")
        let shape = #"<rect width="220" height="140" fill="blue" mask="url(#m)"/>"#
        let masks = [
            #"<rect width="220" height="140" fill="white"/><circle cx="110" cy="70" r="30" fill="black"/>"#,
            #"<rect width="220" height="140" fill="gray"/>"#,
            #"<linearGradient id="g"><stop offset="0" stop-color="white"/><stop offset="1" stop-color="black"/>"#
                + #"</linearGradient><rect width="220" height="140" fill="url(#g)"/>"#,
        ]
        var pictures = masks.map { #"<defs><mask id="m">\#($0)</mask></defs>"# + shape }
        pictures.append(
            #"<defs><mask id="m"><circle cx="110" cy="70" r="60" fill="white"/></mask></defs>"#
                + #"<g opacity="0.5">\#(shape)</g>"#)
        var pdfs: [String] = []
        for (k, picture) in pictures.enumerated() {
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="220" height="140" viewBox="0 0 220 140">"#
            try (svg + picture + "</svg>").write(toFile: folder + "/mask\(k).svg", atomically: false, encoding: .utf8)
            let source = folder + "/mask\(k).md"
            try "---\ntitle: Mask \(k)\n---\n\n![a masked shape](mask\(k).svg)\n".write(
                toFile: source, atomically: false, encoding: .utf8)
            pdfs.append(
                try Self.render(source, into: folder, name: "mask\(k)", options: ["--pdf-standard", "ua-1,a-2b"]))
        }
        try Self.expectValid(pdfs, profile: "2b")
        try Self.expectValid(pdfs, profile: "ua1")
    }

    /// A document that cannot meet the standard asked for is an error naming what is missing,
    /// and no file is written; `pdf-standard` in the front matter asks as the option does.
    @Test func unmetStandardIsAnErrorNamingWhatIsMissing() throws {
        let folder = try Render.scratchFolder("pdfa-unmet")
        _ = try Self.constructsDocument(folder: folder)
        let cases: [(markdown: String, options: [String], expected: String)] = [
            ("No front matter title and no heading.\n", ["--pdf-standard", "ua-1"], "title"),
            ("---\npdf-standard: ua-1\n---\n\nText.\n", [], "title"),
            (
                "---\ntitle: T\n---\n\n![](press.jpg)\n", ["--pdf-standard", "ua-1,a-2b"],
                "case2.md:5:5: PDF/UA-1 needs alternative text on every figure: image 'press.jpg'"
            ),
            // A picture inside a line, linked or sized, is placed as a figure is.
            (
                "---\ntitle: T\n---\n\nText ![](press.jpg) more.\n", ["--pdf-standard", "ua-1"],
                "case3.md:5:10: PDF/UA-1 needs alternative text on every figure: image 'press.jpg'"
            ),
            (
                "---\ntitle: T\n---\n\nSee [![](press.jpg)](https://e.com) and ![](press.jpg){width=1cm}.\n",
                ["--pdf-standard", "ua-1"],
                "case4.md:5:10: PDF/UA-1 needs alternative text on every figure: image 'press.jpg'"
            ),
            ("---\ntitle: T\n---\n\nText.\n", ["--pdf-standard", "a-2b", "--no-tags"], "with --no-tags"),
            ("---\ntitle: T\n---\n\nText.\n", ["--pdf-standard", "ua-1", "--no-tags"], "PDF/UA-1 is a tagged PDF"),
            ("---\ntitle: T\n---\n\nText.\n", ["--pdf-standard", "a-2u", "--no-tags"], "(PDF/A-2u itself needs no"),
            ("---\ntitle: T\npdf-standard: a-2b\n---\n\nText.\n", ["--no-tags"], "with --no-tags"),
            ("---\ntitle: T\n---\n\nText.\n", ["--pdf-standard", "a-2b,a-3b"], "one PDF/A level"),
            ("---\ntitle: T\n---\n\nText.\n", ["--pdf-standard", "a-1b"], "unknown PDF standard 'a-1b'"),
        ]
        for (index, item) in cases.enumerated() {
            let source = folder + "/case\(index).md"
            try item.markdown.write(toFile: source, atomically: false, encoding: .utf8)
            let pdf = folder + "/case\(index).pdf"
            let result = try typeset(["render", source, "-o", pdf] + item.options)
            #expect(result.status != 0, "case \(index) must fail: \(result.output)")
            #expect(result.output.contains(item.expected), "case \(index): \(result.output)")
            #expect(!FileManager.default.fileExists(atPath: pdf), "case \(index) wrote a file")
            // Every line says where it comes from: a `file:line:column` or the program's name.
            for line in result.output.split(separator: "\n") {
                let placed = line.range(of: #"^[^:]+:\d+:\d+: "#, options: .regularExpression) != nil
                #expect(placed || line.hasPrefix("typeset: "), "case \(index): \(line)")
            }
        }
        // A heading is the title when the front matter gives none, asked for or not.
        let headed = folder + "/headed.md"
        try "## Only a heading\n\nText.\n".write(toFile: headed, atomically: false, encoding: .utf8)
        try Self.expectValid([
            try Self.render(headed, into: folder, name: "headed", options: ["--pdf-standard", "ua-1"])
        ])
        let asked = folder + "/asked.md"
        try "---\ntitle: Archived\npdf-standard: a-2b\n---\n\nText.\n".write(
            toFile: asked, atomically: false, encoding: .utf8)
        try Self.expectValid([try Self.render(asked, into: folder, name: "asked")], profile: "2b")
    }

    @Test func everyConstructPassesPDFUA1() throws {
        let folder = try Render.scratchFolder("ua-constructs")
        let pdf = try Self.render(try Self.constructsDocument(folder: folder), into: folder, name: "constructs")
        try Self.expectValid([pdf])
    }

    /// Thirty Markdown documents made by the fuzz generator (``FuzzInput``, its fixed seed,
    /// made at test time), each under a front-matter title, rendered with `--pdf-standard
    /// ua-1,a-2b` and validated under both profiles; a document that cannot claim PDF/UA-1 (a
    /// figure without alternative text) is an error, and is rendered as PDF/A-2b alone and
    /// validated under that profile.
    @Test func fuzzMadeDocumentsPassPDFUA1AndPDFA2b() throws {
        guard Self.checker() != nil else { return try Self.expectValid([]) }
        let folder = try Render.scratchFolder("ua-fuzz")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var both: [String] = []
        var archiveOnly: [String] = []
        var index = 0
        while both.count + archiveOnly.count < 30 {
            defer { index += 1 }
            var rng = SeededRandom(seed: FuzzCampaign.defaultSeed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
            let input = FuzzInput.generate(&rng, index: index)
            guard input.kind == .markdown, input.bytes == nil else { continue }
            let source = FuzzInput.imageFolder + "/ua-fuzz-\(index).md"
            try ("---\ntitle: Fuzz \(index)\n---\n\n" + input.text).write(
                toFile: source, atomically: false, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let pdf = folder + "/fuzz-\(index).pdf"
            if try typeset(["render", source, "-q", "-o", pdf, "--pdf-standard", "ua-1,a-2b"]).status == 0 {
                both.append(pdf)
            } else {
                archiveOnly.append(
                    try Self.render(
                        source, into: folder, name: "fuzz-\(index)", options: ["-q", "--pdf-standard", "a-2b"]))
            }
        }
        #expect(both.count >= 15, "\(both.count) of 30 claim PDF/UA-1")
        try Self.expectValid(both)
        try Self.expectValid(both + archiveOnly, profile: "2b")
    }
}
