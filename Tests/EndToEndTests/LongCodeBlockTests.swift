import Foundation
import Styling
import TestSupport
import Testing
import Typesetter

/// A code block of more than ``CodeBlockRules/linesPerPart`` source lines is laid out a part at
/// a time. Read back from the PDF it is one block, as a short one is: every line in order with
/// its number, one size for all its lines when the widest is in the last part, the same line
/// step across the seams between parts, room for the cue atop each page it continues on; and
/// its peak memory does not grow with its length.
@Suite(.serialized) struct LongCodeBlockTests {
    /// 4,500 numbered lines (three parts), the one line wider than the measure in the last.
    @Test func aLongBlockIsSetInPartsAsOneBlock() throws {
        let count = 2 * CodeBlockRules.linesPerPart + 500
        let wideIndex = count - 1
        var lines = (1...count).map { "v\($0) = \($0 % 97)" }
        lines[wideIndex - 1] = "wide = " + (0..<14).map { "w\($0)xxxx" }.joined(separator: " + ")
        let markdown = "Before.\n\n```{.python .numberLines}\n" + lines.joined(separator: "\n") + "\n```\n\nAfter.\n"
        let (pdf, _) = try Render.markdown(markdown, name: "long-code-parts")
        let words = try PDFProbe.words(pdf)
        // The line numbers read as nothing in poppler's words (an empty `/ActualText`); pypdf
        // reads each glyph's own text, a line's number at its end.
        let python = try #require(PDFValidationTests.checker(), "the PDF checker (make pdf-check)")
        let pypdfLines = Set(
            try PDFProbe.run(
                python, [Render.packageRoot + "/Tests/Scripts/pdf-check.py", "text", pdf],
                standardErrorToo: false
            ).output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var firstWord: [String: PDFWord] = [:]
        for word in words where firstWord[word.text] == nil { firstWord[word.text] = word }
        // The words of each printed line, by page and baseline.
        let rows = Dictionary(grouping: words) { "\($0.page) \(Int(($0.yMax * 4).rounded()))" }
        func row(of word: PDFWord) -> [PDFWord] { rows["\(word.page) \(Int((word.yMax * 4).rounded()))"] ?? [] }
        var previous: PDFWord?
        var missing: [Int] = []
        var unnumbered: [Int] = []
        var disordered: [Int] = []
        for index in 1...count where index != wideIndex {
            guard let word = firstWord["v\(index)"] else {
                missing.append(index)
                continue
            }
            let code = lines[index - 1]
            if !pypdfLines.contains(code + String(index)) && !pypdfLines.contains(code + " " + String(index)) {
                unnumbered.append(index)
            }
            if let previous, (previous.page, previous.yMin) >= (word.page, word.yMin) { disordered.append(index) }
            previous = word
        }
        #expect(missing.isEmpty, "lines missing: \(missing.prefix(5))")
        #expect(unnumbered.isEmpty, "lines without their number: \(unnumbered.prefix(5))")
        #expect(disordered.isEmpty, "lines out of order: \(disordered.prefix(5))")
        #expect(
            pypdfLines.contains { $0.hasPrefix("wide =") && $0.hasSuffix(String(wideIndex)) }, "the wide line's number")
        // One size: the first part's lines are set as small as the last part's wide line needs.
        let first = try #require(firstWord["v1"])
        let last = try #require(firstWord["v\(count)"])
        #expect(abs(first.height - last.height) < 0.01, "\(first) \(last)")
        #expect(first.height / 1.164 < 9.5 * 0.75, "set smaller for the wide line: \(first.height / 1.164) pt")
        // The seams: where two parts meet on a page, the step is the step beside it.
        var seamsOnOnePage = 0
        for seam in [CodeBlockRules.linesPerPart, 2 * CodeBlockRules.linesPerPart] {
            let lines = try (seam - 1...seam + 1).map { try #require(firstWord["v\($0)"]) }
            guard Set(lines.map(\.page)).count == 1 else { continue }
            seamsOnOnePage += 1
            let before = lines[1].yMax - lines[0].yMax
            let across = lines[2].yMax - lines[1].yMax
            #expect(abs(before - across) < 0.01, "step \(before) before the seam after line \(seam), \(across) across")
        }
        #expect(seamsOnOnePage > 0)
        // Room for the cue (drawn, not text) above the first line of every page the block
        // continues on.
        let top = Typesetter.fittedPage(of: .default).margins.top
        let codeWords = words.filter { $0.text.hasPrefix("v") && $0.text.dropFirst().allSatisfy(\.isNumber) }
        let pageTops = Dictionary(grouping: codeWords, by: \.page).mapValues { $0.map(\.yMin).min()! }
        #expect(pageTops.count > 2)
        for (page, yMin) in pageTops where page > pageTops.keys.min()! {
            #expect(yMin > top + 12, "room for the cue above page \(page)'s first line: \(yMin)")
        }
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// Peak memory (the process's own, `/usr/bin/time`) of a block of 5,000 lines and of
    /// 40,000, in the same run: eight times the lines, at most half as much memory again (laid
    /// out whole, 137 MiB against 45).
    @Test(.slow) func peakMemoryDoesNotGrowWithTheBlocksLength() throws {
        func mebibytes(lines: Int) throws -> Double {
            let body = (0..<lines).map { "let line\($0) = \($0)" }.joined(separator: "\n")
            return try Render.peak("Text.\n\n```\n\(body)\n```\n", name: "long-code-\(lines)", tagged: true).mebibytes
        }
        let short = try mebibytes(lines: 5_000)
        let long = try mebibytes(lines: 40_000)
        #expect(long / short <= 1.5, "\(short) MiB for 5,000 lines, \(long) MiB for 40,000")
    }
}
