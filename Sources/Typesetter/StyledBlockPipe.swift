import Foundation
import Styling

/// Something that yields a document's styled blocks a top-level block at a time: pure Swift
/// work that may run on its own thread.
protocol StyledBlockSource: Sendable {
    /// The blocks of the next top-level block (possibly none); nil after the last.
    mutating func next() -> [StyledBlock]?
}

/// Runs a ``StyledBlockSource`` on a producer thread that feeds the calling thread through a
/// small bounded queue, so styling (pure Swift) overlaps the layout and drawing the caller does
/// with Pango and Cairo: the second core works while the first draws. Blocks arrive in the
/// source's order, so the output is the same as with the source run in line; at most
/// ``capacity`` top-level blocks wait, so memory stays bounded whatever the document's length.
final class StyledBlockPipe: @unchecked Sendable {
    /// Top-level blocks the producer may run ahead of the consumer.
    static let capacity = 32
    /// The producer thread's stack, bytes: deeply nested lists and quotes are styled by
    /// recursion, so it matches the main thread's usual 8 MiB limit, with room to spare.
    static let stackSize = 16 << 20

    private let condition = NSCondition()
    private var queue: [[StyledBlock]] = []
    private var head = 0
    private var closed = false
    private var cancelled = false
    private var running = true

    /// Hands every chunk `source` yields to `body`, in order: on a producer thread when
    /// `threaded`, else in line. Returns the source as it ended (its summaries, diagnostics).
    /// When `body` throws, the producer is stopped and joined before the error propagates.
    /// - Throws: what `body` throws.
    static func forEach<Source: StyledBlockSource>(_ source: Source, threaded: Bool,
                                                  _ body: ([StyledBlock]) throws -> Void) throws -> Source {
        guard threaded else {
            var source = source
            while let chunk = source.next() { try body(chunk) }
            return source
        }
        let pipe = StyledBlockPipe()
        let ended = EndState<Source>()
        let thread = Thread {
            var source = source
            while let chunk = source.next() {
                guard pipe.put(chunk) else { break }
            }
            ended.value = source
            pipe.close()
        }
        thread.stackSize = stackSize
        thread.start()
        do {
            while let chunk = pipe.take() { try body(chunk) }
        } catch {
            pipe.cancel()
            pipe.join()
            throw error
        }
        pipe.join()
        return ended.value!
    }

    /// Waits for room, then queues `chunk`; false when the consumer has stopped.
    private func put(_ chunk: [StyledBlock]) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while queue.count - head >= StyledBlockPipe.capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        queue.append(chunk)
        condition.broadcast()
        return true
    }

    /// The next chunk, waiting for the producer; nil once it has closed the queue and every
    /// chunk has been taken.
    private func take() -> [StyledBlock]? {
        condition.lock(); defer { condition.unlock() }
        while head == queue.count && !closed { condition.wait() }
        guard head < queue.count else { return nil }
        let chunk = queue[head]
        queue[head] = []
        head += 1
        if head >= StyledBlockPipe.capacity {
            queue.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return chunk
    }

    private func close() {
        condition.lock(); closed = true; running = false; condition.broadcast(); condition.unlock()
    }

    private func cancel() {
        condition.lock(); cancelled = true; queue = []; head = 0; condition.broadcast(); condition.unlock()
    }

    /// Waits until the producer has finished.
    private func join() {
        condition.lock(); defer { condition.unlock() }
        while running { condition.wait() }
    }

    /// The source as the producer left it, handed back to the consumer after ``join()``.
    private final class EndState<Value>: @unchecked Sendable {
        var value: Value?
    }
}
