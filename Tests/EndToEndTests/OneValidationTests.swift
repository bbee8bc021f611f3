import Foundation
import TestSupport
import Testing

/// One validation and one message format, through the `typeset` executable: a value is judged
/// the same wherever it comes from (design tokens, theme files, front matter, `-V`, options), and
/// every failure or warning is one `file:line:column: [warning: ]message` line (docs/command-line.md,
/// "Exit status and messages"; docs/themes.md, "Checking").
@Suite(.serialized) struct OneValidationTests {
    func folder() throws -> String { try Render.scratchFolder("one") }

    /// Every non-empty line of `output` starts `file:line:column: ` with `file` as given.
    func allPositioned(_ output: String, in file: String) -> Bool {
        let lines = output.split(separator: "\n")
        return !lines.isEmpty
            && lines.allSatisfy {
                $0.hasPrefix(file + ":")
                    && $0.dropFirst(file.count).range(of: #"^:\d+:\d+: "#, options: .regularExpression) != nil
            }
    }

    /// A token value a theme could not hold refuses the import and fails `theme check`, both with
    /// the value's position; nothing is written.
    @Test(arguments: [
        (
            #"{"typography": {"body": {"$type": "typography", "$value": {"fontSize": "-3px"}}}}"#,
            "fontSize must be more than 0"
        ),
        (
            #"{"typography": {"body": {"$type": "typography", "$value": {"fontSize": "12furlong"}}}}"#,
            "fontSize must be a dimension"
        ),
        (
            #"{"typography": {"body": {"$type": "typography", "$value": {"fontWeight": "heavyish"}}}}"#,
            "fontWeight must be 1–1000"
        ),
        (
            #"{"a": {"$type": "dimension", "$value": "{b}"}, "b": {"$type": "dimension", "$value": "{a}"}, "#
                + #""typography": {"body": {"$type": "typography", "$value": {"fontSize": "{a}"}}}}"#,
            "alias cycle"
        ),
        (
            #"{"typography": {"body": {"$type": "typography", "$value": {"fontFamily": "{fo{}nt.family.sans}"}}}}"#,
            "'{fo{}' is no alias"
        ),
    ])
    func unusableTokensFailImportAndCheckAlike(tokens: String, message: String) throws {
        let dir = try folder()
        try write(tokens, dir + "/t.json")
        let imported = try typeset(["theme", "import", dir + "/t.json", "-o", dir + "/theme.json"])
        #expect(imported.status == 1 && imported.output.contains(message), "\(imported.output)")
        #expect(allPositioned(imported.output, in: dir + "/t.json"), "\(imported.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/theme.json"))
        let checked = try typeset(["theme", "check", dir + "/t.json"])
        #expect(
            checked.status == 1 && checked.output.contains(message) && !checked.output.contains(": ok"),
            "\(checked.output)")
        #expect(allPositioned(checked.output, in: dir + "/t.json"), "\(checked.output)")
    }

