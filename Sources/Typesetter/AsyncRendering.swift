import DocumentModel
import Foundation

extension Typesetter {
    /// The stack of the thread an asynchronous render runs on, bytes (as the styling thread's:
    /// deeply nested documents recurse).
    static let renderStackSize = 16 << 20

    /// Renders `markdown` (named `file` in diagnostics) to the PDF at `output`, as
    /// ``render(markdown:file:to:options:)`` does, on a thread of its own so that the calling
    /// task's executor is never blocked. As many asynchronous renders run at once as the
    /// process has processors; the others wait, suspended, for one of them to end, in the
    /// order they were asked for (``RenderSlots``).
    ///
    /// Cancelling the calling task stops the render at its next check (``Cancellation``) — in
    /// the parse's passes, between blocks and between pages in every layout pass, inside a
    /// long table, paragraph or code block, and before the tagging pass — and nothing is
    /// written: the output appears only when the render succeeded (temporary file + rename).
    /// - Throws: `CancellationError` when the task was cancelled before the render finished
    ///   (or while it waited for its turn);
    ///   otherwise what ``render(markdown:file:to:options:)`` throws.
    public static func render(
        markdown: String, file: String, to output: String, options: RenderOptions = RenderOptions()
    ) async throws -> RenderReport {
        try await onRenderThread(options) { try render(markdown: markdown, file: file, to: output, options: $0) }
    }

    /// Renders `markdown` to PDF bytes in memory, as ``render(markdown:file:options:)`` does,
    /// on a thread of its own, waiting for its turn and stopped by cancelling the calling task
    /// as ``render(markdown:file:to:options:)`` (async) is. Inside an `async` function Swift
    /// chooses this overload.
    /// - Throws: `CancellationError` when the task was cancelled before the render finished;
    ///   otherwise what ``render(markdown:file:options:)`` throws.
    public static func render(
        markdown: String, file: String = "<memory>", options: RenderOptions = RenderOptions()
    ) async throws -> RenderedPDF {
        try await onRenderThread(options) { try render(markdown: markdown, file: file, options: $0) }
    }

    /// Renders a document built in code (or parsed earlier) to PDF bytes in memory, on a
    /// thread of its own, as ``render(markdown:file:options:)`` (async) does.
    /// - Throws: `CancellationError` when the task was cancelled before the render finished;
    ///   otherwise what ``render(document:diagnostics:options:)`` throws.
    public static func render(
        document: Document, diagnostics: [Diagnostic] = [], options: RenderOptions = RenderOptions()
    ) async throws -> RenderedPDF {
        try await onRenderThread(options) { try render(document: document, diagnostics: diagnostics, options: $0) }
    }

    /// Runs `render` with `options` and a cancellation of its own on a new thread once a render
    /// slot is free (``RenderSlots``), suspending the calling task meanwhile; cancelling the
    /// task raises the cancellation, and what `render` then throws is `CancellationError`.
    static func onRenderThread<Result: Sendable>(
        _ options: RenderOptions, _ render: @escaping @Sendable (RenderOptions) throws -> Result
    ) async throws -> Result {
        try await RenderSlots.shared.enter()
        defer { RenderSlots.shared.leave() }
        let cancellation = Cancellation()
        var checked = options
        checked.cancellation = cancellation
        let request = checked
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    do {
                        continuation.resume(returning: try render(request))
                    } catch {
                        continuation.resume(throwing: cancellation.isCancelled ? CancellationError() : error)
                    }
                }
                thread.stackSize = renderStackSize
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
