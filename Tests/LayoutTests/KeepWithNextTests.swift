import Layout
import Styling
import Testing
import Typography

/// A heading keeps with the first two lines that follow it, whatever blocks hold them, and
/// list markers hang outside the block that opens their item.
@Suite struct KeepWithNextTests {
    func heading(_ text: String = "Heading") -> StyledBlock {
        var block = paragraph(text)
        block.keepWithNext = true
        return block
    }

    /// What follows the heading in each case: one-line blocks (list items, a `<details>`
    /// summary, a raw HTML line) before or without a longer paragraph.
    static let followers: [(name: String, blocks: [String])] = [
        ("three one-line items", ["li1", "li2", "li3"]),
        ("a summary, then a body", ["Summary", lines(4, tag: "B")]),
        ("an item, then a nested list", ["outer", "inner1", "inner2"]),
    ]

    @Test(arguments: 0..<followers.count) func headingKeepsWithTwoLinesAcrossBlocks(_ index: Int) throws {
        let follower = Self.followers[index]
        // Filler leaves room for the heading and exactly one line below it on page 1.
        let blocks = [paragraph(lines(8, tag: "F")), heading()] + follower.blocks.map { paragraph($0) }
        let result = try layout(blocks, page: smallPage(lines: 10))
        let page1 = result.lines.filter { $0.page == 1 }.map(\.text)
        #expect(!page1.contains("Heading"), "\(follower.name): the heading moves on with what follows it: \(page1)")
        let page2 = result.lines.filter { $0.page == 2 }.map(\.text)
        #expect(page2.first == "Heading", "\(follower.name): \(page2)")
        #expect(page2.count >= 3, "\(follower.name): the heading and two lines: \(page2)")
    }

    @Test func aHeadingWithRoomForTwoLinesStays() throws {
        let result = try layout(
            [paragraph(lines(7, tag: "F")), heading(), paragraph("li1"), paragraph("li2"), paragraph("li3")],
            page: smallPage(lines: 10))
        #expect(result.lines.filter { $0.page == 1 }.map(\.text).suffix(3) == ["Heading", "li1", "li2"])
    }

    @Test func theNextHeadingEndsAShortSectionsKeep() throws {
        // Section A holds one line; B's heading and its paragraph's first lines move on, A stays.
        let blocks = [
            paragraph(lines(6, tag: "F")), heading("A"), paragraph("a1"), heading("B"), paragraph(lines(4, tag: "B")),
        ]
        let result = try layout(blocks, page: smallPage(lines: 10))
        #expect(result.lines.filter { $0.page == 1 }.map(\.text).suffix(2) == ["A", "a1"])
        #expect(result.lines.filter { $0.page == 2 }.first?.text == "B")
    }

    @Test func aHeadingRightAfterAHeadingStaysWithIt() throws {
        let blocks = [paragraph(lines(7, tag: "F")), heading("A"), heading("B"), paragraph(lines(4, tag: "B"))]
        let result = try layout(blocks, page: smallPage(lines: 10))
        #expect(result.lines.filter { $0.page == 2 }.prefix(2).map(\.text) == ["A", "B"])
    }

    @Test func aTableFulfilsTheKeep() throws {
        // Heading, header row and first row are kept by the heading and the table; the
        // paragraph after the table may start a page.
        let font = FontSpec(families: ["X"], size: 10)
        func cell(_ t: String) -> StyledParagraph {
            StyledParagraph(runs: [StyledRun(t, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        }
        let table = StyledTable(
            alignments: [.left], header: [cell("Name")], rows: [[cell("row1")]], ruleColor: .black, cellPadding: 0)
        let blocks = [
            paragraph(lines(8, tag: "F")), heading(), StyledBlock(.table(table)), paragraph(lines(3, tag: "P")),
        ]
        let result = try layout(blocks, page: smallPage(lines: 12))
        #expect(result.lines.filter { $0.page == 1 }.map(\.text).suffix(3) == ["Heading", "Name", "row1"])
        #expect(result.lines.filter { $0.page == 2 }.first?.text.hasPrefix("P") == true)
    }

    /// A code block opening a list item, with its marker hung at the item's edge (10 pt).
    func codeItem(marker: String = "•") -> StyledBlock {
        let font = FontSpec(families: ["X"], size: 10)
        var style = ParagraphStyle(baseFont: font, leftIndent: 10 + 8)
        style.rightIndent = 8
        var block = StyledBlock(
            .paragraph(StyledParagraph(runs: [StyledRun("let x = 1", style: RunStyle(font: font))], style: style)),
            background: RGBAColor(hex: "#EEEEEE"), backgroundPadding: 8)
        block.isCode = true
        block.hangingMarkers = [
            HangingMarker(
                runs: [StyledRun(marker, style: RunStyle(font: font))], edge: 10,
                structure: [StructureElement(.label, id: 1)])
        ]
        return block
    }

    func texts(_ page: Page) -> [(text: String, x: Double, width: Double, baseline: Double)] {
        page.elements.compactMap {
            if case .text(let line, let x, let baseline) = $0 { (line.text, x, line.width, baseline) } else { nil }
        }
    }

    @Test(arguments: ["•", "10."]) func aMarkerHangsOutsideACodePanel(_ marker: String) throws {
        let result = try layout([codeItem(marker: marker)], page: smallPage(lines: 10))
        let page = try #require(result.pages.first)
        let panel = try #require(
            page.elements.lazy.compactMap { if case .fill(let rect, _) = $0 { rect } else { nil } }.first)
        let drawn = texts(page)
        let label = try #require(drawn.first { $0.text == marker })
        let code = try #require(drawn.first { $0.text == "let x = 1" })
        #expect(label.x + label.width <= panel.x - 4, "the marker ends before the panel: \(label) \(panel)")
        #expect(abs(label.x + label.width - (20 + 10 - 4.5)) < 1e-9, "0.45 em before the item's edge")
        #expect(label.baseline == code.baseline, "on the code's first baseline")
        #expect(drawn.count == 2, "no marker line of its own")
    }

    @Test func aMarkerSitsOnATablesFirstBaseline() throws {
        let font = FontSpec(families: ["X"], size: 10)
        func cell(_ t: String) -> StyledParagraph {
            StyledParagraph(runs: [StyledRun(t, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        }
        var table = StyledTable(
            alignments: [.left], header: [cell("Name")], rows: [[cell("row1")]], ruleColor: .black, cellPadding: 2)
        table.leftIndent = 16
        var block = StyledBlock(.table(table))
        block.hangingMarkers = [
            HangingMarker(
                runs: [StyledRun("1.", style: RunStyle(font: font))], edge: 16,
                structure: [StructureElement(.label, id: 1)])
        ]
        let result = try layout([block], page: smallPage(lines: 10))
        let drawn = texts(try #require(result.pages.first))
        let label = try #require(drawn.first { $0.text == "1." })
        let header = try #require(drawn.first { $0.text == "Name" })
        #expect(label.baseline == header.baseline)
        #expect(label.x + label.width < header.x)
    }
}
