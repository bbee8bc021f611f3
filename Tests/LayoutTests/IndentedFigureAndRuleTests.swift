import Layout
import Styling
import Testing
import Typography

/// A rule and a figure inside a list item, quote or div keep to the measure less the
/// container's indents, as the container's text does, and the quote bar beside them goes on:
/// a placeholder's panel never covers it.
@Suite struct IndentedFigureAndRuleTests {
    /// The horizontal extent of every line and filled rectangle on the first page.
    func extents(_ blocks: [StyledBlock]) throws -> (lines: [ClosedRange<Double>], fills: [ClosedRange<Double>]) {
        let page = try layout(blocks, page: smallPage(lines: 20)).pages[0]
        var lines: [ClosedRange<Double>] = []
        var fills: [ClosedRange<Double>] = []
        for element in page.elements {
            switch element {
            case .line(let from, let to, _, _): lines.append(min(from.x, to.x)...max(from.x, to.x))
            case .fill(let rect, _): fills.append(rect.x...(rect.x + rect.width))
            default: break
            }
        }
        return (lines, fills)
    }

    @Test(arguments: [(0.0, 0.0), (14, 0), (30, 12)])
    func aRuleKeepsToItsIndents(left: Double, right: Double) throws {
        let rule = StyledBlock(.rule(color: .black, thickness: 1, leftIndent: left, rightIndent: right))
        // Text area: 20 … 280 pt.
        #expect(try extents([rule]).lines == [(20 + left)...(280 - right)])
    }

    @Test(arguments: [(0.0, 0.0), (14, 0), (30, 12)])
    func aPlaceholderKeepsToItsIndentsBesideTheQuoteBar(left: Double, right: Double) throws {
        var image = StyledImage(path: "", alt: "missing")
        image.leftIndent = left
        image.rightIndent = right
        let quoted = StyledBlock(.image(image), quoteBars: left > 0 ? [1] : [])
        let (lines, fills) = try extents([quoted])
        #expect(fills.first == (20 + left)...(280 - right), "\(fills)")
        // The cross of the placeholder spans the same box; a bar at 21 pt stays uncovered.
        #expect(lines.filter { $0.lowerBound > 21 || left == 0 }.allSatisfy { $0 == (20 + left)...(280 - right) })
        if left > 0 { #expect(fills.allSatisfy { $0.lowerBound > 21.5 }, "\(fills)") }
    }

    /// A placeholder takes the width its source asks for (`<img width="100">`: 75 pt), at least
    /// 36 pt and at most the measure, at its alignment's side (centred by default).
    @Test func aPlaceholderTakesTheWidthAskedFor() throws {
        func fill(width: ImageDimension?, alignment: TextAlignment = .center) throws -> ClosedRange<Double>? {
            var image = StyledImage(path: "", alt: "missing")
            image.width = width
            image.alignment = alignment
            return try extents([StyledBlock(.image(image))]).fills.first
        }
        // Text area: 20 … 280 pt.
        #expect(try fill(width: .points(75)) == 112.5...187.5)
        #expect(try fill(width: .points(75), alignment: .right) == 205...280)
        #expect(try fill(width: .points(10), alignment: .left) == 20...56)
        #expect(try fill(width: .points(900)) == 20...280)
        #expect(try fill(width: .fraction(0.5), alignment: .left) == 20...150)
    }

    /// A code block too wide for its measure widens into the page's margins: on both sides at
    /// the top level, to the right only inside a quote or list item, so its panel never
    /// crosses the quote's bar or the item's edge.
    @Test(arguments: [0.0, 14, 30])
    func aWideCodeBlockWidensAwayFromItsContainersEdge(indent: Double) throws {
        let font = FontSpec(families: ["X"], size: 10)
        let line = String(repeating: "x", count: 54)  // 270 pt of the fake shaper's 5 pt letters
        var code = StyledBlock(
            .paragraph(
                StyledParagraph(
                    runs: [StyledRun(line, style: RunStyle(font: font))],
                    style: ParagraphStyle(baseFont: font, leftIndent: indent + 8, rightIndent: 8))),
            quoteBars: indent > 0 ? [1] : [])
        code.isCode = true
        code.background = RGBAColor(red: 0.9, green: 0.9, blue: 0.9)
        code.backgroundPadding = 8
        // Text area 70 … 330 pt: margins wide enough to widen into (48 pt kept, 8 pt padding).
        let setup = PageSetup(paper: PaperSize(width: 400, height: 300), margins: Margins(all: 70), blockSpacing: 0)
        let page = try layout([code], page: setup).pages[0]
        let fills = page.elements.compactMap { element -> Rect? in
            if case .fill(let rect, _) = element { rect } else { nil }
        }
        let panel = try #require(fills.first)
        if indent == 0 {
            #expect(panel.x < 70, "widened into the left margin: \(panel)")
        } else {
            // The panel starts at the container's edge, right of the bar at 71 pt.
            #expect(abs(panel.x - (70 + indent)) < 0.01, "\(panel)")
        }
        #expect(panel.x + panel.width > 330, "widened into the right margin: \(panel)")
    }
}
