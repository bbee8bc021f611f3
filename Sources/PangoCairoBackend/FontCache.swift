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
/// requests that differ in any of those cost two sorts. Text the first family's face has is
/// shaped with that family alone — the pattern Pango's own metrics lay their sample text out
/// in — and the lookups here go through that pattern too, so a document costs one sort per
/// face and size it draws, plus one per style whose text needs the fallbacks.
///
/// Owned by ``PangoSetup``, and so used by one render at a time.
final class FontCache {
    var descriptions: [FontSpec: FontDescription] = [:]
    var firstFaces: [FontSpec: GObjectRef] = [:]
    var missingFaces: Set<FontSpec> = []
    var metrics: [FontSpec: FontMetrics] = [:]
    /// Width of a hyphen per face, pt (the composer's hyphenation penalties).
    var hyphenWidths: [FontSpec: Double] = [:]
    /// What a break changes in its line's width per face and pair, pt
    /// (``PangoParagraphShaping/breakKerning(in:before:after:addsHyphen:)``).
    var breakKernings: [BreakPair: Double] = [:]
    /// A letter's width before a hyphen, kerning included, per face and letter, in the face's
    /// units; nil when the face lacks either.
    var advancesBeforeHyphen: [BreakPair: Double?] = [:]
    /// ``SyntheticBold`` weights, keyed by the request at size 0 (the answer does not depend on size).
    var boldWeights: [FontSpec: FontWeight] = [:]
    var resolved: [FontSpec: ResolvedFace] = [:]
    /// Per request with a family list: its first family alone (``FirstFamily``), or nil when the
    /// list must stay whole (colour families in it, or a first family that is not installed).
    var firstFamilies: [FontSpec: FirstFamily?] = [:]
    /// Per request, its description with its Korean face first, or nil
    /// (``PangoSetup/koreanFirstDescription(_:)``).
    var koreanFirst: [FontSpec: FontDescription?] = [:]
    /// Per family list, the list Pango is asked for (``PangoSetup/asked(_:)``).
    var askedFamilies: [[String]: [String]] = [:]
    /// The configuration's family names that fontconfig knows nothing of, read on first use.
    var unknownFamilies: UnknownFamilies?

    func removeAll() {
        descriptions.removeAll()
        firstFaces.removeAll()
        missingFaces.removeAll()
        metrics.removeAll()
        hyphenWidths.removeAll()
        breakKernings.removeAll()
        advancesBeforeHyphen.removeAll()
        boldWeights.removeAll()
        resolved.removeAll()
        firstFamilies.removeAll()
        koreanFirst.removeAll()
        askedFamilies.removeAll()
    }
}

/// The first family of a request's list, alone: its description, its face, and whether that
/// face has every printable ASCII character (U+0020…U+007E).
struct FirstFamily {
    var description: FontDescription
    var face: GObjectRef
    var coversASCII: Bool
}

extension PangoSetup {
    /// `font` as Pango is asked for it: the families this configuration knows nothing of
    /// (``UnknownFamilies``: not installed, and named by no fontconfig rule, as an alias such as
    /// `Helvetica` is) left out of its list, all but the first, which is asked as the stand-in
    /// name. fontconfig resolves the two lists to the same faces in the same order, and the
    /// first family alone (the face line metrics are measured with) to the same face, so every
    /// request for a family that is not installed shares the fontconfig work of one: a warning
    /// says the family is not found (`FontCheck`), and after it the name costs nothing.
    func asked(_ font: FontSpec) -> FontSpec {
        let families: [String]
        if let known = cache.askedFamilies[font.families] {
            families = known
        } else {
            if cache.unknownFamilies == nil { cache.unknownFamilies = UnknownFamilies.of(configuration) }
            let unknown = cache.unknownFamilies!
            var kept: [String] = []
            for (index, family) in font.families.enumerated() {
                if !unknown.contains(family) {
                    kept.append(family)
                } else if index == 0 {
                    kept.append(UnknownFamilies.standInName)
                }
            }
            families = kept
            cache.askedFamilies[font.families] = kept
        }
        guard families != font.families else { return font }
        var asked = font
        asked.families = families
        return asked
    }

    /// The Pango description of `font` (colour families left to Pango's emoji presentation,
    /// ``ColorFonts``; a semibold the first family lacks asked as bold, ``SyntheticBold``;
    /// families fontconfig knows nothing of left out, ``asked(_:)``), made once per request.
    func description(_ font: FontSpec) -> FontDescription {
        if let description = cache.descriptions[font] { return description }
        let asked = asked(font)
        let description =
            asked != font
            ? description(asked)
            : FontDescription(
                families: font.families, weight: SyntheticBold.weight(for: font, setup: self),
                italic: font.italic, size: font.size, in: configuration)
        cache.descriptions[font] = description
        return description
    }

