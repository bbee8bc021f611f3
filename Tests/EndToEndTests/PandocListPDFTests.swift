import Foundation
import TestSupport
import Testing
import Typesetter

/// Pandoc's lettered, Roman, `#` and example lists and lists counted in Hangul, read back from the
/// PDF: each item's marker printed in its numbering before its text, copied as the `Lbl` of
/// its item, and the list's `/ListNumbering` in the structure tree (PDF 1.7 §14.8.5.5).
@Suite struct PandocListPDFTests {
    @Test func everyNumberingIsPrintedAndTagged() throws {
        let markdown = """
            Lead paragraph.

            #. auto one
            #. auto two

            c) gamma
            d) delta

            (iv) four
            (v) five

            I.  capital one
            II.  capital two

            가. 첫째 항목
            나. 둘째 항목

            1. outer
               a. inner
               b. inner two

            <ol type="A" start="25"><li>html y</li><li>html z</li><li>html aa</li></ol>

            (@) an example

            (@ex) a labelled example

            As (@ex) shows.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "pandoc-lists")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let text = try PDFProbe.run("pdftotext", ["-layout", pdf, "-"]).output
        for line in [
            "1. auto one", "2. auto two", "c) gamma", "d) delta", "(iv) four", "(v) five", "I. capital one",
            "II. capital two", "가. 첫째 항목", "나. 둘째 항목", "a. inner", "b. inner two", "Y. html y", "Z. html z",
            "AA. html aa", "(1) an example", "(2) a labelled example", "As (2) shows.",
        ] {
            let words = line.split(separator: " ").map { NSRegularExpression.escapedPattern(for: String($0)) }
                .joined(separator: " +")
            #expect(text.range(of: words, options: .regularExpression) != nil, "\(line) in:\n\(text)")
        }
        let structure = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        for label in ["\"c)\"", "\"(iv)\"", "\"II.\"", "\"나.\"", "\"b.\"", "\"AA.\"", "\"(2)\""] {
            #expect(structure.contains(label), "Lbl \(label)")
        }
        let expanded = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"]).output
        let names = expanded.components(separatedBy: "/ListNumbering /").dropFirst().map {
            String($0.prefix { $0.isLetter })
        }
        // Figures three times (`#.`, `1.`, the examples, one list), letters twice, Roman, capital
        // Roman, capitals; Hangul has no name.
        let expected = [
            "Decimal", "Decimal", "Decimal", "LowerAlpha", "LowerAlpha", "LowerRoman", "UpperAlpha",
            "UpperRoman",
        ]
        #expect(names.sorted() == expected, "\(names)")
    }
}
