internal import CPangoCairo
import Foundation
import Layout
import Typography

/// Pages as pictures instead of a PDF: one PNG (Cairo's image surface, `cairo_surface_write_to_png`)
/// or SVG (Cairo's SVG surface) file per page, drawn by the same code that draws the PDF.
public struct PagePreview: Sendable, Hashable {
    /// The most pixels a PNG page may have: 40 million (A4 at 650 dpi), 160 MB while it is
    /// drawn (Cairo's RGB24 surfaces take 4 bytes a pixel).
    public static let maxPixels = 40_000_000

    /// The picture format.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// A raster image at ``PagePreview/dpi``.
        case png
        /// Vectors, in pt (1 SVG user unit = 1 pt).
        case svg
    }

    /// PNG or SVG.
    public var format: Format
    /// The pages to write (1-based); nil: every page.
    public var pages: Set<Int>?
    /// PNG resolution in dots per inch: a page of W pt is ⌈W × dpi / 72⌉ pixels wide.
    public var dpi: Double

    /// Creates preview settings; the default is every page as PNG at 96 dpi.
    public init(format: Format = .png, pages: Set<Int>? = nil, dpi: Double = 96) {
        self.format = format; self.pages = pages; self.dpi = dpi
    }

    /// The file for page `number` of the output `base`: `out.png` → `out-2.png`.
    public func path(for base: String, page number: Int) -> String {
        "\(stem(of: base))-\(number).\(format.rawValue)"
    }

    private func stem(of base: String) -> String {
        var stem = base
        for ext in [".png", ".svg", ".pdf"] where stem.lowercased().hasSuffix(ext) { stem = String(stem.dropLast(ext.count)) }
        return stem
    }

    /// The folder and name prefix every page's temporary file shares: `.NAME` (NAME the
    /// stem's last component, shortened so that `.NAME-N.png.tmp` stays within 255 bytes for
    /// any page number N).
    public func temporaryPrefix(for base: String) -> (folder: String, prefix: String) {
        let stem = stem(of: base) as NSString
        let reserve = "-4294967295.\(format.rawValue).tmp".utf8.count
        let prefix = TemporaryName.hidden(stem.lastPathComponent, suffix: "", reserve: reserve)
        return (stem.deletingLastPathComponent, prefix)
    }

    /// Where page `number` is written before it is renamed to ``path(for:page:)``:
    /// ``temporaryPrefix(for:)`` + `-N.png.tmp`.
    public func temporaryPath(for base: String, page number: Int) -> String {
        let (folder, prefix) = temporaryPrefix(for: base)
        let name = "\(prefix)-\(number).\(format.rawValue).tmp"
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// Reads a page list such as `1-3,7` or `2-` (to the end) into page numbers; nil for a
    /// malformed list. `last` bounds open ranges.
    public static func pages(_ text: String, last: Int = 100_000) -> Set<Int>? {
        var pages = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = Int(bounds[0]), first >= 1 else { return nil }
            let end = bounds.count == 1 ? first : (bounds[1].isEmpty ? last : Int(bounds[1]))
            guard let end, end >= first, end - first < 100_000 else { return nil }
            pages.formUnion(first...end)
        }
        return pages.isEmpty ? nil : pages
    }
}

/// Draws a renderer's pages into one picture surface per page instead of its PDF surface.
final class PreviewSink {
    let preview: PagePreview
    let base: String
    /// The files written so far, in page order.
    var files: [String] = []
    private var pending: (surface: OpaquePointer, path: String, temporary: String)?

    init(_ preview: PagePreview, base: String) { self.preview = preview; self.base = base }

    func wants(_ page: Int) -> Bool { preview.pages?.contains(page) ?? true }

    /// A new surface and context for page `number` of `size` pt, scaled so drawing is in pt,
    /// on white (PNG) — the caller destroys the previous pair.
    func begin(page number: Int, width: Double, height: Double) throws -> (surface: OpaquePointer, cr: OpaquePointer) {
        let path = preview.path(for: base, page: number)
        let temporary = preview.temporaryPath(for: base, page: number)
        let surface: OpaquePointer
        switch preview.format {
        case .png:
            let scale = preview.dpi / 72
            surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32((width * scale).rounded(.up)), Int32((height * scale).rounded(.up)))
        case .svg:
            surface = cairo_svg_surface_create(temporary, width, height)
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw BackendError.cannotCreate(path: path, message: String(cString: cairo_status_to_string(status)))
        }
        let cr = cairo_create(surface)!
        if preview.format == .png {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_scale(cr, preview.dpi / 72, preview.dpi / 72)
        }
        pending = (surface, path, temporary)
        return (surface, cr)
    }

    /// Writes the page begun last: the PNG, or the finished SVG, to a temporary file renamed
    /// into place.
    func end() throws {
        guard let (surface, path, temporary) = pending else { return }
        pending = nil
        switch preview.format {
        case .png:
            cairo_surface_flush(surface)
            let status = cairo_surface_write_to_png(surface, temporary)
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
    /// Switches the renderer, before its first page, to writing pictures: page N of the
    /// selection becomes `<base>-N.png` or `.svg` (``PagePreview/path(for:page:)``), each written
    /// to a temporary file and renamed into place; the PDF gets no pages.
    public func startPreview(_ preview: PagePreview, base: String) {
        previewSink = PreviewSink(preview, base: base)
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
            throw BackendError.cairo(path: previewSink?.base ?? "", message: String(cString: cairo_status_to_string(status)))
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
