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
    /// weight and style (``FontCache``). The probe is the request itself — the description
    /// shaping loads when nothing is synthesized, so it costs no fontconfig sort of its own —
    /// and the first family alone only when the list's first face is another family's. Call
    /// under `FontState.lock`.
    static func weight(for font: FontSpec, setup: PangoSetup) -> FontWeight {
        guard font.weight.rawValue >= 600, font.weight.rawValue < 700,
              let family = ColorFonts.textFamilies(font.families).first else { return font.weight }
        let key = FontSpec(families: font.families, weight: font.weight, italic: font.italic, size: 0)
        if let known = setup.cache.boldWeights[key] { return known }
        var face: FaceDescription?
        let families = ColorFonts.textFamilies(font.families)
        let listed = FontDescription(families: families, weight: font.weight, italic: font.italic, size: font.size)
        if let loaded = setup.loadFont(listed) {
            let d = FaceDescription(font: loaded.typed(PangoFont.self))
            if d.family.caseInsensitiveCompare(family) == .orderedSame { face = d }
        }
        if face == nil, families.count > 1 {
            let alone = FontDescription(families: [family], weight: font.weight, italic: font.italic, size: font.size)
            face = setup.loadFont(alone).map { FaceDescription(font: $0.typed(PangoFont.self)) }
        }
        let result = face.map { $0.weight < 600 && !$0.boldSynthesized ? FontWeight.bold : font.weight } ?? font.weight
        setup.cache.boldWeights[key] = result
        return result
    }
}