    /// A `fontFolders` entry that is not a folder is found by `theme check` and by render alike,
    /// at the entry.
    @Test func missingFontFolderIsFoundByCheckAndRenderAlike() throws {
        let dir = try folder()
        try write(#"{ "name": "f", "extends": "default", "fontFolders": ["nofolder"] }"#, dir + "/f.json")
        try write("# Hi", dir + "/d.md")
        let expected = dir + "/f.json:1:54: fontFolders: 'nofolder' is not a folder"
        let checked = try typeset(["theme", "check", dir + "/f.json"])
        #expect(checked.status == 1 && checked.output.hasPrefix(expected), "\(checked.output)")
        let rendered = try typeset(["render", dir + "/d.md", "--theme", dir + "/f.json", "-o", dir + "/d.pdf"])
        #expect(rendered.status == 1 && rendered.output.hasPrefix(expected), "\(rendered.output)")
    }

    /// A weight a theme's role asks of an installed family that lacks it is said by `theme
    /// check`, at the role's `weight`: the weight used instead, or bold synthesized. Members: a
    /// light weight, a heavier one, a CJK family with two weights; a weight the family has is
    /// not said. It said nothing of any of them.
    @Test func aWeightTheFamilyLacksIsSaidByThemeCheck() throws {
        let dir = try folder()
        let theme = """
            {"name": "w", "roles": {
              "body": {"family": "DejaVu Serif", "weight": "thin"},
              "title": {"family": "DejaVu Serif", "weight": "semibold"},
              "headline": {"family": "Noto Sans CJK KR", "weight": 500},
              "caption": {"family": "DejaVu Serif", "weight": "bold"}
            }}
            """
        try write(theme, dir + "/w.json")
        let checked = try typeset(["theme", "check", dir + "/w.json"])
        let file = dir + "/w.json"
        #expect(checked.status == 0, "\(checked.output)")
        for expected in [
            ":2:38: warning: role Body: 'DejaVu Serif' lacks weight 100; using the nearest: 100 → 400",
            ":3:39: warning: role Title: 'DejaVu Serif' lacks weight 600; using the nearest: 600 → 700",
            ":4:46: warning: role Headline: 'Noto Sans CJK KR' lacks weight 500; using the nearest: 500 → 400",
        ] {
            #expect(checked.output.contains(file + expected), "\(checked.output)")
        }
        #expect(!checked.output.contains("Caption"), "\(checked.output)")
    }

    /// A family named with JSON escapes (`"Caf\u00e9 Sans"`, as Python's `json.dumps` writes
    /// it) is placed where the file writes it, as the same name written plainly is: the escaped
    /// name had no position.
    @Test func aNameWrittenWithEscapesIsPlaced() throws {
        let dir = try folder()
        for (name, written) in [("esc", #"Caf\u00e9 Sans"#), ("quote", #"A \"B\" Sans"#), ("plain", "Café Sans")] {
            try write(#"{"name":"e","roles":{"body":{"family":""# + written + #""}}}"#, dir + "/\(name).json")
            let checked = try typeset(["theme", "check", dir + "/\(name).json"])
            #expect(checked.output.hasPrefix(dir + "/\(name).json:1:39: "), "\(checked.output)")
        }
    }

    /// A line height without a unit up to 5 is a multiple of the size, as CSS's unitless
    /// `line-height` and design tokens read it (`1.5` was 1.5 pt, lines printed on each other);
    /// a larger one is pt. Values that still spoil the text are warned at their key, in theme
    /// files and tokens: a line height under 0.6 of the size, tracking or kerning past half the
    /// size (`-50` for `-0.5`).
    @Test func unitlessLineHeightsAreMultiplesAndIllegibleValuesAreWarned() throws {
        let dir = try folder()
        for (written, step) in [("1.5", 13.5), ("\"1.5\"", 13.5), ("18", 18.0), ("\"3pt\"", 3.0)] {
            try write(#"{"name":"l","roles":{"caption":{"lineHeight":"# + written + "}}}", dir + "/l.json")
            let shown = try typeset(["theme", "show", dir + "/l.json"]).output
            let caption = shown.split(separator: "\n").first { $0.contains("\"caption\"") } ?? ""
            let expected =
                step == 13.5 ? #""lineHeight": "150%""# : step == 3 ? #""lineHeight": "3pt""# : #""lineHeight": 18"#
            #expect(caption.contains(expected), "\(written): \(caption)")
        }
        for (theme, message) in [
            (#"{"name":"t","roles":{"caption2":{"tracking":-50}}}"#, ":1:45: warning: role Caption2: tracking -50 pt"),
            (#"{"name":"t","roles":{"body":{"tracking":"-60%"}}}"#, ":1:41: warning: role Body: tracking -6.3 pt"),
            (#"{"name":"t","roles":{"body":{"kerning":6}}}"#, ":1:40: warning: role Body: kerning 6 pt"),
            (#"{"name":"t","roles":{"body":{"lineHeight":"4pt"}}}"#, ":1:43: warning: role Body: lineHeight 4 pt"),
            (
                #"{"typography":{"body":{"$type":"typography","$value":{"fontSize":"16px","letterSpacing":"-20px"}}}}"#,
                ":1:89: warning: token 'typography.body': tracking -20 pt"
            ),
        ] {
            try write(theme, dir + "/t.json")
            let checked = try typeset(["theme", "check", dir + "/t.json"])
            #expect(checked.status == 0 && checked.output.contains(dir + "/t.json" + message), "\(checked.output)")
        }
    }

    /// `theme check` says warnings that say the same thing once, with their count, as `render`
    /// does; with `--quiet` it prints no warnings (the errors alone, which explain exit status 1).
    @Test func checkCoalescesWarningsAndQuietSilencesThem() throws {
        let dir = try folder()
        let keys = Array(repeating: #""notes": "n""#, count: 300).joined(separator: ", ")
        try write(#"{"name": "dup", "# + keys + "}", dir + "/dup.json")
        let checked = try typeset(["theme", "check", dir + "/dup.json"])
        let lines = checked.output.split(separator: "\n")
        #expect(checked.status == 0 && lines.count == 2, "\(checked.output)")
        #expect(checked.output.contains("written twice") && checked.output.contains("(299 like this in all"))
        let quiet = try typeset(["theme", "check", "-q", dir + "/dup.json"])
        #expect(quiet.status == 0 && quiet.output.isEmpty, "\(quiet.output)")
        try write(#"{"name": "bad", "rolez": {}, "notes": "a", "notes": "b"}"#, dir + "/bad.json")
        let failed = try typeset(["theme", "check", "-q", dir + "/bad.json"])
        #expect(failed.status == 1 && failed.output.contains("rolez") && !failed.output.contains("warning:"))
    }

    /// Problems in front matter, templates and token files point at their line and column.
    @Test func messagesCarryTheirPositions() throws {
        let dir = try folder()
        try write("---\ntitle: T\ntheme: nosuch\n---\n# x\n", dir + "/theme.md")
        let theme = try typeset(["render", dir + "/theme.md", "-o", dir + "/theme.pdf"])
        #expect(
            theme.status == 1 && theme.output.hasPrefix(dir + "/theme.md:3:8: front matter 'theme': "),
            "\(theme.output)")
        #expect(!theme.output.hasPrefix("typeset:"))

        try write("---\ntitle: T\nauthor: A\nlang: \"!!\"\n---\n# x\n", dir + "/lang.md")
        let lang = try typeset(["render", dir + "/lang.md", "-o", dir + "/lang.pdf"])
        #expect(
            lang.status == 0 && lang.output.contains(dir + "/lang.md:4:7: warning: front matter 'lang': '!!'"),
            "\(lang.output)")

        try write("Intro\n\n# {{nosuch}} here\n", dir + "/tpl.md")
        let unknown = try typeset(["specimen", "--template", dir + "/tpl.md", "-o", dir + "/s.pdf"])
        #expect(
            unknown.status == 0
                && unknown.output.contains(dir + "/tpl.md:3:3: warning: unknown template name 'nosuch'"),
            "\(unknown.output)")
        try write("Intro\n\nText {{ open\n", dir + "/open.md")
        let open = try typeset(["specimen", "--template", dir + "/open.md", "-o", dir + "/s.pdf"])
        #expect(
            open.status == 1 && open.output.hasPrefix(dir + "/open.md:3:6: '{{' without a closing '}}'"),
            "\(open.output)")

        try write(
            "{\n  \"typo\": {\n    \"body\": {\"type\": \"typography\", \"value\": {\"fontSize\": \"16px\"}},\n    "
                + "\"hero\": {\"type\": \"typography\", \"value\": {\"fontSize\": \"48px\"}}\n  }\n}\n",
            dir + "/ts.json")
        let tokens = try typeset(["theme", "import", dir + "/ts.json", "-o", dir + "/out.json"])
        #expect(
            tokens.status == 0
                && tokens.output.contains(dir + "/ts.json:4:5: warning: typography tokens not mapped to a role"),
            "\(tokens.output)")
    }

    /// Paper and margins are judged alike from an option, `-V` and front matter; an option's bad
    /// value (or a page the option leaves no room on) is a usage error naming the option.
    @Test func aSettingIsJudgedAlikeWhereverItComesFrom() throws {
        let dir = try folder()
        try write("# Hi", dir + "/d.md")
        func render(_ extra: [String], _ file: String = "/d.md") throws -> (status: Int32, output: String) {
            try typeset(["render", dir + file, "-o", dir + "/d.pdf"] + extra)
        }
        for (extra, mention) in [
            (["--paper", "zz"], "--paper"), (["-V", "paper=zz"], "-V paper"), (["--paper", "a10"], "--paper 'a10'"),
            (["--margins", "300mm"], "--margins '300mm'"), (["-V", "margins=300mm"], "-V margins"),
            (["--margins", "20"], "with a unit"), (["-V", "margins=20"], "with a unit"),
        ] {
            let result = try render(extra)
            #expect(result.status == 2 && result.output.contains(mention), "\(extra): \(result.output)")
        }
        for (key, value) in [("paper", "zz"), ("margins", "5"), ("size-category", "huge")] {
            try write("---\ntitle: T\n\(key): \(value)\n---\n# Hi", dir + "/fm.md")
            let result = try render([], "/fm.md")
            #expect(
                result.status == 1 && result.output.hasPrefix(dir + "/fm.md:3:\(key.count + 3): front matter '\(key)'"),
                "\(key): \(result.output)")
        }
        #expect(try render(["--margins", "0 20mm"]).status == 0)  // a bare 0, as CSS allows
        #expect(!FileManager.default.fileExists(atPath: dir + "/fm.pdf"))
    }

    /// `--size-adjust` must leave every role within the 1–1000 pt sizes every theme obeys.
    @Test func sizeAdjustmentKeepsSizesWithinTheLimits() throws {
        let dir = try folder()
        try write("# Hi", dir + "/d.md")
        for n in ["-1000", "1000"] {
            let result = try typeset([
                "render", dir + "/d.md", "-o", dir + "/d.pdf", "--family", "DejaVu Sans", "--size-adjust", n,
            ])
            #expect(result.status == 2 && result.output.contains("1–1000 pt"), "\(n): \(result.output)")
        }
        #expect(
            try typeset([
                "render", dir + "/d.md", "-o", dir + "/d.pdf", "--family", "DejaVu Sans", "--size-adjust", "2",
            ]).status == 0)
    }

    /// A `fontsize` that is itself within 1–1000 pt but scales the largest role past 1000 pt
    /// is refused with the largest fontsize that fits (Display is 3.81 times Body in the
    /// default theme); that size renders.
    @Test func aFontsizeThatScalesARolePastTheLimitSaysWhatFits() throws {
        let dir = try folder()
        try write("Hi", dir + "/d.md")
        let result = try typeset(["render", dir + "/d.md", "-o", dir + "/d.pdf", "-V", "fontsize=500pt"])
        let most = try #require(
            result.output.firstMatch(of: /fontsize at most (\d+) pt keeps every role within 1000 pt/)?.1,
            "\(result.output)")
        #expect(result.status != 0 && !FileManager.default.fileExists(atPath: dir + "/d.pdf"))
        let fits = try typeset(["render", dir + "/d.md", "-o", dir + "/d.pdf", "-q", "-V", "fontsize=\(most)pt"])
        #expect(fits.status == 0, "\(fits.output)")
        let over = try typeset(["render", dir + "/d.md", "-o", dir + "/e.pdf", "-V", "fontsize=\(Int(most)! + 1)pt"])
        #expect(over.status != 0, "\(over.output)")
    }

    /// Options are judged whatever the number of inputs, and conflicts say what conflicts.
    @Test func optionsAreJudgedWhateverTheInputs() throws {
        let dir = try folder()
        try write("# Hi", dir + "/d.md")
        for jobs in ["abc", "0"] {
            let result = try typeset(["render", dir + "/d.md", "-o", dir + "/d.pdf", "-j", jobs])
            #expect(result.status == 2 && result.output.contains("-j takes"), "\(jobs): \(result.output)")
        }
        let stdin = try typeset(["render", "-", "--output-dir", dir + "/sd"], stdin: Data("x".utf8))
        #expect(
            stdin.status == 2 && stdin.output.contains("-o FILE") && !stdin.output.contains("several"),
            "\(stdin.output)")
        let both = try typeset(["render", dir + "/d.md", "--output-dir", dir + "/a", "-o", dir + "/x.pdf"])
        #expect(both.status == 2 && both.output.contains("-o and --output-dir"), "\(both.output)")
    }

    /// Several inputs as page images: the progress lines name the files actually written.
    @Test func batchProgressNamesTheFilesWritten() throws {
        let dir = try folder()
        try write("# One", dir + "/d1.md")
        try write("# Two", dir + "/d2.md")
        let result = try typeset([
            "render", dir + "/d1.md", dir + "/d2.md", "-f", "png", "--output-dir", dir + "/mp", "-j", "1",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains(dir + "/mp/d1-1.png") && result.output.contains(dir + "/mp/d2-1.png"),
            "\(result.output)")
        #expect(!result.output.contains(".pdf"), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/mp/d1-1.png"))
    }

    /// A PNG page past Cairo's image limit is refused up front, with the numbers.
    @Test func pixelSizeIsCheckedAgainstCairosLimit() throws {
        let dir = try folder()
        try write("# Hi", dir + "/d.md")
        let result = try typeset([
            "render", dir + "/d.md", "-o", dir + "/d.png", "--paper", "a0", "-f", "png", "--dpi", "2400",
        ])
        #expect(
            result.status == 1 && result.output.contains("79465 × 112347 px") && result.output.contains("32767 px")
                && result.output.contains("--dpi 699 or less") && !result.output.contains("PDF"), "\(result.output)")
    }

    /// Warnings say what is true: a title-only document has its title block, a document of
    /// one note its note; a width above 100 % is too large, not "not a length".
    @Test func warningsSayWhatIsTrue() throws {
        let dir = try folder()
        try write("---\ntitle: X\n---\n", dir + "/title.md")
        let titled = try typeset(["render", dir + "/title.md", "-o", dir + "/t.pdf"])
        #expect(
            titled.output.contains("only the title block") && !titled.output.contains("empty page"), "\(titled.output)")
        #expect(try PDFProbe.text(dir + "/t.pdf").contains("X"))
        try write("", dir + "/empty.md")
        #expect(try typeset(["render", dir + "/empty.md", "-o", dir + "/e.pdf"]).output.contains("one empty page"))
        // A note cited only by itself is set: the page is not empty.
        try write("[^a]: def only\n[^a]\n", dir + "/note.md")
        let note = try typeset(["render", dir + "/note.md", "-o", dir + "/n.pdf"])
        #expect(!note.output.contains("empty page") && !note.output.contains("never cited"), "\(note.output)")
        #expect(try PDFProbe.text(dir + "/n.pdf").contains("def only"))
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/images/line-height.png", toPath: dir + "/p.png")
        try write("![x](p.png){width=200%}\n\n![y](p.png){width=-3px}\n", dir + "/w.md")
        let wide = try typeset(["render", dir + "/w.md", "-o", dir + "/w.pdf"])
        #expect(
            wide.output.contains("at most 100%, not '200%'") && wide.output.contains("must be more than 0, not '-3px'"),
            "\(wide.output)")
    }