    /// The first face of `font`'s fontset (what Pango draws a character the first family has
    /// with), loaded once per request; nil when Pango finds none.
    func firstFace(_ font: FontSpec) -> GObjectRef? {
        if let face = cache.firstFaces[font] { return face }
        if cache.missingFaces.contains(font) { return nil }
        guard let face = loadFont(description(font)) else {
            cache.missingFaces.insert(font)
            return nil
        }
        cache.firstFaces[font] = face
        return face
    }

    /// The face the first family of `font` resolves to by itself: loaded as the first family
    /// alone, the pattern shaping asks for whenever that face has the text
    /// (``shapingDescription(_:for:)``) and Pango's own metrics ask for anyway, so no second
    /// fontconfig sort. A list with colour families keeps the earlier way: the first face of the
    /// whole list when it is of the first family, else the first family alone (a family that is
    /// not installed, or a generic name such as `sans-serif`).
    func primaryFace(_ font: FontSpec) -> GObjectRef? {
        let asked = asked(font)
        if asked != font { return primaryFace(asked) }
        guard let first = font.families.first else { return firstFace(font) }
        if font.families.count > 1, ColorFonts.textFamilies(font.families, in: configuration) == font.families {
            return firstFace(FontSpec(families: [first], weight: font.weight, italic: font.italic, size: font.size))
        }
        if font.families.count > 1, let face = firstFace(font),
            FaceDescription(font: face.typed(PangoFont.self)).family.caseInsensitiveCompare(first) == .orderedSame
        {
            return face
        }
        return firstFace(FontSpec(families: [first], weight: font.weight, italic: font.italic, size: font.size))
    }

    /// Metrics of the first family of `font` alone at its size, weight and style, pt: ascent
    /// and descent from the face's horizontal extents (HarfBuzz `hb_font_get_h_extents`, the
    /// values `pango_font_get_metrics` reports, without the sample-text layout that call also
    /// lays out in a fresh context — another fontconfig sort per face and size), x-height and
    /// cap height from its OS/2 table (HarfBuzz `hb_ot_metrics`, which falls back to measuring
    /// glyphs). Estimates from the size when no face loads.
    func metrics(_ font: FontSpec) -> FontMetrics {
        if let cached = cache.metrics[font] { return cached }
        var result = FontMetrics(
            ascent: font.size * 0.8, descent: font.size * 0.2, xHeight: font.size * 0.5,
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
    /// The description to shape `text` with in `font`: the first family alone when its face
    /// has every character of `text` that Pango picks a face for, else the whole list
    /// (``description(_:)``).
    ///
    /// Both give every character the same face — Pango's fontset takes the first face that has
    /// a character, and the list's first face is its first family's (Pango 1.50
    /// `pango_fc_fontset_foreach`; spaces, controls and separators take a neighbour's face,
    /// `itemize.c`) — but not the same fontconfig pattern, and Pango sorts every installed face
    /// once per pattern (`FcFontSetSort`, several million instructions). A face's metrics
    /// (`pango_font_get_metrics`, which Pango's line breaking asks for every face a layout
    /// uses) lay out a sample text in the face's own family alone, so a run described by its
    /// first family alone costs one sort where the whole list costs two.
    func shapingDescription(_ font: FontSpec, for text: some StringProtocol) -> FontDescription {
        guard let first = firstFamily(font), first.covers(text) else { return description(font) }
        return first.description
    }

    /// The first family of `font`'s list alone, when that can stand for the list: the list has
    /// more than one family and no colour family, and the first family's own face is of that
    /// family.
    func firstFamily(_ font: FontSpec) -> FirstFamily? {
        if let known = cache.firstFamilies[font] { return known }
        var result: FirstFamily?
        let asked = asked(font)
        if asked != font {
            result = firstFamily(asked)
        } else if font.families.count > 1, ColorFonts.textFamilies(font.families, in: configuration) == font.families,
            let name = font.families.first
        {
            let alone = FontSpec(families: [name], weight: font.weight, italic: font.italic, size: font.size)
            if let face = firstFace(alone),
                FaceDescription(font: face.typed(PangoFont.self)).family.caseInsensitiveCompare(name) == .orderedSame
            {
                let pointer = face.typed(PangoFont.self)
                let ascii = (0x20...0x7E).allSatisfy { pango_font_has_char(pointer, gunichar($0)) != 0 }
                result = FirstFamily(description: description(alone), face: face, coversASCII: ascii)
            }
        }
        cache.firstFamilies[font] = result
        return result
    }
}

extension FirstFamily {
    /// True when the face has every character of `text` Pango picks a face for: all but the
    /// C0 and C1 controls, DEL and the line and paragraph separators (U+2028, U+2029), which
    /// take the face of the text beside them (Pango 1.50 `itemize.c`).
    func covers(_ text: some StringProtocol) -> Bool {
        // Text of ASCII alone, most text, in a face with every printable ASCII character.
        if coversASCII, text.utf8.withContiguousStorageIfAvailable({ !$0.contains { $0 >= 0x80 } }) == true {
            return true
        }
        let font = face.typed(PangoFont.self)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029 { continue }
            if value < 0x7F {
                if coversASCII { continue }
                return false
            }
            if pango_font_has_char(font, value) == 0 { return false }
        }
        return true
    }
}

extension PangoSetup {
    /// Ascent and descent of the first family of `font` as `pango_font_get_metrics` reports
    /// them, pt: the reference ``metrics(_:)`` must equal (tests compare the two).
    func pangoFontMetrics(_ font: FontSpec) -> (ascent: Double, descent: Double)? {
        guard let face = primaryFace(font), let pangoMetrics = pango_font_get_metrics(face.typed(PangoFont.self), nil)
        else {
            return nil
        }
        defer { pango_font_metrics_unref(pangoMetrics) }
        let scale = Double(PANGO_SCALE)
        return (
            Double(pango_font_metrics_get_ascent(pangoMetrics)) / scale,
            Double(pango_font_metrics_get_descent(pangoMetrics)) / scale
        )
    }
}

extension PangoSetup {
    /// The description `pango_font_get_metrics` lays its sample text out in for the face
    /// shaping uses for `font` (`pango_font_describe_with_absolute_size` of that face, Pango
    /// 1.50 `_pango_cairo_font_get_metrics`): what ``shapingDescription(_:for:)`` must equal
    /// for text that face covers, so that Pango's metrics sort no pattern of their own (tests
    /// compare the two). nil when no face loads.
    func metricsSampleDescription(_ font: FontSpec) -> FontDescription? {
        guard let face = primaryFace(font),
            let described = pango_font_describe_with_absolute_size(face.typed(PangoFont.self))
        else {
            return nil
        }
        return FontDescription(described)
    }

