import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Tables too wide for the measure stay readable, read back from the PDF: set smaller down to
/// the theme's Caption2 size, then split into parts of columns that each repeat the first
/// column, with one warning at the table saying what was done. No two words' boxes overlap,
/// every cell's words are on the pages in row order, and nothing crosses the margins.
@Suite(.serialized) struct WideTableTests {
    /// The default theme's text area on A4: its measure follows its Body face.
    static let page = Typesetter.fittedPage(of: .default)
    static let left = page.margins.left, right = page.paper.width - page.margins.right

    /// A table of `columns` columns and `rows` body rows whose every cell is a word of its own
    /// (`cell(row, column)`), the header row numbered 0.
    static func table(columns: Int, rows: Int, cell: (Int, Int) -> String) -> String {
        var lines = ["before the table", ""]
        for row in 0...rows {
            lines.append("| " + (0..<columns).map { cell(row, $0) }.joined(separator: " | ") + " |")
            if row == 0 { lines.append("|" + String(repeating: "---|", count: columns)) }
        }
        return lines.joined(separator: "\n") + "\n\nafter the table\n"
    }

    /// Renders `markdown`; the words on its pages (running heads and feet excluded), its
    /// warnings that name a table, and its path.
    static func render(_ markdown: String, name: String)
        throws -> (words: [PDFProbe.Word], warnings: [String], pdf: String)
    {
        let (pdf, report) = try Render.markdown(markdown, name: name, options: RenderOptions())
        let words = try PDFProbe.words(pdf).filter { $0.yMax < 780 && $0.yMin > 60 }
        let warnings = report.diagnostics.filter { $0.message.contains("table") }.map(\.description)
        return (words, warnings, pdf)
    }

    /// No two words' boxes on a page overlap (beyond a hair of rounding).
    static func overlaps(_ words: [PDFProbe.Word]) -> [(PDFProbe.Word, PDFProbe.Word)] {
        var found: [(PDFProbe.Word, PDFProbe.Word)] = []
        let pages = Dictionary(grouping: words, by: \.page)
        for page in pages.values {
            let sorted = page.sorted { $0.xMin < $1.xMin }
            for (i, a) in sorted.enumerated() {
                for b in sorted[(i + 1)...] {
                    if b.xMin >= a.xMax - 0.2 { break }
                    if min(a.yMax, b.yMax) - max(a.yMin, b.yMin) > 0.2 { found.append((a, b)) }
                }
            }
        }
        return found
    }

    /// Whether the words `cells` (one row's cells, in column order) are each on the pages and
    /// read in order: each cell to the right of the one before on its line, or on a later line
    /// (the next part of a split table). A word drawn more than once (the first column, on
    /// every part) counts where it is first drawn.
    static func inReadingOrder(_ cells: [String], in words: [PDFProbe.Word]) -> Bool {
        var previous: PDFProbe.Word?
        for cell in cells {
            guard let word = words.first(where: { $0.text == cell }) else { return false }
            if let before = previous {
                let sameLine = before.page == word.page && abs(before.yMin - word.yMin) < 1
                let later = word.page > before.page || (word.page == before.page && word.yMin > before.yMax)
                guard (sameLine && word.xMin > before.xMax) || later else { return false }
            }
            previous = word
        }
        return true
    }

    @Test(arguments: [8, 30, 200])
    func shortWordsInManyColumnsStayLegible(columns: Int) throws {
        let rows = 6
        let markdown = Self.table(columns: columns, rows: rows) { row, column in "r\(row)c\(column)" }
        let (words, warnings, pdf) = try Self.render(markdown, name: "wide-table-\(columns)")
        let overlapping = Self.overlaps(words)
        #expect(overlapping.isEmpty, "\(overlapping.count) overlaps, e.g. \(overlapping.prefix(3))")
        for word in words { #expect(word.xMin >= Self.left - 0.5 && word.xMax <= Self.right + 0.5, "\(word)") }
        let texts = words.map(\.text)
        for row in 0...rows {
            let cells = (0..<columns).map { "r\(row)c\($0)" }
            #expect(Self.inReadingOrder(cells, in: words), "row \(row)'s cells in order")
        }
        #expect(texts.contains("before") && texts.contains("after"))
        // Every glyph is at least the floor (the default theme's Caption2, 8 pt): a word of
        // five characters is at least about 2 em wide at 8 pt.
        let cellWords = words.filter { $0.text.hasPrefix("r") && $0.text.contains("c") }
        #expect(cellWords.allSatisfy { $0.height >= 8 }, "heights \(Set(cellWords.map { Int($0.height) }))")
        if columns == 8 {
            #expect(warnings.isEmpty, "8 short columns fit as styled: \(warnings)")
        } else {
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.contains("wide-table-\(columns).md:3:1:") == true, "at the table: \(warnings)")
            #expect(warnings.first?.contains("too wide") == true)
        }
        if columns == 200 {
            #expect(warnings.first?.contains("split into") == true, "\(warnings)")
            // Each part repeats the first column and says which columns it holds.
            let parts = texts.filter { $0 == "Continued:" }.count + 1
            #expect(parts > 2)
            #expect(texts.filter { $0 == "r3c0" }.count == parts, "the stub on every part")
            #expect(try PDFProbe.text(pdf).contains("of 200; the table continues below."))
        }
    }

