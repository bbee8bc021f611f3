internal import CPangoCairo
internal import CRsvg
import Foundation
import Layout
import Typography

/// Raster images through gdk-pixbuf: PNG, JPEG, GIF (its first frame), WebP (with Debian's
/// `webp-pixbuf-loader`), BMP and TIFF — whatever loaders gdk-pixbuf has.
///
/// - The natural size follows the file's own resolution (PNG `pHYs`, JPEG JFIF density, TIFF
///   resolution, read by gdk-pixbuf as its `x-dpi`/`y-dpi` options): 600 × 300 px at 300 dpi
///   is 144 × 72 pt. Files that say nothing are 96 dpi (the CSS reference pixel, 0.75 pt).
/// - JPEG EXIF orientation (gdk-pixbuf's `orientation` option, EXIF tag 0x0112) is honoured:
///   orientations 5–8 swap width and height, and the pixels are turned upright before drawing.
/// - A JPEG that needs no turning is embedded as the original JPEG bytes (Cairo
///   `CAIRO_MIME_TYPE_JPEG`), never re-encoded.
public enum ImageDecoder {
    /// What the file says about itself.
    public struct Info: Sendable, Equatable {
        /// Pixels across and down, as stored (before orientation).
        public var pixelWidth: Int, pixelHeight: Int
        /// Dots per inch across and down; nil when the file gives none.
        public var dpiX: Double?, dpiY: Double?
        /// EXIF orientation 1–8 (1: upright as stored).
        public var orientation: Int
        /// gdk-pixbuf's name of the format (`png`, `jpeg`, `gif`, `webp`, `bmp`, `tiff` …).
        public var format: String

        /// Whether the image is drawn turned a quarter (EXIF orientations 5–8).
        public var swapsAxes: Bool { (5...8).contains(orientation) }

        /// The natural size in pt, upright: pixels at the file's resolution (96 dpi when it
        /// gives none).
        public var naturalSize: (width: Double, height: Double) {
            let width = Double(pixelWidth) * 72 / (dpiX ?? 96)
            let height = Double(pixelHeight) * 72 / (dpiY ?? dpiX ?? 96)
            return swapsAxes ? (height, width) : (width, height)
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: (stamp: FileStamp, info: Info?)] = [:]
    /// Whether each SVG asked about has a size and librsvg parses it (``isDrawable(_:)``), by
    /// path and stamp.
    nonisolated(unsafe) private static var svgParses: [String: (stamp: FileStamp, parses: Bool)] = [:]

