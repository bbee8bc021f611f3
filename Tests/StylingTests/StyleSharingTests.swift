import DocumentModel
import MarkdownParser
import Styling
import Testing
import Typography

/// Runs, list markers, structure paths and blocks stay small when a document has very many of
/// them: runs that look alike share one appearance box, a list's markers share one style,
/// and the settings few blocks use are boxed.
@Suite struct StyleSharingTests {
    func paragraphs(_ markdown: String) -> [StyledParagraph] {
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        return Styler.style(document, theme: .default).blocks.compactMap {
            if case .paragraph(let paragraph) = $0.content { paragraph } else { nil }
        }
    }

    func boxes(_ runs: [StyledRun]) -> Set<ObjectIdentifier> {
        Set(runs.map { ObjectIdentifier($0.style.appearance) })
    }

    @Test func runsThatLookAlikeShareOneAppearanceWhateverTheirLinks() throws {
        let markdown = (0..<1_000).map { "[w\($0)](https://example.com/\($0))" }.joined(separator: " ")
        let runs = try #require(paragraphs(markdown).first).runs
        #expect(runs.count == 1_999, "1,000 links and the spaces between them")
        #expect(boxes(runs).count == 2, "one appearance for the links, one for the spaces")
        #expect(Set(runs.compactMap(\.style.link)).count == 1_000, "each link keeps its own target")
        #expect(MemoryLayout<StyledRun>.stride <= 48)
    }

    @Test func runsInMoreLooksThanTheRecentBoxesStillShareOneBoxALook() throws {
        // Six looks (text, italic, bold, struck, bold italic, link) in turn: more than the
        // boxes the table compares first, so most runs find their box by hashing.
        let looks = ["*a*", "**b**", "~~c~~", "***d***", "[e](#x)", "_**f**_", "g"]
        let markdown = String(repeating: looks.joined(separator: " ") + " ", count: 50) + "\n\n# x {#x}\n"
        let runs = try #require(paragraphs(markdown).first).runs
        let looksSeen = Set(runs.map(\.style.appearance))
        #expect(looksSeen.count == 6)
        #expect(boxes(runs).count == looksSeen.count, "one box a look")
    }

    /// A formula's appearance is one occurrence's: the table hands it back unheld, so that a
    /// document of many formulas does not keep every formula (its parsed nodes, its source)
    /// for as long as it is styled; text still shares its box.
    @Test func formulasAreNotHeldByTheTable() throws {
        let markdown = (0..<200).map { "w $x_{\($0)}$" }.joined(separator: " ")
        let runs = try #require(paragraphs(markdown).first).runs
        let formulas = runs.filter { $0.style.inlineFormula != nil }
        #expect(formulas.count == 200)
        var table = AppearanceTable()
        for run in formulas {
            #expect(table.shared(run.style).appearance === run.style.appearance)
        }
        #expect(table.count == 0, "\(table.count) formula appearances held")
        let text = runs.filter { $0.style.inlineFormula == nil }
        for run in text { _ = table.shared(run.style) }
        #expect(table.count == 1, "the words between share one box")
    }

    @Test func changingOneRunsStyleLeavesTheRunsSharingItAlone() throws {
        var runs = try #require(paragraphs("*a* b *c* d *e*").first).runs
        let italic = runs[2].style
        #expect(runs[0].style.appearance === italic.appearance)
        runs[0].style.color = RGBAColor(red: 1, green: 0, blue: 0)
        runs[0].style.font.size += 1
        #expect(runs[2].style == italic)
        #expect(runs[4].style == italic)
        #expect(runs[0].style != italic)
        #expect(runs[0].style.font.italic && runs[0].style.color.red == 1)
        runs[0].style.color = italic.color
        runs[0].style.font.size -= 1
        #expect(runs[0].style == italic, "equal settings in different boxes are equal styles")
    }

    @Test(arguments: ["- a\n", "1. a\n", "- [ ] a\n"])
    func aListsMarkersShareOneStyle(item: String) {
        let markers = paragraphs(String(repeating: item, count: 300)).compactMap(\.marker).flatMap { $0 }
        #expect(markers.count == 300)
        #expect(boxes(markers).count == 1)
        #expect(markers.allSatisfy { $0.style.font.families.last == "DejaVu Sans" && $0.style.link == nil })
        if item == "1. a\n" {
            #expect(markers.last?.text == "300.")
            #expect(markers.allSatisfy { $0.style.features.contains("tnum") })
        } else {
            #expect(markers.allSatisfy { !$0.style.features.contains("tnum") })
        }
    }

    @Test func aStructureElementKeepsItsTextsInThirtyTwoBytes() {
        var element = StructureElement(.figure, id: 3, alternativeText: "A map", language: "de")
        #expect(element.alternativeText == "A map" && element.language == "de")
        element.language = nil
        #expect(element == StructureElement(.figure, id: 3, alternativeText: "A map"))
        #expect(element != StructureElement(.figure, id: 3, alternativeText: "A plan"))
        element.alternativeText = nil
        #expect(element == StructureElement(.figure, id: 3))
        #expect(MemoryLayout<StructureElement>.stride <= 32)
    }

    @Test func aBlocksRarelySetSettingsRoundTrip() {
        let plain = StyledBlock(.pageBreak)
        var block = plain
        block.footnotes[1] = []
        block.footnoteLocations[1] = SourceLocation(file: "t.md", line: 4, column: 1)
        block.extraAnchors = ["x"]
        block.background = .black
        block.backgroundPadding = 2
        block.outline = OutlineEntry(title: "T", level: 1)
        #expect(block != plain)
        #expect(block.footnotes.keys.sorted() == [1] && block.footnoteLocations[1]?.line == 4)
        #expect(block.extraAnchors == ["x"] && block.background == .black && block.backgroundPadding == 2)
        #expect(block.outline?.title == "T" && block.hangingMarkers.isEmpty)
        let copy = block
        block.footnotes = [:]
        block.footnoteLocations = [:]
        block.extraAnchors = []
        block.background = nil
        block.backgroundPadding = 0
        block.outline = nil
        #expect(block == plain, "unset again, the block equals one that never had them")
        #expect(copy.extraAnchors == ["x"], "a copy keeps what it had")
    }
}
