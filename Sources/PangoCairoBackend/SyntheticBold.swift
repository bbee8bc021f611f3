internal import CPangoCairo
import Styling
import Typography

/// Heavier weights for families that lack them.
///
/// fontconfig emboldens a face only when the request is at least Bold (CSS 700) and the face
/// at most Medium (500) (`90-synthetic.conf`, its "Synthetic emboldening" rule), so a SemiBold
/// (600) request to a family with only a Regular face would print at the regular weight. Any
/// weight of 600 or more whose face would be lighter than 600 is requested as Bold (700) instead,
/// which makes fontconfig set `embolden` and Cairo draw the regular outlines emboldened
/// (FreeType's `FT_Outline_Embolden`); `FontCheck` in the typesetter warns about it through
/// ``FontLibrary/resolve(_:)``.
enum SyntheticBold {
    /// The weight to ask Pango for when `font` asks for `weight`. Call under `FontState.lock`.
    static func weight(for font: FontSpec, setup: PangoSetup) -> FontWeight {
        guard font.weight.rawValue >= 600, font.weight.rawValue < 700,
              let family = ColorFonts.textFamilies(font.families).first else { return font.weight }
        let probe = FontDescription(families: [family], weight: font.weight, italic: font.italic, size: 10)
        guard let loaded = setup.loadFont(probe) else { return font.weight }
        let face = FaceDescription(font: loaded.typed(PangoFont.self))
        return face.weight < 600 && !face.boldSynthesized ? .bold : font.weight
    }
}
