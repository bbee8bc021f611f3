/// The language a document's text is written in, read from the letters of its prose, for a
/// document whose metadata names none (``Document/textLanguage``): Korean when Hangul carries
/// at least as much of the text as Latin letters do, Japanese when kana do and there is no
/// Hangul; nil otherwise (the render's default, English). The prose is the text of its first
/// paragraphs, headings, items, quotes and table cells, not code, addresses or markup, which
/// are Latin whatever language the document is written in.
///
/// A Hangul syllable is counted as three Latin letters (a syllable holds two or three jamo, and
/// a Korean line holds about half the characters of an English one), so a Korean manual full of
/// commands and identifiers still reads as Korean, and an English text quoting a Korean phrase
/// does not. Only the UTF-8 lead bytes are read: Hangul syllables are U+AC00–U+D7A3, kana
/// U+3041–U+30FF (The Unicode Standard, chapter 18).
public enum TextLanguage {
    /// The language of the prose of `document`'s first blocks, read up to `bytes` (UTF-8) of it.
    public static func inferred(fromProseOf document: Document, bytes: Int = 32_768) -> String? {
        var sample = ""
        for block in document.blocks {
            BlockText.prose([block], into: &sample, limit: bytes)
            if sample.utf8.count >= bytes { break }
        }
        return inferred(from: sample.utf8)
    }

    /// The language of `text`'s letters.
    public static func inferred(from text: String.UTF8View) -> String? {
        var latin = 0
        var hangul = 0
        var kana = 0
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A:
                latin += 1
            case 0xE3:
                // U+3000–U+3FFF: kana are E3 81 81 to E3 83 BF.
                if let second = iterator.next(), (0x81...0x83).contains(second) { kana += 1 }
            case 0xEA:
                // U+A000–U+AFFF: syllables start at U+AC00, EA B0 80.
                if let second = iterator.next(), second >= 0xB0 { hangul += 1 }
            case 0xEB, 0xEC:
                hangul += 1
            case 0xED:
                // U+D000–U+DFFF: syllables end at U+D7A3, ED 9E A3.
                if let second = iterator.next(), second <= 0x9E { hangul += 1 }
            default:
                break
            }
        }
        if hangul > 0, hangul * 3 >= latin { return "ko" }
        if hangul == 0, kana > 0, kana * 3 >= latin { return "ja" }
        return nil
    }
}
