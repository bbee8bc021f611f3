import Styling
import TeXMath
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// The formulas and pictures a shaper names live as long as the lines that draw them (and the
/// last thousand or so its ``ShapeHold`` keeps): a render holds those of the lines not yet
/// drawn, not the whole document's.
@Suite struct ShapeHoldTests {
    /// A paragraph of a word and one inline formula, `source`.
    static func formula(_ source: String) -> StyledParagraph {
        var style = Support.style(Support.inter, size: 11)
        style.inlineFormula = InlineFormula(
            source: source, display: false, formula: MathParser.parse(source), family: InlineFormula.defaultFamily,
            errorColor: RGBAColor(red: 1, green: 0, blue: 0), colors: [:])
        return StyledParagraph(
            runs: [
                StyledRun("Let ", style: Support.style(Support.inter, size: 11)), StyledRun("\u{FFFC}", style: style),
            ],
            style: ParagraphStyle(baseFont: Support.style(Support.inter, size: 11).font))
    }

    /// A paragraph of a word and one inline picture of the file at `path` (which need not
    /// exist: its box is then the line's ascent).
    static func picture(_ path: String) -> StyledParagraph {
        var style = Support.style(Support.inter, size: 11)
        style.inlineImage = InlineImage(path: path, alternativeText: "a picture")
        return StyledParagraph(
            runs: [
                StyledRun("See ", style: Support.style(Support.inter, size: 11)), StyledRun("\u{FFFC}", style: style),
            ],
            style: ParagraphStyle(baseFont: Support.style(Support.inter, size: 11).font))
    }

    /// One shaper shaping 6,000 paragraphs of a formula and of a picture no other names, their
    /// lines dropped as they are shaped (as drawn lines are), keeps at most
    /// ``ShapeHold/recentLimit`` of each: the first formula's shape is gone, while a line still
    /// held keeps its own, named and drawn.
    @Test func formulasAndPicturesOfLinesGoneAreNotKept() throws {
        let shaper = PangoShaper()
        let held = shaper.shape(Self.formula("\\frac{a}{b} = c"), width: 300)
        weak var first: FormulaShape?
        do {
            let firstStyle = try #require(Self.formula("x^{0} + y").runs.last?.style)
            first =
                MathShapes.layout(
                    firstStyle.inlineFormula!, size: firstStyle.font.size, fonts: shaper.session.configuration,
                    hold: shaper.shapeHold)?.shape
            #expect(first != nil)
        }
        for index in 1...6_000 {
            #expect(shaper.shape(Self.formula("x^{\(index)} + y"), width: 300).lines.count == 1)
            #expect(shaper.shape(Self.picture("/nowhere/\(index).png"), width: 300).lines.count == 1)
        }
        let limit = ShapeHold.recentLimit
        #expect(shaper.shapeHold.formulas.kept <= limit, "\(shaper.shapeHold.formulas.kept) formulas")
        #expect(shaper.shapeHold.formulaPieces.kept <= limit, "\(shaper.shapeHold.formulaPieces.kept) pieces")
        #expect(shaper.shapeHold.pictures.kept <= limit, "\(shaper.shapeHold.pictures.kept) pictures")
        #expect(first == nil, "the first formula's shape is released")
        // The held line's formula is still named and drawn by its shape attributes.
        let line = try #require(held.lines.first?.handle as? PangoLineHandle)
        let pictures = InlineImageShapes.pictures(of: line.line)
        #expect(pictures.map(\.alternativeText) == ["\u{0}\\frac{a}{b} = c"], "\(pictures)")
    }

    /// What a shaper named lately is found again: identical formulas and pictures share one
    /// shape.
    @Test func identicalFormulasAndPicturesShareOneShape() throws {
        let shaper = PangoShaper()
        let style = try #require(Self.formula("\\frac{a}{b} = c").runs.last?.style)
        let formula = try #require(style.inlineFormula)
        let laidOut = try #require(
            MathShapes.layout(formula, size: 11, fonts: shaper.session.configuration, hold: shaper.shapeHold))
        let again = try #require(
            MathShapes.layout(formula, size: 11, fonts: shaper.session.configuration, hold: shaper.shapeHold))
        #expect(laidOut.shape === again.shape && laidOut.shape.source == "\\frac{a}{b} = c")
        let picture = InlineImageShapes.shape(for: "/nowhere/held.png", alternativeText: "held", hold: shaper.shapeHold)
        #expect(
            InlineImageShapes.shape(for: "/nowhere/held.png", alternativeText: "held", hold: shaper.shapeHold)
                === picture)
        #expect(picture.path == "/nowhere/held.png" && picture.alternativeText == "held")
    }
}
