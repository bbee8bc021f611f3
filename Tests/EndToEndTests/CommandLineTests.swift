import Foundation
import TestSupport
import Testing

/// The `typeset` executable: exit statuses, one-line messages, and no partial output.
@Suite(.serialized) struct CommandLineTests {
    func temporaryFolder() throws -> String { try Render.scratchFolder("cli") }

    func contents(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }

    @Test func rendersAFileAndReportsPages() throws {
        let dir = try temporaryFolder()
        try "# Hello\n\n안녕하세요, world.".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/doc.md", "-o", dir + "/doc.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 page"))
        #expect(try PDFProbe.text(dir + "/doc.pdf").contains("안녕하세요"))
        #expect(contents(dir).sorted() == ["doc.md", "doc.pdf"], "no temporary file left")
    }

    @Test func standardInputToStandardOutput() throws {
        let result = try PDFProbe.run(Render.binary, ["render", "-", "-o", "-"], stdin: Data("# Piped\n\nText".utf8))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("%PDF-"))
    }

    @Test func missingInputIsOneLineAndExit1() throws {
        let dir = try temporaryFolder()
        let result = try typeset(["render", dir + "/nope.md", "-o", dir + "/nope.pdf"])
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").count == 1)
        #expect(result.output.contains("nope.md"))
        #expect(contents(dir).isEmpty)
    }

    /// A theme or font folder the command line named that cannot be used is said to be that
    /// option's value, in `render` and `specimen` alike, still a theme or font error (status 1).
    @Test func anUnusableThemeOrFontFolderNamesItsOption() throws {
        let dir = try temporaryFolder()
        try "Text.\n".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let cases: [(arguments: [String], message: String)] = [
            (["--theme", "nosuch"], "typeset: --theme 'nosuch': no such theme: "),
            (["--theme", dir + "/gone.json"], "typeset: --theme '\(dir)/gone.json': no such theme: "),
            (["--fonts", dir + "/nofonts"], "typeset: --fonts '\(dir)/nofonts': cannot register font folder: "),
            (["--fonts", dir + "/doc.md"], "typeset: --fonts '\(dir)/doc.md': cannot register font folder: "),
            (["-V", "theme=nosuch"], "typeset: -V theme 'nosuch': no such theme: "),
        ]
        for (arguments, message) in cases {
            let rendered = try typeset(["render", dir + "/doc.md", "-o", dir + "/doc.pdf"] + arguments)
            #expect(rendered.status == 1 && rendered.output.hasPrefix(message), "\(arguments): \(rendered.output)")
            guard arguments[0] != "-V" else { continue }
            let specimen = try typeset(["specimen", "-o", dir + "/sheet.pdf"] + arguments)
            #expect(specimen.status == 1 && specimen.output.hasPrefix(message), "\(arguments): \(specimen.output)")
        }
        #expect(contents(dir) == ["doc.md"])
        // A folder whose walk stops short is a warning naming it; the render goes on.
        let deep = dir + "/deep" + String(repeating: "/level", count: 18)
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let cut = try typeset(["render", dir + "/doc.md", "-o", dir + "/doc.pdf", "--fonts", dir + "/deep"])
        #expect(cut.status == 0, "\(cut.output)")
        #expect(cut.output.contains("warning: font folder '\(dir)/deep': the search for fonts stopped after"))
    }

    @Test func missingOutputFolderIsAnErrorAndLeavesNothing() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/missing/a.pdf"])
        #expect(result.status == 1)
        #expect(result.output.contains("missing"))
        #expect(contents(dir) == ["a.md"])
    }

    /// A bad byte is one U+FFFD: the run goes on, the text around it is set, and one warning
    /// names the first bad sequence's line and byte column with the count; `--strict` refuses.
    @Test func invalidUTF8IsReplacedAndNamedByLineAndColumn() throws {
        let dir = try temporaryFolder()
        var bytes = Array("# Title\n\nok line\n".utf8)
        bytes +=
            Array("before".utf8) + [0xFF, 0xFE] + Array(" after\n\nlast ".utf8) + [0xE2, 0x82] + Array(" end\n".utf8)
        #expect(FileManager.default.createFile(atPath: dir + "/bad.md", contents: Data(bytes)))
        let result = try typeset(["render", dir + "/bad.md", "-o", dir + "/bad.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("bad.md:4:7: warning: input is not valid UTF-8: 3 bad byte sequences"),
            "\(result.output)")
        let text = try PDFProbe.run("pdftotext", [dir + "/bad.pdf", "-"]).output
        #expect(text.contains("before\u{FFFD}\u{FFFD} after"), "\(text)")
        #expect(text.contains("last \u{FFFD} end"), "\(text)")
        let strict = try typeset(["render", dir + "/bad.md", "-o", dir + "/strict.pdf", "--strict"])
        #expect(strict.status == 1 && strict.output.contains("bad.md:4:7:"), "\(strict.output)")
    }

    /// Theme and token files stay strict: a bad UTF-8 sequence is an error at its line and
    /// column (columns count characters, as every JSON position does).
    @Test func invalidUTF8InAThemeIsAnErrorAtItsPlace() throws {
        let dir = try temporaryFolder()
        for (bytes, position) in [
            (Array("{\n  \"name\": \"b".utf8) + [0xFF] + Array("ad\"\n}".utf8), "2:13"),
            (Array("{\"name\": \"é".utf8) + [0xE2, 0x82] + Array("\"}".utf8), "1:12"),
            ([0xEF, 0xBB, 0xBF] + Array("{\"name\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8), "1:11"),
        ] {
            #expect(FileManager.default.createFile(atPath: dir + "/t.json", contents: Data(bytes)))
            let check = try typeset(["theme", "check", dir + "/t.json"])
            #expect(
                check.status == 1 && check.output.contains("t.json:\(position): the file is not UTF-8"),
                "\(check.output)")
        }
    }

    @Test func existingOutputSurvivesAFailedRun() throws {
        let dir = try temporaryFolder()
        try "old".write(toFile: dir + "/out.pdf", atomically: true, encoding: .utf8)
        try "Text with [a span]{.headlin}.".write(toFile: dir + "/w.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/w.md", "-o", dir + "/out.pdf", "--strict"])
        #expect(result.status == 1)
        #expect(result.output.contains("w.md:1:"), "\(result.output)")
        #expect(try String(contentsOfFile: dir + "/out.pdf", encoding: .utf8) == "old")
        #expect(contents(dir).sorted() == ["out.pdf", "w.md"])
    }

    @Test func symbolicLinksAreFollowedAndDevicesWrittenThrough() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        try "old".write(toFile: dir + "/real.pdf", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.pdf", withDestinationPath: "real.pdf")
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/link.pdf"]).status == 0)
        let linkType = try FileManager.default.attributesOfItem(atPath: dir + "/link.pdf")[.type] as? FileAttributeType
        #expect(linkType == .typeSymbolicLink, "the link survives")
        #expect(
            try String(contentsOfFile: dir + "/real.pdf", encoding: .isoLatin1).hasPrefix("%PDF-"),
            "the file it names is replaced")
        // A device is written through, never replaced by a regular file.
        #expect(try typeset(["render", dir + "/a.md", "-o", "/dev/null"]).status == 0)
        let nullType = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(nullType == .typeCharacterSpecial)
        #expect(contents(dir).sorted() == ["a.md", "link.pdf", "real.pdf"], "no temporary file left")
    }

    @Test func aPageWithNoRoomForTextIsAnError() throws {
        let dir = try temporaryFolder()
        try "---\nmargins: 300mm\n---\n# Hi".write(toFile: dir + "/m.md", atomically: true, encoding: .utf8)
        let margins = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf"])
        #expect(
            margins.status == 1 && margins.output.hasPrefix(dir + "/m.md:2:10: front matter 'margins': paper")
                && margins.output.contains("at least 72 × 72 pt"),
            "\(margins.output)")
        // Given as an option, the same page is a usage error naming the option.
        let paper = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf", "--paper", "1mm x 1mm"])
        #expect(paper.status == 2 && paper.output.contains("--paper '1mm x 1mm'"), "\(paper.output)")
        #expect(contents(dir) == ["m.md"])
    }

    /// A small paper given with `--paper` takes the theme's margins fitted to it, as the
    /// render fits them, not the margins the theme has on A4: each is set, its words within
    /// the paper. A paper too narrow even then is refused, and the message names `--margins`.
    @Test(arguments: [("A6", 297.638), ("A7", 209.764), ("4in x 6in", 288.0), ("110mm x 160mm", 311.811)])
    func smallPapersTakeMarginsFittedToThem(paper: String, width: Double) throws {
        let dir = try temporaryFolder()
        try "# Small\n\nA paragraph of words that wraps over a line or two on a small page.\n".write(
            toFile: dir + "/s.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/s.md", "-o", dir + "/s.pdf", "--paper", paper])
        #expect(result.status == 0, "\(paper): \(result.output)")
        let words = try PDFProbe.words(dir + "/s.pdf")
        #expect(words.count > 10 && words.allSatisfy { $0.xMin > 0 && $0.xMax < width }, "\(paper)")
        let narrow = try typeset(["render", dir + "/s.md", "-o", dir + "/n.pdf", "--paper", "1in x 5in"])
        #expect(narrow.status == 2 && narrow.output.contains("--margins"), "\(narrow.output)")
    }

    @Test func outputSafetyForEveryCommand() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        // The output may not be the input.
        let same = try typeset(["render", dir + "/a.md", "-o", dir + "/a.md"])
        #expect(same.status == 1 && same.output.contains("it is the input file"))
        #expect(try String(contentsOfFile: dir + "/a.md", encoding: .utf8) == "# Hi")
        // A dangling symbolic link creates its target.
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.pdf", withDestinationPath: "new.pdf")
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/dangling.pdf"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/new.pdf"))
        // theme import writes like render: a device stays a device, `-` is standard output.
        let tokens = Render.packageRoot + "/templates/tokens/acme.tokens.json"
        #expect(try typeset(["theme", "import", tokens, "-o", "/dev/null", "-q"]).status == 0)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType)
                == .typeCharacterSpecial)
        let piped = try typeset(["theme", "import", tokens, "-o", "-", "-q"])
        #expect(piped.status == 0 && piped.output.contains("\"roles\""))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test func nonFiniteOrHugeLengthsAreRejected() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--paper", "nan x 5mm"]).status == 2)
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--paper", "1e400mm x 5mm"]).status == 2)
        try "---\nmargins: nan\n---\n# Hi".write(toFile: dir + "/m.md", atomically: true, encoding: .utf8)
        let margins = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf"])
        #expect(
            margins.status == 1 && margins.output.hasPrefix(dir + "/m.md:2:10: front matter 'margins'"),
            "\(margins.output)")
        try String(repeating: "[", count: 50_000).write(toFile: dir + "/deep.json", atomically: true, encoding: .utf8)
        let deep = try typeset(["theme", "check", dir + "/deep.json"])
        #expect(deep.status == 1 && deep.output.contains("nested more than 256 levels"))
    }

    /// `--strict` lists every warning, those found before layout (a missing picture, a typo in
    /// the front matter) and those layout finds (a word wider than the measure, a code fence
    /// never closed) alike, counts them all, and writes nothing.
    @Test func strictListsEveryWarning() throws {
        let dir = try temporaryFolder()
        let word = String(repeating: "x", count: 400)
        try "---\ntitel: A\n---\n\n![x](missing.png)\n\n\(word)\n\n```\nopen\n"
            .write(toFile: dir + "/all.md", atomically: true, encoding: .utf8)
        let loose = try typeset(["render", dir + "/all.md", "-o", dir + "/all.pdf"])
        let warnings = loose.output.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 4, "\(loose.output)")
        let strict = try typeset(["render", dir + "/all.md", "-o", dir + "/strict.pdf", "--strict"])
        #expect(strict.status == 1)
        for place in ["all.md:2:1:", "all.md:5:", "all.md:7:1:", "all.md:9:1:"] {
            #expect(strict.output.contains(place), "\(place) in \(strict.output)")
        }
        #expect(strict.output.contains("typeset: 4 warnings treated as errors"), "\(strict.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/strict.pdf"))
    }

    /// Every message names its place or the command: `help --help` is help, and `watch
    /// --renders` takes a whole number of at least 1 (else a usage error, exit 2).
    @Test func helpOfHelpAndRenderCountsAreRead() throws {
        let help = try typeset(["help", "--help"])
        #expect(help.status == 0 && help.output.contains("typeset render"), "\(help.output)")
        let dir = try Render.scratchFolder("watch-renders")
        try "# W\n".write(toFile: dir + "/w.md", atomically: true, encoding: .utf8)
        for bad in ["abc", "1.5", "", "0", "-1"] {
            let run = try typeset(["watch", dir + "/w.md", "-o", dir + "/w.pdf", "--renders", bad])
            #expect(run.status == 2 && run.output.contains("--renders takes"), "'\(bad)': \(run.output)")
        }
    }

    /// `--quiet` silences warnings, never the errors `--strict` makes of them: the run that
    /// fails says why.
    @Test func quietStillPrintsStrictErrors() throws {
        let dir = try temporaryFolder()
        try "# Hi\n\n![x](missing.png)\n".write(toFile: dir + "/w.md", atomically: true, encoding: .utf8)
        for extra in [["-q"], ["-q", "--diagnostics", "json"]] {
            let result = try typeset(["render", dir + "/w.md", "-o", dir + "/w.pdf", "--strict"] + extra)
            #expect(result.status == 1, "\(extra)")
            #expect(result.output.contains("missing.png"), "\(extra): \(result.output)")
        }
        #expect(
            try typeset(["render", dir + "/w.md", "-o", dir + "/w.pdf", "--strict", "-q"]).output.contains(
                "treated as error"))
        #expect(contents(dir) == ["w.md"])
        // Quiet without --strict: the warning is silenced and the PDF written.
        let quiet = try typeset(["render", dir + "/w.md", "-o", dir + "/w.pdf", "-q"])
        #expect(quiet.status == 0 && quiet.output.isEmpty, "\(quiet.output)")
    }

    /// The format follows `-o`'s extension when `-f` is not given; an extension that no format
    /// has, or that contradicts `-f`, is a one-line usage error and nothing is written.
    @Test func outputFormatFollowsTheExtension() throws {
        let dir = try temporaryFolder()
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        let png = try typeset(["render", dir + "/a.md", "-o", dir + "/shot.png"])
        #expect(png.status == 0, "\(png.output)")
        let pngBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/shot-1.png"))
        #expect(pngBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG, not a PDF named .png")
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/pic.svg"]).status == 0)
        #expect(try String(contentsOfFile: dir + "/pic-1.svg", encoding: .utf8).contains("<svg"))
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/doc.PDF"]).status == 0)
        #expect(
            try String(decoding: Data(contentsOf: URL(fileURLWithPath: dir + "/doc.PDF")).prefix(5), as: UTF8.self)
                == "%PDF-")
        let before = Set(contents(dir))
        for (arguments, fragment) in [
            (["-o", dir + "/shot.jpg"], ".jpg is not a format typeset writes"),
            (["-f", "svg", "-o", dir + "/x.png"], "names a .png file but -f asks for svg"),
            (["-f", "pdf", "-o", dir + "/x.png"], "names a .png file but -f asks for pdf"),
        ] {
            let result = try typeset(["render", dir + "/a.md"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(
                result.output.contains(fragment) && result.output.split(separator: "\n").count == 1,
                "\(arguments): \(result.output)")
        }
        #expect(Set(contents(dir)) == before, "nothing written")
        let specimen = try typeset(["specimen", "-o", dir + "/sheet.png"])
        #expect(specimen.status == 2 && specimen.output.contains("specimen writes a PDF"), "\(specimen.output)")
    }

    /// An empty path is named as such, not as a missing file or a folder.
    @Test func anEmptyPathIsSaidToBeEmpty() throws {
        let dir = try temporaryFolder()
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        for arguments in [
            ["render", dir + "/a.md", "--output-dir", ""], ["render", dir + "/a.md", "-o", ""],
            ["render", dir + "/a.md", "-f", "png", "-o", ""], ["specimen", "-o", ""],
            ["render", dir + "/a.md", "--theme", ""],
        ] {
            let result = try typeset(arguments)
            #expect(result.status == 2 && result.output.contains("is an empty path"), "\(arguments): \(result.output)")
            #expect(!result.output.contains("doesn’t exist") && !result.output.contains("folder:"), "\(result.output)")
        }
    }

    /// Command-line values that would be accepted in silence are usage errors naming what is
    /// accepted: a running text's unknown field, a `--map` naming no token.
    @Test func commandLineValuesNamingNothingAreRefused() throws {
        let dir = try temporaryFolder()
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        for option in [["--header"], ["--footer"], ["-V", "header="], ["-V", "footer="]] {
            let given = option.count == 1 ? option + ["{page} {nope}"] : [option[0], option[1] + "{page} {nope}"]
            let result = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"] + given)
            #expect(
                result.status == 2 && result.output.contains("unknown field {nope}")
                    && result.output.contains("{title}"), "\(result.output)")
        }
        #expect(
            try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--header", "{title} {page}/{pages} {date}"])
                .status == 0)
        // `{date}` is the front matter's date, else the day of the render (SOURCE_DATE_EPOCH, in
        // UTC) in the document's language, as LaTeX's `\today`: it was empty.
        for (front, lang, expected) in [
            ("", "en", "December 6, 2025"), ("", "ko", "2025년 12월 6일"),
            ("---\ndate: Draft 3\n---\n\n", "en", "Draft 3"),
        ] {
            try (front + "# Hi\n").write(toFile: dir + "/d.md", atomically: true, encoding: .utf8)
            let dated = try PDFProbe.run(
                "env",
                [
                    "SOURCE_DATE_EPOCH=1765000000", Render.binary, "render", dir + "/d.md", "-o", dir + "/d.pdf",
                    "--footer", "{date}", "--lang", lang,
                ])
            #expect(dated.status == 0, "\(dated.output)")
            #expect(try PDFProbe.text(dir + "/d.pdf").contains(expected), "\(lang) \(front)")
        }
        // `{{` and `}}` are a literal brace each, as in Python's and .NET's format strings.
        let braces = try typeset(["render", dir + "/a.md", "-o", dir + "/b.pdf", "--footer", "{{x}} {page} {{page}}"])
        #expect(braces.status == 0, "\(braces.output)")
        #expect(try PDFProbe.text(dir + "/b.pdf").contains("{x} 1 {page}"))
        let tokens = Render.packageRoot + "/templates/tokens/acme.tokens.json"
        let bad = try typeset(["theme", "import", tokens, "-o", dir + "/t.json", "--map", "typography.nope=display"])
        #expect(bad.status == 2 && bad.output.contains("no typography token 'typography.nope'"), "\(bad.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.json"))
    }

    /// Values `-V` sets name the option (no file position, the `typeset:` prefix), and one run's
    /// warnings are printed in source order.
    @Test func commandLineWarningsAreNamedAndWarningsAreInSourceOrder() throws {
        let dir = try temporaryFolder()
        // The image's warning is found after the attribute's (layout checks images later).
        try "---\ntitle: A\n---\n\n![x](missing.png)\n\n[x]{weight=heavyish}\n".write(
            toFile: dir + "/o.md", atomically: true, encoding: .utf8)
        let result = try typeset([
            "render", dir + "/o.md", "-o", dir + "/o.pdf", "-V", "colorlinks=true",
        ])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(dir + "/o.pdf: ") }
        #expect(lines.contains { $0.hasPrefix("typeset: warning: -V colorlinks: not a setting") }, "\(lines)")
        // A malformed language tag is a bad option value: exit 2, as every other (OptionTable.exitStatus).
        for arguments in [["--lang", "x!!"], ["-V", "lang=x!!"]] {
            let bad = try typeset(["render", dir + "/o.md", "-o", dir + "/bad.pdf"] + arguments)
            #expect(bad.status == 2 && bad.output.contains("'x!!' is not a BCP 47"), "\(bad.output)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad.pdf"))
        }
        // A POSIX locale name is answered with the tag it means.
        for (locale, tag) in [("en_US", "en-US"), ("pt_BR.UTF-8", "pt-BR"), ("de_DE@euro", "de-DE")] {
            let bad = try typeset(["render", dir + "/o.md", "-o", dir + "/bad.pdf", "--lang", locale])
            #expect(bad.status == 2 && bad.output.contains("here '\(tag)'"), "\(bad.output)")
        }
        #expect(lines.allSatisfy { $0.hasPrefix("typeset: ") || $0.hasPrefix(dir + "/o.md:") }, "\(lines)")
        let positioned = lines.compactMap { line -> Int? in
            guard line.hasPrefix(dir + "/o.md:") else { return nil }
            return Int(line.dropFirst(dir.count + 6).prefix { $0.isNumber })
        }
        #expect(positioned.count >= 2 && positioned == positioned.sorted(), "\(lines)")
    }

    @Test func usageErrorsExit2() throws {
        #expect(try typeset([]).status == 2)
        #expect(try typeset(["render"]).status == 2)
        #expect(try typeset(["render", "a.md", "--bogus"]).status == 2)
        #expect(try typeset(["frobnicate"]).status == 2)
        #expect(try typeset(["render", "a.md", "--paper", "tabloid-ish"]).status == 2)
        let help = try typeset(["--help"])
        #expect(help.status == 0 && help.output.contains("typeset render"))
        #expect(try typeset(["--version"]).output.hasPrefix("typeset "))
    }

    /// A misspelt command, subcommand, option or help topic is named with the one it is
    /// likely meant for; a word near none is named alone.
    @Test func misspeltNamesGetADidYouMean() throws {
        let cases: [([String], String)] = [
            (["rendr", "a.md"], "unknown command 'rendr'; did you mean 'render'?"),
            (["specmen"], "unknown command 'specmen'; did you mean 'specimen'?"),
            (["theme", "shwo", "default"], "unknown theme command 'shwo'; did you mean 'show'?"),
            (["render", "a.md", "--tehme", "x"], "unknown option '--tehme'; did you mean '--theme'?"),
            (["specimen", "--papr", "a4"], "unknown option '--papr'; did you mean '--paper'?"),
            (["help", "fnots"], "unknown command 'fnots'; did you mean 'fonts'?"),
            (["help", "rendr", "extra"], "unknown command 'rendr'; did you mean 'render'?"),
            (["help", "theme imprt"], "unknown command 'theme imprt'; did you mean 'theme import'?"),
        ]
        for (arguments, message) in cases {
            let result = try typeset(arguments)
            #expect(result.status == 2 && result.output.contains(message), "\(arguments): \(result.output)")
        }
        let far = try typeset(["frobnicate"])
        #expect(far.status == 2 && far.output.contains("unknown command 'frobnicate'"), "\(far.output)")
        #expect(!far.output.contains("did you mean"), "\(far.output)")
    }
}
