import Synchronization

/// The flag a render's caller raises to stop it, read by every stage of the render on every
/// thread it runs on: between blocks and pages, and inside the work of one block that can take
/// long (a table's rows, a long paragraph's measuring and line breaking, the parse's passes over
/// the text, the tagging pass's pages). A stage that sees it raised stops and leaves what it made
/// unfinished; the render then throws `CancellationError` and writes nothing.
///
/// Reading it is one atomic load, cheap enough for a loop to read every few hundred steps.
public final class Cancellation: Sendable {
    private let raised = Atomic<Bool>(false)

    /// A flag not raised.
    public init() {}

    /// Asks the render to stop at its next check; safe from any thread.
    public func cancel() { raised.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { raised.load(ordering: .relaxed) }

    /// - Throws: `CancellationError` once ``cancel()`` was called.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