    /// True when a run measured in the PDF context (`pictures` false) or the picture context
    /// (true) and drawn on a Cairo PDF surface is drawn through the very scaled font it was
    /// measured with, so its glyphs are not loaded a second time
    /// (``pdfGlyphOptions()``). For tests.
    func drawsOnPDFWithMeasuredScaledFont(_ font: FontSpec, pictures: Bool) -> Bool {
        let layout = GObjectRef(
            owning: UnsafeMutableRawPointer(pango_layout_new(context(forPictures: pictures).opaque)!))
        pango_layout_set_font_description(layout.opaque, shapingDescription(font, for: "Typeset").pointer)
        pango_layout_set_text(layout.opaque, "Typeset", -1)
        guard let line = pango_layout_get_line_readonly(layout.opaque, 0), let runs = line.pointee.runs,
            let run = runs.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
            let measured = pango_cairo_font_get_scaled_font(OpaquePointer(run.pointee.item.pointee.analysis.font))
        else { return false }
        let surface = cairo_pdf_surface_create_for_stream(nil, nil, 100, 100)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        // What Pango's renderer does before showing the run's glyphs; Cairo then merges the
        // surface's options under the font's and looks the scaled font up again.
        cairo_set_scaled_font(cr, measured)
        return cairo_get_scaled_font(cr) == measured
    }
}

extension FontDescription {
    /// Pango's equality of two descriptions (`pango_font_description_equal`: family, style,
    /// variant, weight, stretch, size and gravity).
    func isEqual(to other: FontDescription) -> Bool { pango_font_description_equal(pointer, other.pointer) != 0 }

    /// The description as Pango writes it (`pango_font_description_to_string`), for messages.
    var text: String {
        guard let cString = pango_font_description_to_string(pointer) else { return "" }
        defer { g_free(cString) }
        return String(cString: cString)
    }
}

/// A face, the two characters a break falls between, and whether it adds a hyphen.
struct BreakPair: Hashable {
    var font: FontSpec
    var before: Unicode.Scalar
    var after: Unicode.Scalar
    var addsHyphen: Bool
}
