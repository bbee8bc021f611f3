import Foundation
import TestSupport
import Testing

/// The command line never loses output in silence nor damages a file: every way a render ends
/// early removes its temporary files, writing through `/dev/stdout` works on pipes, no command
/// overwrites its own input, a page selection that selects nothing is an error, a missing
/// watched file is an error at the start.
@Suite(.serialized) struct NothingLostCommandLineTests {
    /// A fresh folder of its own (nothing else writes there, so "nothing left" is checkable).
    func folder(_ name: String) throws -> String {
        let path = Render.folder + "/lost-\(name)-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// A document of about 60 pages: long enough that a render is still under way when killed.
    func longDocument(in folder: String) throws -> String {
        let path = folder + "/long.md"
        let paragraph = String(repeating: "Words that fill a long page of text. ", count: 40)
        try Array(repeating: paragraph, count: 400).joined(separator: "\n\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `typeset ARGUMENTS` started with `TMPDIR` set to `temporary` (so the temporary folder's
    /// files of this run alone are seen), standard output to `output`.
    func start(_ arguments: [String], temporary: String, output: Any = FileHandle.nullDevice) throws -> Process {
        try PDFProbe.start(Render.binary, arguments, environment: ["TMPDIR": temporary + "/"], standardOutput: output)
    }

    /// Waits (at most 60 s) until `condition` holds or the process ended, asking every
    /// `interval` microseconds.
    func wait(for process: Process, every interval: UInt32 = 10_000, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning, !condition() { usleep(interval) }
    }

    /// SIGHUP, SIGQUIT, SIGINT and SIGTERM during a render: 128 + the signal, nothing left
    /// beside the target (a PDF) nor in the temporary folder (a PNG preview's page files).
    @Test(arguments: [(SIGHUP, Int32(129)), (SIGQUIT, Int32(131)), (SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func everySignalRemovesTheTemporaryFiles(signal: Int32, status: Int32) throws {
        for format in ["pdf", "png"] {
            let dir = try folder("signal-\(signal)-\(format)")
            let temporary = try folder("signal-tmp-\(signal)-\(format)")
            let input = try longDocument(in: dir)
            let process = try start(
                ["render", input, "-o", dir + "/out.\(format)", "-f", format, "-q"], temporary: temporary)
            // Under way: the PDF's temporary file, or the first page picture, exists.
            wait(for: process) { contents(dir).contains { $0.hasSuffix(".tmp") || $0.hasSuffix(".png") } }
            #expect(process.isRunning, "the render ended before the signal (\(format))")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(
                process.terminationReason == .exit && process.terminationStatus == status,
                "\(format): \(process.terminationStatus)")
            #expect(!contents(dir).contains { $0.hasPrefix(".") }, "\(format): \(contents(dir))")
            #expect(contents(temporary).isEmpty, "\(format): \(contents(temporary))")
        }
    }

    /// The processes `parent` started, from any of its threads (Linux `proc(5)`,
    /// `/proc/PID/task/TID/children`).
    func children(of parent: Process) -> [Int32] {
        let tasks = "/proc/\(parent.processIdentifier)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.flatMap { thread in
            ((try? String(contentsOfFile: "\(tasks)/\(thread)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// A signal sent to `render -j` alone (not to its process group, as `kill PID` does) is
    /// passed on to its child renders: the parent ends with 128 + the signal once they have
    /// ended, and no child goes on to write its output. The inputs are FIFOs the test holds open
    /// for writing and never writes (a FIFO no program writes to is refused at once), so each
    /// child waits at its input for as long as the test needs, whatever the load.
    @Test func aSignalToABatchReachesItsChildren() throws {
        let dir = try folder("batch")
        let temporary = try folder("batch-tmp")
        let inputs = [dir + "/first.md", dir + "/second.md"]
        for input in inputs { #expect(mkfifo(input, 0o600) == 0) }
        // Read and write: opens at once, and keeps a writer on each FIFO until the test ends.
        let writers = inputs.map { open($0, O_RDWR | O_NONBLOCK) }
        defer { for writer in writers where writer >= 0 { close(writer) } }
        #expect(writers.allSatisfy { $0 >= 0 })
        let outputs = dir + "/out"
        let process = try start(["render"] + inputs + ["--output-dir", outputs, "-j", "2", "-q"], temporary: temporary)
        wait(for: process) { children(of: process).count == 2 }
        let started = children(of: process)
        #expect(started.count == 2 && process.isRunning, "children \(started)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143, "\(process.terminationStatus)")
        // The parent ended only after its children: none is left (or left a zombie to reap).
        usleep(200_000)
        let alive = started.filter { child in
            let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
            return !state.isEmpty && !state.contains(") Z ")
        }
        #expect(alive.isEmpty, "children still running: \(alive)")
        #expect(contents(outputs).isEmpty, "\(contents(outputs))")
        #expect(contents(temporary).isEmpty, "\(contents(temporary))")
    }

    /// A signal during the tagging pass, which writes a rewritten copy of the PDF beside its
    /// temporary file (`.NAME.XXXX.tmp.tagged`): that copy is removed too. The pass lasts tens
    /// of milliseconds, so the test looks every millisecond and tries again (up to twelve
    /// renders) until one signal arrives while the copy exists; every render, caught or not,
    /// must leave nothing behind.
    @Test func aSignalDuringTheTaggingPassLeavesNoCopy() throws {
        let dir = try folder("tagging")
        let temporary = try folder("tagging-tmp")
        let input = try longDocument(in: dir)
        var caught = 0
        var attempt = 0
        while caught == 0, attempt < 12 {
            let process = try start(["render", input, "-o", dir + "/out-\(attempt).pdf", "-q"], temporary: temporary)
            wait(for: process, every: 1_000) { contents(dir).contains { $0.hasSuffix(".tagged") } }
            if process.isRunning, contents(dir).contains(where: { $0.hasSuffix(".tagged") }) {
                kill(process.processIdentifier, SIGTERM)
                caught += 1
            }
            process.waitUntilExit()
            #expect(!contents(dir).contains { $0.hasPrefix(".") }, "\(contents(dir))")
            attempt += 1
        }
        #expect(caught > 0, "none of \(attempt) renders was seen in its tagging pass")
    }

    /// A signal while page pictures are being written one after another (10 dpi: a page every
    /// few milliseconds) never leaves a page's temporary file: a picture begun while the folder
    /// was being cleared is waited for and removed, not left behind. Forty signals at varied
    /// moments; before file creation and removal shared a lock, about one in ten left a file.
    @Test func aSignalAmongPagePicturesLeavesNoTemporaryFile() throws {
        let dir = try folder("pictures")
        let temporary = try folder("pictures-tmp")
        let input = try longDocument(in: dir)
        var left: [[String]] = []
        for attempt in 0..<40 {
            let process = try start(
                ["render", input, "-o", dir + "/out-\(attempt).png", "-f", "png", "--dpi", "10", "-q"],
                temporary: temporary)
            wait(for: process) { contents(dir).contains { $0.hasPrefix("out-\(attempt)-") } }
            usleep(UInt32(attempt % 8) * 2_000)
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
            let files = contents(dir).filter { $0.hasPrefix(".out-\(attempt)-") && $0.hasSuffix(".tmp") }
            if !files.isEmpty { left.append(files) }
        }
        #expect(left.isEmpty, "\(left.count) of 40 signals left \(left)")
        #expect(contents(temporary).isEmpty, "\(contents(temporary))")
    }

    /// A reader that closes the pipe after 10 bytes (`| head -c 10`), whether the PDF goes to
    /// `-`, `/dev/stdout` or `/dev/fd/1`: the process ends by SIGPIPE, as `cat` would, and leaves
    /// no temporary file.
    @Test(arguments: ["-", "/dev/stdout", "/dev/fd/1"])
    func aClosedPipeLeavesNoTemporaryFile(target: String) throws {
        let dir = try folder("pipe")
        let temporary = try folder("pipe-tmp")
        let input = try longDocument(in: dir)
        let pipe = Pipe()
        let process = try start(["render", input, "-o", target, "-q"], temporary: temporary, output: pipe)
        let head = pipe.fileHandleForReading.readData(ofLength: 10)
        try pipe.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("%PDF-"))
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
            "\(process.terminationReason) \(process.terminationStatus)")
        #expect(contents(temporary).isEmpty, "\(contents(temporary))")
        #expect(contents(dir) == ["long.md"])
    }

    /// A write error (`/dev/full`: ENOSPC), named or as standard output: status 1, the error
    /// named, no temporary file left.
    @Test func aWriteErrorLeavesNoTemporaryFile() throws {
        let dir = try folder("full")
        let temporary = try folder("full-tmp")
        try "# Full\n\nNo room.\n".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for (target, output) in [("/dev/full", FileHandle.nullDevice), ("-", full)] {
            let process = try start(["render", dir + "/doc.md", "-o", target], temporary: temporary, output: output)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(target)")
            #expect(contents(temporary).isEmpty, "\(target): \(contents(temporary))")
        }
        try full.close()
        #expect(contents(dir) == ["doc.md"])
    }

    /// A target in a folder where no temporary file can be made (`/proc/version`: a file in a
    /// folder that takes no new ones) is an error about the target, as the user wrote it, not
    /// about the temporary file's name.
    @Test func anUnwritableFolderIsSaidOfTheTarget() throws {
        let dir = try folder("proc-target")
        try "# Proc\n".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/doc.md", "-o", "/proc/version"])
        #expect(result.status == 1)
        #expect(result.output.contains("/proc/version: cannot write output"), "\(result.output)")
        #expect(!result.output.contains(".tmp"), "\(result.output)")
    }

    /// `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1` are written through when standard
    /// output is a pipe (they name no file that can be replaced) and when it is a file.
    @Test(arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutputByNameIsWrittenThrough(target: String) throws {
        let dir = try folder("stdout")
        let temporary = try folder("stdout-tmp")
        try "# Through\n\nA pipe or a file.\n".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        // A pipe.
        let pipe = Pipe()
        let piped = try start(["render", dir + "/doc.md", "-o", target], temporary: temporary, output: pipe)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        piped.waitUntilExit()
        #expect(piped.terminationStatus == 0)
        #expect(FileManager.default.createFile(atPath: dir + "/piped.pdf", contents: data))
        #expect(try PDFProbe.qpdfClean(dir + "/piped.pdf"))
        #expect(try PDFProbe.text(dir + "/piped.pdf").contains("A pipe or a file."))
        // A file.
        #expect(FileManager.default.createFile(atPath: dir + "/file.pdf", contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: dir + "/file.pdf"))
        let filed = try start(["render", dir + "/doc.md", "-o", target], temporary: temporary, output: handle)
        filed.waitUntilExit()
        try handle.close()
        #expect(filed.terminationStatus == 0)
        #expect(try PDFProbe.qpdfClean(dir + "/file.pdf"))
        #expect(contents(temporary).isEmpty)
        #expect(contents(dir) == ["doc.md", "file.pdf", "piped.pdf"], "nothing beside the targets: \(contents(dir))")
    }

    /// `theme import` never overwrites the tokens file it reads — by the same path, through a
    /// symbolic link, or a hard link — and `-o FOLDER/` writes `FOLDER/<tokens name>.json`.
    @Test func themeImportNeverOverwritesItsInput() throws {
        let dir = try folder("import")
        let tokens = dir + "/tokens.json"
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/tokens/acme.tokens.json", toPath: tokens)
        let original = try Data(contentsOf: URL(fileURLWithPath: tokens))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: tokens)
        try FileManager.default.linkItem(atPath: tokens, toPath: dir + "/hard.json")
        for target in [tokens, dir + "/link.json", dir + "/hard.json", dir + "/./tokens.json", dir + "/"] {
            let result = try typeset(["theme", "import", tokens, "-o", target])
            #expect(
                result.status == 1 && result.output.contains("it is the tokens file being imported"),
                "\(target): \(result.output)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: tokens)) == original, "\(target) damaged the tokens")
        }
        try FileManager.default.createDirectory(atPath: dir + "/themes", withIntermediateDirectories: true)
        for target in [dir + "/themes", dir + "/themes/", dir + "/new/"] {
            let result = try typeset(["theme", "import", tokens, "-o", target])
            #expect(result.status == 0, "\(target): \(result.output)")
            let written = (target.hasSuffix("/") ? target : target + "/") + "tokens.json"
            #expect(try typeset(["theme", "check", written]).status == 0, "\(written)")
            try FileManager.default.removeItem(atPath: written)
        }
        #expect(!contents(dir).contains { $0.hasSuffix(".tmp") })
    }

    /// `render` and `specimen` refuse to write over the theme file they read; a specimen to a
    /// folder goes inside it; a render target ending in `/` never becomes a file of that name.
    @Test func renderAndSpecimenNeverOverwriteTheirInputs() throws {
        let dir = try folder("inputs")
        let theme = dir + "/theme.json"
        let show = try typeset(["theme", "show", "default"])  // the JSON alone: nothing on standard error
        #expect(show.status == 0)
        let shown = show.output
        try shown.write(toFile: theme, atomically: true, encoding: .utf8)
        try "# Doc\n".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let render = try typeset(["render", dir + "/doc.md", "--theme", theme, "-o", theme])
        #expect(render.status == 1 && render.output.contains("it is the theme file"), "\(render.output)")
        let specimen = try typeset(["specimen", "--theme", theme, "-o", theme])
        #expect(specimen.status == 1 && specimen.output.contains("it is the theme file"), "\(specimen.output)")
        #expect(try String(contentsOfFile: theme, encoding: .utf8) == shown)
        let inFolder = try typeset(["specimen", "-o", dir + "/specimens/", "-q"])
        #expect(inFolder.status == 0, "\(inFolder.output)")
        #expect(contents(dir + "/specimens") == ["specimen-default.pdf"])
    }

    /// A page selection that selects no page is a usage error (status 2) naming the page count,
    /// for PNG and SVG, and writes nothing; one partly past the end writes what exists and warns.
    @Test(arguments: ["png", "svg"])
    func pageSelectionsPastTheEnd(format: String) throws {
        let dir = try folder("pages-\(format)")
        try "# One\n\n\\newpage\n\n# Two\n\n\\newpage\n\n# Three\n".write(
            toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let all = try typeset(["render", dir + "/doc.md", "-f", format, "-o", dir + "/all.\(format)"])
        #expect(all.status == 0 && all.output.contains("3 of 3 pages"), "\(all.output)")
        for pages in ["9", "4-7", "5,8"] {
            let none = try typeset([
                "render", dir + "/doc.md", "-f", format, "--pages", pages, "-o", dir + "/none.\(format)",
            ])
            #expect(
                none.status == 2 && none.output.contains("--pages \(pages) selects no page")
                    && none.output.contains("has 3 pages"), "\(none.output)")
        }
        #expect(!contents(dir).contains { $0.hasPrefix("none") || $0.hasSuffix(".tmp") }, "\(contents(dir))")
        let part = try typeset([
            "render", dir + "/doc.md", "-f", format, "--pages", "2-5", "-o", dir + "/part.\(format)",
        ])
        #expect(
            part.status == 0 && part.output.contains("warning: --pages 2-5")
                && part.output.contains("pages 4–5 do not exist"), "\(part.output)")
        #expect(contents(dir).filter { $0.hasPrefix("part") } == ["part-2.\(format)", "part-3.\(format)"])
        let open = try typeset([
            "render", dir + "/doc.md", "-f", format, "--pages", "3-", "-o", dir + "/open.\(format)",
        ])
        #expect(
            open.status == 0 && !open.output.contains("warning"),
            "an open range past the end is no mistake: \(open.output)")
    }

    /// `watch` of a file that is missing (or a folder) at the start ends at once with status 1,
    /// as `render` does, instead of waiting for it.
    @Test func watchOfAMissingFileIsAnError() throws {
        let dir = try folder("watch")
        for input in [dir + "/nosuch.md", dir] {
            let log = Pipe()
            let process = try PDFProbe.start(
                Render.binary, ["watch", input, "-o", dir + "/out.pdf"], standardError: log)
            wait(for: process) { false }
            if process.isRunning {
                process.terminate()
                Issue.record("watch \(input) kept running")
            }
            process.waitUntilExit()
            let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 1 && output.contains("cannot read input"), "\(output)")
        }
    }
}
