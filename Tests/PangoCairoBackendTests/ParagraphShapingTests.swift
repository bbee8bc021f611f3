import Layout
import PangoCairoBackend
import Styling
import TestSupport
import Testing
import Typography

/// The paragraph stages over Pango (``PangoShaper``'s ``ParagraphShaping``): the hyphenation
/// language the stages choose reaches libhyphen's patterns.
@Suite struct ParagraphShapingTests {
    let shaper = PangoShaper()
    static let english =
        "Typographers characteristically recommend hyphenation whenever justification otherwise "
        + "stretches interword spacing unacceptably, particularly throughout narrow newspaper columns"

    /// The lines' texts of `text` in `language`, justified at `width` pt.
    func lines(_ text: String, language: String?, width: Double = 150) -> [String] {
        var style = Support.style(Support.interKR, size: 12)
        style.language = language
        let paragraph = Support.paragraph(text, style, alignment: .justify)
        return shaper.shape(paragraph, width: width).lines.map(\.text)
    }

    @Test func latinWordsOfALanguageWithoutPatternsHyphenateAsEnglish() {
        let english = lines(Self.english, language: "en")
        #expect(english.dropLast().contains { $0.hasSuffix("-") }, "no hyphen: \(english)")
        for language in ["ko", "ja", "zz"] {
            #expect(lines(Self.english, language: language) == english, "\(language)")
        }
    }

    @Test func aLanguageWithPatternsHyphenatesWithItsOwn() {
        let german =
            "Donaudampfschifffahrtsgesellschaft Rechtsschutzversicherungsgesellschaften "
            + "Bundesverfassungsgericht Geschwindigkeitsbegrenzung Haftpflichtversicherung"
        let hyphenated = lines(german, language: "de")
        #expect(hyphenated.dropLast().contains { $0.hasSuffix("-") }, "no hyphen: \(hyphenated)")
        // English patterns break these words elsewhere (or not at all).
        #expect(lines(german, language: "en") != hyphenated)
    }
}
