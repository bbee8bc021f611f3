import Foundation
import TestSupport
import Testing

/// gdk-pixbuf (raster pictures), librsvg (SVG pictures) and the highlighting library (KSyntaxHighlighting
/// and Qt 5) are not linked into `typeset`: each is loaded with `dlopen` the first time a document
/// needs it (docs/performance.md, "One page");
/// qpdf's library (and GnuTLS behind it) is never loaded: the tagging pass is Typeset's own. Read from the outside: the
/// dynamic loader's own log
/// (glibc `LD_DEBUG=files`) of what a run of the binary opens, and the PDF it writes.
@Suite(.serialized) struct LazyLibraryTests {
    /// The libraries loaded only on demand, by their file names' stems.
    static let lazy = ["libqpdf", "libgnutls", "libgdk_pixbuf", "librsvg"]

    /// Renders `markdown` with the binary under `LD_DEBUG=files`; returns the exit status, the
    /// file names of every shared object the run loaded (`file=NAME [ns];  needed by …` or
    /// `dynamically loaded by …`) and the PDF's path.
    static func render(_ markdown: String, name: String) throws -> (
        status: Int32, loaded: Set<String>, pdf: String, log: String
    ) {
        let folder = Render.folder + "/lazy-libraries"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for picture in ["line-height.png"] {
            let target = folder + "/" + picture
            if !FileManager.default.fileExists(atPath: target) {
                try FileManager.default.copyItem(
                    atPath: Render.packageRoot + "/templates/images/" + picture, toPath: target)
            }
        }
        let svg = folder + "/figure.svg"
        if !FileManager.default.fileExists(atPath: svg) {
            try FileManager.default.copyItem(
                atPath: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/figure.svg", toPath: svg)
        }
        let input = folder + "/\(name).md"
        let pdf = folder + "/\(name).pdf"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        // `env` sets the variable for the binary alone.
        let (status, log) = try PDFProbe.run("LD_DEBUG=files", [Render.binary, "render", input, "-o", pdf, "-q"])
        let names = log.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" })
        }
        return (status, Set(names), pdf, log)
    }

    /// KSyntaxHighlighting, Qt 5 and ICU, which `typeset` loads from libTypesetSyntaxHighlighting.so
    /// only when a document highlights code.
    static let highlighting = ["libTypesetSyntaxHighlighting", "libKF5SyntaxHighlighting", "libQt5Core"]

    /// Whether a shared object whose file name (a path's last component: `dlopen` names the
    /// whole path) starts with `stem` then `-` or `.` was loaded.
    static func loads(_ loaded: Set<String>, _ stem: String) -> Bool {
        loaded.contains { path in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return name.hasPrefix(stem + "-") || name.hasPrefix(stem + ".")
        }
    }

