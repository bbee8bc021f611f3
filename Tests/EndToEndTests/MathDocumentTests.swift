import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// TeX math through the whole pipeline, read back from the PDF: formulas drawn with the math
/// font, each a `Formula` element whose `/Alt` is its TeX source, text around them kept,
/// unknown commands warned about at their place, the file clean for qpdf and PDF/UA.
@Suite(.serialized) struct MathDocumentTests {
    static let sources = [
        #"x^2 + y^2 = z^2"#, #"\frac{a}{b}"#, #"\sum_{i=1}^{n} i"#,
        #"\int_0^\infty e^{-x^2}\,dx = \frac{\sqrt{\pi}}{2}"#,
        #"\begin{pmatrix} a & b \\ c & d \end{pmatrix}"#,
    ]

    static let markdown = """
        # Formulas

        The sides $\(sources[0])$ and $\(sources[1])$ and $\(sources[2])$ cost $5 and $10.

        $$
        \(sources[3])
        $$

        A matrix $\(sources[4])$ and an unknown $\\nosuch{x}$ here.
        """

    /// The `/Alt` of every `Formula` element, in structure-tree order, from `qpdf --json`.
    static func formulaAlts(_ pdf: String) throws -> [String] {
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", pdf]).output
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let parts = try #require(top["qpdf"] as? [Any])
        let objects = try #require(parts.last as? [String: Any])
        var alts: [(number: Int, alt: String)] = []
        for (key, value) in objects {
            guard let element = (value as? [String: Any])?["value"] as? [String: Any],
                element["/S"] as? String == "/Formula"
            else { continue }
            let number = Int(key.dropFirst(4).split(separator: " ").first ?? "") ?? 0
            alts.append((number, String((element["/Alt"] as? String ?? "").dropFirst(2))))
        }
        return alts.sorted { $0.number < $1.number }.map(\.alt)
    }

