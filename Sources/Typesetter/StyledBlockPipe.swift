import Foundation
import Styling
import WorkQueues

/// Something that yields a document's styled blocks a top-level block at a time: pure Swift
/// work that may run on its own thread.
protocol StyledBlockSource: Sendable {
    /// The blocks of the next top-level block (possibly none); nil after the last.
    mutating func next() -> [StyledBlock]?
}

/// Runs a ``StyledBlockSource`` on a producer thread that feeds the calling thread through a
/// small bounded queue (``WorkQueue``), so styling (pure Swift) overlaps the layout and drawing
/// the caller does with Pango and Cairo: the second core works while the first draws. Blocks
/// arrive in the source's order, so the output is the same as with the source run in line; at
/// most ``capacity`` top-level blocks wait, so memory stays bounded whatever the document's length.
enum StyledBlockPipe {
    /// Top-level blocks the producer may run ahead of the consumer.
    static let capacity = 32
    /// The producer thread's stack, bytes: deeply nested lists and quotes are styled by
    /// recursion, so it matches the main thread's usual 8 MiB limit, with room to spare.
    static let stackSize = 16 << 20

    /// Hands every chunk `source` yields to `body`, in order: on a producer thread when
    /// `threaded`, else in line. Returns the source as it ended (its summaries, diagnostics).
    /// When `body` throws, the producer is stopped and joined before the error propagates.
    /// - Throws: what `body` throws.
    static func forEach<Source: StyledBlockSource>(
        _ source: Source, threaded: Bool,
        _ body: ([StyledBlock]) throws -> Void
    ) throws -> Source {
        guard threaded else {
            var source = source
            while let chunk = source.next() { try body(chunk) }
            return source
        }
        let queue = WorkQueue<[StyledBlock]>(capacity: capacity)
        let ended = EndState<Source>()
        queue.startProducer(stackSize: stackSize) { queue in
            var source = source
            while let chunk = source.next() {
                guard queue.put(chunk) else { break }
            }
            ended.value = source
        }
        do {
            while let chunk = try queue.take() { try body(chunk) }
        } catch {
            queue.cancel()
            queue.join()
            throw error
        }
        queue.join()
        return ended.value!
    }

    /// The source as the producer left it, handed back to the consumer after the producer ends.
    private final class EndState<Value>: @unchecked Sendable {
        var value: Value?
    }
}
