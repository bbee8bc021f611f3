import Foundation
import Styling
import TestSupport
import Testing
import Typesetter
import Typography

/// Page design defaults, read back from the PDF: the built-in themes' measure, the front page's
/// title block, and how code blocks are fitted and broken across pages.
@Suite(.serialized) struct PageDesignTests {
    static let pageHeight = 841.8898

    /// Prose for measuring: ordinary English sentences, no Hangul, no code.
    static let prose = (0..<8).map { _ in
        "Typography is the craft of arranging type to make written language legible, readable and appealing when "
            + "displayed. "
            + "The arrangement of type involves selecting typefaces, point sizes, line lengths, line spacing and "
            + "letter spacing, "
            + "and adjusting the space between pairs of letters. A comfortable measure holds enough words for the eye "
            + "to settle "
            + "into a rhythm without losing its place on the way back to the start of the next line."
    }.joined(separator: "\n\n")

    /// Lines of body text: words grouped by page and baseline, left to right.
    static func lines(_ words: [PDFProbe.Word]) -> [[PDFProbe.Word]] { DocumentFeatureTests.lines(words) }

    @Test(arguments: ["default", "hig", "pretendard"])
    func builtInThemesSetSixtyToSeventyFiveCharactersALine(theme: String) throws {
        let options = RenderOptions(themeRequest: ThemeRequest(theme: theme))
        let (pdf, _) = try Render.markdown(Self.prose, name: "measure-\(theme)", options: options)
        let lines = Self.lines(try PDFProbe.words(pdf))
        let widest = lines.map { $0.last!.xMax - $0.first!.xMin }.max() ?? 0
        // Full lines only: a paragraph's last line is short.
        let full = lines.filter { $0.last!.xMax - $0.first!.xMin > widest * 0.9 }
        #expect(full.count >= 10)
        let counts = full.map { line in line.map(\.text.count).reduce(0, +) + line.count - 1 }.sorted()
        let median = counts[counts.count / 2]
        #expect((60...75).contains(median), "\(theme): \(median) characters a line (\(counts))")
    }

    /// The characters of each full line of Body text in `pdf` (a paragraph's short last line
    /// left out), sorted, and the left edge of the text.
    static func fullLineCharacters(_ pdf: String) throws -> (counts: [Int], left: Double) {
        let lines = Self.lines(try PDFProbe.words(pdf))
        let widest = lines.map { $0.last!.xMax - $0.first!.xMin }.max() ?? 0
        let full = lines.filter { $0.last!.xMax - $0.first!.xMin > widest * 0.9 }
        let counts = full.map { line in line.map(\.text.count).reduce(0, +) + line.count - 1 }.sorted()
        return (counts, lines.map { $0.first!.xMin }.min() ?? 0)
    }

    /// The default theme's measure is a number of characters of its Body face, the margins
    /// following from paper and measure: on every paper and at every Body size the full lines
    /// of ragged prose hold 60–72 characters (median), none more than 72.
    @Test(arguments: [
        ("a4", 10.5), ("a5", 10.5), ("letter", 10.5), ("a4", 9), ("a4", 16), ("letter", 16), ("a5", 9),
    ])
    func measureFollowsTheBodyFaceOnEveryPaperAndSize(paper: String, bodySize: Double) throws {
        var theme = Theme.default
        theme.styles[.body]!.size = bodySize
        let options = RenderOptions(theme: theme, paper: try PaperSize(parsing: paper))
        let name = "measure-\(paper)-\(bodySize)"
        let (pdf, _) = try Render.markdown(Self.prose, name: name, options: options)
        let (counts, left) = try Self.fullLineCharacters(pdf)
        #expect(counts.count >= 8, "\(name): \(counts.count) full lines")
        let median = counts[counts.count / 2]
        #expect((60...72).contains(median), "\(name): \(median) characters a line (\(counts))")
        #expect((counts.last ?? 0) <= 72, "\(name): \(counts)")
        // The measure is centred: the text starts where the paper less the measure leaves half.
        let width = try PaperSize(parsing: paper).width
        let lines = Self.lines(try PDFProbe.words(pdf))
        let right = lines.map { $0.last!.xMax }.max() ?? 0
        #expect(abs(left - (width - right)) < 12, "\(name): left margin \(left), right \(width - right)")
    }

