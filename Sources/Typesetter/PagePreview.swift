import Foundation
internal import PangoCairoBackend
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
        self.format = format
        self.pages = pages
        self.dpi = dpi
    }

    /// The file for page `number` of the output `base`: `out.png` → `out-2.png`.
    public func path(for base: String, page number: Int) -> String {
        "\(stem(of: base))-\(number).\(format.rawValue)"
    }

    /// Why page files cannot be written for the output `base`, nil when they can: a device, a
    /// pipe or a socket names no folder for files (`/dev/stdout` would make `/dev/stdout-1.png`),
    /// and a page's name past 255 bytes (with a page number of up to five digits) is no file name.
    public func problem(writingTo base: String) -> String? {
        var status = stat()
        let resolved = (base as NSString).resolvingSymlinksInPath
        let special = ["/dev/", "/proc/"].contains { base.hasPrefix($0) || resolved.hasPrefix($0) }
        if special || (stat(base, &status) == 0 && status.st_mode & S_IFMT != S_IFREG) {
            return "--format \(format.rawValue) writes one file per page, named after -o's; '\(base)' is not a "
                + "regular file (a device or a pipe): name a file, such as -o page.\(format.rawValue)"
        }
        let longest = (path(for: base, page: 99_999) as NSString).lastPathComponent
        if longest.utf8.count > TemporaryName.maxBytes {
            return "the page files would be named '\(longest.prefix(40))…', longer than the \(TemporaryName.maxBytes) "
                + "bytes a file name may have: give -o a shorter name"
        }
        return nil
    }

    private func stem(of base: String) -> String {
        var stem = base
        for ext in [".png", ".svg", ".pdf"] where stem.lowercased().hasSuffix(ext) {
            stem = String(stem.dropLast(ext.count))
        }
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
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
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
        startPictures(
            PictureOutput(
                isVector: preview.format == .svg, dpi: preview.dpi,
                wants: { pages?.contains($0) ?? true },
                path: { preview.path(for: base, page: $0) },
                temporaryPath: { preview.temporaryPath(for: base, page: $0) }))
    }
}
