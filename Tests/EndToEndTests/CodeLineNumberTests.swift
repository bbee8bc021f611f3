import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Pandoc's `.numberLines` read back from the PDF: the numbers are seen beside their lines,
/// one a line of the source (a wrapped line's continuation gets none), right-aligned left of
/// the panel, continuing across a page break; they are artifacts whose text reads as nothing
/// (an empty `/ActualText`), so poppler's words and the structure tree hold the code alone.
/// Which number stands beside which line is read through pypdf, which reads the glyphs' own
/// text.
@Suite struct CodeLineNumberTests {
    /// The code's words, the structure tree's lines, pypdf's lines and each page rasterized.
    struct Reading {
        var words: [PDFWord]
        var structure: [String]
        var pypdfLines: [String]
        var pages: [Int: NetpbmImage] = [:]
        let pdf: String
        static let dpi = 150.0

        init(_ pdf: String) throws {
            self.pdf = pdf
            words = try PDFProbe.words(pdf)
            structure = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let python = try #require(PDFValidationTests.checker(), "the PDF checker (make pdf-check)")
            let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
            pypdfLines = try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }

        /// The horizontal extent, pt, of the ink left of `word`'s panel (more than 10 pt left of
        /// the word, where the panel's padding ends) within the word's line box; nil for none.
        mutating func gutterInk(beside word: PDFWord) throws -> ClosedRange<Double>? {
            if pages[word.page] == nil {
                let out = Render.folder + "/numbers-\(UUID().uuidString.prefix(6))"
                try PDFProbe.run(
                    "pdftoppm",
                    [
                        "-gray", "-r", "\(Int(Self.dpi))", "-f", "\(word.page)", "-l", "\(word.page)", "-singlefile",
                        pdf, out,
                    ])
                defer { try? FileManager.default.removeItem(atPath: out + ".pgm") }
                pages[word.page] = try #require(NetpbmImage(path: out + ".pgm"))
            }
            let image = pages[word.page]!
            let scale = Self.dpi / 72
            let rows = Int(word.yMin * scale)..<min(image.height, Int(word.yMax * scale))
            let columns = 0..<Int((word.xMin - 10) * scale)
            let inked = columns.filter { x in rows.contains { image.samples[$0 * image.width + x] < 128 } }
            guard let first = inked.first, let last = inked.last else { return nil }
            return Double(first) / scale...Double(last + 1) / scale
        }

        /// The first word `text` names.
        func word(_ text: String) throws -> PDFWord { try #require(words.first { $0.text == text }, "\(text)") }

        /// Whether pypdf reads `number` at the end of the line of code `code` (its text, white
        /// space around it aside), with or without a space between.
        func reads(_ number: Int, onLineOf code: String) -> Bool {
            pypdfLines.contains { $0 == code + "\(number)" || $0 == code + " \(number)" }
        }
    }

