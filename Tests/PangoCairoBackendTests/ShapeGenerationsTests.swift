import Styling
import TeXMath
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// The formulas and pictures named in one process stay bounded however many renders come and
/// go (a server rendering document after document): each shaper keeps what it names in the
/// generation it holds, and a generation no shaper holds goes once a newer one is current.
@Suite struct ShapeGenerationsTests {
    /// A paragraph of one inline formula, `source`.
    static func formula(_ source: String) -> StyledParagraph {
        var style = Support.style(Support.inter, size: 11)
        style.inlineFormula = InlineFormula(
            source: source, display: false, formula: MathParser.parse(source), family: InlineFormula.defaultFamily,
            errorColor: RGBAColor(red: 1, green: 0, blue: 0), colors: [:])
        return Support.paragraph("\u{FFFC}", style)
    }

    /// A paragraph of one inline picture of the file at `path` (which need not exist: its box
    /// is then the line's ascent).
    static func picture(_ path: String) -> StyledParagraph {
        var style = Support.style(Support.inter, size: 11)
        style.inlineImage = InlineImage(path: path, alternativeText: "a picture")
        return Support.paragraph("\u{FFFC}", style)
    }

    /// Twenty shapers one after another, each laying out 400 formulas and naming 400 pictures
    /// no other does (8,000 of each in all), keep at most three generations' worth of each:
    /// the limit, what the last shapers added past it, and a generation that other suites'
    /// shapers, alive meanwhile, may hold.
    @Test func formulasAndPicturesOfShapersGoneAreNotKept() throws {
        for round in 0..<20 {
            let shaper = PangoShaper()
            for index in 0..<400 {
                #expect(shaper.shape(Self.formula("x^{\(round)} + y_{\(index)}"), width: 300).lines.count == 1)
                #expect(shaper.shape(Self.picture("/nowhere/\(round)/\(index).png"), width: 300).lines.count == 1)
            }
        }
        #expect(MathShapes.formulas.kept <= 3 * MathShapes.formulas.limit, "\(MathShapes.formulas.kept) formulas")
        let pictures = InlineImageShapes.pictures
        #expect(pictures.kept <= 3 * pictures.limit, "\(pictures.kept) pictures")
    }

    /// What a shaper named is found while the shaper lives, even after newer generations have
    /// begun: a formula's source and a picture's file.
    @Test func aLivingShapersNamesStay() throws {
        let held = PangoShaper()
        let paragraph = Self.formula("\\frac{a}{b} = c")
        let formula = try #require(
            MathShapes.layout(
                paragraph.runs[0].style.inlineFormula!, size: 11, fonts: held.session.configuration,
                hold: held.shapeHold)?.identifier)
        let picture = InlineImageShapes.id(for: "/nowhere/held.png", alternativeText: "held", hold: held.shapeHold)
        for round in 0..<8 {
            let shaper = PangoShaper()
            for index in 0..<300 {
                _ = shaper.shape(Self.formula("z_{\(round)}^{\(index)}"), width: 300)
                _ = shaper.shape(Self.picture("/nowhere/\(round)-\(index).png"), width: 300)
            }
        }
        #expect(MathShapes.source(for: formula) == "\\frac{a}{b} = c")
        #expect(InlineImageShapes.path(for: picture) == "/nowhere/held.png")
        #expect(InlineImageShapes.alternativeText(for: picture) == "held")
        #expect(MathShapes.source(for: picture) == nil && InlineImageShapes.path(for: formula) == nil)
    }
}
