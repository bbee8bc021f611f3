import Layout
import Styling
import Testing
import Typography

/// What layout draws carries the structure path the renderer tags it with.
@Suite struct StructureMarksTests {
    /// (page, text, roles of the structure path in force) for every text element, in drawing order.
    static func taggedTexts(_ pages: [Page]) -> [(page: Int, text: String, roles: [String])] {
        var result: [(Int, String, [String])] = []
        for page in pages {
            var path: [StructureElement] = []
            for element in page.elements {
                switch element {
                case .structure(let p): path = p
                case .text(let line, _, _): result.append((page.number, line.text, path.map(\.role.rawValue)))
                default: break
                }
            }
        }
        return result
    }

    @Test func aListItemsLabelComesBeforeItsBody() throws {
        var block = paragraph("Item text")
        if case .paragraph(var p) = block.content {
            p.marker = [StyledRun("1.", style: p.runs[0].style)]
            block.content = .paragraph(p)
        }
        block.structure = [
            StructureElement(.list, id: 1), StructureElement(.listItem, id: 2), StructureElement(.listBody, id: 2),
            StructureElement(.paragraph, id: 3),
        ]
        let texts = Self.taggedTexts(try layout([block], page: smallPage(lines: 10)).pages)
        #expect(texts.map(\.text) == ["1.", "Item text"])
        #expect(texts.map(\.roles) == [["L", "LI", "Lbl"], ["L", "LI", "LBody", "P"]])
    }

    @Test func aRepeatedTableHeaderAndRunningTextsAreArtifacts() throws {
        let font = FontSpec(families: ["X"], size: 10)
        func cell(_ s: String) -> StyledParagraph {
            StyledParagraph(runs: [StyledRun(s, style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        }
        let table = StyledTable(
            alignments: [.none], header: [cell("Head")], rows: (1...12).map { [cell("row \($0)")] },
            ruleColor: .black, cellPadding: 1)
        var block = StyledBlock(.table(table))
        block.structure = [StructureElement(.table, id: 7)]
        let collector = PageCollector()
        let options = LayoutOptions(
            page: smallPage(lines: 8), header: { _ in cell("Running head") }, footer: { n in cell("\(n)") })
        let paginator = Paginator(shaper: FakeShaper(), options: options, renderer: collector)
        try paginator.add(block)
        try paginator.finish()
        let texts = Self.taggedTexts(collector.pages)
        #expect(collector.pages.count >= 2)
        let heads = texts.filter { $0.text == "Head" }
        #expect(heads.count == collector.pages.count)
        #expect(heads.first?.roles == ["Table", "TR", "TH"])
        #expect(heads.dropFirst().allSatisfy { $0.roles == ["Artifact"] })
        #expect(texts.filter { $0.text.hasPrefix("row") }.allSatisfy { $0.roles == ["Table", "TR", "TD"] })
        #expect(
            texts.filter { $0.text == "Running head" || Int($0.text) != nil }.allSatisfy { $0.roles == ["Artifact"] })
    }

    @Test func blocksWithoutStructureAreTaggedByTheirContent() throws {
        let texts = Self.taggedTexts(try layout([paragraph("Plain")], page: smallPage(lines: 4)).pages)
        #expect(texts.map(\.roles) == [["P"]])
    }
}
