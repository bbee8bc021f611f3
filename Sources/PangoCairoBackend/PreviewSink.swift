internal import CPNG
internal import CPangoCairo
import Foundation
import Typography

/// Pages drawn as pictures instead of a PDF (``CairoPDFRenderer/startPictures(_:)``): one PNG
/// (recorded by a Cairo recording surface, drawn a band of rows at a time onto Cairo's image
/// surface and written by libpng: ``PageBands``) or SVG (Cairo's SVG surface) file per page,
/// drawn by the same code that draws the PDF.
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
            // Recorded, and drawn into a band of rows at a time as the PNG is written (``PageBands``).
            var extents = cairo_rectangle_t(
                x: 0, y: 0, width: (width * scale).rounded(.up), height: (height * scale).rounded(.up))
            surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, &extents)
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
            if let message = PageBands(recording: surface).writePNG(to: temporary) {
                unlink(temporary)
                throw BackendError.cairo(path: path, message: message)
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

/// A page recorded at its size in pixels (a Cairo recording surface) drawn into a band of rows at
/// a time as its PNG is written, so a large page holds a band's pixels, not the page's: 4 bytes a
/// pixel for the whole page were 152 MiB at the largest page a PNG may have (40 megapixels).
/// Each band replays the recording moved by whole pixels.
final class PageBands {
    let recording: OpaquePointer
    let width: Int32
    let height: Int32
    /// Rows a band holds: the whole page up to ``wholePageBytes``, else about ``bandBytes`` of
    /// pixels, at least 16 rows.
    let bandRows: Int32
    /// The largest page drawn as one band, bytes: 64 MiB, an A4 page at 410 dpi. A glyph a band's
    /// edge cuts may be smoothed a little differently (a few pixels of a page, by at most a third
    /// of their value), so pages up to this size are drawn whole, as one image.
    static let wholePageBytes = 64 << 20
    /// The bytes of a band of a larger page.
    static let bandBytes = 16 << 20
    private var band: OpaquePointer?
    private var bandTop: Int32 = -1
    private var failure: String?

    /// The bands of `recording`, a recording surface with extents from (0, 0).
    init(recording: OpaquePointer) {
        self.recording = recording
        var extents = cairo_rectangle_t()
        _ = cairo_recording_surface_get_extents(recording, &extents)
        width = Int32(extents.width)
        height = Int32(extents.height)
        let rowBytes = max(1, 4 * Int(width))
        bandRows =
            rowBytes * Int(height) <= Self.wholePageBytes
            ? max(1, height) : max(16, Int32(Self.bandBytes / rowBytes))
    }

    deinit {
        if let band { cairo_surface_destroy(band) }
    }

    /// Writes the page as an 8-bit RGB PNG to `path`; nil when written, else what went wrong.
    func writePNG(to path: String) -> String? {
        guard let file = TemporaryFiles.creating({ fopen(path, "wb") }) else { return String(cString: strerror(errno)) }
        let written = typeset_png_write(file, UInt32(width), UInt32(height), Unmanaged.passUnretained(self).toOpaque())
        {
            context, y, row in
            guard let context, let row else { return 0 }
            let bands = Unmanaged<PageBands>.fromOpaque(context).takeUnretainedValue()
            return bands.copy(row: Int32(y), into: row) ? 1 : 0
        }
        let closed = fclose(file) == 0
        if written == 1, closed { return nil }
        return failure ?? "the PNG could not be written"
    }

    /// Copies row `y` of the page into `out` as 8-bit red, green and blue, drawing its band first
    /// when it is not the band drawn last; false when the band cannot be made.
    private func copy(row y: Int32, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        let top = y / bandRows * bandRows
        if top != bandTop {
            guard draw(bandAt: top) else { return false }
        }
        guard let band, let data = cairo_image_surface_get_data(band) else { return false }
        let stride = Int(cairo_image_surface_get_stride(band))
        // RGB24: a native-endian 32-bit word a pixel, red in bits 16–23, green 8–15, blue 0–7.
        let pixels = UnsafeRawPointer(data + Int(y - top) * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<Int(width) {
            let pixel = pixels[x]
            out[3 * x] = UInt8(truncatingIfNeeded: pixel >> 16)
            out[3 * x + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            out[3 * x + 2] = UInt8(truncatingIfNeeded: pixel)
        }
        return true
    }

    /// Draws the rows from `top` into the band surface: the recording replayed, moved up by `top`
    /// pixels.
    private func draw(bandAt top: Int32) -> Bool {
        if band == nil {
            let made = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, bandRows)!
            guard cairo_surface_status(made) == CAIRO_STATUS_SUCCESS else {
                failure = String(cString: cairo_status_to_string(cairo_surface_status(made)))
                cairo_surface_destroy(made)
                return false
            }
            band = made
        }
        guard let band else { return false }
        let cr = cairo_create(band)!
        defer { cairo_destroy(cr) }
        cairo_set_source_surface(cr, recording, 0, -Double(top))
        cairo_paint(cr)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            failure = String(cString: cairo_status_to_string(status))
            return false
        }
        cairo_surface_flush(band)
        bandTop = top
        return true
    }
}
