/// How many columns a character of code takes, as a terminal and a code editor count them:
/// two for the East Asian Wide and Fullwidth characters of Unicode's "East Asian Width"
/// (UAX #11: Hangul, CJK ideographs, kana, CJK punctuation, fullwidth forms), one for the rest.
///
/// A programming face for Korean or Japanese (D2Coding, Sarasa Mono) draws each wide character
/// exactly two cells wide, and code written in such an editor is aligned on that count: a
/// comment column after `("김철수", 30)` lines up with one after `("Kim",    30)`. Typeset sets
/// code blocks the same way (the backend gives each wide character the letter spacing that
/// makes its advance two cells of the code face), and expands tabs by the same count.
///
/// Emoji, wide in UAX #11 too, keep the emoji face's own width: their faces are not drawn to a
/// cell, and most code that holds them is not aligned after them.
public enum CodeColumns {
    /// Whether `scalar` is East Asian Wide or Fullwidth (UAX #11, `EastAsianWidth.txt`),
    /// emoji left out.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul Jamo, initial consonants (a syllable's cluster)
            0x2E80...0x303E,  // CJK radicals, Kangxi radicals, CJK symbols and punctuation
            0x3041...0x3247,  // kana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes
            0x3250...0x4DBF,  // enclosed CJK, CJK compatibility, CJK Extension A
            0x4E00...0xA4CF,  // CJK unified ideographs, Yi
            0xA960...0xA97F,  // Hangul Jamo Extended-A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,  // fullwidth signs
            0x1B000...0x1B2FF,  // kana supplement and extensions
            0x1F200...0x1F251,  // enclosed ideographic supplement
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK Extensions B and later
            return true
        default:
            return false
        }
    }

    /// The columns `character` takes: 2 when its first scalar is wide (``isWide(_:)``), else 1
    /// (a combining mark belongs to the character before it).
    public static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 1 }
        return isWide(first) ? 2 : 1
    }
}
