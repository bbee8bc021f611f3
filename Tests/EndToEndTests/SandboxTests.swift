import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Hostile documents under a root (`--root DIR`, `RenderOptions.root`): every path a document
/// names — images (Markdown and HTML `<img>`), a front-matter `theme:`, that theme's
/// `fontFolders`, `include:` — is read only when it lies inside the root once `..` and
/// symbolic links are resolved. Whether a file was read is told from the PDF (`pdfimages
/// -list` counts embedded pictures), and each refusal is checked against the same document
/// rendered with the file allowed, so every assertion can fail.
@Suite(.serialized) struct SandboxTests {
    /// Runs `typeset` under `timeout 60` (GNU coreutils): status 124 means it hung.
    func typeset(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PDFProbe.run("timeout", ["60", Render.binary] + arguments)
    }

    /// How many pictures `pdf` embeds (`pdfimages -list`: two header lines, then one a picture).
    func imageCount(_ pdf: String) throws -> Int {
        let lines = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n")
        return max(0, lines.count - 2)
    }

    /// A root folder holding `doc.md`'s folder, and a picture outside it (in another folder of
    /// the temporary folder, so neither the root nor the current folder holds it).
    func layout(_ name: String) throws -> (root: String, outside: String, picture: String) {
        let root = try Render.scratchFolder("sandbox-\(name)")
        // A short name: a warning quotes an image path of up to 60 characters whole.
        let outside = try Render.scratchFolder("out")
        let picture = outside + "/secret.png"
        try Support.tinyPNG.write(to: URL(fileURLWithPath: picture))
        return (root, outside, picture)
    }

    /// The warnings of `markdown` rendered through the library as `root`/doc.md to
    /// `root`/doc.pdf, with `root` as ``RenderOptions/root``.
    func confinedWarnings(_ markdown: String, root: String) throws -> [String] {
        var options = RenderOptions()
        options.root = URL(fileURLWithPath: root)
        let report = try Typesetter.render(
            markdown: markdown, file: root + "/doc.md", to: root + "/doc.pdf", options: options)
        return report.diagnostics.map(\.description)
    }

