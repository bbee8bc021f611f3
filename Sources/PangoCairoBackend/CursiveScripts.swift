/// Tracking (letter spacing) and cursive scripts.
///
/// In scripts whose letters join (Arabic, Syriac, N'Ko, Mongolian…), space inserted between
/// letters breaks the joins. CSS Text Module Level 3, §8.2 "Tracking: the `letter-spacing`
/// property", and its appendix of script categories say letter spacing is not applied between
/// the letters of these *cursive scripts* (a UA may elongate them instead; Typeset does not).
/// So tracking is applied only to the parts of a run outside those scripts: a cursive word keeps
/// its natural, joined width, and the Latin text, digits and spaces around it are tracked as
/// usual.
enum CursiveScripts {
    /// The character belongs to a cursive (joining) script: Arabic (with its supplements and
    /// presentation forms), Syriac, N'Ko, Mandaic, Mongolian, Phags-pa, Hanifi Rohingya,
    /// Manichaean, Psalter Pahlavi, Sogdian, Old Uyghur and Adlam (Unicode block ranges).
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x07C0...0x07FF, 0x0840...0x085F,
            0x0860...0x086F, 0x0870...0x089F, 0x08A0...0x08FF, 0x1800...0x18AF, 0xA840...0xA87F,
            0xFB50...0xFDFF, 0xFE70...0xFEFF, 0x10AC0...0x10AFF, 0x10B80...0x10BAF, 0x10D00...0x10D3F,
            0x10EC0...0x10EFF, 0x10F30...0x10FAF, 0x11660...0x1167F, 0x1E900...0x1E95F:
            return true
        default:
            return false
        }
    }

    /// UTF-8 byte ranges of `text` (offset by `start`) outside cursive scripts: where tracking
    /// applies. The whole range when `text` holds no cursive character.
    static func trackedRanges(of text: String, start: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var position = start
        var rangeStart: Int? = start
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if contains(scalar) {
                if let runStart = rangeStart, runStart < position { ranges.append(runStart..<position) }
                rangeStart = nil
            } else if rangeStart == nil {
                rangeStart = position
            }
            position += width
        }
        if let runStart = rangeStart, runStart < position { ranges.append(runStart..<position) }
        return ranges
    }
}
