internal import CPangoCairo
import Foundation
import Typography

/// Pages drawn as pictures instead of a PDF (``CairoPDFRenderer/startPictures(_:)``): one PNG
/// (Cairo's image surface, `cairo_surface_write_to_png`) or SVG (Cairo's SVG surface) file per
/// page, drawn by the same code that draws the PDF.
public struct PictureOutput: Sendable {
    /// SVG (vectors, 1 user unit = 1 pt) when true, else PNG (a raster image at ``dpi``).
    public var isVector: Bool
    /// PNG resolution in dots per inch: a page of W pt is ⌈W × dpi / 72⌉ pixels wide.
    public var dpi: Double
    /// Whether page `n` (1-based) is written.
    public var wants: @Sendable (Int) -> Bool
    /// The file page `n` (1-based) is written to.
    public var path: @Sendable (Int) -> String
    /// Where page `n` is written before it is renamed to `path(n)`.
    public var temporaryPath: @Sendable (Int) -> String

    /// Pictures of the pages `wants` selects, PNG at `dpi` or SVG (`isVector`), page `n` in the
    /// file `path(n)`, written first to `temporaryPath(n)`.
    public init(
        isVector: Bool, dpi: Double, wants: @escaping @Sendable (Int) -> Bool,
        path: @escaping @Sendable (Int) -> String, temporaryPath: @escaping @Sendable (Int) -> String
    ) {
        self.isVector = isVector
        self.dpi = dpi
        self.wants = wants
        self.path = path
        self.temporaryPath = temporaryPath
    }
}

/// Draws a renderer's pages into one picture surface per page instead of its PDF surface.
final class PreviewSink {
    let preview: PictureOutput
    /// The files written so far, in page order.
    var files: [String] = []
    private var pending: (surface: OpaquePointer, path: String, temporary: String)?

    init(_ preview: PictureOutput) { self.preview = preview }

    func wants(_ page: Int) -> Bool { preview.wants(page) }

    /// A new surface and context for page `number` of `size` pt, scaled so drawing is in pt,
    /// on white (PNG) — the caller destroys the previous pair.
    func begin(page number: Int, width: Double, height: Double) throws -> (surface: OpaquePointer, cr: OpaquePointer) {
        let path = preview.path(number)
        let temporary = preview.temporaryPath(number)
        let surface: OpaquePointer
        switch preview.isVector ? Format.svg : Format.png {
        case .png:
            let scale = preview.dpi / 72
            surface = cairo_image_surface_create(
                CAIRO_FORMAT_RGB24, Int32((width * scale).rounded(.up)), Int32((height * scale).rounded(.up)))
        case .svg:
            surface = TemporaryFiles.creating { cairo_svg_surface_create(temporary, width, height) }
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw BackendError.cannotCreate(path: path, message: String(cString: cairo_status_to_string(status)))
        }
        let cr = cairo_create(surface)!
        if !preview.isVector {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_scale(cr, preview.dpi / 72, preview.dpi / 72)
        }
        pending = (surface, path, temporary)
        return (surface, cr)
    }

    /// The two kinds of picture surface.
    private enum Format { case png, svg }

    /// The file of the page begun last (for messages).
    var currentPath: String { pending?.path ?? "" }

    /// Writes the page begun last: the PNG, or the finished SVG, to a temporary file renamed
    /// into place.
    func end() throws {
        guard let (surface, path, temporary) = pending else { return }
        pending = nil
        switch preview.isVector ? Format.svg : Format.png {
        case .png:
            cairo_surface_flush(surface)
            let status = TemporaryFiles.creating { cairo_surface_write_to_png(surface, temporary) }
            guard status == CAIRO_STATUS_SUCCESS else {
                unlink(temporary)
                throw BackendError.cairo(path: path, message: String(cString: cairo_status_to_string(status)))
            }
        case .svg:
            cairo_surface_finish(surface)
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                unlink(temporary)
                throw BackendError.cairo(path: path, message: String(cString: cairo_status_to_string(status)))
            }
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BackendError.cannotCreate(path: path, message: reason)
        }
        files.append(path)
    }
}

extension CairoPDFRenderer {
    /// Switches the renderer, before its first page, to writing pictures: each page `pictures`
    /// selects goes to its own file (``PictureOutput/path``), written to a temporary file and
    /// renamed into place; the PDF gets no pages.
    public func startPictures(_ pictures: PictureOutput) {
        previewSink = PreviewSink(pictures)
    }

    /// The picture files written so far, in page order.
    public var previewFiles: [String] { previewSink?.files ?? [] }

    /// Replaces the surface and context with page `number`'s picture surface; false when the
    /// page is not selected (nothing is drawn).
    func beginPreviewPage(_ number: Int, size: PaperSize) throws -> Bool {
        guard let sink = previewSink, sink.wants(number) else { return false }
        let (pageSurface, pageContext) = try sink.begin(page: number, width: size.width, height: size.height)
        replaceSurface(pageSurface, pageContext)
        return true
    }

    /// Writes the current page's picture, then parks the renderer on a 1 × 1 scratch surface so
    /// the `Document` tag and `finish()` touch nothing that was written.
    func endPreviewPage() throws {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(status))
            throw BackendError.cairo(path: previewSink?.currentPath ?? "", message: message)
        }
        try previewSink?.end()
        let scratch = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        replaceSurface(scratch, cairo_create(scratch)!)
    }

    private func replaceSurface(_ newSurface: OpaquePointer, _ newContext: OpaquePointer) {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        surface = newSurface
        cr = newContext
    }
}
