internal import CPangoCairo
import Testing

@testable import PangoCairoBackend

/// Glyphs drawn one at a time (a line's word space, a stand-in's primed space, a colour
/// glyph's image) are drawn with Cairo itself: Pango draws a glyph string with one renderer the
/// whole process shares, which keeps the foreground alpha of the last run any thread drew with
/// it, so what such a glyph looked like depended on what another render had drawn just before.
@Suite(.serialized) struct SharedRendererStateTests {
    /// A font of `family` at `size` pt from Pango's default font map.
    func font(_ family: String, size: Double) throws -> UnsafeMutablePointer<PangoFont> {
        let map = try #require(pango_cairo_font_map_get_default())
        let context = try #require(pango_font_map_create_context(map))
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let description = try #require(pango_font_description_from_string(family))
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        return try #require(pango_font_map_load_font(map, context, description))
    }

    /// Draws a line whose run has a foreground alpha of `opacity` through Pango's renderer, as
    /// a render drawing a faded run (a wrapped code line's ↪, a faded caption) does.
    func drawRun(opacity: Double) throws {
        let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 40))
        defer { cairo_surface_destroy(surface) }
        let cr = try #require(cairo_create(surface))
        defer { cairo_destroy(cr) }
        let layout = try #require(pango_cairo_create_layout(cr))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, "faded", -1)
        let attributes = try #require(pango_attr_list_new())
        defer { pango_attr_list_unref(attributes) }
        pango_attr_list_insert(attributes, pango_attr_foreground_alpha_new(UInt16(opacity * 65535)))
        pango_layout_set_attributes(layout, attributes)
        pango_cairo_show_layout(cr, layout)
    }

    /// The largest alpha of the pixels of `surface` (ARGB32), 0–255.
    func largestAlpha(of surface: OpaquePointer) -> UInt8 {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return 0 }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let width = Int(cairo_image_surface_get_width(surface))
        var largest: UInt8 = 0
        for row in 0..<height {
            for column in 0..<width {
                let pixel = UnsafeRawPointer(data + row * stride + column * 4).loadUnaligned(as: UInt32.self)
                largest = max(largest, UInt8(pixel >> 24))
            }
        }
        return largest
    }

    /// A glyph shown as a word space is shown (``ColorGlyphStandIns/showSpace(_:of:on:x:baseline:)``),
    /// a visible one so its opacity can be read, in opaque black: the largest alpha it paints.
    func opacityOfGlyphShownAsASpace(afterRunOf opacity: Double?) throws -> UInt8 {
        if let opacity { try drawRun(opacity: opacity) }
        let font = try font("DejaVu Sans", size: 40)
        defer { g_object_unref(font) }
        var glyph: hb_codepoint_t = 0
        let hb = try #require(pango_font_get_hb_font(font))
        try #require(hb_font_get_nominal_glyph(hb, UInt32(UInt8(ascii: "H")), &glyph) != 0)
        let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 60, 60))
        defer { cairo_surface_destroy(surface) }
        let cr = try #require(cairo_create(surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 0, 0, 0)
        ColorGlyphStandIns.showSpace(PangoGlyph(glyph), of: font, on: cr, x: 5, baseline: 50)
        return largestAlpha(of: surface)
    }

    @Test func aGlyphShownAloneIsOpaqueWhateverPangoDrewBefore() throws {
        let alone = try opacityOfGlyphShownAsASpace(afterRunOf: nil)
        #expect(alone == 255)
        for opacity in [0.6, 0.25, 0.9] {
            let after = try opacityOfGlyphShownAsASpace(afterRunOf: opacity)
            #expect(after == 255, "after a run of alpha \(opacity) the glyph painted at most \(after) of 255")
        }
    }

    /// The pixels of a colour glyph's image (``ColorGlyphRuns/GlyphImages``), made by a fresh
    /// set of images after Pango drew a run of `opacity`.
    func colourGlyphPixels(afterRunOf opacity: Double?) throws -> [UInt8] {
        if let opacity { try drawRun(opacity: opacity) }
        let font = try font("Noto Color Emoji", size: 20)
        defer { g_object_unref(font) }
        var glyph: hb_codepoint_t = 0
        let hb = try #require(pango_font_get_hb_font(font))
        try #require(hb_font_get_nominal_glyph(hb, 0x1F600, &glyph) != 0, "Noto Color Emoji has 😀")
        let images = ColorGlyphRuns.GlyphImages()
        let image = try #require(
            images.image(of: PangoGlyph(glyph), in: font, named: ColorGlyphRuns.GlyphImages.name(of: font)))
        cairo_surface_flush(image.surface)
        let data = try #require(cairo_image_surface_get_data(image.surface))
        let count = Int(cairo_image_surface_get_stride(image.surface)) * Int(image.height)
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    @Test func aColourGlyphsImageIsTheSameWhateverPangoDrewBefore() throws {
        let alone = try colourGlyphPixels(afterRunOf: nil)
        #expect(alone.contains { $0 == 255 }, "the image has opaque pixels")
        for opacity in [0.6, 0.25] {
            #expect(try colourGlyphPixels(afterRunOf: opacity) == alone, "after a run of alpha \(opacity)")
        }
    }
}
