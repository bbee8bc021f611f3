import Foundation
import MarkdownParser

/// The facade's calls for file URLs, as Foundation's file APIs take them: the input read as
/// the command line reads it (a regular file up to ``FileReader/markdownLimit``, UTF-8 with
/// each bad sequence set as U+FFFD and one warning), diagnostics named by the file's path.
extension Typesetter {
    /// Renders the Markdown file `input` to the PDF file `output` (temporary file + rename: the
    /// file appears only when rendering succeeded).
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` when `input` is not a file URL
    ///   or cannot be read; ``TypesetError/unwritableOutput(path:reason:)`` when `output` is
    ///   not a file URL; otherwise as ``render(markdown:file:to:options:)``.
    public static func render(
        contentsOf input: URL, to output: URL, options: RenderOptions = RenderOptions()
    ) throws -> RenderReport {
        let source = try read(input)
        var report = try render(markdown: source.text, file: input.path, to: try path(of: output), options: options)
        report.diagnostics = inSourceOrder(source.diagnostics + report.diagnostics)
        return report
    }

    /// Renders the Markdown file `input` to PDF bytes in memory.
    /// - Throws: as ``render(contentsOf:to:options:)`` and ``render(markdown:file:options:)``.
    public static func render(contentsOf input: URL, options: RenderOptions = RenderOptions()) throws -> RenderedPDF {
        let source = try read(input)
        var pdf = try render(markdown: source.text, file: input.path, options: options)
        pdf.diagnostics = inSourceOrder(source.diagnostics + pdf.diagnostics)
        return pdf
    }

    /// Renders the Markdown file `input` to the PDF file `output` on a thread of its own;
    /// cancelling the calling task stops the render and leaves no file, as
    /// ``render(markdown:file:to:options:)`` (async) does.
    /// - Throws: `CancellationError` when the task was cancelled; otherwise as
    ///   ``render(contentsOf:to:options:)``.
    public static func render(
        contentsOf input: URL, to output: URL, options: RenderOptions = RenderOptions()
    ) async throws -> RenderReport {
        // An output that is no file URL is refused before the render waits for a slot; the
        // input is read on the render's thread (a file of up to 512 MiB is no work for the
        // task's executor).
        _ = try path(of: output)
        return try await onRenderThread(options) { try render(contentsOf: input, to: output, options: $0) }
    }

    /// Renders the Markdown file `input` to PDF bytes in memory on a thread of its own, as
    /// ``render(markdown:file:options:)`` (async) does.
    /// - Throws: `CancellationError` when the task was cancelled; otherwise as
    ///   ``render(contentsOf:options:)``.
    public static func render(contentsOf input: URL, options: RenderOptions = RenderOptions()) async throws
        -> RenderedPDF
    {
        try await onRenderThread(options) { try render(contentsOf: input, options: $0) }
    }

    /// The text of the file `url`, decoded.
    private static func read(_ url: URL) throws -> InputFile.Text {
        guard url.isFileURL else {
            throw TypesetError.unreadableInput(
                path: url.absoluteString, reason: "not a file URL (remote documents are never fetched)")
        }
        return try InputFile.read(url.path, streams: false)
    }

    /// The path of the file URL `url`, for output.
    private static func path(of url: URL) throws -> String {
        guard url.isFileURL else {
            throw TypesetError.unwritableOutput(path: url.absoluteString, reason: "not a file URL")
        }
        return url.path
    }
}