    /// A file as it is now: what `stat(2)` says of its identity, size and last change, so
    /// that a file changed or replaced since it was read (an image edited while `typeset
    /// watch` runs) is read again; nil when the file cannot be looked at.
    private struct FileStamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int
        var modifiedNanoseconds: Int

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        }
    }

    /// Pixel count beyond which an image is not decoded (``ImageProbe/maxPixels``).
    static let maxPixels = ImageProbe.maxPixels

    /// What gdk-pixbuf reads from `path` (kept for the process while the file is unchanged:
    /// ``FileStamp``); nil when no loader can read it.
    public static func info(ofFile path: String) -> Info? {
        guard let stamp = FileStamp(path) else { return readInfo(path) }
        lock.lock()
        if let cached = cache[path], cached.stamp == stamp {
            lock.unlock()
            return cached.info
        }
        lock.unlock()
        let info = readInfo(path)
        lock.lock()
        cache[path] = (stamp, info)
        lock.unlock()
        return info
    }

    /// Whether the picture at `path` can be drawn: a raster one that a loader reads
    /// (``info(ofFile:)``); an SVG whose header gives its size and that librsvg parses (it
    /// refuses one that declares an external entity, or entities that expand others). Kept
    /// for the process while the file is unchanged (``FileStamp``).
    public static func isDrawable(_ path: String) -> Bool {
        guard ImageProbe.isSVG(path) else { return info(ofFile: path) != nil }
        // Asked first of the cache: examining an SVG's size reads the whole file.
        let stamp = FileStamp(path)
        if let stamp {
            lock.lock()
            let known = svgParses[path]
            lock.unlock()
            if let known, known.stamp == stamp { return known.parses }
        }
        let parses = ImageProbe.pixelSize(ofFile: path) != nil && parseSVG(path) != nil
        if let stamp {
            lock.lock()
            svgParses[path] = (stamp, parses)
            lock.unlock()
        }
        return parses
    }

    /// Pixels beyond which a PNG's header is read here (``ReducedPNG/info(_:)``) and not by
    /// gdk-pixbuf, whose loader fills a pixbuf of the PNG's full size as soon as it has read
    /// the header: 3 or 4 bytes a pixel, 400 MB for the largest PNG allowed.
    static let pixbufHeaderPixels = 1 << 24

    private static func readInfo(_ path: String) -> Info? {
        // A PNG or JPEG cut short (no IEND, no EOI) or absurdly large counts as unreadable; its
        // header gives its size before anything is decoded.
        let examination = ImageProbe.examine(path)
        let probed = examination.size
        if let probed, probed.width * probed.height > maxPixels { return nil }
        guard examination.opensAsRaster,
            let bytes = try? FileReader.read(path, limit: FileReader.imageLimit, what: "an image")
        else { return nil }
        let isPNGOrJPEG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: [0xFF, 0xD8])
        if isPNGOrJPEG, probed == nil { return nil }
        if let probed, probed.width * probed.height > pixbufHeaderPixels, let png = ReducedPNG.info(bytes) {
            return png
        }
        // The options (resolution, orientation) are set on the pixbuf as soon as a loader has read
        // the header: feed the file until then, not through the whole picture.
        guard let (pixbuf, name) = header(bytes) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        guard width > 0, height > 0, width * height <= maxPixels else { return nil }
        func option(_ key: String) -> String? { gdk_pixbuf_get_option(pixbuf, key).map { String(cString: $0) } }
        func dpi(_ key: String) -> Double? {
            option(key).flatMap(Double.init).flatMap { $0 > 1 && $0 < 100_000 ? $0 : nil }
        }
        let orientation = option("orientation").flatMap { Int($0) }.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        return Info(
            pixelWidth: width, pixelHeight: height,
            dpiX: dpi("x-dpi"), dpiY: dpi("y-dpi"), orientation: orientation, format: name)
    }

    /// The pixbuf a loader has made once it has read the header of `bytes` (its pixels not yet
    /// decoded), holding the options, and the format's name; a reference the caller releases.
    /// Loaders that make their pixbuf only at the end (TIFF) are fed the whole file.
    private static func header(_ bytes: Data) -> (OpaquePointer, String)? {
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer {
            var error: UnsafeMutablePointer<GError>?
            _ = gdk_pixbuf_loader_close(loader, &error)  // early: an "incomplete image" error, expected
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(loader))
        }
        func formatName() -> String {
            guard let format = gdk_pixbuf_loader_get_format(loader) else { return "" }
            return gdk_pixbuf_format_get_name(format).map { name -> String in
                defer { g_free(name) }
                return String(cString: name)
            } ?? ""
        }
        var error: UnsafeMutablePointer<GError>?
        var offset = 0
        while offset < bytes.count {
            let count = min(64 * 1024, bytes.count - offset)
            let ok = bytes.withUnsafeBytes { all in
                let start = all.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset
                return gdk_pixbuf_loader_write(loader, start, UInt(count), &error)
            }
            if ok == 0 {
                if let error { g_error_free(error) }
                return nil
            }
            offset += count
            if let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) {
                g_object_ref(UnsafeMutableRawPointer(pixbuf))
                return (pixbuf, formatName())
            }
        }
        guard gdk_pixbuf_loader_close(loader, &error) != 0 else {
            if let error { g_error_free(error) }
            return nil
        }
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return (pixbuf, formatName())
    }

    /// The whole picture of `bytes`, decoded, at `size` (as stored) when given (the loader
    /// scales it as it reads: a JPEG by its decoder's scaling, others once decoded, freeing
    /// the full size at once); a reference the caller releases.
    private static func load(_ bytes: Data, size: (width: Int, height: Int)? = nil) -> OpaquePointer? {
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        if let size { gdk_pixbuf_loader_set_size(loader, Int32(size.width), Int32(size.height)) }
        var error: UnsafeMutablePointer<GError>?
        let written = bytes.withUnsafeBytes { all in
            let start = all.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return gdk_pixbuf_loader_write(loader, start, UInt(all.count), &error)
        }
        if let error { g_error_free(error) }
        error = nil
        let closed = gdk_pixbuf_loader_close(loader, &error)
        if let error { g_error_free(error) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return pixbuf
    }

    /// A decoded picture, shared: every occurrence of one file in a render draws this one Cairo
    /// surface, which a PDF surface embeds once (one image XObject) however often it is drawn.
    final class Decoded: @unchecked Sendable {
        let surface: OpaquePointer
        let width: Int
        let height: Int
        init(surface: OpaquePointer, width: Int, height: Int) {
            self.surface = surface
            self.width = width
            self.height = height
        }
        deinit { cairo_surface_destroy(surface) }
    }

    /// The most bytes of decoded pictures a render keeps for reuse; a picture beyond it is
    /// decoded for each occurrence.
    static let decodedBudget = 512 << 20

    /// The resolution a picture in a PDF is decoded at, at most, in pixels per inch of its
    /// placed size: what print shops and prepress tools ask for. A picture of more pixels is
    /// made smaller as it is decoded (``reducedSize(of:fitting:)``); one of fewer keeps its own.
    public static let printResolution = 300.0

    /// How many times the pixels its placed size needs a picture must have to be made
    /// smaller: 1.5, so only pictures above 450 ppi are reduced to 300, as Adobe InDesign's
    /// High Quality Print preset downsamples (a picture a little over 300 ppi keeps its pixels
    /// rather than being resampled by a fraction).
    public static let reductionThreshold = 1.5

    /// The pixel size, as stored (before orientation), a picture described by `info` is
    /// decoded at when drawing it needs `fitting` pixels upright: its own size scaled so that
    /// it still has at least the pixels needed across and down; nil when it has no more than
    /// ``reductionThreshold`` times that (it is decoded as it is).
    static func reducedSize(of info: Info, fitting: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        let needed = info.swapsAxes ? (width: fitting.height, height: fitting.width) : fitting
        let scale = max(
            Double(needed.width) / Double(info.pixelWidth), Double(needed.height) / Double(info.pixelHeight))
        guard scale * reductionThreshold < 1 else { return nil }
        let width = min(info.pixelWidth, max(1, Int((Double(info.pixelWidth) * scale).rounded(.up))))
        let height = min(info.pixelHeight, max(1, Int((Double(info.pixelHeight) * scale).rounded(.up))))
        guard width < info.pixelWidth || height < info.pixelHeight else { return nil }
        return (width, height)
    }

    /// The upright picture at `path` as a Cairo image surface, decoded once until
    /// ``releaseDecoded()`` for each size it is decoded at. Unless `pixels`, a JPEG needing no
    /// turning is a surface of its size carrying its original bytes as MIME data, which a PDF
    /// embeds as is (its pixels are not decoded, and draw nothing on a raster surface); with
    /// `pixels` (a PNG preview), every picture is decoded, a CMYK JPEG converted to RGB by
    /// gdk-pixbuf's loader (which reads the inverted samples of Adobe's APP14 marker as
    /// Photoshop writes them).
    ///
    /// Any other picture of more pixels than `fitting` (the pixels its placed size needs,
    /// upright) is decoded smaller (``reducedSize(of:fitting:)``): a PNG a row at a time
    /// (``ReducedPNG``), so its full size is never in memory; other formats scaled by
    /// gdk-pixbuf's loader as they are read (a JPEG by its decoder's own scaling) and their
    /// full-size pixels freed at once. The PDF surface, which keeps each picture it embeds
    /// until the document ends, is handed only the smaller one.
    ///
    /// The surfaces are kept per thread (``RenderPictures``): a render draws on one thread, and
    /// a Cairo surface drawn into two PDF surfaces at once by two threads is not safe (Cairo
    /// attaches snapshots to the source as it embeds it).
    static func surface(ofFile path: String, pixels: Bool = false, fitting: (width: Int, height: Int)? = nil)
        -> Decoded?
    {
        let file = pixels ? "pixels:" + path : path
        guard let fitting, let info = info(ofFile: path), let needed = reducedSize(of: info, fitting: fitting) else {
            return decoded(file, path, pixels: pixels, reduced: nil)
        }
        // A smaller picture decoded before, and still kept, with the pixels this placement
        // needs serves it too, and the PDF embeds one picture for both.
        let kept = RenderPictures.current
        let sizes = kept.reductions[file, default: []]
        let before = sizes.compactMap { size in
            kept.decoded[Self.key(file, at: size)].map { (size: size, decoded: $0) }
        }
        let covering = before.filter { $0.size.width >= needed.width && $0.size.height >= needed.height }
        if let smallest = covering.min(by: { $0.size.width < $1.size.width }) { return smallest.decoded }
        if sizes.count >= reductionsPerFile, let largest = before.max(by: { $0.size.width < $1.size.width }) {
            return largest.decoded
        }
        // From the third size on, a picture placed at many sizes is decoded with room for
        // larger ones (each decoding reads every row of the file, whatever the size made).
        var size = needed
        if sizes.count >= 2 {
            size = (min(info.pixelWidth, needed.width * 2), min(info.pixelHeight, needed.height * 2))
        }
        kept.reductions[file, default: []].append(size)
        return decoded(Self.key(file, at: size), path, pixels: pixels, reduced: size)
    }

    /// The key a picture decoded at `size` is kept under (``RenderPictures/decoded``).
    private static func key(_ file: String, at size: (width: Int, height: Int)) -> String {
        file + " at \(size.width)×\(size.height)"
    }

    /// How many sizes one picture is decoded at, at most, in a render: 4. A placement needing
    /// more pixels than the largest of them has takes that one (drawn a little softer), so a
    /// picture of 100 million pixels placed at twenty widths is decoded four times, not twenty;
    /// only a render past ``decodedBudget``, which keeps none of them, decodes it again.
    static let reductionsPerFile = 4

    /// The picture at `path` decoded at `reduced` (or its own size), kept under `key` until
    /// ``releaseDecoded()`` within ``decodedBudget``.
    private static func decoded(_ key: String, _ path: String, pixels: Bool, reduced: (width: Int, height: Int)?)
        -> Decoded?
    {
        let kept = RenderPictures.current
        if let known = kept.decoded[key] { return known }
        let made = decode(path, pixels: pixels, reduced: reduced).map {
            Decoded(surface: $0.surface, width: $0.width, height: $0.height)
        }
        let size = made.map { $0.width * $0.height * 4 } ?? 0
        if kept.decodedBytes + size <= decodedBudget {
            kept.decoded[key] = made
            kept.decodedBytes += size
        }
        return made
    }

    /// Lets go of the pictures ``surface(ofFile:)`` kept on the calling thread (its render has
    /// finished: the next may find its files changed).
    public static func releaseDecoded() {
        let kept = RenderPictures.current
        kept.decoded = [:]
        kept.reductions = [:]
        kept.decodedBytes = 0
    }

    /// The picture at `path` decoded: at `reduced` pixels (as stored) when given, else at its
    /// own size (``surface(ofFile:pixels:fitting:)``).
    private static func decode(
        _ path: String, pixels: Bool, reduced: (width: Int, height: Int)?
    ) -> (surface: OpaquePointer, width: Int, height: Int)? {
        guard let info = info(ofFile: path),
            let bytes = try? FileReader.read(path, limit: FileReader.imageLimit, what: "an image")
        else { return nil }
        if !pixels, info.format == "jpeg", info.orientation == 1,
            RenderPictures.current.embedsCMYK || jpegComponents([UInt8](bytes)) != 4,
            let jpeg = jpegSurface(bytes, info)
        {
            return jpeg
        }
        // A PNG libpng reads a row at a time is never handed to gdk-pixbuf, whose loader would
        // make its full size first, even for one libpng then finds damaged (an interlaced PNG
        // is read by gdk-pixbuf).
        if let reduced, info.format == "png", ReducedPNG.info(bytes) != nil {
            return ReducedPNG.surface(bytes, width: reduced.width, height: reduced.height)
        }
        // A JPEG that needs turning or whose data is damaged is decoded and embedded as pixels.
        guard let loaded = load(bytes, size: reduced) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
        // gdk_pixbuf_apply_embedded_orientation returns a new reference (or the same, reffed).
        guard let upright = gdk_pixbuf_apply_embedded_orientation(loaded) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }
        return cairoSurface(upright)
    }

    private static func jpegSurface(_ data: Data, _ info: Info) -> (surface: OpaquePointer, width: Int, height: Int)? {
        guard isWellFormedJPEG([UInt8](data)) else { return nil }
        let width = info.pixelWidth
        let height = info.pixelHeight
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
            return nil
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        let copy = malloc(data.count)!
        data.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        let status = cairo_surface_set_mime_data(
            surface, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self), UInt(data.count), { free($0) },
            copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            cairo_surface_destroy(surface)
            return nil
        }
        return (surface, width, height)
    }

    /// Whether a JPEG's marker structure is sound (ITU-T T.81 annex B): segments with their
    /// lengths up to each scan, inside entropy-coded data only stuffed bytes (FF 00), restart
    /// markers and fill bytes, tables or another scan between scans, and an EOI at the end. Its
    /// bytes are embedded as they are, so a damaged file would make a damaged PDF.
    /// The number of colour components of the JPEG `bytes` (1 grey, 3 YCbCr or RGB, 4 CMYK
    /// or YCCK), read from its frame header (a start-of-frame marker, ITU-T T.81 §B.2.2); nil
    /// when it has none before its first scan.
    static func jpegComponents(_ bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return Int(bytes[offset + 9]) }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }

    static func isWellFormedJPEG(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var offset = 2
        var inScan = false
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else {
                if inScan {
                    offset += 1
                    continue
                }
                return false
            }
            let marker = bytes[offset + 1]
            switch marker {
            case 0x00 where inScan, 0xD0...0xD7 where inScan: offset += 2
            case 0xFF: offset += 1
            case 0xD9: return true
            case 0x01, 0xD0...0xD8, 0x00: return false
            default:
                if inScan,
                    !(marker == 0xC4 || marker == 0xDA || marker == 0xDB || marker == 0xDD || marker == 0xFE
                        || (0xE0...0xEF).contains(marker))
                {
                    return false
                }
                guard offset + 3 < bytes.count else { return false }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2 else { return false }
                offset += 2 + length
                inScan = marker == 0xDA || inScan
            }
        }
        return false
    }

    /// Copies a pixbuf (RGB or RGBA, 8 bits, straight alpha) into a Cairo ARGB32 surface
    /// (native-endian, premultiplied alpha — Cairo's `cairo_format_t` documentation).
    private static func cairoSurface(_ pixbuf: OpaquePointer) -> (surface: OpaquePointer, width: Int, height: Int)? {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard width > 0, height > 0, channels >= 3, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8,
            let source = gdk_pixbuf_read_pixels(pixbuf)
        else { return nil }
        let alpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0 && channels == 4
        guard
            let surface = cairo_image_surface_create(
                alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let target = cairo_image_surface_get_data(surface)
        else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_surface_flush(surface)
        let targetStride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            let row = source + y * stride
            let out = UnsafeMutableRawPointer(target + y * targetStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = row + x * channels
                var red = UInt32(pixel[0])
                var green = UInt32(pixel[1])
                var blue = UInt32(pixel[2])
                var opacity: UInt32 = 255
                if alpha {
                    opacity = UInt32(pixel[3])
                    red = (red * opacity + 127) / 255
                    green = (green * opacity + 127) / 255
                    blue = (blue * opacity + 127) / 255
                }
                out[x] = opacity << 24 | red << 16 | green << 8 | blue
            }
        }
        cairo_surface_mark_dirty(surface)
        return (surface, width, height)
    }
}

