internal import CPangoCairo
import Foundation

/// Colour (emoji) fonts in family lists, and colour glyph runs at drawing time.
///
/// **Family lists.** fontconfig sorts a pattern naming a colour emoji family such as `Noto
/// Color Emoji` ahead of the text families before it (the family is an alias of the `emoji`
/// generic, whose rules ask for colour), so digits, `#` and `*` — which that font also covers,
/// as keycap bases — would be drawn as emoji bitmaps. Unicode's emoji presentation rules
/// (UTS #51 §4, "Presentation Style") say those characters are text by default and take an
/// emoji presentation only when they are emoji by default (`Emoji_Presentation=Yes`) or carry
/// VS16 (U+FE0F). Pango 1.50 itemizes exactly that way: runs with an emoji presentation are
/// set in the `emoji` generic family, everything else in the requested list. So colour
/// families are taken out of the list Pango receives for text: an emoji presentation still
/// finds the emoji font through the `emoji` generic, and every other character comes from the
/// first text family that has it.
enum ColorFonts {
    /// `families` without the colour (emoji) families of `configuration`, unless that would
    /// leave none.
    static func textFamilies(_ families: [String], in configuration: FontConfiguration) -> [String] {
        guard families.count > 1 else { return families }
        let text = families.filter { !configuration.isColorFamily($0) }
        return text.isEmpty ? families : text
    }

    /// The font draws colour glyphs (bitmap `CBDT`/`sbix` strikes or `COLR` layers, read through
    /// HarfBuzz), which Cairo 1.16 writes to PDF as Type 3 fonts whose resources repeat keys.
    static func isColorFont(_ font: UnsafeMutablePointer<PangoFont>) -> Bool {
        guard let hb = pango_font_get_hb_font(font), let face = hb_font_get_face(hb) else { return false }
        return hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0 || hb_ot_color_has_svg(face) != 0
    }
}
