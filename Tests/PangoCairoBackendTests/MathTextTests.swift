import Foundation
import Styling
import TeXMath
import Testing

@testable import PangoCairoBackend

/// `\text{…}` inside a formula is set in the surrounding text's face through Pango
/// (``PangoMathText``), not in the math font: letters the math font lacks are drawn from the
/// faces that have them, spaces keep their width, and a script style shrinks the text.
@Suite struct MathTextTests {
    static let mathFont = HarfBuzzMathFont(family: "DejaVu Math TeX Gyre", config: nil)
    static let text = PangoMathText(
        font: FontSpec(families: ["Inter"], size: 10), configuration: .system, monospaceFamilies: ["DejaVu Sans Mono"])

    func box(_ source: String, style: MathStyle = .text) throws -> MathBox {
        let font = try #require(Self.mathFont)
        let formula = MathParser.parse(source)
        #expect(formula.problems.isEmpty, "\(formula.problems)")
        return MathLayout(font: font, size: 10, textMeasurer: Self.text).layout(formula, style: style)
    }

    /// The text runs of `box`: their strings, faces and sizes.
    func textItems(_ box: MathBox) -> [(text: String, face: MathTextFace, size: Double)] {
        box.items.compactMap { item in
            guard case .text(let text, let face, _, _, let size, _) = item else { return nil }
            return (text, face, size)
        }
    }

    @Test func spacesInsideTextKeepTheirWidth() throws {
        let spaced = try box(#"\text{if }x"#).width
        let unspaced = try box(#"\text{if}x"#).width
        let space = Self.text.measure(" ", face: .regular, size: 10).width
        #expect(space > 1)
        #expect(abs(spaced - unspaced - space) < 0.01, "\(spaced) - \(unspaced) against a space of \(space)")
    }

    /// Letters the math font has no glyph for are one run of the body face, as wide as Pango
    /// sets them (not the math font's empty boxes).
    @Test(arguments: ["값", "日本語のテキスト", "café über", "🙂 ok"])
    func textIsARunOfTheBodyFace(_ member: String) throws {
        let laidOut = try box("x = \\text{\(member)}")
        let runs = textItems(laidOut)
        #expect(runs.count == 1 && runs.first?.text == member && runs.first?.face == .regular)
        let measured = Self.text.measure(member, face: .regular, size: 10)
        #expect(measured.width > Double(member.count) * 2, "\(member): \(measured)")
        #expect(measured.ascent > 4)
        let plain = try box("x =")
        #expect(laidOut.width > plain.width + measured.width - 0.01)
        #expect(laidOut.height >= measured.ascent - 0.01)
    }

    @Test func theMathFontLacksTheLettersTheBodyFaceDraws() throws {
        let font = try #require(Self.mathFont)
        for scalar in ["값", "日", "🙂"].compactMap(\.unicodeScalars.first) {
            #expect(font.glyph(for: scalar) == nil, "\(scalar)")
        }
    }

    @Test func textInAScriptShrinksWithTheScriptStyle() throws {
        let font = try #require(Self.mathFont)
        let scriptSize = 10 * font.constant(.scriptPercentScaleDown) / 100
        let scriptScriptSize = 10 * font.constant(.scriptScriptPercentScaleDown) / 100
        let runs = textItems(try box(#"a_{\text{max 값}} + b_{c_{\text{min}}} + \text{all}"#))
        #expect(runs.map(\.text) == ["max 값", "min", "all"])
        #expect(abs(runs[0].size - scriptSize) < 1e-9 && scriptSize < 10)
        #expect(abs(runs[1].size - scriptScriptSize) < 1e-9)
        #expect(runs[2].size == 10)
        let small = Self.text.measure("max 값", face: .regular, size: scriptSize).width
        let large = Self.text.measure("max 값", face: .regular, size: 10).width
        #expect(abs(small / large - scriptSize / 10) < 0.03)
    }

    @Test func boldItalicAndMonospaceChangeTheFace() throws {
        let runs = textItems(try box(#"\textbf{b} \textit{i} \emph{e} \texttt{t} \mbox{m} \textrm{r}"#))
        #expect(runs.map(\.face) == [.bold, .italic, .italic, .monospace, .regular, .regular])
        #expect(Self.text.request(.bold, size: 7).weight == .bold)
        #expect(Self.text.request(.italic, size: 7).italic)
        #expect(Self.text.request(.monospace, size: 7).families == ["DejaVu Sans Mono"])
        #expect(Self.text.request(.regular, size: 7) == FontSpec(families: ["Inter"], size: 7))
        let bold = Self.text.measure("Wide", face: .bold, size: 10).width
        let regular = Self.text.measure("Wide", face: .regular, size: 10).width
        #expect(bold > regular)
    }

    /// Operator names stay math: `\operatorname` and `\sin` are the math font's glyphs.
    @Test func operatorNamesStayInTheMathFont() throws {
        let laidOut = try box(#"\operatorname{rank} A + \sin x"#)
        #expect(textItems(laidOut).isEmpty)
        #expect(laidOut.items.allSatisfy { if case .text = $0 { false } else { true } })
    }

    /// Without a measurer (the pure layout's tests) `\text` is the math font's letters.
    @Test func withoutAMeasurerTextIsTheMathFontsLetters() throws {
        let font = try #require(Self.mathFont)
        let laidOut = MathLayout(font: font, size: 10).layout(MathParser.parse(#"\text{if }x"#), style: .text)
        #expect(textItems(laidOut).isEmpty && laidOut.items.count == 4)
    }
}
