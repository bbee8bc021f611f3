internal import CPangoCairo

/// One baseline per line, whatever fonts its runs come from.
///
/// Pango 1.50 aligns the runs of a line by the fonts' baseline tables: after breaking a line it
/// picks a baseline from the *first* run's script (the ideographic em-box centre for CJK, the
/// alphabetic baseline otherwise), reads that baseline from each run's font (HarfBuzz
/// `hb_ot_layout_get_baseline_with_fallback`, the OpenType `BASE` table or a value synthesized
/// from the font's metrics) and shifts every run by the difference, in the run's `y_offset`
/// (`PangoGlyphItem.y_offset`, positive up). For a line that starts with Hangul in Noto Sans CJK
/// KR, the Latin runs in Inter then sit about 0.046 em above the Hangul; a line that starts
/// with Latin has no shift. A document's lines would rise and fall with their first character.
///
/// Typeset sets text on the alphabetic baseline, as CSS does by default (`vertical-align:
/// baseline`, alphabetic dominant baseline for horizontal text, CSS Inline 3 §4): after Pango
/// has broken a line, each run's `y_offset` is set to the run's own baseline offset alone
/// (Apple `baselineOffset`, the superscript raise of a footnote marker), which is what Pango
/// would have set without the cross-font alignment.
enum BaselineAlignment {
    /// Puts `run` on the line's baseline, shifted by `offset` pt (positive raises). Call after
    /// the layout has broken its lines (any `pango_layout_get_iter` / `get_line` does) and
    /// before the line is measured or drawn.
    static func place(_ run: UnsafeMutablePointer<PangoGlyphItem>, offset: Double) {
        run.pointee.y_offset = PangoUnits.from(offset)
    }
}
