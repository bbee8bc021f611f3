import Foundation
import TestSupport
import Testing
import Typesetter

/// `\text{…}` inside formulas drawn in the body face through the backend's text shaping, read
/// back from the PDF: a face for Hangul and Japanese the math font lacks, the body face's bold
/// and italic, colour emoji as running text draws them, in running text, a subscript and a
/// displayed formula; the file clean and each formula's source still its `/ActualText`.
@Suite(.serialized) struct MathTextDocumentTests {
    /// The fonts of a one-paragraph document with `formula` after a word of Latin text.
    func fonts(_ formula: String, name: String) throws -> (fonts: Set<String>, pdf: String, report: RenderReport) {
        let (pdf, report) = try Render.markdown("Plain words and $\(formula)$ here.\n", name: name)
        return (Set(try PDFProbe.fonts(pdf)), pdf, report)
    }

    @Test(arguments: [
        ("hangul", #"x = \text{값}"#), ("japanese", #"y = \text{日本語のテキスト}"#),
        ("subscript", #"a_{\text{최대 값}}"#),
    ])
    func lettersTheMathFontLacksAreDrawnInAFaceThatHasThem(_ name: String, _ formula: String) throws {
        let control = try fonts(#"x = \text{ok}"#, name: "math-text-control")
        let member = try fonts(formula, name: "math-text-\(name)")
        let added = member.fonts.subtracting(control.fonts)
        #expect(added.contains { $0.contains("CJK") || $0.contains("Pretendard") || $0.contains("Nanum") }, "\(added)")
        #expect(try PDFProbe.qpdfClean(member.pdf))
        #expect(member.report.diagnostics.isEmpty)
        // The formula's source is what extraction reads (its `/ActualText`), not glyph soup.
        #expect(try PDFProbe.text(member.pdf).contains(formula))
    }

    /// A face that sets both running text and a formula's text is one embedded font, not two:
    /// the body face, its bold and italic, and the Korean face, each listed once by `pdffonts`,
    /// with the formulas or without them (no digits: a page number's tabular figures are other
    /// glyphs of the body face, which Cairo puts in a second subset).
    @Test func facesSharedByTextAndFormulasAreEmbeddedOnce() throws {
        let prose = "Plain words, **bold words**, *tilted words* and 한국어 글자 here."
        let formulas =
            #"$a = \text{plain words} + \textbf{bold words} + \textit{tilted words} + \text{한국어 글자}$"#
        let shared = try PDFProbe.fonts(Render.markdown(prose + "\n\n" + formulas + "\n", name: "math-text-shared").pdf)
        let alone = try PDFProbe.fonts(Render.markdown(prose + "\n", name: "math-text-shared-control").pdf)
        for face in ["Inter-Regular", "Inter-Bold", "Inter-Italic", "NotoSansCJKkr-Regular"] {
            #expect(alone.filter { $0 == face }.count == 1, "\(alone)")
            #expect(shared.filter { $0 == face }.count == 1, "\(face): \(shared)")
        }
        #expect(Set(shared).subtracting(alone).allSatisfy { $0.contains("DejaVuMathTeXGyre") }, "\(shared)")
    }

    @Test func accentedLatinBoldAndItalicTextAreTheBodyFaces() throws {
        let control = try fonts(#"x = y"#, name: "math-text-latin-control")
        let member = try fonts(#"\text{café über} \ne \textbf{bold} + \textit{tilt}"#, name: "math-text-latin")
        let added = member.fonts.subtracting(control.fonts)
        #expect(added.contains { $0.hasSuffix("-Bold") }, "\(added)")
        #expect(added.contains { $0.hasSuffix("-Italic") }, "\(added)")
        #expect(!member.fonts.contains { $0.contains("DejaVuMathTeXGyre") && $0.contains("Bold") })
    }

    @Test func emojiInsideTextIsDrawnAsRunningTextDrawsIt() throws {
        let member = try fonts(#"\text{🙂 ok}"#, name: "math-text-emoji")
        let images = try PDFProbe.run("pdfimages", ["-list", member.pdf]).output.split(separator: "\n").dropFirst(2)
        #expect(images.count >= 1)
        #expect(try PDFProbe.qpdfClean(member.pdf))
    }

    /// A space at the end of `\text{if }` keeps its width: the formula with it is wider, by about
    /// a word space of the body face, than the same formula without it.
    @Test func aSpaceInsideTextWidensTheFormula() throws {
        func gap(_ formula: String, _ name: String) throws -> Double {
            let (pdf, _) = try Render.markdown("Left $\(formula)$ right\n", name: name)
            let words = try PDFProbe.words(pdf)
            let left = try #require(words.first { $0.text == "Left" })
            let right = try #require(words.first { $0.text == "right" })
            return right.xMin - left.xMax
        }
        let spaced = try gap(#"\text{if }x"#, "math-text-spaced")
        let unspaced = try gap(#"\text{if}x"#, "math-text-unspaced")
        #expect(spaced - unspaced > 2 && spaced - unspaced < 5, "\(spaced) against \(unspaced)")
    }

    @Test func textInADisplayedFormulaAndCases() throws {
        // A title, so that the file claims PDF/UA-1 and is validated as such.
        let markdown = """
            ---
            title: Cases
            ---
            Cases:

            $$
            f(x) = \\begin{cases} 1 & \\text{if } x > 0 \\\\ 0 & \\text{sonst, 값} \\end{cases}
            $$
            """
        let (pdf, report) = try Render.markdown(markdown, name: "math-text-display")
        #expect(report.diagnostics.isEmpty)
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("CJK") || $0.contains("Pretendard") })
        #expect(try PDFProbe.qpdfClean(pdf))
        try PDFValidationTests.expectValid([pdf])
    }
}
