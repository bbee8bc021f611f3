import Foundation
import TeXMath
import Testing

@testable import PangoCairoBackend

/// Typeset's math layout with the default math font against LuaLaTeX's with unicode-math and the
/// same font (``luaLaTeXFigures``, recorded by tools/math-reference.py): each formula's box
/// width, and its total height (height + depth), within 5 %; height and depth each within
/// 5 % or 0.05 em.
@Suite struct MathAgainstTeXTests {
    static let font = HarfBuzzMathFont(family: "DejaVu Math TeX Gyre")

    @Test func theDefaultMathFontHasAMathTable() throws {
        let font = try #require(Self.font)
        #expect(font.unitsPerEm > 0)
        #expect(font.constant(.axisHeight) > 0)
        #expect(font.constant(.scriptPercentScaleDown) > 50)
    }

    @Test(arguments: luaLaTeXFigures.indices)
    func boxesMatchLuaLaTeX(_ index: Int) throws {
        let figure = luaLaTeXFigures[index]
        let font = try #require(Self.font)
        let formula = MathParser.parse(figure.source)
        #expect(formula.problems.isEmpty, "\(formula.problems)")
        let box = MathLayout(font: font, size: 10).layout(formula, style: figure.display ? .display : .text)
        let (width, height, depth) = (box.width / 10, box.height / 10, box.depth / 10)
        let report =
            "\(figure.source): ours \(width), \(height), \(depth); LuaLaTeX \(figure.width), \(figure.height), "
            + "\(figure.depth)"
        #expect(abs(width - figure.width) <= 0.05 * figure.width, "width: \(report)")
        let total = height + depth
        let texTotal = figure.height + figure.depth
        #expect(abs(total - texTotal) <= 0.05 * texTotal, "height + depth: \(report)")
        #expect(abs(height - figure.height) <= max(0.05 * figure.height, 0.05), "height: \(report)")
        #expect(abs(depth - figure.depth) <= max(0.05 * figure.depth, 0.05), "depth: \(report)")
    }
}