extension PangoShaper {
    /// The natural size of the image at `path` in pt, upright, from gdk-pixbuf (SVG: from its
    /// `width`/`height`/`viewBox`, 1 px = 0.75 pt); nil when it cannot be read.
    public func imageSize(ofFile path: String) -> (width: Double, height: Double)? {
        if ImageProbe.isSVG(path) {
            guard ImageDecoder.isDrawable(path) else { return nil }
            return ImageProbe.pixelSize(ofFile: path).map { (Double($0.width) * 0.75, Double($0.height) * 0.75) }
        }
        return ImageDecoder.info(ofFile: path)?.naturalSize
    }
}

/// The pictures the render drawing on the calling thread has decoded or parsed, kept until it
/// finishes (``ImageDecoder/releaseDecoded()``, ``ImageDecoder/releaseDrawnSVGs()``): every
/// occurrence of a file in one render draws one Cairo surface, which its PDF embeds once.
/// Renders on other threads keep their own, so no Cairo surface or librsvg handle is drawn by
/// two threads at once.
final class RenderPictures {
    var decoded: [String: ImageDecoder.Decoded?] = [:]
    /// The sizes (as stored) each file, by its key in `decoded` before any size, was decoded
    /// at smaller than its own, in order; `decoded` keeps what each gave within its budget.
    var reductions: [String: [(width: Int, height: Int)]] = [:]
    var decodedBytes = 0
    var svgs: [String: ImageDecoder.SVGDocument?] = [:]
    /// Whether a CMYK JPEG is embedded as its own bytes (`/DeviceCMYK`); false for a PDF/A
    /// file, whose output intent is sRGB (ISO 19005-2 §6.2.4.3 allows `DeviceCMYK` only with a
    /// CMYK one): the picture is decoded and embedded as RGB. Set by the renderer that draws
    /// on the thread (``CairoPDFRenderer``).
    var embedsCMYK = true

    private static let key = "typeset.render-pictures"

    /// The calling thread's pictures, made on first use.
    static var current: RenderPictures {
        let dictionary = Thread.current.threadDictionary
        if let kept = dictionary[key] as? RenderPictures { return kept }
        let made = RenderPictures()
        dictionary[key] = made
        return made
    }
}