    @Test func formulasAreDrawnTaggedAndWarnedAbout() throws {
        let (pdf, report) = try Render.markdown(Self.markdown, name: "math-document")
        #expect(try PDFProbe.qpdfClean(pdf))
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("DejaVuMathTeXGyre") })
        // An inline formula is cut into pieces where a line may break after a relation or a
        // binary operation; the pieces a line holds side by side are one Formula element, so a
        // formula on one line is one element whose /Alt is its source.
        let alts = try Self.formulaAlts(pdf)
        #expect(alts == Self.sources + [#"\nosuch{x}"#], "\(alts)")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("$5 and $10"))
        #expect(text.contains("A matrix") && text.contains("here."))
        let warnings = report.diagnostics.map(\.description)
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.contains(#"math-document.md:9:"#) == true && warnings.first?.contains(#"\nosuch"#) == true)
        try PDFValidationTests.expectValid([pdf])
    }

    /// An inline formula with no place to break that is wider than the measure is shrunk to fit
    /// it, as a display with no break is, rather than run off the page: no ink in the right
    /// margin. The warning quotes it as its TeX source (not as the U+FFFC that stands for it
    /// in the line's text) and stands at its `$`; a formula nested too deeply is reported once.
    /// A numbered alignment set smaller to fit the text area's height keeps its labels apart:
    /// they stood at the text's size on rows closer together than they are tall, each running
    /// into the next (read from the page at 300 dpi: the labels' column, right of the rows, as
    /// runs of rows of ink, one a label). A short one keeps them at the text's size.
    @Test(arguments: [70, 3])
    func rowLabelsOfAShrunkAlignmentStayApart(_ rowCount: Int) throws {
        let rows = (0..<rowCount).map { "x_{\($0)} &= \($0)" }.joined(separator: " \\\\ ")
        let (pdf, _) = try Render.markdown(
            "Text.\n\n\\begin{align}" + rows + "\\end{align}\n", name: "shrunk-labels-\(rowCount)")
        // The formula's word spans its rows and labels; its labels end at its right edge.
        let formula = try #require(try PDFProbe.words(pdf).first { $0.text.hasPrefix("\\begin{align}") })
        let dpi = 300.0
        let scale = dpi / 72
        let crop = [
            "-x", "\(Int((formula.xMax - 16) * scale))", "-y", "\(Int((formula.yMin - 12) * scale))", "-W",
            "\(Int(18 * scale))", "-H", "\(Int((760 - formula.yMin) * scale))",
        ]
        let inkRows = try PDFProbe.rowsWithInk(pdf, page: 1, dpi: dpi, crop: crop)
        let runs = zip(inkRows, inkRows.dropFirst()).filter { $1 > $0 + 1 }.count + (inkRows.isEmpty ? 0 : 1)
        #expect(runs == rowCount, "\(runs) runs of ink for \(rowCount) labels")
    }

    /// A colour a formula names that is none of the theme's, CSS's or `#RRGGBB` is warned about
    /// where its command is written (it was set in the text's colour silently); `#00aa00` and
    /// xcolor's models colour their text.
    @Test func aFormulasUnknownColourIsWarnedAboutWhereItIsWritten() throws {
        let markdown =
            "Ok $\\color{#00aa00} h$ and $\\color[HTML]{FF8800} y$.\n\nBad $x + \\textcolor{nosuchcolour}{x}$.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "formula-colours")
        let warnings = report.diagnostics.filter { $0.message.contains("names no colour") }
        #expect(warnings.count == 1, "\(report.diagnostics)")
        #expect(warnings.first?.message.contains("nosuchcolour") == true)
        #expect(warnings.first?.location?.line == 3 && warnings.first?.location?.column == 10, "\(warnings)")
        let colours = Set(try PDFColoredText.read(pdf).map(\.color))
        #expect(colours.count >= 3, "\(colours)")
    }

    @Test func anOverwideFormulaIsQuotedAsItsSource() throws {
        let wide = #"\frac{"# + String(repeating: "a", count: 120) + "}{b}"
        let deep = String(repeating: "{", count: 260) + "x" + String(repeating: "}", count: 260)
        let markdown = "Some text, then $\(wide)$ and more.\n\nDeep: $\(deep)$\n"
        let (pdf, report) = try Render.markdown(markdown, name: "overwide-formula")
        let messages = report.diagnostics.map(\.description)
        let overwide = try #require(
            report.diagnostics.first { $0.message.hasPrefix("an inline formula is wider than the measure") },
            "\(messages)")
        #expect(overwide.message.contains("is set at") && overwide.message.contains("to fit it"), "\(overwide.message)")
        // The measure ends at 461 pt on A4 (595 pt): the margin right of 470 pt holds no ink.
        let margin = try PDFProbe.rowsWithInk(pdf, page: 1, dpi: 100, crop: ["-x", "653", "-W", "173"])
        #expect(margin.isEmpty, "ink in the right margin, rows \(margin.prefix(5))")
        #expect(overwide.message.contains("'\\frac{aaaa"), "\(overwide.message)")
        #expect(!overwide.message.contains("\u{FFFC}"))
        #expect(overwide.location?.line == 1 && overwide.location?.column == 17, "\(overwide.description)")
        #expect(messages.filter { $0.contains("nested too deeply") }.count == 1, "\(messages)")
        #expect(!messages.contains { $0.contains("missing }") || $0.contains("missing argument") }, "\(messages)")
    }

    /// A formula shrunk to fit a table cell names the cell's width, not the page's measure,
    /// which it did not overflow; one in a paragraph names the measure.
    @Test func anOverwideFormulaInACellNamesTheCell() throws {
        let long = #"\frac{a+b+c+d+e+f+g+h+i}{h+i+j+k+l+m+n+o+p+q+r}"#
        let words = String(repeating: "text ", count: 8)
        let fenced = #"\left( a + b + c + d + e + f + g + h + i + j + k \right)"#
        let markdown = """
            | a | b | c | d | e |
            |---|---|---|---|---|
            | $\(long)$ | \(words) | \(words) | \(words) | $\(fenced)$ |
            """
        let (_, report) = try Render.markdown(markdown, name: "overwide-formula-cell")
        let warning = try #require(report.diagnostics.first { $0.message.contains("formula is wider than") })
        #expect(warning.message.contains("is wider than its table cell ("), "\(warning.message)")
        #expect(!warning.message.contains("the measure (328 pt)"), "\(warning.message)")
    }

    /// A heading's bookmark spells its formulas as their symbols (`$\alpha$` α), not their TeX
    /// source; its id, made from the source, is what links to it name, as before.
    @Test func bookmarksSpellFormulasAsSymbols() throws {
        let markdown =
            "# Using $\\alpha$-blending\n\n## Where $x \\le \\frac{1}{2}$\n\nSee [above](#using-alpha-blending).\n"
        let (pdf, report) = try Render.markdown(markdown, name: "formula-bookmarks")
        #expect(!report.diagnostics.contains { $0.message.contains("link") }, "\(report.diagnostics)")
        let titles = try #require(try QDF(pdf).outline()).flatMap { [$0.title] + $0.children.map(\.title) }
        #expect(titles == ["Using α-blending", "Where x≤1/2"], "\(titles)")
    }

    @Test func aTallFormulaGrowsItsLineOnlyByWhatItNeeds() throws {
        let plain = "Line one of text.  \nLine two of text.  \nLine three."
        let tall = "Line one of text.  \nLine $\\dfrac{\\dfrac{a}{b}}{c}$ two.  \nLine three."
        let low = "Line one of text.  \nLine $x^2$ two.  \nLine three."
        func baselines(_ markdown: String, _ name: String) throws -> [Double] {
            let (pdf, _) = try Render.markdown(markdown, name: name)
            let words = try PDFProbe.words(pdf).filter { $0.text == "Line" }
            return words.map(\.yMax)
        }
        let plainSteps = try baselines(plain, "math-plain-lines")
        let tallSteps = try baselines(tall, "math-tall-lines")
        let lowSteps = try baselines(low, "math-low-lines")
        #expect(plainSteps.count == 3 && tallSteps.count == 3 && lowSteps.count == 3)
        let plainGap = plainSteps[1] - plainSteps[0]
        // A superscript fits the line's leading: the lines stay evenly spaced.
        #expect(abs((lowSteps[1] - lowSteps[0]) - plainGap) < 0.5)
        // A stacked fraction does not: its line moves down.
        #expect(tallSteps[1] - tallSteps[0] > plainGap + 2)
    }

    /// The note in `Fixtures/math-note.md`: every construct in running text and display, and
    /// Korean text with inline math, renders without a warning, its text and formulas kept.
    @Test func theNoteOfEveryConstructRendersClean() throws {
        let markdown = try String(
            contentsOfFile: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/math-note.md", encoding: .utf8)
        let (pdf, report) = try Render.markdown(markdown, name: "math-note")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("피타고라스 정리는") && text.contains("입니다"))
        #expect(text.contains("it costs $5 and $10"))
        let spelled = try Self.formulaAlts(pdf).joined(separator: " ")
        for source in [#"e^{i\pi} + 1 = 0"#, #"\sum_{k=1}^{n} k = \frac{n(n+1)}{2}"#, #"\textcolor{blue}{y}"#] {
            #expect(spelled.contains(source))
        }
        #expect(try PDFProbe.qpdfClean(pdf))
        try PDFValidationTests.expectValid([pdf])
    }

    /// `-V math=false` keeps dollars as text, over the front matter; `-V math=true` reads math
    /// where the front matter says `math: false`.
    @Test func theCommandLineTurnsMathOnAndOff() throws {
        let folder = try Render.scratchFolder("math-variable")
        let input = folder + "/money.md"
        try "---\nmath: false\n---\n\nPay $x^2$ now.\n".write(toFile: input, atomically: false, encoding: .utf8)
        let pdf = folder + "/money.pdf"
        #expect(try typeset(["render", input, "-o", pdf]).status == 0)
        #expect(try PDFProbe.text(pdf).contains("Pay $x^2$ now."))
        #expect(try Self.formulaAlts(pdf).isEmpty)
        #expect(try typeset(["render", input, "-o", pdf, "-V", "math=true"]).status == 0)
        #expect(try Self.formulaAlts(pdf) == ["x^2"])
        try "Pay $x^2$ now.\n".write(toFile: input, atomically: false, encoding: .utf8)
        #expect(try typeset(["render", input, "-o", pdf, "-V", "math=false"]).status == 0)
        #expect(try PDFProbe.text(pdf).contains("Pay $x^2$ now."))
        // The front matter's texts are read as the body is: a title's, subtitle's and author's
        // dollars stay text where math is off (they were read as math: "Budget for x items").
        let titled = "---\ntitle: Budget for $x$ items\nsubtitle: From $5 to $y$\nauthor: A $b$ C\n---\n\nBody.\n"
        for (front, variables) in [("math: false\n", [String]()), ("", ["-V", "math=false"])] {
            try titled.replacingOccurrences(of: "---\ntitle", with: "---\n" + front + "title")
                .write(toFile: input, atomically: false, encoding: .utf8)
            #expect(try typeset(["render", input, "-o", pdf] + variables).status == 0)
            let text = try PDFProbe.text(pdf)
            for written in ["Budget for $x$ items", "From $5 to $y$", "A $b$ C"] {
                #expect(text.contains(written), "\(front)\(variables): \(text)")
            }
            #expect(try Self.formulaAlts(pdf).isEmpty)
            #expect(try PDFProbe.run("pdfinfo", [pdf]).output.contains("Budget for $x$ items"))
        }
    }

    /// Copying a formula gives its TeX source: each `Formula`'s marked content carries its
    /// source as `/ActualText` (PDF 1.7 §14.9.4), which `pdftotext` reads in place of the math
    /// glyphs, once, and in order with the words around it. pypdf reads the glyphs' own
    /// ToUnicode text (it does not read `/ActualText`): the words around come back in order.
    @Test func copyingAFormulaGivesItsSource() throws {
        let inline = [#"x^2"#, #"\alpha+\beta"#, #"\sqrt{y}"#]
        let display = #"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}"#
        let markdown = """
            # Copying

            Before $\(inline[0])$ middle $\(inline[1])$ and $\(inline[2])$ after.

            $$\(display)$$

            Closing words.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "math-actual-text")
        let text = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output
        // A formula's pieces (it may break after a binary operation) read with a space between.
        let unspaced = text.filter { !$0.isWhitespace }
        let line = "Before \(inline[0]) middle \(inline[1]) and \(inline[2]) after.".filter { !$0.isWhitespace }
        #expect(unspaced.contains(line), "pdftotext: \(text)")
        #expect(unspaced.contains(display.filter { !$0.isWhitespace }), "pdftotext: \(text)")
        #expect(text.components(separatedBy: #"\frac"#).count == 2, "the source once: \(text)")
        // No math italic letter (U+1D44E…) nor n-ary summation glyph reads in place of the source.
        #expect(!text.unicodeScalars.contains { (0x1D400...0x1D7FF).contains($0.value) || $0.value == 0x2211 })
        if let python = PDFValidationTests.checker() {
            let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
            let read = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
            let words = ["Before", "middle", "and", "after.", "Closing", "words."]
            let positions = words.map { read.range(of: $0)?.lowerBound }
            #expect(!positions.contains(nil), "pypdf: \(read)")
            let found = positions.compactMap { $0 }
            #expect(found == found.sorted(), "pypdf: \(read)")
        }
        #expect(try PDFProbe.qpdfClean(pdf))
        try PDFValidationTests.expectValid([pdf])
    }

    /// Every glyph of a formula maps to a character in its font's `/ToUnicode` map, the forms
    /// the font's character map does not give too: script forms (`ssty`), display and
    /// delimiter sizes, and the parts of assembled delimiters, radicals, braces and arrows
    /// read as the character they are a form of. pypdf reads the map, not `/ActualText`; the
    /// map had U+FFFD for each form.
    @Test func everyFormOfAGlyphMapsToItsCharacter() throws {
        let markdown = #"""
            Scripts $x'_n + e^{x^{y}} + a_{i_j}$ and $\sum_{k} k$.

            $$\sum_{k=1}^{n} \int_0^1 \prod_i \left( \frac{a}{b} \right)$$

            $$\left\{ \begin{matrix} 1 \\ 2 \\ 3 \\ 4 \\ 5 \end{matrix} \right. \sqrt{\frac{\frac{a}{b}}{\frac{c}{d}}}$$

            $$\widehat{abcdef} \overbrace{a+b+c+d}^{n} \xrightarrow{\text{a label}} \Bigg[ \bigg\| x \bigg\|$$
            """#
        let (pdf, _) = try Render.markdown(markdown, name: "math-form-characters")
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let text = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
        #expect(!text.unicodeScalars.contains("\u{FFFD}"), "pypdf: \(text)")
        for character in ["𝑛", "𝑗", "𝑦", "∑", "∫", "∏", "(", "{", "√", "⏞", "→", "‖", "["] {
            #expect(text.contains(character), "\(character) in pypdf: \(text)")
        }
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// A displayed formula wider than the measure is set smaller until it fits, down to 80 %
    /// of the text's size; one still wider at 80 % is set at the text's size in lines broken
    /// after its relations and binary operations, as evenly full as can be, each within the
    /// measure (in a list item, the item's); one with no such break runs into the margin and
    /// is warned about at its place. Formulas that fit keep the text's size.
    @Test func wideDisplayedFormulasShrinkThenBreakThenWarn() throws {
        let terms = (1...21).map { "a_{\($0)}" }
        let slightly = terms.prefix(14).joined(separator: " + ")
        let far = terms.joined(separator: " + ")
        let chain = (1...30).map { "b_{\($0)}" }.joined(separator: " = ")
        let unbreakable = "\\frac{" + (1...40).map { "c_{\($0)}" }.joined() + "}{2}"
        let markdown =
            "# Wide\n\nText before.\n\n$$\(slightly)$$\n\n$$\(far)$$\n\n$$x = 1$$\n\n- An item:\n\n  $$\(chain)$$\n\n"
            + "$$\(unbreakable)$$\n"
        let (pdf, report) = try Render.markdown(markdown, name: "math-wide-display")
        let measure = Typesetter.fittedPage(of: .default).measure
        let words = try PDFProbe.words(pdf)
        let left = try #require(words.first { $0.text == "Text" }).xMin
        let first = try #require(words.first { $0.text.hasPrefix("a_{1} +") && $0.text.hasSuffix("a_{14}") })
        let small = try #require(words.first { $0.text == "x = 1" })
        // 14 terms are about 11 % wider than the measure: shrunk to fill it exactly.
        #expect(abs((first.xMax - first.xMin) - measure) < 1, "\(first.xMax - first.xMin) pt")
        // Shrunk letters: the shrunk formulas' glyphs are shorter than the one at full size.
        #expect(first.yMax - first.yMin < (small.yMax - small.yMin) * 0.95)
        // 21 terms need less than 80 %: two lines at full size (the chain in the list item,
        // four), each within the measure, the terms in order, the fullest line at most a
        // third fuller than the emptiest.
        for (prefix, count, lines) in [("a_{", 21, 2), ("b_{", 30, 4)] {
            let lineWords = words.filter { $0.text.hasPrefix(prefix) && $0.text != first.text }
            #expect(lineWords.count == lines, "\(prefix): \(lineWords.map(\.text))")
            let numbers = lineWords.flatMap { word in
                word.text.split(separator: "{").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
            }
            #expect(numbers == Array(1...count), "\(prefix): \(numbers)")
            for word in lineWords {
                #expect(
                    word.xMin >= left - 0.5 && word.xMax <= left + measure + 0.5,
                    "\(word.text): \(word.xMin)…\(word.xMax)")
                #expect(abs((word.yMax - word.yMin) - (small.yMax - small.yMin)) < 3, "full size: \(word.text)")
            }
            let widths = lineWords.map { $0.xMax - $0.xMin }
            #expect(widths.max()! < widths.min()! * 1.34, "\(prefix): \(widths)")
        }
        let warnings = report.diagnostics.map(\.description)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("math-wide-display.md:15:1:") == true, "\(warnings)")
        #expect(warnings.first?.contains("has no relation or operator to break at") == true, "\(warnings)")
        #expect(try PDFProbe.qpdfClean(pdf))
        // A formula that may break, but a part of it between the breaks is too wide, is said
        // to be so, not to have no place to break.
        let (_, broken) = try Render.markdown("$$y = \(unbreakable)$$\n", name: "math-wide-part")
        #expect(
            broken.diagnostics.first?.message.contains("a part of it between the places it may break") == true,
            "\(broken.diagnostics.map(\.description))")
    }

    /// A formula nested past the parser's depth ends there, and what it did not read is set
    /// once, at its top level, not inside each of the groups it stopped in (each of the 200
    /// copied it: `\\frac{1}{` 3,000 deep took 2.1 s, `\\color{blue}` 20,000 times 13 s): a
    /// formula nested 16,000 deep takes at most twice the processor time of one as long whose
    /// groups follow each other, and its text reads as its whole source.
    @Test(arguments: ["\\frac{1}{", "\\color{blue}", "\\sqrt{"])
    func formulasNestedTooDeepCostWhatTheirLengthCosts(unit: String) throws {
        let closes = unit.hasSuffix("{")
        func nested(_ count: Int) -> String {
            "$" + String(repeating: unit, count: count) + "x" + (closes ? String(repeating: "}", count: count) : "")
                + "$ tail\n"
        }
        let flat = "$" + String(repeating: closes ? unit + "x}" : "{" + unit + "x}", count: 16_000) + "$ tail\n"
        let (deep, level) = try Timing.firstHolding {
            (
                try Render.processorSeconds(nested(16_000), name: "math-deep"),
                try Render.processorSeconds(flat, name: "math-flat")
            )
        } holds: {
            $0.0 < 2 * $0.1
        }
        #expect(deep < 2 * level, "\(unit): nested \(deep) s, one after another \(level) s")
        let (pdf, _) = try Render.markdown(nested(3_000), name: "math-deep-text")
        let text = try PDFProbe.text(pdf).filter { !$0.isWhitespace }
        #expect(text.components(separatedBy: unit).count - 1 == 3_000 && text.contains("tail"), "\(text.suffix(40))")
    }

    /// A formula with no place to break is shrunk until it fits the measure, however small
    /// that makes it: never past the page's edge, where its text is lost to every reader of
    /// the page. `\text` of 40 to 150 words, inline, displayed, in a table cell and in a
    /// heading: every word is read from the page, inside it, and the warning names the size.
    @Test(arguments: [("inline", 40), ("inline", 150), ("display", 60), ("cell", 60), ("heading", 60)])
    func aFormulaWiderThanThePageStaysOnIt(place: String, words count: Int) throws {
        let formula = "\\text{" + String(repeating: "Mathword ", count: count) + "}"
        let markdown =
            switch place {
            case "display": "Before.\n\n$$\(formula)$$\n\nAfter.\n"
            case "cell": "| A | B |\n|---|---|\n| $\(formula)$ | b |\n"
            case "heading": "# Head $\(formula)$\n\nBody.\n"
            default: "Before $\(formula)$ after.\n"
            }
        let (pdf, report) = try Render.markdown(markdown, name: "math-wider-than-page-\(place)-\(count)")
        let text = try PDFProbe.text(pdf)
        #expect(text.components(separatedBy: "Mathword").count - 1 == count, "\(place) \(count)")
        let width = try #require(PDFProbe.info(pdf)["Page size"].flatMap { Double($0.split(separator: " ")[0]) })
        let words = try PDFProbe.words(pdf).filter { $0.text.contains("Mathword") }
        #expect(words.allSatisfy { $0.xMin >= 0 && $0.xMax <= width }, "\(words.map(\.xMax).max() ?? 0) of \(width)")
        let warning = report.diagnostics.first { $0.message.contains("to fit it") }
        #expect(warning != nil, "\(report.diagnostics.map(\.description))")
    }

    /// A displayed formula is kept with the line that introduces it: wherever the page ends
    /// near it, the page that holds the formula holds that line too.
    @Test func aDisplayedFormulaStaysWithTheLineBeforeIt() throws {
        var pagesOfTheFormula: [Int] = []
        for fillers in 34...38 {
            let lines = (0..<fillers).map { "Filler line \($0)." }.joined(separator: "  \n")
            let markdown = """
                # Keep

                \(lines)

                The sum is introduced here:

                $$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$

                After the display.
                """
            let (pdf, _) = try Render.markdown(markdown, name: "math-keep-\(fillers)")
            let pages = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output.split(separator: "\u{0C}")
            let page = try #require(pages.firstIndex { $0.contains(#"\sum_{i=1}"#) })
            #expect(pages[page].contains("The sum is introduced here:"), "\(fillers) lines: \(pages)")
            pagesOfTheFormula.append(page)
        }
        // The page ends before, at, and after the introducing line across the renders.
        #expect(pagesOfTheFormula.first == 0 && pagesOfTheFormula.last == 1, "\(pagesOfTheFormula)")
    }

    /// A `\tag` label sits flush right at the measure's edge on the formula's baseline, and
    /// the formula stays centred in the measure, as LaTeX sets an equation number.
    @Test func tagLabelsSitFlushRightAndTheFormulaStaysCentred() throws {
        let markdown = """
            # Tags

            Text before.

            $$E = mc^2 \\tag{1}$$

            $$\\frac{a}{b} = \\sum_{i=1}^n x_i \\tag{2.3}$$
            """
        let (pdf, report) = try Render.markdown(markdown, name: "math-tags")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let left = try #require(words.first { $0.text == "Text" }).xMin
        let measure = Typesetter.fittedPage(of: .default).measure
        for (label, formula) in [("(1)", "E = mc^2"), ("(2.3)", #"\frac{a}{b}"#)] {
            let tag = try #require(words.first { $0.text == label })
            let body = try #require(words.first { $0.text.hasPrefix(formula) })
            #expect(abs(tag.xMax - (left + measure)) < 0.5, "\(label) ends at \(tag.xMax)")
            #expect(abs((body.xMin + body.xMax) / 2 - (left + measure / 2)) < 1, "\(formula) centred")
        }
    }

    /// A formula too wide to have its label beside it, which still fits the measure, has the
    /// label on a line under it, flush right, as amsmath places a tag with no room: it was set
    /// two em spaces after the formula, which sent it to a centred line of its own.
    @Test func aLabelWithNoRoomBesideItsFormulaGoesUnderItFlushRight() throws {
        let terms = (1...11).map { "a_{\($0)}" }.joined(separator: " + ")
        let markdown = "Text before.\n\n$$\(terms)$$\n\n$$\(terms) \\tag{7}$$\n"
        let (pdf, report) = try Render.markdown(markdown, name: "math-tag-below")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let left = try #require(words.first { $0.text == "Text" }).xMin
        let measure = Typesetter.fittedPage(of: .default).measure
        #expect(!words.contains { $0.text == "(7)" }, "the label is no word of its own beside the formula")
        let formulas = words.filter { $0.text.hasPrefix("a_{1}") }
        try #require(formulas.count == 2, "\(words.map(\.text))")
        let (plain, tagged) = (formulas[0], formulas[1])
        #expect(plain.xMax - plain.xMin > measure * 0.8, "a formula of \(plain.xMax - plain.xMin) pt")
        #expect(abs(tagged.xMax - (left + measure)) < 0.5, "the label ends at the measure: \(tagged.xMax)")
        #expect(tagged.text.hasSuffix(" (7)"), "the label copies with its formula: \(tagged.text)")
        #expect(
            (tagged.yMax - tagged.yMin) - (plain.yMax - plain.yMin) > 3,
            "a line under the formula: \(tagged.yMax - tagged.yMin) against \(plain.yMax - plain.yMin)")
    }

    /// Dynamic Type scales formulas with the text: at a larger size category, an inline and a
    /// displayed formula grow by the ratio the body's words grow by (glyph boxes read back with
    /// `pdftotext -bbox`).
    @Test func sizeCategoriesScaleFormulasWithTheText() throws {
        let markdown = "# Sizes\n\nBody $x^2 + y^2$ words.\n\n$$\\int_0^1 f(x)\\,dx$$\n"
        func heights(_ category: SizeCategory?) throws -> (body: Double, inline: Double, display: Double) {
            let options = RenderOptions(themeRequest: ThemeRequest(sizeCategory: category))
            let name = "math-size-\(category?.rawValue ?? "default")"
            let (pdf, _) = try Render.markdown(markdown, name: name, options: options)
            let words = try PDFProbe.words(pdf)
            func height(_ text: String) throws -> Double {
                let word = try #require(words.first { $0.text.hasPrefix(text) }, "\(text) in \(name)")
                return word.yMax - word.yMin
            }
            return (try height("Body"), try height("x^2"), try height(#"\int_0^1"#))
        }
        let base = try heights(nil)
        let large = try heights(.accessibility2)
        let ratio = large.body / base.body
        #expect(ratio > 1.3, "the body grows: \(ratio)")
        #expect(abs(large.inline / base.inline - ratio) < 0.02 * ratio, "inline \(large.inline / base.inline)")
        #expect(abs(large.display / base.display - ratio) < 0.02 * ratio, "display \(large.display / base.display)")
    }

    /// GitHub's ways of writing math (inline dollars, dollars with backticks, a display between
    /// lines of `$$`, a fenced `math` block, escaped dollars inside and outside math) render
    /// with no warning: each formula a `Formula` element, the dollars outside math kept as text.
    /// A command a formula defines (`\newcommand`, as MathJax keeps it) is known in the
    /// formulas after it, in later paragraphs and displays too; before its definition it is
    /// unknown, warned about where it is written. A `$` inside a link's address is part of the
    /// address: the link is one, and the math beside it still math.
    @Test func definitionsHoldForTheFormulasAfterThem() throws {
        let defined = try Render.markdown(
            "Let $\\newcommand{\\R}{\\mathbb{R}}$ be.\n\nThen $x \\in \\R^n$ and\n\n$$f\\colon \\R \\to \\R$$\n",
            name: "math-definitions")
        #expect(defined.report.diagnostics.isEmpty, "\(defined.report.diagnostics.map(\.description))")
        #expect(try PDFProbe.qpdfClean(defined.pdf))
        let before = try Render.markdown(
            "Then $x \\in \\R^n$.\n\nLet $\\newcommand{\\R}{\\mathbb{R}}$ be.\n", name: "math-definitions-before")
        #expect(
            before.report.diagnostics.map(\.description) == [
                "math-definitions-before.md:1:13: warning: unknown math command \\R"
            ])
        let linked = try Render.markdown("[pay](https://a.com/$y$/p) $m$ here.\n", name: "math-dollar-link")
        #expect(linked.report.diagnostics.isEmpty, "\(linked.report.diagnostics.map(\.description))")
        #expect(try PDFProbe.text(linked.pdf).contains("pay"))
        #expect(try !PDFProbe.text(linked.pdf).contains("https://"))
    }

    /// A formula is handed to CommonMark as a marker longer than the formula: warnings about
    /// what follows it on its line (links, images, references, table cells) are still placed at
    /// their column in the file, and a formula's own problems at theirs, in a display whose
    /// source starts on the line after `$$`, in a quote, in a ```` ```math ```` block, in a list.
    @Test func warningsAfterAndInsideFormulasAreWhereTheyAreWritten() throws {
        let markdown = """
            $a$ $b$ $c$ [l](#n)

            $abcdefghijklmnop$ [l](#m)

            | a | b |
            |---|---|
            | $g$ | $h$ | $i$ |

            $x$ ![](nope.png) and [r][nope]

            $$
            \\foo
            $$

            ```math
            a
            ccc \\bar
            ```

            > $$
            >   x \\baz
            > $$

            Inline $a \\qux$ and $$ \\quux $$.

            - item

              ```math
              \\zap
              ```

            """
        let (_, report) = try Render.markdown(markdown, name: "math-positions")
        let places = report.diagnostics.compactMap { diagnostic in
            diagnostic.location.map { "\($0.line):\($0.column)" }
        }
        #expect(
            places == ["1:17", "7:15", "9:9", "9:23", "12:1", "17:9", "21:7", "24:11", "24:24", "29:3"],
            "\(report.diagnostics.map(\.description))")
    }

    /// A character no installed font draws, typed in a formula or written with `\unicode`, is
    /// warned about at the formula that holds it, as one in the text is at its place.
    @Test func aCharacterNoFontDrawsInAFormulaIsWarnedAboutAtTheFormula() throws {
        let markdown = "Text $x + \u{17000}$ here.\n\nAnd $$y = \\unicode{x17001}$$ there.\n"
        let (_, report) = try Render.markdown(markdown, name: "math-no-font")
        let warning = try #require(
            report.diagnostics.first { $0.message.contains("no installed font draws") },
            "\(report.diagnostics.map(\.description))")
        #expect(warning.location.map { "\($0.line):\($0.column)" } == "1:6", "\(warning.description)")
        #expect(warning.message.contains("U+17000"))
    }

    /// A formula that only defines sets nothing, not even the space after it: a paragraph that
    /// opens with one starts at the margin, and one between words leaves one space; a
    /// definition that runs away is drawn as the command written, once, with one warning.
    @Test func definitionsSetNothingAndRunawaysAreDrawnAsWritten() throws {
        let markdown = "$\\newcommand{\\R}{x}$ Text after.\n\nText mid $\\def\\T{z}$ word.\n\nE $\\def\\y{a\\y}\\y$ F\n"
        let (pdf, report) = try Render.markdown(markdown, name: "math-definition-spaces")
        let words = try PDFProbe.words(pdf)
        let texts = words.filter { $0.text == "Text" }
        #expect(texts.count == 2 && abs(texts[0].xMin - texts[1].xMin) < 0.5, "\(texts.map(\.xMin))")
        let mid = try #require(words.first { $0.text == "mid" })
        let word = try #require(words.first { $0.text == "word." })
        let space = try #require(words.first { $0.text == "after." }).xMin - texts[0].xMax
        #expect(abs((word.xMin - mid.xMax) - space) < 0.5, "\(word.xMin - mid.xMax) against \(space)")
        #expect(report.diagnostics.count == 1 && report.diagnostics[0].message.contains("expands without end"))
    }

    /// Many short uses of a definition that expands to thousands of characters cost what the
    /// document's one budget of expansion allows (``MathExpansionBudget``), not each use's own:
    /// forty uses of a chain doubling twelve times take at most five times the processor time
    /// of one use, where each use set six pages.
    @Test func manyUsesOfALongExpansionShareOneBudget() throws {
        let levels = "abcdefghijklm".unicodeScalars.map(String.init)
        let chain =
            "$\\newcommand{\\ma}{x+}"
            + (1..<levels.count).map { "\\newcommand{\\m\(levels[$0])}{\\m\(levels[$0 - 1])\\m\(levels[$0 - 1])}" }
            .joined() + "$\n\n"
        let once = try Render.measured(chain + "$\\mm$\n\nEnd.\n", name: "expansion-once", scratch: "math-expansion")
        let forty = try Render.measured(
            chain + String(repeating: "$\\mm$\n\n", count: 40) + "End.\n", name: "expansion-forty",
            scratch: "math-expansion")
        #expect(forty.text.contains("End.") && forty.text.contains("\\mm"))
        #expect(forty.seconds <= 5 * once.seconds, "40 uses \(forty.seconds) s, one use \(once.seconds) s")
    }

    /// A heading's bookmark reads its formulas with the document's definitions and labels, a
    /// label after it too, as the page does.
    @Test func bookmarksReadDefinitionsAndReferences() throws {
        let markdown =
            "$\\newcommand{\\Z}{\\mathbb{Z}}$\n\n# See \\eqref{e1} in $\\Z$\n\n$$E=mc^2 \\label{e1}\\tag{3.1}$$\n"
        let (pdf, _) = try Render.markdown(markdown, name: "math-bookmarks-references")
        let titles = try #require(try QDF(pdf).outline()).map(\.title)
        #expect(titles == ["See (3.1) in ℤ"], "\(titles)")
    }

    /// `\eqref` and `\ref` print the tag of the formula whose `\label` they name, before or after
    /// it, inside formulas or in running text (as MathJax reads a notebook's text); a key no
    /// formula labels prints `??` with a warning at the reference.
    @Test func equationReferencesPrintTheirTags() throws {
        let markdown = """
            See \\eqref{eq:later} below and $\\ref{eq:later}$.

            $$E = mc^2 \\tag{1}\\label{eq:first}$$

            By \\eqref{eq:first}, and $\\eqref{eq:nope}$.

            \\begin{align}
            f(x) &= x^2 \\tag{A} \\label{eq:later}
            \\end{align}

            """
        let (pdf, report) = try Render.markdown(markdown, name: "math-references")
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("See (A) below and A."), "\(text)")
        #expect(text.contains("By (1), and (??)."), "\(text)")
        let (_, twice) = try Render.markdown(
            "$$x \\tag{1}\\label{dup}$$\n\n$$y \\tag{2}\\label{dup}$$\n\nDup \\ref{dup}.\n", name: "math-label-twice")
        #expect(twice.diagnostics.map(\.message).contains { $0.contains(#"\label{dup} is given to a second formula"#) })
        #expect(
            report.diagnostics.map(\.description) == [
                "math-references.md:5:27: warning: no numbered formula has \\label{eq:nope}: the reference is set as "
                    + "?? (a label names the number or \\tag of its equation or row; $$…$$ and starred environments "
                    + "are not numbered)"
            ])
    }

    @Test func githubsMathSyntaxRendersClean() throws {
        let markdown = try String(
            contentsOfFile: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/math-github-syntax.md", encoding: .utf8)
        let (pdf, report) = try Render.markdown(markdown, name: "math-github-syntax")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.description))")
        let spelled = try Self.formulaAlts(pdf).joined(separator: " ").filter { !$0.isWhitespace }
        let sources = [
            #"\varphi="#, #"\{x\midx^2<4\}"#, #"\int_a^bf(x)^2\,dx"#, #"\det(\mathbf{A}-\lambdaI)=0"#,
            #"\text{price}=\$12\timesn"#,
        ]
        for source in sources { #expect(spelled.contains(source), "\(source) in \(spelled)") }
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("an escaped $3.50 and a bare $ sign stay text"), "\(text)")
        #expect(text.contains("such as $20 and $45."), "\(text)")
        #expect(try PDFProbe.qpdfClean(pdf))
        try PDFValidationTests.expectValid([pdf])
    }

    /// A formula narrower than nothing (`\!` backs up a thin space: `$\!$` is −0.17 em wide)
    /// followed by text on its line is drawn, in a paragraph, a heading, a list item, a table
    /// cell, a quote and a note, tagged and untagged: its box runs back, never a range that
    /// ends before it starts.
    @Test func aFormulaNarrowerThanNothingIsDrawn() throws {
        let backs = String(repeating: "\\!", count: 6)
        let markdown = """
            # Head $\(backs)x$ tail

            Para $\\!$ b and $x\(backs)$ c[^1].

            - item $\(backs)$ d

            | a |
            |---|
            | $\(backs)$ e |

            > quote $\(backs)$ f

            [^1]: Note $\(backs)$ g.
            """
        for tagged in [true, false] {
            var options = RenderOptions()
            options.tagged = tagged
            let (pdf, _) = try Render.markdown(markdown, name: "negative-formula-\(tagged)", options: options)
            #expect(try PDFProbe.qpdfClean(pdf))
            let words = try PDFProbe.words(pdf).map(\.text)
            for word in ["tail", "b", "c", "d", "e", "f", "g."] {
                #expect(words.contains { $0.hasSuffix(word) }, "\(word): \(words)")
            }
        }
    }

    /// A formula in the front matter's title is spelled as its symbols wherever the title is
    /// read as text — the PDF's Title, a running head, the bookmarks — not as its TeX source.
    @Test func aFormulaInTheTitleIsSpelledAsItsSymbols() throws {
        let dir = try Render.scratchFolder("math-title")
        try "---\ntitle: 'On $\\alpha$ decay'\n---\n\n# One\n\ntext\n\n\\newpage\n\nmore\n".write(
            toFile: dir + "/t.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/t.md", "-o", dir + "/t.pdf", "--header", "{title}"])
        #expect(result.status == 0, "\(result.output)")
        #expect(try PDFProbe.info(dir + "/t.pdf")["Title"] == "On α decay")
        let second = try PDFProbe.run("pdftotext", ["-f", "2", "-l", "2", dir + "/t.pdf", "-"]).output
        #expect(second.contains("On α decay") && !second.contains("alpha"), "\(second)")
    }

    /// A displayed formula taller than the text area (an `aligned` of 60 rows) cannot be broken
    /// across pages; it is said where it is written that its rows run past the page's foot.
    @Test func aFormulaTallerThanThePageIsWarnedAbout() throws {
        let rows = (0..<60).map { "a_{\($0)} &= b_{\($0)} + c" }.joined(separator: " \\\\\n")
        let markdown = "Intro.\n\n$$\\begin{aligned}\n" + rows + "\n\\end{aligned}$$\n\nAfter.\n"
        let (_, report) = try Render.markdown(markdown, name: "tall-formula")
        let warning = report.diagnostics.first {
            $0.kind == .overfull && $0.message.contains("taller than the text area")
        }
        #expect(warning?.location?.line == 3, "\(report.diagnostics)")
        let (_, short) = try Render.markdown(
            "$$\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}$$\n", name: "short-formula")
        #expect(!short.diagnostics.contains { $0.kind == .overfull }, "\(short.diagnostics)")
    }
}
