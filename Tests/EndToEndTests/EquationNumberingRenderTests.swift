import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// amsmath's equation numbers through the whole pipeline, read back from the PDF: numbered
/// environments take numbers in document order, each row of an `align` its own on its row's
/// baseline at the measure's right edge (found in the page's ink), starred environments and
/// `\notag` rows none, and `\eqref`/`\ref` print them before and after the equations.
@Suite(.serialized) struct EquationNumberingRenderTests {
    /// A band of rows of ink on page 1 between two x positions: its top and bottom, pt from the
    /// page's top, and the right end of its ink, pt from the page's left.
    struct Band: CustomStringConvertible {
        var top, bottom, right: Double
        var middle: Double { (top + bottom) / 2 }
        var description: String { "[\(top)…\(bottom), right \(right)]" }
    }

    /// The bands of ink of page 1 of `pdf` between `from` and `to` pt from the page's left,
    /// rendered at 288 dpi.
    static func bands(_ pdf: String, from: Double, to: Double) throws -> [Band] {
        let scale = 288.0 / 72
        let x = Int(from * scale)
        let image = try PDFProbe.greyImage(
            pdf, page: 1, dpi: 288, crop: ["-x", "\(x)", "-W", "\(Int((to - from) * scale))"])
        var bands: [Band] = []
        var current: (top: Int, right: Int)?
        for y in 0...image.height {
            let inked = y < image.height ? (0..<image.width).last { image.samples[y * image.width + $0] < 128 } : nil
            if let inked {
                current = (current?.top ?? y, max(current?.right ?? 0, inked))
            } else if let band = current {
                bands.append(
                    Band(
                        top: Double(band.top) / scale, bottom: Double(y) / scale,
                        right: Double(x + band.right + 1) / scale))
                current = nil
            }
        }
        return bands
    }

    /// Whether the ink of a label ends at `edge`: within the right side bearing of its `)`
    /// (under 2 pt at the text's size) before it, never past it.
    static func endsAtTheEdge(_ label: Band, _ edge: Double) -> Bool {
        label.right > edge - 2 && label.right < edge + 0.3
    }

    /// The left edge of the text and the measure's width, pt.
    static func measure(_ pdf: String, leftOf word: String) throws -> (left: Double, width: Double) {
        let left = try #require(try PDFProbe.words(pdf).first { $0.text == word }).xMin
        return (left, Typesetter.fittedPage(of: .default).measure)
    }

    /// Each numbered row's label ends at the measure's right edge on its row's baseline; the
    /// `\notag` row has none; the formula stays centred.
    @Test func eachRowsLabelStandsOnItsRowAtTheMeasuresEdge() throws {
        let markdown = """
            Rows:

            \\begin{align}
            a &= b \\\\
            c &= d \\notag \\\\
            e &= f \\tag{T} \\\\
            g &= h
            \\end{align}

            """
        let (pdf, report) = try Render.markdown(markdown, name: "equation-rows")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let (left, width) = try Self.measure(pdf, leftOf: "Rows:")
        // The rows, above the page number centred in the foot.
        let rows = try Self.bands(pdf, from: left + width / 2 - 40, to: left + width / 2 + 40).filter { $0.top < 700 }
        let labels = try Self.bands(pdf, from: left + width - 8, to: left + width + 8)
        try #require(rows.count == 4, "\(rows)")
        try #require(labels.count == 3, "\(labels)")
        for (label, row) in zip(labels, [rows[0], rows[2], rows[3]]) {
            #expect(abs(label.middle - row.middle) < 2.5, "label \(label) on row \(row)")
            #expect(Self.endsAtTheEdge(label, left + width), "label \(label) ends at the measure's edge")
        }
    }