    /// An absolute path, a `../` escape, a symbolic link inside the root pointing out and an
    /// HTML `<img>`: each is a placeholder with a warning at its address, nothing embedded; with
    /// `--root /` (everything allowed) the same document embeds all four.
    @Test func imagesOutsideTheRootAreNotRead() throws {
        let (root, outside, picture) = try layout("images")
        try FileManager.default.createSymbolicLink(atPath: root + "/link.png", withDestinationPath: picture)
        let escape = "../" + (outside as NSString).lastPathComponent + "/secret.png"
        let cases: [(source: String, markdown: String, line: Int)] = [
            (picture, "![absolute](\(picture))", 3),
            (escape, "![escape](\(escape))", 3),
            ("link.png", "![linked](link.png)", 3),
            (picture, "<img src=\"\(picture)\" alt=\"html\">", 3),
        ]
        for (index, item) in cases.enumerated() {
            let document = root + "/doc\(index).md"
            try "Before.\n\n\(item.markdown)\n\nAfter.\n".write(toFile: document, atomically: false, encoding: .utf8)
            let refused = try typeset(["render", document, "-o", root + "/refused\(index).pdf"])
            #expect(refused.status == 0, "\(refused.output)")
            // At the address, as every image warning is.
            let column = item.markdown[..<item.markdown.range(of: item.source)!.lowerBound].utf8.count + 1
            #expect(
                refused.output.contains(
                    "doc\(index).md:\(item.line):\(column): warning: image '\(item.source)' is outside"),
                "\(refused.output)")
            #expect(try imageCount(root + "/refused\(index).pdf") == 0, "\(item.markdown) was read")
            let text = try PDFProbe.text(root + "/refused\(index).pdf")
            #expect(text.contains("Before.") && text.contains("After."), "\(text)")
            let explicit = try typeset(["render", document, "-o", root + "/root\(index).pdf", "--root", root])
            #expect(explicit.output.contains("is outside"), "--root \(root): \(explicit.output)")
            #expect(try imageCount(root + "/root\(index).pdf") == 0)
            let allowed = try typeset(["render", document, "-o", root + "/allowed\(index).pdf", "--root", "/"])
            #expect(allowed.status == 0 && !allowed.output.contains("outside"), "\(allowed.output)")
            #expect(try imageCount(root + "/allowed\(index).pdf") == 1, "\(item.markdown) with --root /")
        }
    }

    /// Without `--root`, the current folder is allowed beside the input's folder, but not when
    /// it is `/` (where system services start), which would allow every file: a picture named
    /// by its absolute path outside the input's folder is embedded from its own folder as the
    /// current one and refused from `/`. Members: an absolute image path, a `theme:` outside.
    @Test func theCurrentFolderIsNoRootWhenItIsTheFilesystemsRoot() throws {
        let (root, outside, picture) = try layout("cwd")
        try #"{"name": "outside", "extends": "default", "page": {"paper": "a5"}}"#.write(
            toFile: outside + "/theme.json", atomically: false, encoding: .utf8)
        try "# Doc\n\n![absolute](\(picture))\n".write(toFile: root + "/doc.md", atomically: false, encoding: .utf8)
        try "---\ntheme: \(outside)/theme.json\n---\n\nText.\n".write(
            toFile: root + "/themed.md", atomically: false, encoding: .utf8)
        func render(_ name: String, from folder: String) throws -> (status: Int32, output: String) {
            try PDFProbe.run(
                "sh",
                [
                    "-c", "cd \"$1\" && exec timeout 60 \"$2\" render \"$3\" -o \"$4\"", "sh", folder, Render.binary,
                    root + "/\(name).md", root + "/\(name)-\(folder == "/" ? "slash" : "here").pdf",
                ])
        }
        let here = try render("doc", from: outside)
        #expect(here.status == 0 && !here.output.contains("outside"), "\(here.output)")
        #expect(try imageCount(root + "/doc-here.pdf") == 1)
        let slash = try render("doc", from: "/")
        #expect(slash.status == 0 && slash.output.contains("outside"), "\(slash.output)")
        #expect(try imageCount(root + "/doc-slash.pdf") == 0)
        #expect(try render("themed", from: outside).status == 0)
        let themed = try render("themed", from: "/")
        #expect(themed.status == 1 && themed.output.contains("outside"), "\(themed.output)")
        // Standard input read from `/` (whose folder is the current one) reads no file either.
        for name in ["doc", "themed"] {
            let piped = try PDFProbe.run(
                "sh",
                [
                    "-c", "cd / && exec timeout 60 \"$1\" render - -o \"$2\" < \"$3\"", "sh", Render.binary,
                    root + "/\(name)-stdin.pdf", root + "/\(name).md",
                ])
            #expect(piped.output.contains("outside"), "\(name): \(piped.output)")
            #expect(!piped.output.contains("invalid JSON"), "\(name): \(piped.output)")
        }
        #expect(try imageCount(root + "/doc-stdin.pdf") == 0)
    }

    /// A picture inside a line that is shown as its alt text says why, as a picture of its
    /// own does: outside the root, missing, a folder, a FIFO, or no picture a decoder reads
    /// ("could not be read" for every one of them before).
    @Test func anInlinePictureShownAsItsAltTextSaysWhy() throws {
        let (root, outside, _) = try layout("inline-why")
        let escape = "../" + (outside as NSString).lastPathComponent + "/secret.png"
        try FileManager.default.createDirectory(atPath: root + "/folder.png", withIntermediateDirectories: true)
        try "not a picture".write(toFile: root + "/text.png", atomically: false, encoding: .utf8)
        #expect(mkfifo(root + "/fifo.png", 0o600) == 0)
        let cases: [(source: String, why: String)] = [
            (escape, "is outside the folders this render may read (\(root)), not read"),
            ("missing.png", "could not be read (no such file)"),
            ("folder.png", "could not be read (it is a folder)"),
            ("fifo.png", "could not be read (it is a FIFO"),
            ("text.png", "is not in a format"),
        ]
        for item in cases {
            let warnings = try confinedWarnings("Text ![alt](\(item.source)) in a line.\n", root: root)
            let expected = root + "/doc.md:1:13: warning: image '\(item.source)' inside a line of text \(item.why)"
            #expect(warnings.contains { $0.hasPrefix(expected) && $0.contains("shown as its alt text") }, "\(warnings)")
        }
    }

    /// A picture inside the root (beside the document, in a subfolder, through a link that
    /// stays inside) is embedded; `--resource-path` is allowed as the user named it.
    @Test func imagesInsideTheRootAreEmbedded() throws {
        let (root, outside, _) = try layout("inside")
        try FileManager.default.createDirectory(atPath: root + "/pictures", withIntermediateDirectories: true)
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/pictures/a.png"))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/b.png", withDestinationPath: root + "/pictures/a.png")
        let markdown = "![one](pictures/a.png)\n\n![two](b.png)\n\n![three](\(root)/pictures/../pictures/a.png)\n"
        try markdown.write(toFile: root + "/doc.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", root + "/doc.md", "-o", root + "/doc.pdf", "--root", root])
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
        #expect(try imageCount(root + "/doc.pdf") == 3)
        try "![res](secret.png)\n".write(toFile: root + "/res.md", atomically: false, encoding: .utf8)
        let resources = try typeset([
            "render", root + "/res.md", "-o", root + "/res.pdf", "--root", root, "--resource-path", outside,
        ])
        #expect(resources.status == 0 && !resources.output.contains("outside"), "\(resources.output)")
        #expect(try imageCount(root + "/res.pdf") == 1)
    }

    /// `theme: /etc/passwd` and a theme file outside the root: an error at the `theme:` line
    /// that quotes nothing of the file; a theme inside the root whose `fontFolders` lead out is
    /// an error too. The same theme file given with `--theme` (the user's own choice) is read.
    @Test func themesOutsideTheRootAreErrorsThatQuoteNothing() throws {
        let (root, outside, _) = try layout("themes")
        let marker = "SECRET-MARKER-\(UUID().uuidString.prefix(8))"
        try "{\"name\": \"\(marker)\", \"bogus\": \"\(marker)\"}".write(
            toFile: outside + "/theme.json", atomically: false, encoding: .utf8)
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
        let firstLine = String(passwd.split(separator: "\n").first ?? "root:x:0:0")
        for (theme, secret) in [("/etc/passwd", firstLine), (outside + "/theme.json", marker)] {
            try "---\ntitle: T\ntheme: \(theme)\n---\n\n# Hi\n".write(
                toFile: root + "/doc.md", atomically: false, encoding: .utf8)
            let result = try typeset(["render", root + "/doc.md", "-o", root + "/doc.pdf"])
            #expect(result.status == 1, "\(result.output)")
            #expect(
                result.output.contains("doc.md:3:") && result.output.contains("front matter 'theme'")
                    && result.output.contains("is outside"), "\(result.output)")
            #expect(!result.output.contains(secret) && !result.output.contains(String(secret.prefix(6))))
            #expect(!FileManager.default.fileExists(atPath: root + "/doc.pdf"))
        }
        // The control: read when allowed, the file's own problem named (so the refusal above is the sandbox).
        let allowed = try typeset(["render", root + "/doc.md", "-o", root + "/doc.pdf", "--root", "/"])
        #expect(allowed.status == 1 && allowed.output.contains("bogus"), "\(allowed.output)")
        try "{\"fontFolders\": [\"\(outside)\"]}".write(
            toFile: root + "/fonts.json", atomically: false, encoding: .utf8)
        try "---\ntheme: fonts.json\n---\n\n# Hi\n".write(toFile: root + "/f.md", atomically: false, encoding: .utf8)
        let fonts = try typeset(["render", root + "/f.md", "-o", root + "/f.pdf"])
        #expect(fonts.status == 1 && fonts.output.contains("fontFolders") && fonts.output.contains("is outside"))
        let given = try typeset(["render", root + "/f.md", "-o", root + "/f.pdf", "--theme", root + "/fonts.json"])
        #expect(given.status == 0, "\(given.output)")
    }

    /// `include:` follows the same root: a chapter beside the book's folder is refused by
    /// default (the input's folder) and read when `--root` holds it; `../` past the root is refused.
    @Test func includesFollowTheRoot() throws {
        let (root, _, _) = try layout("includes")
        try FileManager.default.createDirectory(atPath: root + "/book", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        try "# Shared\n\nShared text.\n".write(toFile: root + "/shared/ch.md", atomically: false, encoding: .utf8)
        try "---\ninclude: [../shared/ch.md]\n---\n\n# Main\n".write(
            toFile: root + "/book/main.md", atomically: false, encoding: .utf8)
        let refused = try typeset(["render", root + "/book/main.md", "-o", root + "/a.pdf"])
        #expect(refused.status == 1 && refused.output.contains("main.md:2:") && refused.output.contains("outside"))
        let rooted = try typeset(["render", root + "/book/main.md", "-o", root + "/b.pdf", "--root", root])
        #expect(rooted.status == 0, "\(rooted.output)")
        #expect(try PDFProbe.text(root + "/b.pdf").contains("Shared text."))
        let escaping = try typeset(["render", root + "/book/main.md", "-o", root + "/c.pdf", "--root", root + "/book"])
        #expect(escaping.status == 1 && escaping.output.contains("outside"), "\(escaping.output)")
    }

    /// `/dev/zero` (outside the root) and a FIFO inside it, as image and as theme: refused at
    /// once. Each run takes at most a few times an ordinary render of the same size.
    @Test func devicesAndFIFOsAreRefusedAtOnce() throws {
        let (root, _, _) = try layout("devices")
        #expect(mkfifo(root + "/pipe.png", 0o644) == 0)
        #expect(mkfifo(root + "/pipe.json", 0o644) == 0)
        try "# Plain\n\nText.\n".write(toFile: root + "/plain.md", atomically: false, encoding: .utf8)
        let ordinary = try Timing.bestSeconds(of: 2) {
            _ = try typeset(["render", root + "/plain.md", "-o", root + "/plain.pdf"])
        }
        let documents = [
            "![zero](/dev/zero)\n", "![pipe](pipe.png)\n", "---\ntheme: /dev/zero\n---\n\n# Hi\n",
            "---\ntheme: pipe.json\n---\n\n# Hi\n",
        ]
        for (index, markdown) in documents.enumerated() {
            try markdown.write(toFile: root + "/h\(index).md", atomically: false, encoding: .utf8)
            var result: (status: Int32, output: String) = (0, "")
            let seconds = try Timing.bestSeconds(of: 1) {
                result = try typeset(["render", root + "/h\(index).md", "-o", root + "/h\(index).pdf"])
            }
            #expect(result.status != 124, "\(markdown) hung")
            #expect(
                result.output.contains("outside") || result.output.contains("not a regular file"), "\(result.output)")
            #expect(seconds < 3 * ordinary + 0.5, "\(markdown): \(seconds) s against \(ordinary) s")
        }
    }

    /// The library: `RenderOptions.root` confines images and front-matter themes as `--root`
    /// does; without a root the same document embeds the picture (the caller's choice).
    @Test func theLibraryConfinesWithRoot() throws {
        let (root, _, picture) = try layout("library")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/inside.png"))
        let markdown = "![inside](inside.png)\n\n![outside](\(picture))\n"
        var options = RenderOptions()
        options.root = URL(fileURLWithPath: root)
        let warnings = try confinedWarnings(markdown, root: root)
        #expect(warnings.contains { $0.contains("doc.md:3:1") && $0.contains("is outside") }, "\(warnings)")
        #expect(try imageCount(root + "/doc.pdf") == 1)
        let open = try Typesetter.render(
            markdown: markdown, file: root + "/doc.md", to: root + "/open.pdf", options: RenderOptions())
        #expect(!open.diagnostics.contains { $0.description.contains("outside") })
        #expect(try imageCount(root + "/open.pdf") == 2)
        let theme = "---\ntheme: /etc/passwd\n---\n\n# Hi\n"
        #expect {
            try Typesetter.render(markdown: theme, file: root + "/t.md", to: root + "/t.pdf", options: options)
        } throws: { error in
            let text = String(describing: error)
            return text.contains("t.md:2:") && text.contains("is outside") && !text.contains("root:x")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/t.pdf"))
        // A root that is no file URL names no folder: it allows nothing (it was read as `/`).
        for url in [URL(string: "https://example.com/")!, URL(string: "ftp://example.com" + root)!] {
            var remote = RenderOptions()
            remote.root = url
            let report = try Typesetter.render(
                markdown: markdown, file: root + "/doc.md", to: root + "/remote.pdf", options: remote)
            #expect(
                report.diagnostics.contains {
                    $0.description.contains("doc.md:1:1") && $0.description.contains("outside")
                }, "\(url): \(report.diagnostics)")
            #expect(try imageCount(root + "/remote.pdf") == 0)
        }
    }

    /// A text with no file of its own (the in-memory render's `<memory>`) resolves its paths
    /// against the root when one is set, as it may read nothing else: a picture and a theme
    /// beside it in the root are read, one outside it is not, and a `baseDirectory` given
    /// still wins.
    @Test func aTextWithoutAFileResolvesAgainstTheRoot() throws {
        let (root, _, picture) = try layout("memory")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/inside.png"))
        try #"{"name": "Inside", "roles": {"Body": {"size": 12}}}"#.write(
            toFile: root + "/inside.json", atomically: false, encoding: .utf8)
        var options = RenderOptions()
        options.root = URL(fileURLWithPath: root)
        let markdown = "---\ntheme: inside.json\n---\n\n![inside](inside.png)\n\n![outside](\(picture))\n"
        let rendered = try Typesetter.render(markdown: markdown, options: options)
        let warnings = rendered.diagnostics.map(\.description)
        #expect(warnings.count == 1 && warnings[0].contains("<memory>:7:1") && warnings[0].contains("is outside"))
        try rendered.data.write(to: URL(fileURLWithPath: root + "/memory.pdf"))
        #expect(try imageCount(root + "/memory.pdf") == 1)

        options.baseDirectory = root + "/elsewhere"
        let based = try Typesetter.render(markdown: "![inside](inside.png)\n", options: options)
        #expect(based.diagnostics.contains { $0.description.contains("inside.png") }, "\(based.diagnostics)")
    }

    /// The title block's values are styled as the document is: a picture in the title or the
    /// abstract is read from the document's folder (not the current one) and never outside
    /// the root (a placeholder and a warning where the abstract's block writes it).
    @Test func theTitleBlocksPicturesStayInsideTheRoot() throws {
        let (root, _, picture) = try layout("abstract")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/inside.png"))
        let markdown =
            "---\ntitle: A ![mark](inside.png) title\nabstract: |\n  ![inside](inside.png)\n\n"
            + "  ![outside](\(picture))\n---\n\nBody.\n"
        let warnings = try confinedWarnings(markdown, root: root)
        #expect(warnings.contains { $0.contains("doc.md:6:3:") && $0.contains("is outside") }, "\(warnings)")
        #expect(try imageCount(root + "/doc.pdf") == 2, "the title's and the abstract's own")
    }
}
