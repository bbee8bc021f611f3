import Foundation

extension Render {
    /// Renders `markdown` with the `typeset` executable in a child process of its own under
    /// GNU `time` and returns the child's peak resident set size (`%M`) in MiB, the wall time
    /// in s and the PDF's path. `options` are added to the command line (a page size, say);
    /// `tagged` false adds `--no-tags`, so that the figure is the pipeline's own and not the
    /// accessibility pass's. The child's peak is its own, so a busy machine does not change
    /// it; compare it only with a peak measured in the same run (a ratio), never with a fixed
    /// number of MiB, which depends on the machine's libraries and allocator. Throws when
    /// `time` cannot be started or its report cannot be read; a failed render is an issue.
    public static func peak(
        _ markdown: String, name: String, options: [String] = [], tagged: Bool = false
    ) throws -> (mebibytes: Double, seconds: Double, pdf: String) {
        let memoryFolder = Self.folder + "/memory"
        try FileManager.default.createDirectory(atPath: memoryFolder, withIntermediateDirectories: true)
        let input = memoryFolder + "/\(name).md"
        let pdf = memoryFolder + "/\(name).pdf"
        let report = memoryFolder + "/\(name).time"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        let start = Date()
        let arguments =
            ["-f", "%M", "-o", report, binary, "render", input, "-q", "-o", pdf]
            + (tagged ? [] : ["--no-tags"]) + options
        let run = try PDFProbe.run("time", arguments)
        let seconds = Date().timeIntervalSince(start)
        if run.status != 0 { throw RenderFailure(status: run.status, output: run.output) }
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        let kibibytes = lines.last.flatMap { Double(String($0)) } ?? .infinity
        return (kibibytes / 1024, seconds, pdf)
    }

    /// Renders `markdown` with the `typeset` executable in a child process of its own under
    /// GNU `time` and returns the processor time the child spent, user and system (`%U + %S`),
    /// in s: the work of all its threads, which a busy machine stretches far less than wall
    /// time. `options` are added to the command line. Compare it only with a time measured in
    /// the same run (a ratio). Throws when `time` cannot be started or its report cannot be
    /// read, and ``RenderFailure`` when the render fails.
    public static func processorSeconds(_ markdown: String, name: String, options: [String] = []) throws -> Double {
        let timeFolder = Self.folder + "/processor-time"
        try FileManager.default.createDirectory(atPath: timeFolder, withIntermediateDirectories: true)
        let input = timeFolder + "/\(name).md"
        let report = timeFolder + "/\(name).time"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        let arguments =
            ["-f", "%U %S", "-o", report, binary, "render", input, "-q", "-o", timeFolder + "/\(name).pdf"] + options
        let run = try PDFProbe.run("time", arguments)
        if run.status != 0 { throw RenderFailure(status: run.status, output: run.output) }
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        let fields = lines.last.map { $0.split(separator: " ").compactMap { Double(String($0)) } } ?? []
        guard fields.count == 2 else { throw RenderFailure(status: 0, output: "time reported \(lines)") }
        return fields[0] + fields[1]
    }

    /// Renders `markdown` with the `typeset` executable under Valgrind's Callgrind, on one
    /// thread (`TYPESET_THREADS=1`), and returns the instructions the child executed: a count
    /// that neither the machine's speed nor its load changes, so that two renders of one run
    /// compare to the instruction. The executable and the code-highlighting library are first
    /// copied without their debugging sections (`strip -g`), which Valgrind otherwise spends
    /// minutes reading. `options` are added to the command line. Throws when Valgrind cannot
    /// be started or its counts cannot be read, and ``RenderFailure`` when the render fails.
    public static func instructions(_ markdown: String, name: String, options: [String] = []) throws -> Int {
        let countFolder = Self.folder + "/instructions"
        try FileManager.default.createDirectory(atPath: countFolder, withIntermediateDirectories: true)
        guard let stripped = strippedBinary else {
            throw RenderFailure(status: 0, output: "strip -g could not copy \(binary)")
        }
        let input = countFolder + "/\(name).md"
        let counts = countFolder + "/\(name).callgrind"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        let arguments =
            [
                "TYPESET_THREADS=1", "valgrind", "--tool=callgrind", "--dump-instr=no",
                "--callgrind-out-file=" + counts, stripped, "render", input, "-q", "-o", countFolder + "/\(name).pdf",
            ] + options
        let run = try PDFProbe.run("env", arguments)
        if run.status != 0 { throw RenderFailure(status: run.status, output: run.output) }
        let summary = try String(contentsOfFile: counts, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("summary: ") || $0.hasPrefix("totals: ") }
        guard let total = summary.flatMap({ Int($0.split(separator: " ").last ?? "") }) else {
            throw RenderFailure(status: 0, output: "callgrind wrote no total to \(counts)")
        }
        return total
    }

    /// The `typeset` executable without its debugging sections, with the code-highlighting
    /// library beside it (where `typeset` looks for it first), made once per test process (a
    /// static constant's initializer runs once, whichever test asks first); nil when `strip`
    /// fails.
    private static let strippedBinary: String? = {
        let countFolder = Render.folder + "/instructions"
        try? FileManager.default.createDirectory(atPath: countFolder, withIntermediateDirectories: true)
        let folder = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        for name in ["typeset", "libTypesetSyntaxHighlighting.so"] {
            let strip = try? PDFProbe.run("strip", ["-g", "-o", countFolder + "/" + name, folder + "/" + name])
            if strip?.status != 0 { return nil }
        }
        return countFolder + "/typeset"
    }()

    /// The `typeset` executable ended with a non-zero exit status.
    public struct RenderFailure: Error, CustomStringConvertible {
        /// The exit status.
        public var status: Int32
        /// What it printed (standard output and error).
        public var output: String
        public var description: String { "typeset exited with \(status): \(output)" }
    }
}
