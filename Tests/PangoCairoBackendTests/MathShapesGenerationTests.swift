import Styling
import TeXMath
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// The formulas laid out in one process stay bounded however many renders come and go (a
/// server rendering document after document): each shaper keeps its formulas in the generation
/// it holds, and a generation no shaper holds goes once a newer one is current.
@Suite struct MathShapesGenerationTests {
    /// A paragraph of one inline formula, `source`.
    static func formula(_ source: String) -> StyledParagraph {
        var style = Support.style(Support.inter, size: 11)
        style.inlineFormula = InlineFormula(
            source: source, display: false, formula: MathParser.parse(source), family: InlineFormula.defaultFamily,
            errorColor: RGBAColor(red: 1, green: 0, blue: 0), colors: [:])
        return Support.paragraph("\u{FFFC}", style)
    }

    /// Twenty shapers one after another, each laying out 400 formulas no other lays out (8,000
    /// in all), keep at most two generations' worth: the limit, and what the last shapers
    /// added past it (other suites' shapers, alive meanwhile, may hold a generation more).
    @Test func formulasOfShapersGoneAreNotKept() throws {
        for round in 0..<20 {
            let shaper = PangoShaper()
            for index in 0..<400 {
                let lines = shaper.shape(Self.formula("x^{\(round)} + y_{\(index)}"), width: 300).lines
                #expect(lines.count == 1)
            }
        }
        let bound = 3 * MathShapes.generationLimit
        #expect(MathShapes.keptFormulas <= bound, "\(MathShapes.keptFormulas) formulas kept")
    }

    /// A formula laid out by a shaper is drawn from its generation while the shaper lives, even
    /// after newer generations have begun.
    @Test func aLivingShapersFormulasStayDrawable() throws {
        let held = PangoShaper()
        let paragraph = Self.formula("\\frac{a}{b} = c")
        let identifier = try #require(
            MathShapes.layout(
                paragraph.runs[0].style.inlineFormula!, size: 11, fonts: held.session.configuration,
                hold: held.formulas)?.identifier)
        for round in 0..<8 {
            let shaper = PangoShaper()
            for index in 0..<300 { _ = shaper.shape(Self.formula("z_{\(round)}^{\(index)}"), width: 300) }
        }
        #expect(MathShapes.source(for: identifier) == "\\frac{a}{b} = c")
    }
}
