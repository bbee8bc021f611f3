import Foundation
import TeXMath
import Testing

@testable import PangoCairoBackend

/// Typeset's math layout with the default math font against LuaLaTeX's with unicode-math and the
/// same font (``luaLaTeXFigures``, recorded by tools/math-reference.py): each formula's box
/// width, and its total height (height + depth), within 5 %; height and depth each within
/// 5 % or 0.05 em.
@Suite struct MathAgainstTeXTests {
    static let font = HarfBuzzMathFont(family: "DejaVu Math TeX Gyre", config: nil)

    /// Formulas whose height + depth LuaLaTeX sets otherwise, with the relative difference
    /// allowed (none: every formula agrees within 5 %).
    static let knownDisagreements: [String: Double] = [:]

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
        if let known = Self.knownDisagreements[figure.source] {
            // Measured and reported, not yet matched: held to what it is, so a change shows.
            print("known disagreement, \(report)")
            #expect(abs(total - texTotal) <= known * texTotal, "height + depth: \(report)")
            return
        }
        #expect(abs(total - texTotal) <= 0.05 * texTotal, "height + depth: \(report)")
        #expect(abs(height - figure.height) <= max(0.05 * figure.height, 0.05), "height: \(report)")
        #expect(abs(depth - figure.depth) <= max(0.05 * figure.depth, 0.05), "depth: \(report)")
    }

    /// The agreement over every recorded formula, printed for the record: the mean and the
    /// largest relative difference of the widths and of the total heights. On average the
    /// boxes agree within 2 %.
    @Test func agreementOverAllFormulas() throws {
        let font = try #require(Self.font)
        var widths: [Double] = []
        var totals: [Double] = []
        for figure in luaLaTeXFigures {
            let style: MathStyle = figure.display ? .display : .text
            let box = MathLayout(font: font, size: 10).layout(MathParser.parse(figure.source), style: style)
            widths.append(abs(box.width / 10 - figure.width) / figure.width)
            let total = figure.height + figure.depth
            totals.append(abs((box.height + box.depth) / 10 - total) / total)
        }
        func percent(_ value: Double) -> String { String(format: "%.2f %%", value * 100) }
        let meanWidth = widths.reduce(0, +) / Double(widths.count)
        let meanTotal = totals.reduce(0, +) / Double(totals.count)
        print(
            "LuaLaTeX agreement over \(luaLaTeXFigures.count) formulas: width mean \(percent(meanWidth)), "
                + "largest \(percent(widths.max() ?? 0)); height + depth mean \(percent(meanTotal)), "
                + "largest \(percent(totals.max() ?? 0))")
        #expect(meanWidth < 0.02 && meanTotal < 0.02)
    }
}
