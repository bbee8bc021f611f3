internal import CPangoCairo
import Foundation

/// The stand-ins of a line's colour clusters while Pango draws the line (``ColorGlyphRuns``):
/// each colour run is set, for the drawing, in a text face, and the first glyph of each of its
/// clusters becomes that face's space glyph, its advance and the cluster's text unchanged; the
/// cluster's other glyphs stay hidden (`PANGO_GLYPH_EMPTY`). Pango then draws one glyph for the
/// emoji, in the line's order, and hands Cairo the emoji's text with it (`cairo_show_text_glyphs`),
/// which Cairo 1.16 writes as a span of replacement text around the space glyph, since the
/// glyph's ToUnicode entry reads U+0020 (the renderer draws each face's space as a space
/// before its first stand-in, as Cairo keeps the first text a glyph is drawn with). The space
/// glyph draws nothing, so the page looks as it did. ``restore()`` puts every run back.
///
/// The text face is the nearest run of the line before the colour run that is not set in a
/// colour font, else the nearest after it; a line of emoji alone borrows the font of its
/// layout's description (the paragraph's first style), at the colour font's size.
final class ColorGlyphStandIns {
    private struct Changed {
        let run: UnsafeMutablePointer<PangoGlyphItem>
        let font: UnsafeMutablePointer<PangoFont>?
        let glyphs: [PangoGlyphInfo]
    }

    private var changed: [Changed] = []
    /// The clusters drawn as stand-ins, in the line's order: each one's run, text and how much
    /// wider than the stand-in's space glyph its advance is, in em of the stand-in's font.
    private var clusters: [(run: UnsafeMutablePointer<PangoGlyphItem>, text: String, extra: Double)] = []
    /// The glyphs drawn as stand-ins (until ``restore()``).
    private(set) var standInGlyphs: [UnsafeMutablePointer<PangoGlyphInfo>] = []
    /// The fonts whose space glyph the stand-ins draw, each once.
    private(set) var standInFonts: [UnsafeMutablePointer<PangoFont>] = []
    /// A font loaded for a line without a text face, released by ``restore()``.
    private var loaded: UnsafeMutablePointer<PangoFont>?

