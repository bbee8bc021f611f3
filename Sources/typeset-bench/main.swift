import BenchSupport
import Foundation
import Typeset

// `make bench`: Typeset beside the least any Pango + Cairo program costs for the same text.
//
//     typeset-bench --typeset BIN --floor BIN --corpus DIR [--pairs N] [--only NAME,…] [--list]
//
// The Makefile builds the floor program (one PangoLayout per paragraph on a shared context,
// naive pagination, cairo_pdf_surface_create; no Markdown, no styling; 25 mm margins on A4)
// and generates a deterministic corpus of Markdown documents with plain-text twins into DIR.
// Each document is rendered in pairs — typeset on NAME.md, the floor on NAME.txt, typeset,
// floor, … — and the ratio is the median of the per-pair time ratios: on a shared, busy
// machine only times measured side by side mean anything. Typeset renders with the floor's
// page (`--paper a4 --margins 25mm`), tagged (the default) unless the row says `--no-tags`.
// Every run is a child process, so its peak resident set (`wait4`'s rusage, ru_maxrss) is
// that run's alone. Then the scaling rows: huge and hostile inputs generated here, each with
// its time per megabyte net of start-up beside the `large` document's. Then the paragraph
// composer's figures: the word-space stretch of a justified document, read from its PDF. Last,
// renders in one process: twenty documents from a `TaskGroup` beside the same twenty one after
// another, through the library (`import Typeset`), in this process; and the time from a
// `Task.cancel()` to the return of the `large` document's asynchronous render.
//
// A benchmark, not a test: it asserts nothing, and exits non-zero only when a run fails.

/// One child process run: wall time, peak resident set, exit status, standard error.
struct Run {
    var seconds: Double
    var peakMiB: Double
    var status: Int32
    var stderr: String
}

/// Runs `argv` with standard output discarded and standard error captured to a file, and
/// measures its wall time (CLOCK_MONOTONIC) and peak resident set (ru_maxrss, KiB on Linux).
func spawn(_ argv: [String]) -> Run {
    let errPath = NSTemporaryDirectory() + "typeset-bench-\(getpid()).err"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    var pid: pid_t = 0
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
    guard spawned == 0 else {
        return Run(
            seconds: 0, peakMiB: 0, status: -1, stderr: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    clock_gettime(CLOCK_MONOTONIC, &end)
    let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    let text = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: errPath)
    // Exit status: WEXITSTATUS when it exited, else 128 + the signal.
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Run(seconds: seconds, peakMiB: Double(usage.ru_maxrss) / 1024, status: exit, stderr: text)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("typeset-bench: \(message)\n".utf8))
    exit(1)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A run that must succeed: on failure, the command, its status and the end of its errors.
func mustRun(_ argv: [String]) -> Run {
    let run = spawn(argv)
    guard run.status == 0 else {
        fail("\(argv.joined(separator: " ")) failed (exit \(run.status)): \(run.stderr.suffix(600))")
    }
    return run
}

/// Typeset's page count from its last line on standard error, `OUTPUT: N pages`.
func typesetPages(_ run: Run) -> Int? {
    guard let last = run.stderr.split(separator: "\n").last else { return nil }
    let words = last.split(separator: " ")
    guard words.count >= 2, words.last!.hasPrefix("page") else { return nil }
    return Int(words[words.count - 2])
}

/// The floor's page count from its `pages=N paragraphs=M` line.
func floorPages(_ run: Run) -> Int? {
    run.stderr.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("pages=") }.flatMap {
        Int($0.dropFirst(6))
    }
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// `dividend ÷ divisor` when both are known and `divisor` is above zero.
func quotient(_ dividend: Double?, _ divisor: Double?) -> Double? {
    guard let dividend, let divisor, divisor > 0 else { return nil }
    return dividend / divisor
}

func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) == 3 ? String(format: "%.1f", loads[0]) : "?"
}

// MARK: Arguments

/// The corpus documents in order of size, with the pairs each gets by default (fewer for the
/// long ones, so a full run takes a few minutes on 2 cores).
let corpusRows: [(id: String, document: String, pairs: Int, extra: [String])] = [
    ("one", "one", 7, []), ("medium", "medium", 3, []), ("large", "large", 3, []),
    ("large-no-tags", "large", 2, ["--no-tags"]), ("book", "book", 1, []),
]
let scalingInputs = ScalingInput.all()
func scalingID(_ input: ScalingInput) -> String {
    switch input.command {
    case .render: return input.name
    case .themeImport: return input.name + "-import"
    case .themeCheck: return input.name + "-check"
    }
}
let allIDs = corpusRows.map(\.id) + scalingInputs.map(scalingID) + ["composer", "concurrent", "cancellation"]
let usage = "usage: typeset-bench --typeset BIN --floor BIN --corpus DIR [--pairs N] [--only NAME,…] [--list]"

