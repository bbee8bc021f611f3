import Foundation
import TestSupport
import Testing

/// Symbolic links inside the root that lead out of it: a theme's font folder holding a link to
/// a font, to a folder or to `/` outside registers nothing from outside, and a link named by
/// the document (image, theme, include) gets the words of any other path outside, whether or
/// not its target exists.
extension SandboxTests {
    /// The test font (family "Typeset Test Serif"), which no system has installed.
    static let testFont = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/fonts/TypesetTestSerif-Regular.ttf"

    /// A theme whose `fontFolders` is `folder` and whose text is set in the test font, and a
    /// document that names it, in `root`; returns the document's path.
    func fontDocument(_ root: String, folder: String) throws -> String {
        let theme =
            "{\"extends\": \"default\", \"fontFolders\": [\"\(folder)\"], "
            + "\"families\": {\"sans\": [\"Typeset Test Serif\", \"DejaVu Sans\"]}}"
        try theme.write(toFile: root + "/\(folder).json", atomically: false, encoding: .utf8)
        let document = root + "/\(folder).md"
        try "---\ntheme: \(folder).json\n---\n\nText set in the theme's font.\n".write(
            toFile: document, atomically: false, encoding: .utf8)
        return document
    }

    /// A font folder inside the root holding a link to the font outside, a link to the folder
    /// outside that holds it, or a link to `/`, registers nothing from outside: the PDF embeds
    /// no face of the test font, and the walk of `/` is not made (it ends at once). The same
    /// font copied inside the root is embedded, and with `--root /` the link is followed, so
    /// each refusal is the sandbox's.
    @Test func fontFolderLinksOutOfTheRootRegisterNothing() throws {
        let (root, outside, _) = try layout("font-links")
        try FileManager.default.copyItem(atPath: Self.testFont, toPath: outside + "/secret.ttf")
        let manager = FileManager.default
        for folder in ["fonts1", "fonts2", "fonts3", "fonts4"] {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try manager.createSymbolicLink(atPath: root + "/fonts1/x.ttf", withDestinationPath: outside + "/secret.ttf")
        try manager.createSymbolicLink(atPath: root + "/fonts2/sub", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: root + "/fonts3/rootfs", withDestinationPath: "/")
        try manager.copyItem(atPath: Self.testFont, toPath: root + "/fonts4/own.ttf")
        for folder in ["fonts1", "fonts2", "fonts3"] {
            let document = try fontDocument(root, folder: folder)
            let start = Date()
            let result = try typeset(["render", document, "--root", root, "-o", root + "/\(folder).pdf"])
            let seconds = Date().timeIntervalSince(start)
            #expect(result.status == 0, "\(folder): \(result.output)")
            #expect(seconds < 15, "\(folder): \(seconds) s")
            let fonts = try PDFProbe.fonts(root + "/\(folder).pdf")
            #expect(!fonts.contains { $0.contains("TypesetTestSerif") }, "\(folder): \(fonts)")
        }
        let own = try typeset([
            "render", try fontDocument(root, folder: "fonts4"), "--root", root, "-o", root + "/4.pdf",
        ])
        #expect(own.status == 0, "\(own.output)")
        #expect(try PDFProbe.fonts(root + "/4.pdf").contains { $0.contains("TypesetTestSerif") })
        let trusted = try typeset(["render", root + "/fonts1.md", "--root", "/", "-o", root + "/trusted.pdf"])
        #expect(trusted.status == 0, "\(trusted.output)")
        #expect(try PDFProbe.fonts(root + "/trusted.pdf").contains { $0.contains("TypesetTestSerif") })
    }

    /// A link in the root to a file outside and a link to a missing file outside (absolute or
    /// relative, directly or through a second link) are told apart by nothing: as images, as a
    /// front-matter `theme:` and as an `include:`, each gets the words any path outside gets.
    /// A file missing inside the root is still said to be missing.
    @Test func linksOutOfTheRootAreOutsideWhetherOrNotTheirTargetExists() throws {
        let (root, outside, picture) = try layout("dangling")
        try "{\"name\": \"x\"}".write(toFile: outside + "/theme.json", atomically: false, encoding: .utf8)
        try "# Outside\n".write(toFile: outside + "/chapter.md", atomically: false, encoding: .utf8)
        let escape = "../" + (outside as NSString).lastPathComponent
        let links: [(name: String, target: String)] = [
            ("existing", picture), ("dangling", outside + "/missing.png"), ("relative", escape + "/missing.png"),
            ("chain", "hop"), ("hop", outside + "/gone.png"), ("theme-existing", outside + "/theme.json"),
            ("theme-dangling", outside + "/missing.json"), ("chapter-existing", escape + "/chapter.md"),
            ("chapter-dangling", escape + "/missing.md"),
        ]
        for link in links {
            try FileManager.default.createSymbolicLink(atPath: root + "/" + link.name, withDestinationPath: link.target)
        }
        // Images: every link is the same warning with its own name, none "not found".
        let images = ["existing", "dangling", "relative", "chain"].map { "![\($0)](\($0))" }
        try (images + ["![inside](absent.png)"]).joined(separator: "\n\n").write(
            toFile: root + "/images.md", atomically: false, encoding: .utf8)
        let rendered = try typeset(["render", root + "/images.md", "--root", root, "-o", root + "/images.pdf"])
        #expect(rendered.status == 0, "\(rendered.output)")
        #expect(rendered.output.contains("(4 like this in all;"), "\(rendered.output)")
        #expect(rendered.output.contains("image 'existing' is outside the folders"), "\(rendered.output)")
        #expect(rendered.output.contains("image 'absent.png' not found"), "\(rendered.output)")
        #expect(!rendered.output.contains("image 'dangling' not found"), "\(rendered.output)")
        // Themes and includes: the message is the same, the name apart.
        func messages(_ key: String, _ names: [String]) throws -> [String] {
            try names.map { name in
                try "---\n\(key): \(name)\n---\n\n# Doc\n".write(
                    toFile: root + "/doc.md", atomically: false, encoding: .utf8)
                let result = try typeset(["render", root + "/doc.md", "--root", root, "-o", root + "/doc.pdf"])
                #expect(result.status == 1, "\(result.output)")
                return result.output.replacingOccurrences(of: name, with: "NAME")
            }
        }
        let themes = try messages("theme", ["theme-existing", "theme-dangling", outside + "/theme.json"])
        #expect(Set(themes).count == 1 && themes[0].contains("is outside the folders"), "\(themes)")
        let includes = try messages("include", ["chapter-existing", "chapter-dangling", escape + "/chapter.md"])
        #expect(Set(includes).count == 1 && includes[0].contains("is outside"), "\(includes)")
    }

    /// A name holding a NUL character reads no file: the system's calls would read it only up
    /// to the NUL, so `in.png%00.png` opened `in.png`, with no warning. As an image (decoded
    /// from `%00`, in Markdown and in HTML) it is a placeholder with the reason at its address;
    /// as a theme (a YAML `\0` escape) an error that names the reason.
    @Test func aNameHoldingANulReadsNoFile() throws {
        let (root, _, _) = try layout("nul")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/in.png"))
        try "![a](in.png%00.png)\n\n![b](in.png%00)\n\n<img src=\"in.png%00.x\">\n\n![c](in.png)\n".write(
            toFile: root + "/images.md", atomically: false, encoding: .utf8)
        let rendered = try typeset(["render", root + "/images.md", "--root", root, "-o", root + "/images.pdf"])
        #expect(rendered.status == 0, "\(rendered.output)")
        #expect(try imageCount(root + "/images.pdf") == 1, "only ![c](in.png) is drawn: \(rendered.output)")
        #expect(rendered.output.contains("images.md:1:"), "\(rendered.output)")
        #expect(rendered.output.contains("NUL character"), "\(rendered.output)")
        try "{\"extends\": \"default\"}".write(toFile: root + "/t.json", atomically: false, encoding: .utf8)
        try "---\ntheme: \"t.json\\0x\"\n---\n\n# T\n".write(
            toFile: root + "/theme.md", atomically: false, encoding: .utf8)
        let themed = try typeset(["render", root + "/theme.md", "--root", root, "-o", root + "/theme.pdf"])
        #expect(themed.status == 1, "\(themed.output)")
        #expect(themed.output.contains("NUL character"), "\(themed.output)")
    }
}
