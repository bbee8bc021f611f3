import Foundation
import Typography

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
                for action in SignalActions.shared.all { action(signalNumber) }
                TemporaryFiles.removeAllBeforeExit()
                _exit(128 + signalNumber)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

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
