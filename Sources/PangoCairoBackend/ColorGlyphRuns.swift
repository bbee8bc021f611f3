internal import CPangoCairo
import Foundation

/// Colour glyphs (emoji) drawn as images.
///
/// Cairo 1.16 writes colour glyphs to PDF as Type 3 fonts whose glyph procedures paint
/// bitmaps; when one colour glyph is shown more than once on a page it repeats a key in the
/// page's `/XObject` resources, which `qpdf --check` reports as a damaged file. So the runs of a
/// line set in a colour font are hidden while Pango draws the line (their glyphs become
/// `PANGO_GLYPH_EMPTY`, which keeps every other glyph, underline and background where it was),
/// and each of their glyphs is then drawn through Cairo into an ARGB image at 300 dpi and
/// painted at its place: a crisp image XObject per kind of glyph in the document, no Type 3
/// font.
///
/// In a PDF the emoji stay part of the text: while Pango draws the line, each colour cluster
/// (an emoji, a ZWJ sequence, a flag, a keycap) is drawn as one *stand-in*, the space glyph of
/// a text face of the line (of the layout's font when the line has none), at the cluster's
/// place and with its advance, so it shows nothing. Pango hands Cairo the cluster's text with
/// it, and Cairo 1.16 writes a glyph whose ToUnicode entry reads otherwise inside a span of
/// replacement text (`/Span << /ActualText <feff…> >> BDC`, PDF 1.7 §14.9.4), in content order
/// within the line. The tagging pass draws each such glyph with a text face of its own whose
/// ToUnicode maps it to the emoji (``StructureRecords/addStandIn(_:extra:)``), so the structure tree, the content
/// stream and readers of ToUnicode alone read the emoji where it stands.
enum ColorGlyphRuns {
    /// Image resolution for colour glyphs, pixels per inch.
    static let resolution = 300.0

    private struct Hidden {
        var run: UnsafeMutablePointer<PangoGlyphItem>
        var x: Double
        var saved: [PangoGlyph]
    }