    /// A row too wide to have its label beside it has the label on a line under it, flush
    /// right, and the row after it moves down to make room; the other rows keep theirs beside
    /// them (amsmath's placement of a tag with no room).
    @Test func aRowTooWideForItsLabelHasItUnderTheRow() throws {
        let terms = (1...10).map { "a_{\($0)}" }.joined(separator: " + ")
        let markdown = """
            Text before.

            \\begin{align}
            x &= 1 \\\\
            y &= \(terms) \\hspace{20pt} \\\\
            z &= 2
            \\end{align}

            """
        let (pdf, report) = try Render.markdown(markdown, name: "equation-row-label-below")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let (left, width) = try Self.measure(pdf, leftOf: "Text")
        let text = try #require(try PDFProbe.words(pdf).first { $0.text == "Text" })
        let rows = try Self.bands(pdf, from: left + 5, to: left + 60).filter { $0.top > text.yMax }
        let labels = try Self.bands(pdf, from: left + width - 8, to: left + width + 8)
        try #require(rows.count == 3, "\(rows)")
        try #require(labels.count == 3, "\(labels)")
        #expect(abs(labels[0].middle - rows[0].middle) < 2.5, "(1) on its row: \(labels[0]) \(rows[0])")
        #expect(labels[1].top > rows[1].bottom && labels[1].bottom < rows[2].top, "(2) under its row: \(labels[1])")
        #expect(abs(labels[2].middle - rows[2].middle) < 2.5, "(3) on its row: \(labels[2]) \(rows[2])")
        for label in labels { #expect(Self.endsAtTheEdge(label, left + width), "\(label) ends at the measure's edge") }
    }

    /// A numbered display too wide for the measure — an `equation` as a `$$…$$` with a
    /// `\tag` — is broken after its operators at the text's size, with no warning, and its
    /// label stands on its last line at the measure's right edge: not set smaller with the
    /// label wrapped to a line of its own in the middle of the measure.
    @Test func aNumberedDisplayTooWideIsBrokenWithItsLabelAtTheEdge() throws {
        let terms = (1...21).map { "b_{\($0)}" }.joined(separator: " + ")
        let slightly = (1...13).map { "a_{\($0)}" }.joined(separator: " + ")
        for (name, display) in [
            ("equation-broken", "\\begin{equation}\n\(terms)\n\\end{equation}"),
            ("tagged-broken", "$$\(slightly) \\tag{W}$$"),
        ] {
            let (pdf, report) = try Render.markdown("Text before.\n\n\(display)\n\nAfter.\n", name: name)
            #expect(report.diagnostics.isEmpty, "\(name): \(report.diagnostics)")
            let (left, width) = try Self.measure(pdf, leftOf: "Text")
            let words = try PDFProbe.words(pdf)
            let label = try #require(words.first { $0.text == "(1)" || $0.text == "(W)" }, "\(name): \(words)")
            #expect(abs(label.xMax - (left + width)) < 1, "\(name): \(label) at the edge \(left + width)")
            // Broken: the rows of ink between the text before and after are two or more.
            let before = try #require(words.first { $0.text == "Text" })
            let after = try #require(words.first { $0.text == "After." })
            let rows = try Self.bands(pdf, from: left + width / 2 - 40, to: left + width / 2 + 40).filter {
                $0.top > before.yMax && $0.bottom < after.yMin
            }
            #expect(rows.count >= 2, "\(name): \(rows)")
            #expect(label.yMin > (rows.dropLast().last?.bottom ?? 0), "\(name): the label on the last line")
        }
    }

    /// A formula numbered by row and set smaller to fit keeps its labels at the text's size; a
    /// label moved under its row leaves room for the next row's label, also when that row is
    /// shorter than the label: the two never touch.
    @Test func labelsOfAFormulaSetSmallerDoNotTouch() throws {
        let terms = (1...18).map { "b_{\($0)}" }.joined(separator: " + ")
        let markdown = "Text.\n\n\\begin{gather}\n\(terms) \\\\\nd = 1\n\\end{gather}\n\nAfter.\n"
        let (pdf, _) = try Render.markdown(markdown, name: "equation-labels-smaller")
        let (left, width) = try Self.measure(pdf, leftOf: "Text.")
        let labels = try Self.bands(pdf, from: left + width - 14, to: left + width + 2).filter { $0.top < 700 }
        let rows = try Self.bands(pdf, from: left + width / 2 - 20, to: left + width / 2 + 20).filter { $0.top < 700 }
        // The text before and after, and the formula's rows, are bands of the middle; the labels
        // (1) and (2) two bands at the edge, apart.
        let inFormula = labels.filter { band in band.top > (rows.first?.bottom ?? 0) }
        try #require(inFormula.count >= 2, "\(labels)")
        #expect(inFormula[1].top - inFormula[0].bottom > 1, "\(inFormula)")
    }

    /// Numbers run through the document in order, `\tag` and `\notag` rows taking none,
    /// starred environments and plain displays none; references before and after print them;
    /// the rows' labels copy with their formula, after its source.
    /// A reference is read wherever running text is: in the front matter's values (the title
    /// block is set after the survey has read every label, so the body's numbers answer it),
    /// and in a text with no other math syntax (no `$`, no `\begin{`), which was printed as
    /// written. An unlabelled one is `??` with a warning at its place.
    @Test func referencesAreAnsweredInTheFrontMatterAndInTextWithoutFormulas() throws {
        let markdown = """
            ---
            title: On \\ref{eq:two}
            abstract: See \\eqref{eq:one}, and \\eqref{eq:two} with $y$.
            subtitle: After \\eqref{eq:one}
            ---

            \\begin{equation}
            x = 1 \\label{eq:one}
            \\end{equation}

            \\begin{equation}
            y = 2 \\label{eq:two}
            \\end{equation}
            """
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-references")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("On 2 After (1)"), "\(text)")
        #expect(text.contains("See (1), and (2) with y."), "\(text)")
        #expect(!text.contains("??"), "\(text)")

        let bare = try Render.markdown("Cited as \\eqref{eq:none} and \\ref{eq:other}.\n", name: "reference-alone")
        let bareText = try PDFProbe.text(bare.pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(bareText.contains("Cited as (??) and ??."), "\(bareText)")
        let places = bare.report.diagnostics.compactMap { $0.location.map { "\($0.line):\($0.column)" } }
        #expect(places == ["1:10", "1:30"], "\(bare.report.diagnostics)")
    }

    @Test func numbersRunInDocumentOrderAndReferencesPrintThem() throws {
        let markdown = """
            See \\eqref{eq:last} and \\ref{eq:first} first.

            \\begin{equation}
            E = mc^2 \\label{eq:first}
            \\end{equation}

            \\begin{align}
            a &= b \\label{eq:a} \\\\
            c &= d \\notag \\\\
            e &= f \\tag{T} \\label{eq:t} \\\\
            g &= h \\label{eq:last}
            \\end{align}

            $$\\begin{align*} x &= y \\\\ u &= v \\end{align*}$$

            $$x = y$$

            \\begin{gather}
            p \\\\ q \\label{eq:q}
            \\end{gather}

            Then \\eqref{eq:a}, \\eqref{eq:t}, \\ref{eq:q} and $\\eqref{eq:last}$.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "equation-numbers")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("See (3) and 1 first."), "\(text)")
        #expect(text.contains("Then (2), (T), 5 and (3)."), "\(text)")
        #expect(text.contains(#"\end{align} (2) (T) (3)"#), "\(text)")
        #expect(text.contains(#"\end{gather} (4) (5)"#), "\(text)")
        #expect(!text.contains("(6)"), "\(text)")
        let words = try PDFProbe.words(pdf)
        let (left, width) = try Self.measure(pdf, leftOf: "See")
        let number = try #require(words.first { $0.text == "(1)" }, "\(words.map(\.text))")
        #expect(abs(number.xMax - (left + width)) < 0.5, "(1) ends at \(number.xMax)")
        let alts = try MathDocumentTests.formulaAlts(pdf)
        #expect(alts.contains { $0.hasSuffix(#"\end{align} (2) (T) (3)"#) }, "\(alts)")
        #expect(alts.contains { $0.hasSuffix(#"\end{align*}"#) }, "\(alts)")
    }
}
