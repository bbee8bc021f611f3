import Foundation

/// How many asynchronous renders run at once in this process: one per processor. A render is
/// work for the processor from its first byte to its last (parsing, shaping, drawing,
/// compressing; it reads only local files), so renders beyond the processor count only take
/// turns on the same cores, and each running render holds a Pango font map of its own, which
/// resolves every font description through fontconfig the first time it meets it. Twenty
/// renders from a `TaskGroup` therefore run as many at a time as there are processors, the
/// others waiting, suspended, for a slot, in the order they asked; a task cancelled while it
/// waits stops waiting at once.
///
/// Synchronous renders do not take slots: a caller that starts threads of its own decides how
/// many run.
final class RenderSlots: @unchecked Sendable {
    /// The process's slots, one per active processor.
    static let shared = RenderSlots(count: ProcessInfo.processInfo.activeProcessorCount)

    private let lock = NSLock()
    /// Slots no render holds.
    private var free: Int
    /// Renders waiting for a slot, the first to ask first, each with the number its wait was given.
    private var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Waits given their number but not yet queued or given a slot.
    private var unqueued: Set<UInt64> = []
    /// Of those, the ones whose task was cancelled.
    private var cancelledTickets: Set<UInt64> = []
    private var nextTicket: UInt64 = 0

    /// How many renders may hold a slot at once.
    let count: Int

    /// Slots for `count` renders at once (at least one).
    init(count: Int) {
        self.count = max(1, count)
        free = self.count
    }

    /// Takes a slot, waiting (suspended) for one when all are held. Every call that returns
    /// must be followed by ``leave()``.
    /// - Throws: `CancellationError` when the task is cancelled before it has a slot.
    func enter() async throws {
        try Task.checkCancellation()
        let ticket: UInt64 = lock.withLock {
            nextTicket += 1
            unqueued.insert(nextTicket)
            return nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = lock.withLock {
                    unqueued.remove(ticket)
                    if cancelledTickets.remove(ticket) != nil { return .failure(CancellationError()) }
                    if free > 0 {
                        free -= 1
                        return .success(())
                    }
                    waiting.append((ticket, continuation))
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Void, any Error>? = lock.withLock {
                if let index = waiting.firstIndex(where: { $0.ticket == ticket }) {
                    return waiting.remove(at: index).continuation
                }
                // Not queued yet: the wait sees the mark when it queues. Already given a
                // slot: the render holds it and stops at its own next check.
                if unqueued.contains(ticket) { cancelledTickets.insert(ticket) }
                return nil
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back: to the render that has waited longest, if any.
    func leave() {
        let next: CheckedContinuation<Void, any Error>? = lock.withLock {
            if waiting.isEmpty {
                free += 1
                return nil
            }
            return waiting.removeFirst().continuation
        }
        next?.resume()
    }

    /// Slots no render holds, and renders waiting for one (for tests).
    var state: (free: Int, waiting: Int) { lock.withLock { (free, waiting.count) } }
}