    /// Calls `draw` (which draws `line` with its origin at `x`, `baseline`), with the line's
    /// colour runs hidden, then paints those runs as images. Lines without colour glyphs are
    /// drawn by `draw` alone. Glyphs the fonts lack are hidden while `draw` runs and their
    /// boxes drawn as outlines after it (``MissingGlyphStandIns``), so no hex digits are text.
    /// With `standIns`, each colour cluster is drawn as a stand-in (``ColorGlyphRuns``) while
    /// `draw` runs, and so is each cluster of glyphs the fonts lack (with `tagged` false for a
    /// PDF no tagging pass rewrites); returns the texts of the clusters drawn as
    /// stand-ins, in the line's order, each with its extra advance. `primeSpaces` is called
    /// with the fonts whose space glyph the stand-ins draw, before `draw`.
    @discardableResult
    static func draw(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, cr: OpaquePointer, x: Double, baseline: Double,
        standIns: Bool = false, tagged: Bool = true,
        primeSpaces: ([UnsafeMutablePointer<PangoFont>]) -> Void = { _ in }, draw: () -> Void
    ) -> [(text: String, extra: Double)] {
        var hidden: [Hidden] = []
        var runX = 0.0
        var node = line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs!
            if let font = run.pointee.item.pointee.analysis.font, ColorFonts.isColorFont(font) {
                let count = Int(glyphs.pointee.num_glyphs)
                var saved: [PangoGlyph] = []
                saved.reserveCapacity(count)
                for i in 0..<count { saved.append(glyphs.pointee.glyphs[i].glyph) }
                hidden.append(Hidden(run: run, x: runX, saved: saved))
            }
            runX += Double(pango_glyph_string_get_width(glyphs)) / Double(PANGO_SCALE)
            node = current.pointee.next
        }
        let missing = MissingGlyphStandIns(line, spaceEachCluster: !tagged, standIns: standIns)
        guard !hidden.isEmpty else {
            keepOffWholeUnits(missing?.standInGlyphs ?? [], of: line, cr: cr, x: x, baseline: baseline)
            if let missing, !missing.standInFonts.isEmpty { primeSpaces(missing.standInFonts) }
            draw()
            let texts = missing?.restore() ?? []
            missing?.drawBoxes(cr: cr, x: x, baseline: baseline)
            return texts.map { ($0.text, $0.extra) }
        }
        let empty = PangoGlyph(0x0FFF_FFFF)  // PANGO_GLYPH_EMPTY
        for h in hidden {
            for i in h.saved.indices { h.run.pointee.glyphs.pointee.glyphs[i].glyph = empty }
        }
        let stood = standIns ? ColorGlyphStandIns(line, runs: hidden.map { ($0.run, $0.saved) }) : nil
        keepOffWholeUnits(
            (stood?.standInGlyphs ?? []) + (missing?.standInGlyphs ?? []), of: line, cr: cr, x: x, baseline: baseline)
        let fonts = (stood?.standInFonts ?? []) + (missing?.standInFonts ?? [])
        if !fonts.isEmpty { primeSpaces(fonts) }
        draw()
        let colour = stood?.restore() ?? []
        let unknown = missing?.restore() ?? []
        missing?.drawBoxes(cr: cr, x: x, baseline: baseline)
        for h in hidden {
            for i in h.saved.indices { h.run.pointee.glyphs.pointee.glyphs[i].glyph = h.saved[i] }
            paint(h.run, cr: cr, x: x + h.x, baseline: baseline - Double(h.run.pointee.y_offset) / Double(PANGO_SCALE))
        }
        return inLineOrder(colour + unknown, of: line)
    }

    /// Moves each of `standIns` (space glyphs of `line`, drawn with its origin at `x`,
    /// `baseline`) whose origin lies on a whole device unit, in either axis, 1/128 pt off it,
    /// on the side it already lies. Cairo 1.16 rounds a drawing's ink box out to whole device
    /// units and leaves out a text drawing whose box is then empty, as a space's is there: a
    /// run of stand-ins and spaces alone (a line of emoji, or of characters no font draws)
    /// would lose its text, as the space drawn after a line's last word would (the renderer
    /// moves that one the same way). 8 Pango units are 1/128 pt, the least Cairo's 24.8 fixed
    /// point keeps.
    private static func keepOffWholeUnits(
        _ standIns: [UnsafeMutablePointer<PangoGlyphInfo>], of line: UnsafeMutablePointer<PangoLayoutLine>,
        cr: OpaquePointer, x: Double, baseline: Double
    ) {
        guard !standIns.isEmpty else { return }
        let wanted = Set(standIns)
        let unit = Double(PANGO_SCALE)
        func nudge(_ value: Double) -> Int32 {
            let whole = value.rounded()
            guard abs(value - whole) < 1.0 / 256 else { return 0 }
            return value < whole ? -8 : 8
        }
        var advance: Int32 = 0
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs.pointee
            for index in 0..<Int(glyphs.num_glyphs) {
                let info = glyphs.glyphs + index
                defer { advance += info.pointee.geometry.width }
                guard wanted.contains(info) else { continue }
                var deviceX = x + Double(advance + info.pointee.geometry.x_offset) / unit
                var deviceY = baseline + Double(info.pointee.geometry.y_offset - run.pointee.y_offset) / unit
                cairo_user_to_device(cr, &deviceX, &deviceY)
                info.pointee.geometry.x_offset += nudge(deviceX)
                info.pointee.geometry.y_offset += nudge(deviceY)
            }
        }
    }

    /// `clusters` (each list in its runs' order) in the order of their runs in `line`, which is
    /// the order Cairo writes them in; within a run, as they were.
    private static func inLineOrder(
        _ clusters: [(run: UnsafeMutablePointer<PangoGlyphItem>, text: String, extra: Double)],
        of line: UnsafeMutablePointer<PangoLayoutLine>
    ) -> [(text: String, extra: Double)] {
        var position: [UnsafeMutablePointer<PangoGlyphItem>: Int] = [:]
        var node = line.pointee.runs
        while let current = node {
            position[current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)] = position.count
            node = current.pointee.next
        }
        return clusters.enumerated()
            .sorted { (position[$0.element.run] ?? 0, $0.offset) < (position[$1.element.run] ?? 0, $1.offset) }
            .map { ($0.element.text, $0.element.extra) }
    }

    /// Paints each colour glyph of `run` (its run origin at (`x`, `baseline`), pt) as an image at
    /// ``resolution``. Each glyph's image is drawn once for the surface `cr` draws on
    /// (``GlyphImages``): Cairo writes a surface it is given again as the same image XObject
    /// (its source surfaces are keyed by the surface's unique id for the whole document), so a
    /// document of ten thousand emoji of one kind holds one image, not ten thousand
    /// (``ImagePainting/paint(_:width:height:x:y:scaleX:scaleY:on:)``).
    private static func paint(
        _ run: UnsafeMutablePointer<PangoGlyphItem>, cr: OpaquePointer, x: Double, baseline: Double
    ) {
        guard let font = run.pointee.item.pointee.analysis.font, let glyphs = run.pointee.glyphs else { return }
        let images = GlyphImages.of(cairo_get_target(cr))
        let fontName = GlyphImages.name(of: font)
        let unit = Double(PANGO_SCALE)
        var advance = 0.0
        for index in 0..<Int(glyphs.pointee.num_glyphs) {
            let info = glyphs.pointee.glyphs[index]
            defer { advance += Double(info.geometry.width) / unit }
            guard info.glyph != PangoGlyph(0x0FFF_FFFF),
                let image = images.image(of: info.glyph, in: font, named: fontName)
            else {
                continue
            }
            let originX = x + advance + Double(info.geometry.x_offset) / unit
            let originY = baseline + Double(info.geometry.y_offset) / unit
            ImagePainting.paint(
                image.surface, width: Int(image.width), height: Int(image.height), x: originX + image.offsetX,
                y: originY + image.offsetY, scaleX: 1 / resolutionScale, scaleY: 1 / resolutionScale, on: cr)
        }
    }

    /// Pixels per pt at ``resolution``.
    static let resolutionScale = resolution / 72

    /// The images of the colour glyphs drawn on one Cairo surface (a PDF document, or one page's
    /// picture), each drawn once, kept as the surface's user data and freed with it.
    final class GlyphImages {
        struct Image {
            /// An ARGB surface at ``ColorGlyphRuns/resolution``.
            let surface: OpaquePointer
            let width: Int32
            let height: Int32
            /// From the glyph's origin to the image's top left corner, pt.
            let offsetX: Double
            let offsetY: Double
        }

        /// A glyph of a face at a size. The font is named by its description (family, style,
        /// weight, absolute size), not held: a Pango font is given up only under the faces'
        /// lock (``CairoFaces``), which the surface's end, when the images are freed, does not
        /// hold.
        private struct Key: Hashable {
            let font: String
            let glyph: PangoGlyph
        }

        /// nil for a glyph with no ink.
        private var images: [Key: Image?] = [:]

        nonisolated(unsafe) private static let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(
            capacity: 1)

        /// The images of `surface`, made the first time it is asked for.
        static func of(_ surface: OpaquePointer) -> GlyphImages {
            SurfaceData.attached(to: surface, key: key) { GlyphImages() }
        }

        deinit {
            for image in images.values { if let image { cairo_surface_destroy(image.surface) } }
        }

        /// The name of `font` in the keys: its description and the scale HarfBuzz draws its
        /// glyphs at (which tells its size apart where the description's does not).
        static func name(of font: UnsafeMutablePointer<PangoFont>) -> String {
            var scale = (x: Int32(0), y: Int32(0))
            if let hb = pango_font_get_hb_font(font) { hb_font_get_scale(hb, &scale.x, &scale.y) }
            guard let description = pango_font_describe_with_absolute_size(font) else { return "\(scale)" }
            defer { pango_font_description_free(description) }
            guard let text = pango_font_description_to_string(description) else { return "\(scale)" }
            defer { g_free(text) }
            return String(cString: text) + " \(scale.x) \(scale.y)"
        }

        /// The image of `glyph` of `font` (named `fontName`, ``name(of:)``), drawn the first time
        /// it is asked for; nil when the glyph has no ink or its ink is over 2,000 pt either way.
        func image(of glyph: PangoGlyph, in font: UnsafeMutablePointer<PangoFont>, named fontName: String) -> Image? {
            let key = Key(font: fontName, glyph: glyph)
            if let known = images[key] { return known }
            let image = Self.draw(glyph, of: font)
            images[key] = image
            return image
        }

        /// Draws `glyph` into an image of its ink, with Cairo itself and in Cairo's default
        /// opaque black: Pango's shared renderer would lend it the alpha of the last run any
        /// render drew (``ColorGlyphStandIns/showSpace(_:of:on:x:baseline:)``).
        private static func draw(_ glyph: PangoGlyph, of font: UnsafeMutablePointer<PangoFont>) -> Image? {
            var ink = PangoRectangle()
            pango_font_get_glyph_extents(font, glyph, &ink, nil)
            let unit = Double(PANGO_SCALE)
            let inkX = Double(ink.x) / unit
            let inkY = Double(ink.y) / unit
            let inkWidth = Double(ink.width) / unit
            let inkHeight = Double(ink.height) / unit
            guard inkWidth > 0, inkHeight > 0, inkWidth < 2000, inkHeight < 2000 else { return nil }
            let scale = ColorGlyphRuns.resolutionScale
            let margin = 1.0  // pixels of transparent border, so filtering never clips the edge
            let width = Int32((inkWidth * scale).rounded(.up) + 2 * margin)
            let height = Int32((inkHeight * scale).rounded(.up) + 2 * margin)
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return nil }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let icr = cairo_create(surface) else {
                cairo_surface_destroy(surface)
                return nil
            }
            guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)) else {
                cairo_destroy(icr)
                cairo_surface_destroy(surface)
                return nil
            }
            cairo_translate(icr, margin, margin)
            cairo_scale(icr, scale, scale)
            cairo_move_to(icr, -inkX, -inkY)
            LineGlyphs.show(UInt(glyph), of: scaled, on: icr)
            cairo_destroy(icr)
            cairo_surface_flush(surface)
            return Image(
                surface: surface, width: width, height: height, offsetX: inkX - margin / scale,
                offsetY: inkY - margin / scale)
        }
    }
}
