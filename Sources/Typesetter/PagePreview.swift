import Foundation
internal import PangoCairoBackend

/// Pages as pictures instead of a PDF: one PNG (Cairo's image surface, `cairo_surface_write_to_png`)
/// or SVG (Cairo's SVG surface) file per page, drawn by the same code that draws the PDF.
public struct PagePreview: Sendable, Hashable {
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
        var stem = base
        for ext in [".png", ".svg", ".pdf"] where stem.lowercased().hasSuffix(ext) { stem = String(stem.dropLast(ext.count)) }
        return "\(stem)-\(number).\(format.rawValue)"
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

extension CairoPDFRenderer {
    /// Switches the renderer, before its first page, to writing the pictures `preview` asks
    /// for: page N of the selection becomes `<base>-N.png` or `.svg` (``PagePreview/path(for:page:)``).
    func startPreview(_ preview: PagePreview, base: String) {
        let pages = preview.pages
        startPictures(PictureOutput(isVector: preview.format == .svg, dpi: preview.dpi,
                                    wants: { pages?.contains($0) ?? true },
                                    path: { preview.path(for: base, page: $0) }))
    }
}
