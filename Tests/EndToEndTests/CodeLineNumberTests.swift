import Foundation
import TestSupport
import Testing
import Typography

/// Pandoc's `.numberLines` read back from the PDF: the numbers stand beside their lines
/// (pdftotext's word boxes), left of the code, one a line of the source (a wrapped line's
/// continuation gets none), continuing across a page break; they are artifacts, so the
/// structure tree's text is the code alone.
@Suite struct CodeLineNumberTests {
    /// The code's words and the numbers' words of one rendered document.
    struct Reading {
        var words: [PDFWord]
        var structure: [String]
        var stretches: [PDFColoredText]

        init(_ pdf: String) throws {
            words = try PDFProbe.words(pdf)
            structure = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            stretches = try PDFColoredText.read(pdf)
        }

        /// The word `text` on the same baseline as (and left of) the first word `code`
        /// names, on `page`; nil when there is none.
        func number(beside code: String, page: Int? = nil) -> PDFWord? {
            guard let word = words.first(where: { $0.text == code && (page == nil || $0.page == page) }) else {
                return nil
            }
            return words.first {
                $0.page == word.page && abs($0.yMax - word.yMax) < 0.5 && $0.xMax < word.xMin
                    && $0.text.allSatisfy(\.isNumber)
            }
        }
    }

    /// `startFrom`, `.number-lines` and `start-from`: each source line's number stands on its
    /// baseline, right-aligned left of the code, in the theme's secondary colour; the wrapped
    /// line's continuation has none; the structure text holds the code exactly, no number.
    @Test func numbersStandBesideTheirLinesAndAreNoPartOfTheText() throws {
        let longTail = (1...30).map { "word\($0)" }.joined(separator: " ")
        let markdown = """
            ```{.python .numberLines startFrom="10"}
            def first(name):
                alpha = "\(longTail)"

                return alpha
            ```

            Between.

            ```{.rust .number-lines start-from=98}
            fn main() {
                let beta = 1;
                gamma(beta);
            }
            ```

            """
        let (pdf, report) = try Render.markdown(markdown, name: "code-line-numbers")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let reading = try Reading(pdf)
        let expected: [(String, String)] = [
            ("def", "10"), ("alpha", "11"), ("return", "13"), ("fn", "98"), ("let", "99"), ("gamma(beta);", "100"),
            ("}", "101"),
        ]
        for (code, number) in expected {
            #expect(reading.number(beside: code)?.text == number, "\(code) should have \(number)")
        }
        // Right-aligned: 98 and 100 end at one x.
        let ninetyEight = try #require(reading.number(beside: "fn"))
        let hundred = try #require(reading.number(beside: "gamma(beta);"))
        #expect(abs(ninetyEight.xMax - hundred.xMax) < 0.1)
        #expect(hundred.width > ninetyEight.width)
        // The wrapped line's continuation (between `alpha` and `return`, set apart by the
        // empty line 12) has no number; 12 stands alone, on the empty line.
        let alpha = try #require(reading.words.first { $0.text == "alpha" })
        let returnWord = try #require(reading.words.first { $0.text == "return" })
        let continuation = reading.words.filter {
            $0.yMin > alpha.yMax && $0.yMax < returnWord.yMin && $0.text.hasPrefix("word")
        }
        #expect(!continuation.isEmpty, "the long line wraps")
        for word in continuation { #expect(reading.number(beside: word.text) == nil, "\(word) has a number") }
        let twelve = try #require(reading.words.first { $0.text == "12" })
        #expect(continuation.allSatisfy { $0.yMax < twelve.yMin } && twelve.yMax < returnWord.yMin)
        // Artifacts: the structure tree's text is the code alone.
        let structureText = reading.structure.joined(separator: "\n")
        for number in ["10", "11", "13", "98", "99", "100", "101"] {
            #expect(!reading.structure.contains { $0.hasPrefix("\"\(number)") }, "\(number) is in the structure")
        }
        #expect(structureText.contains("\"fn main() {"))
        #expect(structureText.contains("\"    let beta = 1;\""))
        // The numbers in the secondary colour; the code keeps its token colours.
        let secondary = (Theme.default.color(named: "secondary") ?? Theme.default.textColor).hex.lowercased()
        #expect(reading.stretches.contains { $0.text == "101" && $0.color == secondary })
        let keyword = try #require(CodeStyle.light.style(for: .keyword)).color.hex.lowercased()
        #expect(reading.stretches.contains { $0.text.contains("fn") && $0.color == keyword })
    }

    /// A block long enough to break across pages: the numbers on the second page continue
    /// from the first's, and every line of the block has its number.
    @Test func numbersContinueAcrossAPageBreak() throws {
        let lines = (1...90).map { "value\($0) = \($0 * 7)" }
        let markdown = "```{.python .numberLines}\n" + lines.joined(separator: "\n") + "\n```\n"
        let (pdf, _) = try Render.markdown(markdown, name: "code-line-numbers-pages")
        let reading = try Reading(pdf)
        #expect(Set(reading.words.map(\.page)).count > 1, "the block breaks across pages")
        for index in 1...90 {
            #expect(reading.number(beside: "value\(index)")?.text == String(index), "line \(index)")
        }
        let pages = reading.words.filter { $0.text.hasPrefix("value") }.map(\.page)
        #expect(pages.first != pages.last)
        #expect(!reading.structure.contains { $0.hasPrefix("\"1 ") || $0.hasPrefix("\"90") })
    }
}
