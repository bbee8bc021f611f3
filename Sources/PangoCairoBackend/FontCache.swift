internal import CPangoCairo
import Foundation
import Layout
import Styling
import Typography

/// What the backend resolves once per process for each font request (``FontSpec``: family
/// list, weight, style, size in pt): its Pango description, its first face, its metrics, the
/// width of its hyphen, the weight a semibold request is asked as, and what its first family
/// resolves to.
///
/// Pango 1.50 resolves every new description through fontconfig (`FcFontSetMatch` and
/// `FcFontSetSort` over every installed face, several million instructions each) and keys
/// that work by the whole pattern — family list, weight, slant, size and language — so two
/// requests that differ in any of those cost two sorts. The lookups here go through the
/// description shaping uses (the whole family list at the run's size) whenever that gives the
/// same answer as a narrower request, so a document costs one sort per distinct run style.
///
/// Owned by ``PangoSetup``; read and written under `FontState.lock`; emptied when a font
/// folder is registered.
final class FontCache {
    /// Fonts loaded through Pango's font map by the backend's own lookups (each a fontconfig
    /// match and sort the first time its description is seen): a counter for tests, which
    /// check that a second lookup of the same request loads nothing. Under `FontState.lock`.
    nonisolated(unsafe) static var fontLoads = 0

    var descriptions: [FontSpec: FontDescription] = [:]
    var firstFaces: [FontSpec: GObjectRef] = [:]
    var missingFaces: Set<FontSpec> = []
    var metrics: [FontSpec: FontMetrics] = [:]
    /// Width of a hyphen per face, pt (the composer's hyphenation penalties).
    var hyphenWidths: [FontSpec: Double] = [:]
    /// ``SyntheticBold`` weights, keyed by the request at size 0 (the answer does not depend on size).
    var boldWeights: [FontSpec: FontWeight] = [:]
    var resolved: [FontSpec: ResolvedFace] = [:]

    func removeAll() {
        descriptions.removeAll(); firstFaces.removeAll(); missingFaces.removeAll(); metrics.removeAll()
        hyphenWidths.removeAll(); boldWeights.removeAll(); resolved.removeAll()
    }
}

extension PangoSetup {
    /// The Pango description of `font` (colour families left to Pango's emoji presentation,
    /// ``ColorFonts``; a semibold the first family lacks asked as bold, ``SyntheticBold``),
    /// made once per request. Call under `FontState.lock`.
    func description(_ font: FontSpec) -> FontDescription {
        if let d = cache.descriptions[font] { return d }
        let d = FontDescription(families: font.families, weight: SyntheticBold.weight(for: font, setup: self),
                                italic: font.italic, size: font.size)
        cache.descriptions[font] = d
        return d
    }

    /// The first face of `font`'s fontset (what Pango draws a character the first family has
    /// with), loaded once per request; nil when Pango finds none. Call under `FontState.lock`.
    func firstFace(_ font: FontSpec) -> GObjectRef? {
        if let face = cache.firstFaces[font] { return face }
        if cache.missingFaces.contains(font) { return nil }
        guard let face = loadFont(description(font)) else { cache.missingFaces.insert(font); return nil }
        cache.firstFaces[font] = face
        return face
    }

    /// The face the first family of `font` resolves to by itself: the first face of the whole
    /// list when that face is of the first family (the fontset shaping loads, so no second
    /// fontconfig sort), else the first family loaded alone (a family that is not installed, or
    /// a generic name such as `sans-serif`). Call under `FontState.lock`.
    func primaryFace(_ font: FontSpec) -> GObjectRef? {
        guard let first = font.families.first else { return firstFace(font) }
        if font.families.count > 1, let face = firstFace(font),
           FaceDescription(font: face.typed(PangoFont.self)).family.caseInsensitiveCompare(first) == .orderedSame {
            return face
        }
        return firstFace(FontSpec(families: [first], weight: font.weight, italic: font.italic, size: font.size))
    }

    /// Metrics of the first family of `font` alone at its size, weight and style, pt: ascent
    /// and descent from the face's horizontal extents (HarfBuzz `hb_font_get_h_extents`, the
    /// values `pango_font_get_metrics` reports, without the sample-text layout that call also
    /// lays out in a fresh context — another fontconfig sort per face and size), x-height and
    /// cap height from its OS/2 table (HarfBuzz `hb_ot_metrics`, which falls back to measuring
    /// glyphs). Estimates from the size when no face loads. Call under `FontState.lock`.
    func metrics(_ font: FontSpec) -> FontMetrics {
        if let m = cache.metrics[font] { return m }
        var result = FontMetrics(ascent: font.size * 0.8, descent: font.size * 0.2, xHeight: font.size * 0.5,
                                 capHeight: font.size * 0.7)
        if let face = primaryFace(font), let hb = pango_font_get_hb_font(face.typed(PangoFont.self)) {
            // Pango scales its hb_font to Pango units of the device size.
            let scale = Double(PANGO_SCALE)
            var extents = hb_font_extents_t()
            if hb_font_get_h_extents(hb, &extents) != 0 {
                result.ascent = Double(extents.ascender) / scale
                result.descent = Double(-extents.descender) / scale
            }
            var position: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(hb, HB_OT_METRICS_TAG_X_HEIGHT, &position)
            result.xHeight = Double(position) / scale
            hb_ot_metrics_get_position_with_fallback(hb, HB_OT_METRICS_TAG_CAP_HEIGHT, &position)
            result.capHeight = Double(position) / scale
        }
        cache.metrics[font] = result
        return result
    }
}

extension PangoSetup {
    /// Ascent and descent of the first family of `font` as `pango_font_get_metrics` reports
    /// them, pt: the reference ``metrics(_:)`` must equal (tests compare the two). Call under
    /// `FontState.lock`.
    func pangoFontMetrics(_ font: FontSpec) -> (ascent: Double, descent: Double)? {
        guard let face = primaryFace(font), let m = pango_font_get_metrics(face.typed(PangoFont.self), nil) else { return nil }
        defer { pango_font_metrics_unref(m) }
        let scale = Double(PANGO_SCALE)
        return (Double(pango_font_metrics_get_ascent(m)) / scale, Double(pango_font_metrics_get_descent(m)) / scale)
    }
}
