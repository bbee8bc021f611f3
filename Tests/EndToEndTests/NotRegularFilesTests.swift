import Foundation
import TestSupport
import Testing

/// Files that are not regular files — devices, FIFOs, folders, the kernel's /proc — given as
/// images, themes, font folders or the input: refused at once with what they are, never read
/// without end or waited on. Every run goes through `timeout`, so a hang fails the test (status
/// 124) instead of stalling the suite.
@Suite(.serialized) struct NotRegularFilesTests {
    /// Runs `typeset` under `timeout 60` (GNU coreutils): status 124 means it hung.
    func typeset(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
        try PDFProbe.run("timeout", ["60", Render.binary] + arguments, stdin: stdin)
    }

    func folder(_ name: String) throws -> String { try Render.scratchFolder(name) }

    /// A FIFO at `path` that nothing writes to: opening it to read without `O_NONBLOCK` waits.
    func fifo(_ path: String) throws -> String {
        #expect(mkfifo(path, 0o644) == 0)
        return path
    }

    /// Each kind of non-regular file as an image: a block figure and an inline picture are
    /// placeholders (alt text) with a warning that says what the path is; the text around
    /// them is set and the run succeeds.
    @Test func imagesThatAreNotRegularFilesAreRefusedAtOnce() throws {
        let dir = try folder("not-files-images")
        let pipe = try fifo(dir + "/pipe")
        try FileManager.default.createDirectory(atPath: dir + "/pictures", withIntermediateDirectories: true)
        let cases: [(path: String, words: String)] = [
            ("/dev/zero", "is a character device, not a regular file"),
            ("/dev/urandom", "is a character device, not a regular file"),
            (pipe, "is a FIFO (named pipe), not a regular file"),
            (dir + "/pictures", "is a folder"),
        ]
        for (index, item) in cases.enumerated() {
            let markdown =
                "Before \(index).\n\n![figure \(index)](\(item.path))\n\nInline ![pic](\(item.path)) after.\n"
            try markdown.write(toFile: dir + "/a\(index).md", atomically: false, encoding: .utf8)
            // `--root /`: the devices lie outside the input's folder, which alone would refuse them.
            let result = try typeset(["render", dir + "/a\(index).md", "-o", dir + "/a\(index).pdf", "--root", "/"])
            #expect(result.status == 0, "\(item.path): \(result.output)")
            #expect(
                result.output.contains("a\(index).md:3:13: warning: image '\(item.path)' \(item.words)"),
                "\(result.output)")
            let text = try PDFProbe.text(dir + "/a\(index).pdf")
            #expect(text.contains("Before \(index).") && text.contains("after."), "\(text)")
        }
    }

    /// A theme that is a device or FIFO — on the command line or in front matter — is an error
    /// that says what it is, at once.
    @Test func themesThatAreNotRegularFilesAreRefused() throws {
        let dir = try folder("not-files-themes")
        let pipe = try fifo(dir + "/theme.json")
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        for (theme, words) in [
            ("/dev/zero", "character device"), ("/dev/urandom", "character device"), (pipe, "FIFO (named pipe)"),
        ] {
            let option = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--theme", theme])
            #expect(
                option.status == 1 && option.output.contains("it is a \(words), not a regular file"), "\(option.output)"
            )
            try "---\ntheme: \(theme)\n---\n\n# Hi\n".write(toFile: dir + "/b.md", atomically: false, encoding: .utf8)
            let front = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf", "--root", "/"])
            #expect(
                front.status == 1 && front.output.contains("b.md:2:") && front.output.contains(words), "\(front.output)"
            )
            let check = try typeset(["theme", "check", theme])
            #expect(check.status == 1 && check.output.contains(words), "\(check.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.pdf"))
    }

    /// The input itself: a device is refused; standard input and a pipe (`<(…)`) are read.
    @Test func anInputThatIsADeviceIsRefused() throws {
        let dir = try folder("not-files-input")
        for device in ["/dev/zero", "/dev/urandom"] {
            let result = try typeset(["render", device, "-o", dir + "/a.pdf"])
            #expect(
                result.status == 1 && result.output.contains("it is a character device, not a regular file"),
                "\(result.output)")
        }
        let piped = try typeset(["render", "-", "-o", dir + "/b.pdf"], stdin: Data("# Piped\n".utf8))
        #expect(piped.status == 0, "\(piped.output)")
        #expect(try PDFProbe.text(dir + "/b.pdf").contains("Piped"))
        let substituted = try PDFProbe.run(
            "timeout", ["60", "bash", "-c", "'\(Render.binary)' render <(printf '# Substituted\\n') -o '\(dir)/c.pdf'"])
        #expect(substituted.status == 0, "\(substituted.output)")
        #expect(try PDFProbe.text(dir + "/c.pdf").contains("Substituted"))
    }

    /// A FIFO that no program writes to, given where a stream may be read (the input, a
    /// metadata file, a defaults file), is refused at once with what it is: opened to read, it
    /// waited for a writer without end. A FIFO a program writes to (`<(…)`) is read.
    @Test func aFIFONoProgramWritesToIsRefusedAtOnce() throws {
        let dir = try folder("not-files-streams")
        let pipe = try fifo(dir + "/settings.yaml")
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        for arguments in [
            ["render", dir + "/a.md", "--metadata-file", pipe], ["render", dir + "/a.md", "-d", pipe],
            ["render", pipe],
        ] {
            let result = try typeset(arguments + ["-o", dir + "/a.pdf"])
            #expect(result.status == 1 && result.output.contains("it is a FIFO that no program writes to"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.pdf"))
        let written = try PDFProbe.run(
            "timeout",
            [
                "60", "bash", "-c",
                "'\(Render.binary)' render '\(dir)/a.md' --metadata-file <(sleep 0.2; printf 'title: Late\\n') "
                    + "-o '\(dir)/b.pdf'",
            ])
        #expect(written.status == 0, "\(written.output)")
        #expect(try PDFProbe.info(dir + "/b.pdf")["Title"] == "Late")
    }

    /// Font folders in /proc, /sys or /dev are refused with their position (theme) or name
    /// (`--fonts`); a folder holding a FIFO, a device link and a symbolic link to itself is
    /// scanned to its end and its fonts registered.
    @Test func fontFoldersDoNotHangOrLoop() throws {
        let dir = try folder("not-files-fonts")
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        for system in ["/proc/self", "/sys", "/dev"] {
            let render = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--fonts", system])
            #expect(
                render.status == 1 && render.output.contains("the kernel's files, not a folder of fonts"),
                "\(render.output)")
            let fonts = try typeset(["fonts", "--fonts", system])
            #expect(fonts.status == 1 && fonts.output.contains("not a folder of fonts"), "\(fonts.output)")
            try "{\"fontFolders\": [\"\(system)\"]}".write(
                toFile: dir + "/theme.json", atomically: false, encoding: .utf8)
            let theme = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--theme", dir + "/theme.json"])
            #expect(theme.status == 1 && theme.output.contains("theme.json:1:18: fontFolders:"), "\(theme.output)")
        }
        let fonts = dir + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts + "/sub", withIntermediateDirectories: true)
        _ = try fifo(fonts + "/sub/pipe.ttf")
        try FileManager.default.createSymbolicLink(atPath: fonts + "/sub/loop", withDestinationPath: fonts)
        try FileManager.default.createSymbolicLink(atPath: fonts + "/zero.ttf", withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: fonts + "/proc", withDestinationPath: "/proc")
        let bundled = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/fonts"
        for name in try FileManager.default.contentsOfDirectory(atPath: bundled)
        where name.hasSuffix(".ttf") || name.hasSuffix(".otf") {
            try FileManager.default.copyItem(atPath: bundled + "/" + name, toPath: fonts + "/sub/" + name)
        }
        let listed = try typeset(["fonts", "--fonts", fonts])
        #expect(listed.status == 0, "\(listed.output)")
        let render = try typeset(["render", dir + "/a.md", "-o", dir + "/b.pdf", "--fonts", fonts])
        #expect(render.status == 0, "\(render.output)")
    }

    /// A Markdown or theme file over its size limit is refused by its size, before it is read.
    @Test func oversizedFilesAreRefusedByTheirSize() throws {
        let dir = try folder("not-files-size")
        let theme = dir + "/huge.json"
        #expect(FileManager.default.createFile(atPath: theme, contents: nil))
        #expect(truncate(theme, 40 << 20) == 0, "a sparse 40 MB file")
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--theme", theme])
        #expect(
            result.status == 1 && result.output.contains("it is 40.0 MB, more than the 16.0 MB a theme file may have"),
            "\(result.output)")
    }
}
