import Foundation

/// A bounded queue that hands elements from one producer to one consumer in the order they were
/// put: the producer waits while ``capacity`` elements wait, the consumer while none does.
///
/// The producer ends the queue with ``close(throwing:)``: the consumer takes every element put
/// before, then gets the end (nil) or the producer's error. The consumer stops early with
/// ``cancel()``: what waits is dropped and the producer's ``put(_:)`` returns false from then
/// on (at once if it is waiting for room), so a producer thread always ends.
///
/// ``startProducer(stackSize:_:)`` runs the producer on a thread of its own, closing the queue
/// when it returns (with what it throws); ``join()`` waits for that thread. Safe to use from the
/// two threads at once: a lock and a condition guard the elements. A waiting consumer is woken
/// by each element put; a producer waiting for room is woken only once the queue has fallen to
/// half its capacity, so a producer that runs ahead wakes once for every `capacity / 2`
/// elements taken, not once for each (fewer context switches, which a page-heavy document
/// counts in tens of thousands).
public final class WorkQueue<Element>: @unchecked Sendable {
    /// How many elements may wait for the consumer (at least 1).
    public let capacity: Int
    private let condition = NSCondition()
    /// The elements put and not yet taken are `elements[head...]`. Guarded by `condition`.
    private var elements: [Element?] = []
    private var head = 0
    /// Set by the producer's ``close(throwing:)``. Guarded by `condition`.
    private var closed = false
    private var failure: (any Error)?
    /// Set by the consumer's ``cancel()``. Guarded by `condition`.
    private var cancelled = false
    /// Whether a producer thread started here is still running. Guarded by `condition`.
    private var producing = false
    /// Whether the producer waits for room, and whether the consumer waits for an element.
    /// Guarded by `condition`.
    private var producerWaits = false
    private var consumerWaits = false

    /// An empty queue where at most `capacity` elements (at least 1) wait.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many elements wait for the consumer.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count - head
    }

    /// Waits for room, then queues `element`. Returns false, dropping `element`, once the
    /// consumer has cancelled (the producer should stop) or the queue was closed.
    @discardableResult
    public func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count - head >= capacity && !cancelled {
            producerWaits = true
            condition.wait()
        }
        producerWaits = false
        guard !cancelled, !closed else { return false }
        elements.append(element)
        if consumerWaits { condition.broadcast() }
        return true
    }

    /// Ends the queue (producer side): the consumer takes the elements put so far, then gets
    /// nil, or `error` when one is given. Later calls change nothing.
    public func close(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        closed = true
        failure = error
        condition.broadcast()
    }

    /// The oldest element, waiting for one; nil once the queue is closed and every element put
    /// has been taken, or after ``cancel()``.
    /// - Throws: the error the producer closed the queue with, once the elements put before it
    ///   have been taken.
    public func take() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count && !closed && !cancelled {
            consumerWaits = true
            condition.wait()
        }
        consumerWaits = false
        guard !cancelled else { return nil }
        guard head < elements.count else {
            if let failure { throw failure }
            return nil
        }
        let element = elements[head]
        elements[head] = nil
        head += 1
        // The taken slots are dropped once they are as many as may wait.
        if head >= capacity {
            elements.removeFirst(head)
            head = 0
        }
        if producerWaits && elements.count - head <= capacity / 2 { condition.broadcast() }
        return element
    }

    /// Stops the queue (consumer side): the elements waiting are dropped, a producer waiting
    /// for room wakes, and every later ``put(_:)`` returns false.
    public func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        elements = []
        head = 0
        condition.broadcast()
    }

    /// Runs `produce` on a new thread (of `stackSize` bytes when given), handing it this queue to
    /// put into; when it returns the queue is closed, with the error it threw if it threw one.
    /// `produce` runs on that thread: what it captures must be safe to use there.
    public func startProducer(stackSize: Int? = nil, _ produce: @escaping (WorkQueue<Element>) throws -> Void) {
        condition.lock()
        producing = true
        condition.unlock()
        let job = Job(produce)
        let thread = Thread { [self] in
            do {
                try job.produce(self)
                close()
            } catch {
                close(throwing: error)
            }
            condition.lock()
            producing = false
            condition.broadcast()
            condition.unlock()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Waits until the thread ``startProducer(stackSize:_:)`` started has returned (at once when
    /// there is none). Call ``cancel()`` first to stop a producer the consumer no longer reads.
    public func join() {
        condition.lock()
        defer { condition.unlock() }
        while producing { condition.wait() }
    }

    /// The producer, handed to its thread.
    private final class Job: @unchecked Sendable {
        let produce: (WorkQueue<Element>) throws -> Void
        init(_ produce: @escaping (WorkQueue<Element>) throws -> Void) { self.produce = produce }
    }
}
