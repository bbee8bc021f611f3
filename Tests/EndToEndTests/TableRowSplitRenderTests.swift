import Foundation
import TestSupport
import Testing
import Typesetter

/// A table row taller than a page, and quoted tables and code continued on another page, read
/// back from the PDF: the default theme's A4 page, 64 pt top and 72 pt bottom margins.
@Suite(.serialized) struct TableRowSplitRenderTests {
    static let pageHeight = 841.8898, top = 64.0, bottom = 72.0
    static var limit: Double { pageHeight - bottom }

    /// `count` words `<tag>1 <tag>2 …`.
    static func words(_ tag: String, _ count: Int) -> String {
        (1...count).map { "\(tag)\($0)" }.joined(separator: " ")
    }

    /// The words `<tag><number>` of the text area (no footer), in reading order of their lines.
    static func cellWords(_ words: [PDFWord], tag: String) -> [PDFWord] {
        words.filter { word in
            word.yMin < limit && word.text.hasPrefix(tag) && Int(word.text.dropFirst(tag.count)) != nil
        }.sorted { ($0.page, ($0.yMin * 4).rounded(), $0.xMin) < ($1.page, ($1.yMin * 4).rounded(), $1.xMin) }
    }

    /// Every page the cell tagged `tag` continues from ends with as many of its lines as fit:
    /// its last line's box ends above the bottom margin, and another line (the cell's line
    /// step on that page) would reach below it — unless it would leave fewer than 2 lines (the
    /// default widows) for the row's last page. All `count` words are there, once, in order.
    static func expectFilled(
        _ words: [PDFWord], tag: String, count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let cell = cellWords(words, tag: tag)
        #expect(
            cell.compactMap { Int($0.text.dropFirst(tag.count)) } == Array(1...count),
            "\(tag): all words once, in order",
            sourceLocation: sourceLocation)
        let pages = Array(Set(cell.map(\.page))).sorted()
        #expect(pages.count >= 2, "\(tag) is split", sourceLocation: sourceLocation)
        func lines(_ page: Int) -> [Double] {
            Array(Set(cell.filter { $0.page == page }.map { ($0.yMax * 100).rounded() / 100 })).sorted()
        }
        for (n, page) in pages.enumerated() {
            let here = lines(page)
            let last = here.last ?? 0
            #expect(
                last <= limit + 0.5, "\(tag) page \(page): last line ends at \(last), below \(limit)",
                sourceLocation: sourceLocation)
            guard n < pages.count - 1, here.count >= 3 else { continue }
            let steps = zip(here, here.dropFirst()).map { $1 - $0 }.sorted()
            let step = steps[steps.count / 2]
            let widowRule = n == pages.count - 2 && lines(pages.last!).count == 2
            #expect(
                last + step > limit || widowRule,
                "\(tag) page \(page): last line ends at \(last), room for another \(step) pt line above \(limit)",
                sourceLocation: sourceLocation)
        }
    }

    /// The table with its one tall row, as `shape` puts it: the tall cell left or right, in a
    /// quote, in a list, or beside a second tall cell of Title2 text.
    static func markdown(_ shape: String) -> String {
        let tall = words("w", 1500)
        switch shape {
        case "right": return "Intro.\n\n| a | b |\n|---|---|\n| short | \(tall) |\n| after | row |\n"
        case "quote":
            return "Intro.\n\n> Quoted.\n>\n> | a | b |\n> |---|---|\n> | \(tall) | short |\n> | after | row |\n"
        case "list": return "- Item.\n\n  | a | b |\n  |---|---|\n  | \(tall) | short |\n  | after | row |\n"
        case "larger":
            return
                "Intro.\n\n| a | b | c |\n|---|---|---|\n| \(words("w", 700)) | [\(words("v", 250))]{.title2} | mid "
                + "|\n| after | row | here |\n"
        default: return "Intro.\n\n| a | b |\n|---|---|\n| \(tall) | short |\n| after | row |\n"
        }
    }

    @Test(arguments: ["left", "right", "quote", "list", "larger"])
    func aTallRowFillsEachPageToTheBottomMargin(shape: String) throws {
        let (pdf, _) = try Render.markdown(Self.markdown(shape), name: "tall-row-\(shape)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let words = try PDFProbe.words(pdf)
        Self.expectFilled(words, tag: "w", count: shape == "larger" ? 700 : 1500)
        if shape == "larger" { Self.expectFilled(words, tag: "v", count: 250) }
        // The header row is repeated above the row's part on every later page.
        let pages = Set(Self.cellWords(words, tag: "w").map(\.page))
        for page in pages.sorted().dropFirst() {
            let first = words.filter { $0.page == page }.min { $0.yMin < $1.yMin }
            #expect(first?.text == "a", "page \(page) opens with the header: \(String(describing: first))")
        }
        #expect(words.contains { $0.text == "after" } && words.contains { $0.text == "short" || $0.text == "mid" })
    }

    /// Each footnote cited in a row split over pages is set at the foot of the page where its
    /// reference lands.
    @Test func notesFollowTheirReferencesInASplitRow() throws {
        let labels = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"]
        let cell = labels.enumerated().map { k, label in Self.words("w", 160 + k) + " cite\(label)[^\(label)]" }.joined(
            separator: " ")
        let notes = labels.map { "[^\($0)]: note\($0) explains it." }.joined(separator: "\n")
        let (pdf, _) = try Render.markdown(
            "| a | b |\n|---|---|\n| \(cell) | short |\n\n\(notes)\n", name: "tall-row-notes")
        let words = try PDFProbe.words(pdf)
        #expect(Set(words.map(\.page)).count >= 3)
        for label in labels {
            let cite = try #require(words.first { $0.text.hasPrefix("cite\(label)") }, "cite\(label)")
            let note = try #require(words.first { $0.text.hasPrefix("note\(label)") }, "note\(label)")
            #expect(note.page == cite.page, "\(label): cited on page \(cite.page), set on page \(note.page)")
            #expect(note.yMin > cite.yMax, "\(label): the note under its reference")
        }
    }

    /// The first and last rows (pt from the page's top) with ink darker than `threshold` in
    /// the strip `xMin`…`xMax` of `page`, rasterized at 144 dpi; nil when it is blank.
    static func inkRows(_ pdf: String, page: Int, xMin: Double, xMax: Double, threshold: UInt8 = 200) throws -> (
        top: Double, bottom: Double
    )? {
        let scale = 2.0
        let rows = try PDFProbe.rowsWithInk(
            pdf, page: page, dpi: 144,
            crop: [
                "-x", "\(Int(xMin * scale))", "-y", "0", "-W", "\(max(1, Int((xMax - xMin) * scale)))",
                "-H", "\(Int(pageHeight * scale))",
            ], threshold: threshold)
        guard let first = rows.first, let last = rows.last else { return nil }
        return (Double(first) / scale, Double(last + 1) / scale)
    }

    /// A quote's bar runs beside all the quote holds on a continued page: from the top margin,
    /// beside a table's repeated header row or a code block's `(continued)` cue, as it starts
    /// beside the block's first line on the page where the quote begins.
    @Test(arguments: ["rows", "tall row", "code"])
    func aQuoteBarStartsBesideTheRepeatedHeader(kind: String) throws {
        var markdown = "Intro.\n\n> Quoted.\n>\n"
        switch kind {
        case "rows": markdown += "> | a | b |\n> |---|---|\n" + (1...120).map { "> | row \($0) | \($0) |\n" }.joined()
        case "tall row": markdown += "> | a | b |\n> |---|---|\n> | \(Self.words("w", 1500)) | short |\n"
        default: markdown += "> ```\n" + (1...150).map { "> line \($0) of code\n" }.joined() + "> ```\n"
        }
        let (pdf, _) = try Render.markdown(markdown, name: "quoted-\(kind.replacingOccurrences(of: " ", with: "-"))")
        let words = try PDFProbe.words(pdf)
        let pages = Set(words.map(\.page)).max() ?? 0
        #expect(pages >= 3)
        // The bar: 2 pt wide, 1 pt right of the text area's left edge.
        let left = Typesetter.fittedPage(of: .default).margins.left
        for page in 2...pages {
            let bar = try #require(
                try Self.inkRows(pdf, page: page, xMin: left + 0.5, xMax: left + 1.5), "page \(page) has a bar")
            #expect(
                abs(bar.top - Self.top) <= 1, "page \(page): the bar starts at \(bar.top), the text area at \(Self.top)"
            )
            let lowest = words.filter { $0.page == page && $0.yMin < Self.limit }.map(\.yMax).max() ?? 0
            #expect(
                bar.bottom >= lowest - 1,
                "page \(page): the bar reaches the last line (\(lowest)), ends at \(bar.bottom)")
        }
    }
}
