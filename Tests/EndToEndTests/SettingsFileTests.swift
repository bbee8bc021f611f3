import Foundation
import TestSupport
import Testing

/// `--metadata-file` and `--defaults` as Pandoc reads them, `watch` saying a warning once, and
/// the README conventions `--strict` should not object to. Read back from the PDF and the
/// messages.
@Suite(.serialized) struct SettingsFileTests {
    func folder() throws -> String { try Render.scratchFolder("settings-files") }

    @Test func metadataFileFillsWhatTheDocumentLeavesAndTheCommandLineWins() throws {
        let dir = try folder()
        try write("title: From the file\nauthor: File Author\ntoc: true\ntocc: true\n", dir + "/meta.yaml")
        try write("{\"subtitle\": \"From JSON\", \"author\": \"JSON Author\"}", dir + "/meta.json")
        try write("---\ntitle: Document title\n---\n\n## One\n\n## Two\n", dir + "/m.md")
        let run = try typeset([
            "render", dir + "/m.md", "-o", dir + "/m.pdf", "--metadata-file", dir + "/meta.yaml", "--metadata-file",
            dir + "/meta.json", "-M", "keywords=cli",
        ])
        #expect(run.status == 0, "\(run.output)")
        // The typo warns at its line in the metadata file.
        #expect(run.output.contains("\(dir)/meta.yaml:4:1: warning: unknown front matter key 'tocc'"), "\(run.output)")
        let info = try PDFProbe.info(dir + "/m.pdf")
        #expect(info["Title"] == "Document title", "the document wins: \(info)")
        #expect(info["Author"] == "JSON Author", "a later file wins over an earlier one: \(info)")
        #expect(info["Subject"] == "From JSON" && info["Keywords"] == "cli", "\(info)")
        #expect(try PDFProbe.text(dir + "/m.pdf").contains("Contents"), "toc: true from the file")
        // Not a mapping: an error at its line; no such file: a usage error.
        try write("title: [unclosed\n", dir + "/bad.yaml")
        let bad = try typeset(["render", dir + "/m.md", "-o", dir + "/x.pdf", "--metadata-file", dir + "/bad.yaml"])
        // At the bracket left open, not at the end of the file where libyaml finds it unclosed.
        #expect(bad.status == 1 && bad.output.hasPrefix("\(dir)/bad.yaml:1:8:"), "\(bad.output)")
        let missing = try typeset(["render", dir + "/m.md", "-o", dir + "/x.pdf", "--metadata-file", dir + "/no.yaml"])
        #expect(missing.status == 2 && !FileManager.default.fileExists(atPath: dir + "/x.pdf"), "\(missing.output)")
    }

