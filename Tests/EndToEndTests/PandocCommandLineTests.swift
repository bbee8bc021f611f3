import Foundation
import TestSupport
import Testing

/// The command line Pandoc's and Typst's users already know — a positional output,
/// Pandoc's `-V` variables, help on every command, one exit-status rule for bad values.
@Suite(.serialized) struct PandocCommandLineTests {
    func folder() throws -> String { try Render.scratchFolder("pandoc-cli") }

    @Test func positionalOutputOnlyWhenUnambiguous() throws {
        let dir = try folder()
        try write("# Positional\n\nText.\n", dir + "/in.md")
        let first = try typeset(["render", dir + "/in.md", dir + "/out.pdf"])
        #expect(first.status == 0, "\(first.output)")
        #expect(try PDFProbe.text(dir + "/out.pdf").contains("Positional"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/output"), "nothing written to ./output")
        // out.pdf exists now: input or output? A usage error that names -o, and out.pdf is kept.
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.pdf"))
        let again = try typeset(["render", dir + "/in.md", dir + "/out.pdf"])
        #expect(again.status == 2 && again.output.contains("-o \(dir)/out.pdf"), "\(again.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.pdf")) == before)
        // With -o already given, or after two inputs, the same.
        let both = try typeset(["render", dir + "/in.md", dir + "/new.png", "-o", dir + "/x.pdf"])
        #expect(both.status == 2 && both.output.contains("-o \(dir)/new.png"), "\(both.output)")
        let many = try typeset(["render", dir + "/in.md", dir + "/in.md", dir + "/book.pdf"])
        #expect(many.status == 2 && many.output.contains("-o"), "\(many.output)")
        // The extension picks the format, as -o's does.
        let picture = try typeset(["render", dir + "/in.md", dir + "/shot.png"])
        #expect(picture.status == 0 && FileManager.default.fileExists(atPath: dir + "/shot-1.png"), "\(picture.output)")
    }

    @Test func pandocVariablesSetThePageAndTheType() throws {
        let dir = try folder()
        try write("Body words here.\n\n```\ncode line\n```\n", dir + "/v.md")
        let plain = try typeset(["render", dir + "/v.md", "-o", dir + "/plain.pdf", "-V", "mainfont=DejaVu Serif"])
        #expect(plain.status == 0, "\(plain.output)")
        let mapped = try typeset([
            "render", dir + "/v.md", "-o", dir + "/mapped.pdf", "-V", "papersize=a5paper", "-V", "geometry=margin=2cm",
            "-V", "fontsize=14pt", "-V", "linestretch=1.5", "-V", "mainfont=DejaVu Serif", "-V",
            "monofont=DejaVu Sans Mono", "-V", "lang=de",
        ])
        #expect(mapped.status == 0 && !mapped.output.contains("warning"), "\(mapped.output)")
        #expect(try PDFProbe.info(dir + "/mapped.pdf")["Page size"]?.hasPrefix("419.528 x 595.276") == true)
        let words = try PDFProbe.words(dir + "/mapped.pdf")
        let body = try #require(words.first { $0.text == "Body" })
        #expect(abs(body.xMin - 2 / 2.54 * 72) < 0.5, "2 cm left margin: \(body)")
        let plainBody = try #require(try PDFProbe.words(dir + "/plain.pdf").first { $0.text == "Body" })
        // 14 pt against the default theme's 10.5 pt Body: the word box grows by the same factor.
        #expect(abs(body.height / plainBody.height - 14 / 10.5) < 0.02, "\(body) \(plainBody)")
        let fonts = try PDFProbe.fonts(dir + "/mapped.pdf")
        #expect(fonts.contains { $0.contains("DejaVuSerif") } && fonts.contains { $0.contains("DejaVuSansMono") })
        // linestretch 1.5: consecutive lines of a long paragraph 1.5 times as far apart.
        try write(String(repeating: "Stretch the leading of every line. ", count: 40), dir + "/s.md")
        let steps = try ["1", "1.5"].map { stretch -> Double in
            let out = dir + "/s-\(stretch).pdf"
            #expect(try typeset(["render", dir + "/s.md", "-o", out, "-V", "linestretch=\(stretch)"]).status == 0)
            let lines = try PDFProbe.words(out).filter { $0.text == "Stretch" }.map(\.yMax)
            return lines[2] - lines[1]
        }
        #expect(abs(steps[1] / steps[0] - 1.5) < 0.02, "\(steps)")
    }

