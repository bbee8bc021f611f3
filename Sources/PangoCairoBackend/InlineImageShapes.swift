internal import CPangoCairo
internal import CRsvg
import Foundation
import Layout
import Styling
import Typography

/// Images inside lines of text through Pango shape attributes: the run's U+FFFC gets a
/// `pango_attr_shape_new_with_data` box the size of the picture (its bottom on the baseline),
/// so line breaking, alignment and links treat it like a glyph; when the line is drawn, Pango's
/// Cairo renderer calls the shape renderer set on the context
/// (`pango_cairo_context_set_shape_renderer`) with the current point at the box's baseline
/// origin, and the picture is drawn there.
enum InlineImageShapes {
    /// The picture of `path` with `alternativeText`, as a shape attribute's data names it: found
    /// in `hold` while it lives, so that a picture named again and again is one.
    static func shape(for path: String, alternativeText: String = "", hold: ShapeHold) -> PictureShape {
        let key = path + "\u{0}" + alternativeText
        if let known = hold.pictures.value(for: key) { return known }
        return hold.pictures.add(PictureShape(path: path, alternativeText: alternativeText), for: key)
    }

    /// The pictures of `line`: each one's box, pt from the line's start, and its alternative
    /// text. Pieces of one inline formula side by side are one picture, whose text is the
    /// source of them all (a formula is cut into pieces where a line may break after it, and
    /// is read as one where none does).
    static func pictures(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [(
        range: Range<Double>, alternativeText: String
    )] {
        var found: [(range: Range<Double>, alternativeText: String)] = []
        // The formula piece the last picture found ends with.
        var lastPiece: MathShapes.FormulaPiece?
        // The pieces the last picture found joins, whose text is written once it ends.
        var pending: MathShapes.FormulaPiece?
        func settle() {
            if let joined = pending { found[found.count - 1].alternativeText = "\u{0}" + joined.source }
            pending = nil
        }
        var advance: Int32 = 0
        var node = line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs.pointee
            var shape: ShapeData?
            var attributes = run.pointee.item.pointee.analysis.extra_attrs
            while let current = attributes {
                let attribute = current.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
                if attribute.pointee.klass.pointee.type == PANGO_ATTR_SHAPE {
                    let data = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrShape.self)
                    shape = ShapeData.named(by: data.pointee.data)
                }
                attributes = current.pointee.next
            }
            for index in 0..<Int(glyphs.num_glyphs) {
                let width = glyphs.glyphs[index].geometry.width
                if let shape {
                    // A formula may be narrower than nothing (`$\!$`): its box is then empty,
                    // so that no glyph beside it is taken for part of it.
                    let start = Double(advance) / Double(PANGO_SCALE)
                    let range = start..<max(start, start + Double(width) / Double(PANGO_SCALE))
                    let formula = shape as? FormulaShape
                    if let piece = formula?.piece, let last = found.last, last.range.upperBound == range.lowerBound,
                        let joined = lastPiece?.joined(with: piece)
                    {
                        found[found.count - 1].range = last.range.lowerBound..<range.upperBound
                        pending = joined
                        lastPiece = joined
                    } else {
                        settle()
                        let text = formula.map { "\u{0}" + $0.source } ?? (shape as? PictureShape)?.alternativeText
                        found.append((range, text ?? ""))
                        lastPiece = formula?.piece
                    }
                }
                advance += width
            }
            node = current.pointee.next
        }
        settle()
        return found
    }

    /// The key of a Cairo context's ``DrawnRange``.
    nonisolated(unsafe) static let drawnRangeKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(
        capacity: 1)

    /// The part of a line drawn now on a Cairo context, in its user space's x (pt): a line drawn
    /// in pieces (its glyphs outside a piece left empty) draws each picture once, with the piece
    /// that holds the picture's middle.
    final class DrawnRange {
        let range: Range<Double>
        init(_ range: Range<Double>) { self.range = range }
    }

    /// Draws only the pictures whose middle is in `range` (user space x, pt) on `cr` from now
    /// on; nil: every picture.
    static func setDrawnRange(_ range: Range<Double>?, on cr: OpaquePointer) {
        guard let range else {
            cairo_set_user_data(cr, drawnRangeKey, nil, nil)
            return
        }
        let box = Unmanaged.passRetained(DrawnRange(range)).toOpaque()
        cairo_set_user_data(cr, drawnRangeKey, box) { data in
            if let data { Unmanaged<DrawnRange>.fromOpaque(data).release() }
        }
    }

    /// Installs the shape renderer on a Pango context (once per context).
    static func install(on context: OpaquePointer) {
        pango_cairo_context_set_shape_renderer(
            context,
            { cr, attr, doPath, _ in
                // Outline passes (`pango_cairo_layout_path`) draw no pictures.
                guard doPath == 0, let cr, let attr, let data = attr.pointee.data else { return }
                var currentX = 0.0
                var currentY = 0.0
                cairo_get_current_point(cr, &currentX, &currentY)
                let shape = ShapeData.named(by: data)
                if let formula = shape as? FormulaShape {
                    if let drawn = cairo_get_user_data(cr, InlineImageShapes.drawnRangeKey) {
                        let range = Unmanaged<InlineImageShapes.DrawnRange>.fromOpaque(drawn).takeUnretainedValue()
                            .range
                        let middle = currentX + Double(attr.pointee.logical_rect.width) / Double(PANGO_SCALE) / 2
                        guard range.contains(middle) else { return }
                    }
                    MathShapes.draw(formula, x: currentX, baseline: currentY, on: cr)
                    return
                }
                guard let path = (shape as? PictureShape)?.path else { return }
                let logical = attr.pointee.logical_rect
                let scale = Double(PANGO_SCALE)
                let rect = Rect(
                    x: currentX + Double(logical.x) / scale, y: currentY + Double(logical.y) / scale,
                    width: Double(logical.width) / scale, height: Double(logical.height) / scale)
                if let drawn = cairo_get_user_data(cr, InlineImageShapes.drawnRangeKey) {
                    let range = Unmanaged<InlineImageShapes.DrawnRange>.fromOpaque(drawn).takeUnretainedValue().range
                    guard range.contains(rect.x + rect.width / 2) else { return }
                }
                ImageDecoder.draw(path, in: rect, on: cr)
            }, nil, nil)
    }

    /// The box of an inline image in a run of `style`, pt: its width and its height above the
    /// baseline.
    static func box(_ image: InlineImage, shaper: PangoShaper, style: RunStyle) -> (width: Double, height: Double) {
        let metrics = shaper.primaryMetrics(style.font)
        let natural = shaper.imageSize(ofFile: image.path) ?? (metrics.ascent, metrics.ascent)
        return image.size(natural: natural, lineHeight: metrics.ascent + metrics.descent)
    }

    /// A shape attribute holding the picture's box over `start..<end`.
    static func attribute(
        _ image: InlineImage, box: (width: Double, height: Double), hold: ShapeHold
    ) -> UnsafeMutablePointer<PangoAttribute>? {
        let rect = PangoRectangle(
            x: 0, y: -PangoUnits.from(box.height), width: PangoUnits.from(box.width),
            height: PangoUnits.from(box.height))
        return shape(for: image.path, alternativeText: image.alternativeText ?? "", hold: hold)
            .attribute(ink: rect, logical: rect)
    }
}