var typesetPath = ""
var floorPath = ""
var corpus = ""
var pairsOverride: Int?
var only: Set<String>?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    func value() -> String {
        guard let next = arguments.next() else { fail("\(argument) needs a value; \(usage)") }
        return next
    }
    switch argument {
    case "--typeset": typesetPath = value()
    case "--floor": floorPath = value()
    case "--corpus": corpus = value()
    case "--pairs", "--runs", "--rounds":
        guard let count = Int(value()), count > 0 else { fail("\(argument) needs a whole number above 0") }
        pairsOverride = count
    case "--only":
        var names = Set(value().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        if names.remove("corpus") != nil { names.formUnion(corpusRows.map(\.id)) }
        if names.remove("scaling") != nil { names.formUnion(scalingInputs.map(scalingID)) }
        let unknown = names.subtracting(allIDs)
        guard unknown.isEmpty else {
            fail(
                "unknown row \(unknown.sorted().joined(separator: ", ")); rows: corpus, scaling, "
                    + "\(allIDs.joined(separator: ", "))"
            )
        }
        only = names
    case "--list":
        say(allIDs.joined(separator: "\n"))
        exit(0)
    case "-h", "--help":
        say(usage + "\nrows (for --only; also the groups corpus and scaling): " + allIDs.joined(separator: ", "))
        exit(0)
    default: fail("unknown argument \(argument); \(usage)")
    }
}
guard !typesetPath.isEmpty, !floorPath.isEmpty, !corpus.isEmpty else { fail("\(usage) (make bench passes them)") }
@MainActor func selected(_ id: String) -> Bool { only?.contains(id) ?? true }

let scratch = NSTemporaryDirectory() + "typeset-bench-\(getpid())"
try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
let page = ["--paper", "a4", "--margins", "25mm"]

@MainActor func renderArguments(_ input: String, output: String, extra: [String] = []) -> [String] {
    [typesetPath, "render", input, "-o", output] + page + extra
}

// MARK: Start-up baseline

/// Median wall time of `runs` runs of `argv` (each must succeed).
func medianSeconds(_ argv: [String], runs: Int) -> Double {
    PairedStatistics.median((0..<runs).map { _ in mustRun(argv).seconds }) ?? 0
}

let emptyInput = ScalingInput.baseline(for: .render)
let emptyPath = "\(scratch)/\(emptyInput.fileName)"
try Data(emptyInput.text.utf8).write(to: URL(fileURLWithPath: emptyPath))
let emptySeconds = medianSeconds(renderArguments(emptyPath, output: "\(scratch)/empty.pdf"), runs: 5)

say(
    "Typeset beside the Pango + Cairo floor, \(ProcessInfo.processInfo.activeProcessorCount) cores, load "
        + "\(loadAverage()) at the start."
)
say(
    "Documents: in pairs (Typeset, floor, Typeset, floor …); times are medians, × floor the median of the per-pair "
        + "ratios;"
)
say("peak = the largest resident set of any run. Typeset renders A4 with 25 mm margins (the floor's 453.5 pt measure),")
say("tagged unless the row says --no-tags. s/MB: seconds per megabyte of input net of start-up (an empty document,")
say(
    "\(String(format: "%.3f", emptySeconds)) s; for tokens, a one-alias file). × large s/MB: that over the large "
        + "document's — for the"
)
say(
    "scaling rows the median of per-pair ratios, each input run beside a render of large (runs = pairs; an input "
        + "under 3 s"
)
say("is run 3 times a pair).")
say("")
say(BenchRow.header())

// MARK: Corpus, in pairs

