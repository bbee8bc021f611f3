import Foundation

/// The temporary files a run is writing (``OutputFile``), so that an interrupted run can remove
/// them: SIGINT (Ctrl-C) or SIGTERM (`timeout`, `kill`) never leaves a `.out.pdf.XXXX.tmp`
/// behind.
enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: Set<String> = []
    }
    private static let registry = Registry()

    /// Remembers `path` until ``forget(_:)``.
    static func register(_ path: String) {
        registry.lock.lock(); defer { registry.lock.unlock() }
        registry.paths.insert(path)
    }

    /// Stops remembering `path` (it was renamed into place or removed).
    static func forget(_ path: String) {
        registry.lock.lock(); defer { registry.lock.unlock() }
        registry.paths.remove(path)
    }

    /// Unlinks every remembered file (from a signal handler's queue: `unlink(2)` only).
    static func removeAll() {
        registry.lock.lock(); defer { registry.lock.unlock() }
        for path in registry.paths { unlink(path) }
        registry.paths.removeAll()
    }
}

extension Typesetter {
    /// Makes SIGINT and SIGTERM remove the temporary output of the run in progress and end the
    /// process with the shell's status for them, 128 + the signal number (130 for SIGINT, 143
    /// for SIGTERM). Call once, before rendering; the handlers run on a Dispatch queue, so the
    /// render itself needs no checks.
    public static func removeTemporaryFilesOnSignals() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)   // let the Dispatch source, not the default action, see it
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                TemporaryFiles.removeAll()
                _exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []
}