    /// `startFrom`, `.number-lines` and `start-from`: each source line has its number's ink
    /// beside it, right-aligned, a three-digit number wider than a two-digit one, the numbers
    /// counting from where the block asks; the wrapped line's continuation has none; no number
    /// is among poppler's words or in the structure tree, which holds the code exactly.
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
        // Where the lines are drawn is read off the untagged PDF, whose poppler words are the
        // glyphs where they stand: tagged, an indented or wrapped line's text is its replacement
        // text (it copies as written), one word over its first drawn line.
        var options = RenderOptions()
        options.tagged = false
        var reading = try Reading(Render.markdown(markdown, name: "code-line-numbers-untagged", options: options).0)
        let tagged = try Reading(pdf)
        for code in ["def", "alpha", "return", "fn", "let", "gamma(beta);", "}"] {
            #expect(try reading.gutterInk(beside: reading.word(code)) != nil, "\(code) has its number")
        }
        let numbered = [
            ("def first(name):", 10), ("return alpha", 13), ("fn main() {", 98), ("let beta = 1;", 99),
            ("gamma(beta);", 100),
        ]
        for (code, number) in numbered {
            #expect(reading.reads(number, onLineOf: code), "\(code) should have \(number): \(reading.pypdfLines)")
        }
        // Right-aligned: 98 and 100 end at one x; 100 reaches further left.
        let ninetyEight = try #require(try reading.gutterInk(beside: reading.word("fn")))
        let hundred = try #require(try reading.gutterInk(beside: reading.word("gamma(beta);")))
        #expect(abs(ninetyEight.upperBound - hundred.upperBound) < 1.5, "\(ninetyEight) \(hundred)")
        #expect(hundred.lowerBound < ninetyEight.lowerBound - 2, "\(ninetyEight) \(hundred)")
        // The wrapped line's continuation (between `alpha` and `return`) has no number.
        let alpha = try reading.word("alpha")
        let returnWord = try reading.word("return")
        let continuation = reading.words.filter {
            $0.yMin > alpha.yMax && $0.yMax < returnWord.yMin && $0.text.hasPrefix("word")
        }
        #expect(!continuation.isEmpty, "the long line wraps")
        let starts = Dictionary(grouping: continuation, by: { ($0.yMin * 10).rounded() }).values.compactMap {
            $0.min { $0.xMin < $1.xMin }
        }
        for word in starts { #expect(try reading.gutterInk(beside: word) == nil, "\(word) has a number") }
        // No number is read: not among poppler's words, not in the structure tree.
        let numbers = ["10", "11", "12", "13", "98", "99", "100", "101"]
        #expect(!tagged.words.contains { numbers.contains($0.text.trimmingCharacters(in: .whitespaces)) })
        let structureText = tagged.structure.joined(separator: "\n")
        for number in ["10", "11", "13", "98", "99", "100", "101"] {
            #expect(!tagged.structure.contains { $0.hasPrefix("\"\(number)") }, "\(number) is in the structure")
        }
        #expect(structureText.contains("\"fn main() {"))
        #expect(structureText.contains("\"    let beta = 1;"))
        // The numbers in the secondary colour; the code keeps its token colours.
        let stretches = try PDFColoredText.read(pdf)
        let secondary = try #require(Theme.default.color(named: "secondary"))
        let operands = [secondary.red, secondary.green, secondary.blue].map { String(format: "%g", $0) }
        let streams = try PDFProbe.contentStreams(pdf)
        #expect(streams.contains("/ActualText <feff>") && streams.contains(operands.joined(separator: " ") + " rg"))
        let keyword = try #require(CodeStyle.light.style(for: .keyword)).color.hex.lowercased()
        #expect(stretches.contains { $0.text.contains("fn") && $0.color == keyword })
    }

    /// A block long enough to break across pages: every line of the block, on either page, has
    /// its number beside it, counting on across the break, and none is among poppler's words.
    @Test func numbersContinueAcrossAPageBreak() throws {
        let lines = (1...90).map { "value\($0) = \($0 * 7)" }
        let markdown = "```{.python .numberLines}\n" + lines.joined(separator: "\n") + "\n```\n"
        let (pdf, _) = try Render.markdown(markdown, name: "code-line-numbers-pages")
        var reading = try Reading(pdf)
        #expect(Set(reading.words.map(\.page)).count > 1, "the block breaks across pages")
        for index in 1...90 {
            #expect(try reading.gutterInk(beside: reading.word("value\(index)")) != nil, "line \(index)")
            #expect(reading.reads(index, onLineOf: "value\(index) = \(index * 7)"), "line \(index)")
        }
        let pages = reading.words.filter { $0.text.hasPrefix("value") }.map(\.page)
        #expect(pages.first != pages.last)
        // No number left of the code is read as a word (the page numbers stand below it).
        let codeLeft = reading.words.filter { $0.text.hasPrefix("value") }.map(\.xMin).min() ?? 0
        #expect(!reading.words.contains { $0.text.allSatisfy(\.isNumber) && $0.xMax < codeLeft })
        #expect(!reading.structure.contains { $0.hasPrefix("\"1 ") || $0.hasPrefix("\"90") })
    }
}