    /// `typeset fonts` lists no family without faces: an alias names what it resolves to.
    @Test func fontsListsAliasesWithTheirTargets() throws {
        let result = try typeset(["fonts"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).last?.isEmpty == false },
            "a line with no faces")
        #expect(lines.contains { $0.hasPrefix("Sans\talias of ") } || !lines.contains { $0.hasPrefix("Sans\t") })
    }

    /// The command-line documentation (`docs/command-line.md`) and `--help` say the same of
    /// `--toc`, `--no-tags`, `--margins` and the JSON diagnostics' fields.
    @Test func commandLineDocumentationAndHelpAgree() throws {
        let readme = try String(contentsOfFile: Render.packageRoot + "/docs/command-line.md", encoding: .utf8)
        let help = try typeset(["render", "--help"]).output
        #expect(
            readme.contains("| `--toc` | a table of contents after the title block")
                && help.contains("a table of contents after the title block"))
        #expect(readme.contains("still writes an empty `/StructTreeRoot`"))
        #expect(readme.contains("each length needs a unit") && help.contains("each with a unit"))
        // The JSON report's fields: the documentation's row and the help's braces list the same, in order.
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `--diagnostics json` |") })
        let documentedFields = row.split(separator: "|").last!.split(separator: "`").enumerated().filter {
            $0.offset % 2 == 1
        }.map { String($0.element) }
        let braces = try #require(help.range(of: #"\{file, [a-z, ]+\}"#, options: .regularExpression))
        let helpFields = help[braces].dropFirst().dropLast().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(
            documentedFields == helpFields && helpFields.contains("kind"),
            "docs \(documentedFields), help \(helpFields)")
        // And the fields are those a JSON line really has.
        let dir = try folder()
        try write("![x](missing.png)\n", dir + "/j.md")
        let json = try typeset(["render", dir + "/j.md", "-o", dir + "/j.pdf", "--diagnostics", "json"]).output
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.split(separator: "\n")[0].utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(helpFields), "\(object.keys)")
    }
    /// A message that quotes a value holding line breaks (a YAML list, block or quoted scalar
    /// in front matter) is still one line: the breaks are written as `\\n`. Found by
    /// `make fuzz` (a `margins:` list whose items continue on further lines).
    @Test func aQuotedMultiLineValueKeepsItsMessageOnOneLine() throws {
        let dir = try folder()
        let cases: [(String, Int32)] = [
            ("margins:\n\n- delta item 0\n- romeo\n  item 1\n  - juliet item 7\n", 1),
            ("paper: |\n  a4\n  letter\n", 1),
            ("widows: \"3\\n4\"\n", 0),
            ("line-break: \"keep\\r\\nall\\u2028x\"\n", 0),
            ("size-category: >-\n  large\n\n  larger\n", 1),
        ]
        for (i, (yaml, status)) in cases.enumerated() {
            let path = dir + "/case-\(i).md"
            try write("---\n" + yaml + "---\n\nBody text.\n", path)
            let pdf = dir + "/case-\(i).pdf"
            let run = try typeset(["render", path, "-o", pdf])
            #expect(run.status == status, "case \(i): \(run.output)")
            // The message, and on success the page count line.
            let lines = run.output.split(separator: "\n").filter { !$0.hasPrefix(pdf + ": ") }
            #expect(lines.count == 1, "case \(i): \(run.output)")
            #expect(allPositioned(lines.joined(separator: "\n"), in: path), "case \(i): \(run.output)")
            // (The list of case 0 is joined with commas: YAML folds its items' continuation lines.)
            if i > 0 {
                #expect(
                    lines.first?.contains("\\n") == true || lines.first?.contains("\\r") == true,
                    "case \(i): the break is shown as an escape")
            }
        }
    }
}
