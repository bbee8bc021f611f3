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
                        let report = try render(markdown: markdown, file: file, to: output, options: request)
                        continuation.resume(returning: report)
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
