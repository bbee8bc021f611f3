import Foundation
import TestSupport
import Testing
import Typesetter

/// The paths a hostile document writes: special files named where only a regular file may be
/// read, paths of thousands of components, values holding line breaks, and what the messages
/// tell of paths outside the root.
extension SandboxTests {
    /// A FIFO named by `include:` is refused at once at the include (it used to wait for a
    /// writer forever), as a FIFO image or theme is; `/dev/zero` as a `--metadata-file` is
    /// refused, not read without end.
    @Test func specialFilesAsIncludesAndSettingsAreRefusedAtOnce() throws {
        let (root, _, _) = try layout("special-includes")
        #expect(mkfifo(root + "/pipe.md", 0o644) == 0)
        try "---\ninclude: pipe.md\n---\n\n# Book\n".write(
            toFile: root + "/book.md", atomically: false, encoding: .utf8)
        let include = try typeset(["render", root + "/book.md", "--root", root, "-o", root + "/book.pdf"])
        #expect(include.status == 1, "\(include.output)")
        #expect(include.output.contains("book.md:2:10: include 'pipe.md'"), "\(include.output)")
        #expect(include.output.contains("FIFO"), "\(include.output)")
        try "# Doc\n".write(toFile: root + "/doc.md", atomically: false, encoding: .utf8)
        let settings = try typeset(["render", root + "/doc.md", "--metadata-file", "/dev/zero", "-o", root + "/d.pdf"])
        #expect(settings.status != 124 && settings.status != 0, "\(settings.output)")
        #expect(settings.output.contains("character device"), "\(settings.output)")
    }

    /// Whether a path outside the root exists, and what it is, is not told: `fontFolders`
    /// entries that are missing, a file and a folder outside get the same words, as links to
    /// Markdown files outside (one there, one not) are warned about alike.
    @Test func messagesDoNotTellWhatIsOutside() throws {
        let (root, outside, _) = try layout("existence")
        try "# Here\n".write(toFile: outside + "/exists.md", atomically: false, encoding: .utf8)
        var messages: [String] = []
        for folder in [outside + "/missing", outside + "/exists.md", outside] {
            try "{\"fontFolders\": [\"\(folder)\"]}".write(toFile: root + "/f.json", atomically: false, encoding: .utf8)
            try "---\ntheme: f.json\n---\n\nText.\n".write(toFile: root + "/f.md", atomically: false, encoding: .utf8)
            let result = try typeset(["render", root + "/f.md", "--root", root, "-o", root + "/f.pdf"])
            #expect(result.status == 1, "\(result.output)")
            messages.append(result.output.replacingOccurrences(of: folder, with: "FOLDER"))
        }
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(messages[0].contains("is outside the folders this render may read"), "\(messages)")
        let escape = "../" + (outside as NSString).lastPathComponent
        try "[a](\(escape)/exists.md)\n\n[b](\(escape)/missing.md)\n".write(
            toFile: root + "/links.md", atomically: false, encoding: .utf8)
        let links = try typeset(["render", root + "/links.md", "--root", root, "-o", root + "/links.pdf"])
        #expect(links.output.contains("2 links into other Markdown files"), "\(links.output)")
    }

    /// Image paths of thousands of components (`a/a/…/x.png`, missing) take time linear in their
    /// length: ten of 3,000 components each against the same ten of 3 (each component's
    /// folder was looked up again for every component: ten took 12.8 s).
    @Test func longPathsTakeLinearTime() throws {
        let (root, _, _) = try layout("long-paths")
        func document(_ components: Int) -> String {
            (0..<10).map { "![p\($0)](\(String(repeating: "a/", count: components))x\($0).png)\n" }
                .joined(separator: "\n")
        }
        try document(3).write(toFile: root + "/short.md", atomically: false, encoding: .utf8)
        try document(3_000).write(toFile: root + "/long.md", atomically: false, encoding: .utf8)
        let short = try Timing.bestSeconds(of: 2) {
            _ = try typeset(["render", root + "/short.md", "--root", root, "-o", root + "/short.pdf", "-q"])
        }
        var status: Int32 = 0
        let long = try Timing.bestSeconds(of: 2) {
            status = try typeset(["render", root + "/long.md", "--root", root, "-o", root + "/long.pdf", "-q"]).status
        }
        #expect(status == 0)
        // Linear: well under 10× (12.8 s against 0.05 s when each component was looked up again).
        #expect(long < 10 * short, "3,000 components: \(long) s; 3 components: \(short) s")
    }

