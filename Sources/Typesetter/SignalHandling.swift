import Foundation
import Typography

extension Typesetter {
    /// The signals ``removeTemporaryFilesOnSignals()`` handles: those whose default action ends
    /// a process and that a user or system sends to stop a run (POSIX `signal.h`).
    public static let interruptingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Makes SIGINT, SIGTERM, SIGHUP and SIGQUIT remove the temporary output of the run in
    /// progress and end the process with the shell's status for them, 128 + the signal number
    /// (130, 143, 129, 131). Call once, before rendering. Each signal's handler is installed
    /// before the call returns, so a signal that arrives at any later moment is acted on (a
    /// Dispatch signal source is registered later, on its own queue, and would miss a signal
    /// arriving in between); the handler only writes the signal's number to a pipe, as a handler
    /// may (POSIX async-signal-safe functions), and a thread that reads the pipe does the rest,
    /// so the render itself needs no checks. (A reader closing a pipe, SIGPIPE, needs no
    /// handler: ``OutputFile`` unlinks its temporary file before writing to a pipe.)
    public static func removeTemporaryFilesOnSignals() {
        guard signalPipe.write < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        // Not passed on to the processes a batch starts: each makes its own.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipe = (ends[0], ends[1])
        let reader = Thread {
            var number: Int32 = 0
            while SwiftGlibc.read(signalPipe.read, &number, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {}
            for action in SignalActions.shared.all { action(number) }
            TemporaryFiles.removeAllBeforeExit()
            _exit(128 + number)
        }
        reader.start()
        // A process started from a thread that blocks signals (a Dispatch worker's) inherits
        // that mask: the signals are unblocked on this thread, so their handler runs here.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in interruptingSignals { sigaddset(&unblocked, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in interruptingSignals {
            _ = signal(signalNumber) { number in
                var number = number
                _ = SwiftGlibc.write(signalPipe.write, &number, MemoryLayout<Int32>.size)
            }
        }
    }

    /// Adds `action` to what an interrupting signal does before the temporary files are
    /// removed and the process exits (after ``removeTemporaryFilesOnSignals()``); it receives
    /// the signal's number. A program that runs renders in child processes passes the signal
    /// on to them and waits for them here, so that they remove their own temporary files.
    public static func onInterruptingSignal(_ action: @escaping @Sendable (Int32) -> Void) {
        SignalActions.shared.add(action)
    }
}

/// The actions registered with ``Typesetter/onInterruptingSignal(_:)``.
private final class SignalActions: @unchecked Sendable {
    static let shared = SignalActions()
    private let lock = NSLock()
    private var actions: [@Sendable (Int32) -> Void] = []

    func add(_ action: @escaping @Sendable (Int32) -> Void) { lock.withLock { actions.append(action) } }

    var all: [@Sendable (Int32) -> Void] { lock.withLock { actions } }
}

/// The pipe an interrupting signal's handler writes the signal's number to (both ends -1 until
/// ``Typesetter/removeTemporaryFilesOnSignals()``): set once, before any handler is installed,
/// and only read afterwards.
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