/// A picture inside a line, as the data of the shape attribute over its run: its file and its
/// alternative text (empty when it has none).
final class PictureShape: ShapeData, @unchecked Sendable {
    let path: String
    let alternativeText: String

    init(path: String, alternativeText: String) {
        self.path = path
        self.alternativeText = alternativeText
    }
}

extension ImageDecoder {
    /// Draws the picture at `path` (raster or SVG) scaled into `rect` on `cr`. Each file is
    /// read and decoded (an SVG: parsed by librsvg) once per render, however often it occurs;
    /// a raster picture is embedded in the PDF once.
    static func draw(_ path: String, in rect: Rect, on cr: OpaquePointer) {
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return }
        if ImageProbe.isSVG(path) {
            // Drawn by librsvg on the page itself, so its text stays text (Pango's glyphs).
            guard let document = svgDocument(ofFile: path) else { return }
            cairo_save(cr)
            defer { cairo_restore(cr) }
            var viewport = RsvgRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            var error: UnsafeMutablePointer<GError>?
            let drawn = rsvg_handle_render_document(document.handle, cr, &viewport, &error)
            if drawn == 0, let error { g_error_free(error) }
            return
        }
        // A PDF embeds a JPEG's own bytes; any other surface (a PNG preview) draws pixels.
        let vector = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_PDF
        guard let image = surface(ofFile: path, pixels: !vector, fitting: neededPixels(rect, on: cr, vector: vector))
        else { return }
        ImagePainting.paint(
            image.surface, width: image.width, height: image.height, x: rect.x, y: rect.y,
            scaleX: rect.width / Double(image.width), scaleY: rect.height / Double(image.height), on: cr)
    }

    /// The pixels across and down a picture filling `rect` (in points) on `cr` needs: its size
    /// at ``printResolution``, or on a raster surface (a PNG preview) its size in device pixels
    /// when that is more, so that a picture a PDF keeps whole is drawn on a preview as before.
    static func neededPixels(_ rect: Rect, on cr: OpaquePointer, vector: Bool) -> (width: Int, height: Int) {
        var acrossX = rect.width
        var acrossY = 0.0
        var downX = 0.0
        var downY = rect.height
        cairo_user_to_device_distance(cr, &acrossX, &acrossY)
        cairo_user_to_device_distance(cr, &downX, &downY)
        let printed = (width: rect.width * printResolution / 72, height: rect.height * printResolution / 72)
        let device = (
            width: (acrossX * acrossX + acrossY * acrossY).squareRoot(),
            height: (downX * downX + downY * downY).squareRoot()
        )
        let width = vector ? printed.width : max(printed.width, device.width)
        let height = vector ? printed.height : max(printed.height, device.height)
        guard width.isFinite, height.isFinite else { return (Int.max / 4, Int.max / 4) }
        return (max(1, Int(min(width, 1e9).rounded(.up))), max(1, Int(min(height, 1e9).rounded(.up))))
    }

    /// An SVG document parsed by librsvg, shared by every occurrence of its file in a render.
    final class SVGDocument: @unchecked Sendable {
        let handle: OpaquePointer
        init(handle: OpaquePointer) { self.handle = handle }
        deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }
    }

    /// The SVG at `path` parsed by librsvg from its bytes, once per render until
    /// ``releaseDrawnSVGs()``; nil when it cannot be read or is refused (too large, too much
    /// work: ``ImageProbe/problem(ofFile:)``). Files the SVG refers to are not read. Kept per
    /// thread (``RenderPictures``): a librsvg handle is drawn by one thread at a time.
    static func svgDocument(ofFile path: String) -> SVGDocument? {
        let kept = RenderPictures.current
        if let known = kept.svgs[path] { return known }
        let made = parseSVG(path)
        kept.svgs[path] = made
        return made
    }

    /// Lets go of the SVG documents ``svgDocument(ofFile:)`` kept on the calling thread.
    static func releaseDrawnSVGs() {
        RenderPictures.current.svgs = [:]
    }

    /// The SVG at `path` parsed by librsvg, not kept, its links made groups
    /// (``SVGWork/linksMadeGroups(_:)``); nil when it is refused or cannot be read.
    static func parseSVG(_ path: String) -> SVGDocument? {
        guard ImageProbe.problem(ofFile: path) == nil,
            let read = try? FileReader.read(path, limit: FileReader.svgLimit, what: "an SVG image")
        else {
            return nil
        }
        var error: UnsafeMutablePointer<GError>?
        // Its links drawn as what they hold, not made links of the PDF.
        let bytes = SVGWork.linksMadeGroups([UInt8](read))
        let handle = bytes.withUnsafeBytes { all in
            rsvg_handle_new_from_data(all.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(all.count), &error)
        }
        if let error { g_error_free(error) }
        return handle.map(SVGDocument.init)
    }
}
