import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Right-to-left and mixed-direction paragraphs, aligned every way, read back from the PDF's
/// word boxes: nothing crosses the text area's edges, right-aligned lines end at its right
/// edge and centred lines are centred in it. (Pango flips `PANGO_ALIGN_LEFT` for a
/// right-to-left paragraph and aligns each line within the layout's widest line; the composer's
/// own alignment must not be added on top of that.)
@Suite(.serialized) struct RightToLeftAlignmentTests {
    /// The default theme's text area on A4: its measure follows its Body face.
    static let page = Typesetter.fittedPage(of: .default)
    static let left = page.margins.left, right = page.paper.width - page.margins.right

    static let arabic = Array(repeating: "مرحبا بالعالم", count: 24).joined(separator: " ")
    static let hebrew = Array(repeating: "שלום עולם", count: 30).joined(separator: " ")
    /// Right-to-left base direction (the first strong letter is Arabic) with Latin words in it.
    static let mixedRightToLeft = Array(repeating: "مرحبا Typeset بالعالم", count: 18).joined(separator: " ")
    /// Left-to-right base direction with Arabic words in it.
    static let mixedLeftToRight = Array(repeating: "Hello مرحبا world", count: 20).joined(separator: " ")
    /// A word wider than the measure (broken between letters) after a right-to-left word.
    static let longWord = "مرحبا " + String(repeating: "x", count: 80)

    static let paragraphs = [arabic, hebrew, mixedRightToLeft, mixedLeftToRight, longWord]

    /// The words of the body (the page number excluded), grouped into lines: a word whose top
    /// is within 5 pt of a line's first word's is on that line (Latin and Arabic faces put
    /// their words' tops a few points apart; lines are 14 pt or more apart).
    static func lines(_ pdf: String) throws -> [[PDFProbe.Word]] {
        let words = try PDFProbe.words(pdf).filter { $0.yMax < 780 }.sorted { ($0.page, $0.yMin) < ($1.page, $1.yMin) }
        var lines: [[PDFProbe.Word]] = []
        for word in words {
            if let first = lines.last?.first, first.page == word.page, word.yMin - first.yMin < 5 {
                lines[lines.count - 1].append(word)
            } else {
                lines.append([word])
            }
        }
        return lines
    }

    /// Every word inside the text area, within 1 pt: poppler's boxes of the leftmost glyphs of
    /// a justified line of Arabic in the fallback face reach up to 0.55 pt further left than
    /// the advances Pango set the line with (measured; the same before this alignment fix).
    /// The fault this guards against put lines tens of points past the edge.
    func expectInsideTextArea(_ lines: [[PDFProbe.Word]], _ label: String) {
        for word in lines.joined() {
            #expect(word.xMin >= Self.left - 1 && word.xMax <= Self.right + 1, "\(label): \(word)")
        }
    }

    @Test(arguments: ["right", "center", "left", "justify"])
    func everyLineStaysInsideTheTextArea(alignment: String) throws {
        let markdown = Self.paragraphs.map { "::: {align=\(alignment)}\n\($0)\n:::" }.joined(separator: "\n\n")
        let (pdf, _) = try Render.markdown(markdown, name: "rtl-\(alignment)", options: RenderOptions())
        let lines = try Self.lines(pdf)
        #expect(lines.count >= 15, "several lines per paragraph: \(lines.count)")
        expectInsideTextArea(lines, alignment)
        for line in lines {
            let lo = line.map(\.xMin).min()!
            let hi = line.map(\.xMax).max()!
            switch alignment {
            case "right":
                #expect(abs(hi - Self.right) <= 0.5, "right-aligned line ends at the right edge: \(lo)…\(hi) \(line)")
            case "center":
                #expect(abs((lo + hi) / 2 - (Self.left + Self.right) / 2) <= 0.75, "centred line: \(lo)…\(hi) \(line)")
            default:
                // Left and justify are the start edge: the right for a right-to-left paragraph.
                #expect(
                    abs(lo - Self.left) <= 0.5 || abs(hi - Self.right) <= 0.5,
                    "flush with one edge: \(lo)…\(hi) \(line)")
            }
        }
    }

    /// A justified right-to-left paragraph with Latin words hyphenated at the end of its lines
    /// (the hyphen drawn after the Latin word, inside the line, not at its visual end), at
    /// measures from 325 to 355 pt: no word crosses either edge of the text area (within the
    /// 0.55 pt poppler's Arabic boxes reach past the advances), and some line is hyphenated.
    @Test func hyphenatedRightToLeftLinesStayInsideTheMeasure() throws {
        var hyphenated = 0
        for sides in stride(from: 120, through: 135, by: 5) {
            let markdown =
                "---\nmargins: 64pt \(sides)pt 72pt\n---\n\n::: {align=justify}\n\(Self.mixedRightToLeft)\n:::\n"
            let (pdf, _) = try Render.markdown(markdown, name: "rtl-hyphen-\(sides)", options: RenderOptions())
            let lines = try Self.lines(pdf)
            #expect(lines.count >= 5, "several lines: \(lines.count)")
            hyphenated += lines.joined().filter(\.endsInHyphen).count
            let left = Double(sides)
            let right = 595.2756 - Double(sides)
            for word in lines.joined() {
                #expect(word.xMin >= left - 0.6 && word.xMax <= right + 0.6, "margins \(sides) pt: \(word)")
            }
        }
        #expect(hyphenated > 0, "some line ends in a hyphen")
    }

    @Test func rightToLeftStartAlignedLinesEndAtTheRightEdge() throws {
        // The theme's left alignment is the start edge: an Arabic paragraph's lines, short last
        // line included, end at the right edge (not at the widest line's).
        let (pdf, _) = try Render.markdown(Self.arabic, name: "rtl-start", options: RenderOptions())
        let lines = try Self.lines(pdf)
        #expect(lines.count >= 3)
        for line in lines { #expect(abs(line.map(\.xMax).max()! - Self.right) <= 0.5, "\(line)") }
    }

    @Test func headingsListsQuotesAndCellsStayInsideTheTextArea() throws {
        let markdown = """
            # \(Self.arabic.prefix(60))

            ::: {align=right}
            - \(Self.arabic)
            - \(Self.mixedRightToLeft)
            :::

            ::: {align=center}
            > \(Self.hebrew)
            >
            > \(Self.longWord)
            :::

            | عمود | Column |
            |---:|:---:|
            | \(Self.arabic.prefix(120)) | \(Self.mixedLeftToRight.prefix(120)) |
            """
        let (pdf, _) = try Render.markdown(markdown, name: "rtl-blocks", options: RenderOptions())
        let lines = try Self.lines(pdf)
        #expect(lines.count >= 10)
        expectInsideTextArea(lines, "blocks")
    }
}
