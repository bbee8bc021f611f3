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
    /// The weight to ask Pango for when `font` asks for `weight`, decided once per family list,
    /// weight and style (``FontCache``). The probe is the first family alone — the description
    /// shaping loads for text that family's face has, so it costs no fontconfig sort of its
    /// own; a lone family that is not installed keeps the requested weight.
    static func weight(for font: FontSpec, setup: PangoSetup) -> FontWeight {
        guard font.weight.rawValue >= 600, font.weight.rawValue < 700,
            let family = ColorFonts.textFamilies(font.families, in: setup.configuration).first
        else { return font.weight }
        let key = FontSpec(families: font.families, weight: font.weight, italic: font.italic, size: 0)
        if let known = setup.cache.boldWeights[key] { return known }
        // The first family alone: the pattern shaping asks for whenever that family's face has
        // the text (``PangoSetup/shapingDescription(_:for:)``). When the family is installed,
        // its face is the list's first face too.
        let alone = FontDescription(
            families: [family], weight: font.weight, italic: font.italic, size: font.size, in: setup.configuration)
        var face = setup.loadFont(alone).map { FaceDescription(font: $0.typed(PangoFont.self)) }
        // A family that is not installed decides nothing by itself; in a list, the face
        // fontconfig falls back to does, as before.
        if let found = face, found.family.caseInsensitiveCompare(family) != .orderedSame,
            ColorFonts.textFamilies(font.families, in: setup.configuration).count == 1
        {
            face = nil
        }
        let result = face.map { $0.weight < 600 && !$0.boldSynthesized ? FontWeight.bold : font.weight } ?? font.weight
        setup.cache.boldWeights[key] = result
        return result
    }
}