    /// `-V` as Pandoc reads it (`-V KEY[=VAL]`, `--variable=KEY[:VAL]`): the key ends at the
    /// first `=` or `:`, and a key alone is `true`. `-V geometry:margin=1in` warned that
    /// `geometry:margin` is no setting, `--variable=papersize:a5` and `-V toc` were usage
    /// errors. Members: a colon before an equals sign, a colon alone, keys alone (a setting, a
    /// flag Typeset does not read), an empty key.
    @Test func variablesAreReadAsPandocReadsThem() throws {
        let dir = try folder()
        try write("# One\n\nBody words here.\n\n# Two\n\nMore.\n", dir + "/v.md")
        let colon = try typeset([
            "render", dir + "/v.md", "-o", dir + "/colon.pdf", "-V", "geometry:margin=1in", "--variable=papersize:a5",
        ])
        #expect(colon.status == 0 && !colon.output.contains("warning"), "\(colon.output)")
        #expect(try PDFProbe.info(dir + "/colon.pdf")["Page size"]?.hasPrefix("419.528 x 595.276") == true)
        let body = try #require(try PDFProbe.words(dir + "/colon.pdf").first { $0.text == "Body" })
        #expect(abs(body.xMin - 72) < 0.5, "1 in left margin: \(body)")
        let alone = try typeset([
            "render", dir + "/v.md", "-o", dir + "/alone.pdf", "-V", "toc", "-V", "numbersections", "-V", "colorlinks",
        ])
        #expect(alone.status == 0, "\(alone.output)")
        #expect(alone.output.contains("-V colorlinks: not a setting"), "\(alone.output)")
        let text = try PDFProbe.text(dir + "/alone.pdf")
        #expect(text.contains("Contents") && text.contains("1 One") && text.contains("2 Two"), "\(text)")
        #expect(try typeset(["render", dir + "/v.md", "-o", dir + "/x.pdf", "-V", "=x"]).status == 2)
        #expect(try typeset(["render", dir + "/v.md", "-o", dir + "/x.pdf", "-V", ":x"]).status == 2)
    }

    /// Pandoc's page and type variables written in front matter set what `-V` sets: the same
    /// words at the same places in the same faces; `-V` wins over the front matter; a bad
    /// paper or geometry is an error at its value, a bad size or stretch a warning there.
    @Test func pandocVariablesInFrontMatterSetWhatTheOptionsSet() throws {
        let dir = try folder()
        let body = "Body words here.\n\n```\ncode line\n```\n"
        try write(body, dir + "/v.md")
        let settings = [
            ("papersize", "a5paper"), ("geometry", "margin=2cm"), ("fontsize", "14pt"), ("linestretch", "1.5"),
            ("mainfont", "DejaVu Serif"), ("monofont", "DejaVu Sans Mono"),
        ]
        let options = try typeset(
            ["render", dir + "/v.md", "-o", dir + "/options.pdf"] + settings.flatMap { ["-V", "\($0)=\($1)"] })
        #expect(options.status == 0, "\(options.output)")
        let front = "---\n" + settings.map { "\($0): \($1)\n" }.joined() + "---\n"
        try write(front + body, dir + "/f.md")
        let read = try typeset(["render", dir + "/f.md", "-o", dir + "/front.pdf"])
        #expect(read.status == 0 && !read.output.contains("warning"), "\(read.output)")
        func placed(_ pdf: String) throws -> [String] {
            try PDFProbe.words(pdf).map { "\($0.text) \(Int($0.xMin)) \(Int($0.yMin)) \(Int($0.height * 10))" }
        }
        #expect(try placed(dir + "/front.pdf") == placed(dir + "/options.pdf"))
        #expect(try PDFProbe.fonts(dir + "/front.pdf") == PDFProbe.fonts(dir + "/options.pdf"))
        #expect(try PDFProbe.info(dir + "/front.pdf")["Page size"] == PDFProbe.info(dir + "/options.pdf")["Page size"])
        // The command line wins.
        let letter = try typeset(["render", dir + "/f.md", "-o", dir + "/letter.pdf", "-V", "papersize=letter"])
        let letterSize = try PDFProbe.info(dir + "/letter.pdf")["Page size"] ?? ""
        #expect(letter.status == 0 && letterSize.hasPrefix("612 x 792"), "\(letterSize)")
        // Bad values, placed at the value.
        for (entry, column, status) in [
            ("papersize: a12", 12, 1), ("geometry: margin=wide", 11, 1), ("geometry: [top=1]", 11, 1),
            ("fontsize: banana", 11, 0), ("linestretch: 9", 14, 0),
            // A size the theme's scale cannot reach (its Display past 1000 pt): the render's error, at the value.
            ("fontsize: 300pt", 11, 1),
            // A family no font has: a warning at the value that named it.
            ("mainfont: No Such Sans", 11, 0), ("sansfont: No Such Sans", 11, 0), ("monofont: No Such Mono", 11, 0),
        ] {
            try write("---\n\(entry)\n---\nText.\n", dir + "/b.md")
            let result = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"])
            let key = String(entry.prefix { $0 != ":" })
            #expect(result.status == status, "\(entry): \(result.output)")
            #expect(result.output.contains("b.md:2:\(column): "), "\(entry): \(result.output)")
            #expect(result.output.contains("front matter '\(key)'"), "\(entry): \(result.output)")
        }
    }