    /// Sets the stand-ins of `runs` (colour runs of `line` with their glyphs as they were
    /// before hiding; a glyph that was already hidden stays so).
    init(_ line: UnsafeMutablePointer<PangoLayoutLine>, runs: [(UnsafeMutablePointer<PangoGlyphItem>, [PangoGlyph])]) {
        guard let layout = line.pointee.layout, let text = pango_layout_get_text(layout) else { return }
        var order: [UnsafeMutablePointer<PangoGlyphItem>] = []
        var node = line.pointee.runs
        while let current = node {
            order.append(current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self))
            node = current.pointee.next
        }
        let textFonts = order.map { run -> UnsafeMutablePointer<PangoFont>? in
            guard let font = run.pointee.item.pointee.analysis.font, !ColorFonts.isColorFont(font) else { return nil }
            return font
        }
        for (run, saved) in runs {
            guard let position = order.firstIndex(of: run) else { continue }
            let before = textFonts[..<position].last { $0 != nil } ?? nil
            let after = textFonts[(position + 1)...].first { $0 != nil } ?? nil
            guard let font = before ?? after ?? layoutFont(layout, like: run),
                let space = Self.spaceGlyph(font)
            else { continue }
            set(run, saved: saved, font: font, space: space, text: text)
        }
    }

    /// Makes `run` draw `space` of `font` for each of its clusters whose first glyph was
    /// drawn (`saved`), noting each cluster's text.
    private func set(
        _ run: UnsafeMutablePointer<PangoGlyphItem>, saved: [PangoGlyph], font: UnsafeMutablePointer<PangoFont>,
        space: PangoGlyph, text: UnsafePointer<CChar>
    ) {
        let glyphs = run.pointee.glyphs!
        let count = Int(glyphs.pointee.num_glyphs)
        let em = Self.emSize(font)
        guard saved.count == count, em > 0 else { return }
        var logical = PangoRectangle()
        pango_font_get_glyph_extents(font, space, nil, &logical)
        let spaceAdvance = Int(logical.width)
        changed.append(
            Changed(
                run: run, font: run.pointee.item.pointee.analysis.font,
                glyphs: (0..<count).map { glyphs.pointee.glyphs[$0] }))
        run.pointee.item.pointee.analysis.font = font
        if !standInFonts.contains(font) { standInFonts.append(font) }
        let offset = Int(run.pointee.item.pointee.offset)
        let length = Int(run.pointee.item.pointee.length)
        for index in 0..<count where saved[index] != PangoGlyph(0x0FFF_FFFF) {
            let info = glyphs.pointee.glyphs + index
            guard info.pointee.attr.is_cluster_start != 0 else { continue }
            info.pointee.glyph = space
            info.pointee.geometry.x_offset = 0
            info.pointee.geometry.y_offset = 0
            standInGlyphs.append(info)
            // The cluster's bytes: from its start to the next cluster's, in either direction.
            let start = Int(glyphs.pointee.log_clusters[index])
            var end = length
            for other in 0..<count {
                let cluster = Int(glyphs.pointee.log_clusters[other])
                if cluster > start, cluster < end { end = cluster }
            }
            let bytes = UnsafeRawBufferPointer(start: text + offset + start, count: end - start)
            // The cluster's advance: its glyphs' (the first and the hidden ones after it).
            var advance = 0
            var next = index
            repeat {
                advance += Int(glyphs.pointee.glyphs[next].geometry.width)
                next += 1
            } while next < count && glyphs.pointee.glyphs[next].attr.is_cluster_start == 0
            clusters.append((run, String(decoding: bytes, as: UTF8.self), Double(advance - spaceAdvance) / em))
        }
    }

    /// The font of `layout`'s description at the size of `run`'s font, when it is not a
    /// colour font (a line of emoji alone).
    private func layoutFont(
        _ layout: OpaquePointer, like run: UnsafeMutablePointer<PangoGlyphItem>
    ) -> UnsafeMutablePointer<PangoFont>? {
        if let loaded { return loaded }
        guard let context = pango_layout_get_context(layout),
            let base = pango_layout_get_font_description(layout) ?? pango_context_get_font_description(context),
            let description = pango_font_description_copy(base)
        else { return nil }
        defer { pango_font_description_free(description) }
        if let colour = run.pointee.item.pointee.analysis.font, let own = pango_font_describe(colour) {
            defer { pango_font_description_free(own) }
            let size = pango_font_description_get_size(own)
            if pango_font_description_get_size_is_absolute(own) != 0 {
                pango_font_description_set_absolute_size(description, Double(size))
            } else {
                pango_font_description_set_size(description, size)
            }
        }
        guard let font = pango_context_load_font(context, description) else { return nil }
        guard !ColorFonts.isColorFont(font) else {
            g_object_unref(font)
            return nil
        }
        loaded = font
        return font
    }

    /// `font`'s size, Pango units (the em of its advances); also ``MissingGlyphStandIns``'s.
    static func emSize(_ font: UnsafeMutablePointer<PangoFont>) -> Double {
        guard let description = pango_font_describe_with_absolute_size(font) else { return 0 }
        defer { pango_font_description_free(description) }
        return Double(pango_font_description_get_size(description))
    }

    /// `font`'s glyph for U+0020, if it has one; also ``MissingGlyphStandIns``'s.
    static func spaceGlyph(_ font: UnsafeMutablePointer<PangoFont>) -> PangoGlyph? {
        var glyph: hb_codepoint_t = 0
        guard let hb = pango_font_get_hb_font(font), hb_font_get_nominal_glyph(hb, 0x20, &glyph) != 0 else {
            return nil
        }
        return PangoGlyph(glyph)
    }

    /// Draws `space` (the space glyph of `font`) on `cr` with its origin at `x` on `baseline`,
    /// no advance and no text of its own (Cairo maps it by the font's `cmap`), in the current
    /// colour; also the renderer's and ``MissingGlyphStandIns``'. Cairo rounds a glyph's ink box
    /// out to whole device units and drops the glyph when that box is empty, as a space's is
    /// when its origin falls on a whole unit in either axis (Cairo's 24.8 fixed point makes that
    /// one place in 256 a line): the origin is moved off it by 2/256 unit, the least the fixed
    /// point keeps, on the side it already lies (1/128 pt on a PDF surface: the space stays on
    /// its line's baseline to within 0.01 pt).
    ///
    /// The glyph is shown with Cairo itself (``LineGlyphs/show(_:x:y:of:on:)``), as
    /// `pango_cairo_show_glyph_string` would show it but for the colour: Pango draws a glyph
    /// string with one renderer the whole process shares, which keeps the foreground alpha of
    /// the last run any thread drew with it (`pangocairo-render.c`, `set_color`), so a space
    /// drawn through it took the opacity of a faded run another render had just drawn.
    static func showSpace(
        _ space: PangoGlyph, of font: UnsafeMutablePointer<PangoFont>, on cr: OpaquePointer, x: Double,
        baseline: Double
    ) {
        guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)) else { return }
        moveToSpaceOrigin(on: cr, x: x, baseline: baseline)
        LineGlyphs.show(UInt(space), of: scaled, on: cr)
    }

    /// Moves `cr`'s current point to `x` on `baseline`, or 2/256 device unit off it where it
    /// falls on a whole unit (``showSpace(_:of:on:x:baseline:)``).
    static func moveToSpaceOrigin(on cr: OpaquePointer, x: Double, baseline: Double) {
        var deviceX = x
        var deviceY = baseline
        cairo_user_to_device(cr, &deviceX, &deviceY)
        func offWholeUnit(_ value: Double) -> Double {
            let whole = value.rounded()
            guard abs(value - whole) < 1.0 / 256 else { return value }
            return value < whole ? whole - 1.0 / 128 : whole + 1.0 / 128
        }
        deviceX = offWholeUnit(deviceX)
        deviceY = offWholeUnit(deviceY)
        cairo_device_to_user(cr, &deviceX, &deviceY)
        cairo_move_to(cr, deviceX, deviceY)
    }

    /// Puts every run back as it was (hidden), and returns the clusters drawn as stand-ins.
    func restore() -> [(run: UnsafeMutablePointer<PangoGlyphItem>, text: String, extra: Double)] {
        for entry in changed {
            entry.run.pointee.item.pointee.analysis.font = entry.font
            for (index, glyph) in entry.glyphs.enumerated() { entry.run.pointee.glyphs.pointee.glyphs[index] = glyph }
        }
        changed = []
        standInGlyphs = []
        standInFonts = []
        if let loaded { g_object_unref(loaded) }
        loaded = nil
        return clusters
    }
}
