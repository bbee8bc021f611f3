import Foundation
internal import PangoCairoBackend

/// The temporary files a run is writing (``OutputFile``, and the picture files of a preview),
/// so that an interrupted run can remove them: SIGINT (Ctrl-C), SIGTERM (`timeout`, `kill`),
/// SIGHUP (the terminal closed) or SIGQUIT never leaves a `.out.pdf.XXXX.tmp` behind.
enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: Set<String> = []
        var patterns: Set<Pattern> = []
    }

    /// Files named `prefix…suffix` in `folder`: the per-page temporary files of a preview,
    /// whose names are known only as each page is drawn.
    struct Pattern: Hashable {
        /// The folder the files are in (`.` for the current folder).
        var folder: String
        /// How each name starts and ends.
        var prefix: String, suffix: String
    }
    private static let registry = Registry()

    /// Remembers `path` until ``forget(_:)``.
    static func register(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.insert(path)
    }

    /// Stops remembering `path` (it was renamed into place or removed).
    static func forget(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.remove(path)
    }

    /// Remembers every file `pattern` matches until ``forget(pattern:)``.
    static func register(pattern: Pattern) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.patterns.insert(pattern)
    }

    /// Stops remembering `pattern` (the run that writes such files ended).
    static func forget(pattern: Pattern) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.patterns.remove(pattern)
    }

    /// Unlinks every remembered file (from a Dispatch queue the signal sources run on, not
    /// inside a signal handler) and stops any later file creation (``FileCreation``), so that
    /// a page picture begun while the folder is listed is not left behind: the caller exits.
    static func removeAllBeforeExit() {
        FileCreation.stopForever()
        registry.lock.lock()
        defer { registry.lock.unlock() }
        for path in registry.paths { unlink(path) }
        registry.paths.removeAll()
        for pattern in registry.patterns {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: pattern.folder)) ?? []
            for name in names where name.hasPrefix(pattern.prefix) && name.hasSuffix(pattern.suffix) {
                unlink((pattern.folder as NSString).appendingPathComponent(name))
            }
        }
        registry.patterns.removeAll()
    }
}

extension Typesetter {
    /// The signals ``removeTemporaryFilesOnSignals()`` handles: those whose default action ends
    /// a process and that a user or system sends to stop a run (POSIX `signal.h`).
    public static let interruptingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Makes SIGINT, SIGTERM, SIGHUP and SIGQUIT remove the temporary output of the run in
    /// progress and end the process with the shell's status for them, 128 + the signal number
    /// (130, 143, 129, 131). Call once, before rendering; the handlers run on a Dispatch queue,
    /// so the render itself needs no checks. (A reader closing a pipe, SIGPIPE, needs no
    /// handler: ``OutputFile`` unlinks its temporary file before writing to a pipe.)
    public static func removeTemporaryFilesOnSignals() {
        for signalNumber in interruptingSignals {
            signal(signalNumber, SIG_IGN)  // let the Dispatch source, not the default action, see it
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                TemporaryFiles.removeAllBeforeExit()
                _exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
}