    /// A theme that gives its margins keeps them, on any paper: the measure then does not
    /// follow the Body face.
    @Test func themeThatFixesMarginsKeepsThem() throws {
        let data = Data(#"{"extends": "default", "page": {"margins": "20mm 30mm"}}"#.utf8)
        let theme = try #require(ThemeLoader.decode(data, file: "fixed.json").0)
        #expect(theme.page.measureCharacters == nil)
        for paper in ["a4", "a5"] {
            let options = RenderOptions(theme: theme, paper: try PaperSize(parsing: paper))
            let (pdf, _) = try Render.markdown(Self.prose, name: "fixed-margins-\(paper)", options: options)
            let (_, left) = try Self.fullLineCharacters(pdf)
            #expect(abs(left - 30 * 72 / 25.4) < 0.5, "\(paper): text starts at \(left) pt, not 30 mm")
        }
        // Margins on the command line fix them as well.
        var options = RenderOptions(paper: .a5)
        options.margins = Margins(all: 50)
        let (pdf, _) = try Render.markdown(Self.prose, name: "fixed-margins-option", options: options)
        #expect(abs(try Self.fullLineCharacters(pdf).left - 50) < 0.5)
    }

    /// On A5 the title block's words are whole: each title word is one word of the PDF, on one line.
    @Test func titleBlockOnA5KeepsWordsWhole() throws {
        let title = "Considerations on Typographic Measurement"
        let markdown = "---\ntitle: \(title)\nauthor: A. Person\n---\n\n\(Self.prose)\n"
        let (pdf, _) = try Render.markdown(markdown, name: "title-a5", options: RenderOptions(paper: .a5))
        let words = try PDFProbe.words(pdf).filter { $0.page == 1 }
        for word in title.split(separator: " ") {
            #expect(words.contains { $0.text == word }, "'\(word)' is set whole")
        }
    }

    @Test func frontPageHasTitleSubtitleAuthorDateThenContentsAndNoRunningHead() throws {
        let markdown = """
            ---
            title: Annual Report
            subtitle: Figures and notes
            author: Jane Writer
            date: 2026-11-30
            header: "{title}"
            toc: true
            ---

            # Overview

            \(Self.prose)

            # Results

            Some results.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "front-page")
        let words = try PDFProbe.words(pdf)
        func top(_ text: String, page: Int = 1) -> Double? { words.first { $0.page == page && $0.text == text }?.yMin }
        let order = [top("Annual"), top("Figures"), top("Jane"), top("2026-11-30"), top("Contents")]
        #expect(order.allSatisfy { $0 != nil }, "\(order)")
        let ys = order.compactMap { $0 }
        #expect(ys == ys.sorted(), "title, subtitle, author, date, contents from the top: \(ys)")
        // The title is set once, in the LargeTitle role (larger than anything else on the page).
        #expect(
            words.filter { $0.text == "Annual" }.count == 2,
            "once on the title block, once in the running head of page 2")
        // No running head on page 1; the running head on page 2.
        let pageOneTop = words.filter { $0.page == 1 }.map(\.yMin).min() ?? 0
        #expect(abs(pageOneTop - (top("Annual") ?? 0)) < 0.01, "nothing above the title on page 1")
        #expect(words.contains { $0.page == 2 && $0.text == "Annual" && $0.yMax < 64 }, "running head on page 2")
        // The contents list the sections, not the title.
        #expect(words.filter { $0.page == 1 && $0.text == "Annual" }.count == 1)
        let contents = try #require(top("Contents"))
        #expect(words.contains { $0.page == 1 && $0.text == "Results" && $0.yMin > contents })
    }

    @Test func openingHeadingThatIsTheTitleIsNotRepeated() throws {
        let markdown = "---\ntitle: Field Guide\nauthor: A. Person\n---\n\n# Field Guide\n\nText.\n"
        let (pdf, _) = try Render.markdown(markdown, name: "title-heading")
        let words = try PDFProbe.words(pdf)
        #expect(words.filter { $0.text == "Guide" }.count == 1)
        let guide = try #require(words.first { $0.text == "Guide" })
        let author = try #require(words.first { $0.text == "Person" })
        #expect(guide.yMax < author.yMin, "the author follows the title heading")
    }

    /// `count` filler paragraphs then a code block of `lines` numbered lines, then a paragraph.
    static func codeDocument(filler count: Int, lines: Int) -> String {
        let paragraph = String(
            repeating: "Filler text that takes up room on the page so that the code lands near its foot. ", count: 5)
        let code = (1...lines).map { String(format: "code line %02d", $0) }.joined(separator: "\n")
        return Array(repeating: paragraph, count: count).joined(separator: "\n\n") + "\n\n```\n\(code)\n```\n\nAfter.\n"
    }

    /// Page of each code line, by its number.
    static func codePages(_ words: [PDFProbe.Word]) -> [Int: Int] {
        var pages: [Int: Int] = [:]
        let sorted = words.sorted { ($0.page, $0.yMin, $0.xMin) < ($1.page, $1.yMin, $1.xMin) }
        for (i, word) in sorted.enumerated()
        where word.text == "line" && i + 1 < sorted.count && i > 0 && sorted[i - 1].text == "code" {
            if let n = Int(sorted[i + 1].text) { pages[n] = word.page }
        }
        return pages
    }

    @Test func codeBlocksOfTwelveLinesAreNeverSplit() throws {
        // Filler amounts that put the block's start at many heights on the first page.
        for filler in 5...9 {
            let (pdf, _) = try Render.markdown(Self.codeDocument(filler: filler, lines: 12), name: "code12-\(filler)")
            let pages = Self.codePages(try PDFProbe.words(pdf))
            #expect(pages.count == 12)
            #expect(
                Set(pages.values).count == 1,
                "filler \(filler): lines on pages \(pages.sorted { $0.key < $1.key }.map(\.value))")
        }
    }

    @Test func longCodeBlocksSplitWithThreeLinesEachSideAndACue() throws {
        var splits = 0
        for filler in 5...9 {
            let (pdf, _) = try Render.markdown(Self.codeDocument(filler: filler, lines: 40), name: "code40-\(filler)")
            let words = try PDFProbe.words(pdf)
            let pages = Self.codePages(words)
            #expect(pages.count == 40)
            let perPage = Dictionary(grouping: pages.keys, by: { pages[$0]! })
            for (page, numbers) in perPage where perPage.count > 1 {
                #expect(numbers.count >= 3, "filler \(filler): page \(page) holds \(numbers.count) lines of the block")
            }
            if perPage.count > 1 {
                splits += 1
                // The continuation starts below the top margin by the cue's height.
                let firstOnNext = perPage.keys.sorted().dropFirst().first!
                let first = perPage[firstOnNext]!.min()!
                let line = try #require(
                    words.first { $0.page == firstOnNext && $0.text == String(format: "%02d", first) })
                #expect(line.yMin > 64 + 12, "room for the (continued) cue above line \(first): \(line.yMin)")
            }
        }
        #expect(splits > 0, "some filler amount puts the block across a page break")
    }

    @Test func wideCodeWidensThenShrinksAndKeepsItsColumns() throws {
        let diagram = (0..<6).map {
            "|" + String(repeating: "-", count: 40) + "+ box \($0) +" + String(repeating: "=", count: 45) + "|"
        }
        let (pdf, _) = try Render.markdown("```\n\(diagram.joined(separator: "\n"))\n```\n", name: "wide-code")
        let lines = Self.lines(try PDFProbe.words(pdf)).filter { $0.contains { $0.text == "box" } }
        #expect(lines.count == 6, "one PDF line per diagram line: \(lines.count)")
        let left = lines.map { $0.first!.xMin }.min()!
        let right = lines.map { $0.last!.xMax }.max()!
        let page = Typesetter.fittedPage(of: .default)
        #expect(
            left < page.margins.left && right > page.paper.width - page.margins.right,
            "the block widens into both margins: \(left)–\(right)")
        #expect(left >= CodeBlockRules.smallestMargin - 0.5 && right <= 595.2756 - CodeBlockRules.smallestMargin + 0.5)
        // Columns kept: every '|' at the end of a line lands at the same x.
        let ends = lines.map { $0.last!.xMax }
        #expect(ends.max()! - ends.min()! < 0.5)
        // Set smaller than the code size, but not below 70 % of it (code is 0.9 × Body = 9.5 pt;
        // a DejaVu Sans Mono word box is 1.164 em tall).
        let height = lines[0][0].height / 1.164
        #expect(height < 9.5 && height >= 9.5 * CodeBlockRules.smallestScale - 0.1, "code size \(height) pt")
    }
}
