import Foundation
import TestSupport
import Testing

/// The command line as scripts use it: per-command help from one option table, several inputs
/// in parallel, output folders, standard output, paper sizes, front-matter flags, JSON
/// diagnostics, built-in themes, version.
@Suite(.serialized) struct ScriptingTests {
    func folder() throws -> String { try Render.scratchFolder("script") }

    /// The first page's size in pt, as pdfinfo reads it.
    func pageSize(_ pdf: String) throws -> (width: Double, height: Double) {
        let text = try PDFProbe.info(pdf)["Page size"] ?? ""
        let numbers = text.split(separator: " ").compactMap { Double($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : (0, 0)
    }

    func isPage(_ pdf: String, _ width: Double, _ height: Double) throws -> Bool {
        let size = try pageSize(pdf)
        return abs(size.width - width) < 0.1 && abs(size.height - height) < 0.1
    }

    @Test(arguments: [
        (["render"], "--output-dir"), (["watch"], "--renders"), (["specimen"], "--guides"),
        (["theme", "import"], "--map"),
        (["theme", "check"], "--quiet"), (["theme", "list"], "--help"), (["theme", "show"], "--help"),
        (["fonts"], "--fonts"), (["completions"], "--help"),
    ])
    func everyCommandAnswersHelp(command: [String], option: String) throws {
        for flag in ["--help", "-h"] {
            let result = try typeset(command + [flag])
            #expect(result.status == 0, "\(command) \(flag): \(result.output)")
            #expect(result.output.hasPrefix("usage: typeset \(command.joined(separator: " "))"), "\(result.output)")
            #expect(result.output.contains(option))
        }
        #expect(try typeset(["help"] + command).output == typeset(command + ["--help"]).output)
    }

    @Test func overviewManPageAndCompletions() throws {
        let overview = try typeset(["help"])
        #expect(overview.status == 0 && overview.output.contains("theme show"))
        let man = try typeset(["help", "man"])
        #expect(man.output.hasPrefix(".TH TYPESET 1"))
        let dir = try folder()
        try write(man.output, dir + "/typeset.1")
        let formatted = try PDFProbe.run("groff", ["-k", "-man", "-Tutf8", "-ww", dir + "/typeset.1"])
        #expect(formatted.status == 0 && formatted.output.contains("--output-dir"), "\(formatted.output.prefix(400))")
        #expect(!formatted.output.contains("troff:"), "no groff warnings: \(formatted.output.prefix(400))")
        let bash = try typeset(["completions", "bash"])
        try write(bash.output, dir + "/typeset.bash")
        let syntax = try PDFProbe.run("bash", ["-n", dir + "/typeset.bash"])
        #expect(syntax.status == 0, "\(syntax.output)")
        // Completing `typeset render --pa` offers --paper; `--paper a` offers the A sizes.
        let probe =
            "source \(dir)/typeset.bash; COMP_WORDS=(typeset render --pa); COMP_CWORD=2; _typeset; echo "
            + "\"${COMPREPLY[*]}\";"
            + " COMP_WORDS=(typeset render --paper a); COMP_CWORD=3; _typeset; echo \"${COMPREPLY[*]}\""
        let completed = try PDFProbe.run("bash", ["-c", probe])
        #expect(completed.output.contains("--paper"), "\(completed.output)")
        #expect(completed.output.contains("a4"), "\(completed.output)")
        // Each command's own values: `theme` offers every theme command, `theme export --format`
        // the export formats (it offered render's pdf png svg), `specimen --compare` the themes.
        func completion(_ words: [String]) throws -> String {
            let script =
                "source \(dir)/typeset.bash; COMP_WORDS=(\(words.joined(separator: " "))); "
                + "COMP_CWORD=\(words.count - 1); _typeset; echo \"${COMPREPLY[*]}\""
            return try PDFProbe.run("bash", ["-c", script]).output
        }
        let themeWords = try completion(["typeset", "theme", "''"])
        #expect(["import", "check", "list", "show", "export", "diff"].allSatisfy(themeWords.contains), "\(themeWords)")
        let formats = try completion(["typeset", "theme", "export", "hig", "--format", "''"])
        #expect(formats.contains("tokens-studio") && !formats.contains("png"), "\(formats)")
        #expect(try completion(["typeset", "render", "x.md", "--format", "''"]).contains("png"))
        #expect(try completion(["typeset", "specimen", "--compare", "''"]).contains("pretendard"))
        let zsh = try typeset(["completions", "zsh"]).output
        #expect(
            zsh.hasPrefix("#compdef typeset") && zsh.contains("_values subcommand import check list show export diff"))
        let version = try typeset(["--version"])
        #expect(
            version.output.range(of: #"^typeset \d+\.\d+\.\d+ \([^)]+\)"#, options: .regularExpression) != nil,
            "\(version.output)")
    }

    @Test func unknownOptionPointsToTheCommandsHelp() throws {
        let result = try typeset(["render", "x.md", "--nope"])
        #expect(result.status == 2)
        #expect(result.output.contains("typeset render --help"), "\(result.output)")
    }

    @Test func severalInputsInParallelKeepGoingPastAFailure() throws {
        let dir = try folder()
        for name in ["one", "two", "three"] { try write("# \(name)\n\nText of \(name).", dir + "/\(name).md") }
        try write("---\ntheme: /dev/zero\n---\n\n# Bad\n", dir + "/bad.md")
        let result = try typeset([
            "render", dir + "/one.md", dir + "/bad.md", dir + "/two.md", dir + "/three.md",
            "--output-dir", dir + "/pdf", "-j", "2",
        ])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("3 written, 1 failed"), "\(result.output)")
        #expect(result.output.contains("bad.md:2:8: front matter 'theme'"), "\(result.output)")
        #expect(
            result.output.components(separatedBy: "/4] ").count == 5, "one progress line per file: \(result.output)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/pdf").sorted()
        #expect(written == ["one.pdf", "three.pdf", "two.pdf"])
        #expect(try PDFProbe.text(dir + "/pdf/three.pdf").contains("Text of three"))
        // -o with a folder does the same; -o naming one file with several inputs makes one book
        // (BookTests), here of two pages.
        #expect(try typeset(["render", dir + "/one.md", dir + "/two.md", "-o", dir + "/out/", "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/out/two.pdf"))
        #expect(try typeset(["render", dir + "/one.md", dir + "/two.md", "-o", dir + "/x.pdf"]).status == 0)
        #expect(try PDFProbe.info(dir + "/x.pdf")["Pages"] == "2")
        // Two inputs that would write the same file are refused before anything runs.
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try write("# Again", dir + "/sub/one.md")
        let clash = try typeset(["render", dir + "/one.md", dir + "/sub/one.md", "--output-dir", dir + "/clash"])
        #expect(clash.status == 2 && clash.output.contains("both"), "\(clash.output)")
    }

    @Test func outputFolderAndStandardOutput() throws {
        let dir = try folder()
        try write("# Folder", dir + "/doc.md")
        #expect(try typeset(["render", dir + "/doc.md", "-o", dir + "/new/"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/new/doc.pdf"))
        try FileManager.default.createDirectory(atPath: dir + "/existing", withIntermediateDirectories: true)
        #expect(try typeset(["render", dir + "/doc.md", "-o", dir + "/existing"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/existing/doc.pdf"))
        // A terminal on standard output is refused (script(1) gives the child a pseudo-terminal).
        let tty = try PDFProbe.run("script", ["-qec", "\(Render.binary) render \(dir)/doc.md -o -", "/dev/null"])
        #expect(tty.status == 1, "\(tty.output.prefix(200))")
        #expect(tty.output.contains("terminal") && !tty.output.contains("%PDF"), "\(tty.output.prefix(200))")
        let piped = try typeset(["render", dir + "/doc.md", "-o", "-"])
        #expect(piped.status == 0 && piped.output.hasPrefix("%PDF-"))
    }

    @Test func paperSizesThroughTheCommandLine() throws {
        let dir = try folder()
        try write("# Paper", dir + "/p.md")
        let mm = 72 / 25.4
        for (paper, width, height) in [
            ("a3 landscape", 420 * mm, 297 * mm), ("jis-b5", 182 * mm, 257 * mm), ("tabloid", 792, 1224),
            ("c5", 162 * mm, 229 * mm), ("B4", 250 * mm, 353 * mm),
        ] {
            let result = try typeset(["render", dir + "/p.md", "-o", dir + "/p.pdf", "--paper", paper])
            #expect(result.status == 0, "\(result.output)")
            let size = try pageSize(dir + "/p.pdf")
            #expect(try isPage(dir + "/p.pdf", width, height), "\(paper): \(size)")
        }
        let unitless = try typeset(["render", dir + "/p.md", "-o", dir + "/q.pdf", "--paper", "210 x 297"])
        #expect(unitless.status == 2 && unitless.output.contains("unit"), "\(unitless.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/q.pdf"))
        // In front matter, a unitless size is judged as --paper's: an error at its line, nothing written.
        try write("---\npaper: 210 x 297\n---\n# Paper", dir + "/fm.md")
        let refused = try typeset(["render", dir + "/fm.md", "-o", dir + "/fm.pdf"])
        #expect(
            refused.status == 1 && refused.output.hasPrefix(dir + "/fm.md:2:8: front matter 'paper'")
                && refused.output.contains("unit"), "\(refused.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/fm.pdf"))
    }

    @Test func frontMatterSettingsFromTheCommandLine() throws {
        let dir = try folder()
        try write("# Chapter one\n\nBody text.\n\n\\newpage\n\n## Section\n\nMore.", dir + "/fm.md")
        let result = try typeset([
            "render", dir + "/fm.md", "-o", dir + "/fm.pdf", "--toc", "--lang", "ko", "--header", "{title} head",
            "--footer", "page {page} of {pages}", "--margins", "1in", "-V", "title=Set by V", "-M", "author=Ann",
        ])
        #expect(result.status == 0, "\(result.output)")
        let text = try PDFProbe.text(dir + "/fm.pdf")
        #expect(text.contains("목차"), "--toc with --lang ko")
        #expect(text.contains("Set by V head") && text.contains("page 2 of 2"), "\(text)")
        let info = try PDFProbe.info(dir + "/fm.pdf")
        #expect(info["Title"] == "Set by V" && info["Author"] == "Ann")
        let words = try PDFProbe.words(dir + "/fm.pdf")
        let body = try #require(words.first { $0.text == "Body" })
        #expect(abs(body.xMin - 72) < 1, "--margins 1in puts the text 72 pt from the left edge: \(body)")
        #expect(try typeset(["render", dir + "/fm.md", "--margins", "wide"]).status == 2)
        #expect(try typeset(["render", dir + "/fm.md", "-V", "=novalue"]).status == 2)
    }

    /// A key given several times on the command line is a list, as Pandoc collects it: every
    /// author is named (the title block and the PDF's Author), every keyword kept; any other
    /// key takes its last value. Members: `-M author` twice, `-V author` and `-M authors`
    /// mixed, `keywords` twice.
    @Test func repeatedAuthorsAndKeywordsAreListed() throws {
        let dir = try folder()
        try write("Body.\n", dir + "/m.md")
        for (arguments, author) in [
            (["-M", "author=Alice", "-M", "author=Bob"], "Alice, Bob"),
            (["-V", "author=Ann", "-M", "authors=Ben", "-M", "author=Cy"], "Ann, Ben, Cy"),
        ] {
            let result = try typeset(
                ["render", dir + "/m.md", "-o", dir + "/m.pdf", "-M", "title=T=1", "-M", "title=T2"] + arguments)
            #expect(result.status == 0, "\(result.output)")
            let info = try PDFProbe.info(dir + "/m.pdf")
            #expect(info["Author"] == author && info["Title"] == "T2", "\(arguments): \(info)")
            #expect(try PDFProbe.text(dir + "/m.pdf").contains(author))
        }
        let keywords = try typeset([
            "render", dir + "/m.md", "-o", dir + "/k.pdf", "-M", "keywords=one", "-M", "keywords=two",
        ])
        #expect(keywords.status == 0, "\(keywords.output)")
        #expect(try PDFProbe.info(dir + "/k.pdf")["Keywords"] == "one, two")
    }

    @Test func frontMatterThemeResolvesBesideTheDocument() throws {
        let dir = try folder()
        try FileManager.default.createDirectory(atPath: dir + "/doc", withIntermediateDirectories: true)
        try write(#"{"name": "beside", "extends": "default", "page": {"paper": "a5"}}"#, dir + "/doc/beside.json")
        try write("---\ntheme: beside.json\n---\n# Beside", dir + "/doc/d.md")
        // The test runs from the package root, not from doc/.
        let result = try typeset(["render", dir + "/doc/d.md", "-o", dir + "/d.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(try isPage(dir + "/d.pdf", 419.53, 595.28))
        // Standard input: relative paths resolve against --resource-path.
        let piped = try typeset(
            ["render", "-", "-o", dir + "/s.pdf", "--resource-path", dir + "/doc"],
            stdin: Data("---\ntheme: beside.json\n---\n# Piped".utf8))
        #expect(piped.status == 0, "\(piped.output)")
        #expect(try isPage(dir + "/s.pdf", 419.53, 595.28))
    }

    /// Pandoc's options passed out of habit change nothing (`-s`, `--pdf-engine`, `--from
    /// markdown+smart`, `-t pdf`): the PDF is the one rendered without them. `--citeproc` warns
    /// (an error with `--strict`); `--from docx`, `--to html` and `-f markdown` are usage errors
    /// that say what Typeset reads and writes.
    @Test func pandocOptionsPassedOutOfHabitChangeNothing() throws {
        let dir = try folder()
        try write("# Title\n\nText with *emphasis*.\n", dir + "/p.md")
        let plain = try typeset(["render", dir + "/p.md", "-o", dir + "/plain.pdf", "-q"])
        #expect(plain.status == 0, "\(plain.output)")
        let habits = try typeset([
            "render", dir + "/p.md", "-s", "--standalone", "--pdf-engine=xelatex", "--pdf-engine", "lualatex",
            "--from", "markdown+smart-emoji", "-r", "gfm", "-t", "pdf", "--to=pdf", "-o", dir + "/habits.pdf", "-q",
        ])
        #expect(habits.status == 0, "\(habits.output)")
        #expect(try PDFProbe.text(dir + "/plain.pdf") == PDFProbe.text(dir + "/habits.pdf"))
        let citeproc = try typeset(["render", dir + "/p.md", "--citeproc", "-o", dir + "/c.pdf"])
        #expect(citeproc.status == 0 && citeproc.output.contains("--citeproc: citations are not processed"))
        let strict = try typeset(["render", dir + "/p.md", "-C", "--strict", "-o", dir + "/c2.pdf"])
        #expect(strict.status == 2 && strict.output.contains("an error with --strict"), "\(strict.output)")
        for (arguments, words) in [
            (["--from", "docx"], "reads Markdown only"), (["--to", "html"], "writes PDF"),
            (["-f", "markdown"], "Typeset's -f is its output format"), (["--format=gfm"], "Typeset's -f"),
        ] {
            let result = try typeset(["render", dir + "/p.md", "-o", dir + "/x.pdf"] + arguments)
            #expect(result.status == 2 && result.output.contains(words), "\(arguments): \(result.output)")
        }
    }

    @Test func diagnosticsAsJSONLines() throws {
        let dir = try folder()
        try write("Text [x]{.headlin} and [y]{colr=1}.", dir + "/j.md")
        let result = try typeset(["render", dir + "/j.md", "-o", dir + "/j.pdf", "--diagnostics", "json"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count >= 2, "\(result.output)")
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(
                object["file"] as? String == dir + "/j.md" && object["line"] as? Int == 1
                    && object["severity"] as? String == "warning", "\(line)")
            #expect(object["column"] is Int && object["message"] is String)
        }
        let missing = try typeset(["render", dir + "/none.md", "-o", dir + "/none.pdf", "--diagnostics=json"])
        #expect(missing.status == 1)
        let error = try #require(
            try JSONSerialization.jsonObject(with: Data(missing.output.utf8)) as? [String: Any], "\(missing.output)")
        #expect(
            error["severity"] as? String == "error" && error["kind"] as? String == "unreadableInput"
                && error["line"] is NSNull)
    }

    @Test func builtInThemesListAndShow() throws {
        let list = try typeset(["theme", "list"])
        #expect(list.status == 0)
        #expect(
            list.output.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["default", "hig", "pretendard"])
        let dir = try folder()
        for name in ["default", "hig"] {
            let shown = try typeset(["theme", "show", name])
            #expect(shown.status == 0)
            try write(shown.output, dir + "/\(name).json")
            let check = try typeset(["theme", "check", dir + "/\(name).json"])
            #expect(check.status == 0, "the printed theme is a valid theme file: \(check.output)")
        }
        // A theme that does not exist is a theme error, as for `render --theme`.
        #expect(try typeset(["theme", "show", "nope"]).status == 1)
    }
}

