import Foundation
import Typesetter

/// Several inputs rendered at once, into one folder or each beside its input: each file by a
/// child `typeset render` process, at most `jobs` at a time, so that each file's messages,
/// exit status and memory are its own.
enum Batch {
    struct Outcome: Sendable {
        var input: String
        var output: String
        var status: Int32
        var messages: String
        var seconds: Double
    }

    static func run(
        inputs: [String], folder: String?, jobs: Int, forwarded: [String], quiet: Bool, format: Messages.Format,
        fileExtension: String = "pdf"
    ) throws {
        if let folder {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw TypesetError.unwritableOutput(
                    path: folder, reason: "cannot create the folder: \((error as NSError).localizedDescription)")
            }
        }
        // One output per input: two inputs named alike would overwrite each other.
        var seen: [String: String] = [:]
        var outputs: [String] = []
        for input in inputs {
            let output =
                folder.map {
                    ($0 as NSString).appendingPathComponent(
                        URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent + "." + fileExtension)
                } ?? RenderCommand.defaultOutput(for: input, format: fileExtension)
            if let first = seen[output] {
                throw UsageError("'\(first)' and '\(input)' would both be written to \(output)")
            }
            seen[output] = input
            outputs.append(output)
        }
        let executable = executablePath()
        Typesetter.onInterruptingSignal { Children.shared.stopAll(with: $0) }
        let start = Date()
        let lock = NSLock()
        nonisolated(unsafe) var done = 0
        nonisolated(unsafe) var failed: [String] = []
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = jobs
        for (input, output) in zip(inputs, outputs) {
            queue.addOperation {
                let outcome = render(input, to: output, executable: executable, forwarded: forwarded)
                lock.lock()
                defer { lock.unlock() }
                done += 1
                if outcome.status != 0 { failed.append(input) }
                let messages = outcome.messages.trimmingCharacters(in: .newlines)
                if format == .json || quiet {
                    if !messages.isEmpty, outcome.status != 0 || format == .json { Messages.error(messages) }
                    return
                }
                // Child's warnings (or error), then one progress line.
                // A child that succeeded ends with its report, naming the files it actually
                // wrote (`DIR/a-1.png, DIR/a-2.png: 2 of 2 pages` for page images).
                var lines = messages.split(separator: "\n").map(String.init)
                let written = outcome.status == 0 && !lines.isEmpty ? lines.removeLast() : nil
                for line in lines { Messages.error(line) }
                let verdict = outcome.status == 0 ? written ?? "\(output): written" : "failed"
                Messages.error(
                    "[\(done)/\(inputs.count)] \(input) → \(verdict) (\(String(format: "%.2f", outcome.seconds)) s)")
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        // Children stopped by a signal: the signal's handler ends the process with its status.
        if Children.shared.isStopping { dispatchMain() }
        let seconds = Date().timeIntervalSince(start)
        if format == .text, !quiet || !failed.isEmpty {
            Messages.error(
                "\(inputs.count) file\(inputs.count == 1 ? "" : "s") in \(String(format: "%.2f", seconds)) s "
                    + "(\(jobs) job\(jobs == 1 ? "" : "s")): "
                    + "\(inputs.count - failed.count) written, \(failed.count) failed")
        }
        if !failed.isEmpty { exit(1) }
    }

    /// Runs `typeset render INPUT -o OUTPUT OPTIONS…` and collects what it printed.
    static func render(_ input: String, to output: String, executable: String, forwarded: [String]) -> Outcome {
        let start = Date()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["render", input, "-o", output] + forwarded
        let pipe = Pipe()
        child.standardError = pipe
        child.standardOutput = FileHandle.nullDevice
        child.standardInput = FileHandle.nullDevice
        do { try Children.shared.start(child) } catch {
            return Outcome(
                input: input, output: output, status: 1, messages: "typeset: cannot start \(executable): \(error)",
                seconds: 0)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        Children.shared.remove(child)
        return Outcome(
            input: input, output: output, status: child.terminationStatus,
            messages: String(decoding: data, as: UTF8.self),
            seconds: Date().timeIntervalSince(start))
    }

    /// This program's own file (`/proc/self/exe`), so children run the same build.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The child renders running, so that a signal sent to this process alone (`kill`, a
/// supervisor stopping the command) reaches them too: each then removes its temporary files,
/// and none writes its output after its parent has ended.
private final class Children: @unchecked Sendable {
    static let shared = Children()
    private let lock = NSLock()
    private var running: [ObjectIdentifier: Process] = [:]
    private var stopping = false

    /// Starts `child` unless a signal is being passed on.
    /// - Throws: what `Process.run()` throws; `CancellationError` once stopping.
    func start(_ child: Process) throws {
        try lock.withLock {
            if stopping { throw CancellationError() }
            try child.run()
            running[ObjectIdentifier(child)] = child
        }
    }

    /// Whether a signal is being passed on to the children.
    var isStopping: Bool { lock.withLock { stopping } }

    /// Forgets `child`, which has ended.
    func remove(_ child: Process) { _ = lock.withLock { running.removeValue(forKey: ObjectIdentifier(child)) } }

    /// Sends `signal` to every running child and waits (at most 10 s) until they have ended.
    func stopAll(with signal: Int32) {
        let children = lock.withLock {
            stopping = true
            return Array(running.values)
        }
        for child in children { kill(child.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, children.contains(where: \.isRunning) { usleep(10_000) }
    }
}
