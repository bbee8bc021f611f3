import Foundation

/// A task executor of one thread of its own. Tasks that prefer it
/// (`withTaskExecutorPreference(_:operation:)`, inherited by child tasks) run there instead of
/// on Swift's shared cooperative pool, which the test process's synchronous tests hold for
/// seconds at a time: a test that times awaited renders under that load would otherwise time
/// how long each continuation waits for a pool thread (20 renders one after another measured
/// 200 to 350 s in CI, against 2 s alone), not the renders.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts the executor's thread, which holds the executor until ``stop()`` ends it.
    public init() {
        let thread = Thread { self.run() }
        thread.start()
    }

    /// Ends the thread once the jobs already enqueued have run; the executor is freed when
    /// nothing else holds it.
    public func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    public func enqueue(_ job: UnownedJob) {
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
