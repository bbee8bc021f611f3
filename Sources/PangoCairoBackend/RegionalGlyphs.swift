internal import CPangoCairo

/// The glyph forms of a Han character as Japanese and Chinese write them.
///
/// One Han character takes different forms in Japan, mainland China, Taiwan and Hong Kong, and
/// Korea (直, 骨, 海, 写 differ in their strokes), and a pan-CJK face such as Noto Sans CJK
/// holds them all: its OpenType `locl` feature picks a region's forms for the text's language
/// (OpenType's language systems `JAN`, `ZHS`, `ZHT`, `ZHH`). A theme names one region's face
/// (Noto Sans CJK KR by default); a run in Japanese or Chinese (`lang: ja`, `zh-Hans`, `zh-TW`)
/// is given its language, which Pango hands HarfBuzz, so the face sets that region's forms, as
/// a browser does for `lang="ja"`. Other languages are left to the document's default, so
/// their fonts are chosen as before.
enum RegionalGlyphs {
    /// Pango's language for a run in BCP 47 language `tag`, when its Han characters take a
    /// region's forms: Japanese, and Chinese by script, then region (`zh`, `zh-Hans`, `zh-CN`,
    /// `zh-SG` simplified; `zh-HK`, `zh-MO`, `zh-Hant-HK` Hong Kong's; `zh-Hant`, `zh-TW`
    /// traditional); nil for any other.
    static func language(for tag: String) -> OpaquePointer? {
        // Most runs are in neither language: their first two letters tell, with nothing made.
        var letters = tag.utf8.makeIterator()
        guard let first = letters.next().map({ $0 | 0x20 }), let second = letters.next().map({ $0 | 0x20 }),
            (first, second) == (UInt8(ascii: "j"), UInt8(ascii: "a"))
                || (first, second) == (UInt8(ascii: "j"), UInt8(ascii: "p"))
                || (first, second) == (UInt8(ascii: "z"), UInt8(ascii: "h"))
                || (first, second) == (UInt8(ascii: "c"), UInt8(ascii: "h"))
        else { return nil }
        let parts = tag.lowercased().split { $0 == "-" || $0 == "_" }.map(String.init)
        guard let primary = parts.first else { return nil }
        let canonical: String
        switch primary {
        case "ja", "jpn": canonical = "ja"
        case "zh", "zho", "chi":
            let hongKong = parts.contains("hk") || parts.contains("mo")
            if parts.contains("hans") {
                canonical = "zh-cn"
            } else if hongKong {
                canonical = "zh-hk"
            } else if parts.contains("hant") || parts.contains("tw") {
                canonical = "zh-tw"
            } else {
                canonical = "zh-cn"
            }
        default: return nil
        }
        return pango_language_from_string(canonical)
    }
}
