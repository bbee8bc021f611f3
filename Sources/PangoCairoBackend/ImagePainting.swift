internal import CPangoCairo

/// Painting an image surface on a page: pictures and colour glyphs.
enum ImagePainting {
    /// Paints `image` (`width` × `height` pixels) on `cr` with its top left corner at (`x`,
    /// `y`), each pixel `scaleX` × `scaleY` pt.
    ///
    /// Cairo 1.16 lists a page's image XObject once per use in the page's resources, a
    /// dictionary with repeated keys (PDF 32000-1 §7.3.7 wants them unique): each use on a PDF
    /// page is wrapped in a group (a form XObject of its own, a few bytes) that lists it once.
    /// The image fills a rectangle, never `cairo_paint`: Cairo 1.16's recording surface (behind
    /// every PDF page) treats an unclipped OVER paint of an opaque source on a page with nothing
    /// drawn yet as covering the page and drops every command recorded before it — the open
    /// `Document` tag, so its end no longer matches (CAIRO_STATUS_TAG_ERROR), the page's content
    /// markers, and its destinations and links (`_cairo_recording_surface_paint`,
    /// "optimize_clears"). A group has an alpha channel, so painting it is never taken for
    /// covering the page.
    static func paint(
        _ image: OpaquePointer, width: Int, height: Int, x: Double, y: Double, scaleX: Double, scaleY: Double,
        on cr: OpaquePointer
    ) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let grouped = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_PDF
        if grouped { cairo_push_group(cr) }
        cairo_translate(cr, x, y)
        cairo_scale(cr, scaleX, scaleY)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_fill(cr)
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint(cr)
        }
    }
}
