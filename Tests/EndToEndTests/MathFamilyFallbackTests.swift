import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// A theme whose `math` family has no OpenType MATH table (a text face) warns once, at the first
/// formula, naming the family and the math font used instead; the formulas are drawn in that
/// font. A family with a MATH table is used as it is, without a warning.
@Suite(.serialized) struct MathFamilyFallbackTests {
    static let markdown = """
        # Formulas

        Text $a + b$ and $\\frac{1}{2}$ here.

        More $x^2$ and

        $$
        \\sqrt{y}
        $$
        """

    func render(math family: String, name: String) throws -> (pdf: String, warnings: [String]) {
        var theme = Theme.default
        theme.families["math"] = [family]
        let (pdf, report) = try Render.markdown(Self.markdown, name: name, options: RenderOptions(theme: theme))
        return (pdf, report.diagnostics.map(\.description))
    }

    @Test(arguments: ["Inter", "DejaVu Sans Mono", "Noto Sans CJK KR"])
    func aTextFaceWarnsOnceAtTheFirstFormulaAndFallsBack(_ family: String) throws {
        let name = "math-family-" + family.replacingOccurrences(of: " ", with: "-")
        let (pdf, warnings) = try render(math: family, name: name)
        let table = warnings.filter { $0.contains("no OpenType MATH table") }
        #expect(table.count == 1, "\(warnings)")
        let warning = try #require(table.first)
        // `file:line:column` of the first formula: line 3, its opening `$`.
        #expect(warning.hasPrefix("\(name).md:3:6: warning: "), "\(warning)")
        #expect(warning.contains("'\(family)'") && warning.contains("'DejaVu Math TeX Gyre'"), "\(warning)")
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("DejaVuMathTeXGyre") })
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test(arguments: [("Latin Modern Math", "LatinModernMath"), ("TeX Gyre Pagella Math", "TeXGyrePagellaMath")])
    func aMathFaceIsUsedWithoutAWarning(_ family: String, _ embedded: String) throws {
        let (pdf, warnings) = try render(math: family, name: "math-family-\(embedded)")
        #expect(!warnings.contains { $0.contains("MATH table") }, "\(warnings)")
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.contains(embedded) }, "\(fonts)")
        #expect(!fonts.contains { $0.contains("DejaVuMathTeXGyre") }, "\(fonts)")
    }

    /// A document without formulas says nothing about its theme's math family.
    @Test func noFormulaNoWarning() throws {
        var theme = Theme.default
        theme.families["math"] = ["Inter"]
        let (_, report) = try Render.markdown(
            "Prices $5 and $10 stay text.\n", name: "math-family-none", options: RenderOptions(theme: theme))
        #expect(!report.diagnostics.contains { $0.message.contains("MATH table") })
    }
}