var failed = false
var largeSecondsPerMB: Double?
for row in corpusRows where selected(row.id) {
    let markdown = "\(corpus)/\(row.document).md"
    let text = "\(corpus)/\(row.document).txt"
    guard FileManager.default.fileExists(atPath: markdown), FileManager.default.fileExists(atPath: text) else {
        say("| \(row.id) missing from \(corpus) |")
        failed = true
        continue
    }
    let pairs = pairsOverride ?? row.pairs
    var typesetRuns: [Run] = []
    var floorRuns: [Run] = []
    for _ in 0..<pairs {
        typesetRuns.append(mustRun(renderArguments(markdown, output: "\(scratch)/\(row.id).pdf", extra: row.extra)))
        floorRuns.append(mustRun([floorPath, text, "\(scratch)/\(row.id)-floor.pdf"]))
    }
    let bytes = fileSize(markdown)
    let seconds = PairedStatistics.median(typesetRuns.map(\.seconds)) ?? 0
    var result = BenchRow(
        input: row.extra.isEmpty ? row.id : "\(row.document) \(row.extra.joined(separator: " "))",
        megabytes: Double(bytes) / 1e6, pages: typesetRuns.last.flatMap(typesetPages), runs: pairs,
        seconds: seconds, peakMiB: typesetRuns.map(\.peakMiB).max() ?? 0)
    result.floorSeconds = PairedStatistics.median(floorRuns.map(\.seconds))
    result.floorPages = floorRuns.last.flatMap(floorPages)
    result.ratio = PairedStatistics.medianOfRatios(typesetRuns.map(\.seconds), floorRuns.map(\.seconds))
    result.floorPeakMiB = floorRuns.map(\.peakMiB).max()
    result.secondsPerMegabyte = PairedStatistics.secondsPerMegabyte(
        seconds: seconds, bytes: bytes, baselineSeconds: emptySeconds, baselineBytes: 0)
    if row.id == "large" { largeSecondsPerMB = result.secondsPerMegabyte }
    result.timesLarge = quotient(result.secondsPerMegabyte, largeSecondsPerMB)
    say(result.markdown)
}

// MARK: Scaling rows

let scalingSelected = scalingInputs.filter { selected(scalingID($0)) }
let largeMarkdown = "\(corpus)/large.md"
let largeBytes = fileSize(largeMarkdown)
var tokenBaselines: [ScalingInput.Command: Double] = [:]
for input in scalingSelected {
    let path = "\(scratch)/\(input.fileName)"
    try Data(input.text.utf8).write(to: URL(fileURLWithPath: path))
    func argv(_ file: String) -> [String] {
        switch input.command {
        case .render: return renderArguments(file, output: "\(scratch)/\(input.name).pdf")
        case .themeImport: return [typesetPath, "theme", "import", file, "-o", "\(scratch)/\(input.name).theme.json"]
        case .themeCheck: return [typesetPath, "theme", "check", file]
        }
    }
    var baselineSeconds = emptySeconds
    var baselineBytes = 0
    if input.command != .render {
        let baseline = ScalingInput.baseline(for: input.command)
        let baselinePath = "\(scratch)/\(baseline.fileName)"
        try Data(baseline.text.utf8).write(to: URL(fileURLWithPath: baselinePath))
        if tokenBaselines[input.command] == nil {
            tokenBaselines[input.command] = medianSeconds(argv(baselinePath), runs: 3)
        }
        baselineSeconds = tokenBaselines[input.command]!
        baselineBytes = baseline.bytes
    }
    // In pairs with the ordinary large document (input, large, input, large …), so the ratio of
    // their times per megabyte is measured side by side. An input under 3 s is run three times
    // in each pair and its median taken, so start-up noise does not swamp it.
    var inputRuns: [Run] = []
    var inputSeconds: [Double] = []
    var largeSeconds: [Double] = []
    for _ in 0..<(pairsOverride ?? 1) {
        var pair = [mustRun(argv(path))]
        if pair[0].seconds < 3 { pair += [mustRun(argv(path)), mustRun(argv(path))] }
        inputRuns += pair
        inputSeconds.append(PairedStatistics.median(pair.map(\.seconds)) ?? 0)
        if largeBytes > 0 {
            largeSeconds.append(mustRun(renderArguments(largeMarkdown, output: "\(scratch)/large.pdf")).seconds)
        }
    }
    let seconds = PairedStatistics.median(inputSeconds) ?? 0
    var result = BenchRow(
        input: input.command == .render ? input.name : "\(input.name) (\(input.command.rawValue))",
        megabytes: Double(input.bytes) / 1e6,
        pages: input.command == .render ? inputRuns.last.flatMap(typesetPages) : nil,
        runs: inputSeconds.count, seconds: seconds, peakMiB: inputRuns.map(\.peakMiB).max() ?? 0)
    func perMB(_ seconds: Double) -> Double? {
        PairedStatistics.secondsPerMegabyte(
            seconds: seconds, bytes: input.bytes, baselineSeconds: baselineSeconds, baselineBytes: baselineBytes)
    }
    func largePerMB(_ seconds: Double) -> Double? {
        PairedStatistics.secondsPerMegabyte(
            seconds: seconds, bytes: largeBytes, baselineSeconds: emptySeconds, baselineBytes: 0)
    }
    result.secondsPerMegabyte = perMB(seconds)
    let inputPerMB = inputSeconds.compactMap(perMB)
    let largePerMBs = largeSeconds.compactMap(largePerMB)
    if inputPerMB.count == inputSeconds.count, largePerMBs.count == largeSeconds.count {
        result.timesLarge = PairedStatistics.medianOfRatios(inputPerMB, largePerMBs)
    }
    say(result.markdown)
}