    /// The geometry package's paper options (`a4paper`, `paper=`, `paperwidth=`, `landscape`)
    /// set the paper, its margin forms (`margin`, `hmargin={A,B}`, `lmargin`) the margins, and
    /// every other option (`includeheadfoot`, `showframe`, a misspelt key) is a warning at the
    /// value that names it, the document set; in front matter and in `-V`.
    @Test func geometrySetsThePaperAndTheMarginsAndWarnsOfTheRest() throws {
        let dir = try folder()
        for (geometry, size, left, ignored) in [
            ("[a5paper, landscape, margin=2cm, includeheadfoot]", "595.276 x 419.528", 56, ["includeheadfoot"]),
            ("\"letterpaper, hmargin={1in,2in}, vmargin=1in, showframe\"", "612 x 792", 72, ["showframe"]),
            ("\"paperwidth=6in, paperheight=9in, margin=1in\"", "432 x 648", 72, []),
            (
                "[paper=b5j, lmargin=3cm, rmargin=1cm, tmargin=1cm, bmargin=1cm, heightrounded, margn=1cm]",
                "515.906 x 728.504", 85, ["heightrounded", "margn=1cm"]
            ),
            ("\"margin={1in,2in}\"", "595.276 x 841.89", 72, []),
            ("[b5j, margin=1in]", "515.906 x 728.504", 72, []),
        ] {
            try write("---\ngeometry: \(geometry)\n---\n\nFirst words.\n", dir + "/g.md")
            let result = try typeset(["render", dir + "/g.md", "-o", dir + "/g.pdf"])
            #expect(result.status == 0, "\(geometry): \(result.output)")
            #expect(try PDFProbe.info(dir + "/g.pdf")["Page size"]?.hasPrefix(size) == true, "\(geometry)")
            let first = try #require(try PDFProbe.words(dir + "/g.pdf").first)
            #expect(Int(first.xMin) == left, "\(geometry): \(first.xMin)")
            let warnings = result.output.split(separator: "\n").filter { $0.contains("warning") }
            #expect(warnings.count == (ignored.isEmpty ? 0 : 1), "\(result.output)")
            for option in ignored {
                #expect(
                    warnings.first?.contains("g.md:2:11: warning: front matter 'geometry': option") == true
                        && warnings.first?.contains("'\(option)'") == true, "\(result.output)")
            }
        }
        let variables = try typeset([
            "render", dir + "/g.md", "-o", dir + "/v.pdf", "-V",
            "geometry=a5paper,hmargin={1in,2in},vmargin=1in,twoside",
        ])
        #expect(
            variables.status == 0 && variables.output.contains("-V geometry: option 'twoside'"), "\(variables.output)")
        #expect(try PDFProbe.info(dir + "/v.pdf")["Page size"]?.hasPrefix("419.528 x 595.276") == true)
        #expect(try Int(#require(try PDFProbe.words(dir + "/v.pdf").first).xMin) == 72)
        // `-V geometry` wins over the document's `geometry`; a YAML mapping is read as its options.
        try write("---\ngeometry: margin=1cm\n---\n\nText.\n", dir + "/o.md")
        let over = try typeset(["render", dir + "/o.md", "-o", dir + "/o.pdf", "-V", "geometry=margin=3cm"])
        let overLeft = try #require(try PDFProbe.words(dir + "/o.pdf").first).xMin
        #expect(over.status == 0 && Int(overLeft) == 85, "\(over.output)")
        try write("---\ngeometry:\n  margin: 1in\n  paper: a5paper\n---\n\nText.\n", dir + "/m.md")
        #expect(try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf"]).status == 0)
        #expect(try PDFProbe.info(dir + "/m.pdf")["Page size"]?.hasPrefix("419.528 x 595.276") == true)
        #expect(Int(try #require(try PDFProbe.words(dir + "/m.pdf").first).xMin) == 72)
        // `landscape` turns the paper `papersize` names; alone, it warns.
        try write("---\npapersize: a5\ngeometry: [landscape, margin=1in]\n---\n\nText.\n", dir + "/t.md")
        #expect(try typeset(["render", dir + "/t.md", "-o", dir + "/t.pdf"]).status == 0)
        #expect(try PDFProbe.info(dir + "/t.pdf")["Page size"]?.hasPrefix("595.276 x 419.528") == true)
        let turned = try typeset([
            "render", dir + "/g.md", "-o", dir + "/t.pdf", "-V", "geometry=landscape", "-V", "papersize=letter",
        ])
        #expect(turned.status == 0 && !turned.output.contains("warning"), "\(turned.output)")
        #expect(try PDFProbe.info(dir + "/t.pdf")["Page size"]?.hasPrefix("792 x 612") == true)
        try write("---\ngeometry: [landscape, margin=1in]\n---\n\nText.\n", dir + "/t.md")
        let alone = try typeset(["render", dir + "/t.md", "-o", dir + "/t.pdf"])
        #expect(
            alone.status == 0
                && alone.output.contains("t.md:2:11: warning: front matter 'geometry': option 'landscape'"),
            "\(alone.output)")
        // A paper no size names, or a length without a unit: an error at the value.
        for geometry in ["[paper=zz, margin=1cm]", "\"a4paper, hmargin={1in,2}\"", "paperwidth=6in"] {
            try write("---\ngeometry: \(geometry)\n---\n\nText.\n", dir + "/b.md")
            let result = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"])
            #expect(result.status == 1 && result.output.contains("b.md:2:11: "), "\(geometry): \(result.output)")
        }
    }

    /// A geometry that gives some sides only sets those, the others staying the theme's, as
    /// LaTeX's geometry package keeps its defaults for the sides not given (it was an error
    /// and no PDF). Members: `left` and `right`, `hmargin`, `top` alone, each in front matter
    /// and in `-V geometry`.
    @Test func aGeometryOfSomeSidesKeepsTheThemesOthers() throws {
        let dir = try folder()
        try write("First words of the text.\n", dir + "/plain.md")
        #expect(try typeset(["render", dir + "/plain.md", "-o", dir + "/plain.pdf"]).status == 0)
        let plain = try #require(try PDFProbe.words(dir + "/plain.pdf").first)
        for (geometry, left, topMoves) in [
            ("\"left=2cm,right=2cm\"", 56, false), ("hmargin=3cm", 85, false), ("top=1in", Int(plain.xMin), true),
        ] {
            try write("---\ngeometry: \(geometry)\n---\n\nFirst words of the text.\n", dir + "/g.md")
            let front = try typeset(["render", dir + "/g.md", "-o", dir + "/g.pdf"])
            let variable = try typeset([
                "render", dir + "/plain.md", "-o", dir + "/v.pdf", "-V",
                "geometry=" + geometry.trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
            ])
            for (result, pdf) in [(front, dir + "/g.pdf"), (variable, dir + "/v.pdf")] {
                #expect(result.status == 0 && !result.output.contains("unset"), "\(geometry): \(result.output)")
                let first = try #require(try PDFProbe.words(pdf).first)
                #expect(Int(first.xMin) == left, "\(geometry): \(first.xMin)")
                #expect((abs(first.yMin - plain.yMin) > 1) == topMoves, "\(geometry): \(first.yMin) / \(plain.yMin)")
            }
        }
    }

    @Test func unknownVariablesWarnAndBadValuesAreUsageErrors() throws {
        let dir = try folder()
        try write("Text.\n", dir + "/u.md")
        let unknown = try typeset(["render", dir + "/u.md", "-o", dir + "/u.pdf", "-V", "documentclass=report"])
        #expect(
            unknown.status == 0 && unknown.output.contains("typeset: warning: -V documentclass: not a setting"),
            "\(unknown.output)")
        let strict = try typeset(["render", dir + "/u.md", "-o", dir + "/s.pdf", "-V", "documentclass=x", "--strict"])
        #expect(strict.status == 2 && !FileManager.default.fileExists(atPath: dir + "/s.pdf"), "\(strict.output)")
        // Every bad value of an option or of a -V key is a usage error, exit 2, nothing written.
        for value in [
            "margins=20", "size-category=huge", "widows=abc", "toc=maybe", "line-break=q", "tab-size=99",
            "papersize=a12", "fontsize=big", "linestretch=0", "geometry=margin=wide", "geometry=top=1",
            "highlight=maybe", "math=maybe", "justify=sometimes", "hyphenate=2",
        ] {
            let result = try typeset(["render", dir + "/u.md", "-o", dir + "/bad.pdf", "-V", value])
            #expect(result.status == 2, "\(value): \(result.output)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad.pdf"), "\(value)")
        }
        // A size that pushes the theme's largest role past its limit, and an unknown field of a
        // running text: the message names the option, and says nothing of what a warning would do.
        for value in ["fontsize=300pt", "header={bad}"] {
            let result = try typeset(["render", dir + "/u.md", "-o", dir + "/bad.pdf", "-V", value])
            let key = String(value.prefix { $0 != "=" })
            #expect(result.status == 2, "\(value): \(result.output)")
            #expect(result.output.contains("-V \(key)") && !result.output.contains("printed as written"), "\(value)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/bad.pdf"), "\(value)")
        }
        #expect(try typeset(["render", dir + "/u.md", "-o", dir + "/bad.pdf", "--size-category", "huge"]).status == 2)
        // A family -V names but no font has is warned about under the option's name.
        let family = try typeset(["render", dir + "/u.md", "-o", dir + "/f.pdf", "-V", "mainfont=Nope"])
        #expect(
            family.status == 0 && family.output.contains("warning: -V mainfont: family 'Nope' not found"),
            "\(family.output)")
    }

    @Test func helpOnEveryCommandAndSubcommand() throws {
        let theme = try typeset(["help", "theme"])
        #expect(theme.status == 0, "\(theme.output)")
        for sub in ["import", "check", "list", "show"] {
            #expect(theme.output.contains("usage: typeset theme \(sub)"), "\(theme.output)")
            let own = try typeset(["theme", sub, "--help"])
            #expect(own.status == 0 && own.output.hasPrefix("usage: typeset theme \(sub)"), "\(own.output)")
            #expect(try typeset(["help", "theme", sub]).output == own.output)
        }
        #expect(try typeset(["theme", "--help"]).output == theme.output)
        for command in ["render", "watch", "specimen", "fonts", "completions"] {
            let help = try typeset(["help", command])
            #expect(help.status == 0 && help.output.hasPrefix("usage: typeset \(command)"), "\(help.output)")
        }
        #expect(try typeset(["help", "render"]).output.contains("2 a usage error"))
        #expect(try typeset(["--help"]).output.contains("2 a usage error"))
        #expect(try typeset(["help", "nosuch"]).status == 2)
        // A usage error points at the help of the command that was run.
        #expect(try typeset(["theme", "import"]).output.contains("(see 'typeset theme import --help')"))
        #expect(try typeset(["render", "x.md", "--bogus"]).output.contains("(see 'typeset render --help')"))
        #expect(try typeset(["nosuch"]).output.contains("(see 'typeset --help')"))
        // A specimen has no input: its help says where its output goes instead.
        let specimen = try typeset(["specimen", "--help"]).output
        #expect(specimen.contains("specimen-THEME.pdf") && !specimen.contains("INPUT"), "\(specimen)")
        let template = try typeset(["specimen", "--template", "theme", "-o", try folder() + "/s.pdf"])
        #expect(template.status == 1 && template.output.contains("the specimen template"), "\(template.output)")
    }

    @Test func verboseListsUnusedFrontMatterKeysOnce() throws {
        let dir = try folder()
        try write("---\ntitle: Post\nlayout: post\ntags: [a]\n---\n\nText.\n", dir + "/p.md")
        let quiet = try typeset(["render", dir + "/p.md", "-o", dir + "/p.pdf", "--strict"])
        #expect(quiet.status == 0 && !quiet.output.contains("layout"), "\(quiet.output)")
        let verbose = try typeset(["render", dir + "/p.md", "-o", dir + "/p.pdf", "--verbose"])
        #expect(verbose.status == 0, "\(verbose.output)")
        let lines = verbose.output.split(separator: "\n").filter { $0.contains("layout") }
        #expect(lines.count == 1 && lines[0].contains("layout, tags"), "\(verbose.output)")
    }
}
