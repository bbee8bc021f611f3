internal import CPangoCairo
import Styling
import Typography

/// East Asian wide characters in a code block set two cells wide (``CodeColumns``).
///
/// A code face has no Hangul or CJK: Pango takes those characters from a fallback face, at that
/// face's advance (about 1.5 cells of DejaVu Sans Mono for Hangul, 1.7 for CJK ideographs), so
/// a column after Korean text stands left of the same column after Latin text. Each wide
/// character is given the letter spacing that makes its advance exactly two cells of the run's
/// code face, as a programming face made for Korean or Japanese draws it. Pango adds half of a
/// character's letter spacing before it and half after, and trims the half before the first
/// character of a line (`adjust_line_letter_spacing`, Pango 1.50): a wide character that begins
/// a line of the source is given twice the spacing, so that it too takes its two cells, its
/// glyph at the cell's left edge. Only the glyphs' positions change; the text is the same.
extension PangoShaper {
    /// Inserts into `attrs` the letter spacing of each wide character of `runs` within the
    /// paragraph's byte `range` (`bytes`, run `starts`, the first run overlapping the range
    /// `firstRun`); attribute offsets are from the range's start.
    func addWideCellSpacing(
        runs: [StyledRun], starts: [Int], firstRun: Int, range: Range<Int>, bytes: [UInt8], to attrs: AttrList
    ) {
        let base = range.lowerBound
        for index in firstRun..<runs.count {
            if starts[index] >= range.upperBound { break }
            let runStart = max(starts[index], base)
            let runEnd = min(starts[index] + runs[index].text.utf8.count, range.upperBound)
            // Every wide character is at U+1100 or above: three or four UTF-8 bytes, led by 0xE1 or more.
            guard runStart < runEnd, bytes[runStart..<runEnd].contains(where: { $0 >= 0xE1 }) else { continue }
            let font = runs[index].style.font
            var position = runStart
            for character in String(decoding: bytes[runStart..<runEnd], as: UTF8.self) {
                let length = character.utf8.count
                if CodeColumns.columns(of: character) == 2 {
                    var spacing = 2 * codeCell(font) - wideAdvance(character, in: font)
                    if position == 0 || bytes[position - 1] == 0x0A { spacing *= 2 }
                    if abs(spacing) >= 0.01 {
                        attrs.insert(
                            pango_attr_letter_spacing_new(PangoUnits.from(spacing)), position - base,
                            position - base + length)
                    }
                }
                position += length
            }
        }
    }

    /// The cell of the code face `font`: the advance of its `0`, pt (cached per request).
    func codeCell(_ font: FontSpec) -> Double {
        if let cell = setup.cache.codeCells[font] { return cell }
        let cell = naturalWidth(of: "0", in: font)
        setup.cache.codeCells[font] = cell
        return cell
    }

    /// The advance of `character` shaped alone in `font`, its fallback face included, pt
    /// (cached per request and character).
    func wideAdvance(_ character: Character, in font: FontSpec) -> Double {
        let key = WideCharacter(font: font, character: character)
        if let advance = setup.cache.wideAdvances[key] { return advance }
        let advance = naturalWidth(of: String(character), in: font)
        setup.cache.wideAdvances[key] = advance
        return advance
    }
}