// MARK: The composer's figures

if selected("composer") {
    let path = "\(scratch)/justified.md"
    let output = "\(scratch)/justified.pdf"
    try Data(CompositionFigures.justifiedDocument(paragraphs: 60).utf8).write(to: URL(fileURLWithPath: path))
    let run = mustRun([typesetPath, "render", path, "-o", output])
    let pdftotext = Process()
    let pipe = Pipe()
    pdftotext.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pdftotext.arguments = ["pdftotext", "-bbox-layout", output, "-"]
    pdftotext.standardOutput = pipe
    try pdftotext.run()
    let xml = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    pdftotext.waitUntilExit()
    let figures = CompositionFigures(pdftotextXML: xml)
    say("")
    say(
        """
        Composer: justified 90 mm, Inter 10.5 pt: \(typesetPages(run).map(String.init) ?? "?") pages in \
        \(String(format: "%.2f", run.seconds)) s; \
        \(figures.lines) justified lines, word-space stretch p95 \(String(format: "%.2f", figures.p95))×, max \
        \(String(format: "%.2f", figures.max))×, \
        \(figures.loose) lines over 1.5×, \(figures.hyphenated) hyphenated line ends
        """)
    // Prose other people wrote (Debian's Node.js documentation) at 60, 90 and 120 mm, beside
    // Typst's (Typst and pikepdf from PyPI in .build/pdf-peers, which `make bench` makes;
    // without it, Typeset's alone).
    let venv = FileManager.default.currentDirectoryPath + "/.build/pdf-peers/bin/python"
    let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    let reference = Process()
    let referencePipe = Pipe()
    reference.executableURL = URL(fileURLWithPath: python)
    reference.arguments = ["bench/composition-reference.py", typesetPath]
    reference.standardOutput = referencePipe
    if (try? reference.run()) != nil {
        let text = String(decoding: referencePipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reference.waitUntilExit()
        say("Composer on documentation prose (p50/p95/max word gap ÷ natural space, lines > 1.5×, hyphens, ")
        say("consecutive hyphens, page-end hyphens, fragment last lines, breaks after a dash):")
        for line in text.split(separator: "\n") { say(String(line)) }
    }
}

// MARK: Renders in one process

/// Wall and processor time of one way of rendering, s: CLOCK_MONOTONIC, and this process's
/// user + system time (getrusage(2), `RUSAGE_SELF`).
struct Timing {
    var wall: Double
    var processor: Double
}

/// This process's user + system time so far, s (getrusage(2)).
func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Renders `documents` one after another, then all of them from a `TaskGroup`, each into
/// `folder`, and returns the two timings. Throws what a render throws.
func sequentialAndConcurrentSeconds(_ documents: [String], folder: String) async throws -> (Timing, Timing) {
    var options = RenderOptions()
    options.creationDate = Date(timeIntervalSince1970: 0)
    let fixed = options
    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    let start = now()
    let startProcessor = processorSeconds()
    for (index, markdown) in documents.enumerated() {
        _ = try await Typesetter.render(
            markdown: markdown, file: "r\(index).md", to: "\(folder)/alone-\(index).pdf", options: fixed)
    }
    let middle = now()
    let middleProcessor = processorSeconds()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, markdown) in documents.enumerated() {
            group.addTask {
                _ = try await Typesetter.render(
                    markdown: markdown, file: "r\(index).md", to: "\(folder)/together-\(index).pdf", options: fixed)
            }
        }
        try await group.waitForAll()
    }
    let end = now()
    let endProcessor = processorSeconds()
    return (
        Timing(wall: Double(middle - start) / 1e9, processor: middleProcessor - startProcessor),
        Timing(wall: Double(end - middle) / 1e9, processor: endProcessor - middleProcessor)
    )
}

