import DocumentModel
import Foundation
import MarkdownParser
import Typography

/// A rendered PDF held in memory, with what the run reported.
public struct RenderedPDF: Sendable {
    /// The PDF file's bytes (`%PDF-1.5` …).
    public var data: Data
    /// Pages in the PDF.
    public var pageCount: Int
    /// Warnings in source order (see ``RenderReport/diagnostics``).
    public var diagnostics: [Diagnostic]

    /// Creates a rendered PDF from its parts.
    public init(data: Data, pageCount: Int, diagnostics: [Diagnostic]) {
        self.data = data
        self.pageCount = pageCount
        self.diagnostics = diagnostics
    }

    /// Writes ``data`` to `path` all-or-nothing (a temporary file beside it, renamed into place;
    /// symbolic links followed; `-` is standard output).
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)``.
    public func write(to path: String) throws {
        let output = try OutputFile(target: path)
        let created = TemporaryFiles.creating {
            FileManager.default.createFile(atPath: output.temporaryPath, contents: data)
        }
        guard created else {
            throw TypesetError.unwritableOutput(path: path, reason: "cannot create a temporary file")
        }
        try output.commit()
    }
}

extension Typesetter {
    /// The facade's types under its own name, so `Typesetter.RenderOptions` resolves in a
    /// program that imports the `Typesetter` module (whose name the enum shadows).
    public typealias Options = RenderOptions
    /// See ``RenderReport``.
    public typealias Report = RenderReport

    /// Renders Markdown to PDF bytes in memory. `file` names the text in diagnostics and is the
    /// folder relative image paths resolve against (unless ``RenderOptions/baseDirectory`` is
    /// set); the default, `<memory>`, resolves them against ``RenderOptions/root`` when one is
    /// set, else the current folder.
    ///
    /// Pages still stream: Cairo writes them to a temporary file as they are laid out, and the
    /// finished file is read back once, so memory holds one page plus the finished PDF.
    /// - Throws: ``TypesetError`` (invalid theme, strict mode with warnings, Cairo failure).
    public static func render(markdown: String, file: String = "<memory>", options: RenderOptions = RenderOptions())
        throws -> RenderedPDF
    {
        let parsed = MarkdownParser.parse(markdown, file: file, cancellation: options.cancellation)
        try options.cancellation?.check()
        return try render(document: parsed.document, diagnostics: parsed.diagnostics, options: options)
    }

    /// Renders a document built in code (or parsed earlier) to PDF bytes in memory.
    /// - Throws: ``TypesetError``, as ``render(markdown:file:options:)``.
    public static func render(
        document: Document, diagnostics: [Diagnostic] = [], options: RenderOptions = RenderOptions()
    ) throws -> RenderedPDF {
        // Page pictures are files beside an output file: there is none here.
        if options.preview != nil {
            throw TypesetError.renderingFailed(
                "a page preview (RenderOptions.preview) writes image files beside its output: render to a file "
                    + "(render(markdown:file:to:options:)) for one")
        }
        let path = NSTemporaryDirectory() + "typeset-\(UUID().uuidString).pdf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try render(document: document, diagnostics: diagnostics, to: path, options: options)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TypesetError.renderingFailed("the finished PDF could not be read back from \(path)")
        }
        return RenderedPDF(data: data, pageCount: report.pageCount, diagnostics: report.diagnostics)
    }

    /// Renders Markdown and writes the PDF into `handle` (an open file, a pipe, a socket) once it
    /// is complete: a failed run writes nothing.
    /// - Throws: ``TypesetError``; ``TypesetError/unwritableOutput(path:reason:)`` when writing
    ///   to the handle fails.
    public static func render(
        markdown: String, file: String = "<memory>", into handle: FileHandle,
        options: RenderOptions = RenderOptions()
    ) throws -> RenderReport {
        let pdf = try render(markdown: markdown, file: file, options: options)
        if let reason = DescriptorWriting.write(pdf.data, to: handle.fileDescriptor) {
            throw TypesetError.unwritableOutput(path: "file handle \(handle.fileDescriptor)", reason: reason)
        }
        return RenderReport(pageCount: pdf.pageCount, diagnostics: pdf.diagnostics)
    }
}

/// Writing bytes to a descriptor a caller hands in, which may be a pipe or socket whose reader
/// has gone: `write(2)` then raises `SIGPIPE`, whose default action ends the process (POSIX,
/// "Signal Concepts"). A library must not end its host, so the signal is blocked in the
/// writing thread for the write, and one the write raised is taken before the mask is put
/// back; the write fails with `EPIPE` instead, which is said.
enum DescriptorWriting {
    /// Writes all of `data` to `descriptor`; nil when written, else why not (`strerror`'s words
    /// and the error's name).
    static func write(_ data: Data, to descriptor: Int32) -> String? {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        let failure: Int32? = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        guard let failure else { return nil }
        let words = String(cString: strerror(failure))
        return failure == EPIPE ? "\(words) (EPIPE: the reader closed it)" : "\(words) (errno \(failure))"
    }
}