/// Previews and watch mode through the binary.
@Suite(.serialized) struct PreviewAndWatchTests {
    func folder() throws -> String { try Render.scratchFolder("preview") }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian).
    func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return (0, 0) }
        func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test func pngPagesAreThePageSizeAtTheRequestedResolution() throws {
        let dir = try folder()
        let text = "# One\n\nFirst page.\n\n\\newpage\n\n# Two\n\nSecond page.\n\n\\newpage\n\n# Three\n\nThird page."
        try text.write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        for (paper, dpi, width, height) in [
            ("a5", 150, 875, 1240), ("letter", 72, 612, 792), ("a4 landscape", 30, 351, 249),
        ] {
            let out = dir + "/\(dpi)/page.png"
            try FileManager.default.createDirectory(atPath: dir + "/\(dpi)", withIntermediateDirectories: true)
            let result = try PDFProbe.run(
                Render.binary,
                [
                    "render", dir + "/doc.md", "-o", out, "-f", "png", "--dpi", String(dpi),
                    "--pages", "2-3", "--paper", paper,
                ])
            #expect(result.status == 0, "\(result.output)")
            let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/\(dpi)").sorted()
            #expect(files == ["page-2.png", "page-3.png"], "only the selected pages")
            // ⌈side in pt × dpi / 72⌉: A5 419.53 pt at 150 dpi is 874.02 → 875 px.
            let size = try pngSize(dir + "/\(dpi)/page-2.png")
            #expect(abs(size.0 - width) <= 1 && abs(size.1 - height) <= 1, "\(paper) at \(dpi) dpi: \(size)")
        }
        // The picture is the page: ink where the text is, white elsewhere (ImageMagick's mean).
        let mean = try PDFProbe.run(
            "convert", [dir + "/150/page-2.png", "-colorspace", "gray", "-format", "%[fx:mean]", "info:"])
        let value = Double(mean.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(value > 0.9 && value < 0.9999, "mostly white with some ink: \(mean.output)")
    }

    @Test func svgPagesAreVectorsInPoints() throws {
        let dir = try folder()
        try "# Vector\n\nText as glyph outlines.".write(toFile: dir + "/v.md", atomically: true, encoding: .utf8)
        let result = try PDFProbe.run(
            Render.binary, ["render", dir + "/v.md", "-o", dir + "/", "--format", "svg", "--paper", "a5"])
        #expect(result.status == 0, "\(result.output)")
        let svg = try String(contentsOfFile: dir + "/v-1.svg", encoding: .utf8)
        #expect(svg.contains(#"width="419.527"#) && svg.contains("<path"), "\(svg.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: dir + "/v.pdf"))
        #expect(try PDFProbe.run(Render.binary, ["render", dir + "/v.md", "-f", "svg", "-o", "-"]).status == 2)
        #expect(
            try PDFProbe.run(Render.binary, ["render", dir + "/v.md", "--pages", "1"]).status == 2,
            "--pages needs png or svg")
        #expect(try PDFProbe.run(Render.binary, ["render", dir + "/v.md", "-f", "png", "--pages", "3-1"]).status == 2)
    }

    /// Starts `typeset watch`, edits the document and its image, and waits (bounded) for each
    /// new PDF; an invalid edit is reported and watching goes on.
    @Test func watchRendersAgainOnEveryChange() throws {
        let dir = try folder()
        let doc = dir + "/doc.md"
        let pdf = dir + "/doc.pdf"
        try "# Watch\n\nVersion one.".write(toFile: doc, atomically: true, encoding: .utf8)
        let log = Pipe()
        let process = try PDFProbe.start(
            Render.binary, ["watch", doc, "-o", pdf, "--renders", "5"], standardError: log)
        defer { if process.isRunning { process.terminate() } }

        func waitFor(_ what: String, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if condition() { return true }
                usleep(50_000)
            }
            Issue.record("timed out waiting for \(what)")
            return false
        }
        func pdfText() -> String { (try? PDFProbe.text(pdf)) ?? "" }
        #expect(waitFor("the first render") { pdfText().contains("Version one") })
        usleep(300_000)
        try "# Watch\n\nVersion two.".write(toFile: doc, atomically: true, encoding: .utf8)
        #expect(waitFor("the edit") { pdfText().contains("Version two") })
        usleep(300_000)
        try "---\ntheme: /dev/zero\n---\n\n# Broken\n".write(toFile: doc, atomically: true, encoding: .utf8)
        usleep(600_000)
        #expect(pdfText().contains("Version two"), "a failed render leaves the last PDF")
        try "# Watch\n\n![a picture](pic.png)\n".write(toFile: doc, atomically: true, encoding: .utf8)
        #expect(waitFor("the image reference") { pdfText().contains("a picture") })
        usleep(300_000)
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/images/type-scale.png", toPath: dir + "/pic.png")
        #expect(waitFor("watch to stop after 5 renders (one failed)") { !process.isRunning })
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.contains("doc.md changed") && output.contains("pic.png changed"), "\(output)")
        #expect(
            output.contains("is outside the folders") && output.contains("watching for the next change"), "\(output)")
        #expect(process.terminationStatus == 0)
    }
}