    /// The line above each part of a split table is in the document's language (or the
    /// table's, in a `lang` div), and in English tagged `/Lang (en)` for a language Typeset has
    /// no words for: it was English in every document. Members: Korean, German, a German div in
    /// a Korean document, Esperanto.
    @Test(arguments: [
        ("ko", nil, "전체 30열 중 1–", "en"), ("de", nil, "Spalten 1–", "en"), ("ko", "de", "Spalten 1–", "Lang (de)"),
        ("eo", nil, "Columns 1–", "Lang (en)"),
    ])
    func aSplitTablesPartsAreNamedInItsLanguage(
        document: String, division: String?, words: String, tag: String
    ) throws {
        let rows = Self.table(columns: 30, rows: 2) { row, column in "r\(row)c\(column)" }
        let body = division.map { "::: {lang=\($0)}\n\(rows)\n:::\n" } ?? rows
        let name = "split-table-\(document)-\(division ?? "")"
        let (pdf, _) = try Render.markdown("---\nlang: \(document)\n---\n\n" + body, name: name)
        let text = try PDFProbe.text(pdf)
        #expect(text.contains(words), "\(text.prefix(300))")
        #expect(!text.contains("Columns 1–") || words.hasPrefix("Columns"), "\(text.prefix(300))")
        let structure = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        #expect(structure.contains("Caption"), "\(structure.prefix(300))")
        // Set italic, but upright in Korean, whose Hangul is not set in italics.
        let fonts = try PDFProbe.fonts(pdf)
        let italic = fonts.contains { $0.hasSuffix("Italic") }
        #expect(italic == (words.hasPrefix("Columns") || words.hasPrefix("Spalten")), "\(fonts)")
        if tag.hasPrefix("Lang") {
            let expanded = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"]).output
            #expect(expanded.contains("/\(tag)"), "the words' language")
        }
    }

    /// Long words break in their column without making the table smaller; CJK cells break
    /// between ideographs; both stay inside the margins without overlapping.
    @Test(arguments: [
        (
            "long",
            "| name | value | note |\n|---|---|---|\n| Donaudampfschifffahrtsgesellschaftskapitänswitwe | "
                + "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz | short |\n"
        ),
        (
            "cjk",
            "| " + (0..<24).map { "열\($0)" }.joined(separator: " | ") + " |\n|"
                + String(repeating: "---|", count: 24) + "\n| "
                + (0..<24).map { "漢字\($0)한국어" }.joined(separator: " | ") + " |\n"
        ),
        (
            "mixed",
            "| id | " + (1..<40).map { "column\($0)" }.joined(separator: " | ") + " |\n|"
                + String(repeating: "---|", count: 40) + "\n| first | "
                + (1..<40).map { $0 % 5 == 0 ? "internationalization_identifier_\($0)" : "v\($0)" }.joined(
                    separator: " | ")
                + " |\n"
        ),
    ])
    func longAndCJKCellsStayInsideWithoutOverlap(name: String, markdown: String) throws {
        let (words, warnings, _) = try Self.render(markdown, name: "wide-table-\(name)")
        let overlapping = Self.overlaps(words)
        #expect(overlapping.isEmpty, "\(overlapping.count) overlaps, e.g. \(overlapping.prefix(3))")
        for word in words { #expect(word.xMin >= Self.left - 0.5 && word.xMax <= Self.right + 0.5, "\(word)") }
        #expect(warnings.filter { $0.contains("too wide for the measure") }.count <= 1, "\(warnings)")
        if name == "long" {
            let adjusted = warnings.contains { $0.contains("too wide for the measure") }
            #expect(!adjusted, "long words break instead: \(warnings)")
        }
        if name == "mixed" {
            let texts = words.map(\.text).joined(separator: " ")
            for column in 1..<40 { #expect(texts.contains("column\(column)"), "header \(column)") }
        }
    }
}
