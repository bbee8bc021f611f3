import Foundation
internal import PangoCairoBackend
import Typography

/// The write stage: the output is written to a temporary file in the target folder and renamed
/// into place only when the whole render succeeded (a preview's pictures are renamed page by
/// page, and the PDF's temporary file is discarded). A failed run leaves nothing half-written.
enum WriteStage {
    /// Opens the output `target` (`-`: standard output), runs `produce` to fill its temporary
    /// file, then commits it, or discards it for a `preview` or when `produce` throws.
    /// - Throws: ``TypesetError`` from opening or committing the output and from `produce`;
    ///   `CancellationError` as it is; any other error from `produce` as
    ///   ``TypesetError/renderingFailed(_:)``.
    static func write<Result>(
        to target: String, preview: PagePreview?,
        _ produce: (OutputFile) throws -> Result
    ) throws -> Result {
        let outputFile = try OutputFile(target: target)
        // A preview's per-page files are written as `.NAME-N.png.tmp` and renamed: an
        // interrupted run removes the one being written.
        let previewTemporaries = preview.map { temporaryFiles(of: $0, base: outputFile.destination) }
        if let previewTemporaries { TemporaryFiles.register(pattern: previewTemporaries) }
        defer { if let previewTemporaries { TemporaryFiles.forget(pattern: previewTemporaries) } }
        do {
            let result = try produce(outputFile)
            if preview == nil { try outputFile.commit() } else { outputFile.discard() }
            return result
        } catch {
            outputFile.discard()
            if let error = error as? TypesetError { throw error }
            if error is CancellationError { throw error }
            // A temporary file that cannot be made is the output's problem, said of the output.
            if case BackendError.cannotCreate(let path, let reason) = error, path == outputFile.temporaryPath {
                throw TypesetError.unwritableOutput(path: target, reason: reason)
            }
            throw TypesetError.renderingFailed(String(describing: error))
        }
    }

    /// The temporary files a preview of `base` writes, one per page before it is renamed to
    /// ``PagePreview/path(for:page:)``: `.NAME-N.png.tmp` beside each picture.
    static func temporaryFiles(of preview: PagePreview, base: String) -> TemporaryFiles.Pattern {
        let (folder, prefix) = preview.temporaryPrefix(for: base)
        let suffix = ".\(preview.format.rawValue).tmp"
        return TemporaryFiles.Pattern(folder: folder.isEmpty ? "." : folder, prefix: prefix, suffix: suffix)
    }
}