    /// A book's chapters are named where the book is written: `include:` (or `chapters:`) in a
    /// metadata file or given with `-V` is said to be ignored, at its line in the file (both were
    /// dropped without a word).
    @Test func includesOutsideTheDocumentAreSaidToBeIgnored() throws {
        let dir = try folder()
        try write("# Two\n", dir + "/two.md")
        try write("# One\n", dir + "/one.md")
        try write("title: T\ninclude:\n  - two.md\n", dir + "/book.yaml")
        let file = try typeset(["render", dir + "/one.md", "-o", dir + "/i.pdf", "--metadata-file", dir + "/book.yaml"])
        #expect(
            file.status == 0 && file.output.contains("\(dir)/book.yaml:3:") && file.output.contains("'include'"),
            "\(file.output)")
        for key in ["include", "chapters"] {
            let variable = try typeset(["render", dir + "/one.md", "-o", dir + "/i.pdf", "-V", "\(key)=two.md"])
            #expect(
                variable.status == 0 && variable.output.contains("-V \(key): a book's chapters"), "\(variable.output)")
            #expect(!(try PDFProbe.text(dir + "/i.pdf").contains("Two")))
        }
    }

    @Test func defaultsFileSetsOptionsAndPointsAtItsMistakes() throws {
        let dir = try folder()
        try write("## One\n\n### Deep\n\n## Two\n", dir + "/d.md")
        try write(
            """
            from: markdown+smart
            to: pdf
            standalone: true
            number-sections: true
            table-of-contents: true
            toc-depth: 2
            metadata:
              title: Defaults title
            variables:
              papersize: a5
            output-file: ${.}/from-defaults.pdf
            input-files:
              - ${.}/d.md
            """, dir + "/defaults.yaml")
        let run = try typeset(["render", "-d", dir + "/defaults.yaml"])
        #expect(run.status == 0, "\(run.output)")
        let pdf = dir + "/from-defaults.pdf"
        let info = try PDFProbe.info(pdf)
        #expect(info["Title"] == "Defaults title" && info["Page size"]?.hasPrefix("419.528 x 595.276") == true)
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("1.1 Deep") && text.contains("Contents"), "\(text)")
        // The command line wins over the file.
        let over = try typeset(["render", "-d", dir + "/defaults.yaml", "-o", dir + "/over.pdf", "--paper", "a4"])
        #expect(over.status == 0, "\(over.output)")
        let overSize = try PDFProbe.info(dir + "/over.pdf")["Page size"]
        #expect(overSize?.hasPrefix("595") == true, "\(String(describing: overSize))")
        // Each mistake is a usage error at its key, nothing written.
        for (text, expected) in [
            (
                "numbr-sections: true\n",
                "1:1: defaults: 'numbr-sections' is not an option of typeset render; did "
                    + "you mean 'number-sections'?"
            ),
            ("toc: true\ntoc-depth: 3\njustify: maybe\n", "3:1: defaults: 'justify' takes true or false"),
            ("paper:\n  - a4\n  - a5\n", "1:1: defaults: 'paper' takes one value, not a list"),
            ("from: gfm\nto: html\n", "2:1: defaults: 'to: html' asks for what Typeset does not do"),
            ("from: docx\n", "1:1: defaults: 'from: docx' asks for what Typeset does not do"),
            ("to: docx\n", "1:1: defaults: 'to: docx'"),
            ("toc: true\npaper: a12\n", "2:1: defaults: --paper: unknown paper 'a12'"),
        ] {
            try write(text, dir + "/bad.yaml")
            let bad = try typeset(["render", dir + "/d.md", "-o", dir + "/bad.pdf", "-d", dir + "/bad.yaml"])
            #expect(bad.status == 2 && bad.output.hasPrefix("\(dir)/bad.yaml:\(expected)"), "\(bad.output)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad.pdf"))
        }
    }

    @Test func watchSaysAWarningOnceUntilItChanges() throws {
        let dir = try folder()
        try write("Text with [x]{weight=heavyish}.\n", dir + "/w.md")
        let run = try typeset(["watch", dir + "/w.md", "-o", dir + "/w.pdf", "--renders", "1"])
        #expect(run.status == 0 && run.output.contains("weight"), "\(run.output)")
        #expect(run.output.contains("rendered in"), "\(run.output)")
        // `-q`: no warnings and no progress (the progress line was printed).
        let quiet = try typeset(["watch", dir + "/w.md", "-o", dir + "/w.pdf", "--renders", "1", "-q"])
        #expect(quiet.status == 0 && quiet.output.isEmpty, "\(quiet.output)")
        // Two renders of the same text in one watch: the warning is printed once.
        let process = try PDFProbe.start(
            Render.binary, ["watch", dir + "/w.md", "-o", dir + "/w2.pdf", "--renders", "2"],
            standardOutput: FileHandle.nullDevice, standardError: Pipe())
        // Edited once a second until the second render ends the watch (the first edit may come
        // before the watcher starts).
        var edits = 0
        while process.isRunning, edits < 60 {
            Thread.sleep(forTimeInterval: 1)
            edits += 1
            try write("Text with [x]{weight=heavyish} changed \(edits).\n", dir + "/w.md")
        }
        if process.isRunning { process.terminate() }
        let error = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        let output = String(decoding: error, as: UTF8.self)
        #expect(output.components(separatedBy: "heavyish").count - 1 == 1, "\(output)")
        #expect(output.contains("1 warning as before, not repeated"), "\(output)")
    }

    @Test func readmeConventionsPassStrict() throws {
        let dir = try folder()
        try write("# Contributing\n", dir + "/CONTRIBUTING.md")
        try write(
            "# Tool\n\nSee [contributing](CONTRIBUTING.md) and <URL:https://example.org/tool/>.\n", dir + "/README.md")
        let run = try typeset(["render", dir + "/README.md", "-o", dir + "/r.pdf", "--strict"])
        #expect(run.status == 0, "\(run.output)")
        let streams = try PDFProbe.contentStreams(dir + "/r.pdf")
        #expect(streams.contains("https://example.org/tool/"), "the wrapped address is the link")
        // A link to a file that is not there still warns: it goes nowhere.
        try write("See [install](INSTALL.md).\n", dir + "/other.md")
        let broken = try typeset(["render", dir + "/other.md", "-o", dir + "/o.pdf", "--strict"])
        #expect(broken.status == 1 && broken.output.contains("INSTALL.md"), "\(broken.output)")
    }
}
