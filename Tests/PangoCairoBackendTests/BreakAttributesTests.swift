internal import CPangoCairo
import Foundation
import TestSupport
import Testing

@testable import PangoCairoBackend

/// ``BreakAttributes`` analyses a text a stretch at a time and gives the line and character
/// breaks Pango gives the whole text, in linear time.
@Suite struct BreakAttributesTests {
    /// Texts whose breaks depend on context: punctuation and quotation marks around spaces
    /// (UAX #14 LB14–LB17), numbers with separators and currency (LB25), dashes, combining marks
    /// after a space, emoji sequences and flags (LB30a, grapheme clusters), no-break spaces,
    /// Hangul, kana, Thai (a dictionary break), Arabic and Hebrew, URLs and dotted names, and
    /// text without spaces.
    static let texts: [(name: String, text: String)] = [
        ("punctuation", "He said ( a b ) “ c d ” and [ e ] — f g ; h ! i ? j k 」 l m « n o » p"),
        ("numbers", "cost $ 1,234.50 or 12 % or (1) 2.3.4 or 1 000 000 € and 3 4 5 6 7 8 9"),
        ("marks", "e\u{301} a \u{300}b c\u{308} d \u{20DD} e f\u{0327} g h"),
        ("emoji", "a 🇰🇷 b 🇯🇵🇰🇷 c 👩‍👩‍👧 d 👍🏽 e 1️⃣ f 🎉 g h i j"),
        ("spaces", "a\u{A0}b c\u{202F}d e\u{2009}f g\u{3000}h i\tj k  l m   n o"),
        ("scripts", "한국어 문장은 단어를 지킨다 かな カナ 漢字 ภาษาไทย ง่าย ไหม العربية نص עברית טקסט x y"),
        ("urls", "see https://example.com/a.b/c?d=e&f x//a.b/c e.g. a.b.c i.e. foo.bar() baz-qux a/b"),
        ("hyphens", "well-known x-ray co\u{AD}operate a – b — c - d e-mail f ‐ g h"),
        ("spaceless", "https://example.com/a/b.c?d=e&f=g#hxyz/é\u{301}ABcd(ef)[gh]\"ij\"kl—mn-op…qr"),
        ("word", "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsunternehmen"),
    ]

    /// The attributes Pango gives `text` whole.
    static func whole(_ text: String, language: OpaquePointer?) -> [PangoLogAttr] {
        _ = BreakAttributes.thaiBreakerReady
        var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: text.unicodeScalars.count + 1)
        pango_get_log_attrs(
            text, Int32(text.utf8.count), -1, language, &attributes, Int32(attributes.count))
        return attributes
    }

    @Test(arguments: texts.indices)
    func stretchesBreakAsTheWholeText(_ index: Int) {
        let language = pango_language_from_string("en")
        // Each text three times, so stretches of a few bytes are cut at many places of it.
        let text = Array(repeating: Self.texts[index].text, count: 3).joined(separator: " ")
        let expected = Self.whole(text, language: language)
        for stretch in [1, 7, 40] {
            let found = BreakAttributes.of(text, language: language, stretch: stretch)
            #expect(found.count == expected.count)
            let scalars = Array(text.unicodeScalars)
            for i in 0..<min(found.count, expected.count) {
                let context = String(String.UnicodeScalarView(scalars[max(0, i - 3)..<min(scalars.count, i + 3)]))
                #expect(found[i].is_line_break == expected[i].is_line_break, "line break at \(i): \(context)")
                #expect(found[i].is_char_break == expected[i].is_char_break, "character break at \(i): \(context)")
            }
        }
    }

    /// Places Pango analyses in time quadratic in their distance from the last sentence
    /// boundary (a full stop, other characters, a lowercase letter), with spaces and without (a
    /// URL): eight times the text takes well under sixteen times as long (analysed whole, 20,000
    /// and 160,000 repetitions of `x//a.b/c ` took 0.81 and 51 s in a debug build, 63 times as
    /// long). The pair is measured again, up to three times, until it holds.
    @Test(arguments: ["spaced", "spaceless"])
    func timeIsLinearWhereSentencesNeverEnd(kind: String) {
        let language = pango_language_from_string("en")
        let seconds: [Double] = Timing.firstHolding {
            [20_000, 160_000].map { (count: Int) -> Double in
                let text = String(repeating: kind == "spaced" ? "x//a.b/c " : "a/b.c", count: count)
                return Timing.bestThreadSeconds(of: 2) { _ = BreakAttributes.of(text, language: language) }
            }
        } holds: {
            $0[1] < 16 * $0[0]
        }
        #expect(seconds[1] < 16 * seconds[0], "\(kind): \(seconds) s")
    }
}