if selected("concurrent") {
    // Twenty one-page reports, each the corpus's `one` document under a heading of its own.
    let one = (try? String(contentsOfFile: "\(corpus)/one.md", encoding: .utf8)) ?? "Report."
    let documents = (0..<20).map { "# Report \($0)\n\n" + one }
    var ratios: [Double] = []
    say("")
    say("Twenty one-page documents rendered in this process, one after another and from a TaskGroup, in turn:")
    for round in 1...(pairsOverride ?? 4) {
        do {
            let (sequential, parallel) = try await sequentialAndConcurrentSeconds(documents, folder: scratch)
            ratios.append(parallel.wall / sequential.wall)
            func seconds(_ value: Double) -> String { String(format: "%.2f", value) }
            say(
                "  round \(round): one after another \(seconds(sequential.wall)) s "
                    + "(processor \(seconds(sequential.processor)) s), TaskGroup \(seconds(parallel.wall)) s "
                    + "(processor \(seconds(parallel.processor)) s): ×\(seconds(parallel.wall / sequential.wall))"
                    + (round == 1 ? " (the first round makes each thread's font map)" : ""))
        } catch {
            fail("a render in this process failed: \(error)")
        }
    }
    if let median = PairedStatistics.median(ratios.count > 1 ? Array(ratios.dropFirst()) : ratios) {
        say(
            "  TaskGroup ÷ one after another, median of the rounds after the first: "
                + "×\(String(format: "%.2f", median)) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
    }
}
// MARK: Cancellation

/// Renders `markdown` asynchronously, cancels its task `delay` seconds in, and returns the
/// seconds from the cancellation to the render's return, or nil when it finished first.
/// Throws when the render fails for another reason than its cancellation, or leaves a file.
func secondsToStop(_ markdown: String, cancelledAfter delay: Double, output: String) async throws -> Double? {
    let task = Task { try await Typesetter.render(markdown: markdown, file: "large.md", to: output) }
    let cancelledAt = CancelClock()
    // A thread of its own cancels the task on time, whatever the concurrency pool is doing.
    Thread {
        Thread.sleep(forTimeInterval: delay)
        cancelledAt.mark()
        task.cancel()
    }.start()
    let result = await task.result
    let returned = DispatchTime.now().uptimeNanoseconds
    if case .success = result {
        try FileManager.default.removeItem(atPath: output)
        return nil
    }
    do {
        _ = try result.get()
    } catch is CancellationError {
        if FileManager.default.fileExists(atPath: output) { fail("a cancelled render left \(output)") }
        return Double(returned - cancelledAt.nanoseconds) / 1e9
    }
    return nil
}

/// The moment a task was cancelled, ns of `DispatchTime`, written by one thread and read by another.
final class CancelClock: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: UInt64 = 0
    func mark() { lock.withLock { stored = DispatchTime.now().uptimeNanoseconds } }
    var nanoseconds: UInt64 { lock.withLock { stored } }
}

if selected("cancellation") {
    // The corpus's `large` document (about 520 pages) cancelled at a tenth, a third, a half and
    // nine tenths of a whole render's time.
    let large = (try? String(contentsOfFile: "\(corpus)/large.md", encoding: .utf8)) ?? ""
    say("")
    say("The large document rendered through the library and cancelled part of the way in:")
    do {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try await Typesetter.render(markdown: large, file: "large.md", to: "\(scratch)/whole.pdf")
        let whole = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        try FileManager.default.removeItem(atPath: "\(scratch)/whole.pdf")
        var stops: [Double] = []
        for _ in 0..<(pairsOverride ?? 3) {
            for share in [0.1, 0.33, 0.5, 0.9] {
                let stop = try await secondsToStop(
                    large, cancelledAfter: whole * share, output: "\(scratch)/cancelled.pdf")
                if let stop { stops.append(stop) }
            }
        }
        let milliseconds = stops.sorted().map { String(format: "%.1f", $0 * 1000) }
        say(
            "  whole render \(String(format: "%.2f", whole)) s; from the cancellation to the return, ms, "
                + "sorted: \(milliseconds.joined(separator: ", "))")
    } catch {
        fail("a render in this process failed: \(error)")
    }
}

say("")
say("Load \(loadAverage()) at the end.")
if failed { exit(1) }
