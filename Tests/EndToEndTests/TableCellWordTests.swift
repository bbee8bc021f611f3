import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter

/// Words in table cells, read back from the PDF: a column is at least as wide as the widest
/// piece of its cells that the composer will not break (CSS Tables 3 min-content width), so
/// while the table fits the measure no cell word is broken between letters; where it cannot
/// fit, a word is broken after its own hyphen first (no warning), then at hyphenation points,
/// then between letters, and each such word is warned about with its cell's measure, at its
/// place in the source.
@Suite(.serialized) struct TableCellWordTests {
    /// The words on the page, its footer's page number included, and the overfull warnings.
    static func render(_ markdown: String, name: String) throws -> (words: [PDFProbe.Word], warnings: [Diagnostic]) {
        let (pdf, report) = try Render.markdown(markdown, name: name)
        let words = try PDFProbe.words(pdf)
        return (words, report.diagnostics.filter { $0.kind == .overfull })
    }

    /// The table of texlive's emojicite README: its Emoji column's words were broken between
    /// letters (`raised-eyebr` | `ow`), one of them with a warning that named the page's measure.
    static let emojicite = """
        | Citation | Emoji | Description |
        |---|:---:|:---|
        | (Tishby and Zaslavsky, 2015) | raised-eyebrow | I have some serious questions about this work. |
        | (Kim et al., 2017) | graduation-cap | I know this work well and here is more text. |
        """

    /// Tables that fit the measure when each column keeps its widest unbreakable piece: every
    /// listed word whole on one line, inside its column (right of the first column's words),
    /// and no overfull warning.
    @Test(arguments: [
        (emojicite, ["raised-eyebrow", "graduation-cap"]),
        (
            "| Term | Kind | Note |\n|---|---|---|\n| state-of-the-art | well-known | "
                + "Several words of prose that wrap over a few lines of the widest column here. |",
            ["state-of-the-art", "well-known"]
        ),
        (
            "| Name | Address | Note |\n|---|---|---|\n| docs | https://example.org/docs/install.html | "
                + "Several words of prose that wrap over a few lines of the widest column here. |",
            ["https://example.org/docs/install.html"]
        ),
        (
            "| Key | Identifier | Note |\n|---|---|---|\n| a | `kCFStreamPropertyShouldClose` | "
                + "Several words of prose that wrap over a few lines of the widest column here. |",
            ["kCFStreamPropertyShouldClose"]
        ),
        (
            "| 項目 | Emoji | 説明 |\n|---|:---:|---|\n| 東京都千代田区 | graduation-cap | "
                + "日本語の説明文はどこでも改行できるので、この列は狭くなっても構いません。 |",
            ["graduation-cap"]
        ),
    ])
    func cellWordsStayWholeWhenTheTableFits(markdown: String, whole: [String]) throws {
        let (words, warnings) = try Self.render(markdown, name: "cell-words-whole")
        for word in whole {
            #expect(words.contains { $0.text == word }, "'\(word)' whole in \(words.map(\.text))")
        }
        #expect(warnings.isEmpty, "\(warnings.map(\.description))")
    }

    /// On a page 40 mm wide a table of two columns cannot fit even set smaller (and is never
    /// split): `raised-eyebrow` is broken after its hyphen, with no warning; a word with no
    /// hyphen is hyphenated (not broken at an arbitrary letter), and its warning names the
    /// cell's measure (not the page's), quotes it and stands where it is written.
    @Test func narrowPageBreaksAtTheHyphenFirstAndWarnsWithTheCellsMeasure() throws {
        let markdown = """
            ---
            paper: 40mm x 120mm
            margins: 5mm
            ---

            | Emoji | Note |
            |:---:|:---|
            | raised-eyebrow | incomprehensibilities |
            """
        let (words, warnings) = try Self.render(markdown, name: "cell-words-narrow")
        let texts = words.map(\.text)
        #expect(texts.contains("raised-") && texts.contains("eyebrow"), "broken after its hyphen: \(texts)")
        #expect(!warnings.contains { $0.message.contains("raised") }, "\(warnings.map(\.description))")
        let warning = try #require(
            warnings.first { $0.message.contains("'incomprehensibilities'") }, "\(warnings.map(\.description))")
        #expect(warning.message.contains("is hyphenated"), "\(warning.message)")
        // The page's measure is 40 − 10 mm (85 pt); the cell's is about half of it.
        #expect(warning.message.contains("wider than its table cell (44 pt)"), "\(warning.message)")
        #expect(warnings.count == 1, "\(warnings.map(\.description))")
        #expect(warning.location?.line == 8 && warning.location?.column == 20, "\(warning.description)")
        // Hyphenated at hyphenation points: each piece but the last ends in an added hyphen.
        let pieces = words.filter { $0.xMin > 50 && $0.yMax < 300 && $0.text != "Note" }
        #expect(pieces.map { $0.text.filter(\.isLetter) }.joined() == "incomprehensibilities", "\(texts)")
        #expect(pieces.count >= 2 && pieces.dropLast().allSatisfy { $0.endsInHyphen }, "\(pieces)")
    }

    /// Every word broken inside is warned about, each at its own place: two words in one table.
    @Test func everyBrokenWordIsWarnedAbout() throws {
        let markdown = """
            ---
            paper: 50mm x 120mm
            margins: 5mm
            ---

            | A | B |
            |---|---|
            | `kCFStreamPropertyShouldCloseNativeSocket` | x |
            | `NSURLSessionTaskPriorityDefaultValue` | y |
            """
        let (_, warnings) = try Self.render(markdown, name: "cell-words-two")
        // Warnings that say the same thing are said once, with the count and each other place.
        let warning = try #require(warnings.first, "\(warnings.map(\.description))")
        #expect(warnings.count == 1, "\(warnings.map(\.description))")
        #expect(
            warning.message.hasPrefix(
                "a word is wider than its table cell (99 pt): 'kCFStreamPropertyShouldCloseNativeSocket' is broken "
                    + "between its parts"), "\(warning.message)")
        #expect(warning.message.contains("also at 9:4 'NSURLSessionTaskPriorityDefaultValue'"), "\(warning.message)")
        #expect(warning.location?.line == 8 && warning.location?.column == 4, "\(warning.description)")
    }
}
