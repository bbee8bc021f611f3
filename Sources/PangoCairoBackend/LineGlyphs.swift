internal import CPangoCairo
import TaggedPDF

/// A line's glyphs read out of its Pango runs, so that a thread can draw the line with Cairo
/// alone while another thread shapes with the render's fonts (``SharedFontMap``).
///
/// `pango_cairo_show_layout_line` draws a run of a line that has no picture, line decoration or
/// missing glyph as: its background filled (a rectangle as tall as the line's logical extents),
/// the run's foreground colour set, its Cairo scaled font set, and its glyphs
/// shown with `cairo_show_text_glyphs`, each at the line's current point plus the run's and the
/// glyph's offsets in Pango units, with the run's text and one cluster for each of Pango's
/// (`pangocairo-render.c`, `pango_cairo_renderer_draw_glyph_item`). A ``LineGlyphs`` holds just
/// that, read where the line is laid out (``read(_:paints:strokes:)``), and ``draw(on:x:baseline:hiding:)``
/// makes those Cairo calls in that order with those numbers: the PDF is the same, byte for
/// byte, as Pango's drawing of the line. Cairo's scaled fonts are reference counted and locked
/// by Cairo itself, so the drawing thread touches nothing of Pango's.
///
/// Lines it does not hold (nil from ``read(_:paints:strokes:)``) are drawn by Pango, with the
/// fonts' turn taken: a run that is a picture, is right to left, carries an underline, an
/// overline, a strikethrough or an alpha, has its baseline centred, is set in a
/// colour font or has a glyph its font lacks; a line with stroked runs or tokens on backgrounds
/// of their own. A highlighted code line is held with its colours for the tagging pass
/// (``paints``), and drawn so only in a tagged PDF.
final class LineGlyphs: @unchecked Sendable {
    /// One run: its glyphs and the text they stand for.
    struct Run {
        let scaledFont: ScaledFont
        /// The run's own foreground colour (16 bits a channel), nil when it has none.
        let color: PangoColor?
        /// The run's background colour, nil when it has none.
        let background: PangoColor?
        /// The run's origin from the line's start, and its advance, Pango units (1/1024 pt).
        let x: Int32
        let width: Int32
        /// The run's baseline shift, Pango units, positive up.
        let rise: Int32
        /// Each drawn glyph: its index in the face, and its origin from the run's origin, Pango
        /// units (`y` positive down).
        let glyphs: [(index: UInt, x: Int32, y: Int32)]
        /// The run's text, UTF-8.
        let text: [UInt8]
        /// Pango's clusters, in the run's glyph order: bytes of text and glyphs drawn.
        let clusters: [cairo_text_cluster_t]
    }

    /// A Cairo scaled font, one reference held (Cairo counts and locks them itself).
    final class ScaledFont: @unchecked Sendable {
        let raw: OpaquePointer
        init(retaining raw: OpaquePointer) { self.raw = cairo_scaled_font_reference(raw) }
        deinit { cairo_scaled_font_destroy(raw) }
    }

    /// The line's last glyph when it is an added hyphen that may be drawn on its own
    /// (``CairoPDFRenderer``'s hyphen artifact).
    struct Hyphen {
        /// Its run, and its place among the run's drawn glyphs and clusters.
        let run: Int
        let glyph: Int
        let cluster: Int
        /// Its origin's distance from the line's start, pt, before any horizontal scale.
        let offset: Double
        /// Its own offsets from that origin, Pango units (`yOffset` positive down).
        let xOffset: Int32
        let yOffset: Int32
    }

    /// A space glyph of the line's last face (not a colour face): what ends the line for text
    /// extraction (``CairoPDFRenderer``'s word space).
    struct Space {
        let scaledFont: ScaledFont
        let glyph: UInt
        let color: PangoColor?
    }

    let runs: [Run]
    /// The top of the line's logical extents from its baseline, and their height, Pango
    /// units (`pango_layout_line_get_extents`): a background's rectangle.
    let logical: (y: Int32, height: Int32)
    let hyphen: Hyphen?
    let space: Space?
    /// Each Pango font the line draws with (an identity only) and its `CFF ` table's bytes.
    let fonts: [(font: UnsafeMutableRawPointer, cffBytes: Int)]
    /// A highlighted code line's colours, painted by the tagging pass over the line drawn in its
    /// one colour (``CodePaints/runPaints(of:)``); nil for other lines.
    let paints: [RunPaint]?

    private init(
        runs: [Run], logical: (y: Int32, height: Int32), hyphen: Hyphen?, space: Space?,
        fonts: [(UnsafeMutableRawPointer, Int)], paints: [RunPaint]?
    ) {
        self.runs = runs
        self.logical = logical
        self.hyphen = hyphen
        self.space = space
        self.fonts = fonts
        self.paints = paints
    }