    /// A path through a link to its own folder written 100,000 times (600 KB, longer than the
    /// system reads a name, `PATH_MAX`) is refused as it is found, in time like that of a short
    /// one, and its warning quotes 60 characters of it: followed link by link it took 7 s, and
    /// its warning was 1.5 MB.
    @Test func namesLongerThanTheSystemReadsAreRefusedAtOnce() throws {
        let (root, _, _) = try layout("self-link")
        try FileManager.default.createSymbolicLink(atPath: root + "/self", withDestinationPath: ".")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/in.png"))
        let long = "![a](" + String(repeating: "self/", count: 100_000) + "in.png)\n\n![b](self/self/in.png)\n"
        try long.write(toFile: root + "/long.md", atomically: false, encoding: .utf8)
        try "![a](self/in.png)\n\n![b](self/self/in.png)\n".write(
            toFile: root + "/short.md", atomically: false, encoding: .utf8)
        var output = ""
        let longTime = try Timing.bestSeconds(of: 2) {
            output = try typeset(["render", root + "/long.md", "--root", root, "-o", root + "/long.pdf"]).output
        }
        let shortTime = try Timing.bestSeconds(of: 2) {
            _ = try typeset(["render", root + "/short.md", "--root", root, "-o", root + "/short.pdf", "-q"])
        }
        #expect(longTime < 10 * shortTime, "long name: \(longTime) s; short: \(shortTime) s")
        #expect(output.contains("long.md:1:6: warning: image 'self/self/") && output.utf8.count < 600, "\(output)")
        #expect(try imageCount(root + "/long.pdf") == 1 && imageCount(root + "/short.pdf") == 2)
    }

    /// A name ending in a slash names a folder, as the system reads it: `in.png/` is no picture,
    /// `ch2.md/` no chapter and `t.json/` no theme (the first two were read as the file).
    @Test func aNameEndingInASlashIsNoFile() throws {
        let (root, _, _) = try layout("trailing-slash")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/in.png"))
        try "![a](in.png/)\n\n![b](in.png)\n".write(toFile: root + "/img.md", atomically: false, encoding: .utf8)
        let image = try typeset(["render", root + "/img.md", "--root", root, "-o", root + "/img.pdf"])
        #expect(image.status == 0 && image.output.contains("img.md:1:6: warning: image 'in.png/'"), "\(image.output)")
        #expect(try imageCount(root + "/img.pdf") == 1)
        try "# Two\n".write(toFile: root + "/ch2.md", atomically: false, encoding: .utf8)
        try "{\"name\": \"t\", \"extends\": \"default\"}".write(
            toFile: root + "/t.json", atomically: false, encoding: .utf8)
        for front in ["include: ch2.md/", "theme: t.json/"] {
            try "---\n\(front)\n---\n\n# One\n".write(toFile: root + "/b.md", atomically: false, encoding: .utf8)
            let result = try typeset(["render", root + "/b.md", "--root", root, "-o", root + "/b.pdf"])
            #expect(result.status == 1 && result.output.contains("b.md:2:"), "\(front): \(result.output)")
        }
    }

    /// The files `typeset watch` watches are the ones the render may read: an image outside the
    /// root is not watched (its folder was, so changes outside the root were seen).
    @Test func watchSeesOnlyFilesTheRenderMayRead() throws {
        let (root, outside, picture) = try layout("watch-outside")
        try Support.tinyPNG.write(to: URL(fileURLWithPath: root + "/in.png"))
        let markdown = "![in](in.png)\n\n![out](\(picture))\n\n![etc](/etc/ssh/x.png)\n"
        try markdown.write(toFile: root + "/w.md", atomically: false, encoding: .utf8)
        let document = Typesetter.parse(markdown: markdown, file: root + "/w.md").document
        var options = RenderOptions()
        options.root = URL(fileURLWithPath: root)
        let watched = Typesetter.dependencies(of: document, options: options)
        #expect(watched.map { ($0 as NSString).lastPathComponent } == ["in.png"], "\(watched)")
        // A theme the caller names outside the root is watched, as it is read.
        options.themeRequest.theme = outside + "/caller.json"
        #expect(Typesetter.dependencies(of: document, options: options).contains(outside + "/caller.json"))
        options.root = nil
        #expect(Typesetter.dependencies(of: document, options: options).contains(picture))
    }

    /// A value quoted in an error keeps to its line: a `theme:` holding a line break followed by
    /// what looks like another message prints `\n`, never a line of its own.
    @Test func quotedValuesCannotForgeMessageLines() throws {
        let (root, _, _) = try layout("forged-lines")
        let forged = "---\ntheme: \"x.json\\nfake.md:9:9: error: forged\"\n---\n\nText.\n"
        try forged.write(toFile: root + "/doc.md", atomically: false, encoding: .utf8)
        for extra in [["--root", root], []] {
            let result = try typeset(["render", root + "/doc.md", "-o", root + "/doc.pdf"] + extra)
            #expect(result.status == 1, "\(result.output)")
            let lines = result.output.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("fake.md") }, "\(result.output)")
            #expect(result.output.contains("x.json\\nfake.md:9:9"), "\(result.output)")
        }
    }
}