    /// Code that is not highlighted maps no part of Qt: a document without code blocks, one
    /// whose blocks name no language, one with highlighting off (front matter, and a block's
    /// `.nohighlight`), and one read with a theme file that names no code style.
    @Test func codeThatIsNotHighlightedLoadsNoQt() throws {
        let folder = Render.folder + "/lazy-libraries"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ##"{"name": "Plain", "colors": {"text": "#202020"}}"##.write(
            toFile: folder + "/plain-theme.json", atomically: false, encoding: .utf8)
        let documents = [
            ("no-code", "# Title\n\nA paragraph with `inline code` and [a span]{.python}.\n"),
            ("no-language", "Before.\n\n```\nlet x = 1\n```\n\n    indented();\n"),
            ("highlight-off", "---\nhighlight: false\n---\n\n```python\nprint(1)\n```\n\nAnd `print(2)`{.python}.\n"),
            ("nohighlight-block", "```{.python .nohighlight}\nprint(1)\n```\n"),
            ("theme-without-code", "---\ntheme: plain-theme.json\n---\n\nText.\n"),
        ]
        for (name, markdown) in documents {
            let run = try Self.render(markdown, name: name)
            #expect(run.status == 0, "\(name): \(run.log.suffix(2000))")
            #expect(Self.loads(run.loaded, "libpango"), "\(name): \(run.loaded.sorted())")
            for stem in Self.highlighting {
                #expect(!Self.loads(run.loaded, stem), "\(name): \(stem) was loaded: \(run.loaded.sorted())")
            }
        }
    }

    /// A block in a language the library knows loads it (and Qt), and is drawn in colours.
    @Test func aHighlightedBlockLoadsTheLibraryAndIsColoured() throws {
        let run = try Self.render(
            "```python\n# A comment.\ndef area(radius):\n    return 3.14 * radius ** 2, \"text\"\n```\n",
            name: "highlighted")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        for stem in Self.highlighting {
            #expect(Self.loads(run.loaded, stem), "\(stem) was not loaded: \(run.loaded.sorted())")
        }
        // `typeset` carries its Swift runtime; the library, which holds no Swift, loads no other.
        #expect(!Self.loads(run.loaded, "libswiftCore"), "\(run.loaded.sorted())")
        let colours = Set(try PDFColoredText.read(run.pdf).map(\.color))
        #expect(colours.count >= 4, "\(colours)")
        #expect(try PDFProbe.text(run.pdf).contains("def area(radius):"))
    }

    /// The binary copied alone, without the highlighting library beside it: code is set plain
    /// with one warning at the first block that asks for colour, saying what is missing (it was
    /// silent), and `theme check` says the library's code styles are missing with it, not that
    /// the style named is unknown; with the library, neither.
    @Test func withoutTheLibraryCodeIsPlainWithAWarning() throws {
        let folder = Render.folder + "/binary-alone"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let alone = folder + "/typeset"
        try FileManager.default.copyItem(atPath: Render.binary, toPath: alone)
        let input = folder + "/code.md"
        try "# Code\n\n```python\nprint(1)\n```\n\n```js\nlet x = 1\n```\n".write(
            toFile: input, atomically: false, encoding: .utf8)
        let plain = try PDFProbe.run(alone, ["render", input, "-o", folder + "/plain.pdf"])
        #expect(plain.status == 0)
        let warnings = plain.output.split(separator: "\n").filter { $0.contains("highlighting library") }
        #expect(warnings.count == 1 && warnings.first?.hasPrefix(input + ":3:1: warning:") == true, "\(plain.output)")
        let coloured = try PDFProbe.run(Render.binary, ["render", input, "-o", folder + "/coloured.pdf"])
        #expect(coloured.status == 0 && !coloured.output.contains("warning"), "\(coloured.output)")
        let theme = folder + "/theme.json"
        try #"{"extends": "default", "code": {"style": "github-light"}}"#.write(
            toFile: theme, atomically: false, encoding: .utf8)
        let check = try PDFProbe.run(alone, ["theme", "check", theme])
        #expect(check.status != 0 && check.output.contains("highlighting library"), "\(check.output)")
        #expect(try PDFProbe.run(Render.binary, ["theme", "check", theme]).status == 0)
    }

    @Test func aDocumentWithoutPicturesLoadsNoneOfThem() throws {
        let run = try Self.render(
            "# Title\n\nA paragraph with **bold**, `code` and 한국어 text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            name: "no-pictures")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        // The log is read at all: Pango and Cairo are linked and show up in it.
        #expect(Self.loads(run.loaded, "libpango") && Self.loads(run.loaded, "libcairo"), "\(run.loaded.sorted())")
        for stem in Self.lazy {
            #expect(!Self.loads(run.loaded, stem), "\(stem) was loaded: \(run.loaded.sorted())")
        }
        // Tagged by the streamed pass, which needs no qpdf.
        #expect(try PDFProbe.qpdfClean(run.pdf))
        #expect(try PDFProbe.run("pdfinfo", ["-struct-text", run.pdf]).output.contains("Title"))
    }

    @Test func aRasterPictureLoadsGdkPixbufAloneAndIsDrawn() throws {
        let run = try Self.render("Before.\n\n![A chart](line-height.png)\n\nAfter.\n", name: "raster")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        #expect(Self.loads(run.loaded, "libgdk_pixbuf"), "\(run.loaded.sorted())")
        #expect(!Self.loads(run.loaded, "librsvg") && !Self.loads(run.loaded, "libqpdf"), "\(run.loaded.sorted())")
        let images = try PDFProbe.run("pdfimages", ["-list", run.pdf]).output.split(separator: "\n").dropFirst(2)
        #expect(images.count == 1, "\(images)")
    }

    @Test func anSVGPictureLoadsLibrsvgAndIsDrawn() throws {
        let run = try Self.render("Before.\n\n![A figure](figure.svg)\n\nAfter.\n", name: "vector")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        #expect(Self.loads(run.loaded, "librsvg"), "\(run.loaded.sorted())")
        #expect(!Self.loads(run.loaded, "libqpdf"), "\(run.loaded.sorted())")
        // librsvg draws the figure's text through Pango: it is in the page's text.
        #expect(try PDFProbe.text(run.pdf).contains("Vector"))
    }
}