    /// `line`'s glyphs, read with the fonts' turn held, with its code colours (`paints`);
    /// nil for a line Pango must draw (see the type's description), or with stroked runs.
    static func read(_ line: UnsafeMutablePointer<PangoLayoutLine>, paints: CodePaints?, strokes: Bool) -> LineGlyphs? {
        guard !strokes, paints?.backgrounds.isEmpty ?? true, let layout = line.pointee.layout,
            let text = pango_layout_get_text(layout)
        else {
            return nil
        }
        let runPaints = paints?.runPaints(of: line)
        if paints != nil, runPaints == nil { return nil }
        var runs: [Run] = []
        var fonts: [(UnsafeMutableRawPointer, Int)] = []
        var last: (run: Int, glyph: Int, cluster: Int, advance: Int32, byte: Int, geometry: PangoGlyphGeometry)?
        var space: Space?
        var advance: Int32 = 0
        var x: Int32 = 0
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let item = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            guard let font = item.pointee.item.pointee.analysis.font, drawsPlainly(item), !ColorFonts.isColorFont(font),
                let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)),
                cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS
            else {
                return nil
            }
            let string = item.pointee.glyphs.pointee
            var glyphs: [(index: UInt, x: Int32, y: Int32)] = []
            glyphs.reserveCapacity(Int(string.num_glyphs))
            var drawnIndex = [Int](repeating: -1, count: Int(string.num_glyphs))
            var position: Int32 = 0
            for index in 0..<Int(string.num_glyphs) {
                let info = string.glyphs[index]
                if info.glyph != PANGO_GLYPH_EMPTY {
                    drawnIndex[index] = glyphs.count
                    glyphs.append((UInt(info.glyph), position + info.geometry.x_offset, info.geometry.y_offset))
                    if info.geometry.width > 0 {
                        let byte = Int(item.pointee.item.pointee.offset) + Int(string.log_clusters[index])
                        last = (runs.count, glyphs.count - 1, -1, advance, byte, info.geometry)
                    }
                }
                position += info.geometry.width
                advance += info.geometry.width
            }
            let offset = Int(item.pointee.item.pointee.offset)
            let length = Int(item.pointee.item.pointee.length)
            let bytes = UnsafeRawBufferPointer(start: text + offset, count: length)
            // Pango's clusters (`pango_glyph_item_iter`), each with its drawn glyphs counted (the
            // run is left to right: a cluster's glyphs run from its start glyph to its end).
            var clusters: [cairo_text_cluster_t] = []
            var iterator = PangoGlyphItemIter()
            if pango_glyph_item_iter_init_start(&iterator, item, text) != 0 {
                repeat {
                    var drawn: Int32 = 0
                    for index in Int(iterator.start_glyph)..<Int(iterator.end_glyph) where drawnIndex[index] >= 0 {
                        drawn += 1
                        if let found = last, found.run == runs.count, found.glyph == drawnIndex[index] {
                            last?.cluster = clusters.count
                        }
                    }
                    clusters.append(
                        cairo_text_cluster_t(num_bytes: iterator.end_index - iterator.start_index, num_glyphs: drawn))
                } while pango_glyph_item_iter_next_cluster(&iterator) != 0
            }
            let key = UnsafeMutableRawPointer(font)
            if !fonts.contains(where: { $0.0 == key }) { fonts.append((key, CairoPDFRenderer.cffTableBytes(font))) }
            let color = CairoPDFRenderer.foreground(of: item)
            let scaledFont = ScaledFont(retaining: scaled)
            var spaceGlyph: hb_codepoint_t = 0
            if let hb = pango_font_get_hb_font(font), hb_font_get_nominal_glyph(hb, 0x20, &spaceGlyph) != 0 {
                space = Space(scaledFont: scaledFont, glyph: UInt(spaceGlyph), color: color)
            }
            x += item.pointee.start_x_offset
            runs.append(
                Run(
                    scaledFont: scaledFont, color: color,
                    background: CairoPDFRenderer.foreground(of: item, part: PANGO_ATTR_BACKGROUND), x: x,
                    width: pango_glyph_string_get_width(item.pointee.glyphs),
                    rise: item.pointee.y_offset,
                    glyphs: glyphs, text: Array(bytes.bindMemory(to: UInt8.self)), clusters: clusters))
            x += pango_glyph_string_get_width(item.pointee.glyphs) + item.pointee.end_x_offset
        }
        var hyphen: Hyphen?
        if let last, last.cluster >= 0, UInt8(bitPattern: text[last.byte]) == 0x2D {
            hyphen = Hyphen(
                run: last.run, glyph: last.glyph, cluster: last.cluster,
                offset: Double(last.advance) / Double(PANGO_SCALE),
                xOffset: last.geometry.x_offset, yOffset: last.geometry.y_offset)
        }
        var logical = PangoRectangle()
        if runs.contains(where: { $0.background != nil }) { pango_layout_line_get_extents(line, nil, &logical) }
        return LineGlyphs(
            runs: runs, logical: (logical.y, logical.height), hyphen: hyphen, space: space, fonts: fonts,
            paints: runPaints)
    }

    /// Whether Pango draws `run` as shaped glyphs alone: no picture, decoration, alpha or
    /// centred baseline, left to right, and every glyph in its font.
    private static func drawsPlainly(_ run: UnsafeMutablePointer<PangoGlyphItem>) -> Bool {
        let analysis = run.pointee.item.pointee.analysis
        guard analysis.level % 2 == 0, Int32(analysis.flags) & PANGO_ANALYSIS_FLAG_CENTERED_BASELINE == 0 else {
            return false
        }
        var node = analysis.extra_attrs
        while let current = node {
            switch current.pointee.data.assumingMemoryBound(to: PangoAttribute.self).pointee.klass.pointee.type {
            case PANGO_ATTR_SHAPE, PANGO_ATTR_UNDERLINE, PANGO_ATTR_OVERLINE,
                PANGO_ATTR_STRIKETHROUGH, PANGO_ATTR_FOREGROUND_ALPHA, PANGO_ATTR_BACKGROUND_ALPHA:
                return false
            default: break
            }
            node = current.pointee.next
        }
        let string = run.pointee.glyphs.pointee
        return (0..<Int(string.num_glyphs)).allSatisfy { string.glyphs[$0].glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 }
    }

    /// Draws the line on `cr` from its current point, as `pango_cairo_show_layout_line` draws
    /// it from there, with the glyph `hiding` (the added hyphen drawn on its own) left out; the
    /// current point is then where it was.
    func draw(on cr: OpaquePointer, hiding: Hyphen? = nil) {
        var originX = 0.0
        var originY = 0.0
        cairo_get_current_point(cr, &originX, &originY)
        let withText = cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0
        for (index, run) in runs.enumerated() {
            if let background = run.background {
                cairo_save(cr)
                cairo_set_source_rgba(
                    cr, Double(background.red) / 65535, Double(background.green) / 65535,
                    Double(background.blue) / 65535, 1)
                cairo_rectangle(
                    cr, originX + Double(run.x) / Double(PANGO_SCALE),
                    originY + Double(logical.y) / Double(PANGO_SCALE),
                    Double(run.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
                cairo_fill(cr)
                cairo_restore(cr)
            }
            let baseX = originX + Double(run.x) / Double(PANGO_SCALE)
            let baseY = originY + Double(-run.rise) / Double(PANGO_SCALE)
            var glyphs: [cairo_glyph_t] = []
            glyphs.reserveCapacity(run.glyphs.count)
            for (k, glyph) in run.glyphs.enumerated() where !(hiding?.run == index && hiding?.glyph == k) {
                glyphs.append(
                    cairo_glyph_t(
                        index: glyph.index, x: baseX + Double(glyph.x) / Double(PANGO_SCALE),
                        y: glyph.y == 0 ? baseY : baseY + Double(glyph.y) / Double(PANGO_SCALE)))
            }
            cairo_save(cr)
            if let color = run.color {
                cairo_set_source_rgba(
                    cr, Double(color.red) / 65535, Double(color.green) / 65535, Double(color.blue) / 65535, 1)
            }
            cairo_set_scaled_font(cr, run.scaledFont.raw)
            if withText {
                var clusters = run.clusters
                if let hiding, hiding.run == index { clusters[hiding.cluster].num_glyphs -= 1 }
                run.text.withUnsafeBufferPointer { text in
                    text.withMemoryRebound(to: CChar.self) { characters in
                        cairo_show_text_glyphs(
                            cr, characters.baseAddress, Int32(characters.count), glyphs, Int32(glyphs.count), clusters,
                            Int32(clusters.count),
                            cairo_text_cluster_flags_t(0))
                    }
                }
            } else {
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
            }
            cairo_restore(cr)
        }
        cairo_move_to(cr, originX, originY)
    }

    /// Draws `glyph` (`x` and `y` its offsets, Pango units) of `font` from `cr`'s current
    /// point, as `pango_cairo_show_glyph_string` draws a string of one glyph there; the current
    /// point is then where it was.
    static func show(_ glyph: UInt, x: Int32 = 0, y: Int32 = 0, of font: OpaquePointer, on cr: OpaquePointer) {
        var originX = 0.0
        var originY = 0.0
        cairo_get_current_point(cr, &originX, &originY)
        var drawn = cairo_glyph_t(
            index: glyph, x: originX + Double(x) / Double(PANGO_SCALE),
            y: y == 0 ? originY : originY + Double(y) / Double(PANGO_SCALE))
        cairo_save(cr)
        cairo_set_scaled_font(cr, font)
        cairo_show_glyphs(cr, &drawn, 1)
        cairo_restore(cr)
        cairo_move_to(cr, originX, originY)
    }
}
